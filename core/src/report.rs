//! The score report: the seed's fields (`reportId`, `status`, `score`, `band`,
//! `statementPeriod`, `factors`, `insights`) plus what a risk analyst needs (reason codes,
//! scorecard version, integrity findings, a statement overview).
//!
//! [`Report::to_json`] is the canonical, compact JSON that every surface emits byte for byte.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// Version of the engine crate, which every report is made by.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The state of a report. The engine only produces [`ReportStatus::Completed`]; the service
/// also stores `processing` and `failed` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReportStatus {
    /// Accepted, analysis running.
    Processing,
    /// Scored.
    Completed,
    /// Analysis failed; the service stores the error code.
    Failed,
}

impl ReportStatus {
    /// The wire word (`"completed"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Processing => "processing",
            Self::Completed => "completed",
            Self::Failed => "failed",
        }
    }
}

/// A named score band. FICO-style ranges over the 300–850 score:
/// Poor 300–579, Fair 580–669, Good 670–739, Very Good 740–799, Excellent 800–850.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Band {
    /// 300–579.
    Poor,
    /// 580–669.
    Fair,
    /// 670–739.
    Good,
    /// 740–799.
    #[serde(rename = "Very Good")]
    VeryGood,
    /// 800–850.
    Excellent,
}

impl Band {
    /// Every band with its inclusive score range, lowest first.
    pub const RANGES: [(Band, u16, u16); 5] = [
        (Band::Poor, 300, 579),
        (Band::Fair, 580, 669),
        (Band::Good, 670, 739),
        (Band::VeryGood, 740, 799),
        (Band::Excellent, 800, 850),
    ];

    /// The band of a score; scores outside 300–850 are clamped into it.
    pub fn of(score: u16) -> Band {
        let s = score.clamp(300, 850);
        Self::RANGES
            .iter()
            .find(|(_, lo, hi)| (*lo..=*hi).contains(&s))
            .map_or(Band::Excellent, |(b, _, _)| *b)
    }

    /// The display name (`"Very Good"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Poor => "Poor",
            Self::Fair => "Fair",
            Self::Good => "Good",
            Self::VeryGood => "Very Good",
            Self::Excellent => "Excellent",
        }
    }
}

/// One scorecard characteristic's result: `{name, score, max}` as in the seed, plus a stable code.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Factor {
    /// Display name, e.g. `"Income stability"`.
    pub name: String,
    /// Points earned, `0..=max`.
    pub score: u16,
    /// Maximum points of this characteristic.
    pub max: u16,
    /// Stable code, e.g. `"income_stability"`.
    pub code: String,
}

/// A typed insight: a code, a sentence for a person, and the figure behind it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Insight {
    /// Stable code, e.g. `"average_monthly_income"`.
    pub code: String,
    /// One human sentence.
    pub message: String,
    /// The figure, exact decimal (serialised as a string).
    pub value: Decimal,
    /// Unit of `value`: `"KES"`, `"KES/month"`, `"ratio"` (0–1), `"months"`, `"count"`, `"days"`.
    pub unit: String,
}

/// A reason code: one scorecard attribute that lost points through evidence (or the
/// knock-out), ordered by points lost (largest first).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ReasonCode {
    /// Stable reason code of the characteristic, `"R01"`–`"R08"`, `"K01"` for the knock-out, or
    /// `"K02"` for a thin file (capped at 579, listed first: see [`crate::scorecard::thin`]).
    pub code: String,
    /// Code of the factor (characteristic) it comes from, e.g. `"credit_repayment"`.
    pub factor: String,
    /// Code of the attribute, e.g. `"on_time_repayment_share"` (`"overdue_credit"` for `K01`).
    pub attribute: String,
    /// Points this attribute lost: its maximum minus its points (for `K01`, the points the cap
    /// removed).
    pub points_lost: u16,
    /// Adverse-action sentence with the figure behind it, e.g. "Fuliza and loans: 61.0% of the
    /// amount due was repaid within 30 days".
    pub description: String,
}

/// How serious an integrity finding is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// Worth knowing, no doubt about the data.
    Info,
    /// The data may be incomplete or edited; a person should look.
    Warning,
    /// The statement does not add up; do not lend on this report alone.
    Critical,
}

/// One integrity finding (reconciliation, balance chain, tamper checks, unread rows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Finding {
    /// Stable code, e.g. `"summary_mismatch"`, `"balance_break"`, `"non_safaricom_producer"`.
    pub code: String,
    /// Severity.
    pub severity: Severity,
    /// One human sentence with the figures.
    pub message: String,
}

/// What the integrity verdict rests on: the kind of source the statement was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceLevel {
    /// A PDF as Safaricom's service wrote it: its writer's file structure, one save,
    /// encrypted.
    PdfOriginal,
    /// A PDF decrypted or re-saved by another program (named in the findings).
    PdfResaved,
    /// A CSV export: nothing about its origin can be checked.
    Csv,
    /// The canonical JSON (or a statement built in code): nothing about its origin can be
    /// checked.
    Json,
}

impl EvidenceLevel {
    /// The wire word (`"pdf_original"`).
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::PdfOriginal => "pdf_original",
            Self::PdfResaved => "pdf_resaved",
            Self::Csv => "csv",
            Self::Json => "json",
        }
    }
}

/// Integrity of the statement as a whole.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Integrity {
    /// The verdict ladder: `"verified"` (an original Safaricom PDF, every check passed),
    /// `"consistent"` (every check passed on a re-saved PDF, a CSV or JSON: the arithmetic
    /// holds, the origin cannot be checked; `evidenceLevel` says which), `"warnings"` (evidence
    /// of editing or lost rows: a person should look) or `"failed"` (a critical finding).
    pub status: String,
    /// The kind of source the verdict rests on.
    pub evidence_level: EvidenceLevel,
    /// Whether the listed rows (Cancelled included, Safaricom's rule) add up to the statement's
    /// SUMMARY; `None` without a SUMMARY.
    pub summary_reconciled: Option<bool>,
    /// Findings, most severe first.
    pub findings: Vec<Finding>,
}

/// Money in and out for one calendar month (statement local time).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MonthlyCashflow {
    /// `YYYY-MM`.
    pub month: String,
    /// Completed Paid In, KES major units.
    pub paid_in: Decimal,
    /// Completed Withdrawn, KES major units, positive.
    pub withdrawn: Decimal,
}

/// What the report says about the statement it scored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StatementOverview {
    /// Wallet, e.g. `"mpesa"`.
    pub provider: String,
    /// ISO 4217 currency of every amount in the report.
    pub currency: String,
    /// Holder name as printed, when the statement has one.
    pub holder_name: Option<String>,
    /// Holder mobile number with all but the last three digits masked (`"07******678"`).
    pub mobile_number_masked: Option<String>,
    /// First day covered, ISO 8601 date.
    pub period_start: String,
    /// Last day covered, ISO 8601 date.
    pub period_end: String,
    /// Number of rows.
    pub transaction_count: u32,
    /// Number of `Completed` rows.
    pub completed_count: u32,
    /// Sum of completed Paid In, KES major units.
    pub total_paid_in: Decimal,
    /// Sum of completed Withdrawn, KES major units, positive.
    pub total_withdrawn: Decimal,
    /// Money in and out per calendar month, oldest first.
    pub monthly: Vec<MonthlyCashflow>,
}

/// A score report. Field order is the JSON order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// `rpt_` + 24 hex digits of BLAKE3 over the scorecard (version and SHA-256) and the
    /// statement's canonical content, every field of every row in any row order: the same
    /// statement always gets the same id (the hashed form is documented in the engine's
    /// `report_id` module).
    pub report_id: String,
    /// Always `completed` from the engine.
    pub status: ReportStatus,
    /// 300–850: `300 + Σ factors[].score`, minus the knock-out's points (reason code `K01`).
    pub score: u16,
    /// Band of `score`.
    pub band: Band,
    /// `"<Mon YYYY> - <Mon YYYY>"`, e.g. `"May 2023 - May 2024"`.
    pub statement_period: String,
    /// One entry per scorecard characteristic, in scorecard order.
    pub factors: Vec<Factor>,
    /// Typed insights.
    pub insights: Vec<Insight>,
    /// Attributes that lost points through evidence, and the knock-out, largest loss first.
    pub reason_codes: Vec<ReasonCode>,
    /// Version of the scorecard that produced the points, e.g. `"alama-mpesa-2026.12"`.
    pub scorecard_version: String,
    /// Lowercase hex SHA-256 of the canonical JSON of the scorecard that produced the points
    /// (`Scorecard::sha256`): two cards with one version id but different tables differ here.
    pub scorecard_sha256: String,
    /// Reconciliation, balance and tamper findings.
    pub integrity: Integrity,
    /// The statement scored.
    pub statement: StatementOverview,
}

impl Report {
    /// The canonical compact JSON (UTF-8, no whitespace, keys in declaration order, money as
    /// decimal strings). Every binding returns exactly these bytes.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The same JSON, indented for people.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Parses a report from its JSON.
    ///
    /// # Errors
    /// `ErrorKind::Malformed` when the JSON is not a report.
    pub fn from_json(json: &str) -> crate::Result<Self> {
        serde_json::from_str(json).map_err(|e| {
            crate::Error::malformed(0, e.line() as u32, format!("not a report JSON: {e}"))
        })
    }
}
