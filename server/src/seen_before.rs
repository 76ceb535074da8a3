//! Statements seen before (issue 54): a statement whose rows this partner already had analysed
//! for another customer is a classic fraud signal (one genuine statement reused for a second
//! applicant, or submitted again under a new customer reference). Such a statement gets the
//! warning finding `statement_seen_before`, which names the partner's own earlier report.
//!
//! - **What is kept.** No statement text: a *sketch* of each statement analysed under a
//!   consent, the [`SKETCH_SIZE`] smallest keyed fingerprints of its rows, each the first 8
//!   bytes of HMAC-SHA256 (under a key derived from the server's fingerprint key) over the row's
//!   receipt number and its paid-in and withdrawn amounts (rows without a receipt number are left
//!   out). Without the server's key a fingerprint tells nothing; the same row of a PDF and of
//!   its CSV export has the same fingerprint. Keeping the smallest values of a keyed hash is a
//!   bottom-k sample (Broder's min-wise hashing): two statements sharing most rows share most
//!   of their sketches, so a statement is compared without keeping every row.
//! - **Who is compared.** Only within one partner and environment (never across partners),
//!   only statements analysed under a consent (always in Live; in Sandbox when a `consentId` is
//!   given), and only with completed, unerased reports whose consent names **another customer
//!   reference**: a customer's own statement analysed again (a new consent, a second
//!   application) is not flagged.
//! - **The rule.** An earlier report matches when it shares at least half of the new statement's
//!   sketch, and at least [`MIN_SHARED`] fingerprints (a transfer between two customers of one
//!   lender prints one receipt on both statements: one shared row is never a match). The
//!   earliest of the best-matching reports is named.
//! - **Retention and erasure.** The sketches go with their report: erasing a report (on
//!   request, with its consent, or at the end of the retention period) deletes them, so a
//!   statement is recognised only while its earlier report is kept.
//! - **The report.** The finding is appended to the report's `integrity.findings` (most severe
//!   first) and an integrity status `verified` or `consistent` becomes `warnings`, as the
//!   engine's rule for a warning says; the engine's findings and score are unchanged. It is a
//!   finding of the service, which knows the partner's history; the engine, which sees one
//!   statement, never gives it.

use alama_core::report::Integrity;
use alama_core::{Finding, Severity, Statement};
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

use crate::storage::{Owner, Storage, StorageError};

/// Fingerprints kept per statement: the smallest of its rows' (a bottom-k sample).
pub const SKETCH_SIZE: usize = 64;
/// Fewest shared fingerprints that make a match.
pub const MIN_SHARED: usize = 2;
/// The finding's code.
pub const CODE: &str = "statement_seen_before";

/// A statement's sketch: at most [`SKETCH_SIZE`] distinct keyed row fingerprints, smallest
/// first, as 16 hex digits each.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sketch(pub Vec<String>);

/// The key of row fingerprints, derived from the server's fingerprint key (so that these
/// values cannot be compared with any other fingerprint the service keeps).
pub fn row_key(fingerprint_key: &[u8]) -> Vec<u8> {
    let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(fingerprint_key)
        .unwrap_or_else(|_| unreachable!("HMAC takes a key of any length"));
    mac.update(b"alama statement rows v1");
    mac.finalize().into_bytes().to_vec()
}

/// The sketch of `statement` under `row_key` ([`row_key`]).
pub fn sketch(row_key: &[u8], statement: &Statement) -> Sketch {
    let Ok(keyed) = <Hmac<Sha256> as KeyInit>::new_from_slice(row_key) else {
        return Sketch::default();
    };
    let mut values: Vec<u64> = statement
        .transactions
        .iter()
        .filter(|t| !t.receipt_no.trim().is_empty())
        .map(|t| {
            let mut mac = keyed.clone();
            mac.update(t.receipt_no.trim().as_bytes());
            mac.update(b"\0");
            mac.update(t.paid_in.normalize().to_string().as_bytes());
            mac.update(b"\0");
            mac.update(t.withdrawn.normalize().to_string().as_bytes());
            let bytes = mac.finalize().into_bytes();
            let mut first = [0u8; 8];
            first.copy_from_slice(&bytes[..8]);
            u64::from_be_bytes(first)
        })
        .collect();
    values.sort_unstable();
    values.dedup();
    values.truncate(SKETCH_SIZE);
    Sketch(values.iter().map(|v| format!("{v:016x}")).collect())
}

/// The earlier report that `sketch` matches, from `candidates` (report id, shared fingerprints,
/// best first as [`Storage::earlier_statements`] lists them): `(report id, shared)`.
pub fn best_match(sketch: &Sketch, candidates: &[(String, i64)]) -> Option<(String, usize)> {
    let of = sketch.0.len();
    candidates
        .iter()
        .map(|(id, n)| (id, usize::try_from(*n).unwrap_or(0)))
        .find(|(_, shared)| *shared >= MIN_SHARED && shared * 2 >= of)
        .map(|(id, shared)| (id.clone(), shared))
}

/// The finding for a statement (`label`: `None` for an analysis, `Some("statement 2")` in an
/// application) whose rows report `earlier` already had.
pub fn finding(label: Option<&str>, earlier: &str, shared: usize, of: usize) -> Finding {
    let what = label.map_or_else(|| "this statement".to_owned(), ToOwned::to_owned);
    Finding {
        code: CODE.to_owned(),
        severity: Severity::Warning,
        message: format!(
            "{what} was already analysed for another customer reference in your report \
             {earlier} ({shared} of {of} sampled rows alike): one statement submitted for two \
             applicants, or again under a new reference"
        ),
    }
}

/// Adds the service's `findings` to `integrity`: most severe first, and a `verified` or
/// `consistent` status becomes `warnings` when one is a warning.
pub fn add_findings(integrity: &mut Integrity, findings: Vec<Finding>) {
    if findings.is_empty() {
        return;
    }
    let warned = findings.iter().any(|f| f.severity >= Severity::Warning);
    integrity.findings.extend(findings);
    integrity
        .findings
        .sort_by_key(|f| std::cmp::Reverse(f.severity));
    if warned && matches!(integrity.status.as_str(), "verified" | "consistent") {
        "warnings".clone_into(&mut integrity.status);
    }
}

/// Compares the `sketches` of report `report_id` of `owner` (analysed under `consent_id`)
/// with the partner's earlier statements, then keeps them; each sketch comes with its label
/// (see [`finding`]). Returns the findings, one per statement seen before.
///
/// # Errors
/// Database errors.
pub async fn check_and_keep(
    storage: &Storage,
    owner: &Owner,
    consent_id: &str,
    report_id: &str,
    sketches: &[(Option<String>, Sketch)],
    now: i64,
) -> Result<Vec<Finding>, StorageError> {
    let mut findings = Vec::new();
    for (label, sketch) in sketches {
        if sketch.0.is_empty() {
            continue;
        }
        let candidates = storage
            .earlier_statements(owner, consent_id, &sketch.0)
            .await?;
        if let Some((earlier, shared)) = best_match(sketch, &candidates) {
            findings.push(finding(label.as_deref(), &earlier, shared, sketch.0.len()));
        }
    }
    let all: Vec<&str> = sketches
        .iter()
        .flat_map(|(_, s)| s.0.iter().map(String::as_str))
        .collect();
    storage
        .keep_fingerprints(owner, report_id, consent_id, &all, now)
        .await?;
    Ok(findings)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sketch_of(n: usize) -> Sketch {
        Sketch((0..n).map(|i| format!("{i:016x}")).collect())
    }

    #[test]
    fn half_the_sketch_and_two_rows_make_a_match() {
        let s = sketch_of(64);
        assert_eq!(best_match(&s, &[("rpt_a".into(), 31)]), None);
        assert_eq!(
            best_match(&s, &[("rpt_a".into(), 32)]),
            Some(("rpt_a".into(), 32))
        );
        // One shared receipt (a transfer between two customers) is never a match.
        assert_eq!(best_match(&sketch_of(2), &[("rpt_a".into(), 1)]), None);
        assert_eq!(
            best_match(&sketch_of(2), &[("rpt_a".into(), 2)]),
            Some(("rpt_a".into(), 2))
        );
    }

    #[test]
    fn a_warning_lowers_a_clean_verdict_only() {
        let mut integrity = Integrity {
            status: "consistent".into(),
            evidence_level: alama_core::EvidenceLevel::Csv,
            summary_reconciled: None,
            findings: vec![Finding {
                code: "x".into(),
                severity: Severity::Info,
                message: String::new(),
            }],
        };
        add_findings(&mut integrity, vec![finding(None, "rpt_a", 64, 64)]);
        assert_eq!(integrity.status, "warnings");
        assert_eq!(integrity.findings[0].code, CODE);
        integrity.status = "failed".into();
        add_findings(&mut integrity, vec![finding(None, "rpt_b", 64, 64)]);
        assert_eq!(integrity.status, "failed");
    }
}
