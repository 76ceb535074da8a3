//! Integrity checks: does the statement add up, and does the document look as Safaricom made it?
//!
//! None of these is fatal: each becomes a [`Finding`] in the report, so that a risk analyst sees
//! a truncated statement, a missing page or an edited PDF next to the score.
//!
//! Rules:
//! - **SUMMARY reconciliation.** Safaricom's SUMMARY block totals the `Completed` rows of the
//!   statement (Paid In, and Withdrawn as a positive "Paid Out"). We sum the parsed completed
//!   rows and compare to the cent. Verified on the 2023–2024 sample: 4,382 rows sum exactly to
//!   the TOTAL row.
//! - **Running balance per completion-time group.** Rows that share a completion time are not
//!   reliably listed in order (a payment, its charge, a Fuliza draw), so the check is per group:
//!   the group's net movement added to the previous group's closing balance must equal one of
//!   the group's printed balances. A break is a warning, not an error (real statements have
//!   unexplained breaks).
//! - **Pages.** A footer that says "Page x of N" with fewer than N pages read means pages are
//!   missing.
//! - **Producer.** Safaricom statements are written by `iText` (2021 layout) or `OpenPDF`
//!   (2023+ layout). Any other producer (iLovePDF, Word, Acrobat, …) means the file was re-saved
//!   after Safaricom made it; a modification date after the creation date means the same.

use std::collections::BTreeMap;

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use crate::report::{Finding, Integrity, Severity};
use crate::statement::{DocumentInfo, Statement};

/// PDF producers that Safaricom's statement service is known to use (lower case, prefix match).
pub const SAFARICOM_PRODUCERS: &[&str] = &["itext", "openpdf"];

/// Runs every check and returns the statement's integrity, findings most severe first.
pub fn check(statement: &Statement) -> Integrity {
    let mut findings = Vec::new();
    let summary_reconciled = reconcile_summary(statement, &mut findings);
    check_balances(statement, &mut findings);
    if let Some(doc) = &statement.document {
        check_document(doc, &mut findings);
    }
    check_unparsed(statement, &mut findings);
    check_period(statement, &mut findings);
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    let status = match findings.iter().map(|f| f.severity).max() {
        Some(Severity::Critical) => "failed",
        Some(Severity::Warning) => "warnings",
        _ => "verified",
    };
    Integrity {
        status: status.to_owned(),
        summary_reconciled,
        findings,
    }
}

fn finding(code: &str, severity: Severity, message: String) -> Finding {
    Finding {
        code: code.to_owned(),
        severity,
        message,
    }
}

/// Sums of completed Paid In and Withdrawn (KES, positive).
pub fn completed_totals(statement: &Statement) -> (Decimal, Decimal) {
    statement
        .transactions
        .iter()
        .filter(|t| t.is_completed())
        .fold((Decimal::ZERO, Decimal::ZERO), |(i, o), t| {
            (i + t.paid_in, o + t.withdrawn)
        })
}

fn reconcile_summary(statement: &Statement, findings: &mut Vec<Finding>) -> Option<bool> {
    let summary = statement.summary.as_ref()?;
    let (paid_in, withdrawn) = completed_totals(statement);
    let ok = paid_in == summary.total.paid_in && withdrawn == summary.total.paid_out;
    if !ok {
        findings.push(finding(
            "summary_mismatch",
            Severity::Critical,
            format!(
                "parsed rows total {paid_in} paid in and {withdrawn} paid out, but the statement's \
                 SUMMARY says {} and {}: rows or pages are missing, or the file was edited",
                summary.total.paid_in, summary.total.paid_out
            ),
        ));
    }
    Some(ok)
}

fn check_balances(statement: &Statement, findings: &mut Vec<Finding>) {
    // Group completed rows that print a balance by completion time, oldest first; within a group
    // keep the source order (M-Pesa lists newest first, so the first row is the latest).
    let mut groups: BTreeMap<NaiveDateTime, Vec<(Decimal, Decimal)>> = BTreeMap::new();
    for t in statement.transactions.iter().filter(|t| t.is_completed()) {
        if let Some(b) = t.balance {
            groups.entry(t.completed_at).or_default().push((t.net(), b));
        }
    }
    let mut previous: Option<Decimal> = None;
    let mut breaks = Vec::new();
    for (at, rows) in &groups {
        let net: Decimal = rows.iter().map(|(n, _)| *n).sum();
        let closing = match previous {
            Some(p) if rows.iter().any(|(_, b)| *b == p + net) => p + net,
            Some(_) => {
                breaks.push(*at);
                rows[0].1
            }
            None => rows
                .iter()
                .map(|(_, b)| *b)
                .find(|b| rows.iter().any(|(n, b0)| *b0 - *n + net == *b))
                .unwrap_or(rows[0].1),
        };
        previous = Some(closing);
    }
    if !breaks.is_empty() {
        let first: Vec<String> = breaks
            .iter()
            .take(3)
            .map(|t| t.format("%Y-%m-%d %H:%M:%S").to_string())
            .collect();
        findings.push(finding(
            "balance_breaks",
            Severity::Warning,
            format!(
                "the running balance does not follow from the previous row at {} of {} \
                 completion times (first at {})",
                breaks.len(),
                groups.len(),
                first.join(", ")
            ),
        ));
    }
}

fn check_document(doc: &DocumentInfo, findings: &mut Vec<Finding>) {
    if let Some(declared) = doc.declared_pages
        && declared > doc.pages
    {
        findings.push(finding(
            "missing_pages",
            Severity::Critical,
            format!(
                "the footer numbers {declared} pages but the file has {}: the statement is truncated",
                doc.pages
            ),
        ));
    }
    let producer = doc.producer.as_deref().unwrap_or("").to_ascii_lowercase();
    if !SAFARICOM_PRODUCERS.iter().any(|p| producer.starts_with(p)) {
        findings.push(finding(
            "non_safaricom_producer",
            Severity::Warning,
            format!(
                "the PDF was produced by {:?}, not by Safaricom's statement service (iText or \
                 OpenPDF): it was re-saved or edited after issue",
                doc.producer.as_deref().unwrap_or("an unnamed program")
            ),
        ));
    }
    if let (Some(c), Some(m)) = (
        doc.created.as_deref().and_then(pdf_date),
        doc.modified.as_deref().and_then(pdf_date),
    ) && (m - c).num_seconds() > MODIFIED_GRACE_SECONDS
    {
        findings.push(finding(
            "modified_after_creation",
            Severity::Warning,
            format!(
                "the PDF was modified {} after it was created ({c} → {m}): it was re-saved after issue",
                human_duration(m - c)
            ),
        ));
    }
    if !doc.encrypted {
        findings.push(finding(
            "not_encrypted",
            Severity::Info,
            "the PDF is not password-protected; Safaricom sends statements encrypted, so this \
             copy was decrypted or re-saved"
                .to_owned(),
        ));
    }
}

/// Safaricom's service writes a statement and then encrypts it, which stamps a modification
/// time a few seconds after creation (6 s on the 2024 sample). Only a later modification is a
/// sign of re-saving.
pub const MODIFIED_GRACE_SECONDS: i64 = 600;

/// Reads a PDF date (`D:YYYYMMDDHHmmSS+03'00'`) as local time, ignoring the offset (both dates
/// of one file carry the same one).
fn pdf_date(date: &str) -> Option<NaiveDateTime> {
    let digits: String = date.chars().filter(char::is_ascii_digit).take(14).collect();
    NaiveDateTime::parse_from_str(&digits, "%Y%m%d%H%M%S").ok()
}

fn human_duration(d: chrono::Duration) -> String {
    match d.num_minutes() {
        m if m < 120 => format!("{m} minutes"),
        m if m < 48 * 60 => format!("{} hours", m / 60),
        m => format!("{} days", m / (24 * 60)),
    }
}

fn check_unparsed(statement: &Statement, findings: &mut Vec<Finding>) {
    if statement.unparsed.is_empty() {
        return;
    }
    let first = &statement.unparsed[0];
    findings.push(finding(
        "unparsed_rows",
        Severity::Warning,
        format!(
            "{} line(s) could not be read as transactions (first: page {}, line {}: {})",
            statement.unparsed.len(),
            first.page,
            first.line,
            first.reason
        ),
    ));
}

fn check_period(statement: &Statement, findings: &mut Vec<Finding>) {
    let Some(period) = statement.period else {
        return;
    };
    let outside = statement
        .transactions
        .iter()
        .filter(|t| {
            let d = t.completed_at.date();
            d < period.start || d > period.end
        })
        .count();
    if outside > 0 {
        findings.push(finding(
            "rows_outside_period",
            Severity::Warning,
            format!(
                "{outside} row(s) fall outside the statement period {} to {}",
                period.start, period.end
            ),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(created: &str, modified: &str, producer: &str) -> DocumentInfo {
        DocumentInfo {
            pages: 2,
            encrypted: true,
            producer: Some(producer.to_owned()),
            created: Some(created.to_owned()),
            modified: Some(modified.to_owned()),
            ..DocumentInfo::default()
        }
    }

    fn codes(doc: &DocumentInfo) -> Vec<String> {
        let mut findings = Vec::new();
        check_document(doc, &mut findings);
        findings.into_iter().map(|f| f.code).collect()
    }

    #[test]
    fn encryption_pass_seconds_later_is_not_tampering() {
        let d = doc(
            "D:20240523152429+03'00'",
            "D:20240523152435+03'00'",
            "OpenPDF 1.3.26",
        );
        assert!(codes(&d).is_empty());
    }

    #[test]
    fn a_later_save_by_another_producer_is_flagged() {
        let d = doc(
            "D:20240523152429+03'00'",
            "D:20240601090000+03'00'",
            "iLovePDF",
        );
        assert_eq!(
            codes(&d),
            ["non_safaricom_producer", "modified_after_creation"]
        );
    }

    #[test]
    fn missing_pages_are_critical() {
        let mut d = doc("D:20210928170258", "D:20210928170258", "iText 5.1.0");
        d.declared_pages = Some(21);
        d.pages = 20;
        let mut findings = Vec::new();
        check_document(&d, &mut findings);
        assert_eq!(findings[0].code, "missing_pages");
        assert_eq!(findings[0].severity, Severity::Critical);
    }
}
