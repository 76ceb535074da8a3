//! The reports pages: recent reports of the session's partner and environment with search by
//! report id or customer reference; a report (score gauge, band, factor bars, reason codes,
//! insights, integrity findings) read from the stored report JSON as `GET /v1/scores/{id}`
//! gives it; the PDF (Live only, as in the API) rendered by [`crate::api::pdf::render`].

use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::Value;

use super::session::Session;
use super::views::{Chrome, CodedLine, FactorView, ReportPage, ReportView, ReportsPage, when};
use super::{PortalError, render};
use crate::keys::Environment;
use crate::state::AppState;

/// The search form.
#[derive(Debug, Default, Deserialize)]
pub struct SearchForm {
    /// Report id or customer reference.
    pub q: Option<String>,
}

/// `GET /portal/reports?q=`.
///
/// # Errors
/// Database errors.
pub async fn list(
    State(state): State<AppState>,
    session: Session,
    Query(form): Query<SearchForm>,
) -> Result<Response, PortalError> {
    let q = form.q.unwrap_or_default().trim().to_owned();
    let dash = || "–".to_owned();
    let reports = state
        .storage
        .recent_reports(&session.owner(), &q)
        .await?
        .into_iter()
        .map(|r| ReportView {
            id: r.id,
            status: r.status,
            score: r.score.map_or_else(dash, |s| s.to_string()),
            band: r.band.unwrap_or_else(dash),
            customer: r.customer_reference.unwrap_or_else(dash),
            created: when(r.created_at),
        })
        .collect();
    Ok(render(&ReportsPage {
        c: Chrome::signed("Reports", &session, "reports"),
        q,
        reports,
    }))
}

fn text(v: &Value, key: &str) -> String {
    match v.get(key) {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Null) | None => String::new(),
        Some(other) => other.to_string(),
    }
}

fn lines(v: &Value, key: &str, code: &str, texts: &[&str]) -> Vec<CodedLine> {
    v.get(key)
        .and_then(Value::as_array)
        .map(|items| {
            items
                .iter()
                .map(|i| CodedLine {
                    code: text(i, code),
                    text: texts
                        .iter()
                        .map(|t| text(i, t))
                        .find(|t| !t.is_empty())
                        .unwrap_or_default(),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// `GET /portal/reports/{id}`.
///
/// # Errors
/// 404 unless the report belongs to the session's partner and environment; database errors.
pub async fn detail(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PortalError> {
    let owner = session.owner();
    let record = state
        .storage
        .report(&owner, &id)
        .await?
        .ok_or(PortalError::NotFound)?;
    let json: Value = record
        .report_json
        .as_deref()
        .and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(Value::Null);
    let completed = record.status == "completed";
    let factors = json
        .get("factors")
        .and_then(Value::as_array)
        .map(|fs| {
            fs.iter()
                .map(|f| FactorView {
                    name: text(f, "name"),
                    score: f.get("score").and_then(Value::as_i64).unwrap_or(0),
                    max: f.get("max").and_then(Value::as_i64).unwrap_or(0),
                })
                .collect()
        })
        .unwrap_or_default();
    let integrity = json.get("integrity").cloned().unwrap_or(Value::Null);
    let statement = json.get("statement").unwrap_or(&Value::Null);
    let page = ReportPage {
        c: Chrome::signed("Report", &session, "reports"),
        id: record.id.clone(),
        status: record.status.clone(),
        score: json
            .get("score")
            .and_then(Value::as_i64)
            .filter(|_| completed),
        band: text(&json, "band"),
        period: text(&json, "statementPeriod"),
        scorecard: text(&json, "scorecardVersion"),
        wallet: statement
            .get("provider")
            .and_then(|p| serde_json::from_value::<alama_core::statement::Provider>(p.clone()).ok())
            .map_or_else(String::new, |p| p.name().to_owned()),
        currency: text(statement, "currency"),
        factors,
        insights: lines(&json, "insights", "code", &["message"]),
        reasons: lines(&json, "reasonCodes", "code", &["description"]),
        integrity: text(&integrity, "status"),
        findings: lines(
            &integrity,
            "findings",
            "code",
            &["message", "detail", "description"],
        ),
        error: record.error_code.as_ref().map(|code| {
            format!(
                "{code}: {}",
                record.error_detail.clone().unwrap_or_default()
            )
        }),
        pdf: completed && owner.environment == Environment::Live,
    };
    Ok(render(&page))
}

/// `GET /portal/reports/{id}/pdf`: the shareable PDF (Live only, as `GET /v1/scores/{id}/pdf`).
///
/// # Errors
/// 403 in Sandbox; 404 unless the report belongs to the session's partner and environment
/// and is completed; database errors.
pub async fn pdf(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PortalError> {
    let owner = session.owner();
    if owner.environment != Environment::Live {
        return Err(PortalError::Forbidden(
            "The PDF report is a Live feature; switch to Live.".to_owned(),
        ));
    }
    let record = state
        .storage
        .report(&owner, &id)
        .await?
        .filter(|r| r.status == "completed")
        .ok_or(PortalError::NotFound)?;
    let bytes =
        crate::api::pdf::render(&record).map_err(|e| PortalError::Internal(e.to_string()))?;
    let mut response = bytes.into_response();
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/pdf"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!(
        "attachment; filename=\"alama-report-{}.pdf\"",
        record.id
    )) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    h.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-store"),
    );
    Ok(response)
}
