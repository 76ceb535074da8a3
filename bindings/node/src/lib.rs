//! # alama-node
//!
//! The Node.js binding of the Alama engine (napi-rs 3), published as the npm package `alama`
//! (folder `node/`). A thin layer: each export converts its arguments, calls `alama-core` and
//! converts the result; errors are mapped once, in [`error`].
//!
//! Reports and statements cross as plain JS objects built from the `serde_json::Value` of the
//! engine's types, so `JSON.stringify(score(x))` is byte for byte `Report::to_json()` (the CLI's
//! `alama score FILE --format json`): money as decimal strings, times as ISO 8601 local-time
//! strings, keys in the engine's order.

// The doc comments of exported items are TSDoc (they flow into `index.d.ts`): `{@link X}` and
// `@throws {AlamaError}` are TypeScript syntax, not Markdown, so clippy's backtick rule is off.
#![allow(clippy::doc_markdown)]

mod application;
mod error;
mod input;
mod scorecard;

use std::panic::AssertUnwindSafe;

use napi::bindgen_prelude::{AsyncTask, ToNapiValue, Unknown, panic_to_error};
use napi::{Env, ScopedTask};
use napi_derive::napi;
use serde_json::Value;

use crate::input::{Input, JsParseOptions};
pub use crate::scorecard::JsScorecard;
use crate::scorecard::ScoreOptions;

/// Parses a mobile-money statement into its canonical form, without scoring it.
///
/// `input` is the file's bytes (`Buffer`/`Uint8Array`) or a path to read. The format is
/// detected from the content (M-Pesa PDF, CSV export, canonical JSON) unless
/// `options.format` says. Runs on the calling thread: a 100-page PDF takes tens of
/// milliseconds, so servers should prefer {@link scoreAsync}.
///
/// Money in the result is decimal strings in KES major units (`"425.00"`), times are ISO 8601
/// local times as printed, Africa/Nairobi, without offset (`"2024-05-23T14:02:11"`).
///
/// @throws {AlamaError} `password_required`, `wrong_password`, `unsupported_format`,
/// `unsupported_wallet`, `malformed_statement`, `too_large`, `io_error` (see {@link ErrorCode}).
///
/// @example
/// ```ts
/// const statement = parse(readFileSync('statement.pdf'), { password: '123456' })
/// console.log(statement.transactions.length, statement.summary?.total.paidIn)
/// ```
#[napi(
    catch_unwind,
    ts_args_type = "input: Buffer | Uint8Array | string, options?: ParseOptions",
    ts_return_type = "Statement"
)]
pub fn parse(env: Env, input: Unknown<'_>, options: Option<Unknown<'_>>) -> napi::Result<Value> {
    let input = Input::from_js(input, false)?;
    let statement = JsParseOptions::from_js(options)?
        .into_core()
        .and_then(|options| input.into_statement(&options))
        .map_err(|e| error::to_js(env, &e))?;
    to_value(&statement)
}

/// Scores a statement on the calling thread and returns the report.
///
/// `input` is the file's bytes (`Buffer`/`Uint8Array`), a path to read, or a {@link Statement}
/// object (as returned by {@link parse}, or built by hand in the canonical JSON form: money as
/// decimal strings; a JS number with a fraction is refused). The report is exactly the CLI's
/// JSON: `JSON.stringify(score(x))` equals `alama score FILE --format json`.
///
/// `options.scorecard` (a {@link Scorecard}) scores with a lender's own scorecard instead of the
/// built-in one; the report's `scorecardVersion` and `scorecardSha256` name it, and it equals
/// `alama score FILE --scorecard card.json --format json` byte for byte.
///
/// Blocks the event loop while it runs: use {@link scoreAsync} in servers.
///
/// @throws {AlamaError} those of {@link parse}, and `empty_statement` when the statement has
/// no completed transactions.
///
/// @example
/// ```ts
/// const report = score(readFileSync('statement.csv'))
/// console.log(report.score, report.band, report.reasonCodes.map((r) => r.code))
/// const own = score(readFileSync('statement.csv'), { scorecard: Scorecard.load('card.json') })
/// ```
#[napi(
    catch_unwind,
    ts_args_type = "input: Buffer | Uint8Array | string | StatementInput, options?: ScoreOptions",
    ts_return_type = "Report"
)]
pub fn score(env: Env, input: Unknown<'_>, options: Option<Unknown<'_>>) -> napi::Result<Value> {
    let input = Input::from_js(input, true)?;
    let report = score_input(input, ScoreOptions::from_js(options)?);
    let report = report.map_err(|e| error::to_js(env, &e))?;
    to_value(&report)
}

/// Scores a statement on the libuv thread pool: the event loop keeps serving while a
/// 100-page PDF is decrypted, read and scored. Same input, options, result and errors as
/// {@link score}: every engine error rejects the promise with an {@link AlamaError}; only an
/// argument of the wrong JS type throws at once (code `InvalidArg`).
///
/// The arguments are taken at call time (bytes are copied, a statement object is converted),
/// so the caller may reuse its buffer at once. A path is read on the worker thread. Node runs
/// at most `UV_THREADPOOL_SIZE` (default 4) pool jobs at once; more calls queue.
///
/// @example
/// ```ts
/// const report = await scoreAsync(req.file.buffer, { password: req.body.password, scorecard })
/// ```
#[napi(
    ts_args_type = "input: Buffer | Uint8Array | string | StatementInput, options?: ScoreOptions",
    ts_return_type = "Promise<Report>"
)]
pub fn score_async(
    input: Unknown<'_>,
    options: Option<Unknown<'_>>,
) -> napi::Result<AsyncTask<ScoreTask>> {
    let input = Input::from_js(input, true)?;
    let task = ScoreTask {
        input: Some(input),
        options: ScoreOptions::from_js(options)?,
    };
    Ok(AsyncTask::new(task))
}

/// Scores several statements of one applicant as one application, on the libuv thread pool
/// (docs/applications.md): two SIMs, consecutive or overlapping periods; rows two statements
/// both list are read once and must agree (else a critical `statements_disagree`), money moved
/// between the applicant's own lines is neither income nor spending. Resolves to the
/// application report: the report's fields for the applicant as a whole, `statements` (each
/// one read: `reportId`, `provider`, `statementPeriod`, `integrityStatus` …), `applicationId`
/// and `affordability` (`null` without terms). `JSON.stringify` of it is byte for byte
/// `alama apply … --format json`.
///
/// `inputs` are as {@link score} takes one (bytes, a path or a Statement object), in any
/// order; `options` as {@link score}'s, plus `terms`: `{ principal, tenorMonths, monthlyRate |
/// totalCost, fees }`, money and rates as decimal strings (docs/affordability.md).
///
/// @throws {AlamaError} (rejects) those of {@link score} for any statement, `currency_mismatch`
/// for statements in two currencies, `empty_statement` for none, `malformed_statement` for bad
/// terms; `InvalidArg` (throws at once) for arguments of the wrong JS type.
///
/// @example
/// ```ts
/// const app = await scoreApplication([readFileSync('line1.pdf'), readFileSync('line2.pdf')], {
///   password: '123456',
///   terms: { principal: '20000', tenorMonths: 6, monthlyRate: '0.035' },
/// })
/// console.log(app.score, app.affordability?.fits, app.statements.length)
/// ```
#[napi(
    ts_args_type = "inputs: Array<Buffer | Uint8Array | string | StatementInput>, options?: ApplicationOptions",
    ts_return_type = "Promise<ApplicationReport>"
)]
pub fn score_application(
    inputs: Vec<Unknown<'_>>,
    options: Option<Unknown<'_>>,
) -> napi::Result<AsyncTask<application::ApplicationTask>> {
    let inputs = inputs
        .into_iter()
        .map(|i| Input::from_js(i, true))
        .collect::<napi::Result<Vec<_>>>()?;
    let terms = application::JsTerms::from_options(options.as_ref())?;
    Ok(AsyncTask::new(application::ApplicationTask {
        inputs: Some(inputs),
        options: ScoreOptions::from_js(options)?,
        terms,
    }))
}

/// Every error code the engine can give, in a fixed order (for tests and exhaustive `switch`es).
#[napi(ts_return_type = "ErrorCode[]")]
pub fn error_codes() -> Vec<&'static str> {
    alama_core::ErrorKind::ALL_CODES.to_vec()
}

/// The version of the Alama engine inside this addon (`"0.1.0"`).
#[napi]
pub fn engine_version() -> &'static str {
    alama_core::VERSION
}

/// The work of one `scoreAsync` call, run on the libuv thread pool.
pub struct ScoreTask {
    input: Option<Input>,
    options: ScoreOptions,
}

impl<'task> ScopedTask<'task> for ScoreTask {
    type Output = alama_core::Result<Value>;
    type JsValue = Unknown<'task>;

    fn compute(&mut self) -> napi::Result<Self::Output> {
        let Some(input) = self.input.take() else {
            return Err(napi::Error::from_reason("scoreAsync task ran twice"));
        };
        let options = std::mem::take(&mut self.options);
        // A panic here (an engine bug) would abort the whole Node process from a pool thread:
        // turn it into a rejection instead, as `catch_unwind` does for the sync functions.
        let scored = std::panic::catch_unwind(AssertUnwindSafe(|| score_input(input, options)))
            .map_err(panic_to_error)?;
        match scored {
            Ok(report) => to_value(&report).map(Ok),
            Err(e) => Ok(Err(e)),
        }
    }

    fn resolve(&mut self, env: &'task Env, output: Self::Output) -> napi::Result<Self::JsValue> {
        output
            .map_err(|e| error::to_js(*env, &e))?
            .into_unknown(env)
    }
}

/// Parses and scores: the engine's `score_bytes_with` (the report of `parse` then
/// `score_with`), with the built-in scorecard of the statement's currency when the options
/// name none.
fn score_input(input: Input, options: ScoreOptions) -> alama_core::Result<alama_core::Report> {
    let parse = options.parse.into_core()?;
    input.into_report(&parse, options.scorecard.as_deref())
}

/// The JSON data of an engine value (keys in declaration order: `serde_json`'s
/// `preserve_order` is on in the workspace).
fn to_value<T: serde::Serialize>(value: &T) -> napi::Result<Value> {
    serde_json::to_value(value).map_err(|e| napi::Error::from_reason(e.to_string()))
}
