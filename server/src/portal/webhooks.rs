//! The webhooks page: the partner's endpoints of the session's environment with event counts
//! and delivery percentage; add (the same URL and address checks as `alama webhooks add`, via
//! [`crate::webhooks::register`]; the `whsec_…` secret shown once), rotate the secret, remove
//! after confirmation; an endpoint's delivery log, a test event, and re-sending a failed event.

use axum::Form;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::auth::CsrfForm;
use super::session::{self, Session};
use super::views::{
    Chrome, ConfirmPage, EndpointPage, EndpointView, EventView, WebhooksPage, when,
};
use super::{PortalError, render};
use crate::ids::now_ms;
use crate::state::AppState;
use crate::storage::EndpointSummary;
use crate::webhooks::{RegisterError, register, signing};

/// `97.5%`, or `–` when nothing was delivered or failed yet.
pub fn percent(p: Option<f64>) -> String {
    p.map_or_else(|| "–".to_owned(), |p| format!("{p:.1}%"))
}

fn view(e: EndpointSummary) -> EndpointView {
    EndpointView {
        delivery: percent(e.delivery_percent()),
        events: e.delivered + e.failed + e.pending,
        id: e.id,
        url: e.url,
        created: when(e.created_at),
        delivered: e.delivered,
        failed: e.failed,
        pending: e.pending,
    }
}

async fn list_page(
    state: &AppState,
    session: &Session,
    created: Option<(String, String)>,
    error: Option<String>,
    url: String,
) -> Result<Response, PortalError> {
    let endpoints = state
        .storage
        .owner_endpoints(&session.owner())
        .await?
        .into_iter()
        .map(view)
        .collect();
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let page = WebhooksPage {
        c: Chrome::signed("Webhooks", session, "webhooks"),
        endpoints,
        created,
        error,
        url,
    };
    Ok((status, render(&page)).into_response())
}

/// `GET /portal/webhooks`.
///
/// # Errors
/// Database errors.
pub async fn list(
    State(state): State<AppState>,
    session: Session,
) -> Result<Response, PortalError> {
    list_page(&state, &session, None, None, String::new()).await
}

/// The add-endpoint form.
#[derive(Debug, Deserialize)]
pub struct AddForm {
    /// CSRF token.
    #[serde(default)]
    pub csrf: String,
    /// Endpoint URL.
    #[serde(default)]
    pub url: String,
}

/// `POST /portal/webhooks`: registers an endpoint and shows its secret once.
///
/// # Errors
/// [`PortalError::Csrf`], database errors; a refused URL answers 422 with the reason.
pub async fn add(
    State(state): State<AppState>,
    session: Session,
    Form(form): Form<AddForm>,
) -> Result<Response, PortalError> {
    session.check_csrf(&form.csrf)?;
    let url = form.url.trim().to_owned();
    match register(
        &state.storage,
        &session.owner(),
        &url,
        state.webhooks.allow_private,
    )
    .await
    {
        Ok((id, secret)) => {
            list_page(&state, &session, Some((id, secret)), None, String::new()).await
        }
        Err(RegisterError::Url(e)) => {
            list_page(&state, &session, None, Some(e.to_string()), url).await
        }
        Err(RegisterError::Storage(e)) => Err(e.into()),
    }
}

async fn endpoint_page(
    state: &AppState,
    session: &Session,
    id: &str,
    secret: Option<String>,
) -> Result<Response, PortalError> {
    let owner = session.owner();
    let endpoint = state
        .storage
        .owner_endpoint(&owner, id)
        .await?
        .ok_or(PortalError::NotFound)?;
    let events = state
        .storage
        .endpoint_events(&owner, id)
        .await?
        .into_iter()
        .map(|e| EventView {
            next_retry: if e.status == "pending" {
                when(e.next_attempt_at)
            } else {
                "–".to_owned()
            },
            id: e.id,
            status: e.status,
            attempts: e.attempts,
            last_status: e
                .last_status
                .map_or_else(|| "–".to_owned(), |s| s.to_string()),
            created: when(e.created_at),
        })
        .collect();
    Ok(render(&EndpointPage {
        c: Chrome::signed("Webhook endpoint", session, "webhooks"),
        endpoint: view(endpoint),
        events,
        secret,
    }))
}

/// `GET /portal/webhooks/{id}`: counts, delivery percentage and delivery log.
///
/// # Errors
/// 404 unless the endpoint belongs to the session's partner and environment; database errors.
pub async fn detail(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PortalError> {
    endpoint_page(&state, &session, &id, None).await
}

/// `POST /portal/webhooks/{id}/rotate`: a new secret, shown once; the old one stops signing.
///
/// # Errors
/// [`PortalError::Csrf`]; 404 unless the endpoint is the session's partner's; database errors.
pub async fn rotate(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PortalError> {
    session.check_csrf(&form.csrf)?;
    let secret = signing::new_secret();
    if !state
        .storage
        .rotate_endpoint_secret(&session.owner(), &id, &secret)
        .await?
    {
        return Err(PortalError::NotFound);
    }
    endpoint_page(&state, &session, &id, Some(secret)).await
}

/// `POST /portal/webhooks/{id}/test`: queues a signed `webhook.test` event to the endpoint.
///
/// # Errors
/// [`PortalError::Csrf`]; 404 unless the endpoint is the session's partner's; 403 when the
/// partner has no report in this environment yet (an event names a report); database errors.
pub async fn send_test(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PortalError> {
    session.check_csrf(&form.csrf)?;
    let owner = session.owner();
    state
        .storage
        .owner_endpoint(&owner, &id)
        .await?
        .ok_or(PortalError::NotFound)?;
    state
        .storage
        .enqueue_test_event(&owner, &id, now_ms())
        .await?
        .ok_or_else(|| {
            PortalError::Forbidden(
                "A test event names a report: analyse a statement first (Try it).".to_owned(),
            )
        })?;
    Ok(session::see_other(&format!("/portal/webhooks/{id}")))
}

/// `GET /portal/webhooks/{id}/remove`: asks for confirmation.
///
/// # Errors
/// 404 unless the endpoint belongs to the session's partner and environment.
pub async fn confirm_remove(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PortalError> {
    let e = state
        .storage
        .owner_endpoint(&session.owner(), &id)
        .await?
        .ok_or(PortalError::NotFound)?;
    Ok(render(&ConfirmPage {
        c: Chrome::signed("Remove endpoint", &session, "webhooks"),
        heading: format!("Remove endpoint {}?", e.url),
        message: "No new events are sent to it; events already queued are still tried.".to_owned(),
        action: format!("/portal/webhooks/{}/remove", e.id),
        button: "Remove endpoint".to_owned(),
        back: format!("/portal/webhooks/{}", e.id),
    }))
}

/// `POST /portal/webhooks/{id}/remove`.
///
/// # Errors
/// [`PortalError::Csrf`]; 404 unless the endpoint is the session's partner's; database errors.
pub async fn remove(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PortalError> {
    session.check_csrf(&form.csrf)?;
    let e = state
        .storage
        .owner_endpoint(&session.owner(), &id)
        .await?
        .ok_or(PortalError::NotFound)?;
    state.storage.remove_endpoint(&e.id, now_ms()).await?;
    Ok(session::see_other("/portal/webhooks"))
}

/// `POST /portal/events/{id}/resend`: queues a failed event again.
///
/// # Errors
/// [`PortalError::Csrf`]; 404 unless the event is a failed event of the session's partner and
/// environment; database errors.
pub async fn resend(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PortalError> {
    session.check_csrf(&form.csrf)?;
    let endpoint = state
        .storage
        .resend_event(&session.owner(), &id, now_ms())
        .await?
        .ok_or(PortalError::NotFound)?;
    Ok(session::see_other(&format!("/portal/webhooks/{endpoint}")))
}
