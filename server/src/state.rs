//! What every handler shares: [`AppState`] (the repository, the limits and their counters, the
//! webhook settings, the metrics, the background workers), built once by the CLI or a test and
//! cloned into every request. Below the handlers and the router, above what it holds.

use std::sync::{Arc, Mutex};

use tokio::sync::Semaphore;
use tokio::task::AbortHandle;

use crate::admission::RateLimiter;
use crate::auth_throttle::AuthThrottle;
use crate::error::ApiError;
use crate::limits::Limits;
use crate::metrics::Metrics;
use crate::storage::Storage;
use crate::webhooks::WebhookConfig;

/// What every handler shares. Cheap to clone.
#[derive(Debug, Clone)]
pub struct AppState {
    /// The repository.
    pub storage: Storage,
    /// Limits of this server.
    pub limits: Arc<Limits>,
    /// Per-key rate limits.
    pub limiter: Arc<RateLimiter>,
    /// Failed authentications per source address.
    pub auth_failures: Arc<AuthThrottle>,
    /// Analysis slots (`limits.max_concurrent_analyses`).
    pub analyses: Arc<Semaphore>,
    /// Upload slots (`limits.max_uploads_in_flight`): an analyse request reads its body only
    /// while holding one.
    pub uploads: Arc<Semaphore>,
    /// Webhook delivery settings (the worker started by [`crate::serve`]).
    pub webhooks: Arc<WebhookConfig>,
    /// The HMAC key of request fingerprints: configured, or read (generated on first start)
    /// from the database on first use.
    pub fingerprint_key: Arc<tokio::sync::OnceCell<Vec<u8>>>,
    /// The Prometheus metrics ([`crate::metrics`]); recorded always, exposed only on
    /// `--metrics-bind`.
    pub metrics: Arc<Metrics>,
    /// The background workers started by [`crate::serve`], watched by `/readyz`.
    pub workers: Arc<Workers>,
}

impl AppState {
    /// State over `storage` with `limits`.
    pub fn new(storage: Storage, limits: Limits) -> Self {
        Self {
            storage,
            limiter: Arc::new(RateLimiter::new(limits.rate_per_minute, limits.rate_burst)),
            auth_failures: Arc::new(AuthThrottle::new(limits.auth_failures_per_minute)),
            analyses: Arc::new(Semaphore::new(limits.max_concurrent_analyses.max(1))),
            uploads: Arc::new(Semaphore::new(limits.max_uploads_in_flight.max(1))),
            limits: Arc::new(limits),
            webhooks: Arc::new(WebhookConfig::default()),
            fingerprint_key: Arc::new(tokio::sync::OnceCell::new()),
            metrics: Arc::new(Metrics::new()),
            workers: Arc::new(Workers::default()),
        }
    }

    /// The same state with a configured fingerprint key (`--fingerprint-secret`) instead of
    /// the one generated and stored in the database.
    #[must_use]
    pub fn with_fingerprint_key(mut self, key: Vec<u8>) -> Self {
        self.fingerprint_key = Arc::new(tokio::sync::OnceCell::new_with(Some(key)));
        self
    }

    /// The HMAC key of request fingerprints.
    ///
    /// # Errors
    /// The database's, when the stored key cannot be read or created.
    pub async fn fingerprint_key(&self) -> Result<&[u8], ApiError> {
        self.fingerprint_key
            .get_or_try_init(|| self.storage.server_secret("fingerprint_key"))
            .await
            .map(Vec::as_slice)
            .map_err(ApiError::from)
    }

    /// The same state with webhook settings `config`.
    #[must_use]
    pub fn with_webhooks(mut self, config: WebhookConfig) -> Self {
        self.webhooks = Arc::new(config);
        self
    }
}

impl crate::metrics::ScrapeSource for AppState {
    fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    fn uploads(&self) -> (usize, usize) {
        (
            self.uploads.available_permits(),
            self.limits.max_uploads_in_flight.max(1),
        )
    }

    fn analyses(&self) -> (usize, usize) {
        (
            self.analyses.available_permits(),
            self.limits.max_concurrent_analyses.max(1),
        )
    }

    fn storage(&self) -> &Storage {
        &self.storage
    }
}

/// The background workers of one server, by name (`webhooks`, `retention`, `sweeper`).
#[derive(Debug, Default)]
pub struct Workers {
    tasks: Mutex<Vec<(&'static str, AbortHandle)>>,
}

impl Workers {
    /// Watches the task of worker `name` (replacing an earlier one of that name).
    pub fn register(&self, name: &'static str, task: AbortHandle) {
        if let Ok(mut tasks) = self.tasks.lock() {
            tasks.retain(|(n, _)| *n != name);
            tasks.push((name, task));
        }
    }

    /// Stops worker `name` (tests use it to see `/readyz` notice a dead worker); returns
    /// whether such a worker was registered.
    pub fn stop(&self, name: &str) -> bool {
        self.tasks.lock().is_ok_and(|tasks| {
            tasks
                .iter()
                .filter(|(n, _)| *n == name)
                .map(|(_, t)| t.abort())
                .count()
                > 0
        })
    }

    /// Each registered worker and whether it is still running.
    pub fn states(&self) -> Vec<(&'static str, bool)> {
        self.tasks.lock().map_or_else(
            |_| Vec::new(),
            |tasks| tasks.iter().map(|(n, t)| (*n, !t.is_finished())).collect(),
        )
    }
}
