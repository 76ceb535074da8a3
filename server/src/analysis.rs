//! Running the engine on an upload without letting one file take the server down: a bounded
//! number of analyses at once, each on tokio's blocking pool under a time-out, with the
//! engine's limits on pages, rows and decompressed PDF streams.

use std::time::Duration;

use alama_core::{ParseOptions, Report};

use crate::app::AppState;
use crate::error::ApiError;

/// Parses and scores `statement` with `password`, using `scorecard` (see
/// [`crate::scorecards::resolve`]), into report `report_id` (the service's own id: the
/// engine's content address is not computed, see `alama_core::score_bytes_with_id`).
///
/// A time-out answers at once; the blocking thread cannot be cancelled and finishes (bounded by
/// the engine's limits) while still holding its analysis slot, so runaway files cannot pile up.
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
    let task = tokio::task::spawn_blocking(move || {
        let _slot = permit;
        alama_core::score_bytes_with_id(&statement, &options, &scorecard, report_id)
    });
    match tokio::time::timeout(limit, task).await {
        Err(_) => Err(ApiError::new(
            "analysis_timeout",
            format!(
                "the analysis did not finish within {} s; the file may be damaged or hostile",
                limit.as_secs()
            ),
        )),
        Ok(Err(join)) => Err(ApiError::internal(&join)),
        Ok(Ok(result)) => result.map_err(ApiError::from),
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
