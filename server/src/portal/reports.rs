//! The reports pages: recent reports of the session's partner and environment with search by
//! report id or customer reference; a report, laid out as the PDF's first page
//! ([`super::report_page`]) from the stored report JSON as `GET /v1/scores/{id}` gives it; the
//! PDF (Live only, as in the API) rendered by [`crate::api::pdf::render`].

use axum::extract::{Path, Query, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::session::Session;
use super::views::{Chrome, ReportPage, ReportView, ReportsPage, when, when_in};
use super::{PortalError, render};
use super::{application_page, report_page};
use crate::api::outcome::Kind;
use crate::keys::Environment;
use crate::state::AppState;
use alama_core::ApplicationReport;

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
            href: if r.kind == "application" {
                format!("/portal/applications/{}", r.id)
            } else {
                format!("/portal/reports/{}", r.id)
            },
            application: r.kind == "application",
            seen_before: r.seen_before,
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

/// The query of a report page: `?from=try` when Try it opened it.
#[derive(Debug, Default, Deserialize)]
pub struct DetailQuery {
    /// `try`: say that Try it's report is a Sandbox one.
    pub from: Option<String>,
}

/// `GET /portal/reports/{id}`: the report as the PDF's first page shows it
/// ([`report_page::completed`]), with the customer reference of its consent (read as `GET
/// /v1/consents/{id}` reads it), its creation time in the statement's zone, and a Sandbox
/// report marked as test data.
///
/// # Errors
/// 404 unless the report belongs to the session's partner and environment; database errors.
pub async fn detail(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Query(query): Query<DetailQuery>,
) -> Result<Response, PortalError> {
    let owner = session.owner();
    let record = state
        .storage
        .report(&owner, &id)
        .await?
        .ok_or(PortalError::NotFound)?;
    let completed = record.status == "completed";
    let json = record.report_json.as_deref().filter(|_| completed);
    let (report, application) = if Kind::of(&record.id) == Kind::Application {
        match json.and_then(|j| serde_json::from_str::<ApplicationReport>(j).ok()) {
            Some(a) => {
                let (content, own) = application_page::completed(a);
                (Some(content), Some(own))
            }
            None => (None, None),
        }
    } else {
        let report = json.and_then(|j| alama_core::Report::from_json(j).ok());
        (report.as_ref().map(report_page::completed), None)
    };
    let consent = match &record.consent_id {
        Some(cid) => state.storage.consent(&owner, cid).await?,
        None => None,
    };
    let zone = report.as_ref().and_then(|r| r.time_zone);
    let sandbox = owner.environment == Environment::Sandbox;
    let page = ReportPage {
        c: Chrome::signed(
            if Kind::of(&id) == Kind::Application {
                "Application"
            } else {
                "Report"
            },
            &session,
            "reports",
        ),
        id: record.id.clone(),
        status: record.status.clone(),
        sandbox,
        notice: (query.from.as_deref() == Some("try")).then(|| {
            "Try it analyses with a Sandbox key, so its reports are Sandbox reports: the \
             portal now shows Sandbox."
                .to_owned()
        }),
        customer: consent.as_ref().map_or_else(
            || {
                if sandbox {
                    "– (Sandbox, no consent)".to_owned()
                } else {
                    "–".to_owned()
                }
            },
            |c| c.customer_reference.clone(),
        ),
        consent: record.consent_id.clone(),
        created: when_in(record.created_at, zone),
        report,
        application,
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
