//! A traced analysis, end to end, with OpenTelemetry export on (`OTEL_EXPORTER_OTLP_ENDPOINT`
//! pointing at a small OTLP/HTTP receiver here) and JSON logs: the spans reach the receiver in
//! the caller's trace, the webhook delivery continues that trace, and every log line of the
//! delivery carries the request id of the analysis that caused it.
//! (One test in this binary: the subscriber is process-wide.)

#[allow(unused_macros)]
#[macro_use]
mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use alama_server::Environment::Sandbox;
use alama_server::logging::{self, LogFormat};
use alama_server::otel::{self, OtelSettings};
use alama_server::storage::Owner;
use alama_server::webhooks::{self, WebhookConfig};
use axum::http::HeaderMap;
use serde_json::Value;
use support::{Capture, Db, Server, partner, serve_loopback, statement_csv};

/// What a loopback receiver saw: path, headers and body of every `POST`.
type Seen = Arc<Mutex<Vec<(String, HeaderMap, Vec<u8>)>>>;

/// A loopback HTTP server answering 200 to every `POST` (an OTLP/HTTP collector at
/// `/v1/traces`, a webhook endpoint at `/hook`): its base URL and what it saw.
async fn receiver() -> (String, Seen) {
    let seen: Seen = Arc::default();
    let kept = seen.clone();
    let app = axum::Router::new().fallback(axum::routing::post(
        move |uri: axum::http::Uri, headers: HeaderMap, body: axum::body::Bytes| {
            let kept = kept.clone();
            async move {
                kept.lock()
                    .expect("lock")
                    .push((uri.path().to_owned(), headers, body.to_vec()));
                "ok"
            }
        },
    ));
    let (addr, _) = serve_loopback(app).await;
    (format!("http://{addr}"), seen)
}

fn hex_bytes(hex: &str) -> Vec<u8> {
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn otlp_export_and_deliveries_join_the_callers_trace() {
    let (collector, exported) = receiver().await;
    let settings = OtelSettings::from_vars(|name| {
        (name == "OTEL_EXPORTER_OTLP_ENDPOINT").then(|| collector.clone())
    })
    .expect("export on");
    let provider = settings.provider().expect("provider");
    let capture = Capture::default();
    let writer = capture.clone();
    assert!(logging::init_with_export(
        LogFormat::Json,
        tracing_subscriber::EnvFilter::new("info"),
        move || writer.clone(),
        false,
        Some(&provider),
    ));

    let db = Db::sqlite();
    let server = Server::start_webhooks(
        &db,
        WebhookConfig {
            allow_private: true,
            poll_interval: Duration::from_millis(50),
            ..WebhookConfig::default()
        },
    )
    .await;
    let name = partner("otel");
    let key = server.key(&name, Sandbox).await;
    let (hooks, delivered) = receiver().await;
    let p = server.storage.ensure_partner(&name).await.expect("partner");
    let owner = Owner {
        partner_id: p.id,
        environment: Sandbox,
    };
    webhooks::register(&server.storage, &owner, &format!("{hooks}/hook"), true)
        .await
        .expect("register");

    let (trace, parent) = ("4bf92f3577b34da6a3ce929d0e0e4736", "00f067aa0ba902b7");
    let (status, headers, body) = server
        .analyse_traced(&key, statement_csv(40), &format!("00-{trace}-{parent}-01"))
        .await;
    assert_eq!(status, 201, "{body}");
    let request_id = headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .expect("request id")
        .to_owned();
    for _ in 0..100 {
        if !delivered.lock().expect("lock").is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server.stop().await;
    // Flushing waits for the exporter's (blocking) HTTP request: off the runtime's threads.
    let flushed = provider.clone();
    tokio::task::spawn_blocking(move || otel::shutdown(&flushed))
        .await
        .expect("shutdown");

    // The delivery: the caller's trace and flags, under a span of ours.
    let delivered = delivered.lock().expect("lock").clone();
    assert_eq!(delivered.len(), 1, "one delivery");
    let sent = delivered[0]
        .1
        .get("traceparent")
        .and_then(|v| v.to_str().ok())
        .expect("traceparent on the delivery")
        .to_owned();
    let parts: Vec<&str> = sent.split('-').collect();
    assert_eq!(
        (parts[0], parts[1], parts[3]),
        ("00", trace, "01"),
        "{sent}"
    );
    assert_ne!(parts[2], parent);

    assert_exported(
        &exported.lock().expect("lock"),
        trace,
        parts[2],
        &request_id,
    );
    let text = capture.text();
    assert_delivery_logged(&text, &request_id, trace);
}

/// What reached the collector: protobuf sent to `/v1/traces`, holding the caller's trace id,
/// the delivery span's id and the request id (raw bytes in the protobuf message), and no
/// statement text.
fn assert_exported(
    exported: &[(String, HeaderMap, Vec<u8>)],
    trace: &str,
    span: &str,
    request_id: &str,
) {
    assert!(!exported.is_empty(), "no spans exported");
    let mut all = Vec::new();
    for (path, headers, body) in exported {
        assert_eq!(path, "/v1/traces");
        assert_eq!(
            headers.get("content-type").and_then(|v| v.to_str().ok()),
            Some("application/x-protobuf")
        );
        assert!(!body.is_empty());
        all.extend_from_slice(body);
    }
    let contains = |needle: &[u8]| all.windows(needle.len()).any(|w| w == needle);
    assert!(
        contains(&hex_bytes(trace)),
        "the caller's trace id is exported"
    );
    assert!(
        contains(&hex_bytes(span)),
        "the delivery's span is exported"
    );
    assert!(
        contains(request_id.as_bytes()),
        "the request span is exported"
    );
    for text in ["JOHN DOE", "ACME LIMITED", "0712***678", "Airtime Purchase"] {
        assert!(!contains(text.as_bytes()), "statement text in the spans");
    }
}

/// The delivery's log lines carry the request id and trace id of the analysis.
fn assert_delivery_logged(text: &str, request_id: &str, trace: &str) {
    let attempts: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("JSON line"))
        .filter(|l| l["fields"]["message"] == "webhook attempt")
        .collect();
    assert_eq!(attempts.len(), 1, "{text}");
    assert_eq!(attempts[0]["span"]["name"], "webhook");
    assert_eq!(attempts[0]["span"]["request_id"], request_id);
    assert_eq!(attempts[0]["span"]["trace_id"], trace);
}
