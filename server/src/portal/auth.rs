//! Signing in and out, one-time links, passwords and throttling.
//!
//! - Passwords: hashed and checked by [`super::password`] (Argon2id, on the blocking pool; an
//!   unknown email is checked against a dummy hash, so timing does not tell which emails exist).
//! - One-time links (`alama users create`): 32 random characters, stored as SHA-256, valid for
//!   [`LINK_TTL_MS`], used at most once (the set-password form consumes it).
//! - Throttling: failed sign-ins (and wrong current passwords) delay the next attempt of the
//!   account from that address, of that address, and (past a high allowance) of the account,
//!   with delays that grow with each failure: see [`super::throttle`].
//! - Sign-in and password changes start a new session (a fresh token: no session fixation);
//!   setting or changing a password ends every other session of the user.

use axum::extract::{FromRequestParts, Path, Query, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::{Form, http::HeaderValue};
use serde::Deserialize;

use super::password::{MAX_PASSWORD, hash_blocking, password_problem, verify_blocking};
use super::session::{self, CSRF_COOKIE, SESSION_COOKIE, Session};
use super::throttle;
use super::views::{AccountPage, ActivatePage, Chrome, SigninPage};
use super::{PortalError, render};
use crate::ids::now_ms;
use crate::keys::Environment;
use crate::state::AppState;
use crate::storage::PortalUser;
use crate::storage::Storage;

/// A sign-in link works for 24 hours.
pub const LINK_TTL_MS: i64 = 24 * 60 * 60 * 1000;

/// The client address subject (`addr:IP`) of a request.
#[derive(Debug, Clone)]
pub struct ClientAddr(pub String);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(session::client_subject(&parts.extensions)))
    }
}

/// Makes a one-time sign-in link token for `user` (stored by hash); returns the token.
///
/// # Errors
/// Database errors.
pub async fn issue_link(storage: &Storage, user: &PortalUser) -> Result<String, PortalError> {
    let token = session::token();
    let now = now_ms();
    storage
        .insert_signin_link(
            &user.id,
            &session::token_hash(&token),
            now,
            now + LINK_TTL_MS,
        )
        .await?;
    Ok(token)
}

/// The pre-sign-in CSRF token: the cookie's, or a new one with the `Set-Cookie` to send.
fn anonymous_csrf(headers: &HeaderMap) -> (String, Option<HeaderValue>) {
    if let Some(t) = session::cookie(headers, CSRF_COOKIE) {
        (t, None)
    } else {
        let t = session::token();
        let c = session::set_cookie(CSRF_COOKIE, &t, 3600, session::is_https(headers), "Strict");
        (t, Some(c))
    }
}

fn check_anonymous_csrf(headers: &HeaderMap, submitted: &str) -> Result<(), PortalError> {
    match session::cookie(headers, CSRF_COOKIE) {
        Some(t) if !submitted.is_empty() && session::same_secret(&t, submitted) => Ok(()),
        _ => Err(PortalError::Csrf),
    }
}

fn with_cookie(mut response: Response, cookie: Option<HeaderValue>) -> Response {
    if let Some(c) = cookie {
        response.headers_mut().append(header::SET_COOKIE, c);
    }
    response
}

/// Starts a new session of `user` and redirects to `to` with its cookie.
async fn start_session(
    storage: &Storage,
    user: &PortalUser,
    headers: &HeaderMap,
    to: &str,
) -> Result<Response, PortalError> {
    let token = session::token();
    let now = now_ms();
    storage
        .insert_portal_session(
            &session::token_hash(&token),
            &user.id,
            &session::token(),
            Environment::Sandbox,
            now,
            (now - session::IDLE_MS, now - session::ABSOLUTE_MS),
        )
        .await?;
    let cookie = session::set_cookie(
        SESSION_COOKIE,
        &token,
        session::ABSOLUTE_MS / 1000,
        session::is_https(headers),
        "Lax",
    );
    Ok(with_cookie(session::see_other(to), Some(cookie)))
}

/// `GET /portal`: to the overview (which sends a signed-out visitor to sign in).
pub async fn home() -> Response {
    session::see_other("/portal/overview")
}

/// `GET /portal/signin`.
pub async fn signin_page(headers: HeaderMap) -> Response {
    let (csrf, cookie) = anonymous_csrf(&headers);
    let page = SigninPage {
        c: Chrome::anonymous("Sign in"),
        csrf,
        email: String::new(),
        error: None,
    };
    with_cookie(render(&page), cookie)
}

/// The sign-in form.
#[derive(Debug, Deserialize)]
pub struct SigninForm {
    /// CSRF token.
    #[serde(default)]
    pub csrf: String,
    /// Email.
    #[serde(default)]
    pub email: String,
    /// Password.
    #[serde(default)]
    pub password: String,
}

/// `POST /portal/signin`.
///
/// # Errors
/// [`PortalError::Csrf`], [`PortalError::Throttled`], database errors. A wrong email or
/// password answers 401 with the form again.
pub async fn signin(
    State(state): State<AppState>,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Form(form): Form<SigninForm>,
) -> Result<Response, PortalError> {
    check_anonymous_csrf(&headers, &form.csrf)?;
    let storage = &state.storage;
    let email = form.email.trim().to_lowercase();
    let subjects = throttle::subjects(&email, &addr);
    let now = now_ms();
    throttle::attempt(storage, &subjects, now).await?;
    let user = storage.portal_user_by_email(&email).await?;
    let password = form.password.chars().take(MAX_PASSWORD).collect::<String>();
    let ok = verify_blocking(
        password,
        user.as_ref().and_then(|u| u.password_hash.clone()),
    )
    .await;
    match user {
        Some(user) if ok => {
            throttle::succeeded(storage, &subjects, now).await?;
            start_session(storage, &user, &headers, "/portal/overview").await
        }
        _ => {
            let page = SigninPage {
                c: Chrome::anonymous("Sign in"),
                csrf: form.csrf,
                email,
                error: Some("The email or password is wrong.".to_owned()),
            };
            Ok((StatusCode::UNAUTHORIZED, render(&page)).into_response())
        }
    }
}

/// A form with only a CSRF token.
#[derive(Debug, Deserialize)]
pub struct CsrfForm {
    /// CSRF token.
    #[serde(default)]
    pub csrf: String,
}

/// `POST /portal/signout`: ends the session.
///
/// # Errors
/// [`PortalError::Csrf`], database errors.
pub async fn signout(
    State(state): State<AppState>,
    session: Session,
    headers: HeaderMap,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PortalError> {
    session.check_csrf(&form.csrf)?;
    state
        .storage
        .delete_portal_session(&session.id_hash)
        .await?;
    let clear = session::set_cookie(SESSION_COOKIE, "", 0, session::is_https(&headers), "Lax");
    Ok(with_cookie(
        session::see_other("/portal/signin"),
        Some(clear),
    ))
}

fn link_gone() -> PortalError {
    PortalError::Forbidden(
        "This sign-in link has been used or has expired. Ask for a new one \
         (alama users link --email …)."
            .to_owned(),
    )
}

/// `GET /portal/activate/{token}`: the set-password form of a one-time link.
///
/// # Errors
/// 403 when the link is used or expired; database errors.
pub async fn activate_page(
    State(state): State<AppState>,
    Path(token): Path<String>,
    headers: HeaderMap,
) -> Result<Response, PortalError> {
    let user = state
        .storage
        .signin_link_user(&session::token_hash(&token), now_ms())
        .await?
        .ok_or_else(link_gone)?;
    let (csrf, cookie) = anonymous_csrf(&headers);
    let page = ActivatePage {
        c: Chrome::anonymous("Set your password"),
        csrf,
        email: user.email,
        token,
        error: None,
    };
    Ok(with_cookie(render(&page), cookie))
}

/// The set-password form.
#[derive(Debug, Deserialize)]
pub struct PasswordForm {
    /// CSRF token.
    #[serde(default)]
    pub csrf: String,
    /// Current password (password change only).
    #[serde(default)]
    pub current: String,
    /// New password.
    #[serde(default)]
    pub password: String,
    /// New password again.
    #[serde(default)]
    pub confirm: String,
}

/// `POST /portal/activate/{token}`: sets the password, uses the link, signs in.
///
/// # Errors
/// [`PortalError::Csrf`], 403 when the link is used or expired; database errors.
pub async fn activate(
    State(state): State<AppState>,
    Path(token): Path<String>,
    headers: HeaderMap,
    Form(form): Form<PasswordForm>,
) -> Result<Response, PortalError> {
    check_anonymous_csrf(&headers, &form.csrf)?;
    let storage = &state.storage;
    let token_hash = session::token_hash(&token);
    let user = storage
        .signin_link_user(&token_hash, now_ms())
        .await?
        .ok_or_else(link_gone)?;
    if let Some(problem) = password_problem(&form.password, &form.confirm) {
        let page = ActivatePage {
            c: Chrome::anonymous("Set your password"),
            csrf: form.csrf,
            email: user.email,
            token,
            error: Some(problem),
        };
        return Ok((StatusCode::UNPROCESSABLE_ENTITY, render(&page)).into_response());
    }
    let hash = hash_blocking(form.password).await?;
    let user = storage
        .use_signin_link(&token_hash, now_ms())
        .await?
        .ok_or_else(link_gone)?;
    storage.set_portal_password(&user.id, &hash).await?;
    storage
        .clear_signin_failures(&format!("email:{}", user.email))
        .await?;
    start_session(storage, &user, &headers, "/portal/overview").await
}

/// Query of the account page.
#[derive(Debug, Deserialize)]
pub struct AccountQuery {
    /// Set after a successful password change.
    pub changed: Option<String>,
}

/// `GET /portal/account`.
pub async fn account_page(session: Session, Query(q): Query<AccountQuery>) -> Response {
    render(&AccountPage {
        c: Chrome::signed("Account", &session, "account"),
        error: None,
        notice: q
            .changed
            .map(|_| "Password changed. Other sessions were signed out.".to_owned()),
    })
}

/// `POST /portal/account/password`: changes the password (the current one is checked and
/// throttled like a sign-in), ends every session of the user and starts a new one.
///
/// # Errors
/// [`PortalError::Csrf`], [`PortalError::Throttled`], database errors.
pub async fn change_password(
    State(state): State<AppState>,
    session: Session,
    ClientAddr(addr): ClientAddr,
    headers: HeaderMap,
    Form(form): Form<PasswordForm>,
) -> Result<Response, PortalError> {
    session.check_csrf(&form.csrf)?;
    let storage = &state.storage;
    let user = session.record.user.clone();
    let subjects = throttle::subjects(&user.email, &addr);
    let now = now_ms();
    throttle::attempt(storage, &subjects, now).await?;
    let refuse = |message: String| {
        let page = AccountPage {
            c: Chrome::signed("Account", &session, "account"),
            error: Some(message),
            notice: None,
        };
        (StatusCode::UNPROCESSABLE_ENTITY, render(&page)).into_response()
    };
    let current = form.current.chars().take(MAX_PASSWORD).collect::<String>();
    if !verify_blocking(current, user.password_hash.clone()).await {
        return Ok(refuse("The current password is wrong.".to_owned()));
    }
    throttle::succeeded(storage, &subjects, now).await?;
    if let Some(problem) = password_problem(&form.password, &form.confirm) {
        return Ok(refuse(problem));
    }
    let hash = hash_blocking(form.password).await?;
    storage.set_portal_password(&user.id, &hash).await?;
    start_session(storage, &user, &headers, "/portal/account?changed=1").await
}

/// The environment switch.
#[derive(Debug, Deserialize)]
pub struct EnvironmentForm {
    /// CSRF token.
    #[serde(default)]
    pub csrf: String,
    /// `sandbox` or `live`.
    #[serde(default)]
    pub environment: String,
}

/// `POST /portal/environment`: looks at Sandbox or Live from now on.
///
/// # Errors
/// [`PortalError::Csrf`], 404 for an unknown environment, database errors.
pub async fn switch_environment(
    State(state): State<AppState>,
    session: Session,
    Form(form): Form<EnvironmentForm>,
) -> Result<Response, PortalError> {
    session.check_csrf(&form.csrf)?;
    let environment = Environment::parse(&form.environment).ok_or(PortalError::NotFound)?;
    state
        .storage
        .set_portal_session_environment(&session.id_hash, environment)
        .await?;
    Ok(session::see_other("/portal/overview"))
}
