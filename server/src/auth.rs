//! Bearer-key authentication: every `/v1` endpoint but the OpenAPI document takes
//! `Authorization: Bearer alama_sk_<environment>_…`.
//!
//! Order of checks: header present (`missing_api_key`), key well-formed with a valid checksum
//! (`invalid_api_key`, no database lookup), key known (`invalid_api_key`), not revoked
//! (`revoked_api_key`), then the key's rate limit (`rate_limited`).

use std::sync::{Arc, OnceLock};

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use crate::app::AppState;
use crate::error::ApiError;
use crate::keys::{self, Environment};
use crate::storage::Owner;

/// The authenticated caller of a request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Caller {
    /// `key_…` id of the key used.
    pub key_id: String,
    /// `ptn_…` id of the key's partner.
    pub partner_id: String,
    /// The partner's name.
    pub partner_name: String,
    /// The key's environment.
    pub environment: Environment,
}

impl Caller {
    /// The isolation key of everything this caller creates or may read.
    pub fn owner(&self) -> Owner {
        Owner {
            partner_id: self.partner_id.clone(),
            environment: self.environment,
        }
    }

    /// Refuses Sandbox keys on Live-only endpoints.
    ///
    /// # Errors
    /// `live_mode_required` (403) naming `endpoint`.
    pub fn require_live(&self, endpoint: &str) -> Result<(), ApiError> {
        match self.environment {
            Environment::Live => Ok(()),
            Environment::Sandbox => Err(ApiError::new(
                "live_mode_required",
                format!(
                    "{endpoint} is available in Live only; this request used a Sandbox key \
                     (alama_sk_sandbox_…): use a Live key (alama_sk_live_…)"
                ),
            )),
        }
    }
}

/// Where the authenticated caller is left for the request middleware, which records the request
/// for usage after the response is produced.
#[derive(Debug, Clone, Default)]
pub struct CallerSlot(Arc<OnceLock<Caller>>);

impl CallerSlot {
    /// The caller, once authenticated.
    pub fn get(&self) -> Option<&Caller> {
        self.0.get()
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, ApiError> {
        if let Some(caller) = parts.extensions.get::<Caller>() {
            return Ok(caller.clone());
        }
        let token = bearer_token(parts)?;
        keys::parse(token).map_err(|e| ApiError::new("invalid_api_key", e.to_string()))?;
        let record = state
            .storage
            .key_by_hash(&keys::hash(token))
            .await?
            .ok_or_else(|| ApiError::new("invalid_api_key", "no such API key"))?;
        if record.revoked_at.is_some() {
            return Err(ApiError::new(
                "revoked_api_key",
                format!("API key {} has been revoked", record.id),
            ));
        }
        let caller = Caller {
            key_id: record.id,
            partner_id: record.partner_id,
            partner_name: record.partner_name,
            environment: record.environment,
        };
        if let Some(slot) = parts.extensions.get::<CallerSlot>() {
            let _ = slot.0.set(caller.clone());
        }
        state.limiter.check(&caller.key_id)?;
        parts.extensions.insert(caller.clone());
        Ok(caller)
    }
}

fn bearer_token(parts: &Parts) -> Result<&str, ApiError> {
    let value = parts.headers.get(AUTHORIZATION).ok_or_else(|| {
        ApiError::new(
            "missing_api_key",
            "send the header `Authorization: Bearer <API key>`",
        )
    })?;
    let value = value
        .to_str()
        .map_err(|_| ApiError::new("invalid_api_key", "the Authorization header is not text"))?;
    let (scheme, token) = value.trim().split_once(' ').unwrap_or((value, ""));
    if !scheme.eq_ignore_ascii_case("bearer") || token.trim().is_empty() {
        return Err(ApiError::new(
            "invalid_api_key",
            "the Authorization header must be `Bearer <API key>`",
        ));
    }
    Ok(token.trim())
}
