//! Portal sessions, cookies, CSRF tokens and the security headers of every portal response.
//!
//! - The session cookie (`alama_portal_session`) holds 32 random base62 characters; the
//!   database keeps only their SHA-256 (a stolen database holds no usable session). `HttpOnly`,
//!   `SameSite=Lax`, `Path=/portal`, and `Secure` when the request came over https (the proxy's
//!   `X-Forwarded-Proto: https`). A session ends after [`IDLE_MS`] without a request, or
//!   [`ABSOLUTE_MS`] after sign-in, whichever is first.
//! - Every form carries a CSRF token: the session's own once signed in; before sign-in (the
//!   sign-in and set-password forms) a double-submit token in the `alama_portal_csrf` cookie.
//!   A `POST` whose `Origin` names another host is refused as well.

use axum::extract::{FromRequestParts, Request};
use axum::http::request::Parts;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Redirect, Response};
use rand::RngExt;
use rand::distr::Alphanumeric;
use sha2::{Digest, Sha256};

use super::PortalError;
use crate::ids::{hex, now_ms};
use crate::state::AppState;
use crate::storage::Owner;
use crate::storage::PortalSession;

/// Name of the session cookie.
pub const SESSION_COOKIE: &str = "alama_portal_session";
/// Name of the pre-sign-in CSRF cookie.
pub const CSRF_COOKIE: &str = "alama_portal_csrf";
/// A session ends after this long without a request: 30 minutes.
pub const IDLE_MS: i64 = 30 * 60 * 1000;
/// A session ends this long after sign-in whatever happens: 12 hours.
pub const ABSOLUTE_MS: i64 = 12 * 60 * 60 * 1000;

/// The Content-Security-Policy of every portal response: scripts, styles and images only from
/// the portal itself (no inline script or style), no framing, forms only to the portal.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; \
                       connect-src 'self'; form-action 'self'; frame-ancestors 'none'; \
                       base-uri 'none'";

/// A random token of 32 base62 characters (about 190 bits).
pub fn token() -> String {
    rand::rng()
        .sample_iter(Alphanumeric)
        .take(32)
        .map(char::from)
        .collect()
}

/// Lowercase hex SHA-256 of `token`: how tokens are stored.
pub fn token_hash(token: &str) -> String {
    hex(&Sha256::digest(token.as_bytes()))
}

/// Compares two secrets without an early exit on the first differing byte.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (Sha256::digest(a.as_bytes()), Sha256::digest(b.as_bytes()));
    a.iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y))
        == 0
}

/// The value of cookie `name` in `headers`.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_owned())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// Whether the request came over https (as the reverse proxy says).
pub fn is_https(headers: &HeaderMap) -> bool {
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("https"))
}

/// A `Set-Cookie` value for `name=value` on `/portal` (`max_age` seconds; 0 deletes it).
pub fn set_cookie(
    name: &str,
    value: &str,
    max_age: i64,
    secure: bool,
    same_site: &str,
) -> HeaderValue {
    let secure = if secure { "; Secure" } else { "" };
    let text = format!(
        "{name}={value}; Path=/portal; Max-Age={max_age}; HttpOnly; SameSite={same_site}{secure}"
    );
    HeaderValue::from_str(&text).unwrap_or_else(|_| HeaderValue::from_static(""))
}

/// The client's address (`addr:IP`, an IPv6 client by its /64: see
/// [`crate::client_ip::throttle_key`]), for throttling sign-ins per address.
pub fn client_subject(parts_extensions: &axum::http::Extensions) -> String {
    parts_extensions
        .get::<crate::client_ip::ClientIp>()
        .map_or_else(
            || "addr:unknown".to_owned(),
            |c| format!("addr:{}", crate::client_ip::throttle_key(c.0)),
        )
}

/// A signed-in user's session, taken from the cookie; pages that need one take it as an
/// argument, and an absent, unknown or expired session redirects to the sign-in page.
#[derive(Debug, Clone)]
pub struct Session {
    /// The stored session.
    pub record: PortalSession,
    /// SHA-256 of the cookie token (the row's key).
    pub id_hash: String,
}

impl Session {
    /// The owner every query of this session is scoped to: the user's partner in the
    /// environment the user is looking at.
    pub fn owner(&self) -> Owner {
        Owner {
            partner_id: self.record.user.partner_id.clone(),
            environment: self.record.environment,
        }
    }

    /// Checks a form's CSRF token against the session's.
    ///
    /// # Errors
    /// [`PortalError::Csrf`] when it differs or is missing.
    pub fn check_csrf(&self, submitted: &str) -> Result<(), PortalError> {
        if !submitted.is_empty() && same_secret(submitted, &self.record.csrf) {
            Ok(())
        } else {
            Err(PortalError::Csrf)
        }
    }
}

impl FromRequestParts<AppState> for Session {
    type Rejection = PortalError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        let token = cookie(&parts.headers, SESSION_COOKIE).ok_or(PortalError::SignIn)?;
        let id_hash = token_hash(&token);
        let record = state
            .storage
            .portal_session(&id_hash)
            .await?
            .ok_or(PortalError::SignIn)?;
        let now = now_ms();
        if now - record.last_seen_at > IDLE_MS || now - record.created_at > ABSOLUTE_MS {
            state.storage.delete_portal_session(&id_hash).await?;
            return Err(PortalError::SignIn);
        }
        state.storage.touch_portal_session(&id_hash, now).await?;
        Ok(Self { record, id_hash })
    }
}

/// Refuses a state-changing request whose `Origin` names another host than `Host`.
pub fn cross_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let origin_host = origin.split_once("://").map_or(origin, |(_, rest)| rest);
    origin == "null" || !origin_host.eq_ignore_ascii_case(host)
}

/// Middleware of every portal route: refuses cross-origin `POST`s and adds the security
/// headers (CSP, `X-Frame-Options: DENY`, `Referrer-Policy: same-origin`: sign-in link tokens never leave in a `Referer`, while same-origin form posts keep their `Origin`, `nosniff`, and
/// `Cache-Control: no-store` on pages).
pub async fn security_headers(request: Request, next: Next) -> Response {
    let mut response =
        if request.method() == axum::http::Method::POST && cross_origin(request.headers()) {
            PortalError::Csrf.into_response()
        } else {
            next.run(request).await
        };
    let h = response.headers_mut();
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    if !h.contains_key(header::CACHE_CONTROL) {
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// A `303 See Other` to `to` (after a form).
pub fn see_other(to: &str) -> Response {
    Redirect::to(to).into_response()
}
