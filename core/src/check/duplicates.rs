//! Exact duplicate rows: the same row printed twice.
//!
//! A wallet prints each movement once: M-Pesa gives every movement its own receipt number, and
//! a running balance moves with each row, so two rows alike in every field (receipt, completion
//! time, Details, status, Paid In, Withdrawn and Balance) are one row copied, the mark of a
//! statement concatenated with itself or fabricated. For a wallet without receipt numbers the
//! same rule reads the fields the row has (time, Details, amounts, balance).
//!
//! Two consequences, one rule ([`same_row`]):
//! - the check raises a `duplicate_rows` finding (`critical`, so the verdict is `failed`) that
//!   names the copies (time and receipt, never Details, which may name people);
//! - the features read each row once ([`crate::features`] drops the copies where it orders the
//!   rows), so doubling a statement does not double its income.

use super::finding;
use crate::report::{Finding, Severity};
use crate::statement::Transaction;

/// Whether `a` and `b` are the same row ([`Transaction::same_printed_row`]).
pub fn same_row(a: &Transaction, b: &Transaction) -> bool {
    a.same_printed_row(b)
}

/// The rows of `by_time` (every row, in reading order: [`crate::statement::reading_order`]) that
/// repeat an earlier row ([`same_row`]): one entry per extra copy.
pub(crate) fn copies<'a>(by_time: &[&'a Transaction]) -> Vec<&'a Transaction> {
    let mut extra = Vec::new();
    for same_time in by_time.chunk_by(|a, b| a.completed_at == b.completed_at) {
        // Rows that share a time are few (a payment and its charge): compared pairwise.
        for (i, row) in same_time.iter().enumerate() {
            if same_time[..i].iter().any(|earlier| same_row(earlier, row)) {
                extra.push(*row);
            }
        }
    }
    extra
}

/// Adds a `duplicate_rows` finding when any row of `by_time` (every row, in completion-time
/// order) is printed more than once.
pub(crate) fn check(by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    let extra = copies(by_time);
    if extra.is_empty() {
        return;
    }
    let mut named: Vec<String> = extra
        .iter()
        .take(3)
        .map(|t| {
            let at = t.completed_at.format("%Y-%m-%d %H:%M:%S");
            if t.receipt_no.is_empty() {
                format!("{at}")
            } else {
                format!("{at} (receipt {})", t.receipt_no)
            }
        })
        .collect();
    named.dedup();
    if extra.len() > 3 {
        named.push(format!("and {} more", extra.len() - 3));
    }
    findings.push(finding(
        "duplicate_rows",
        Severity::Critical,
        format!(
            "{} row(s) repeat another row exactly (same receipt, time, details, amounts and \
             balance): {}; a wallet prints each movement once, so the statement was copied \
             or assembled; each row is scored once",
            extra.len(),
            named.join(", ")
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statement::TransactionStatus;
    use chrono::NaiveDate;
    use rust_decimal::Decimal;

    fn row(receipt: &str, second: u32, paid_in: i64) -> Transaction {
        Transaction {
            receipt_no: receipt.to_owned(),
            completed_at: NaiveDate::from_ymd_opt(2024, 1, 2)
                .and_then(|d| d.and_hms_opt(9, 0, second))
                .unwrap_or_default(),
            details: "Funds received from 0700 - A".to_owned(),
            status: TransactionStatus::Completed,
            paid_in: Decimal::from(paid_in),
            withdrawn: Decimal::ZERO,
            balance: Some(Decimal::from(paid_in)),
            category: crate::Category::Uncategorised,
            ..Transaction::empty()
        }
    }

    #[test]
    fn only_rows_alike_in_every_field_are_copies() {
        let a = row("R1", 0, 100);
        let mut scaled = a.clone();
        scaled.paid_in = Decimal::new(10_000, 2);
        let other_receipt = row("R2", 0, 100);
        let later = row("R1", 1, 100);
        let rows = [&a, &other_receipt, &scaled, &later];
        let extra = copies(&rows);
        assert_eq!(
            extra.len(),
            1,
            "only the re-scaled copy of R1 at the same time"
        );
        let mut findings = Vec::new();
        check(&rows, &mut findings);
        assert_eq!(findings.len(), 1);
        assert_eq!(findings[0].severity, Severity::Critical);
        assert!(
            findings[0].message.contains("R1"),
            "{}",
            findings[0].message
        );
        let mut none = Vec::new();
        check(&[&a, &other_receipt, &later], &mut none);
        assert!(none.is_empty());
    }
}
