//! "Try it" (Sandbox): upload a statement (and its password) with one of the partner's Sandbox
//! keys and see the report, as a new partner's first five minutes. The upload is sent through
//! the API router in-process (`POST /v1/scores/analyse` with the key), so it is authenticated,
//! rate limited, analysed, stored and counted in usage exactly like a partner's own request;
//! the portal adds no analysis logic of its own.

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{Extension, Multipart, State};
use axum::http::{Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use tower::ServiceExt;

use super::session::{self, Session};
use super::views::{Chrome, TryPage};
use super::{PortalError, render};
use crate::keys::{self, Environment};
use crate::state::AppState;

/// The service's whole router (its `fn`, [`crate::router::router`]), handed to the portal by
/// the router itself, so that "Try it" sends its request through every middleware of the API
/// without the portal naming the layer above it.
#[derive(Debug, Clone, Copy)]
pub struct ApiRouter(pub fn(AppState) -> Router);

/// `GET /portal/try`.
pub async fn page(session: Session) -> Response {
    render(&TryPage {
        c: Chrome::signed("Try it", &session, "try"),
        error: None,
    })
}

fn refuse(session: &Session, status: StatusCode, message: String) -> Response {
    let page = TryPage {
        c: Chrome::signed("Try it", session, "try"),
        error: Some(message),
    };
    (status, render(&page)).into_response()
}

/// The form's fields: the key, the statement and its password, the CSRF token.
#[derive(Debug, Default)]
struct Upload {
    csrf: String,
    key: String,
    password: String,
    statement: Vec<u8>,
    file_name: String,
}

async fn read(mut multipart: Multipart, max: usize) -> Result<Upload, String> {
    let mut u = Upload::default();
    while let Some(field) = multipart.next_field().await.map_err(|e| e.body_text())? {
        match field.name().unwrap_or_default() {
            "statement" => {
                u.file_name = field.file_name().unwrap_or("statement").to_owned();
                let bytes = field.bytes().await.map_err(|e| e.body_text())?;
                if bytes.len() > max {
                    return Err(format!("The statement is over {} MiB.", max >> 20));
                }
                u.statement = bytes.to_vec();
            }
            name => {
                let name = name.to_owned();
                let text = field.text().await.map_err(|e| e.body_text())?;
                match name.as_str() {
                    "csrf" => u.csrf = text,
                    "key" => u.key = text.trim().to_owned(),
                    "password" => u.password = text,
                    _ => {}
                }
            }
        }
    }
    Ok(u)
}

/// A `multipart/form-data` body with the statement and, if given, its password.
fn analyse_body(u: &Upload, boundary: &str) -> Vec<u8> {
    let mut body = Vec::with_capacity(u.statement.len() + 512);
    let name = u.file_name.replace(['"', '\r', '\n'], "_");
    body.extend_from_slice(
        format!(
            "--{boundary}\r\nContent-Disposition: form-data; name=\"statement\"; \
             filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        )
        .as_bytes(),
    );
    body.extend_from_slice(&u.statement);
    if !u.password.is_empty() {
        body.extend_from_slice(
            format!(
                "\r\n--{boundary}\r\nContent-Disposition: form-data; name=\"password\"\r\n\r\n{}",
                u.password
            )
            .as_bytes(),
        );
    }
    body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
    body
}

/// `POST /portal/try`: checks the key is a Sandbox key of the session's partner, sends the
/// statement to `POST /v1/scores/analyse` in-process, and shows the report (or the problem).
///
/// # Errors
/// [`PortalError::Csrf`], database errors; a refused key or upload is shown on the page.
pub async fn submit(
    State(state): State<AppState>,
    Extension(api): Extension<ApiRouter>,
    session: Session,
    multipart: Multipart,
) -> Result<Response, PortalError> {
    let upload = match read(multipart, state.limits.max_statement_bytes).await {
        Ok(u) => u,
        Err(message) => return Ok(refuse(&session, StatusCode::UNPROCESSABLE_ENTITY, message)),
    };
    session.check_csrf(&upload.csrf)?;
    let own_sandbox_key = keys::parse(&upload.key) == Ok(Environment::Sandbox)
        && state
            .storage
            .key_by_hash(&keys::hash(&upload.key))
            .await?
            .is_some_and(|k| {
                k.partner_id == session.record.user.partner_id && k.revoked_at.is_none()
            });
    if !own_sandbox_key {
        return Ok(refuse(
            &session,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Paste an active Sandbox key of your organisation (API keys → Create a Sandbox key)."
                .to_owned(),
        ));
    }
    if upload.statement.is_empty() {
        return Ok(refuse(
            &session,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Choose a statement file.".to_owned(),
        ));
    }
    let boundary = format!("alama-{}", session::token());
    let request = Request::post("/v1/scores/analyse")
        .header(header::AUTHORIZATION, format!("Bearer {}", upload.key))
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(Body::from(analyse_body(&upload, &boundary)))
        .map_err(|e| PortalError::Internal(e.to_string()))?;
    let response = (api.0)(state.clone())
        .oneshot(request)
        .await
        .map_err(|e| PortalError::Internal(e.to_string()))?;
    let status = response.status();
    let bytes = to_bytes(response.into_body(), 1 << 20)
        .await
        .map_err(|e| PortalError::Internal(e.to_string()))?;
    let body: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
    let report_id = body
        .get("reportId")
        .and_then(Value::as_str)
        .map(str::to_owned);
    match report_id {
        Some(id) if status.is_success() => Ok(session::see_other(&format!("/portal/reports/{id}"))),
        _ => {
            let detail = body
                .get("detail")
                .and_then(Value::as_str)
                .unwrap_or("the analysis failed");
            let code = body.get("code").and_then(Value::as_str).unwrap_or("error");
            Ok(refuse(
                &session,
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("{code}: {detail}"),
            ))
        }
    }
}
