//! `GET /v1/scores/{reportId}/pdf` and `GET /v1/applications/{applicationId}/pdf` (Live only):
//! the shareable PDF credit report, rendered by the engine (`alama_core::pdf_report`, feature
//! `pdf-report`) from the stored report or application.
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

use crate::api::outcome::Kind;
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
            let kind = Kind::of(&record.id);
            return Err(ApiError::new(
                "report_not_completed",
                format!(
                    "{} {} is {status}: only a completed one has a PDF",
                    kind.noun(),
                    record.id
                ),
            )
            .with(kind.id_field(), record.id.clone())
            .with("reportStatus", status.to_owned()));
        }
    };
    let report = match Kind::of(&record.id) {
        Kind::Analysis => alama_core::Report::from_json(json),
        Kind::Application => serde_json::from_str::<alama_core::ApplicationReport>(json)
            .map(application_document)
            .map_err(|e| alama_core::Error::new(alama_core::ErrorKind::Io, e.to_string())),
    }
    .map_err(|e| ApiError::internal(&e))?;
    let options =
        alama_core::pdf_report::RenderOptions::new(generated_at(record.completed_at.unwrap_or(0)));
    alama_core::pdf_report::render(&report, &options).map_err(|e| ApiError::internal(&e))
}

/// What the PDF of an application shows: its combined report (score, factors, reason codes,
/// every statement's integrity findings, cash flow, insights) as the engine's report PDF draws
/// one, with the statements read listed first among the integrity findings (`info`
/// `statement_read`: the engine's report id, wallet, masked number, period, verdict, evidence)
/// and the terms asked as the first insight (`loan_terms`: the instalment, against the
/// affordable one). The engine's PDF has no sections of its own for these yet (server/README.md,
/// "Applications").
fn application_document(mut application: alama_core::ApplicationReport) -> alama_core::Report {
    let read: Vec<alama_core::Finding> = application
        .statements
        .iter()
        .map(|s| alama_core::Finding {
            code: "statement_read".to_owned(),
            severity: alama_core::Severity::Info,
            message: format!(
                "{} statement {} ({}), {}, integrity {} ({})",
                alama_core::wallets::find(&s.provider).map_or(s.provider.as_str(), |w| w.name),
                s.report_id,
                s.mobile_number_masked.as_deref().unwrap_or("no number"),
                s.statement_period,
                s.integrity_status,
                serde_json::to_value(s.evidence_level)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
            ),
        })
        .collect();
    let terms = application.affordability.take().map(|a| {
        let money = |v| alama_core::money::display(&a.currency, v);
        alama_core::Insight {
            code: "loan_terms".to_owned(),
            message: format!(
                "The terms asked ({} over {} months, fees {}) need {} a month against an \
                 affordable {}: they {}. The largest principal that fits at these terms: {}.",
                money(a.terms.principal),
                a.terms.tenor_months,
                money(a.terms.fees),
                money(a.instalment),
                money(a.affordable_instalment),
                if a.fits { "fit" } else { "do not fit" },
                money(a.largest_principal),
            ),
            value: a.instalment,
            unit: format!("{}/month", a.currency),
        }
    });
    let mut report = crate::api::applications::combined_report(application);
    report.integrity.findings.splice(0..0, read);
    if let Some(terms) = terms {
        report.insights.insert(0, terms);
    }
    report
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
    pdf_of(&state, &caller, Kind::Analysis, id).await
}

/// The shareable PDF of a completed application (Live only): its combined report, the
/// statements read and the affordability of the terms (see `application_document`).
#[utoipa::path(
    get, path = "/v1/applications/{applicationId}/pdf", tag = "applications",
    params(("applicationId" = String, Path, description = "`app_…`")),
    responses(
        (status = 200, description = "The PDF credit report of the application, as an attachment `alama-report-<applicationId>.pdf`; `Cache-Control: private, no-store`",
            body = Vec<u8>, content_type = "application/pdf", headers(
            ("Content-Disposition" = String, description = "`attachment; filename=\"alama-report-<applicationId>.pdf\"`"),
            ("Cache-Control" = String, description = "`private, no-store`"),
        )),
        (status = 403, description = "Sandbox key (`live_mode_required`)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such application (`application_not_found`)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "The application is `processing` or `failed` (`report_not_completed`, with `applicationId` and `reportStatus`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn get_application(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    caller.require_live("GET /v1/applications/{applicationId}/pdf")?;
    pdf_of(&state, &caller, Kind::Application, id).await
}

async fn pdf_of(
    state: &AppState,
    caller: &Caller,
    kind: Kind,
    id: String,
) -> Result<Response, ApiError> {
    let record = crate::api::outcome::load(state, caller, kind, &id).await?;
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
