//! Rows of MTN MoMo Ghana's shapes (breaks are evidence; every row prints its balance before and
//! after, its fee and its E-LEVY): an amount typed over beside a levy the balance left out.

use rust_decimal::Decimal;

use super::{codes_on, of};
use crate::Category::{BuyGoods, ReceivedMoney, SendMoney};
use crate::statement::Transaction;

/// A row of `category` at `second` past 09:00 moving `amount` (negative: money out; as the MTN
/// reader does, its fee and levy included) with `fee` and `levy`, printing `before` and `after`
/// as its own balances.
fn mtn(
    category: crate::Category,
    second: u32,
    amount: &str,
    (fee, levy): (&str, &str),
    (before, after): (&str, &str),
) -> Transaction {
    let d = |s: &str| s.parse::<Decimal>().expect("a decimal");
    Transaction {
        fee: Some(d(fee)),
        tax: Some(d(levy)),
        balance_before: Some(d(before)),
        ..of(category, "R", second, amount, after)
    }
}

/// The findings MTN MoMo Ghana's own chain gives `rows`.
fn mtn_codes(rows: Vec<Transaction>) -> Vec<String> {
    let wallet = crate::wallets::find("mtn-momo-gh").expect("MTN MoMo Ghana");
    codes_on(rows, wallet.profile.chain)
}

#[test]
fn a_receipt_typed_over_by_the_levy_its_balance_left_out_fails() {
    // The sample's shape: a send of 9.50 with a fee of 0.04 and an E-LEVY of 0.10 whose balance
    // after leaves the levy out (27.96); the next row, a receipt of 50.50, prints 27.86 before.
    // Typed to 50.40 the receipt reads from 27.96 to its 78.36, but its own balance before says
    // it started from 27.86.
    let rows = |receipt: &str| {
        vec![
            mtn(SendMoney, 0, "-9.64", ("0.04", "0.10"), ("37.50", "27.96")),
            mtn(ReceivedMoney, 30, receipt, ("0", "0"), ("27.86", "78.36")),
            mtn(BuyGoods, 59, "-10", ("0", "0"), ("78.36", "68.36")),
        ]
    };
    let genuine = mtn_codes(rows("50.50"));
    assert!(
        genuine.contains(&"levy_after_balance".to_owned()),
        "{genuine:?}"
    );
    assert!(
        !genuine
            .iter()
            .any(|c| c == "amount_digit_edited" || c == "balance_chain_break")
    );
    for typed in ["50.40", "50.60", "51.50"] {
        let codes = mtn_codes(rows(typed));
        assert!(
            codes.contains(&"amount_digit_edited".to_owned()),
            "{typed}: {codes:?}"
        );
    }
}

#[test]
fn a_levied_amount_typed_over_by_its_levy_fails() {
    // A levied send whose balance after has taken its levy (27.86), typed from 9.50 to 9.60
    // (9.74 with its fee and levy): its balance after is then the running balance less the row
    // plus the levy, the shape of a balance leaving the levy out; but the next row's balance
    // before, 27.86, has taken no levy from it.
    let rows = |send: &str| {
        vec![
            mtn(SendMoney, 0, send, ("0.04", "0.10"), ("37.50", "27.96")),
            mtn(ReceivedMoney, 30, "50.50", ("0", "0"), ("27.86", "78.36")),
        ]
    };
    let genuine = mtn_codes(rows("-9.64"));
    assert!(
        genuine.contains(&"levy_after_balance".to_owned()),
        "{genuine:?}"
    );
    let mut typed = rows("-9.74");
    typed[0].balance = "27.86".parse().ok();
    let codes = mtn_codes(typed);
    assert!(
        codes.contains(&"amount_digit_edited".to_owned()),
        "{codes:?}"
    );
}
