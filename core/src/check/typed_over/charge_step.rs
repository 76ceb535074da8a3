//! A charge row typed over, read from its own step (`amount_digit_edited`, see [`super`]):
//! Vodacom Lesotho prints a debit's charge row beside it, and the charge row's balance is the
//! debit's less the charge, whatever the balance before the group (which a movement without a
//! row may have moved).

use rust_decimal::Decimal;

use super::order::takes_charge;
use super::shape::{Shape, small_charge};
use super::tariff::the_send;
use super::{CENT, TENS, TypedOver};
use crate::statement::Transaction;

/// A charge row (`Category::Charges`, below [`TENS`], taking money) of a `group` holding one
/// debit besides its charge rows, whose balance no row's balance, nor the running `balance`
/// before the group, less its printed charge gives, but another row's less an amount one digit
/// away does (a withdrawal's charge of 4.15, its balance 4.15 below the withdrawal's, printed
/// 4.10): the charge that moved is one digit off the charge printed.
///
/// On Vodacom Lesotho's genuine sample, of the 79 charge rows taking money beside one debit
/// (withdrawals, sends and payments; listed before or after it; two beside one send, chained),
/// 77 print another row's balance less their charge. The other two are a send's one charge
/// row, which may fall by a second charge taken with it without a row (its 2.78 falling by
/// 4.51 and 1.84 by 3.00 beside sends paying their recipient's withdrawal charge:
/// [`Shape::send`]): such a row is read only where it fell by less than it prints
/// ([`send_charge_off`]). `None` where the group holds another debit (a charge row may then be
/// either's).
pub(in crate::check) fn charge_off_its_step(
    group: &[&Transaction],
    balance: Option<Decimal>,
) -> Option<TypedOver> {
    let debits = group
        .iter()
        .filter(|t| !small_charge(t) && t.net() < Decimal::ZERO)
        .count();
    if debits != 1 {
        return None;
    }
    if Shape::of(group, None, false).send {
        return send_charge_off(group);
    }
    group.iter().filter(|c| small_charge(c)).find_map(|c| {
        let own = c.balance?;
        let exact = |b: Decimal| b + c.net() == own;
        let others = || {
            group
                .iter()
                .filter(|t| !std::ptr::eq(**t, *c))
                .filter_map(|t| t.balance)
        };
        if balance.is_some_and(exact) || others().any(exact) {
            return None;
        }
        others()
            .map(|b| own - b)
            .filter(|step| *step < Decimal::ZERO && -*step < TENS)
            .find_map(|step| TypedOver::of(c, step, CENT))
    })
}

/// A send's one charge row (below [`TENS`]) that fell from the send's balance by less than it
/// prints, one digit away: a second charge taken with it without a row only adds (the sample's
/// 2.78 falling by 4.51 beside a send of 94), so such a row fell by its own charge (a plain
/// send's transfer charge of 1.16 typed to 6.16). One that fell by more is not read: the second
/// charge is its transfer charge or its recipient's withdrawal charge, and reading it off the
/// printed tariffs' bounds flagged genuine statements whose tariff changed mid-way (a review's
/// generator: 14 of 12,000).
fn send_charge_off(group: &[&Transaction]) -> Option<TypedOver> {
    let send = the_send(group)?;
    let mut charges = group.iter().filter(|t| takes_charge(group, t));
    let (Some(c), None) = (charges.next(), charges.next()) else {
        return None;
    };
    let fell = send.balance? - c.balance?;
    (c.withdrawn < TENS && fell > Decimal::ZERO && fell < c.withdrawn)
        .then(|| TypedOver::of(c, -fell, CENT))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Category;
    use crate::statement::TransactionStatus;

    fn row(category: Category, net: &str, balance: &str) -> Transaction {
        let d = |s: &str| s.parse::<Decimal>().expect("a decimal");
        Transaction {
            category,
            status: TransactionStatus::Completed,
            paid_in: d(net).max(Decimal::ZERO),
            withdrawn: (-d(net)).max(Decimal::ZERO),
            balance: Some(d(balance)),
            ..Transaction::empty()
        }
    }

    fn off(rows: &[Transaction], balance: &str) -> bool {
        let group: Vec<&Transaction> = rows.iter().collect();
        charge_off_its_step(&group, balance.parse().ok()).is_some()
    }

    #[test]
    fn a_charge_row_one_digit_off_its_step_is_typed_over() {
        let w = |charge: &str| {
            [
                row(Category::AgentWithdrawal, "-85", "1160.95"),
                row(Category::Charges, charge, "1156.80"),
            ]
        };
        // The balance before moved by a charge taken without a row: 1252.00 - 85 - 6.05.
        assert!(!off(&w("-4.15"), "1252.00"));
        for typed in ["-4.10", "-9.15"] {
            assert!(off(&w(typed), "1252.00"), "{typed}");
        }
        // Two digits off, or ten units or more: not the shape of one typed over here.
        assert!(!off(&w("-5.10"), "1252.00"));
    }

    #[test]
    fn a_sends_charges_chained_or_falling_by_a_second_charge_are_no_evidence() {
        // The sample's send of 30 beside the recipient's withdrawal charge and its transfer
        // charge, chained: each is exact from the other's or the send's balance.
        let both = [
            row(Category::SendMoney, "-30", "207.43"),
            row(Category::Charges, "-1.16", "204.43"),
            row(Category::Charges, "-1.84", "205.59"),
        ];
        assert!(!off(&both, "237.43"));
        // Its send of 94 whose one charge row of 2.78 fell by 4.51 (1.73 taken with it).
        let one = [
            row(Category::Charges, "-2.78", "157.89"),
            row(Category::SendMoney, "-94.00", "162.40"),
        ];
        assert!(!off(&one, "256.40"));
        // Its withdrawal whose charge row is listed first, and one charged first.
        let listed_first = [
            row(Category::Charges, "-1.84", "145.58"),
            row(Category::AgentWithdrawal, "-10.00", "147.42"),
        ];
        assert!(!off(&listed_first, "157.42"));
        let charged_first = [
            row(Category::Charges, "-1.84", "155.58"),
            row(Category::AgentWithdrawal, "-10.00", "145.58"),
        ];
        assert!(!off(&charged_first, "157.42"));
    }
    #[test]
    fn a_sends_one_charge_row_falling_by_less_than_it_prints_is_typed_over() {
        // A send of 50 beside its transfer charge of 1.16: typed to 6.16 (or 1.18), the row
        // fell by less than it prints, which no second charge explains.
        let send = |charge: &str| {
            [
                row(Category::SendMoney, "-50", "41.16"),
                row(Category::Charges, charge, "40.00"),
            ]
        };
        assert!(!off(&send("-1.16"), "91.16"));
        for typed in ["-6.16", "-1.18"] {
            assert!(off(&send(typed), "91.16"), "{typed}");
        }
        // Typed down (1.06), it fell by more: a second charge may be the rest.
        assert!(!off(&send("-1.06"), "91.16"));
    }
}
