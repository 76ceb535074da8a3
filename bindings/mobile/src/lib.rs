//! # alama-mobile
//!
//! The Alama engine for Android (Kotlin) and iOS (Swift), through `UniFFI` proc-macros. Every
//! function converts its arguments, calls `alama-core`, maps the error and returns the core's own
//! types (mirrored in `src/types.rs`): there is no scoring logic here.
//!
//! Generated API (Kotlin package `ke.alama`, Swift module `Alama`):
//!
//! | Rust | Kotlin / Swift |
//! |---|---|
//! | [`parse_statement`] | `parseStatement(bytes, password)` → `Statement` |
//! | [`score_statement`] | `scoreStatement(bytes, password, scorecard)` → `Report` |
//! | [`score`] | `score(statement, scorecard)` → `Report` |
//! | [`Scorecard`] | `Scorecard.fromJson(json)`, `.builtin()`; `version()`, `sha256()`, `toJson()` |
//! | [`report_to_json`] | `reportToJson(report)` → `String` |
//! | [`report_from_json`] | `reportFromJson(json)` → `Report` |
//! | [`score_statement_json`] | `scoreStatementJson(bytes, password, scorecard)` → `String` |
//! | [`statement_to_json`] | `statementToJson(statement)` → `String` |
//! | [`parse_statement_async`], [`score_statement_async`] | `suspend` (Kotlin) / `async` (Swift) |
//! | [`error_code`] | `errorCode(error)` → `"wrong_password"`, … |
//!
//! `scorecard` is optional everywhere (default `null`/`nil`: the built-in scorecard).
//!
//! Errors are [`AlamaError`] (`AlamaException` in Kotlin). Parsing and scoring a 100-page PDF
//! takes a noticeable time on a phone: call the blocking functions off the main thread, or use
//! the `…Async` ones, which run the work on a thread of their own.

// `UniFFI` lifts every argument into an owned value; taking `&[u8]` or `&Statement` is not an
// option for exported functions.
#![allow(clippy::needless_pass_by_value)]

mod error;
mod scorecard;
mod types;
mod worker;

pub use error::AlamaError;
pub use scorecard::Scorecard;
pub use types::{Decimal, IsoDate, IsoDateTime};

use std::sync::Arc;

use alama_core::{ParseOptions, Report, Statement};

uniffi::setup_scaffolding!("alama");

/// Options for bytes handed in from the app: content-detected format, default safety limits.
fn options(password: Option<String>) -> ParseOptions {
    ParseOptions {
        password,
        ..ParseOptions::default()
    }
}

/// The parse options with the day of analysis `as_of` (`YYYY-MM-DD`).
///
/// # Errors
/// `MalformedStatement` naming `asOf` when it is not a date as `YYYY-MM-DD`.
fn options_on(password: Option<String>, as_of: Option<String>) -> Result<ParseOptions, AlamaError> {
    let as_of = match as_of.as_deref() {
        None => None,
        Some(text) => Some(
            chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| {
                alama_core::Error::malformed(
                    0,
                    0,
                    format!("asOf must be a date as YYYY-MM-DD, got {text:?}"),
                )
            })?,
        ),
    };
    Ok(ParseOptions {
        as_of,
        ..options(password)
    })
}

/// Parses a statement: a Safaricom M-Pesa PDF (encrypted or not), a CSV export, or the canonical
/// statement JSON, detected from the content. Transactions come back categorised.
///
/// `password` opens an encrypted PDF (Safaricom: normally the customer's national ID number);
/// it is ignored for CSV and JSON.
///
/// Blocking and CPU-bound (a 100-page PDF takes a while): call it off the main thread, or use
/// [`parse_statement_async`].
///
/// # Errors
/// `PasswordRequired` / `WrongPassword` for an encrypted PDF; `UnsupportedFormat` for bytes
/// that are not a PDF, CSV or JSON; `UnsupportedWallet` for a readable file of an unknown
/// layout; `MalformedStatement` for a broken file; `TooLarge` past the engine's safety limits.
#[uniffi::export(default(password = None))]
pub fn parse_statement(bytes: Vec<u8>, password: Option<String>) -> Result<Statement, AlamaError> {
    Ok(alama_core::parse(&bytes, &options(password))?.into_statement())
}

/// Parses and scores a statement in one call (see [`parse_statement`] for the inputs).
/// `scorecard` is a lender's own [`Scorecard`]; absent, the built-in one. The report's
/// `scorecardVersion` and `scorecardSha256` name the scorecard used. `as_of` (`YYYY-MM-DD`) is
/// the day of analysis: a statement dated or requested after it is `failed`
/// (`after_analysis_date`); absent, not checked.
///
/// Blocking and CPU-bound: call it off the main thread, or use [`score_statement_async`].
///
/// # Errors
/// Those of [`parse_statement`], `EmptyStatement` when the statement has no completed
/// transactions, and `MalformedStatement` naming `asOf` when it is not `YYYY-MM-DD`.
#[uniffi::export(default(password = None, scorecard = None, as_of = None))]
pub fn score_statement(
    bytes: Vec<u8>,
    password: Option<String>,
    scorecard: Option<Arc<Scorecard>>,
    as_of: Option<String>,
) -> Result<Report, AlamaError> {
    Ok(scorecard::score_bytes_with(
        &bytes,
        &options_on(password, as_of)?,
        scorecard.as_deref(),
    )?)
}

/// Scores a statement (one from [`parse_statement`], or one the app built) with `scorecard`,
/// or the built-in scorecard when it is absent. The same statement always gives the same
/// report, whatever the order of its transactions.
///
/// # Errors
/// `EmptyStatement` when the statement has no completed transactions; `MalformedStatement`
/// when a decimal or date handed in is not valid.
#[uniffi::export(default(scorecard = None))]
pub fn score(
    statement: Statement,
    scorecard: Option<Arc<Scorecard>>,
) -> Result<Report, AlamaError> {
    Ok(scorecard::score_with(&statement, scorecard.as_deref())?)
}

/// The canonical report JSON: compact UTF-8, keys in the report's order, money as decimal
/// strings. Byte for byte what the CLI (`alama score FILE --format json`), the Python and Node
/// bindings and the HTTP service return for the same statement, provided the report's decimals
/// kept their scale on the way (Kotlin's `BigDecimal` does; Swift's `Decimal` drops trailing
/// zeros, so from Swift use [`score_statement_json`] when the exact bytes matter).
///
/// # Errors
/// `MalformedStatement` when a decimal handed in is not valid.
#[uniffi::export]
pub fn report_to_json(report: Report) -> Result<String, AlamaError> {
    Ok(report.to_json())
}

/// Reads a report from its JSON (e.g. one the HTTP service returned, or one the app stored).
///
/// # Errors
/// `MalformedStatement` when the text is not a report JSON.
#[uniffi::export]
pub fn report_from_json(json: String) -> Result<Report, AlamaError> {
    Ok(Report::from_json(&json)?)
}

/// Parses and scores a statement and returns the canonical report JSON directly: exactly the
/// bytes of the CLI's `alama score FILE --format json` (without its trailing newline), on every
/// platform.
///
/// # Errors
/// Those of [`score_statement`].
#[uniffi::export(default(password = None, scorecard = None, as_of = None))]
pub fn score_statement_json(
    bytes: Vec<u8>,
    password: Option<String>,
    scorecard: Option<Arc<Scorecard>>,
    as_of: Option<String>,
) -> Result<String, AlamaError> {
    Ok(score_statement(bytes, password, scorecard, as_of)?.to_json())
}

/// The canonical statement JSON (compact): what [`parse_statement`] reads back and what the
/// HTTP service accepts.
///
/// # Errors
/// `MalformedStatement` when a decimal or date handed in is not valid.
#[uniffi::export]
pub fn statement_to_json(statement: Statement) -> Result<String, AlamaError> {
    Ok(statement.to_json())
}

/// [`parse_statement`] as a Kotlin `suspend` / Swift `async` function: the work runs on a
/// thread of its own, so it is safe to call from the main thread's coroutine scope or task.
///
/// # Errors
/// Those of [`parse_statement`].
#[uniffi::export(default(password = None))]
pub async fn parse_statement_async(
    bytes: Vec<u8>,
    password: Option<String>,
) -> Result<Statement, AlamaError> {
    worker::run(move || parse_statement(bytes, password)).await
}

/// [`score_statement`] as a Kotlin `suspend` / Swift `async` function: the work runs on a
/// thread of its own, so it is safe to call from the main thread's coroutine scope or task.
///
/// # Errors
/// Those of [`score_statement`].
#[uniffi::export(default(password = None, scorecard = None, as_of = None))]
pub async fn score_statement_async(
    bytes: Vec<u8>,
    password: Option<String>,
    scorecard: Option<Arc<Scorecard>>,
    as_of: Option<String>,
) -> Result<Report, AlamaError> {
    worker::run(move || score_statement(bytes, password, scorecard, as_of)).await
}

/// The loan asked for (docs/affordability.md), in the statements' currency, major units: the
/// principal, the number of monthly instalments, a monthly rate (a fraction, `0.035`) or a
/// total cost (not both; neither is no interest), and one-off fees.
#[derive(uniffi::Record)]
pub struct LoanTerms {
    /// The amount lent, `> 0`.
    pub principal: Decimal,
    /// Monthly instalments, `1..=360`.
    pub tenor_months: u32,
    /// Interest a month, a fraction (`0.035` = 3.5 %).
    #[uniffi(default = None)]
    pub monthly_rate: Option<Decimal>,
    /// Interest and charges over the whole loan.
    #[uniffi(default = None)]
    pub total_cost: Option<Decimal>,
    /// One-off fees added to what is repaid.
    #[uniffi(default = None)]
    pub fees: Option<Decimal>,
}

/// Scores several statements of one applicant (each a file's bytes, in any order; `password`
/// opens every encrypted PDF) as one application (docs/applications.md), with `terms` when
/// given, and returns the application report's canonical JSON: byte for byte `alama apply …
/// --format json` (without its newline), on every platform. Blocking: prefer
/// [`score_application`].
///
/// # Errors
/// Those of [`score_statement`] for any statement; `CurrencyMismatch` for statements in two
/// currencies; `EmptyStatement` for none; `MalformedStatement` for bad terms.
#[uniffi::export(default(password = None, scorecard = None, as_of = None, terms = None))]
pub fn score_application_json(
    statements: Vec<Vec<u8>>,
    password: Option<String>,
    scorecard: Option<Arc<Scorecard>>,
    as_of: Option<String>,
    terms: Option<LoanTerms>,
) -> Result<String, AlamaError> {
    let options = options_on(password, as_of)?;
    let terms = match terms {
        Some(t) => alama_core::Terms::from_options(
            Some(t.principal),
            Some(t.tenor_months),
            t.monthly_rate,
            t.total_cost,
            t.fees,
        )?,
        None => None,
    };
    let parsed = statements
        .iter()
        .map(|bytes| alama_core::parse(bytes, &options))
        .collect::<alama_core::Result<Vec<_>>>()?;
    let card = scorecard.as_deref().map(scorecard::core_card);
    Ok(alama_core::score_application(&parsed, card, terms.as_ref(), options.as_of)?.to_json())
}

/// [`score_application_json`] as a Kotlin `suspend` / Swift `async` function
/// (`scoreApplication`): the work runs on a thread of its own.
///
/// # Errors
/// Those of [`score_application_json`].
#[uniffi::export(default(password = None, scorecard = None, as_of = None, terms = None))]
pub async fn score_application(
    statements: Vec<Vec<u8>>,
    password: Option<String>,
    scorecard: Option<Arc<Scorecard>>,
    as_of: Option<String>,
    terms: Option<LoanTerms>,
) -> Result<String, AlamaError> {
    worker::run(move || score_application_json(statements, password, scorecard, as_of, terms)).await
}

/// The stable `snake_case` code of an error (`"wrong_password"`, `"malformed_statement"`, …),
/// the same code the CLI, Python, Node and the HTTP service use.
#[uniffi::export]
pub fn error_code(error: &AlamaError) -> String {
    error.code()
}

/// Version of the engine (`alama-core`) inside this library.
#[uniffi::export]
pub fn engine_version() -> String {
    alama_core::VERSION.to_owned()
}
