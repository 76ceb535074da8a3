//! Integrity checks: does the statement add up, and does the document look as its wallet made
//! it? Every check reads the wallet's profile (`crate::wallets::Profile`), never which wallet
//! it is.
//!
//! None of these is fatal: each becomes a [`Finding`] in the report, so that a risk analyst sees
//! a truncated statement, a missing page or an edited PDF next to the score. Every check reads
//! the rows as a set, never in their listed order, so the same statement with its rows in any
//! order gets the identical integrity section.
//!
//! - [`reconcile`]: the SUMMARY TOTAL against every listed row.
//! - the running-balance chain, as the wallet's statements print it: [`balance`] where not
//!   every movement is listed (its breaks classified by the signatures of editing), [`listed`]
//!   where every movement is (with the SUMMARY's opening and closing balances).
//! - [`forensics`]: the PDF file itself against the wallet's writer (writer, incremental
//!   updates, fonts, pages).
//! - [`duplicates`]: rows printed twice.
//! - [`fees`]: charges against the wallet's published tariff.
//! - [`ids`]: transaction ids against their rows' times (ids that rise with time, receipts that
//!   carry their day).
//! - [`plausible`]: what the wallet cannot print (dates before it existed or after the
//!   request, balances below its floor, impossible row rates).
//! - [`named`]: the rows these critical findings name, which the report leaves out of its
//!   features.
//! - here: unread lines and rows outside the statement period.
//!
//! The verdict ([`Integrity::status`]) is a ladder: `failed` (a critical finding), `warnings`
//! (a warning: evidence of editing or of lost rows), `verified` (an original PDF of its wallet's
//! writer and every check passed), `consistent` (every check passed, but the source is a re-saved PDF, a
//! CSV or JSON, whose authenticity cannot be established). See docs/integrity.md.

pub mod balance;
pub mod duplicates;
pub mod fees;
pub mod forensics;
pub mod ids;
pub mod listed;
pub mod named;
pub mod plausible;
pub mod reconcile;
mod typed_balance;
mod typed_over;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::parse::Format;
use crate::report::{EvidenceLevel, Finding, Integrity, Severity};
use crate::statement::{Reading, Statement};
use crate::wallets::{Chain, Wallet};

pub use reconcile::listed_totals;

/// Runs every check on a statement read in reading order (`reading`,
/// [`Statement::reading`](crate::statement::Statement::reading)), whose wallet is `wallet`,
/// judged on `as_of` (the day of analysis, when given: see [`plausible`]), and returns its
/// integrity, findings most severe first.
pub fn check(reading: &Reading<'_>, wallet: &Wallet, as_of: Option<NaiveDate>) -> Integrity {
    let statement = reading.statement;
    let mut findings = Vec::new();
    let reconciliation = reconcile::reconcile(statement, &wallet.profile, &mut findings);
    let difference =
        (reconciliation.reconciled == Some(false)).then_some(reconciliation.difference);
    // Every check reads the rows in reading order (by time; rows that share one by receipt,
    // Details and amounts), so that none depends on the order the statement lists them in.
    let by_time = &reading.rows;
    match wallet.profile.chain {
        Chain::Unlisted => balance::check(statement, wallet, difference, by_time, &mut findings),
        chain @ Chain::Listed { .. } => listed::check(statement, by_time, chain, &mut findings),
    }
    duplicates::check(by_time, &mut findings);
    fees::check(wallet, by_time, &mut findings);
    ids::check(wallet, by_time, &mut findings);
    plausible::check(statement, wallet, by_time, as_of, &mut findings);
    let evidence_level = match (&statement.document, statement.source) {
        (Some(doc), _) => forensics::check(wallet, doc, &mut findings),
        (None, Some(Format::Csv | Format::Xlsx)) => EvidenceLevel::Csv,
        (None, _) => EvidenceLevel::Json,
    };
    if evidence_level == EvidenceLevel::Csv {
        findings.push(finding(
            "csv_unverifiable",
            Severity::Info,
            format!(
                "a table export carries no trace of its origin: rows added, removed or changed \
                 with their balances made to agree (invented income, hidden repayments) cannot \
                 be ruled out, only arithmetic that does not hold; for a decision that rests on \
                 this statement ask for {}'s own statement PDF",
                wallet.operator
            ),
        ));
    }
    check_unparsed(statement, &mut findings);
    check_period(statement, &mut findings);
    let blind = evidence_level == EvidenceLevel::PdfOriginal
        && edits_unseen(wallet, reconciliation.reconciled, &mut findings);
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    let status = match findings.iter().map(|f| f.severity).max() {
        Some(Severity::Critical) => "failed",
        Some(Severity::Warning) => "warnings",
        _ if evidence_level == EvidenceLevel::PdfOriginal && !blind => "verified",
        _ => "consistent",
    };
    Integrity {
        status: status.to_owned(),
        evidence_level,
        summary_reconciled: reconciliation.reconciled,
        findings,
    }
}

/// Whether an edit of one amount could pass unseen on this statement: its wallet's genuine
/// balance chains break for reasons not all explained (so a break is no evidence) and no
/// SUMMARY reconciles the rows. Such a statement tops out at `consistent` even from its
/// wallet's own writer (an `info` finding, `edits_unseen`, says why): `verified` promises that
/// a one-amount edit would have been caught (docs/integrity.md, "An honest `verified`").
fn edits_unseen(wallet: &Wallet, reconciled: Option<bool>, findings: &mut Vec<Finding>) -> bool {
    let chain_is_evidence = match wallet.profile.chain {
        Chain::Unlisted => false,
        Chain::Listed {
            breaks_are_evidence,
            ..
        } => breaks_are_evidence,
    };
    if chain_is_evidence || reconciled == Some(true) {
        return false;
    }
    findings.push(finding(
        "edits_unseen",
        Severity::Info,
        format!(
            "an edited amount would not show on this statement: it prints no SUMMARY to \
             reconcile the rows with, and {}'s own statements break their balance chain for \
             reasons not all explained, so a break is no evidence; the file is {}'s own, but \
             the verdict stops at consistent (ask for the statement from {} directly, or for \
             a second source of the same months)",
            wallet.operator, wallet.operator, wallet.operator
        ),
    ));
    true
}

/// The row a finding names first, for its message: its completion time and, where it has one,
/// its receipt (`2026-03-04 18:18:00, receipt 142097994755`).
fn first_row(at: chrono::NaiveDateTime, receipt: &str) -> String {
    if receipt.is_empty() {
        at.to_string()
    } else {
        format!("{at}, receipt {receipt}")
    }
}

fn finding(code: &str, severity: Severity, message: String) -> Finding {
    Finding {
        code: code.to_owned(),
        severity,
        message,
    }
}

/// Sums of completed Paid In and Withdrawn (the statement's currency, positive): the money that
/// moved.
pub fn completed_totals(statement: &Statement) -> (Decimal, Decimal) {
    statement
        .transactions
        .iter()
        .filter(|t| t.is_completed())
        .fold((Decimal::ZERO, Decimal::ZERO), |(i, o), t| {
            (i + t.paid_in, o + t.withdrawn)
        })
}

fn check_unparsed(statement: &Statement, findings: &mut Vec<Finding>) {
    let Some(first) = statement.unparsed.iter().min_by_key(|u| (u.page, u.line)) else {
        return;
    };
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
