//! An application: several statements of one applicant scored as one (docs/applications.md).
//!
//! ```text
//! statements ─┬─ each: refusal, report id, integrity check, period   (a thread of the pool)
//!             └─ combine: accounts, overlaps read once and compared, own transfers ─ one
//!                reading of the statements' own rows ─┬─ features ─ scorecard  (this thread)
//!                                                     └─ survey ─ overview    (either thread)
//!   join ─ insights ─ integrity worst of all ─ application id ─ affordability of the terms
//! ```
//!
//! Guarantees, as for one statement: the order the statements are given in changes nothing (the
//! statements are listed by period and report id, combined as a set); an application of one
//! statement has that statement's score, factors, reason codes and insights; own transfers are
//! neither income nor spending; the integrity status is the worst of every statement's and of
//! the application's own findings.

mod combine;
pub(crate) mod identity;
mod overlap;
mod own;

use serde::{Deserialize, Serialize};

use crate::affordability::{Affordability, Terms};
use crate::error::{Error, ErrorKind, Result};
use crate::parse::Scorable;
use crate::report::{
    Band, EvidenceLevel, Factor, Finding, Insight, Integrity, ReasonCode, ReportStatus, Severity,
    StatementOverview,
};
use crate::scorecard::Scorecard;

/// One statement an application read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatementRead {
    /// The report id the statement alone would have under the same card (`rpt_…`).
    pub report_id: String,
    /// Its wallet (`"mpesa"`, `"airtel_ug"`, …).
    pub provider: String,
    /// Its holder's number, masked (`"07*****678"`), when it prints one.
    pub mobile_number_masked: Option<String>,
    /// `"<Mon YYYY> - <Mon YYYY>"`.
    pub statement_period: String,
    /// First day covered, ISO 8601 date (statement local time).
    pub period_start: String,
    /// Last day covered, ISO 8601 date.
    pub period_end: String,
    /// Its integrity verdict alone (`verified`, `consistent`, `warnings`, `failed`).
    pub integrity_status: String,
    /// The kind of source it was read from.
    pub evidence_level: EvidenceLevel,
}

/// The report of an application: the seed's report fields for the applicant as a whole, the
/// statements read, and the affordability of the terms asked (when given). Field order is the
/// JSON order; money is a decimal string in `statement.currency`, major units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ApplicationReport {
    /// `app_` + 24 hex digits of BLAKE3 over the statements' report ids (sorted), the card and
    /// the terms: the same statements and terms always get the same id.
    pub application_id: String,
    /// Always `completed` from the engine.
    pub status: ReportStatus,
    /// 300–850, as in a report.
    pub score: u16,
    /// Band of `score`.
    pub band: Band,
    /// `"<Mon YYYY> - <Mon YYYY>"` from the first day any statement covers to the last.
    pub statement_period: String,
    /// One entry per scorecard characteristic, in scorecard order.
    pub factors: Vec<Factor>,
    /// Typed insights of the combined rows.
    pub insights: Vec<Insight>,
    /// Attributes that lost points, largest loss first.
    pub reason_codes: Vec<ReasonCode>,
    /// The card's version.
    pub scorecard_version: String,
    /// The card's SHA-256.
    pub scorecard_sha256: String,
    /// The worst of every statement's integrity and the application's own findings: its
    /// findings first (overlaps that disagree, names, gaps, own transfers), then each
    /// statement's, prefixed with its report id; most severe first.
    pub integrity: Integrity,
    /// The combined rows' overview (money in and out of all accounts, own transfers included).
    pub statement: StatementOverview,
    /// The statements read, by period then report id.
    pub statements: Vec<StatementRead>,
    /// The terms asked against the affordable instalment, when terms were given.
    pub affordability: Option<Affordability>,
}

impl ApplicationReport {
    /// The canonical compact JSON (as [`crate::Report::to_json`]); every binding returns these bytes.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The same JSON, indented for people.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
}

/// Scores `statements` (each a [`crate::ParsedStatement`] or [`crate::Statement`]) of one
/// applicant as one, with `scorecard` or the built-in card of their currency, judged on `as_of`
/// when given (else each statement's own day of analysis), and assesses `terms` when given.
///
/// # Errors
/// `EmptyStatement` for no statements; `CurrencyMismatch` when two are in different currencies
/// (nothing is converted), or the card is in another; those of [`crate::score`] for any
/// statement (it is named by its position).
pub fn score_application<S: Scorable>(
    statements: &[S],
    scorecard: Option<&Scorecard>,
    terms: Option<&Terms>,
    as_of: Option<chrono::NaiveDate>,
) -> Result<ApplicationReport> {
    let Some(first) = statements.first() else {
        return Err(Error::new(
            ErrorKind::EmptyStatement,
            "an application needs at least one statement",
        ));
    };
    let currency = &first.statement().currency;
    if let Some(other) = statements
        .iter()
        .map(|s| &s.statement().currency)
        .find(|c| !c.eq_ignore_ascii_case(currency))
    {
        return Err(Error::new(
            ErrorKind::CurrencyMismatch,
            format!(
                "an application's statements are in one currency: {currency} and {other} (amounts are never converted)"
            ),
        ));
    }
    let card = crate::scorecard::choose(scorecard, currency)?;
    let prepared: Vec<_> = statements.iter().map(Scorable::prepared).collect();
    let refs: Vec<&crate::Statement> = prepared.iter().map(AsRef::as_ref).collect();
    let days: Vec<_> = statements.iter().map(|s| as_of.or(s.as_of())).collect();
    // The combined rows' features on this thread, each statement's report id and integrity
    // check on the other: the two halves of a single report's join, so an application costs
    // about its statements' single scorings (criterion `application/three_5000_rows`).
    let (side, reads) = crate::parallel::join(
        || {
            let combined = combine::combine(&refs);
            crate::assemble::features_side(&combined.reading(), card)
                .map(|side| (side, combined.findings))
        },
        || {
            refs.iter()
                .zip(&days)
                .enumerate()
                .map(|(i, (s, day))| {
                    crate::assemble::read(s, card, *day)
                        .map(|r| (r, *s))
                        .map_err(|e| {
                            Error::new(
                                e.kind().clone(),
                                format!("statement {}: {}", i + 1, e.message()),
                            )
                        })
                })
                .collect::<Result<Vec<_>>>()
        },
    );
    let mut reads = reads?;
    let (side, findings) = side?;
    reads.sort_by(|((ia, _, pa), _), ((ib, _, pb), _)| {
        (pa.start, pa.end, ia).cmp(&(pb.start, pb.end, ib))
    });
    let integrity = worst_of(&reads, findings);
    let id = application_id(&reads, card, terms);
    let report = side.report(card, card.sha256(), id.clone(), integrity);
    let affordability = terms.map(|t| crate::affordability(&report, t));
    let statements = reads
        .iter()
        .map(|((rid, integrity, period), s)| StatementRead {
            report_id: rid.clone(),
            provider: s.provider.to_string(),
            mobile_number_masked: s
                .holder
                .mobile_number
                .as_deref()
                .map(crate::assemble::mask_phone),
            statement_period: crate::assemble::format_period(*period),
            period_start: period.start.to_string(),
            period_end: period.end.to_string(),
            integrity_status: integrity.status.clone(),
            evidence_level: integrity.evidence_level,
        })
        .collect();
    Ok(ApplicationReport {
        application_id: id,
        status: report.status,
        score: report.score,
        band: report.band,
        statement_period: report.statement_period,
        factors: report.factors,
        insights: report.insights,
        reason_codes: report.reason_codes,
        scorecard_version: report.scorecard_version,
        scorecard_sha256: report.scorecard_sha256,
        integrity: report.integrity,
        statement: report.statement,
        statements,
        affordability,
    })
}

type Read<'a> = (
    (String, Integrity, crate::statement::Period),
    &'a crate::Statement,
);

/// The application's integrity: its own findings, then each statement's (prefixed with its
/// report id), most severe first; the verdict the worst; evidence the weakest; the SUMMARY
/// reconciled only when every statement's is.
fn worst_of(reads: &[Read<'_>], own: Vec<Finding>) -> Integrity {
    let mut findings = own;
    for ((rid, integrity, _), _) in reads {
        findings.extend(integrity.findings.iter().map(|f| Finding {
            message: format!("{rid}: {}", f.message),
            ..f.clone()
        }));
    }
    findings.sort_by_key(|f| std::cmp::Reverse(f.severity));
    let rank = |s: &str| match s {
        "failed" => 3,
        "warnings" => 2,
        "consistent" => 1,
        _ => 0,
    };
    let own_worst = match findings.iter().map(|f| f.severity).max() {
        Some(Severity::Critical) => "failed",
        Some(Severity::Warning) => "warnings",
        _ => "verified",
    };
    let status = reads
        .iter()
        .map(|((_, i, _), _)| i.status.as_str())
        .chain([own_worst])
        .max_by_key(|s| rank(s))
        .unwrap_or("consistent");
    let evidence = |e: EvidenceLevel| match e {
        EvidenceLevel::PdfOriginal => 0,
        EvidenceLevel::PdfResaved => 1,
        EvidenceLevel::Csv => 2,
        EvidenceLevel::Json => 3,
    };
    let evidence_level = reads
        .iter()
        .map(|((_, i, _), _)| i.evidence_level)
        .max_by_key(|e| evidence(*e))
        .unwrap_or(EvidenceLevel::Json);
    let summaries: Vec<Option<bool>> = reads
        .iter()
        .map(|((_, i, _), _)| i.summary_reconciled)
        .collect();
    let summary_reconciled = if summaries.contains(&Some(false)) {
        Some(false)
    } else if summaries.iter().all(|s| *s == Some(true)) {
        Some(true)
    } else {
        None
    };
    Integrity {
        status: status.to_owned(),
        evidence_level,
        summary_reconciled,
        findings,
    }
}

/// `app_` + 24 hex digits of BLAKE3 over `alama-application-v1`, the card's version and
/// SHA-256, the statements' report ids sorted, and the terms' canonical JSON (or `-`), each
/// followed by a newline.
fn application_id(reads: &[Read<'_>], card: &Scorecard, terms: Option<&Terms>) -> String {
    let mut ids: Vec<&str> = reads.iter().map(|((id, _, _), _)| id.as_str()).collect();
    ids.sort_unstable();
    let mut hasher = blake3::Hasher::new();
    let terms = terms.map_or_else(
        || "-".to_owned(),
        |t| serde_json::to_string(t).unwrap_or_default(),
    );
    for part in ["alama-application-v1", &card.version, &card.sha256()]
        .into_iter()
        .chain(ids)
        .chain([terms.as_str()])
    {
        hasher.update(part.as_bytes());
        hasher.update(b"\n");
    }
    let hex = hasher.finalize().to_hex();
    format!("app_{}", &hex[..24])
}
