//! "Try it": upload a statement (and its password) with one of the partner's Sandbox keys and
//! see the report, as a new partner's first five minutes; several statements (or loan terms)
//! make an application (`POST /v1/applications`) and open its page. The upload is sent through the API
//! router in-process (`POST /v1/scores/analyse` with the key), so it is authenticated, rate
//! limited, analysed, stored and counted in usage exactly like a partner's own request; the
//! portal adds no analysis logic of its own.
//!
//! Both environments: the analysis is always a Sandbox one (a Live analysis needs the
//! customer's consent), so when the session looks at Live the page says so beforehand, and
//! after the analysis the session switches to Sandbox, where the report is, and the report page
//! says it did (before, Live ended on a bare 404: the report was not in Live).
//!
//! With JavaScript the form is sent by htmx and a refusal replaces only the message above it,
//! so the key, the chosen file and the password stay as they were; without it, the page comes
//! back with the refusal and the key (the file must be chosen again: browsers allow nothing
//! else).

use axum::Router;
use axum::body::{Body, to_bytes};
use axum::extract::{Extension, Multipart, State};
use axum::http::{HeaderMap, HeaderValue, Request, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::Value;
use tower::ServiceExt;

use super::session::{self, Session};
use super::views::{Chrome, TryError, TryPage};
use super::{PortalError, render};
use crate::keys::{self, Environment};
use crate::state::AppState;

/// The service's whole router (its `fn`, [`crate::router::router`]), handed to the portal by
/// the router itself, so that "Try it" sends its request through every middleware of the API
/// without the portal naming the layer above it.
#[derive(Debug, Clone, Copy)]
pub struct ApiRouter(pub fn(AppState) -> Router);

fn try_page(session: &Session, error: Option<String>, key: String) -> TryPage {
    let supported = alama_core::wallets::supported();
    TryPage {
        c: Chrome::signed("Try it", session, "try"),
        error,
        key,
        live: session.record.environment == Environment::Live,
        supported: supported
            .strip_prefix("supported: ")
            .unwrap_or(&supported)
            .to_owned(),
    }
}

/// `GET /portal/try`.
pub async fn page(session: Session) -> Response {
    render(&try_page(&session, None, String::new()))
}

/// Whether htmx sent the request (it then swaps in a fragment or follows `HX-Redirect`).
fn from_htmx(headers: &HeaderMap) -> bool {
    headers.get("hx-request").is_some_and(|v| v == "true")
}

/// A refusal: the message alone for htmx (swapped in above the untouched form; `200`, since
/// the fragment asked for is what is answered, and a `4xx` would be logged by the browser as a
/// failed load), else the page again with the message and the key typed (`status`).
fn refuse(
    session: &Session,
    htmx: bool,
    status: StatusCode,
    message: String,
    key: String,
) -> Response {
    if htmx {
        return render(&TryError { error: message });
    }
    (status, render(&try_page(session, Some(message), key))).into_response()
}

/// Where to go after a successful analysis: `303` to the report, or for htmx `HX-Redirect`.
fn go_to(htmx: bool, to: &str) -> Response {
    if !htmx {
        return session::see_other(to);
    }
    let mut response = StatusCode::NO_CONTENT.into_response();
    if let Ok(v) = HeaderValue::from_str(to) {
        response.headers_mut().insert("hx-redirect", v);
    }
    response
}

/// The API's refusal in the words of the portal: the password failures say what to type for
/// every wallet (the engine's own detail names Safaricom's convention only).
fn refusal_text(code: &str, detail: &str) -> String {
    match code {
        "password_required" => "This PDF is password-protected: type its password (the one the \
             wallet gave with the statement; a Safaricom M-Pesa Kenya statement's is usually the \
             customer's ID number) and press Analyse again."
            .to_owned(),
        "wrong_password" => "That password does not open this PDF. Check it (the one the wallet \
             gave with the statement; a Safaricom M-Pesa Kenya statement's is usually the \
             customer's ID number) and press Analyse again."
            .to_owned(),
        _ => format!("{code}: {detail}"),
    }
}

/// The form's fields: the key, the statements (one, or several for an application) and the
/// password, the optional loan terms, the CSRF token.
#[derive(Debug, Default)]
struct Upload {
    csrf: String,
    key: String,
    password: String,
    /// Each chosen file: its name and bytes (a browser sends one empty part when none is).
    statements: Vec<(String, Vec<u8>)>,
    /// `principal`, `tenorMonths`, `monthlyRate` as typed (non-empty ones only).
    terms: Vec<(&'static str, String)>,
}

impl Upload {
    /// Whether it goes to `POST /v1/applications`: several statements, or loan terms.
    fn is_application(&self) -> bool {
        self.statements.len() > 1 || !self.terms.is_empty()
    }
}

async fn read(mut multipart: Multipart, max: usize) -> Result<Upload, String> {
    let mut u = Upload::default();
    let mut total = 0usize;
    while let Some(field) = multipart.next_field().await.map_err(|e| e.body_text())? {
        match field.name().unwrap_or_default() {
            "statement" => {
                let file_name = field.file_name().unwrap_or("statement").to_owned();
                let bytes = field.bytes().await.map_err(|e| e.body_text())?;
                total += bytes.len();
                if total > max {
                    return Err(format!("The statements are over {} MiB.", max >> 20));
                }
                if !bytes.is_empty() {
                    u.statements.push((file_name, bytes.to_vec()));
                }
            }
            name => {
                let name = name.to_owned();
                let text = field.text().await.map_err(|e| e.body_text())?;
                match name.as_str() {
                    "csrf" => u.csrf = text,
                    "key" => u.key = text.trim().to_owned(),
                    "password" => u.password = text,
                    "principal" | "tenorMonths" | "monthlyRate" if !text.trim().is_empty() => {
                        let field = match name.as_str() {
                            "principal" => "principal",
                            "tenorMonths" => "tenorMonths",
                            _ => "monthlyRate",
                        };
                        u.terms.push((field, text.trim().to_owned()));
                    }
                    _ => {}
                }
            }
        }
    }
    Ok(u)
}

/// A `multipart/form-data` body with the statements (each followed by the password, if given:
/// the i-th password opens the i-th statement) and the loan terms.
fn upload_body(u: &Upload, boundary: &str) -> Vec<u8> {
    let size: usize = u.statements.iter().map(|(_, b)| b.len() + 512).sum();
    let mut body = Vec::with_capacity(size + 512);
    let text = |body: &mut Vec<u8>, name: &str, value: &str| {
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .as_bytes(),
        );
    };
    for (file_name, bytes) in &u.statements {
        let name = file_name.replace(['"', '\r', '\n'], "_");
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"statement\"; \
                 filename=\"{name}\"\r\nContent-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(bytes);
        body.extend_from_slice(b"\r\n");
        if !u.password.is_empty() {
            text(&mut body, "password", &u.password);
        }
    }
    for (name, value) in &u.terms {
        text(&mut body, name, value);
    }
    body.extend_from_slice(format!("--{boundary}--\r\n").as_bytes());
    body
}

/// `POST /portal/try`: checks the key is a Sandbox key of the session's partner, sends the
/// statement to `POST /v1/scores/analyse` in-process (several statements, or loan terms, to
/// `POST /v1/applications`), and shows the report or application (or the problem).
///
/// # Errors
/// [`PortalError::Csrf`], database errors; a refused key or upload is shown on the page.
pub async fn submit(
    State(state): State<AppState>,
    Extension(api): Extension<ApiRouter>,
    session: Session,
    headers: HeaderMap,
    multipart: Multipart,
) -> Result<Response, PortalError> {
    let htmx = from_htmx(&headers);
    let upload = match read(multipart, state.limits.max_statement_bytes).await {
        Ok(u) => u,
        Err(message) => {
            return Ok(refuse(
                &session,
                htmx,
                StatusCode::UNPROCESSABLE_ENTITY,
                message,
                String::new(),
            ));
        }
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
            htmx,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Paste an active Sandbox key of your organisation (switch to Sandbox, then API keys → \
             Create a Sandbox key)."
                .to_owned(),
            String::new(),
        ));
    }
    if upload.statements.is_empty() {
        return Ok(refuse(
            &session,
            htmx,
            StatusCode::UNPROCESSABLE_ENTITY,
            "Choose a statement file.".to_owned(),
            upload.key,
        ));
    }
    let boundary = format!("alama-{}", session::token());
    let (path, id_field, page) = if upload.is_application() {
        ("/v1/applications", "applicationId", "applications")
    } else {
        ("/v1/scores/analyse", "reportId", "reports")
    };
    let request = Request::post(path)
        .header(header::AUTHORIZATION, format!("Bearer {}", upload.key))
        .header(
            header::CONTENT_TYPE,
            format!("multipart/form-data; boundary={boundary}"),
        )
        .body(Body::from(upload_body(&upload, &boundary)))
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
        .get(id_field)
        .and_then(Value::as_str)
        .map(str::to_owned);
    match report_id {
        Some(id) if status.is_success() => {
            // The report is a Sandbox one: a session looking at Live is switched to Sandbox,
            // where the report is, and the report page says so.
            if session.record.environment == Environment::Live {
                state
                    .storage
                    .set_portal_session_environment(&session.id_hash, Environment::Sandbox)
                    .await?;
                return Ok(go_to(htmx, &format!("/portal/{page}/{id}?from=try")));
            }
            Ok(go_to(htmx, &format!("/portal/{page}/{id}")))
        }
        _ => {
            let detail = body
                .get("detail")
                .and_then(Value::as_str)
                .unwrap_or("the analysis failed");
            let code = body.get("code").and_then(Value::as_str).unwrap_or("error");
            Ok(refuse(
                &session,
                htmx,
                StatusCode::UNPROCESSABLE_ENTITY,
                refusal_text(code, detail),
                upload.key,
            ))
        }
    }
}
