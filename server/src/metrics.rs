//! Prometheus metrics of the service, served on their own listener (`alama serve
//! --metrics-bind ADDR`, off by default) at `GET /metrics` in the `OpenMetrics` text format
//! (`prometheus-client`, the Prometheus project's Rust client).
//!
//! Label values are bounded sets only (route templates or `(unmatched)`, the methods of HTTP or
//! `other`, status classes, outcomes, error codes, wallets, formats, stages): never partner, key, report or request ids (cardinality and
//! privacy; the partner dimension is `/v1/usage` and the portal's). Durations are seconds.
//! Gauges that describe the database (webhook lag, pool) and the admission slots are read at
//! scrape time, so they cost nothing between scrapes.
//! (Over 400 lines: a third is `Metrics::new`, one registration per metric with its help text,
//! in exposition order.)

use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use prometheus_client::encoding::text::encode;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

use crate::storage::Storage;

/// What a scrape reads besides the recorded metrics: the state whose gauges are read at scrape
/// time (the service's [`crate::AppState`] implements it, one layer above this module, which
/// the state holds).
pub trait ScrapeSource: Clone + Send + Sync + 'static {
    /// The recorded metrics.
    fn metrics(&self) -> &Metrics;
    /// Upload slots: (free, configured maximum at least 1).
    fn uploads(&self) -> (usize, usize);
    /// Analysis slots: (free, configured maximum at least 1).
    fn analyses(&self) -> (usize, usize);
    /// The repository (its pool, its webhook backlog).
    fn storage(&self) -> &Storage;
}

/// The methods of HTTP (RFC 9110, section 9, and `PATCH`, RFC 5789): the `method` label of
/// a request with one of them; every other method, which a client may make up at will, is
/// [`OTHER_METHOD`].
pub const METHODS: [&str; 9] = [
    "GET", "HEAD", "POST", "PUT", "DELETE", "CONNECT", "OPTIONS", "TRACE", "PATCH",
];

/// The `method` label of a method not in [`METHODS`].
pub const OTHER_METHOD: &str = "other";

/// The `route` label of a request no route matched (any path: `/v1/nope/123`).
pub const UNMATCHED_ROUTE: &str = "(unmatched)";

/// The `method` label (and the usage record's method) of a request whose method is `method` as
/// sent: itself when it is one of [`METHODS`] (compared exactly: methods are case-sensitive),
/// else [`OTHER_METHOD`]. A label taken as sent let 200 requests with made-up methods add 4,000
/// series (issue 52).
pub fn method_label(method: &str) -> &'static str {
    METHODS
        .iter()
        .find(|m| **m == method)
        .copied()
        .unwrap_or(OTHER_METHOD)
}

/// Label pairs of a sample (names are static, values from bounded sets).
pub type Labels = Vec<(&'static str, String)>;

type HistogramFamily = Family<Labels, Histogram, fn() -> Histogram>;

/// The exposition's content type (`OpenMetrics` 1.0 text).
pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

/// Latency buckets: 1 ms to about 33 s, doubling.
fn latency_histogram() -> Histogram {
    Histogram::new(exponential_buckets(0.001, 2.0, 16))
}

/// Attempt-count buckets: 1 to 8 (the Live schedule has 7 attempts).
fn attempts_histogram() -> Histogram {
    Histogram::new((1..=8).map(f64::from))
}

/// Every metric of one server. Cheap to share (`Arc`); recording is lock-free except for the
/// first sample of a new label set.
#[derive(Debug)]
pub struct Metrics {
    registry: Registry,
    http_requests: Family<Labels, Counter>,
    http_duration: HistogramFamily,
    analyses: Family<Labels, Counter>,
    stage_duration: HistogramFamily,
    admission_rejections: Family<Labels, Counter>,
    webhook_deliveries: Family<Labels, Counter>,
    webhook_attempts: HistogramFamily,
    webhook_lag: Gauge<f64, AtomicU64>,
    webhook_due_lag: Gauge<f64, AtomicU64>,
    webhook_pending: Gauge,
    retention_deleted: Family<Labels, Counter>,
    uploads_in_flight: Gauge,
    analyses_running: Gauge,
    pool_connections: Family<Labels, Gauge>,
}

impl Default for Metrics {
    fn default() -> Self {
        Self::new()
    }
}

impl Metrics {
    /// A fresh registry with every metric of the service, and `alama_build_info` (version and
    /// the built-in scorecard versions).
    #[allow(clippy::too_many_lines)] // one registration per metric, in exposition order
    pub fn new() -> Self {
        let mut registry = Registry::with_prefix("alama");
        let http_requests = Family::<Labels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests by method, route template and status class (2xx, 4xx, 5xx)",
            http_requests.clone(),
        );
        let http_duration: HistogramFamily = Family::new_with_constructor(latency_histogram);
        registry.register(
            "http_request_duration_seconds",
            "Time from a request's head to its response, by method and route template",
            http_duration.clone(),
        );
        let analyses = Family::<Labels, Counter>::default();
        registry.register(
            "analyses",
            "Statement analyses by outcome (completed, failed), error code (none when completed), \
             wallet (the engine's provider, unknown when it did not parse) and input format",
            analyses.clone(),
        );
        let stage_duration: HistogramFamily = Family::new_with_constructor(latency_histogram);
        registry.register(
            "analysis_stage_duration_seconds",
            "Duration of each stage of an analysis: read_upload (the multipart body), engine \
             (parse and score, with the wait for an analysis slot), store (the report written)",
            stage_duration.clone(),
        );
        let admission_rejections = Family::<Labels, Counter>::default();
        registry.register(
            "admission_rejections",
            "Analyse requests refused with 503 because every upload or analysis slot stayed busy",
            admission_rejections.clone(),
        );
        let webhook_deliveries = Family::<Labels, Counter>::default();
        registry.register(
            "webhook_deliveries",
            "Webhook delivery attempts by outcome (delivered, retry, failed: the last attempt)",
            webhook_deliveries.clone(),
        );
        let webhook_attempts: HistogramFamily = Family::new_with_constructor(attempts_histogram);
        registry.register(
            "webhook_delivery_attempts",
            "Attempts an event took by its end: delivered, or failed after the last retry",
            webhook_attempts.clone(),
        );
        let webhook_lag = Gauge::<f64, AtomicU64>::default();
        registry.register(
            "webhook_oldest_pending_age_seconds",
            "Age of the oldest undelivered (pending) webhook event, 0 when none (read at scrape)",
            webhook_lag.clone(),
        );
        let webhook_due_lag = Gauge::<f64, AtomicU64>::default();
        registry.register(
            "webhook_oldest_due_age_seconds",
            "How long the oldest webhook event due for an attempt has waited for the worker, 0 \
             when none (read at scrape): the delivery lag an operator pages on, unlike the \
             pending age it does not grow while an event waits for its retry time",
            webhook_due_lag.clone(),
        );
        let webhook_pending = Gauge::default();
        registry.register(
            "webhook_pending_events",
            "Webhook events not yet delivered nor failed (read at scrape)",
            webhook_pending.clone(),
        );
        let retention_deleted = Family::<Labels, Counter>::default();
        registry.register(
            "retention_deleted",
            "Rows erased or deleted by the retention job, by kind (reports, consents, requests)",
            retention_deleted.clone(),
        );
        let uploads_in_flight = Gauge::default();
        registry.register(
            "uploads_in_flight",
            "Analyse requests holding an upload slot (the admission queue's depth; read at scrape)",
            uploads_in_flight.clone(),
        );
        let analyses_running = Gauge::default();
        registry.register(
            "analyses_running",
            "Analyses holding an analysis slot (read at scrape)",
            analyses_running.clone(),
        );
        let pool_connections = Family::<Labels, Gauge>::default();
        registry.register(
            "db_pool_connections",
            "Database pool connections by state (in_use, idle; read at scrape)",
            pool_connections.clone(),
        );
        let build = Family::<Labels, Gauge>::default();
        let scorecards = alama_core::scorecard::builtins()
            .map(|c| c.version.clone())
            .collect::<Vec<_>>()
            .join(",");
        build
            .get_or_create(&vec![
                ("version", env!("CARGO_PKG_VERSION").to_owned()),
                ("scorecards", scorecards),
            ])
            .set(1);
        registry.register(
            "build_info",
            "Always 1: the service's version and its built-in scorecard versions as labels",
            build,
        );
        Self {
            registry,
            http_requests,
            http_duration,
            analyses,
            stage_duration,
            admission_rejections,
            webhook_deliveries,
            webhook_attempts,
            webhook_lag,
            webhook_due_lag,
            webhook_pending,
            retention_deleted,
            uploads_in_flight,
            analyses_running,
            pool_connections,
        }
    }

    /// One HTTP request with `method` (as sent; labelled by [`method_label`]) on `route` (the
    /// matched route template, or [`UNMATCHED_ROUTE`]: never the path as sent).
    pub fn http_request(&self, method: &str, route: &str, status: u16, took: Duration) {
        let method = method_label(method);
        let class = format!("{}xx", status / 100);
        self.http_requests
            .get_or_create(&vec![
                ("method", method.to_owned()),
                ("route", route.to_owned()),
                ("status_class", class),
            ])
            .inc();
        self.http_duration
            .get_or_create(&vec![
                ("method", method.to_owned()),
                ("route", route.to_owned()),
            ])
            .observe(took.as_secs_f64());
    }

    /// One analysis ended: `code` is `None` when completed; `wallet` the engine's provider.
    pub fn analysis(&self, code: Option<&str>, wallet: Option<&str>, format: &str) {
        let outcome = if code.is_some() {
            "failed"
        } else {
            "completed"
        };
        self.analyses
            .get_or_create(&vec![
                ("outcome", outcome.to_owned()),
                ("code", code.unwrap_or("none").to_owned()),
                ("wallet", wallet.unwrap_or("unknown").to_owned()),
                ("format", format.to_owned()),
            ])
            .inc();
    }

    /// A stage of an analysis (`read_upload`, `engine`, `store`) took `took`.
    pub fn stage(&self, stage: &'static str, took: Duration) {
        self.stage_duration
            .get_or_create(&vec![("stage", stage.to_owned())])
            .observe(took.as_secs_f64());
    }

    /// An analyse request refused at admission (`503`).
    pub fn admission_rejected(&self) {
        self.admission_rejections.get_or_create(&Vec::new()).inc();
    }

    /// Attempt number `attempt` (1 for the first) of a webhook event ended with `outcome`
    /// (`delivered`, `retry`, `failed`); a final one is counted in the attempts histogram.
    pub fn webhook_delivery(&self, outcome: &'static str, attempt: i64) {
        self.webhook_deliveries
            .get_or_create(&vec![("outcome", outcome.to_owned())])
            .inc();
        if outcome != "retry" {
            self.webhook_attempts
                .get_or_create(&vec![("outcome", outcome.to_owned())])
                .observe(attempt as f64);
        }
    }

    /// A retention pass removed `n` rows of `kind`.
    pub fn retention_deleted(&self, kind: &'static str, n: u64) {
        self.retention_deleted
            .get_or_create(&vec![("kind", kind.to_owned())])
            .inc_by(n);
    }

    /// The exposition, after reading the scrape-time gauges from `state`.
    ///
    /// # Errors
    /// Formatting errors of the encoder (none in practice).
    pub async fn render(&self, state: &impl ScrapeSource) -> Result<String, std::fmt::Error> {
        let held =
            |(free, max): (usize, usize)| i64::try_from(max.saturating_sub(free)).unwrap_or(0);
        self.uploads_in_flight.set(held(state.uploads()));
        self.analyses_running.set(held(state.analyses()));
        let (in_use, idle) = state.storage().pool_connections();
        self.pool_connections
            .get_or_create(&vec![("state", "in_use".to_owned())])
            .set(i64::from(in_use));
        self.pool_connections
            .get_or_create(&vec![("state", "idle".to_owned())])
            .set(i64::from(idle));
        let now = crate::ids::now_ms();
        match state.storage().webhook_backlog(now).await {
            Ok((pending, oldest, due)) => {
                let age = |t: Option<i64>| t.map_or(0, |t| now.saturating_sub(t).max(0)) as f64;
                self.webhook_pending.set(pending);
                self.webhook_lag.set(age(oldest) / 1000.0);
                self.webhook_due_lag.set(age(due) / 1000.0);
            }
            Err(e) => tracing::warn!(error = %e, "metrics: cannot read the webhook backlog"),
        }
        let mut out = String::new();
        encode(&mut out, &self.registry)?;
        Ok(out)
    }
}

/// The Prometheus text format's content type (version 0.0.4), for scrapers that do not ask
/// for `OpenMetrics` (`curl`, `promtool check metrics`).
pub const TEXT_CONTENT_TYPE: &str = "text/plain; version=0.0.4; charset=utf-8";

/// `GET /metrics`: `OpenMetrics` when the `Accept` header names it (as Prometheus does), else the
/// Prometheus text format.
async fn scrape<S: ScrapeSource>(
    State(state): State<S>,
    headers: axum::http::HeaderMap,
) -> Response {
    let openmetrics = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("application/openmetrics-text"));
    match state.metrics().render(&state).await {
        Ok(body) if openmetrics => ([(header::CONTENT_TYPE, CONTENT_TYPE)], body).into_response(),
        Ok(body) => (
            [(header::CONTENT_TYPE, TEXT_CONTENT_TYPE)],
            to_prometheus_text(&body),
        )
            .into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response(),
    }
}

/// `OpenMetrics` text (as `prometheus-client` writes it) → the Prometheus text format 0.0.4: a
/// counter family is named with its `_total` suffix in `# HELP`/`# TYPE` (its samples already
/// are), and the `# UNIT` and `# EOF` lines go. Gauges and histograms read the same in both.
pub fn to_prometheus_text(openmetrics: &str) -> String {
    let counters: Vec<&str> = openmetrics
        .lines()
        .filter_map(|l| l.strip_prefix("# TYPE "))
        .filter_map(|l| l.strip_suffix(" counter"))
        .collect();
    let mut out = String::with_capacity(openmetrics.len());
    for line in openmetrics.lines() {
        if line == "# EOF" || line.starts_with("# UNIT ") {
            continue;
        }
        let renamed = ["# HELP ", "# TYPE "].iter().find_map(|prefix| {
            let rest = line.strip_prefix(prefix)?;
            let (name, tail) = rest.split_once(' ')?;
            counters
                .contains(&name)
                .then(|| format!("{prefix}{name}_total {tail}"))
        });
        out.push_str(renamed.as_deref().unwrap_or(line));
        out.push('\n');
    }
    out
}

/// Serves `GET /metrics` of `state` on `listener` (no key: bind it to an address only the
/// scraper reaches) until the runtime stops or the handle is aborted.
pub fn serve<S: ScrapeSource>(listener: TcpListener, state: S) -> JoinHandle<()> {
    let app = axum::Router::new()
        .route("/metrics", axum::routing::get(scrape::<S>))
        .with_state(state);
    tokio::spawn(async move {
        if let Err(e) = axum::serve(listener, app).await {
            tracing::error!(error = %e, "metrics listener failed");
        }
    })
}

/// Shared metrics of a state.
pub type SharedMetrics = Arc<Metrics>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn methods_outside_http_are_one_label() {
        assert_eq!(method_label("GET"), "GET");
        assert_eq!(method_label("PATCH"), "PATCH");
        for odd in ["get", "FOO", "G3T", "", "PROPFIND", "BREW"] {
            assert_eq!(method_label(odd), OTHER_METHOD, "{odd:?}");
        }
    }
}
