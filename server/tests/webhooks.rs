//! `score.completed` and `application.completed` webhooks over real HTTP: a loopback receiver (allowed by the test's
//! `allow_private` setting, as `--allow-private-webhook-urls` does) checks signature, headers and
//! payload; retries, failures, restarts, usage counts and the `alama webhooks` commands.
//! (Over 400 lines: one feature's suite, seven scenarios sharing the loopback receiver below.)

#[macro_use]
mod support;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use alama_server::Environment::{self, Live, Sandbox};
use alama_server::storage::{Owner, Storage};
use alama_server::webhooks::{self, WebhookConfig, signing};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use serde_json::Value;
use sqlx::Row;
use support::{Db, Server, partner, statement_csv};

on_both_backends!(
    signed_events_are_retried_until_200,
    silent_receivers_fail_without_stalling_others,
    events_survive_a_restart,
    cli_webhooks_add_list_remove,
    stopping_finishes_the_deliveries_in_flight,
    deliveries_continue_the_callers_trace,
    applications_send_application_completed,
);

/// What the receiver saw: headers and body of every request.
type Seen = Arc<Mutex<Vec<(HeaderMap, String)>>>;

/// A loopback receiver answering `script[n]` to its n-th request (the last one after that);
/// status 0 means never answer.
async fn receiver(script: Vec<u16>) -> (String, Seen) {
    receiver_after(script, Duration::ZERO).await
}

/// [`receiver`], answering each request `delay` after it arrived.
async fn receiver_after(script: Vec<u16>, delay: Duration) -> (String, Seen) {
    let seen: Seen = Arc::default();
    let state = (seen.clone(), Arc::new(script));
    let app = axum::Router::new()
        .route(
            "/hook",
            axum::routing::post(
                move |State((seen, script)): State<(Seen, Arc<Vec<u16>>)>,
                      headers: HeaderMap,
                      body: String| async move {
                    let n = {
                        let mut seen = seen.lock().expect("lock");
                        seen.push((headers, body));
                        seen.len()
                    };
                    let status = script.get(n - 1).or(script.last()).copied().unwrap_or(200);
                    tokio::time::sleep(delay).await;
                    if status == 0 {
                        std::future::pending::<()>().await;
                    }
                    StatusCode::from_u16(status).expect("status")
                },
            ),
        )
        .with_state(state);
    let (addr, _) = support::serve_loopback(app).await;
    (format!("http://{addr}/hook"), seen)
}

/// Every test uses the same settings: on a shared PostgreSQL database the workers of
/// concurrent tests claim each other's events, as replicas do.
fn config() -> WebhookConfig {
    let schedule = vec![Duration::from_millis(150); 2];
    WebhookConfig {
        allow_private: true,
        live_schedule: schedule.clone(),
        sandbox_schedule: schedule,
        timeout: Duration::from_millis(500),
        poll_interval: Duration::from_millis(50),
        ..WebhookConfig::default()
    }
}

async fn register(
    server: &Server,
    key_partner: &str,
    env: Environment,
    url: &str,
) -> (String, String) {
    let p = server
        .storage
        .ensure_partner(key_partner)
        .await
        .expect("partner");
    let owner = Owner {
        partner_id: p.id,
        environment: env,
    };
    let (id, secret) = webhooks::register(&server.storage, &owner, url, true)
        .await
        .expect("register");
    (id, secret)
}

/// Status and attempts of the events of `report`.
async fn events(server: &Server, report: &str) -> Vec<(String, i64)> {
    sqlx::query("SELECT status, attempts FROM webhook_events WHERE report_id = $1 ORDER BY id")
        .bind(report)
        .fetch_all(server.storage.pool())
        .await
        .expect("events")
        .iter()
        .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1)))
        .collect()
}

async fn wait_for(server: &Server, report: &str, want: &[&str]) -> Vec<(String, i64)> {
    for _ in 0..200 {
        let got = events(server, report).await;
        let mut statuses: Vec<&str> = got.iter().map(|(s, _)| s.as_str()).collect();
        statuses.sort_unstable();
        if statuses == want {
            return got;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!(
        "events of {report} never became {want:?}: {:?}",
        events(server, report).await
    );
}

async fn analyse(server: &Server, key: &str, env: Environment) -> String {
    let consent = match env {
        Live => Some(server.granted_consent(key).await),
        Sandbox => None,
    };
    let (status, _, report) = server
        .analyse(key, statement_csv(80), None, consent.as_deref(), None)
        .await;
    assert_eq!(status, 201, "{report}");
    report["reportId"].as_str().expect("id").to_owned()
}

async fn signed_events_are_retried_until_200(db: Db) {
    let server = Server::start_webhooks(&db, config()).await;
    let name = partner("hooks");
    let key = server.key(&name, Live).await;
    let (url, seen) = receiver(vec![500, 500, 200]).await;
    let (endpoint, secret) = register(&server, &name, Live, &url).await;
    // A private URL is refused without the flag.
    let p = server.storage.ensure_partner(&name).await.expect("partner");
    let owner = Owner {
        partner_id: p.id,
        environment: Live,
    };
    assert!(
        webhooks::register(&server.storage, &owner, &url, false)
            .await
            .is_err()
    );

    let report = analyse(&server, &key, Live).await;
    let got = wait_for(&server, &report, &["delivered"]).await;
    assert_eq!(got, vec![("delivered".to_owned(), 3)]);
    let seen = seen.lock().expect("lock").clone();
    assert_eq!(seen.len(), 3, "three attempts");
    let first_id = seen[0]
        .0
        .get("webhook-id")
        .and_then(|v| v.to_str().ok())
        .expect("id")
        .to_owned();
    for (headers, body) in &seen {
        let h = |n: &str| {
            headers
                .get(n)
                .and_then(|v| v.to_str().ok())
                .expect(n)
                .to_owned()
        };
        assert_eq!(h("content-type"), "application/json");
        assert_eq!(h("webhook-id"), first_id, "the same id on every retry");
        let ts: i64 = h("webhook-timestamp").parse().expect("timestamp");
        let now = alama_server::ids::now_ms() / 1000;
        assert!((now - 60..=now).contains(&ts), "{ts}");
        assert_eq!(
            Some(h("webhook-signature")),
            signing::sign(&secret, &first_id, ts, body.as_bytes())
        );
        let payload: Value = serde_json::from_str(body).expect("json");
        assert_eq!(payload["id"], first_id.as_str());
        assert_eq!(payload["type"], "score.completed");
        assert_eq!(payload["environment"], "live");
        assert!(
            payload["createdAt"]
                .as_str()
                .is_some_and(|t| t.ends_with('Z'))
        );
        assert_eq!(payload["data"]["reportId"], report.as_str());
        assert_eq!(payload["data"]["status"], "completed");
    }
    // The portal's list shows the counts and the delivery rate.
    let mut out = Vec::new();
    let list = alama_server::cli::WebhooksCommand::List {
        db: alama_server::cli::DatabaseArgs {
            database: db.url.clone(),
        },
    };
    alama_server::cli::webhooks_command(&list, &mut out, &mut Vec::new())
        .await
        .expect("list");
    let list = String::from_utf8(out).expect("utf8");
    let row = list.lines().find(|l| l.contains(&endpoint)).expect("row");
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[4..9], ["1", "1", "0", "0", "100.0%"], "{row}");
    // The partner sees the event and its delivery rate.
    let (status, _, usage) = server.get("/v1/usage", &key).await;
    assert_eq!(status, 200, "{usage}");
    assert_eq!(
        usage["totals"]["webhooks"],
        serde_json::json!({"events": 1, "delivered": 1, "failed": 0, "pending": 0, "deliveryRate": 1.0})
    );
    server.stop().await;
}

async fn silent_receivers_fail_without_stalling_others(db: Db) {
    let server = Server::start_webhooks(&db, config()).await;
    let name = partner("silent");
    let key = server.key(&name, Sandbox).await;
    let (silent, silent_seen) = receiver(vec![0]).await;
    let (ok, ok_seen) = receiver(vec![200]).await;
    register(&server, &name, Sandbox, &silent).await;
    register(&server, &name, Sandbox, &ok).await;
    let started = std::time::Instant::now();
    let report = analyse(&server, &key, Sandbox).await;
    // The good endpoint is served while the other hangs.
    for _ in 0..100 {
        if !ok_seen.lock().expect("lock").is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert_eq!(ok_seen.lock().expect("lock").len(), 1);
    let got = wait_for(&server, &report, &["delivered", "failed"]).await;
    assert!(got.contains(&("failed".to_owned(), 3)), "{got:?}");
    assert_eq!(silent_seen.lock().expect("lock").len(), 3);
    assert!(
        started.elapsed() >= Duration::from_millis(1_500),
        "three time-outs"
    );
    server.stop().await;
}

async fn events_survive_a_restart(db: Db) {
    let name = partner("restart");
    let (url, seen) = receiver(vec![200]).await;
    // The report completes on a server that stops before its worker delivers anything.
    let stopped = WebhookConfig {
        enabled: false,
        ..config()
    };
    let server = Server::start_webhooks(&db, stopped).await;
    let key = server.key(&name, Live).await;
    register(&server, &name, Live, &url).await;
    let report = analyse(&server, &key, Live).await;
    if db.url.starts_with("sqlite") {
        // (On a shared PostgreSQL database another test's worker may already have it.)
        assert_eq!(
            events(&server, &report).await,
            vec![("pending".to_owned(), 0)]
        );
        assert!(seen.lock().expect("lock").is_empty());
    }
    server.stop().await;

    // The event is in the outbox: a restarted server delivers it.
    let server = Server::start_webhooks(&db, config()).await;
    let got = wait_for(&server, &report, &["delivered"]).await;
    assert_eq!(got, vec![("delivered".to_owned(), 1)]);
    assert_eq!(seen.lock().expect("lock").len(), 1);
    server.stop().await;
}

async fn cli_webhooks_add_list_remove(db: Db) {
    use alama_server::cli::{DatabaseArgs, WebhooksCommand, webhooks_command};
    let args = DatabaseArgs {
        database: db.url.clone(),
    };
    let name = partner("cli");
    let add = |url: &str, allow: bool| WebhooksCommand::Add {
        partner: name.clone(),
        environment: Live,
        url: url.to_owned(),
        allow_private_webhook_urls: allow,
        db: args.clone(),
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let refused =
        webhooks_command(&add("http://127.0.0.1:9/hook", false), &mut out, &mut err).await;
    assert!(refused.is_err_and(|e| e.contains("private")));
    webhooks_command(&add("http://127.0.0.1:9/hook", true), &mut out, &mut err)
        .await
        .expect("add");
    let secret = String::from_utf8(out).expect("utf8");
    assert!(
        secret.trim().starts_with("whsec_") && secret.lines().count() == 1,
        "{secret}"
    );
    let note = String::from_utf8(err).expect("utf8");
    let id = note
        .split_whitespace()
        .find(|w| w.starts_with("whe_"))
        .expect("id")
        .to_owned();

    let mut out = Vec::new();
    webhooks_command(
        &WebhooksCommand::List { db: args.clone() },
        &mut out,
        &mut Vec::new(),
    )
    .await
    .expect("list");
    let list = String::from_utf8(out).expect("utf8");
    assert!(list.contains(&id) && list.contains("http://127.0.0.1:9/hook"));
    assert!(!list.contains("whsec_"), "secrets are not listed");
    let row = list.lines().find(|l| l.contains(&id)).expect("row");
    let cells: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(&cells[4..9], ["0", "0", "0", "0", "-"], "{row}");

    let remove = WebhooksCommand::Remove {
        id: id.clone(),
        db: args.clone(),
    };
    webhooks_command(&remove, &mut Vec::new(), &mut Vec::new())
        .await
        .expect("remove");
    assert!(
        webhooks_command(&remove, &mut Vec::new(), &mut Vec::new())
            .await
            .is_err()
    );
}

async fn stopping_finishes_the_deliveries_in_flight(db: Db) {
    let server = Server::start_webhooks(&db, config()).await;
    let name = partner("drain");
    let key = server.key(&name, Live).await;
    let (url, seen) = receiver_after(vec![200], Duration::from_millis(300)).await;
    register(&server, &name, Live, &url).await;
    let report = analyse(&server, &key, Live).await;
    for _ in 0..200 {
        if !seen.lock().expect("lock").is_empty() {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    assert_eq!(
        seen.lock().expect("lock").len(),
        1,
        "an attempt is in flight"
    );
    // Stopping waits for the answer and records it: the attempt is not left to its lease.
    server.stop().await;
    let storage = Storage::connect(&db.url).await.expect("reconnect");
    let delivered = || async {
        sqlx::query("SELECT status, attempts FROM webhook_events WHERE report_id = $1")
            .bind(&report)
            .fetch_all(storage.pool())
            .await
            .expect("events")
            .iter()
            .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1)))
            .collect::<Vec<_>>()
    };
    let want = vec![("delivered".to_owned(), 1)];
    if db.url.starts_with("postgres") {
        // (On a shared PostgreSQL database another test's worker may hold it; it drains too.)
        for _ in 0..100 {
            if delivered().await == want {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    assert_eq!(delivered().await, want);
    assert_eq!(seen.lock().expect("lock").len(), 1, "sent once");
    storage.close().await;
}

/// A W3C `traceparent` sent on the analyse request comes back on the delivery of its event: the
/// same trace id and flags, a new parent id (the delivery's), on every attempt; an analysis
/// without one sends none (OpenTelemetry export is off in this test binary).
async fn deliveries_continue_the_callers_trace(db: Db) {
    let server = Server::start_webhooks(&db, config()).await;
    let name = partner("traced");
    let key = server.key(&name, Sandbox).await;
    let (url, seen) = receiver(vec![500, 200]).await;
    register(&server, &name, Sandbox, &url).await;
    let (trace, parent) = ("0af7651916cd43dd8448eb211c80319c", "b7ad6b7169203331");
    let (status, _, body) = server
        .analyse_traced(&key, statement_csv(40), &format!("00-{trace}-{parent}-01"))
        .await;
    assert_eq!(status, 201, "{body}");
    let report = body["reportId"].as_str().expect("id").to_owned();
    wait_for(&server, &report, &["delivered"]).await;
    let untraced = analyse(&server, &key, Sandbox).await;
    wait_for(&server, &untraced, &["delivered"]).await;
    server.stop().await;
    let seen = seen.lock().expect("lock").clone();
    assert_eq!(seen.len(), 3, "two attempts, then one");
    for (headers, body) in &seen[..2] {
        assert!(body.contains(&report));
        let sent = headers
            .get("traceparent")
            .and_then(|v| v.to_str().ok())
            .expect("a traceparent on the delivery");
        let parts: Vec<&str> = sent.split('-').collect();
        assert_eq!(parts.len(), 4, "{sent}");
        assert_eq!(
            (parts[0], parts[1], parts[3]),
            ("00", trace, "01"),
            "{sent}"
        );
        assert!(parts[2].len() == 16 && parts[2] != parent, "{sent}");
    }
    assert!(seen[2].1.contains(&untraced));
    assert!(seen[2].0.get("traceparent").is_none());
}

/// An application's event: `application.completed`, signed like the others, its data naming
/// the application.
async fn applications_send_application_completed(db: Db) {
    let server = Server::start_webhooks(&db, config()).await;
    let name = partner("hooks-app");
    let key = server.key(&name, Sandbox).await;
    let (url, seen) = receiver(vec![200]).await;
    let (_, secret) = register(&server, &name, Sandbox, &url).await;
    let form = reqwest::multipart::Form::new()
        .part(
            "statement",
            reqwest::multipart::Part::bytes(statement_csv(80)).file_name("a.csv"),
        )
        .part(
            "statement",
            reqwest::multipart::Part::bytes(statement_csv(60)).file_name("b.csv"),
        );
    let r = server
        .client
        .post(server.url("/v1/applications"))
        .bearer_auth(&key)
        .multipart(form)
        .send()
        .await
        .expect("POST applications");
    let (status, _, application) = support::split(r).await;
    assert_eq!(status, 201, "{application}");
    let id = application["applicationId"].as_str().expect("id");
    wait_for(&server, id, &["delivered"]).await;
    let seen = seen.lock().expect("lock").clone();
    let (headers, body) = seen.first().expect("delivered");
    let h = |n: &str| headers.get(n).and_then(|v| v.to_str().ok()).expect(n);
    let ts: i64 = h("webhook-timestamp").parse().expect("timestamp");
    assert_eq!(
        Some(h("webhook-signature").to_owned()),
        signing::sign(&secret, h("webhook-id"), ts, body.as_bytes())
    );
    let payload: Value = serde_json::from_str(body).expect("json");
    assert_eq!(payload["type"], "application.completed");
    assert_eq!(payload["data"]["applicationId"], id);
    assert!(payload["data"].get("reportId").is_none(), "{payload}");
    assert_eq!(
        payload["data"]["integrity"]["status"],
        application["integrity"]["status"]
    );
    server.stop().await;
}
