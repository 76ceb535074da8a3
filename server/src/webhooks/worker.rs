//! The delivery worker: claims due outbox events (a lease of twice the time-out plus a second,
//! so an event whose worker died is tried again), delivers each in its own task (at most
//! [`WebhookConfig::concurrency`] at once, so a hanging endpoint does not stall the others), and
//! records the outcome with the next attempt time. When the server shuts down it stops claiming
//! and waits for the deliveries in flight (each bounded by the time-out), so a restart or a
//! rolling deploy does not spend an attempt of an event it had already sent.
//!
//! Each delivery runs in a `webhook` span carrying the event id and, from the outbox, the
//! `request_id` of the request that caused the event and its `trace_id`, so every log line of
//! the delivery names them; a delivery of an event whose request carried a W3C `traceparent`
//! sends one of the same trace and flags with a new parent id (the delivery's span).

use std::sync::Arc;
use std::time::Duration;

use rand::RngExt;
use reqwest::redirect::Policy;
use tokio::sync::{Semaphore, watch};
use tokio::task::JoinHandle;
use tracing::Instrument;

use super::{WebhookConfig, signing, ssrf};
use crate::ids::now_ms;
use crate::keys::Environment;
use crate::metrics::Metrics;
use crate::storage::{DueEvent, Outcome, Storage};
use crate::trace_context::TraceParent;

/// Starts the worker on the current runtime. Once `stop` holds `true` it claims nothing more and
/// the handle completes when the deliveries in flight have recorded their outcome (at most the
/// time-out plus [`DRAIN_MARGIN`]). An attempt cut short anyway (the handle aborted, the process
/// killed) is tried again once its lease ends, and counts as an attempt.
pub fn spawn(
    storage: Storage,
    config: Arc<WebhookConfig>,
    metrics: Arc<Metrics>,
    stop: watch::Receiver<bool>,
) -> JoinHandle<()> {
    tokio::spawn(run(storage, config, metrics, stop))
}

/// Time allowed, beyond one attempt's time-out, for the last deliveries to record their outcome
/// at shutdown (a database write).
pub const DRAIN_MARGIN: Duration = Duration::from_secs(2);

fn millis(d: Duration) -> i64 {
    i64::try_from(d.as_millis()).unwrap_or(i64::MAX)
}

async fn run(
    storage: Storage,
    config: Arc<WebhookConfig>,
    metrics: Arc<Metrics>,
    mut stop: watch::Receiver<bool>,
) {
    // (Capped so that the drain below can ask for every permit at once.)
    let permits: u32 = u32::try_from(config.concurrency.clamp(1, 1 << 16)).unwrap_or(1);
    let slots = Arc::new(Semaphore::new(permits as usize));
    // An attempt takes at most the time-out (resolution included): after twice that plus a
    // second, an event whose worker died (process killed, runtime dropped) is free again.
    let lease = millis(config.timeout).saturating_mul(2) + 1_000;
    while !*stop.borrow() {
        let free = i64::try_from(slots.available_permits()).unwrap_or(0);
        if free > 0 {
            match storage.claim_events(now_ms(), lease, free).await {
                Ok(events) => {
                    for event in events {
                        let Ok(permit) = slots.clone().acquire_owned().await else {
                            return;
                        };
                        let storage = storage.clone();
                        let config = config.clone();
                        let metrics = metrics.clone();
                        tokio::spawn(async move {
                            deliver(&storage, &config, &metrics, event).await;
                            drop(permit);
                        });
                    }
                }
                Err(e) => tracing::warn!(error = %e, "webhooks: cannot claim events"),
            }
        }
        tokio::select! {
            () = tokio::time::sleep(config.poll_interval) => {}
            changed = stop.changed() => if changed.is_err() { break },
        }
    }
    // Every permit back means every delivery has recorded its outcome.
    let drained =
        tokio::time::timeout(config.timeout + DRAIN_MARGIN, slots.acquire_many(permits)).await;
    if drained.is_err() {
        tracing::warn!(
            "webhooks: deliveries still in flight at shutdown; their leases will expire"
        );
    }
}

/// When to try again after `attempts` failed attempts, or `None` after the last.
pub fn next_attempt(
    config: &WebhookConfig,
    environment: Environment,
    attempts: i64,
    now: i64,
) -> Option<i64> {
    let schedule = match environment {
        Environment::Live => &config.live_schedule,
        Environment::Sandbox => &config.sandbox_schedule,
    };
    let index = usize::try_from(attempts.max(1) - 1).ok()?;
    let base = millis(*schedule.get(index)?);
    // Up to +20 % jitter, so that retries of many events do not arrive together.
    let jitter = rand::rng().random_range(0..=base / 5);
    Some(now + base + jitter)
}

/// One attempt, sending `traceparent` if any: returns the HTTP status (if any) and an error text
/// (unless delivered).
async fn attempt(
    config: &WebhookConfig,
    event: &DueEvent,
    traceparent: Option<&TraceParent>,
) -> (Option<u16>, Option<String>) {
    let (host, addr) = match ssrf::resolve(&event.url, config.allow_private).await {
        Ok(resolved) => resolved,
        Err(e) => return (None, Some(e.to_string())),
    };
    let client = match reqwest::Client::builder()
        .redirect(Policy::none())
        .timeout(config.timeout)
        .resolve(&host, addr)
        .user_agent("Alama-Webhooks/1")
        .build()
    {
        Ok(c) => c,
        Err(e) => return (None, Some(e.to_string())),
    };
    let timestamp = now_ms() / 1000;
    let Some(signature) = signing::sign(
        &event.secret,
        &event.id,
        timestamp,
        event.payload.as_bytes(),
    ) else {
        return (
            None,
            Some("the endpoint's secret is not whsec_<base64>".into()),
        );
    };
    let mut post = client
        .post(&event.url)
        .header("content-type", "application/json")
        .header("webhook-id", &event.id)
        .header("webhook-timestamp", timestamp.to_string())
        .header("webhook-signature", signature);
    if let Some(traceparent) = traceparent {
        post = post.header("traceparent", traceparent.to_string());
    }
    let sent = post.body(event.payload.clone()).send().await;
    match sent {
        Ok(r) if r.status().as_u16() == 200 => (Some(200), None),
        Ok(r) => (
            Some(r.status().as_u16()),
            Some(format!("answered {}", r.status())),
        ),
        Err(e) if e.is_timeout() => (None, Some("timed out".into())),
        Err(e) => (None, Some(e.to_string())),
    }
}

async fn deliver(storage: &Storage, config: &WebhookConfig, metrics: &Metrics, event: DueEvent) {
    let parent = event
        .origin
        .traceparent
        .as_deref()
        .and_then(TraceParent::parse);
    let span = tracing::info_span!(
        "webhook",
        event = %event.id,
        request_id = tracing::field::Empty,
        trace_id = tracing::field::Empty
    );
    if let Some(id) = &event.origin.request_id {
        span.record("request_id", id.as_str());
    }
    if let Some(parent) = &parent {
        span.record("trace_id", parent.trace_id.as_str());
        crate::otel::continue_trace(&span, parent);
    }
    // The delivery's own span when OpenTelemetry export is on, else a new parent id.
    let outgoing = parent
        .as_ref()
        .map(|p| crate::otel::traceparent_of(&span).unwrap_or_else(|| p.child()));
    deliver_in(storage, config, metrics, &event, outgoing.as_ref())
        .instrument(span)
        .await;
}

async fn deliver_in(
    storage: &Storage,
    config: &WebhookConfig,
    metrics: &Metrics,
    event: &DueEvent,
    traceparent: Option<&TraceParent>,
) {
    let (status, error) = tokio::time::timeout(config.timeout, attempt(config, event, traceparent))
        .await
        .unwrap_or_else(|_| (None, Some("timed out".into())));
    let now = now_ms();
    let outcome = if error.is_none() {
        Outcome::Delivered
    } else {
        next_attempt(config, event.environment, event.attempts, now)
            .map_or(Outcome::Failed, Outcome::Retry)
    };
    let ended = match outcome {
        Outcome::Delivered => "delivered",
        Outcome::Retry(_) => "retry",
        Outcome::Failed => "failed",
    };
    metrics.webhook_delivery(ended, event.attempts);
    tracing::info!(event = %event.id, attempt = event.attempts, ?status, ?error, ?outcome, "webhook attempt");
    if let Err(e) = storage
        .finish_attempt(&event.id, &outcome, status, error.as_deref(), now)
        .await
    {
        tracing::error!(error = %e, event = %event.id, "webhooks: cannot record an attempt");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_end() {
        let config = WebhookConfig::default();
        let at = |env, n| next_attempt(&config, env, n, 0);
        let first = at(Environment::Live, 1).expect("retry");
        assert!((5_000..=6_000).contains(&first), "{first}");
        assert!(at(Environment::Live, 6).is_some());
        assert!(at(Environment::Live, 7).is_none());
        assert!(at(Environment::Sandbox, 2).is_some());
        assert!(at(Environment::Sandbox, 3).is_none());
    }
}
