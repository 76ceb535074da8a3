//! The rows a critical finding names, so that the report can leave them out of its features
//! (issue 51): a statement that is `failed` because of rows a wallet cannot print never scores
//! above the same statement without them.
//!
//! Each row is named by the first of these that holds, with the code of the finding that names
//! it (the predicates are the checks' own: [`super::plausible`] and [`super::duplicates`]):
//! - `impossible_row_rate`: every row at a completion time holding more than the wallet's
//!   `max_rows_at_one_time` completed rows (which of them are genuine cannot be told);
//! - `duplicate_rows`: each extra copy of a row ([`super::duplicates::same_row`]);
//! - `before_wallet_launch`: a row dated before the wallet existed;
//! - `after_request_date`: a row dated after the statement's request date.
//!
//! Called by the report (`assemble`) before the features, on the thread that computes them
//! while [`super::check`] runs on the other; a debug assertion there checks that every code
//! named here is a critical finding of the check.

use chrono::NaiveTime;

use super::duplicates::same_row;
use crate::statement::{Statement, Transaction};
use crate::wallets::Wallet;

/// The codes of the findings that name rows, in the order a row is attributed to them.
pub const NAMING_CODES: [&str; 4] = [
    "impossible_row_rate",
    "duplicate_rows",
    "before_wallet_launch",
    "after_request_date",
];

/// The rows of `by_time` (every row of `statement`, of `wallet`, in reading order) that a
/// critical finding names: `(index in by_time, finding code)`, in reading order; empty for a
/// statement with none (the common case, which allocates nothing).
pub fn named_rows(
    statement: &Statement,
    wallet: &Wallet,
    by_time: &[&Transaction],
) -> Vec<(usize, &'static str)> {
    let launch = wallet.profile.launched.map(|l| l.date);
    let most = wallet.profile.max_rows_at_one_time;
    let requested = statement.requested_at;
    let timed = by_time
        .iter()
        .any(|t| t.completed_at.time() != NaiveTime::MIN);
    let mut named = Vec::new();
    let mut start = 0;
    for same_time in by_time.chunk_by(|a, b| a.completed_at == b.completed_at) {
        let crowded = timed && same_time.iter().filter(|t| t.is_completed()).count() > most;
        for (i, row) in same_time.iter().enumerate() {
            let day = row.completed_at.date();
            let code = if crowded {
                Some(NAMING_CODES[0])
            } else if same_time[..i].iter().any(|earlier| same_row(earlier, row)) {
                Some(NAMING_CODES[1])
            } else if launch.is_some_and(|l| day < l) {
                Some(NAMING_CODES[2])
            } else if requested.is_some_and(|r| day > r) {
                Some(NAMING_CODES[3])
            } else {
                None
            };
            if let Some(code) = code {
                named.push((start + i, code));
            }
        }
        start += same_time.len();
    }
    named
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statement::TransactionStatus;
    use chrono::NaiveDate;
    use rust_decimal::Decimal;

    fn row(receipt: &str, day: (i32, u32, u32), second: u32) -> Transaction {
        Transaction {
            receipt_no: receipt.to_owned(),
            completed_at: NaiveDate::from_ymd_opt(day.0, day.1, day.2)
                .and_then(|d| d.and_hms_opt(9, 0, second))
                .unwrap_or_default(),
            details: "Funds received from 0700 - A".to_owned(),
            status: TransactionStatus::Completed,
            paid_in: Decimal::from(100),
            ..Transaction::empty()
        }
    }

    #[test]
    fn each_critical_check_names_its_rows() {
        let mut rows = vec![
            row("EARLY", (2006, 1, 1), 0),
            row("A", (2024, 1, 2), 0),
            row("A", (2024, 1, 2), 0),
            row("LATE", (2024, 9, 1), 0),
        ];
        let wallet = crate::wallets::find("mpesa").expect("Safaricom M-Pesa is a wallet");
        let most = wallet.profile.max_rows_at_one_time;
        rows.extend((0..=most).map(|i| row(&format!("B{i:03}"), (2024, 1, 3), 5)));
        let statement = Statement {
            requested_at: NaiveDate::from_ymd_opt(2024, 6, 30),
            transactions: rows,
            ..Statement::default()
        };
        let reading = statement.reading();
        let named = named_rows(&statement, wallet, &reading.rows);
        let count = |code| named.iter().filter(|(_, c)| *c == code).count();
        assert_eq!(count("before_wallet_launch"), 1);
        assert_eq!(count("duplicate_rows"), 1);
        assert_eq!(count("impossible_row_rate"), most + 1);
        assert_eq!(count("after_request_date"), 1);
        assert_eq!(reading.rows[named[0].0].receipt_no, "EARLY");
        // The check raises a critical finding for every code named here.
        let integrity = super::super::check(&reading, wallet, None);
        for (_, code) in &named {
            assert!(
                integrity
                    .findings
                    .iter()
                    .any(|f| f.code == *code && f.severity == crate::report::Severity::Critical),
                "{code}"
            );
        }
        // A statement without such rows names none.
        let clean = Statement {
            transactions: vec![row("A", (2024, 1, 2), 0), row("B", (2024, 1, 2), 1)],
            ..Statement::default()
        };
        assert!(named_rows(&clean, wallet, &clean.reading().rows).is_empty());
    }
}
