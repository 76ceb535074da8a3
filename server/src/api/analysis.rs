//! Running the engine on an upload without letting one file take the server down: a bounded
//! number of analyses at once, each under a time-out, with the engine's limits on pages, rows
//! and decompressed PDF streams.
//!
//! Analyses run on tokio's blocking pool, each wholly on its own thread
//! ([`alama_core::on_calling_thread`]): with one analysis per core, the engine's habit of
//! handing half of a long report to its rayon pool only woke threads that were busy with other
//! analyses (context switches were 11 % of the server's CPU profile). Under `server/bench.sh`
//! (5,000-row CSV, c=8, this 2-core machine, 2026-11-25, interleaved): 345–381 analyses/s
//! against 312–339 for the previous build, which let the engine split.
//!
//! Not the engine's rayon pool itself (tried the same day: 391–395 analyses/s): its threads never
//! exit, and mimalloc returns an idle thread's freed pages only when that thread next
//! allocates, so after `server/burst.sh` the server stayed at 155 MiB instead of falling below
//! its 128 MiB gate. Blocking threads exit after 10 s idle and give their memory back.

use std::time::Duration;

use alama_core::{ApplicationReport, ParseOptions, ParsedStatement, Report, Terms};

use crate::api::scorecards::CardChoice;
use crate::error::ApiError;
use crate::seen_before::{Sketch, sketch};
use crate::state::AppState;

/// One statement of an upload: its bytes and the password that opens it.
pub type Upload = (Vec<u8>, Option<String>);

/// Parses `statement` with `password`, chooses its card from `cards` by the statement's
/// currency (see [`crate::api::scorecards::resolve`]) and scores it into report `report_id` (the
/// service's own id: the engine's content address is not computed, see
/// `alama_core::score_parsed_with_id`). With `row_key` (an analysis under a consent), the
/// statement's sketch for statements seen before ([`crate::seen_before`]) comes with it.
///
/// A time-out answers at once; the blocking thread cannot be cancelled and finishes (bounded by
/// the engine's limits) while still holding its analysis slot, so runaway files cannot pile up.
///
/// # Errors
/// The engine's errors (mapped by [`crate::error`]: `currency_mismatch` and
/// `unsupported_currency` among them), `analysis_timeout` after
/// `limits.analysis_timeout`, `service_unavailable` when no analysis slot frees up within the
/// time-out, `internal_error` if the engine panicked.
pub async fn run(
    state: &AppState,
    statement: Vec<u8>,
    password: Option<String>,
    cards: CardChoice,
    report_id: String,
    row_key: Option<Vec<u8>>,
) -> Result<(Report, Option<Sketch>), ApiError> {
    let options = options(state, password);
    on_slot(state, move || {
        // Parsed first: the card is chosen by the statement's currency; the parsed rows
        // are scored in place, prepared once.
        let parsed = alama_core::parse(&statement, &options)?;
        let sketch = row_key.map(|key| sketch(&key, &parsed));
        let card = cards.card_for(&parsed.currency)?;
        let report = alama_core::score_parsed_with_id(&parsed, card.as_deref(), report_id)?;
        Ok((report, sketch))
    })
    .await
}

/// Parses each of `statements` with its password and scores them as one application
/// (`alama_core::score_application`, docs/applications.md) with the card `cards` gives for the
/// first statement's currency and `terms`, judged on the day of the request; its
/// `applicationId` becomes the service's `application_id` (as an analysis' `reportId` is the
/// service's). With `row_key`, each statement's sketch ([`crate::seen_before`]), in the order
/// given. One analysis slot and one time-out cover the whole application.
///
/// # Errors
/// As [`run`]; an error of one statement's parse names it by position (`statement 2: …`);
/// `currency_mismatch` for statements in two currencies.
pub async fn run_application(
    state: &AppState,
    statements: Vec<Upload>,
    cards: CardChoice,
    terms: Option<Terms>,
    application_id: String,
    row_key: Option<Vec<u8>>,
) -> Result<(ApplicationReport, Vec<Sketch>), ApiError> {
    let as_of = today();
    let options: Vec<ParseOptions> = statements
        .iter()
        .map(|(_, password)| options(state, password.clone()))
        .collect();
    on_slot(state, move || {
        let parsed = statements
            .iter()
            .zip(&options)
            .enumerate()
            .map(|(i, ((bytes, _), options))| {
                alama_core::parse(bytes, options).map_err(|e| {
                    alama_core::Error::new(
                        e.kind().clone(),
                        format!("statement {}: {}", i + 1, e.message()),
                    )
                })
            })
            .collect::<Result<Vec<ParsedStatement>, _>>()?;
        let sketches = row_key.map_or_else(Vec::new, |key| {
            parsed.iter().map(|p| sketch(&key, p)).collect()
        });
        let card = match parsed.first() {
            Some(first) => cards.card_for(&first.currency)?,
            None => None,
        };
        let mut report =
            alama_core::score_application(&parsed, card.as_deref(), terms.as_ref(), as_of)?;
        report.application_id = application_id;
        Ok((report, sketches))
    })
    .await
}

/// The day of the request (UTC): a statement dated after it cannot be genuine.
fn today() -> Option<chrono::NaiveDate> {
    chrono::DateTime::from_timestamp_millis(crate::ids::now_ms()).map(|t| t.date_naive())
}

fn options(state: &AppState, password: Option<String>) -> ParseOptions {
    ParseOptions {
        password,
        format: None,
        limits: state.limits.engine,
        as_of: today(),
    }
}

/// Runs `work` on the blocking pool, on its own thread ([`alama_core::on_calling_thread`]),
/// holding an analysis slot, under `limits.analysis_timeout`.
async fn on_slot<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Result<T, ApiError> {
    let limit = state.limits.analysis_timeout;
    let permit = tokio::time::timeout(limit, state.analyses.clone().acquire_owned())
        .await
        .map_err(|_| busy(limit))?
        .map_err(|e| ApiError::internal(&e))?;
    // The request's span goes with the analysis, so that what the engine's dependencies log
    // (lopdf's warnings about a damaged PDF) carries the request's id.
    let span = tracing::Span::current();
    let task = tokio::task::spawn_blocking(move || {
        let _slot = permit;
        let _span = span.enter();
        alama_core::on_calling_thread(work)
    });
    match tokio::time::timeout(limit, task).await {
        Err(_) => Err(ApiError::new(
            "analysis_timeout",
            format!(
                "the analysis did not finish within {} s; the file may be damaged or hostile",
                limit.as_secs()
            ),
        )),
        // Only what happened, never the panic's message: it could quote the statement, and
        // the log line may leave the machine as a span event (OTLP export).
        Ok(Err(join)) => Err(ApiError::internal(&if join.is_panic() {
            "the analysis panicked"
        } else {
            "the analysis was cancelled"
        })),
        Ok(Ok(result)) => result,
    }
}

fn busy(limit: Duration) -> ApiError {
    ApiError::new(
        "service_unavailable",
        format!(
            "every analysis slot stayed busy for {} s; retry shortly",
            limit.as_secs()
        ),
    )
    .retry_after(5)
}
