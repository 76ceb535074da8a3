//! The printed tariff's bounds ([`super::Tariff`]) and the pairs that make them.

use chrono::NaiveDate;

use super::*;
use crate::statement::TransactionStatus;

/// A completed row `second`s past 09:00 on 2024-03-01 moving `net` lisente (negative: money
/// out) and printing `balance` lisente.
fn at(second: u32, category: Category, net: i64, balance: i64) -> Transaction {
    Transaction {
        completed_at: NaiveDate::from_ymd_opt(2024, 3, 1)
            .and_then(|d| d.and_hms_opt(9, second / 60, second % 60))
            .expect("a time of day"),
        status: TransactionStatus::Completed,
        category,
        paid_in: Decimal::new(net.max(0), 2),
        withdrawn: Decimal::new((-net).max(0), 2),
        balance: Some(Decimal::new(balance, 2)),
        ..Transaction::empty()
    }
}

/// The tariff of two withdrawals of 50 and 200 maloti printed beside their charge rows of
/// `small` and `large` lisente (the first charge row a second after its withdrawal), from a
/// balance of 1,000.
fn printed(small: i64, large: i64) -> Tariff {
    printed_moving(small, large, 20000)
}

/// [`printed`], the second withdrawal's balance moved by `moved` lisente (20,000 as
/// printed).
fn printed_moving(small: i64, large: i64, moved: i64) -> Tariff {
    let after = 95000 - small - moved;
    let rows = [
        at(0, Category::AgentWithdrawal, -5000, 95000),
        at(1, Category::Charges, -small, 95000 - small),
        at(100, Category::AgentWithdrawal, -20000, after),
        at(100, Category::Charges, -large, after - large),
    ];
    let refs: Vec<&Transaction> = rows.iter().collect();
    Tariff::of(
        [&refs[..2], &refs[2..]].into_iter(),
        Category::AgentWithdrawal,
    )
}

#[test]
fn bounds_come_from_the_withdrawals_printed_beside_their_charge_rows() {
    let tariff = printed(184, 422);
    let d = |n: i64| Decimal::new(n, 2);
    assert_eq!(tariff.bounds(d(10000)), (d(184), Some(d(422))));
    assert_eq!(tariff.bounds(d(5000)), (d(184), Some(d(184))));
    assert_eq!(tariff.bounds(d(1000)), (Decimal::ZERO, Some(d(184))));
    assert_eq!(tariff.bounds(d(70000)), (d(422), None));
    assert_eq!(
        tariff.charges(d(100), None).collect::<Vec<_>>(),
        [d(184), d(422)]
    );
}

#[test]
fn a_charge_row_grouped_with_another_debit_pairs_with_no_withdrawal() {
    // A withdrawal of 30 whose charge is taken without a row, then a send's charge of 2.78
    // taken first, two seconds later, then the send, one group: the charge row prints the
    // withdrawal's balance less 2.78, but it is the send's.
    let rows = [
        at(0, Category::AgentWithdrawal, -3000, 97000),
        at(2, Category::Charges, -278, 96722),
        at(3, Category::SendMoney, -10000, 86722),
    ];
    let refs: Vec<&Transaction> = rows.iter().collect();
    let tariff = Tariff::of(std::iter::once(&refs[..]), Category::AgentWithdrawal);
    assert_eq!(tariff.bounds(Decimal::new(3000, 2)), (Decimal::ZERO, None));
}

#[test]
fn a_send_paying_the_recipients_withdrawal_charge_pairs_with_none() {
    // The sample's send of 30 beside the recipient's withdrawal charge (1.84) and its
    // transfer charge (1.16): the first charge row prints the send's balance less 1.84, but
    // 1.84 is no transfer charge. Alone beside its transfer charge, the send pairs.
    let paid = [
        at(0, Category::SendMoney, -3000, 97000),
        at(0, Category::Charges, -184, 96816),
        at(0, Category::Charges, -116, 96700),
    ];
    let refs: Vec<&Transaction> = paid.iter().collect();
    let tariff = Tariff::of(std::iter::once(&refs[..]), Category::SendMoney);
    assert_eq!(tariff.bounds(Decimal::new(3000, 2)), (Decimal::ZERO, None));
    let mut plain = [paid[0].clone(), paid[2].clone()];
    plain[1].balance = Some(Decimal::new(96884, 2));
    let refs: Vec<&Transaction> = plain.iter().collect();
    let tariff = Tariff::of(std::iter::once(&refs[..]), Category::SendMoney);
    let c = Decimal::new(116, 2);
    assert_eq!(tariff.bounds(Decimal::new(3000, 2)), (c, Some(c)));
}

#[test]
fn a_withdrawal_typed_over_off_the_rise_is_left_out() {
    // The withdrawal of 200 typed over from 700 (its balance moved 700) beside a charge of 1.00,
    // below the 1.84 printed for 50: the pairs do not rise, and without it they do, so the rest
    // bound the tariff. Beside 4.22 the pairs rise and all are kept. Moved by 205 (a charge of 5
    // taken before it without a row), the pair is no typed-over shape: the table does not rise,
    // and bounds nothing.
    let d = |n: i64| Decimal::new(n, 2);
    let typed = printed_moving(184, 100, 70000);
    assert_eq!(typed.bounds(d(10000)), (d(184), None));
    let rising = printed_moving(184, 422, 70000);
    assert_eq!(rising.bounds(d(10000)), (d(184), Some(d(422))));
    let charged = printed_moving(184, 100, 20500);
    assert_eq!(charged.bounds(d(10000)), (Decimal::ZERO, None));
}

#[test]
fn a_tariff_that_does_not_rise_with_the_amount_bounds_nothing() {
    let tariff = printed(278, 184);
    assert_eq!(tariff.bounds(Decimal::new(10000, 2)), (Decimal::ZERO, None));
}
