//! Bearer-key authentication: every `/v1` endpoint but the OpenAPI document takes
//! `Authorization: Bearer alama_sk_<environment>_…`.
//!
//! Order of checks: one `Authorization` header (two or more: `400 invalid_request`, never
//! "the first wins"), present (`missing_api_key`), key well-formed with a valid checksum
//! (`invalid_api_key`, no database lookup), key known (`invalid_api_key`), not revoked
//! (`revoked_api_key`), then the key's rate limit (`rate_limited`).
//!
//! Failures are throttled per client address ([`crate::auth_throttle`], the address from
//! [`crate::client_ip`]): past the limit, a failing request from that address is answered
//! `429 auth_throttled` instead of its `401`, and a request with a valid key still passes (one
//! address is often many partners: a proxy, a NAT). Only well-formed keys (valid checksum) are
//! looked up in the database, throttled or not; guessing a key is not what the throttle stops
//! (190 random bits, see [`crate::keys`]): it bounds the noise and work of failing clients.

use std::sync::{Arc, OnceLock};

use axum::extract::FromRequestParts;
use axum::http::header::AUTHORIZATION;
use axum::http::request::Parts;

use crate::client_ip::ClientIp;
use crate::error::ApiError;
use crate::keys::{self, Environment};
use crate::policy::IntegrityPolicy;
use crate::state::AppState;
use crate::storage::{Owner, RequestKey};

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
    /// The partner's integrity policy, read with the key ([`crate::storage::RequestKey`]).
    pub integrity_policy: IntegrityPolicy,
    /// Whether the partner has default scorecards (one per currency at most) in this
    /// environment, read with the key; `false`: the engine's built-in card of the statement's
    /// currency.
    pub has_default_scorecards: bool,
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
        let client = parts
            .extensions
            .get::<ClientIp>()
            .map(|c| crate::client_ip::throttle_key(c.0));
        let record = match authenticate(parts, state).await {
            Ok(record) => record,
            Err(e) if e.status() == axum::http::StatusCode::UNAUTHORIZED => {
                let Some(ip) = client else {
                    return Err(e);
                };
                // Over the limit: this failure is refused as throttled (and counts no more).
                state.auth_failures.check(ip)?;
                state.auth_failures.failed(ip);
                return Err(e);
            }
            Err(e) => return Err(e),
        };
        let caller = Caller {
            key_id: record.key.id,
            partner_id: record.key.partner_id,
            partner_name: record.key.partner_name,
            environment: record.key.environment,
            integrity_policy: record.integrity_policy,
            has_default_scorecards: record.has_default_scorecards,
        };
        if let Some(slot) = parts.extensions.get::<CallerSlot>() {
            let _ = slot.0.set(caller.clone());
        }
        check_rate(state, &caller.key_id).await?;
        parts.extensions.insert(caller.clone());
        Ok(caller)
    }
}

/// The stored key of the request's bearer token, not revoked.
async fn authenticate(parts: &Parts, state: &AppState) -> Result<RequestKey, ApiError> {
    let token = bearer_token(parts)?;
    keys::parse(token).map_err(|e| ApiError::new("invalid_api_key", e.to_string()))?;
    let record = state
        .storage
        .request_key(&keys::hash(token))
        .await?
        .ok_or_else(|| ApiError::new("invalid_api_key", "no such API key"))?;
    if record.key.revoked_at.is_some() {
        return Err(ApiError::new(
            "revoked_api_key",
            format!("API key {} has been revoked", record.key.id),
        ));
    }
    Ok(record)
}

fn bearer_token(parts: &Parts) -> Result<&str, ApiError> {
    let count = parts.headers.get_all(AUTHORIZATION).iter().count();
    if count > 1 {
        return Err(ApiError::invalid(format!(
            "send one Authorization header; this request has {count}"
        )));
    }
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

/// The per-key rate limit: in this process with SQLite, in the database with PostgreSQL (so
/// that replicas share it).
async fn check_rate(state: &AppState, key_id: &str) -> Result<(), ApiError> {
    if state.storage.backend() != crate::storage::Backend::Postgres {
        return state.limiter.check(key_id);
    }
    let interval_ms = (60_000 / i64::from(state.limits.rate_per_minute.max(1))).max(1);
    let burst = i64::from(state.limits.rate_burst.max(1));
    match state
        .storage
        .take_shared_token(key_id, crate::ids::now_ms(), interval_ms, burst)
        .await?
    {
        None => Ok(()),
        Some(wait_ms) => {
            let seconds = u64::try_from(wait_ms.max(1))
                .unwrap_or(1)
                .div_ceil(1000)
                .max(1);
            Err(ApiError::new(
                "rate_limited",
                format!("this API key made too many requests; retry in {seconds} s"),
            )
            .retry_after(seconds))
        }
    }
}
