//! A server whose state the test keeps, with its metrics listener (`server/tests/health.rs`,
//! `server/tests/metrics.rs`).

use std::time::Duration;

use alama_server::Environment::Sandbox;
use alama_server::storage::Storage;
use alama_server::webhooks::WebhookConfig;
use alama_server::{AppState, Limits, keys};
use serde_json::Value;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use super::{Db, partner, split};

/// A server whose state the test keeps (its workers, semaphores and metrics), with its
/// metrics listener.
pub struct Running {
    pub base: String,
    pub metrics: String,
    pub state: AppState,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
    scrape: JoinHandle<()>,
}

pub async fn start(db: &Db, limits: Limits, webhooks: WebhookConfig) -> Running {
    let storage = Storage::connect(&db.url).await.expect("connect");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let base = format!("http://{}", listener.local_addr().expect("addr"));
    let metrics_listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let metrics = format!(
        "http://{}/metrics",
        metrics_listener.local_addr().expect("addr")
    );
    let state = AppState::new(storage, limits).with_webhooks(webhooks);
    let scrape = alama_server::metrics::serve(metrics_listener, state.clone());
    let (stop, stopped) = oneshot::channel::<()>();
    let served = state.clone();
    let task = tokio::spawn(async move {
        let _ = alama_server::serve(listener, served, async {
            let _ = stopped.await;
        })
        .await;
    });
    let running = Running {
        base,
        metrics,
        state,
        stop,
        task,
        scrape,
    };
    // The workers are registered as `serve` starts.
    for _ in 0..100 {
        if running.state.workers.states().len() >= 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    running
}

impl Running {
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
        self.scrape.abort();
        self.state.storage.close().await;
    }

    pub async fn get(&self, path: &str) -> (u16, reqwest::header::HeaderMap, Value) {
        split(
            reqwest::get(format!("{}{path}", self.base))
                .await
                .expect("GET"),
        )
        .await
    }

    pub async fn key(&self) -> String {
        let storage = &self.state.storage;
        let partner = storage
            .ensure_partner(&partner("ops"))
            .await
            .expect("partner");
        let key = keys::generate(Sandbox);
        storage
            .insert_key(&partner, Sandbox, &keys::hash(&key), &keys::hint(&key))
            .await
            .expect("key");
        key
    }

    pub async fn analyse(&self, key: &str, statement: Vec<u8>) -> u16 {
        let form = reqwest::multipart::Form::new().part(
            "statement",
            reqwest::multipart::Part::bytes(statement).file_name("statement.csv"),
        );
        reqwest::Client::new()
            .post(format!("{}/v1/scores/analyse", self.base))
            .bearer_auth(key)
            .multipart(form)
            .send()
            .await
            .expect("POST")
            .status()
            .as_u16()
    }

    /// The exposition in `OpenMetrics` (as Prometheus asks for it).
    pub async fn scrape(&self) -> String {
        let r = reqwest::Client::new()
            .get(&self.metrics)
            .header("accept", "application/openmetrics-text; version=1.0.0")
            .send()
            .await
            .expect("scrape");
        assert_eq!(r.status(), 200);
        let content_type = r
            .headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        assert!(content_type.starts_with("application/openmetrics-text"));
        r.text().await.expect("body")
    }
}

/// The value of the sample `name{labels}` whose labels include every pair of `with` (summed
/// over the others), 0 when absent.
pub fn sample(exposition: &str, name: &str, with: &[(&str, &str)]) -> f64 {
    exposition
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.rsplit_once(' '))
        .filter(|(series, _)| {
            let (n, labels) = series.split_once('{').unwrap_or((series, ""));
            n == name
                && with
                    .iter()
                    .all(|(k, v)| labels.contains(&format!("{k}=\"{v}\"")))
        })
        .filter_map(|(_, v)| v.parse::<f64>().ok())
        .sum()
}

pub fn no_webhooks() -> WebhookConfig {
    WebhookConfig {
        enabled: false,
        ..WebhookConfig::default()
    }
}

pub fn fast_webhooks() -> WebhookConfig {
    WebhookConfig {
        allow_private: true,
        poll_interval: Duration::from_millis(50),
        ..WebhookConfig::default()
    }
}

/// A loopback webhook receiver answering 200.
pub async fn receiver() -> (String, JoinHandle<()>) {
    let app = axum::Router::new().route("/hook", axum::routing::post(|| async { "ok" }));
    let (addr, task) = super::serve_loopback(app).await;
    (format!("http://{addr}/hook"), task)
}
