//! The developer portal (issue 13), served by `alama serve` under `/portal/` from the same
//! database as the API: partner users sign in (a one-time link from `alama users create`, then
//! email + Argon2id password), and manage their partner's API keys and webhook endpoints, see
//! usage (the figures of `GET /v1/usage`) and reports, in Sandbox or Live.
//!
//! Server-rendered HTML from compile-checked askama templates (`server/templates/portal`),
//! progressively enhanced with htmx (vendored from npm `htmx.org`, served from the binary under
//! a content-hashed name). Every page works without JavaScript.
//!
//! Security model: see [`session`] (cookies, expiry, CSRF, headers), [`auth`] (sign-in,
//! links), [`password`] (hashing) and [`throttle`] (failed sign-ins). Every query of a
//! partner's data goes through the repository ([`crate::storage`]) with the session's
//! [`crate::storage::Owner`], so a user of one partner cannot see or change another partner's
//! keys, endpoints, events, reports or usage, whatever the URL says: another
//! partner's id answers 404, as an unknown id does.

pub mod application_page;
pub mod assets;
pub mod auth;
pub mod charts;
pub mod consents;
pub mod keys;
pub mod overview;
pub mod password;
pub mod report_page;
pub mod reports;
pub mod session;
pub mod throttle;
pub mod try_it;
pub mod views;
pub mod webhooks;

use askama::Template;
use axum::Router;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};

use crate::state::AppState;
use crate::storage::StorageError;

/// Everything that can go wrong in a portal request, each answered with a page (or, for
/// [`PortalError::SignIn`], a redirect to the sign-in page).
#[derive(Debug, thiserror::Error)]
pub enum PortalError {
    /// No valid session: go to the sign-in page.
    #[error("sign in first")]
    SignIn,
    /// A form without the right CSRF token, or a cross-origin `POST` (403).
    #[error("the form has expired or did not come from this site; reload the page and try again")]
    Csrf,
    /// No such thing for this partner and environment (404).
    #[error("not found")]
    NotFound,
    /// Something only Live has (403).
    #[error("{0}")]
    Forbidden(String),
    /// Too many failed sign-ins: wait this many seconds (429 with `Retry-After`, see
    /// [`throttle`]).
    #[error("too many failed sign-ins; try again in {0} seconds")]
    Throttled(u64),
    /// A database error (500, logged).
    #[error(transparent)]
    Storage(#[from] StorageError),
    /// Any other server error (500, logged).
    #[error("{0}")]
    Internal(String),
}

impl IntoResponse for PortalError {
    fn into_response(self) -> Response {
        let status = match &self {
            Self::SignIn => return session::see_other("/portal/signin"),
            Self::Csrf | Self::Forbidden(_) => StatusCode::FORBIDDEN,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::Throttled(_) => StatusCode::TOO_MANY_REQUESTS,
            Self::Storage(_) | Self::Internal(_) => {
                tracing::error!(error = %self, "portal request failed");
                StatusCode::INTERNAL_SERVER_ERROR
            }
        };
        let message = match &self {
            Self::Storage(_) | Self::Internal(_) => "Something went wrong on our side.".to_owned(),
            other => other.to_string(),
        };
        let page = views::ErrorPage {
            c: views::Chrome::anonymous("Error"),
            status: status.as_u16(),
            message,
        };
        let mut response = (status, render(&page)).into_response();
        if let Self::Throttled(seconds) = self {
            response
                .headers_mut()
                .insert(axum::http::header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

/// Renders a template as an HTML response (a 500 page if it cannot be rendered).
pub fn render(template: &impl Template) -> Response {
    match template.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => {
            tracing::error!(error = %e, "portal template failed");
            (StatusCode::INTERNAL_SERVER_ERROR, "template error").into_response()
        }
    }
}

/// The portal's routes under `/portal` (merged into [`crate::router::router`], which it is
/// handed as `api`, the whole service's router that "Try it" sends its request through: the
/// portal sits below the router and does not name it); `/portal` and `/portal/` lead to the
/// overview.
pub fn router(api: fn(AppState) -> Router) -> Router<AppState> {
    Router::new()
        .nest(
            "/portal",
            pages().layer(axum::Extension(try_it::ApiRouter(api))),
        )
        .route("/portal/", get(auth::home))
        .layer(axum::middleware::from_fn(session::security_headers))
}

fn pages() -> Router<AppState> {
    Router::new()
        .route("/", get(auth::home))
        .route("/assets/{name}", get(assets::get))
        .route("/signin", get(auth::signin_page).post(auth::signin))
        .route("/signout", post(auth::signout))
        .route(
            "/activate/{token}",
            get(auth::activate_page).post(auth::activate),
        )
        .route("/account", get(auth::account_page))
        .route("/account/password", post(auth::change_password))
        .route("/environment", post(auth::switch_environment))
        .route("/overview", get(overview::page))
        .route("/keys", get(keys::list).post(keys::create))
        .route(
            "/keys/{id}/revoke",
            get(keys::confirm_revoke).post(keys::revoke),
        )
        .route("/webhooks", get(webhooks::list).post(webhooks::add))
        .route("/webhooks/{id}", get(webhooks::detail))
        .route("/webhooks/{id}/rotate", post(webhooks::rotate))
        .route("/webhooks/{id}/test", post(webhooks::send_test))
        .route(
            "/webhooks/{id}/remove",
            get(webhooks::confirm_remove).post(webhooks::remove),
        )
        .route("/events/{id}/resend", post(webhooks::resend))
        .route("/consents", get(consents::list))
        .route(
            "/try",
            get(try_it::page).post(try_it::submit).layer(
                // The statement cap itself is checked while reading (`Limits`).
                axum::extract::DefaultBodyLimit::max(crate::limits::DRAIN_LIMIT),
            ),
        )
        .route("/reports", get(reports::list))
        .route("/reports/{id}", get(reports::detail))
        .route("/reports/{id}/pdf", get(reports::pdf))
        .route("/applications/{id}", get(reports::detail))
        .fallback(not_found)
}

async fn not_found() -> PortalError {
    PortalError::NotFound
}
