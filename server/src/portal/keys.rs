//! The API keys page: the partner's keys of the session's environment (prefix, environment,
//! created, last used, status), create (the key shown once), revoke after a confirmation page.
//! Keys are made and stored exactly as `alama keys create` does ([`crate::keys`]).

use axum::Form;
use axum::extract::{Path, State};
use axum::response::Response;

use super::auth::CsrfForm;
use super::session::{self, Session};
use super::views::{Chrome, ConfirmPage, KeyView, KeysPage, when};
use super::{PortalError, render};
use crate::keys;
use crate::state::AppState;

async fn page(
    state: &AppState,
    session: &Session,
    created: Option<String>,
) -> Result<Response, PortalError> {
    let keys = state
        .storage
        .owner_keys(&session.owner())
        .await?
        .into_iter()
        .map(|k| KeyView {
            id: k.key.id,
            hint: k.key.hint,
            environment: k.key.environment.as_str(),
            created: when(k.key.created_at),
            last_used: k.last_used_at.map_or_else(|| "never".to_owned(), when),
            active: k.key.revoked_at.is_none(),
            status: k
                .key
                .revoked_at
                .map_or_else(|| "active".to_owned(), |t| format!("revoked {}", when(t))),
        })
        .collect();
    Ok(render(&KeysPage {
        c: Chrome::signed("API keys", session, "keys"),
        keys,
        created,
    }))
}

/// `GET /portal/keys`.
///
/// # Errors
/// Database errors.
pub async fn list(
    State(state): State<AppState>,
    session: Session,
) -> Result<Response, PortalError> {
    page(&state, &session, None).await
}

/// `POST /portal/keys`: creates a key of the session's partner and environment and shows it
/// once (the page is `Cache-Control: no-store`).
///
/// # Errors
/// [`PortalError::Csrf`], database errors.
pub async fn create(
    State(state): State<AppState>,
    session: Session,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PortalError> {
    session.check_csrf(&form.csrf)?;
    let owner = session.owner();
    let partner = state
        .storage
        .partner(&owner.partner_id)
        .await?
        .ok_or(PortalError::NotFound)?;
    let key = keys::generate(owner.environment);
    state
        .storage
        .insert_key(
            &partner,
            owner.environment,
            &keys::hash(&key),
            &keys::hint(&key),
        )
        .await?;
    page(&state, &session, Some(key)).await
}

/// `GET /portal/keys/{id}/revoke`: asks for confirmation.
///
/// # Errors
/// 404 unless the key belongs to the session's partner and environment and is active.
pub async fn confirm_revoke(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
) -> Result<Response, PortalError> {
    let key = state
        .storage
        .owner_key(&session.owner(), &id)
        .await?
        .filter(|k| k.key.revoked_at.is_none())
        .ok_or(PortalError::NotFound)?;
    Ok(render(&ConfirmPage {
        c: Chrome::signed("Revoke key", &session, "keys"),
        heading: format!("Revoke key {}?", key.key.hint),
        message: "Requests with this key are refused (401) from now on, on every server. \
                  This cannot be undone."
            .to_owned(),
        action: format!("/portal/keys/{}/revoke", key.key.id),
        button: "Revoke key".to_owned(),
        back: "/portal/keys".to_owned(),
    }))
}

/// `POST /portal/keys/{id}/revoke`.
///
/// # Errors
/// [`PortalError::Csrf`]; 404 unless the key belongs to the session's partner and
/// environment; database errors.
pub async fn revoke(
    State(state): State<AppState>,
    session: Session,
    Path(id): Path<String>,
    Form(form): Form<CsrfForm>,
) -> Result<Response, PortalError> {
    session.check_csrf(&form.csrf)?;
    let key = state
        .storage
        .owner_key(&session.owner(), &id)
        .await?
        .ok_or(PortalError::NotFound)?;
    state.storage.revoke_key(&key.key.id).await?;
    Ok(session::see_other("/portal/keys"))
}
