//! # alama-python
//!
//! The native module `alama._alama` behind the Python package `alama` (see `python/`): a thin
//! layer that converts arguments, calls `alama-core`, maps its errors ([`error`]) and wraps its
//! results. Engine work runs detached from the interpreter (the GIL is released), and
//! `score_many` spreads it over Rust threads.
//!
//! Built by maturin (`cd python && maturin develop --release`); tested by `python/tests`.

mod batch;
mod convert;
mod error;
mod report;
mod scorecard;
mod source;
mod statement;

use pyo3::prelude::*;

use crate::batch::{jobs, slots};
use crate::report::PyReport;
use crate::scorecard::PyScorecard;
use crate::source::Source;
use crate::statement::PyStatement;

/// Reads a statement without scoring it.
///
/// `source` is the file's bytes (`bytes`/`bytearray`) or a path (`str` or `os.PathLike`); the
/// format (M-Pesa PDF, CSV export, canonical JSON) is detected from the content unless `format`
/// (`"pdf"`, `"csv"` or `"json"`) says. `password` opens an encrypted M-Pesa PDF (normally the
/// customer's ID number) and is ignored for other formats. Runs with the GIL released.
///
/// Returns a `Statement`. Raises `PasswordRequiredError`, `WrongPasswordError`,
/// `UnsupportedFormatError`, `UnsupportedWalletError`, `MalformedStatementError`,
/// `TooLargeError` or `FileReadError` (all `AlamaError`), and `TypeError` for a `source` of
/// another type. A statement with no transactions parses; scoring it raises
/// `EmptyStatementError`.
#[pyfunction]
#[pyo3(signature = (source, *, password = None, format = None, as_of = None))]
fn parse(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    password: Option<String>,
    format: Option<&str>,
    as_of: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyStatement> {
    let mut options = source::options(py, password, format)?;
    options.as_of = source::as_of(as_of)?;
    let source = Source::extract(source, false)?;
    let result = py.detach(|| source.statement(&options));
    error::map(py, result).map(PyStatement)
}

/// Scores a statement.
///
/// `source` is a `Statement`, the file's bytes, or a path (`str` or `os.PathLike`); `password`
/// and `format` are as for `parse` (ignored for a `Statement`). Runs with the GIL released.
///
/// `scorecard` (an `alama.Scorecard`) scores with a lender's own card instead of the built-in
/// one; the report carries its version and SHA-256.
///
/// `as_of` (a `datetime.date` or `"YYYY-MM-DD"`) is the day of analysis: a statement dated or
/// requested after it is `failed` (`after_analysis_date`). Not given: not checked, as the
/// engine's default (the CLI passes today's date, the service the request's).
///
/// Returns a `Report`. Raises the errors of `parse`, `EmptyStatementError` when the statement
/// has no completed transactions, and `ValueError`/`TypeError` for an `as_of` that is no date.
#[pyfunction]
#[pyo3(signature = (source, *, password = None, format = None, scorecard = None, as_of = None))]
fn score(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    password: Option<String>,
    format: Option<&str>,
    scorecard: Option<&Bound<'_, PyScorecard>>,
    as_of: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyReport> {
    let mut options = source::options(py, password, format)?;
    options.as_of = source::as_of(as_of)?;
    let source = Source::extract(source, true)?;
    let own = own_card(scorecard);
    let result = py.detach(|| source.report(&options, own.as_deref()));
    error::map(py, result).map(PyReport)
}

/// The lender's card given as `scorecard=`, taken out of its Python object so that it can be
/// used with the interpreter detached.
fn own_card(
    scorecard: Option<&Bound<'_, PyScorecard>>,
) -> Option<std::sync::Arc<alama_core::Scorecard>> {
    scorecard.map(|c| c.get().0.clone())
}

/// The feature catalogue's figures of one statement: a `dict` from feature name to
/// `decimal.Decimal` (exact; major units of the statement's currency, ratios as fractions) or
/// `None` (not measurable), in catalogue order (`feature_catalogue()`; docs/features.md).
/// `source`, `password` and
/// `format` are as for `score`; runs with the GIL released.
///
/// Raises the errors of `parse`.
#[pyfunction]
#[pyo3(signature = (source, *, password = None, format = None))]
fn features<'py>(
    py: Python<'py>,
    source: &Bound<'py, PyAny>,
    password: Option<String>,
    format: Option<&str>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let options = source::options(py, password, format)?;
    let source = Source::extract(source, true)?;
    let values = error::map(
        py,
        py.detach(|| {
            source
                .statement(&options)
                .and_then(|s| scorecard::values(&s))
        }),
    )?;
    let dict = pyo3::types::PyDict::new(py);
    for (name, value) in values {
        dict.set_item(name, value)?;
    }
    Ok(dict)
}

/// The native half of `alama.features_frame`: the catalogue figures of many statements, on
/// Rust threads with the GIL released. Returns, per source in input order, a list of `float`
/// (catalogue order, NaN when not measurable) or the `AlamaError` it raised.
#[pyfunction]
#[pyo3(signature = (sources, *, password = None, format = None, workers = None))]
fn features_many(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    password: Option<&Bound<'_, PyAny>>,
    format: Option<&str>,
    workers: Option<usize>,
) -> PyResult<Vec<Py<PyAny>>> {
    use rust_decimal::prelude::ToPrimitive;
    let (jobs, workers) = jobs(py, sources, password, format, workers)?;
    let outcomes = py.detach(|| {
        batch::run_all(&jobs, workers, |source, options| {
            let s = source.statement(options)?;
            Ok(scorecard::values(&s)?
                .into_iter()
                .map(|(_, v)| v.and_then(|d| d.to_f64()).unwrap_or(f64::NAN))
                .collect::<Vec<f64>>())
        })
    });
    drop(jobs);
    slots(py, outcomes, |row| {
        Ok(row.into_pyobject(py)?.into_any().unbind())
    })
}

/// The synthetic population of `alama.testing.population`: `n` tuples `(Statement, defaulted,
/// probability, kind)` drawn from `seed` (docs/modelling.md gives the true default model).
#[pyfunction]
fn population(py: Python<'_>, n: usize, seed: u64) -> Vec<(PyStatement, bool, f64, &'static str)> {
    py.detach(|| alama_core::testing::population(seed, n))
        .into_iter()
        .map(|m| (PyStatement(m.statement), m.defaulted, m.probability, m.kind))
        .collect()
}

/// Scores many statements in parallel on Rust threads, with the GIL released.
///
/// `sources` is an iterable of what `score` accepts. `password` is one password for every
/// PDF, or a sequence with one password (or `None`) per source. `workers` is the number of
/// threads (default: the machine's available parallelism).
///
/// Returns a list in input order holding, per source, its `Report` or the `AlamaError` it
/// raised (not raised: one bad statement never aborts the batch). Raises `TypeError` for an
/// item that is not a source or for a lone `str`/`bytes` in place of the iterable, and
/// `ValueError` for `workers < 1` or a password sequence of the wrong length.
#[pyfunction]
#[pyo3(signature = (sources, *, password = None, format = None, workers = None, scorecard = None))]
fn score_many(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    password: Option<&Bound<'_, PyAny>>,
    format: Option<&str>,
    workers: Option<usize>,
    scorecard: Option<&Bound<'_, PyScorecard>>,
) -> PyResult<Vec<Py<PyAny>>> {
    let (jobs, workers) = jobs(py, sources, password, format, workers)?;
    let own = own_card(scorecard);
    let outcomes = py.detach(|| {
        let card = own.as_deref();
        batch::run_all(&jobs, workers, |source, options| {
            source.report(options, card)
        })
    });
    drop(jobs);
    slots(py, outcomes, |report| {
        Ok(Py::new(py, PyReport(report))?.into_any())
    })
}

/// The engine's score bands with their display names, for [`_alama::BANDS`].
const BANDS: [(&str, u16, u16); 5] = {
    let ranges = alama_core::Band::RANGES;
    let mut bands = [("", 0, 0); 5];
    let mut i = 0;
    while i < bands.len() {
        let (band, lowest, highest) = ranges[i];
        bands[i] = (band.as_str(), lowest, highest);
        i += 1;
    }
    bands
};

/// The native half of `alama.score_application`: several statements of one applicant scored
/// as one application (docs/applications.md), with the loan terms when `principal` and
/// `tenor_months` are given (`decimal.Decimal` money and rate, docs/affordability.md). Each
/// source is as for `score` (a `Statement`, bytes or a path; `password` and `format` apply to
/// every one). Runs with the GIL released.
///
/// Returns the application report's canonical JSON (`str`). Raises the errors of `score` (the
/// message names the statement by position), `CurrencyMismatchError` for statements in two
/// currencies, `EmptyStatementError` for none, `MalformedStatementError` for bad terms.
#[pyfunction]
#[pyo3(signature = (
    sources, *, password = None, format = None, scorecard = None, as_of = None,
    principal = None, tenor_months = None, monthly_rate = None, total_cost = None, fees = None
))]
// Python keyword arguments, one per option; PyO3 extracts the list of sources as a `Vec`.
#[allow(clippy::too_many_arguments, clippy::needless_pass_by_value)]
fn score_application_json(
    py: Python<'_>,
    sources: Vec<Bound<'_, PyAny>>,
    password: Option<String>,
    format: Option<&str>,
    scorecard: Option<&Bound<'_, PyScorecard>>,
    as_of: Option<&Bound<'_, PyAny>>,
    principal: Option<rust_decimal::Decimal>,
    tenor_months: Option<u32>,
    monthly_rate: Option<rust_decimal::Decimal>,
    total_cost: Option<rust_decimal::Decimal>,
    fees: Option<rust_decimal::Decimal>,
) -> PyResult<String> {
    let options = source::options(py, password, format)?;
    let day = source::as_of(as_of)?;
    let sources = sources
        .iter()
        .map(|s| Source::extract(s, true))
        .collect::<PyResult<Vec<_>>>()?;
    let own = own_card(scorecard);
    let result = py.detach(|| {
        let terms = alama_core::Terms::from_options(
            principal,
            tenor_months,
            monthly_rate,
            total_cost,
            fees,
        )?;
        let statements = sources
            .iter()
            .map(|s| s.statement(&options))
            .collect::<alama_core::Result<Vec<_>>>()?;
        alama_core::score_application(&statements, own.as_deref(), terms.as_ref(), day)
            .map(|a| a.to_json())
    });
    error::map(py, result)
}

/// The native module. Python code imports the package `alama`, which re-exports all of it.
#[pymodule]
mod _alama {
    #[pymodule_export]
    use super::error::{
        AlamaError, CurrencyMismatchError, EmptyStatementError, FileReadError,
        InvalidScorecardError, InvalidTermsError, MalformedStatementError, PasswordRequiredError,
        TooLargeError, UnsupportedCurrencyError, UnsupportedFormatError, UnsupportedWalletError,
        WrongPasswordError,
    };
    #[pymodule_export]
    use super::report::{
        PyFactor, PyFinding, PyInsight, PyIntegrity, PyMonthlyCashflow, PyReasonCode, PyReport,
        PyStatementOverview,
    };
    #[pymodule_export]
    use super::scorecard::{PyScorecard, feature_catalogue};
    #[pymodule_export]
    use super::statement::{PyStatement, PySummary, PySummaryRow, PyTransaction};
    #[pymodule_export]
    use super::{
        features, features_many, parse, population, score, score_application_json, score_many,
    };
    use pyo3::prelude::*;

    /// Version of the package and of the engine it embeds (`str`, semantic version).
    #[pymodule_export]
    #[allow(non_upper_case_globals)]
    const __version__: &str = env!("CARGO_PKG_VERSION");

    /// Version of the scorecard every report of this engine carries (`str`).
    #[pymodule_export]
    const SCORECARD_VERSION: &str = alama_core::scorecard::VERSION;

    /// The score bands, `(name, lowest, highest)` inclusive (`list[tuple[str, int, int]]`), as
    /// every report names them: the engine's [`alama_core::Band::RANGES`].
    #[pymodule_export]
    const BANDS: [(&str, u16, u16); 5] = super::BANDS;

    /// The base score of every card (`int`, 300): `score = BASE_SCORE + Σ points`.
    #[pymodule_export]
    const BASE_SCORE: u16 = alama_core::scorecard::BASE;

    /// What a card's characteristics' maxima add up to (`int`, 550).
    #[pymodule_export]
    const MAX_POINTS: u16 = alama_core::scorecard::MAX_POINTS;

    /// The lowest score (`int`, 300).
    #[pymodule_export]
    const SCORE_MIN: u16 = alama_core::scorecard::BASE;

    /// The highest score (`int`, 850).
    #[pymodule_export]
    const SCORE_MAX: u16 = alama_core::scorecard::BASE + alama_core::scorecard::MAX_POINTS;

    #[pymodule_init]
    fn init(py: Python<'_>) -> PyResult<()> {
        super::error::set_class_codes(py)
    }
}
