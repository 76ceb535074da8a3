//! A digit typed over a balance (`balance_digit_edited`), and the genuine shapes that must stay
//! unread: another account's balances after the holder's balance before, two rows printing the
//! balance after both, and where breaks are no evidence (Vodacom Lesotho) the wallet's own
//! movements without a row that cancel out.

use super::{codes_on, listed, row};
use crate::Category;
use crate::statement::Transaction;

/// The findings MTN MoMo Ghana's own chain gives `rows` (breaks are evidence; rows up to 120 s
/// apart may have settled in the other order).
fn mtn_codes(rows: Vec<Transaction>) -> Vec<String> {
    let wallet = crate::wallets::find("mtn-momo-gh").expect("MTN MoMo Ghana");
    codes_on(rows, wallet.profile.chain)
}

#[test]
fn a_balance_typed_over_beside_a_row_within_two_minutes_fails() {
    // Before: the receipt's balance typed from 1,300 to 1,800 was read with the debit 29 s
    // later as rows settled out of order, from their last balance alone, and passed.
    let rows = |balance: i64| {
        vec![
            row("A", 0, -50, 1_000),
            row("B", 30, 300, balance),
            row("C", 59, -500, 800),
        ]
    };
    assert!(mtn_codes(rows(1_300)).is_empty());
    assert_eq!(mtn_codes(rows(1_800)), ["balance_digit_edited"]);
}

#[test]
fn a_balance_typed_over_inside_a_group_whose_last_balance_agrees_fails() {
    let rows = |balance: i64| {
        vec![
            row("A", 0, -50, 1_000),
            row("B", 30, 300, balance),
            row("C", 31, -500, 800),
        ]
    };
    assert!(mtn_codes(rows(1_300)).is_empty());
    assert_eq!(mtn_codes(rows(1_900)), ["balance_digit_edited"]);
}

#[test]
fn another_accounts_balance_after_the_holders_balance_before_is_no_edit() {
    // A transfer to another account printing the holder's balance before (124.26) and the
    // other account's after: the holder's balance moved by the amount (the next row's balance
    // before is 93.76). Its balance after is no digit from 93.76: another account's.
    let d = |s: &str| s.parse().expect("a decimal");
    let at = |second: u32, net: i64, before: &str, after: &str| Transaction {
        balance_before: Some(d(before)),
        balance: Some(d(after)),
        paid_in: d("0"),
        withdrawn: rust_decimal::Decimal::from(-net),
        ..row("X", second, net, 0)
    };
    let rows = vec![
        at(0, -10, "134.26", "124.26"),
        Transaction {
            withdrawn: d("30.50"),
            ..at(10, -30, "124.26", "25036.44")
        },
        at(50, -10, "93.76", "83.76"),
    ];
    assert_eq!(mtn_codes(rows), ["balance_of_another_account"]);
}

#[test]
fn two_rows_printing_the_balance_after_both_are_no_edit() {
    // A receipt and a repayment taken from it in one second, both printing the balance after
    // both: no order chains them, and neither balance is read back by a digit.
    let rows = vec![
        row("A", 0, -100, 0),
        row("B", 30, 5_000, 4_000),
        row("C", 30, -1_000, 4_000),
        row("D", 59, -10, 3_990),
    ];
    assert!(mtn_codes(rows).is_empty());
}

/// The findings Vodacom Lesotho's own chain gives `rows` (breaks are no evidence).
fn vodacom_codes(rows: Vec<Transaction>) -> Vec<String> {
    let wallet = crate::wallets::find("vodacom-mpesa-ls").expect("Vodacom Lesotho");
    codes_on(rows, wallet.profile.chain)
}

#[test]
fn a_balance_typed_over_by_ten_units_or_more_fails_where_breaks_are_no_evidence() {
    // A withdrawal of 25 printing 2,995.82 typed to 2,945.82, between a receipt and a paybill
    // hours apart: the paybill goes on from 2,995.82, the break in and out cancel, and the gap
    // (50) is more than any charge taken or credited without a row may be.
    let rows = |balance: &str| {
        listed(&[
            (Category::ReceivedMoney, 0, "5", "3020.82"),
            (Category::AgentWithdrawal, 20, "-25", balance),
            (Category::Paybill, 40, "-5", "2990.82"),
        ])
    };
    let spaced = |mut rows: Vec<Transaction>| {
        for (i, t) in rows.iter_mut().enumerate() {
            t.completed_at += chrono::Duration::hours(i64::try_from(i).unwrap_or(0));
        }
        rows
    };
    assert!(vodacom_codes(spaced(rows("2995.82"))).is_empty());
    assert_eq!(
        vodacom_codes(spaced(rows("2945.82"))),
        ["balance_digit_edited"]
    );
    // A units digit (2.00 off) may be a charge taken without its row and one credited: unread.
    assert!(!vodacom_codes(spaced(rows("2993.82"))).contains(&"balance_digit_edited".to_owned()));
}

/// Rows made by `listed`, each `(category, net, balance)` an hour after the one before, rows
/// marked `true` a second after the one before instead (one group).
fn hours_apart(spec: &[(Category, &str, &str, bool)]) -> Vec<Transaction> {
    let mut at = 0;
    let rows: Vec<(Category, u32, &str, &str)> = spec
        .iter()
        .map(|&(category, net, balance, with_before)| {
            at += if with_before { 1 } else { 3_600 };
            (category, at, net, balance)
        })
        .collect();
    let mut made = listed(
        &rows
            .iter()
            .map(|&(c, _, n, b)| (c, 0, n, b))
            .collect::<Vec<_>>(),
    );
    for (t, (_, second, ..)) in made.iter_mut().zip(&rows) {
        t.completed_at += chrono::Duration::seconds(i64::from(*second));
    }
    made
}

#[test]
fn the_wallets_own_movements_that_cancel_are_no_balance_typed_over() {
    // Drawn genuine shapes (`core/tests/quirk_draw.rs`, seeds 2008 and 15762 of an earlier
    // version): a receipt whose sender paid the withdrawal charge (5.00, its row printing 0
    // beside another account's balance) lands on a withdrawal of 110 whose own charge of 5.00,
    // taken without a row, lands on the next group.
    let credited = hours_apart(&[
        (Category::BuyGoods, "-5", "972.08", false),
        (Category::ReceivedMoney, "150", "1122.08", false),
        (Category::Charges, "0", "178562.63", true),
        (Category::AgentWithdrawal, "-110", "1017.08", false),
        (Category::AgentWithdrawal, "-770", "242.08", false),
        (Category::Charges, "-7.06", "235.02", true),
    ]);
    assert!(!vodacom_codes(credited).contains(&"balance_digit_edited".to_owned()));
    // A withdrawal of 270 whose charge (5.00) is taken without a row, then a withdrawal of 295
    // and its charge row of 5.00: read from 1,824.88 the group chains by chance once its
    // charge row is read as 1,819.88, but the next group goes on from the 1,519.88 printed.
    let by_chance = hours_apart(&[
        (Category::Paybill, "-2", "2094.88", false),
        (Category::AgentWithdrawal, "-270", "1824.88", false),
        (Category::AgentWithdrawal, "-295", "1524.88", false),
        (Category::Charges, "-5", "1519.88", true),
        (Category::ReceivedMoney, "520", "2039.88", false),
    ]);
    assert!(!vodacom_codes(by_chance).contains(&"balance_digit_edited".to_owned()));
}

#[test]
fn a_row_printing_the_balance_before_its_own_movement_is_no_balance_typed_over() {
    // A review's shapes (2026-12-01): a receipt of 300 printing the balance before it, its
    // amount landing on the next group (the sample's receipt printing 0 beside the balance
    // before it, with its amount printed), alone or with a repayment taken from it a second
    // later; and a debit doing the same.
    for repaid_with_it in [false, true] {
        let rows = hours_apart(&[
            (Category::AgentDeposit, "520.40", "520.40", false),
            (Category::ReceivedMoney, "300", "520.40", false),
            (
                Category::MobileLoanRepayment,
                "-150.25",
                "670.15",
                repaid_with_it,
            ),
            (Category::AirtimeAndBundles, "-10", "660.15", false),
        ]);
        assert!(!vodacom_codes(rows).contains(&"balance_digit_edited".to_owned()));
    }
    let debit = hours_apart(&[
        (Category::ReceivedMoney, "1000", "1345.60", false),
        (Category::BuyGoods, "-200", "1345.60", false),
        (Category::AirtimeAndBundles, "-20", "1125.60", false),
    ]);
    assert!(!vodacom_codes(debit).contains(&"balance_digit_edited".to_owned()));
}

#[test]
fn rows_printing_a_neighbours_balance_leave_the_chain_going_on_from_their_amount() {
    // A second review's shapes (2026-12-01): a run of advances each printing the balance before
    // its own movement, and a row printing the balance after the next row hours later (as
    // Safaricom's 2023 sample prints one). Before, the row after was read as an amount typed
    // over (printed 200.00, moved 500.00) or a balance typed over.
    let run = hours_apart(&[
        (Category::AgentDeposit, "1000", "1000", false),
        (Category::MobileLoanDisbursement, "200", "1000", false),
        (Category::MobileLoanDisbursement, "500", "1200", false),
        (Category::MobileLoanDisbursement, "200", "1700", false),
        (Category::AirtimeAndBundles, "-10", "1890", false),
    ]);
    assert_eq!(vodacom_codes(run), ["balance_chain_break"]);
    let after_next = hours_apart(&[
        (Category::AgentDeposit, "1000", "1000", false),
        (Category::BuyGoods, "-100", "600", false),
        (Category::BuyGoods, "-300", "600", false),
        (Category::AirtimeAndBundles, "-10", "590", false),
    ]);
    assert_eq!(vodacom_codes(after_next), ["balance_chain_break"]);
    // An amount typed over there still fails: 300 printed for 900, the balances as printed.
    let typed = hours_apart(&[
        (Category::AgentDeposit, "1000", "1000", false),
        (Category::ReceivedMoney, "300", "1900", false),
        (Category::AirtimeAndBundles, "-10", "1890", false),
    ]);
    assert_eq!(vodacom_codes(typed), ["amount_digit_edited"]);
}
