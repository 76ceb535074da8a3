//! Operating the service: `/livez` and `/readyz` (a dead worker, a closed database, a fresh
//! process) and the Prometheus metrics of `--metrics-bind` after a load of analyses, failures,
//! admission refusals and webhook deliveries (validated by Debian's `promtool check metrics`
//! when it is installed).

// Sample values here are small integer counts, exact in f64; the load scenario reads as one story.
#![allow(clippy::float_cmp, clippy::too_many_lines)]

#[allow(unused_macros)]
#[macro_use]
mod support;

use std::time::Duration;

use alama_server::Environment::Sandbox;
use alama_server::storage::{Owner, Storage};
use alama_server::webhooks::{self, WebhookConfig};
use alama_server::{AppState, Limits, keys};
use serde_json::Value;
use support::{Db, partner, split, statement_csv};
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

/// A server whose state the test keeps (its workers, semaphores and metrics), with its
/// metrics listener.
struct Running {
    base: String,
    metrics: String,
    state: AppState,
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
    scrape: JoinHandle<()>,
}

async fn start(db: &Db, limits: Limits, webhooks: WebhookConfig) -> Running {
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
    async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
        self.scrape.abort();
        self.state.storage.close().await;
    }

    async fn get(&self, path: &str) -> (u16, reqwest::header::HeaderMap, Value) {
        split(
            reqwest::get(format!("{}{path}", self.base))
                .await
                .expect("GET"),
        )
        .await
    }

    async fn key(&self) -> String {
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

    async fn analyse(&self, key: &str, statement: Vec<u8>) -> u16 {
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
    async fn scrape(&self) -> String {
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
fn sample(exposition: &str, name: &str, with: &[(&str, &str)]) -> f64 {
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

fn no_webhooks() -> WebhookConfig {
    WebhookConfig {
        enabled: false,
        ..WebhookConfig::default()
    }
}

fn fast_webhooks() -> WebhookConfig {
    WebhookConfig {
        allow_private: true,
        poll_interval: Duration::from_millis(50),
        ..WebhookConfig::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_follows_workers_and_the_database() {
    let db = Db::sqlite();
    let server = start(&db, Limits::default(), fast_webhooks()).await;
    let (status, _, body) = server.get("/livez").await;
    assert_eq!((status, &body["status"]), (200, &Value::from("ok")));
    let (status, _, body) = server.get("/readyz").await;
    assert_eq!(status, 200, "{body}");
    for check in ["database", "migrations", "webhooks", "retention", "sweeper"] {
        assert_eq!(body["checks"][check], "ok", "{body}");
    }

    // A worker dies: not ready, and the problem says which.
    assert!(server.state.workers.stop("webhooks"));
    tokio::time::sleep(Duration::from_millis(50)).await;
    let got = server.get("/readyz").await;
    support::assert_problem(&got, 503, "not_ready");
    assert_eq!(got.2["checks"]["webhooks"], "stopped", "{}", got.2);
    assert_eq!(got.2["checks"]["database"], "ok", "{}", got.2);
    assert!(
        got.2["detail"]
            .as_str()
            .is_some_and(|d| d.contains("webhooks"))
    );
    // The process still answers.
    assert_eq!(server.get("/livez").await.0, 200);
    server.stop().await;

    // A fresh process on the same database is ready again.
    let server = start(&db, Limits::default(), fast_webhooks()).await;
    let (status, _, body) = server.get("/readyz").await;
    assert_eq!(status, 200, "{body}");

    // The database stops answering (its pool closed): not ready, naming the database.
    server.state.storage.close().await;
    let got = server.get("/readyz").await;
    support::assert_problem(&got, 503, "not_ready");
    assert_eq!(got.2["checks"]["database"], "unreachable", "{}", got.2);
    assert_eq!(server.get("/livez").await.0, 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn metrics_count_analyses_failures_admission_and_webhooks() {
    let db = Db::sqlite();
    let limits = Limits {
        upload_queue_wait: Duration::ZERO,
        ..Limits::default()
    };
    // Webhooks off first: the events wait, and the lag gauge grows.
    let server = start(&db, limits.clone(), no_webhooks()).await;
    let key = server.key().await;
    let record = server
        .state
        .storage
        .key_by_hash(&keys::hash(&key))
        .await
        .expect("db")
        .expect("key");
    let owner = Owner {
        partner_id: record.partner_id.clone(),
        environment: Sandbox,
    };
    let (hook, _seen) = support_receiver().await;
    webhooks::register(&server.state.storage, &owner, &hook, true)
        .await
        .expect("endpoint");
    let before = server.scrape().await;
    assert_eq!(sample(&before, "alama_build_info", &[]), 1.0, "{before}");

    for _ in 0..3 {
        assert_eq!(server.analyse(&key, statement_csv(120)).await, 201);
    }
    assert_eq!(server.analyse(&key, statement_csv(0)).await, 422);
    // Every upload slot taken: the next analyse request is refused at admission.
    let slots = server.state.limits.max_uploads_in_flight.max(1);
    let held = server
        .state
        .uploads
        .clone()
        .acquire_many_owned(u32::try_from(slots).expect("slots"))
        .await
        .expect("permits");
    assert_eq!(server.analyse(&key, statement_csv(50)).await, 503);
    drop(held);
    tokio::time::sleep(Duration::from_millis(1100)).await;

    let after = server.scrape().await;
    let completed = sample(&after, "alama_analyses_total", &[("outcome", "completed")]);
    let failed = sample(&after, "alama_analyses_total", &[("outcome", "failed")]);
    assert_eq!(completed, 3.0, "{after}");
    assert_eq!(failed, 1.0, "{after}");
    assert_eq!(
        sample(
            &after,
            "alama_analyses_total",
            &[("wallet", "mpesa"), ("format", "csv")]
        ),
        3.0,
        "{after}"
    );
    assert_eq!(sample(&after, "alama_admission_rejections_total", &[]), 1.0);
    let analyse = [("route", "/v1/scores/analyse")];
    assert_eq!(
        sample(&after, "alama_http_requests_total", &analyse),
        5.0,
        "{after}"
    );
    assert_eq!(
        sample(
            &after,
            "alama_http_requests_total",
            &[("route", "/v1/scores/analyse"), ("status_class", "4xx")]
        ),
        1.0
    );
    assert_eq!(
        sample(
            &after,
            "alama_http_request_duration_seconds_count",
            &analyse
        ),
        5.0
    );
    for stage in ["read_upload", "engine", "store"] {
        let n = sample(
            &after,
            "alama_analysis_stage_duration_seconds_count",
            &[("stage", stage)],
        );
        assert!(n >= 4.0, "{stage}: {n}");
    }
    assert_eq!(sample(&after, "alama_webhook_pending_events", &[]), 3.0);
    let lag = sample(&after, "alama_webhook_oldest_pending_age_seconds", &[]);
    assert!(lag >= 1.0, "lag {lag}");
    let due = sample(&after, "alama_webhook_oldest_due_age_seconds", &[]);
    assert!(due >= 1.0, "due lag {due}");
    // No ids of partners, keys, reports or requests in label values.
    for id in ["ptn_", "key_", "rpt_", "req_", "msg_", "whe_"] {
        assert!(!after.contains(id), "{id} in the exposition");
    }
    // Without asking for OpenMetrics: the Prometheus text format, the same samples.
    let r = reqwest::get(&server.metrics).await.expect("scrape");
    assert_eq!(
        r.headers()
            .get("content-type")
            .and_then(|v| v.to_str().ok()),
        Some("text/plain; version=0.0.4; charset=utf-8")
    );
    let text = r.text().await.expect("body");
    assert!(
        text.contains("# TYPE alama_analyses_total counter"),
        "{text}"
    );
    assert!(!text.contains("# EOF"));
    assert_eq!(sample(&text, "alama_analyses_total", &[]), 4.0);
    promtool_check(&text);
    prometheus_scrape(&server.metrics, 4.0).await;
    server.stop().await;

    // The worker runs: the events are delivered and the lag falls back to 0.
    let server = start(&db, limits, fast_webhooks()).await;
    let mut delivered = 0.0;
    for _ in 0..100 {
        let now = server.scrape().await;
        delivered = sample(
            &now,
            "alama_webhook_deliveries_total",
            &[("outcome", "delivered")],
        );
        if delivered >= 3.0 && sample(&now, "alama_webhook_pending_events", &[]) == 0.0 {
            for lag in ["pending", "due"] {
                let name = format!("alama_webhook_oldest_{lag}_age_seconds");
                assert_eq!(sample(&now, &name, &[]), 0.0, "{name}");
            }
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(delivered, 3.0);
    let now = server.scrape().await;
    let first = [("outcome", "delivered"), ("le", "1.0")];
    assert_eq!(
        sample(&now, "alama_webhook_delivery_attempts_bucket", &first),
        3.0,
        "{now}"
    );
    server.stop().await;
}

/// A loopback webhook receiver answering 200.
async fn support_receiver() -> (String, JoinHandle<()>) {
    let app = axum::Router::new().route("/hook", axum::routing::post(|| async { "ok" }));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (format!("http://{addr}/hook"), task)
}

/// `promtool check metrics` (Debian's `prometheus` package) on `exposition`, when installed.
fn promtool_check(exposition: &str) {
    use std::io::Write;
    let child = std::process::Command::new("promtool")
        .args(["check", "metrics"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("skipped promtool check metrics: promtool is not installed");
        return;
    };
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(exposition.as_bytes()).expect("write");
    }
    let out = child.wait_with_output().expect("promtool");
    assert!(
        out.status.success(),
        "promtool check metrics: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `deploy/prometheus.yml` (with its alert rules) passes `promtool check config`, and the
/// webhook-lag alert its unit test (`promtool test rules deploy/alerts.test.yml`), when
/// promtool is installed.
#[test]
fn deploy_configuration_passes_promtool() {
    let deploy = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../deploy");
    for args in [
        ["check", "config", "prometheus.yml"],
        ["test", "rules", "alerts.test.yml"],
    ] {
        let Ok(out) = std::process::Command::new("promtool")
            .args(args)
            .current_dir(&deploy)
            .output()
        else {
            eprintln!("skipped promtool {args:?}: promtool is not installed");
            return;
        };
        assert!(
            out.status.success(),
            "promtool {args:?}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

/// Debian's Prometheus server (when installed) scrapes `metrics` every second; its query API
/// must then see the target up and `sum(alama_analyses_total)` equal to `analyses`.
async fn prometheus_scrape(metrics: &str, analyses: f64) {
    let dir = tempfile::tempdir().expect("temp dir");
    let target = metrics
        .trim_start_matches("http://")
        .trim_end_matches("/metrics");
    let config = dir.path().join("prometheus.yml");
    std::fs::write(
        &config,
        format!(
            "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: alama\n    \
             static_configs:\n      - targets: [\"{target}\"]\n"
        ),
    )
    .expect("config");
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .expect("free port")
        .port();
    let child = std::process::Command::new("prometheus")
        .arg(format!("--config.file={}", config.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.path().join("data").display()
        ))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        eprintln!("skipped the Prometheus scrape: prometheus is not installed");
        return;
    };
    let query = |q: &'static str| {
        let encoded: String = q
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || b == b'_' {
                    char::from(b).to_string()
                } else {
                    format!("%{b:02X}")
                }
            })
            .collect();
        let url = format!("http://127.0.0.1:{port}/api/v1/query?query={encoded}");
        async move {
            let r = reqwest::get(url).await.ok()?;
            let body: Value = r.json().await.ok()?;
            body["data"]["result"][0]["value"][1]
                .as_str()?
                .parse::<f64>()
                .ok()
        }
    };
    let mut seen = (None, None);
    for _ in 0..150 {
        seen = (
            query("up{job=\"alama\"}").await,
            query("sum(alama_analyses_total)").await,
        );
        if seen.1.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(seen, (Some(1.0), Some(analyses)), "Prometheus's view");
}

/// `pg_ctl` of the test cluster of `server/ci-postgres.sh` (`ALAMA_TEST_POSTGRES_DIR`), run
/// as the cluster's owner; `start` takes the cluster's port and socket folder again.
fn pg_ctl(dir: &str, port: &str, action: &str) {
    let bin = std::fs::read_dir("/usr/lib/postgresql")
        .expect("postgresql")
        .filter_map(Result::ok)
        .map(|e| e.path().join("bin/pg_ctl"))
        .filter(|p| p.exists())
        .max()
        .expect("pg_ctl");
    let data = format!("{dir}/data");
    let mut args = vec!["-D".to_owned(), data, "-w".to_owned()];
    if action == "start" {
        args.extend([
            "-l".to_owned(),
            format!("{dir}/server.log"),
            "-o".to_owned(),
            format!("-c listen_addresses=127.0.0.1 -p {port} -k {dir} -c fsync=off"),
        ]);
    } else {
        args.extend(["-m".to_owned(), "fast".to_owned()]);
    }
    args.push(action.to_owned());
    let root = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"));
    let status = if root {
        std::process::Command::new("runuser")
            .args(["-u", "postgres", "--"])
            .arg(&bin)
            .args(&args)
            .output()
    } else {
        std::process::Command::new(&bin).args(&args).output()
    };
    assert!(status.is_ok_and(|o| o.status.success()), "pg_ctl {action}");
}

/// On PostgreSQL (`source server/ci-postgres.sh`): `/readyz` answers 503 naming the database
/// while the server is stopped, and 200 again once it is back, without restarting Alama.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readyz_follows_postgresql_stopped_and_started() {
    let (Some(db), Ok(dir)) = (Db::postgres(), std::env::var("ALAMA_TEST_POSTGRES_DIR")) else {
        eprintln!(
            "skipped: ALAMA_TEST_POSTGRES_URL/_DIR are not set (source server/ci-postgres.sh)"
        );
        return;
    };
    let port = db
        .url
        .rsplit_once(':')
        .and_then(|(_, rest)| rest.split('/').next())
        .expect("port")
        .to_owned();
    let server = start(&db, Limits::default(), fast_webhooks()).await;
    assert_eq!(server.get("/readyz").await.0, 200);
    pg_ctl(&dir, &port, "stop");
    let got = server.get("/readyz").await;
    pg_ctl(&dir, &port, "start");
    support::assert_problem(&got, 503, "not_ready");
    assert_eq!(got.2["checks"]["database"], "unreachable", "{}", got.2);
    let mut status = 0;
    for _ in 0..50 {
        status = server.get("/readyz").await.0;
        if status == 200 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(status, 200, "ready again once PostgreSQL is back");
    server.stop().await;
}
