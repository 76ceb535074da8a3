//! A digit typed over a balance where breaks are evidence (`balance_digit_edited`), and the
//! genuine shapes that must stay unread: another account's balances after the holder's
//! balance before, two rows printing the balance after both.

use super::{codes_on, row};
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
