//! The consents page: the partner's consents of the session's environment with their status
//! (`expired` derived as the API does, [`crate::api::consents::effective_status`]) and evidence:
//! the notice version and SHA-256, when and how it was granted, when and why revoked.

use axum::extract::State;
use axum::response::Response;

use super::session::Session;
use super::views::{Chrome, ConsentView, ConsentsPage, when};
use super::{PortalError, render};
use crate::api::consents::effective_status;
use crate::ids::now_ms;
use crate::state::AppState;

/// `GET /portal/consents`.
///
/// # Errors
/// Database errors.
pub async fn list(
    State(state): State<AppState>,
    session: Session,
) -> Result<Response, PortalError> {
    let now = now_ms();
    let dash = || "–".to_owned();
    let consents = state
        .storage
        .recent_consents(&session.owner())
        .await?
        .into_iter()
        .map(|c| ConsentView {
            status: serde_json::to_value(effective_status(&c, now))
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_else(|| c.status.clone()),
            granted: c.granted_at.map_or_else(dash, |t| {
                format!(
                    "{} ({})",
                    when(t),
                    c.grant_method.clone().unwrap_or_default()
                )
            }),
            revoked: c.revoked_at.map_or_else(dash, |t| {
                format!(
                    "{} {}",
                    when(t),
                    c.revoke_reason.clone().unwrap_or_default()
                )
            }),
            notice_short: c.notice_sha256.chars().take(12).collect(),
            notice_sha256: c.notice_sha256.clone(),
            notice_version: c.notice_version.clone(),
            customer: c.customer_reference,
            created: when(c.created_at),
            expires: when(c.expires_at),
            id: c.id,
        })
        .collect();
    Ok(render(&ConsentsPage {
        c: Chrome::signed("Consents", &session, "consents"),
        consents,
    }))
}
