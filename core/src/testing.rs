//! A seeded synthetic M-Pesa statement builder, for tests, fixtures and benchmarks of every crate
//! (feature `testing`).
//!
//! The statements look like real ones (Details in Safaricom's wording, a consistent running
//! balance, Fuliza draws when the wallet runs dry, charge rows that share the receipt of their
//! payment, a few failed rows, a SUMMARY that totals the completed rows) but every person and
//! business in them is invented. The same `(seed, months)` always gives the same statement, on
//! every platform: the generator uses its own `SplitMix64` stream, not a library RNG whose
//! sequence could change between versions.

use chrono::{Duration, NaiveDate};
use rust_decimal::Decimal;

use crate::statement::{Statement, Transaction, TransactionStatus};

pub mod application;
pub mod edits;
mod in_wallet;
pub mod population;
pub mod wallets;
pub use crate::pdf::writer as wallet_pdf;
pub use crate::rng::SplitMix64;
pub use crate::wallets::{
    PersonaKind, mpesa_receipt_at, persona_statement, persona_statement_until, synthetic_statement,
    synthetic_statement_with_rows,
};
pub use in_wallet::{every_category, in_wallet};
pub use population::{Member, population};

/// The spreadsheet (`.xlsx`, one sheet) a wallet's CSV export `csv` was saved from, as MTN MoMo
/// Ghana sends its statements: a cell that reads as a number the spreadsheet prints back the same
/// way (`52.43`, `233240000001`) is stored as a number, every other cell as text. Written with
/// `rust_xlsxwriter`, so that the spreadsheet reader ([`crate::parse`]) is tested on a file it did
/// not write.
///
/// # Panics
/// When `csv` is not CSV or the workbook cannot be written (test input only).
pub fn xlsx_from_csv(csv: &[u8]) -> Vec<u8> {
    let mut workbook = rust_xlsxwriter::Workbook::new();
    let sheet = workbook.add_worksheet();
    let mut reader = ::csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(csv);
    for (r, record) in reader.records().enumerate() {
        let record = record.expect("a CSV record");
        let row = u32::try_from(r).expect("rows fit a sheet");
        for (c, cell) in record.iter().enumerate() {
            let col = u16::try_from(c).expect("columns fit a sheet");
            let number = cell
                .parse::<f64>()
                .ok()
                .filter(|n| n.is_finite() && n.to_string() == cell);
            match number {
                Some(n) => sheet.write_number(row, col, n),
                None => sheet.write_string(row, col, cell),
            }
            .expect("a cell");
        }
    }
    workbook.save_to_buffer().expect("a workbook")
}

/// The report id of `statement` under the built-in scorecard, as a report of it computes it:
/// for `examples/stage_times`, which times this pass over every row apart from the rest of a
/// report.
pub fn report_id(statement: &Statement) -> String {
    let card = crate::scorecard::builtin();
    crate::report_id::report_id(&statement.reading(), &card.version, &card.sha256())
}

/// A tiny statement: `rows` received-money rows over `days` days, for thin-file tests.
pub fn thin_statement(rows: u32, days: u32) -> Statement {
    let start = NaiveDate::from_ymd_opt(2024, 6, 1).unwrap_or_default();
    let mut balance = Decimal::ZERO;
    let transactions = (0..rows)
        .map(|i| {
            let at = (start + Duration::days(i64::from(i * days.max(1) / rows.max(1))))
                .and_hms_opt(12, 0, 0)
                .unwrap_or_default();
            balance += Decimal::from(500);
            let five_hundred = crate::money::cents(Decimal::from(500));
            Transaction {
                receipt_no: format!("SFT{i:07}"),
                completed_at: at,
                details: "Funds received from 2547******000 - AMANI TESTMAN".to_owned(),
                status: TransactionStatus::Completed,
                paid_in: five_hundred,
                withdrawn: crate::money::cents(Decimal::ZERO),
                balance: Some(crate::money::cents(balance)),
                category: crate::Category::Uncategorised,
                ..crate::statement::Transaction::empty()
            }
        })
        .collect();
    Statement {
        transactions,
        currency: "KES".to_owned(),
        currency_exponent: None,
        ..Statement::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_statement() {
        assert_eq!(synthetic_statement(7, 3), synthetic_statement(7, 3));
        assert_ne!(synthetic_statement(7, 3), synthetic_statement(8, 3));
    }

    #[test]
    fn summary_totals_completed_rows_and_balances_chain() {
        for seed in 0..20 {
            let s = synthetic_statement(seed, 6);
            assert!(
                s.transactions.len() > 50,
                "seed {seed}: {} rows",
                s.transactions.len()
            );
            let integrity = crate::check::check(
                &s.reading(),
                crate::wallets::of(&s.provider).expect("a wallet"),
                None,
            );
            assert_eq!(integrity.summary_reconciled, Some(true), "seed {seed}");
            assert!(
                !integrity
                    .findings
                    .iter()
                    .any(|f| f.code == "balance_breaks"),
                "seed {seed}: {:?}",
                integrity.findings
            );
            assert!(
                s.transactions
                    .iter()
                    .all(|t| t.paid_in >= Decimal::ZERO && t.withdrawn >= Decimal::ZERO)
            );
        }
    }
}
