//! `GET /v1/scores/{reportId}/pdf` (Live only): the shareable PDF credit report, rendered by the
//! engine (`alama_core::pdf_report`, feature `pdf-report`) from the stored report.
//!
//! The document's date is the report's completion time, printed in the time zone of the
//! statement's wallet and labelled (`EAT`, `GMT`, `SAST`; `UTC` without one), so the same report
//! always gives the same bytes. Answers `application/pdf` as an attachment
//! (`alama-report-<reportId>.pdf`) with `Cache-Control: private, no-store`; `409
//! report_not_completed` while the report is `processing` or when it `failed`; `404` for
//! reports of other partners or environments; `403 live_mode_required` for Sandbox keys.

use axum::extract::{Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use chrono::{DateTime, NaiveDateTime};

use crate::auth::Caller;
use crate::error::ApiError;
use crate::problem::Problem;
use crate::state::AppState;
use crate::storage::ReportRecord;

/// The report's completion time (milliseconds UTC) as a UTC date and time, the generation time
/// the engine prints in the statement's zone ([`alama_core::pdf_report::RenderOptions`]).
pub fn generated_at(completed_at_ms: i64) -> NaiveDateTime {
    DateTime::from_timestamp_millis(completed_at_ms)
        .unwrap_or_default()
        .naive_utc()
}

/// Renders a completed stored report as PDF bytes.
///
/// # Errors
/// `409 report_not_completed` unless the record is `completed`; `internal_error` when the
/// stored JSON cannot be read back or the engine cannot render it.
pub fn render(record: &ReportRecord) -> Result<Vec<u8>, ApiError> {
    let json = match (record.status.as_str(), record.report_json.as_deref()) {
        ("completed", Some(json)) => json,
        (status, _) => {
            return Err(ApiError::new(
                "report_not_completed",
                format!(
                    "report {} is {status}: only a completed report has a PDF",
                    record.id
                ),
            )
            .with("reportId", record.id.clone())
            .with("reportStatus", status.to_owned()));
        }
    };
    let report = alama_core::Report::from_json(json).map_err(|e| ApiError::internal(&e))?;
    let options =
        alama_core::pdf_report::RenderOptions::new(generated_at(record.completed_at.unwrap_or(0)));
    alama_core::pdf_report::render(&report, &options).map_err(|e| ApiError::internal(&e))
}

/// The shareable PDF of a completed report (Live only).
#[utoipa::path(
    get, path = "/v1/scores/{reportId}/pdf", tag = "scores",
    params(("reportId" = String, Path, description = "`rpt_…`")),
    responses(
        (status = 200, description = "The PDF credit report (A4, fonts embedded), as an attachment `alama-report-<reportId>.pdf`; `Cache-Control: private, no-store`",
            body = Vec<u8>, content_type = "application/pdf", headers(
            ("Content-Disposition" = String, description = "`attachment; filename=\"alama-report-<reportId>.pdf\"`"),
            ("Cache-Control" = String, description = "`private, no-store`"),
        )),
        (status = 403, description = "Sandbox key (`live_mode_required`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such report (`report_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The report is `processing` or `failed` (`report_not_completed`, with `reportId` and `reportStatus`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    caller.require_live("GET /v1/scores/{reportId}/pdf")?;
    let record =
        crate::api::outcome::load(&state, &caller, crate::api::outcome::Kind::Analysis, &id)
            .await?;
    let span = tracing::Span::current();
    let bytes = tokio::task::spawn_blocking(move || span.in_scope(|| render(&record)))
        .await
        .map_err(|e| ApiError::internal(&e))??;
    let disposition =
        HeaderValue::from_str(&format!("attachment; filename=\"alama-report-{id}.pdf\""))
            .map_err(|e| ApiError::internal(&e))?;
    Ok((
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/pdf"),
            ),
            (header::CONTENT_DISPOSITION, disposition),
            (
                header::CACHE_CONTROL,
                HeaderValue::from_static("private, no-store"),
            ),
        ],
        bytes,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_utc() {
        assert_eq!(
            generated_at(1_700_000_000_123).to_string(),
            "2023-11-14 22:13:20.123"
        );
    }
}
