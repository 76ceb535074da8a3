//! `--log-format json` at the most verbose level (`trace`, every crate): every line is a JSON
//! object, every line of a request carries its request id, and no line carries the statement's
//! text, its counterparties' names or phone numbers, or the PDF password sent with it.
//! (One test in this binary: the subscriber is process-wide.)

#[allow(unused_macros)]
#[macro_use]
mod support;

use std::time::Duration;

use alama_server::Environment::Sandbox;
use alama_server::webhooks::WebhookConfig;
use serde_json::Value;
use support::{Db, Server, partner};

/// The synthetic example statement of the repository (`examples/statement.csv`).
fn example_statement() -> Vec<u8> {
    std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/statement.csv"
    ))
    .expect("examples/statement.csv")
}

/// What must never be logged: the password sent with the statement, and text of the statement
/// (a receipt, counterparties' names, a masked phone number, a transaction's description).
const PASSWORD: &str = "Quokka-Lantern-4471";
const SECRETS: [&str; 7] = [
    PASSWORD,
    "SFU8X6BY84",
    "MAMA PIMA",
    "SAVANNAH LOGISTICS",
    "2547******123",
    "UMOJA SUPERMARKET",
    "Merchant Payment Online",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn json_logs_carry_request_ids_and_no_personal_data() {
    let capture = support::capture_json_logs();
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
    let key = server.key(&partner("logs"), Sandbox).await;
    let statement = example_statement();
    assert!(String::from_utf8_lossy(&statement).contains(SECRETS[1]));
    let mut request_ids = Vec::new();
    for password in [Some(PASSWORD), None] {
        let (status, headers, body) = server
            .analyse(&key, statement.clone(), password, None, None)
            .await;
        assert_eq!(status, 201, "{}", body["code"]);
        request_ids.push(
            headers
                .get("x-request-id")
                .and_then(|v| v.to_str().ok())
                .expect("request id")
                .to_owned(),
        );
    }
    // A caller's W3C trace context: its trace id is in that request's lines.
    let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
    let traced_id = analyse_traced(&server, &key, statement, trace).await;
    // A failure too: a statement with no rows.
    let (status, _, _) = server
        .analyse(&key, support::statement_csv(0), Some(PASSWORD), None, None)
        .await;
    assert_eq!(status, 422);
    server.stop().await;

    let text = capture.text();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 20, "only {} log lines", lines.len());
    let mut of_requests = 0;
    for (n, line) in lines.iter().enumerate() {
        let parsed: Value =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("log line {n} is not JSON ({e})"));
        assert!(parsed["level"].is_string() && parsed["timestamp"].is_string());
        for secret in SECRETS {
            // (The line itself is not printed: it would be what must not be shown.)
            assert!(
                !line.contains(secret),
                "log line {n} contains a secret or statement text (#{})",
                SECRETS.iter().position(|s| *s == secret).unwrap_or(0)
            );
        }
        let in_request = parsed["spans"]
            .as_array()
            .is_some_and(|spans| spans.iter().any(|s| s["name"] == "request"));
        if in_request {
            of_requests += 1;
            let id = parsed["span"]["request_id"]
                .as_str()
                .or_else(|| {
                    parsed["spans"]
                        .as_array()
                        .and_then(|s| s.iter().find_map(|s| s["request_id"].as_str()))
                })
                .unwrap_or_default();
            assert!(
                id.starts_with("req_"),
                "log line {n} of a request has no id"
            );
        }
    }
    // Each analyse request logged lines under its own id, its summary line among them.
    for id in &request_ids {
        let with_id: Vec<&&str> = lines.iter().filter(|l| l.contains(id.as_str())).collect();
        assert!(with_id.len() >= 2, "{} lines carry {id}", with_id.len());
        assert!(
            with_id
                .iter()
                .any(|l| l.contains("\"message\":\"request\"") && l.contains("\"status\":201")),
            "no summary line for {id}"
        );
    }
    assert!(of_requests >= 6, "{of_requests} lines inside requests");
    assert_traced(&lines, &traced_id, trace);
}

/// An analyse request carrying a W3C `traceparent` of trace `trace`: its request id.
async fn analyse_traced(server: &Server, key: &str, statement: Vec<u8>, trace: &str) -> String {
    let traced = server
        .client
        .post(server.url("/v1/scores/analyse"))
        .bearer_auth(key)
        .header("traceparent", format!("00-{trace}-00f067aa0ba902b7-01"))
        .multipart(reqwest::multipart::Form::new().part(
            "statement",
            reqwest::multipart::Part::bytes(statement).file_name("statement.csv"),
        ))
        .send()
        .await
        .expect("POST");
    assert_eq!(traced.status(), 201);
    traced
        .headers()
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .expect("request id")
        .to_owned()
}

/// Every line of request `request_id` carries trace id `trace`, and no other line does.
fn assert_traced(lines: &[&str], request_id: &str, trace: &str) {
    let traced_lines: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains(request_id))
        .collect();
    assert!(!traced_lines.is_empty());
    assert!(
        traced_lines
            .iter()
            .all(|l| l.contains(&format!("\"trace_id\":\"{trace}\""))),
        "every line of the traced request carries its trace id"
    );
    let with_trace = lines.iter().filter(|l| l.contains(trace)).count();
    assert_eq!(
        with_trace,
        traced_lines.len(),
        "the trace id only in its request's lines"
    );
}
