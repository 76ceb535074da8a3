//! `alama.Report` and its parts: read-only views of the engine's report.
//!
//! (Over 400 lines: one frozen class per part of the report, each a short getter per field of
//! its JSON with the doc Python shows.)

use alama_core::report::{Integrity, MonthlyCashflow, StatementOverview};
use alama_core::{Factor, Finding, Insight, ReasonCode, Report};
use pyo3::prelude::*;
use rust_decimal::Decimal;

use crate::convert::{loads, wire};
use crate::error;

/// A score report (read-only).
///
/// `to_json()` is byte for byte what `alama score --format json` prints for the same input;
/// `to_dict()` is `json.loads(to_json())`. Equal reports compare equal with `==`.
#[pyclass(name = "Report", module = "alama", frozen, eq)]
#[derive(PartialEq)]
pub struct PyReport(pub(crate) Report);

#[pymethods]
impl PyReport {
    /// `"rpt_"` + 24 hex digits (`str`): the same statement always gets the same id.
    #[getter]
    fn report_id(&self) -> &str {
        &self.0.report_id
    }

    /// `"completed"` for every report the engine produces (`str`).
    #[getter]
    fn status(&self) -> &'static str {
        self.0.status.as_str()
    }

    /// The score (`int`, 300–850): `300 + sum(f.score for f in factors)`.
    #[getter]
    fn score(&self) -> u16 {
        self.0.score
    }

    /// The band of `score` (`str`): `"Poor"` 300–579, `"Fair"` 580–669, `"Good"` 670–739,
    /// `"Very Good"` 740–799, `"Excellent"` 800–850.
    #[getter]
    fn band(&self) -> &'static str {
        self.0.band.as_str()
    }

    /// The months covered (`str`), e.g. `"May 2023 - May 2024"`.
    #[getter]
    fn statement_period(&self) -> &str {
        &self.0.statement_period
    }

    /// One `Factor` per scorecard characteristic, in scorecard order (`list[Factor]`).
    #[getter]
    fn factors(&self) -> Vec<PyFactor> {
        self.0.factors.iter().cloned().map(PyFactor).collect()
    }

    /// Typed insights (`list[Insight]`).
    #[getter]
    fn insights(&self) -> Vec<PyInsight> {
        self.0.insights.iter().cloned().map(PyInsight).collect()
    }

    /// Characteristics that cost points, largest loss first (`list[ReasonCode]`).
    #[getter]
    fn reason_codes(&self) -> Vec<PyReasonCode> {
        self.0
            .reason_codes
            .iter()
            .cloned()
            .map(PyReasonCode)
            .collect()
    }

    /// Version of the scorecard that produced the points (`str`, equals
    /// `alama.SCORECARD_VERSION` for reports made by this engine).
    #[getter]
    fn scorecard_version(&self) -> &str {
        &self.0.scorecard_version
    }

    /// Lowercase hex SHA-256 of the canonical JSON of the scorecard that produced the points
    /// (`str`, 64 characters).
    #[getter]
    fn scorecard_sha256(&self) -> &str {
        &self.0.scorecard_sha256
    }

    /// Reconciliation, balance-chain and tamper findings (`Integrity`).
    #[getter]
    fn integrity(&self) -> PyIntegrity {
        PyIntegrity(self.0.integrity.clone())
    }

    /// What the report says about the statement it scored (`StatementOverview`).
    #[getter]
    fn statement(&self) -> PyStatementOverview {
        PyStatementOverview(self.0.statement.clone())
    }

    /// The canonical compact JSON (`str`), byte for byte what every Alama surface returns.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// The report as Python objects (`dict`), exactly `json.loads(self.to_json())`: camelCase
    /// keys, money as decimal strings.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loads(py, &self.0.to_json())
    }

    /// Reads a report from its JSON (`str`), e.g. one stored by the HTTP service.
    ///
    /// Raises `MalformedStatementError` when the text is not a report JSON.
    #[staticmethod]
    fn from_json(py: Python<'_>, json: &str) -> PyResult<PyReport> {
        error::map(py, Report::from_json(json)).map(PyReport)
    }

    fn __repr__(&self) -> String {
        format!(
            "<alama.Report {} score={} band={:?} period={:?}>",
            self.0.report_id,
            self.0.score,
            self.0.band.as_str(),
            self.0.statement_period
        )
    }
}

/// One scorecard characteristic's result.
#[pyclass(name = "Factor", module = "alama", frozen)]
pub struct PyFactor(Factor);

#[pymethods]
impl PyFactor {
    /// Display name (`str`), e.g. `"Income stability"`.
    #[getter]
    fn name(&self) -> &str {
        &self.0.name
    }

    /// Points earned (`int`, `0..=max`).
    #[getter]
    fn score(&self) -> u16 {
        self.0.score
    }

    /// Maximum points of this characteristic (`int`).
    #[getter]
    fn max(&self) -> u16 {
        self.0.max
    }

    /// Stable code (`str`), e.g. `"income_stability"`.
    #[getter]
    fn code(&self) -> &str {
        &self.0.code
    }

    fn __repr__(&self) -> String {
        format!(
            "<alama.Factor {} {}/{}>",
            self.0.code, self.0.score, self.0.max
        )
    }
}

/// A typed insight: a code, a sentence for a person, and the figure behind it.
#[pyclass(name = "Insight", module = "alama", frozen)]
pub struct PyInsight(Insight);

#[pymethods]
impl PyInsight {
    /// Stable code (`str`), e.g. `"average_monthly_income"`.
    #[getter]
    fn code(&self) -> &str {
        &self.0.code
    }

    /// One human sentence (`str`).
    #[getter]
    fn message(&self) -> &str {
        &self.0.message
    }

    /// The figure (`decimal.Decimal`, exact), in `unit`.
    #[getter]
    fn value(&self) -> Decimal {
        self.0.value
    }

    /// Unit of `value` (`str`): the statement's currency (`"KES"`, `"KES/month"`), `"ratio"`
    /// (0–1), `"months"`,
    /// `"count"` or `"days"`.
    #[getter]
    fn unit(&self) -> &str {
        &self.0.unit
    }

    fn __repr__(&self) -> String {
        format!(
            "<alama.Insight {} {} {}>",
            self.0.code, self.0.value, self.0.unit
        )
    }
}

/// A reason code: one scorecard attribute that lost points through evidence, or a knock-out
/// (`K01`: overdue digital credit; `K02`: a thin file, too few activity rows or days to score),
/// ordered by points lost.
#[pyclass(name = "ReasonCode", module = "alama", frozen)]
pub struct PyReasonCode(ReasonCode);

#[pymethods]
impl PyReasonCode {
    /// Stable reason code (`str`), e.g. `"R01"`.
    #[getter]
    fn code(&self) -> &str {
        &self.0.code
    }

    /// Code of the factor it comes from (`str`).
    #[getter]
    fn factor(&self) -> &str {
        &self.0.factor
    }

    /// Code of the attribute (`str`), e.g. `"on_time_repayment_share"`; `"overdue_credit"`
    /// for `K01`, `"thin_file"` for `K02`.
    #[getter]
    fn attribute(&self) -> &str {
        &self.0.attribute
    }

    /// Points this attribute lost (`int`): its maximum minus its points; for `K01` and `K02`, the
    /// points the knock-out's cap removed.
    #[getter]
    fn points_lost(&self) -> u16 {
        self.0.points_lost
    }

    /// Adverse-action sentence with the figure behind it (`str`).
    #[getter]
    fn description(&self) -> &str {
        &self.0.description
    }

    fn __repr__(&self) -> String {
        format!(
            "<alama.ReasonCode {} {} -{}>",
            self.0.code, self.0.attribute, self.0.points_lost
        )
    }
}

/// Integrity of the statement as a whole.
#[pyclass(name = "Integrity", module = "alama", frozen)]
pub struct PyIntegrity(Integrity);

#[pymethods]
impl PyIntegrity {
    /// `"verified"` (an original Safaricom PDF, every check passed), `"consistent"` (every
    /// check passed on a re-saved PDF, a CSV or JSON), `"warnings"` or `"failed"`.
    #[getter]
    fn status(&self) -> &str {
        &self.0.status
    }

    /// The kind of source the verdict rests on: `"pdf_original"`, `"pdf_resaved"`, `"csv"` or
    /// `"json"`.
    #[getter]
    fn evidence_level(&self) -> &'static str {
        self.0.evidence_level.as_str()
    }

    /// Whether the rows add up to the statement's SUMMARY (`bool`), or `None` without one.
    #[getter]
    fn summary_reconciled(&self) -> Option<bool> {
        self.0.summary_reconciled
    }

    /// Findings, most severe first (`list[Finding]`).
    #[getter]
    fn findings(&self) -> Vec<PyFinding> {
        self.0.findings.iter().cloned().map(PyFinding).collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<alama.Integrity {} findings={}>",
            self.0.status,
            self.0.findings.len()
        )
    }
}

/// One integrity finding (reconciliation, balance chain, tamper checks, unread rows).
#[pyclass(name = "Finding", module = "alama", frozen)]
pub struct PyFinding(Finding);

#[pymethods]
impl PyFinding {
    /// Stable code (`str`), e.g. `"summary_mismatch"`, `"balance_break"`.
    #[getter]
    fn code(&self) -> &str {
        &self.0.code
    }

    /// `"info"`, `"warning"` or `"critical"` (`str`).
    #[getter]
    fn severity(&self) -> String {
        wire(&self.0.severity)
    }

    /// One human sentence with the figures (`str`).
    #[getter]
    fn message(&self) -> &str {
        &self.0.message
    }

    fn __repr__(&self) -> String {
        format!("<alama.Finding {} {}>", wire(&self.0.severity), self.0.code)
    }
}

/// What a report says about the statement it scored.
#[pyclass(name = "StatementOverview", module = "alama", frozen)]
pub struct PyStatementOverview(StatementOverview);

#[pymethods]
impl PyStatementOverview {
    /// Wallet (`str`), e.g. `"mpesa"`.
    #[getter]
    fn provider(&self) -> &str {
        &self.0.provider
    }

    /// ISO 4217 currency of every amount in the report (`str`).
    #[getter]
    fn currency(&self) -> &str {
        &self.0.currency
    }

    /// Holder name as printed (`str`), or `None`. Personal data.
    #[getter]
    fn holder_name(&self) -> Option<&str> {
        self.0.holder_name.as_deref()
    }

    /// Holder mobile number with all but the last three digits masked (`str`), or `None`.
    #[getter]
    fn mobile_number_masked(&self) -> Option<&str> {
        self.0.mobile_number_masked.as_deref()
    }

    /// First day covered (`str`, ISO 8601 date `YYYY-MM-DD`).
    #[getter]
    fn period_start(&self) -> &str {
        &self.0.period_start
    }

    /// Last day covered (`str`, ISO 8601 date).
    #[getter]
    fn period_end(&self) -> &str {
        &self.0.period_end
    }

    /// Number of transaction rows (`int`).
    #[getter]
    fn transaction_count(&self) -> u32 {
        self.0.transaction_count
    }

    /// Number of completed rows (`int`).
    #[getter]
    fn completed_count(&self) -> u32 {
        self.0.completed_count
    }

    /// Sum of completed Paid In (`decimal.Decimal`, major units of the statement's currency).
    #[getter]
    fn total_paid_in(&self) -> Decimal {
        self.0.total_paid_in
    }

    /// Sum of completed Withdrawn (`decimal.Decimal`, major units of the statement's currency,
    /// positive).
    #[getter]
    fn total_withdrawn(&self) -> Decimal {
        self.0.total_withdrawn
    }

    /// Money in and out per calendar month, oldest first (`list[MonthlyCashflow]`).
    #[getter]
    fn monthly(&self) -> Vec<PyMonthlyCashflow> {
        self.0
            .monthly
            .iter()
            .cloned()
            .map(PyMonthlyCashflow)
            .collect()
    }

    fn __repr__(&self) -> String {
        format!(
            "<alama.StatementOverview {} {}..{} rows={}>",
            self.0.provider, self.0.period_start, self.0.period_end, self.0.transaction_count
        )
    }
}

/// Money in and out for one calendar month (statement local time).
#[pyclass(name = "MonthlyCashflow", module = "alama", frozen)]
pub struct PyMonthlyCashflow(MonthlyCashflow);

#[pymethods]
impl PyMonthlyCashflow {
    /// The month (`str`, `"YYYY-MM"`).
    #[getter]
    fn month(&self) -> &str {
        &self.0.month
    }

    /// Completed Paid In that month (`decimal.Decimal`, major units of the statement's currency).
    #[getter]
    fn paid_in(&self) -> Decimal {
        self.0.paid_in
    }

    /// Completed Withdrawn that month (`decimal.Decimal`, major units of the statement's
    /// currency, positive).
    #[getter]
    fn withdrawn(&self) -> Decimal {
        self.0.withdrawn
    }

    fn __repr__(&self) -> String {
        format!(
            "<alama.MonthlyCashflow {} in={} out={}>",
            self.0.month, self.0.paid_in, self.0.withdrawn
        )
    }
}
