//! Running the engine on an upload without letting one file take the server down: a bounded
//! number of analyses at once, each under a time-out, with the engine's limits on pages, rows
//! and decompressed PDF streams.
//!
//! Analyses run on the engine's own thread pool (rayon's global pool, one thread per core),
//! not on tokio's blocking pool. The engine splits a long statement's report, and a PDF's
//! pages, over that pool: from one of its threads the split half is run by the same thread when
//! the other is busy with another analysis, instead of waking a pool thread and switching to it.
//! Under `server/bench.sh` (5,000-row CSV, c=8, this 2-core machine, interleaved runs,
//! 2026-11-25) that took the service from 331–333 to 353 analyses/s and its peak RSS from
//! 147–164 to 106–117 MiB; the 117-page PDF went from 22.4–22.6 to 22.8–24.5 analyses/s.

use std::time::Duration;

use alama_core::{ParseOptions, Report};

use crate::app::AppState;
use crate::error::ApiError;

/// Parses and scores `statement` with `password`, using `scorecard` (see
/// [`crate::scorecards::resolve`]), into report `report_id` (the service's own id: the
/// engine's content address is not computed, see `alama_core::score_bytes_with_id`).
///
/// A time-out answers at once; the pool thread cannot be cancelled and finishes (bounded by the
/// engine's limits) while still holding its analysis slot, so runaway files cannot pile up. A
/// panic of the engine is caught on the pool thread and answered `internal_error`.
///
/// # Errors
/// The engine's errors (mapped by [`crate::error`]), `analysis_timeout` after
/// `limits.analysis_timeout`, `service_unavailable` when no analysis slot frees up within the
/// time-out, `internal_error` if the engine panicked.
pub async fn run(
    state: &AppState,
    statement: Vec<u8>,
    password: Option<String>,
    scorecard: std::sync::Arc<alama_core::Scorecard>,
    report_id: String,
) -> Result<Report, ApiError> {
    let limit = state.limits.analysis_timeout;
    let permit = tokio::time::timeout(limit, state.analyses.clone().acquire_owned())
        .await
        .map_err(|_| busy(limit))?
        .map_err(|e| ApiError::internal(&e))?;
    let options = ParseOptions {
        password,
        format: None,
        limits: state.limits.engine,
    };
    let (done, outcome) = tokio::sync::oneshot::channel();
    rayon::spawn(move || {
        let _slot = permit;
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let card = crate::scorecards::for_engine(&scorecard);
            alama_core::score_bytes_with_id(&statement, &options, card, report_id)
        }));
        let _ = done.send(result);
    });
    match tokio::time::timeout(limit, outcome).await {
        Err(_) => Err(ApiError::new(
            "analysis_timeout",
            format!(
                "the analysis did not finish within {} s; the file may be damaged or hostile",
                limit.as_secs()
            ),
        )),
        Ok(Err(dropped)) => Err(ApiError::internal(&dropped)),
        Ok(Ok(Err(_panic))) => Err(ApiError::internal(&"the engine panicked")),
        Ok(Ok(Ok(result))) => result.map_err(ApiError::from),
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
