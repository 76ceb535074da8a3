//! The Prometheus metrics of `--metrics-bind` after a load of analyses, failures, admission
//! refusals and webhook deliveries, validated by Debian's `promtool check metrics` and scraped
//! by its `prometheus` server when they are installed; `deploy/`'s configuration and alert
//! rules checked by promtool.

// Sample values here are small integer counts, exact in f64; the load scenario reads as one story.
#![allow(clippy::float_cmp, clippy::too_many_lines)]

#[allow(unused_macros)]
#[macro_use]
mod support;

use std::time::Duration;

use alama_server::Environment::Sandbox;
use alama_server::storage::Owner;
use alama_server::webhooks;
use alama_server::{Limits, keys};
use serde_json::Value;
use support::ops::{fast_webhooks, no_webhooks, receiver, sample, start};
use support::{Db, statement_csv};

/// The series of an exposition: its sample lines (`name{labels} value`) without the values.
fn series(exposition: &str) -> std::collections::BTreeSet<String> {
    exposition
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| l.rsplit_once(' ').map(|(series, _)| series.to_owned()))
        .collect()
}

/// Issue 52: the method label was the method as sent, so 200 keyless requests with made-up
/// methods took the exposition from 433 series to 4,433. Labels come from closed sets: a flood
/// of odd methods and paths, with and without a key, adds no series after the first of each
/// kind.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_odd_methods_and_paths_adds_no_series() {
    let db = Db::sqlite();
    let server = start(&db, Limits::default(), no_webhooks()).await;
    let key = server.key().await;
    let client = reqwest::Client::new();
    let paths = [
        "/livez",
        "/v1/consents",
        "/v1/scores/rpt_x",
        "/v1/nope",
        "/portal/nope",
        "/portal/keys",
        "/",
    ];
    let round = |n: usize| {
        let client = client.clone();
        let base = server.base.clone();
        let key = key.clone();
        async move {
            for path in paths {
                let odd_path = format!("{path}/odd-{n}");
                for (method, path) in [
                    (format!("FLOOD{n}"), path.to_owned()),
                    (format!("x-{n}"), odd_path.clone()),
                    ("GET".to_owned(), odd_path.clone()),
                    ("PATCH".to_owned(), odd_path),
                ] {
                    let method = reqwest::Method::from_bytes(method.as_bytes()).expect("token");
                    for with_key in [false, true] {
                        let mut request = client.request(method.clone(), format!("{base}{path}"));
                        if with_key {
                            request = request.bearer_auth(&key);
                        }
                        let status = request.send().await.expect("answer").status();
                        assert!(status.as_u16() < 500, "{method} {path}: {status}");
                    }
                }
            }
        }
    };
    // One of each kind first: the `other` method and the routes they reach get their series.
    round(0).await;
    let before = series(&server.scrape().await);
    for n in 1..=25 {
        round(n).await;
    }
    let after = series(&server.scrape().await);
    let added: Vec<&String> = after.difference(&before).collect();
    assert!(added.is_empty(), "{} series added: {added:?}", added.len());
    // The requests were counted, under closed labels.
    let exposition = server.scrape().await;
    assert!(
        sample(
            &exposition,
            "alama_http_requests_total",
            &[("method", "other"), ("route", "/livez")]
        ) >= 52.0,
        "{exposition}"
    );
    assert!(!exposition.contains("FLOOD"), "a method as sent is a label");
    assert!(!exposition.contains("odd-"), "a path as sent is a label");
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
    let (hook, _seen) = receiver().await;
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
        if seen.0.is_some() && seen.1.is_some() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(seen, (Some(1.0), Some(analyses)), "Prometheus's view");
}
