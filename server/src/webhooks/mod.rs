//! `score.completed` webhooks, following the Standard Webhooks specification.
//!
//! - Endpoints are registered per partner and environment with `alama webhooks add` (the
//!   portal), which prints the endpoint's `whsec_…` secret once ([`register`]).
//! - When a report completes, its event is written to the outbox table `webhook_events` in the
//!   same transaction ([`crate::storage::Storage::complete_report`]).
//! - A background [`worker`] started by [`crate::serve`] claims due events, POSTs them signed
//!   ([`signing`]) to the endpoint, after checking its resolved address ([`ssrf`]), and retries
//!   with exponential backoff and jitter on the [`WebhookConfig`] schedule.
//!
//! Delivered means the endpoint answered `200` exactly (as the seed says); any other status
//! (other `2xx` included), a time-out or a connection error is a failed attempt, retried.
//! Redirects are not followed (a `3xx` is a failed attempt).

pub mod signing;
pub mod ssrf;
pub mod worker;

use std::time::Duration;

use crate::ids::{new_id, now_ms};
use crate::storage::{Owner, Storage, StorageError};

/// How webhooks are delivered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookConfig {
    /// Whether `alama serve` runs the delivery worker (default true).
    pub enabled: bool,
    /// Allow loopback, private and link-local endpoint addresses (`--allow-private-webhook-urls`;
    /// default false).
    pub allow_private: bool,
    /// Waits before each retry in Live: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h (seven attempts over
    /// about 17.6 hours, plus jitter).
    pub live_schedule: Vec<Duration>,
    /// Waits before each retry in Sandbox: 5 s, 1 min (three attempts).
    pub sandbox_schedule: Vec<Duration>,
    /// Time-out of one attempt (10 s).
    pub timeout: Duration,
    /// How often the worker looks for due events (1 s).
    pub poll_interval: Duration,
    /// Deliveries in flight at once per process (32).
    pub concurrency: usize,
}

impl Default for WebhookConfig {
    fn default() -> Self {
        let s = Duration::from_secs;
        Self {
            enabled: true,
            allow_private: false,
            live_schedule: vec![s(5), s(300), s(1_800), s(7_200), s(18_000), s(36_000)],
            sandbox_schedule: vec![s(5), s(60)],
            timeout: s(10),
            poll_interval: s(1),
            concurrency: 32,
        }
    }
}

/// Why an endpoint cannot be registered.
#[derive(Debug, thiserror::Error)]
pub enum RegisterError {
    /// The URL is invalid or private.
    #[error(transparent)]
    Url(#[from] ssrf::UrlError),
    /// A database error.
    #[error(transparent)]
    Storage(#[from] StorageError),
}

/// Registers `url` for `owner` after checking it (and its resolved addresses, unless
/// `allow_private`); returns the endpoint id (`whe_…`) and its new `whsec_…` secret.
///
/// # Errors
/// [`RegisterError`].
pub async fn register(
    storage: &Storage,
    owner: &Owner,
    url: &str,
    allow_private: bool,
) -> Result<(String, String), RegisterError> {
    ssrf::resolve(url, allow_private).await?;
    let id = new_id("whe");
    let secret = signing::new_secret();
    storage
        .insert_endpoint(&id, owner, url, &secret, now_ms())
        .await?;
    Ok((id, secret))
}
