//! Safaricom's chain on hand-made rows: a balance typed over beside a group that may have
//! started at any of its balances (a Fuliza draw and the payment it funds).

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::statement::{Statement, Transaction, TransactionStatus};

/// A completed row at `minute` past 09:00 on 2024-03-01: `net` (positive: money in), the
/// balance it prints and its Details.
fn row(receipt: &str, minute: u32, net: &str, balance: &str, details: &str) -> Transaction {
    let d = |s: &str| s.parse::<Decimal>().expect("a decimal");
    Transaction {
        receipt_no: receipt.to_owned(),
        completed_at: NaiveDate::from_ymd_opt(2024, 3, 1)
            .and_then(|day| day.and_hms_opt(9, minute, 0))
            .expect("a time of day"),
        details: details.to_owned(),
        status: TransactionStatus::Completed,
        paid_in: d(net).max(Decimal::ZERO),
        withdrawn: (-d(net)).max(Decimal::ZERO),
        balance: Some(d(balance)),
        ..Transaction::empty()
    }
}

/// The codes of the findings of an M-Pesa statement of `rows` (no SUMMARY).
fn codes(rows: Vec<Transaction>) -> Vec<String> {
    let statement = Statement {
        transactions: rows,
        ..Statement::default()
    };
    let wallet = crate::wallets::of(&statement.provider).expect("M-Pesa");
    crate::check::check(&statement.reading(), wallet, None)
        .findings
        .into_iter()
        .map(|f| f.code)
        .collect()
}

/// A Fuliza draw of 20.00 and the payment it funds, at one time: the group may have started
/// at 0.00 (the draw first) or at 20.00 (the payment first), so the break beside it, where
/// there is one, is of unknown size.
fn cycle(minute: u32) -> [Transaction; 2] {
    [
        row("F1", minute, "20.00", "20.00", "OverDraft of Credit Party"),
        row("F2", minute, "-20.00", "0.00", "Merchant Payment Online"),
    ]
}

/// `before`, a Fuliza group ([`cycle`]) at `minute`, then `after`.
fn around_cycle(
    before: Vec<Transaction>,
    minute: u32,
    after: Vec<Transaction>,
) -> Vec<Transaction> {
    before
        .into_iter()
        .chain(cycle(minute))
        .chain(after)
        .collect()
}

/// Whether `codes` name an edit (a balance or an amount).
fn edited(codes: &[String]) -> bool {
    codes.iter().any(|c| c.contains("edited"))
}

/// Asserts that `genuine` shows no edit and fails as `balance_digit_edited` once row `index`'s
/// balance is typed over to `balance`.
fn typed_over_fails(genuine: Vec<Transaction>, index: usize, balance: &str) {
    let clean = codes(genuine.clone());
    assert!(!edited(&clean), "{clean:?}");
    let mut forged = genuine;
    forged[index].balance = Some(balance.parse().expect("a decimal"));
    let found = codes(forged);
    assert!(
        found.contains(&"balance_digit_edited".to_owned()),
        "{found:?}"
    );
}

#[test]
fn a_balance_typed_over_before_a_fuliza_group_fails() {
    // A receipt repaid at once, then a Fuliza draw and the payment it funds.
    let genuine = around_cycle(
        vec![
            row("R0", 0, "100.00", "100.00", "Funds received from"),
            row("R1", 1, "-100.00", "0.00", "OD Loan Repayment to"),
        ],
        2,
        vec![row("R2", 3, "50.00", "50.00", "Funds received from")],
    );
    // The repayment's 0.00 typed up to 0.01: the break into it is known (0.01), the one out of
    // it is not (the group may have started at 0.00 or 20.00), and 0.00 links it.
    typed_over_fails(genuine, 1, "0.01");
}

#[test]
fn a_balance_typed_over_after_a_fuliza_group_fails() {
    // A Fuliza draw and the payment it funds, then a deposit of 2,500.00 and a repayment.
    let genuine = around_cycle(
        vec![row("R0", 0, "20.00", "20.00", "Funds received from")],
        1,
        vec![
            row("R1", 2, "2500.00", "2520.00", "Customer Deposit at Agent"),
            row("R2", 3, "-500.00", "2020.00", "OD Loan Repayment to"),
        ],
    );
    // The deposit's balance typed up by 50.00: the break out of it is known (-50.00), the one
    // into it is not, and 2,570.00 moved back by 50.00, less the deposit, is 20.00, a balance
    // of the group before.
    typed_over_fails(genuine, 3, "2570.00");
}

#[test]
fn a_genuine_break_beside_a_fuliza_group_is_no_edit() {
    // A send whose balance is 7.00 off the chain (a charge Safaricom took without a row), the
    // group after it starting from neither: two unlisted movements, not one balance typed over.
    let rows = around_cycle(
        vec![
            row("R0", 0, "100.00", "100.00", "Funds received from"),
            row("R1", 1, "-50.00", "43.00", "Customer Transfer to"),
        ],
        2,
        Vec::new(),
    );
    let found = codes(rows);
    assert!(!edited(&found), "{found:?}");
}
