//! # alama-core
//!
//! The Alama engine: parse a mobile-money statement (Safaricom M-Pesa PDF, CSV exports, the
//! canonical JSON), categorise every transaction, derive features, and score it with a
//! documented, versioned scorecard into a [`Report`].
//!
//! ```no_run
//! let bytes = std::fs::read("statement.pdf")?;
//! let statement = alama_core::parse(&bytes, &alama_core::ParseOptions::with_password("123456"))?;
//! let report = alama_core::score(&statement)?; // `statement` is a `ParsedStatement`
//! println!("{} {}", report.score, report.band.as_str());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Money is [`rust_decimal::Decimal`] in major units of the statement currency (KES), never a
//! float. The same statement always yields the same report, byte for byte ([`Report::to_json`]).

pub mod affordability;
pub mod application;
pub mod batch;
pub mod categorise;
pub mod check;
pub mod error;
pub mod features;
pub mod insights;
pub mod limits;
pub mod money;
pub mod parse;
#[cfg(feature = "pdf-report")]
pub mod pdf_report;
pub mod report;
pub mod scorecard;
pub mod statement;
#[cfg(feature = "testing")]
pub mod tamper;
#[cfg(feature = "testing")]
pub mod testing;
pub mod wallets;

mod amount;
mod assemble;
mod order;
mod parallel;
mod pdf;
mod report_id;
#[cfg(feature = "testing")]
mod rng;

pub use affordability::{Affordability, Pricing, Terms};
pub use application::{ApplicationReport, StatementRead, score_application};
pub use categorise::Category;
pub use error::{Error, ErrorKind, Result};
pub use parallel::on_calling_thread;
pub use parse::{Format, Limits, ParseOptions, ParsedStatement, Scorable, parse};
pub use report::{
    Band, EvidenceLevel, Factor, Finding, Insight, ReasonCode, Report, ReportStatus, Severity,
};
pub use scorecard::Scorecard;
pub use statement::{Provider, Statement, Transaction, TransactionStatus};
pub use wallets::Wallet;

pub use limits::MAX_PERIOD_DAYS;
pub use report::VERSION;

/// Scores a statement: a [`ParsedStatement`] from [`parse()`], or a [`Statement`] built or
/// edited in code.
///
/// Order-invariant: shuffling the rows gives the same report. A statement of 1,000 rows or
/// more is scored on two threads (the features and the scorecard on the calling thread, the
/// report id and then the integrity check on a thread of the pool); the report is the same
/// byte for byte.
///
/// A [`Statement`] is copied and prepared first ([`parse::prepare`]: categories from Details,
/// amounts to two decimal places), since one built or edited in code may carry no categories,
/// or stale ones; a [`ParsedStatement`] is scored as it is (`parse` prepared it, and it cannot
/// have been changed since). Both give the same report.
///
/// The card is the built-in one of the statement's currency ([`scorecard::builtin_for`]: KES,
/// UGX, GHS, LSL); amounts are never converted.
///
/// # Errors
/// `ErrorKind::UnsupportedCurrency` when no built-in card is in the statement's currency;
/// `ErrorKind::EmptyStatement` when the statement has no completed transactions;
/// `ErrorKind::TooLarge` when its rows or its header period span more than
/// [`MAX_PERIOD_DAYS`] days (the features are computed day by day), or when an amount is
/// beyond [`money::MAX_AMOUNT`] (a statement built by hand; the parsers do not read one).
pub fn score<S: Scorable + ?Sized>(statement: &S) -> Result<Report> {
    let card = scorecard::builtin_for(&statement.statement().currency)?;
    assemble::report(&statement.prepared(), card, None, statement.as_of())
}

/// Scores a statement (as [`score`] takes it) with a given scorecard (a lender's own, loaded
/// with [`Scorecard::from_json`]). The report carries the card's version and SHA-256, and its
/// `reportId` covers both.
///
/// # Errors
/// `ErrorKind::CurrencyMismatch` when the card's currency is not the statement's (no amount is
/// ever converted); those of [`score`] otherwise.
pub fn score_with<S: Scorable + ?Sized>(statement: &S, scorecard: &Scorecard) -> Result<Report> {
    scorecard.check_currency(&statement.statement().currency)?;
    assemble::report(&statement.prepared(), scorecard, None, statement.as_of())
}

/// Scores a statement (as [`score`] takes it) judged on `as_of`, the day of analysis: the
/// report [`score_with`] gives with `scorecard` (or [`score`] without one), where a statement
/// dated after `as_of`, or requested after it, is `failed` (`after_analysis_date`). The day
/// changes a report only through that finding. A [`ParsedStatement`] is judged on this day,
/// not on the one its parse options gave.
///
/// # Errors
/// Those of [`score_with`] and [`score`].
pub fn score_on<S: Scorable + ?Sized>(
    statement: &S,
    scorecard: Option<&Scorecard>,
    as_of: chrono::NaiveDate,
) -> Result<Report> {
    let card = scorecard::choose(scorecard, &statement.statement().currency)?;
    assemble::report(&statement.prepared(), card, None, Some(as_of))
}

/// The catalogue of features of a statement (docs/features.md), as [`score`] reads them: the
/// statement prepared, its rows in reading order, the money thresholds of `scorecard` or, when
/// `None`, of the built-in card of its currency. Each feature's name with its value (`None`
/// where the statement has nothing to measure it by), in catalogue order: the one entry every
/// binding's feature table comes from (`Statement.features()` in Python).
///
/// # Errors
/// `ErrorKind::CurrencyMismatch` for a card of another currency; `ErrorKind::UnsupportedCurrency`
/// without a card for a currency that has no built-in one.
pub fn feature_values<S: Scorable + ?Sized>(
    statement: &S,
    scorecard: Option<&Scorecard>,
) -> Result<Vec<(&'static str, Option<rust_decimal::Decimal>)>> {
    let card = scorecard::choose(scorecard, &statement.statement().currency)?;
    let prepared = statement.prepared();
    let features = features::compute(&prepared.reading(), card.thresholds());
    Ok(features::catalogue::values(&features))
}

/// Scores a statement `parse` returned with `scorecard` or, when `None`, the built-in card of
/// its currency; under `report_id` when given, else its content address.
fn score_parsed(
    statement: &ParsedStatement,
    scorecard: Option<&Scorecard>,
    report_id: Option<String>,
) -> Result<Report> {
    let card = scorecard::choose(scorecard, &statement.currency)?;
    assemble::report(statement, card, report_id, statement.as_of())
}

/// Parses and scores in one call with the built-in card of the statement's currency: the same
/// report as `score(&parse(bytes, options)?)`.
///
/// # Errors
/// Those of [`parse()`] and [`score`], and `ErrorKind::UnsupportedCurrency` for a statement in a
/// currency without a built-in card.
pub fn score_bytes(bytes: &[u8], options: &ParseOptions) -> Result<Report> {
    score_parsed(&parse::parse(bytes, options)?, None, None)
}

/// [`score_bytes`] with a lender's own scorecard when one is given: the same report as
/// `score_with(&parse(bytes, options)?, scorecard)`, or, with `None`, as [`score_bytes`] (the
/// built-in card of the statement's currency). Every binding passes its optional card here.
///
/// # Errors
/// Those of [`parse()`] and [`score_with`] (`ErrorKind::CurrencyMismatch` among them), and
/// `ErrorKind::UnsupportedCurrency` without a card for a currency that has no built-in one.
pub fn score_bytes_with(
    bytes: &[u8],
    options: &ParseOptions,
    scorecard: Option<&Scorecard>,
) -> Result<Report> {
    score_parsed(&parse::parse(bytes, options)?, scorecard, None)
}

/// [`score_bytes_with`] for a caller that names its reports itself (a service storing each
/// under its own id): the same report, but its `reportId` is `report_id` and the content
/// address is not computed (a SHA-256 over every row: 14–22 % of the CPU time of scoring a
/// long statement, by `perf` profiles of the 5,000-row benches).
///
/// # Errors
/// Those of [`score_bytes_with`].
pub fn score_bytes_with_id(
    bytes: &[u8],
    options: &ParseOptions,
    scorecard: Option<&Scorecard>,
    report_id: String,
) -> Result<Report> {
    score_parsed(&parse::parse(bytes, options)?, scorecard, Some(report_id))
}

/// Scores a statement [`parse()`] returned, with `scorecard` or, when `None`, the built-in card
/// of its currency, under `report_id` (a caller's own id: the content address is not computed,
/// as in [`score_bytes_with_id`]). The path of a caller that reads the parsed rows itself before
/// scoring them (the service keys fingerprints of each row's receipt and amount to recognise a
/// statement submitted again); the report is the one [`score_bytes_with_id`] gives for the same
/// bytes, options and card.
///
/// # Errors
/// Those of [`score_with`] (`ErrorKind::CurrencyMismatch` for a card of another currency) and,
/// without a card, `ErrorKind::UnsupportedCurrency` for a currency without a built-in one.
pub fn score_parsed_with_id(
    statement: &ParsedStatement,
    scorecard: Option<&Scorecard>,
    report_id: String,
) -> Result<Report> {
    score_parsed(statement, scorecard, Some(report_id))
}

/// Parses `bytes`, asks `choose` for the card of the statement's currency (ISO 4217, as
/// printed or handed in; `Ok(None)`: the built-in card of that currency), then scores the
/// parsed statement: the path of a caller whose card depends on the currency, such as a
/// service with a partner's default card per currency. `report_id`, when given, is the
/// report's id in place of its content address.
///
/// # Errors
/// Those of [`parse()`] and [`score_bytes_with`], and whatever `choose` returns.
pub fn score_bytes_choosing<C, E>(
    bytes: &[u8],
    options: &ParseOptions,
    choose: impl FnOnce(&str) -> std::result::Result<Option<C>, E>,
    report_id: Option<String>,
) -> std::result::Result<Report, E>
where
    C: AsRef<Scorecard>,
    E: From<Error>,
{
    let statement = parse::parse(bytes, options)?;
    let card = choose(&statement.currency)?;
    Ok(score_parsed(
        &statement,
        card.as_ref().map(AsRef::as_ref),
        report_id,
    )?)
}

/// Whether the loan `terms` fit what `report` shows affordable: the instalment they ask for
/// against the report's affordable monthly instalment (its `affordable_instalment` insight,
/// zero when it has none), and the largest principal that fits at these terms
/// ([`affordability::assess`], docs/affordability.md). The same figures an application's
/// report carries for its terms.
pub fn affordability(report: &Report, terms: &Terms) -> Affordability {
    let affordable = report
        .insights
        .iter()
        .find(|i| i.code == "affordable_instalment")
        .map_or(rust_decimal::Decimal::ZERO, |i| i.value);
    affordability::assess(terms, affordable, &report.statement.currency)
}

impl Statement {
    /// The canonical JSON of this statement (compact; see [`parse::json`]).
    pub fn to_json(&self) -> String {
        parse::json::write(self)
    }

    /// The canonical CSV of this statement's transactions (see [`parse::csv`]).
    pub fn to_csv(&self) -> String {
        parse::csv::write(self)
    }
}
