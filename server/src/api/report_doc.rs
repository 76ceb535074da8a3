//! The schemas of the score report as the API answers it, for the OpenAPI document
//! ([`crate::openapi`] reads them): [`ScoreReport`] and the `…Doc` mirrors of the engine's
//! report types, which live in `alama-core` and know nothing of HTTP. Never built; the server
//! writes the report from [`alama_core::Report`] and the stored record.

use serde::Serialize;
use utoipa::ToSchema;

/// One scorecard characteristic: points earned of the maximum.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Factor)]
#[serde(rename_all = "camelCase")]
pub struct FactorDoc {
    /// Display name, e.g. `Income stability`.
    name: String,
    /// Points earned, 0..=max.
    score: u16,
    /// Maximum points.
    max: u16,
    /// Stable code, e.g. `income_stability`.
    code: String,
}

/// A typed insight.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Insight)]
#[serde(rename_all = "camelCase")]
pub struct InsightDoc {
    /// Stable code, e.g. `average_monthly_income`.
    code: String,
    /// One sentence for people.
    message: String,
    /// The figure as an exact decimal string, e.g. `"23500.00"`.
    value: String,
    /// Unit of `value`: `KES`, `KES/month`, `ratio`, `months`, `count`, `days`.
    unit: String,
}

/// A scorecard attribute that lost points through evidence, or a knock-out: `K01` (overdue
/// digital credit) or `K02` (a thin file: too few activity rows or days to score).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ReasonCode)]
#[serde(rename_all = "camelCase")]
pub struct ReasonCodeDoc {
    /// Stable reason code of the characteristic, `R01`–`R08`, or `K01`/`K02` for a knock-out.
    code: String,
    /// Code of the factor (characteristic).
    factor: String,
    /// Code of the attribute, e.g. `on_time_repayment_share` (`overdue_credit` for `K01`,
    /// `thin_file` for `K02`).
    attribute: String,
    /// Points this attribute lost (for `K01` and `K02`, the points the cap removed).
    points_lost: u16,
    /// Adverse-action sentence with the figure behind it.
    description: String,
}

/// An integrity finding.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Finding)]
#[serde(rename_all = "camelCase")]
pub struct FindingDoc {
    /// Stable code, e.g. `summary_mismatch`.
    code: String,
    /// `info`, `warning` or `critical`.
    severity: String,
    /// One sentence with the figures.
    message: String,
}

/// Integrity of the statement.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Integrity)]
#[serde(rename_all = "camelCase")]
pub struct IntegrityDoc {
    /// `verified` (original Safaricom PDF, every check passed), `consistent` (every check passed
    /// on a re-saved PDF, CSV or JSON), `warnings` or `failed`.
    status: String,
    /// `pdf_original`, `pdf_resaved`, `csv` or `json`: the kind of source the verdict rests on.
    evidence_level: String,
    /// Whether the rows add up to the statement's SUMMARY; null without one.
    summary_reconciled: Option<bool>,
    /// Findings, most severe first.
    findings: Vec<FindingDoc>,
}

/// Money in and out for one month.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MonthlyCashflow)]
#[serde(rename_all = "camelCase")]
pub struct MonthlyCashflowDoc {
    /// `YYYY-MM`.
    month: String,
    /// Completed Paid In, KES, decimal string.
    paid_in: String,
    /// Completed Withdrawn, KES, positive decimal string.
    withdrawn: String,
}

/// What the report says about the statement.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = StatementOverview)]
#[serde(rename_all = "camelCase")]
pub struct StatementOverviewDoc {
    /// Wallet, e.g. `mpesa`.
    provider: String,
    /// ISO 4217 currency of every amount.
    currency: String,
    /// Holder name as printed, if any.
    holder_name: Option<String>,
    /// Mobile number with all but the last three digits masked.
    mobile_number_masked: Option<String>,
    /// First day covered, ISO 8601 date.
    period_start: String,
    /// Last day covered, ISO 8601 date.
    period_end: String,
    /// Rows.
    transaction_count: u32,
    /// Completed rows.
    completed_count: u32,
    /// Sum of completed Paid In, KES, decimal string.
    total_paid_in: String,
    /// Sum of completed Withdrawn, KES, decimal string.
    total_withdrawn: String,
    /// Per month, oldest first.
    monthly: Vec<MonthlyCashflowDoc>,
}

/// Why a report failed.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ReportError)]
pub struct ReportErrorDoc {
    /// The problem code, e.g. `wrong_password`.
    code: String,
    /// For people.
    detail: Option<String>,
}

/// The report as answered (for the OpenAPI document; the server writes it from the engine's
/// report and the stored record).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct ScoreReport {
    /// `rpt_…`, assigned by the service.
    report_id: String,
    /// `processing`, `completed` or `failed`.
    status: String,
    /// 300–850 (null unless completed).
    score: Option<u16>,
    /// `Poor` (300–579), `Fair` (580–669), `Good` (670–739), `Very Good` (740–799),
    /// `Excellent` (800–850); null unless completed.
    band: Option<String>,
    /// `"<Mon YYYY> - <Mon YYYY>"`, e.g. `"May 2023 - May 2024"`; null unless completed.
    statement_period: Option<String>,
    /// One per scorecard characteristic (empty unless completed).
    factors: Vec<FactorDoc>,
    /// Typed insights (empty unless completed).
    insights: Vec<InsightDoc>,
    /// Attributes that lost points through evidence (and the knock-out), largest loss first
    /// (completed only).
    reason_codes: Option<Vec<ReasonCodeDoc>>,
    /// Version of the scorecard that scored it (completed only): the `scorecard` form field's,
    /// else the partner's default in this environment, else the built-in scorecard's.
    scorecard_version: Option<String>,
    /// Lowercase hex SHA-256 of that scorecard's canonical JSON (completed only).
    scorecard_sha256: Option<String>,
    /// Reconciliation, balance and tamper findings: on completed reports, and on reports
    /// failed with `integrity_failed` (the partner's `reject_failed` integrity policy).
    integrity: Option<IntegrityDoc>,
    /// What the report says about the statement (completed only).
    statement: Option<StatementOverviewDoc>,
    /// Failed reports: the error code (as in the problem `code`) and detail.
    error: Option<ReportErrorDoc>,
    /// The consent the analysis ran under (null in Sandbox without one).
    consent_id: Option<String>,
    /// `sandbox` or `live`.
    environment: String,
    /// RFC 3339 UTC.
    created_at: String,
    /// RFC 3339 UTC, when completed or failed.
    completed_at: Option<String>,
}

/// One statement an application read.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = StatementRead)]
#[serde(rename_all = "camelCase")]
pub struct StatementReadDoc {
    /// The report id the engine gives this statement alone under the same card (`rpt_` + 24
    /// hex digits, its content address; not a report of this service).
    report_id: String,
    /// Its wallet (`mpesa`, `airtel_ug`, …).
    provider: String,
    /// Its holder's number, masked, when it prints one.
    mobile_number_masked: Option<String>,
    /// `"<Mon YYYY> - <Mon YYYY>"`.
    statement_period: String,
    /// First day covered, ISO 8601 date.
    period_start: String,
    /// Last day covered, ISO 8601 date.
    period_end: String,
    /// Its own integrity verdict (`verified`, `consistent`, `warnings`, `failed`).
    integrity_status: String,
    /// `pdf_original`, `pdf_resaved`, `csv` or `json`.
    evidence_level: String,
}

/// How a loan is priced: exactly one of the two.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Pricing)]
#[serde(rename_all = "camelCase")]
pub struct PricingDoc {
    /// Interest a month on the balance owed, a fraction as a decimal string (`"0.035"`).
    monthly_rate: Option<String>,
    /// A flat charge over the whole loan, major units, decimal string.
    total_cost: Option<String>,
}

/// The loan terms asked for; money in the statements' currency, major units.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = LoanTerms)]
#[serde(rename_all = "camelCase")]
pub struct TermsDoc {
    /// The principal, decimal string.
    principal: String,
    /// Monthly instalments, 1–360.
    tenor_months: u32,
    /// The price.
    pricing: PricingDoc,
    /// One-off fees, decimal string.
    fees: String,
}

/// Whether the terms fit the affordable monthly instalment (docs/affordability.md).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Affordability)]
#[serde(rename_all = "camelCase")]
pub struct AffordabilityDoc {
    /// The terms asked.
    terms: TermsDoc,
    /// ISO 4217 currency of every amount.
    currency: String,
    /// The instalment the terms ask for, rounded up to the minor unit, decimal string.
    instalment: String,
    /// The affordable monthly instalment the statements show, decimal string.
    affordable_instalment: String,
    /// `instalment / affordableInstalment`, four places; null when nothing is affordable.
    ratio: Option<String>,
    /// Whether the instalment is at most the affordable one.
    fits: bool,
    /// The largest principal that fits at these terms, decimal string.
    largest_principal: String,
}

/// An application as answered: the report fields of the applicant as a whole (the engine's
/// `ApplicationReport`, docs/applications.md), the statements read, the affordability of the
/// terms, and the service's record fields.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Application)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct ApplicationDoc {
    /// `app_…`, assigned by the service.
    application_id: String,
    /// `processing`, `completed` or `failed`.
    status: String,
    /// 300–850 (null unless completed).
    score: Option<u16>,
    /// As a report's band; null unless completed.
    band: Option<String>,
    /// From the first day any statement covers to the last; null unless completed.
    statement_period: Option<String>,
    /// One per scorecard characteristic (empty unless completed).
    factors: Vec<FactorDoc>,
    /// Typed insights of the combined rows (empty unless completed).
    insights: Vec<InsightDoc>,
    /// Attributes that lost points, largest loss first (completed only).
    reason_codes: Option<Vec<ReasonCodeDoc>>,
    /// The scorecard's version (completed only).
    scorecard_version: Option<String>,
    /// The scorecard's SHA-256 (completed only).
    scorecard_sha256: Option<String>,
    /// The worst of every statement's verdict and the application's own findings (overlaps
    /// that disagree, names, gaps, own transfers, statements seen before); each statement's
    /// findings prefixed with its report id.
    integrity: Option<IntegrityDoc>,
    /// The combined rows' overview (completed only).
    statement: Option<StatementOverviewDoc>,
    /// The statements read, by period then report id (empty unless completed).
    statements: Vec<StatementReadDoc>,
    /// The terms asked against the affordable instalment, when terms were given.
    affordability: Option<AffordabilityDoc>,
    /// Failed applications: the error code and detail.
    error: Option<ReportErrorDoc>,
    /// The consent it ran under (null in Sandbox without one).
    consent_id: Option<String>,
    /// `sandbox` or `live`.
    environment: String,
    /// RFC 3339 UTC.
    created_at: String,
    /// RFC 3339 UTC, when completed or failed.
    completed_at: Option<String>,
}
