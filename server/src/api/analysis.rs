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

use alama_core::{ParseOptions, Report};

use crate::api::scorecards::CardChoice;
use crate::error::ApiError;
use crate::state::AppState;

/// Parses `statement` with `password`, chooses its card from `cards` by the statement's
/// currency (see [`crate::api::scorecards::resolve`]) and scores it into report `report_id` (the
/// service's own id: the engine's content address is not computed, see
/// `alama_core::score_bytes_choosing`).
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
) -> Result<Report, ApiError> {
    let limit = state.limits.analysis_timeout;
    let permit = tokio::time::timeout(limit, state.analyses.clone().acquire_owned())
        .await
        .map_err(|_| busy(limit))?
        .map_err(|e| ApiError::internal(&e))?;
    // Judged on the day of the request (UTC): a statement dated after it cannot be genuine.
    let today =
        chrono::DateTime::from_timestamp_millis(crate::ids::now_ms()).map(|t| t.date_naive());
    let options = ParseOptions {
        password,
        format: None,
        limits: state.limits.engine,
        as_of: today,
    };
    // The request's span goes with the analysis, so that what the engine's dependencies log
    // (lopdf's warnings about a damaged PDF) carries the request's id.
    let span = tracing::Span::current();
    let task = tokio::task::spawn_blocking(move || {
        let _slot = permit;
        let _span = span.enter();
        alama_core::on_calling_thread(|| {
            // Parsed first: the card is chosen by the statement's currency; the parsed rows
            // are scored in place, prepared once.
            alama_core::score_bytes_choosing(
                &statement,
                &options,
                |currency| cards.card_for(currency),
                Some(report_id),
            )
        })
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
