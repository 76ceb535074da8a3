//! Hardening (issue 12): bounded uploads in flight, slow clients, connection cap and shutdown
//! deadline, and the items after them. Each test starts its own server on a loopback port over
//! SQLite (and PostgreSQL where the behaviour depends on the database).
//!
//! (Over 400 lines: one scenario per hardening item of issue 12, each starting its own server
//! with the limits it exercises; the raw-socket helpers at the top serve them all.)

#[macro_use]
mod support;

use std::time::{Duration, Instant};

use alama_server::Environment::{Live, Sandbox};
use alama_server::Limits;
use support::{Db, Server, assert_problem, partner, statement_csv};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;

on_both_backends!(
    integrity_policy_decides_completed_or_failed,
    the_policy_read_with_the_key_applies_from_the_next_request,
    erasure_and_retention_keep_usage_counts,
    interrupted_analyses_are_swept_and_retried_at_once,
);

/// The canonical JSON statement of a golden vector; with `tamper`, its SUMMARY total is off by
/// KES 1,000 (a critical integrity finding: rows missing or edited).
fn vector_statement(tamper: bool) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/vectors/synthetic-seed1-6m.json");
    let text = std::fs::read_to_string(path).expect("vector");
    let mut vector: serde_json::Value = serde_json::from_str(&text).expect("json");
    let mut input = vector["input"].take();
    if tamper {
        let total = &mut input["summary"]["total"]["paidIn"];
        let paid: f64 = total.as_str().and_then(|t| t.parse().ok()).expect("paidIn");
        *total = serde_json::Value::String(format!("{:.2}", paid + 1000.0));
    }
    serde_json::to_vec(&input).expect("json")
}

async fn integrity_policy_decides_completed_or_failed(db: Db) {
    use alama_server::policy::IntegrityPolicy;
    let server = Server::start(&db).await;
    let accept_name = partner("integrity-accept");
    let reject_name = partner("integrity-reject");
    let accept = server.key(&accept_name, Live).await;
    let reject = server.key(&reject_name, Live).await;
    let accept_consent = server.granted_consent(&accept).await;
    let reject_consent = server.granted_consent(&reject).await;
    server
        .storage
        .set_integrity_policy(&reject_name, IntegrityPolicy::RejectFailed)
        .await
        .expect("policy");
    // A webhook endpoint for the accepting partner (its events stay pending: port 9).
    let accept_owner = server.key_record(&accept).await;
    let owner = alama_server::storage::Owner {
        partner_id: accept_owner.partner_id.clone(),
        environment: Live,
    };
    server
        .storage
        .insert_endpoint(
            &alama_server::ids::new_id("whe"),
            &owner,
            "http://127.0.0.1:9/hook",
            "whsec_dGVzdHRlc3R0ZXN0dGVzdA==",
            alama_server::ids::now_ms(),
        )
        .await
        .expect("endpoint");

    // accept (default): completed, billable, the verdict on the report and in the webhook.
    let got = server
        .analyse(
            &accept,
            vector_statement(true),
            None,
            Some(&accept_consent),
            None,
        )
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    assert_eq!(got.2["integrity"]["status"], "failed", "{}", got.2);
    let id = got.2["reportId"].as_str().expect("id").to_owned();
    let payload: String =
        sqlx::query_scalar("SELECT payload FROM webhook_events WHERE report_id = $1")
            .bind(&id)
            .fetch_one(server.storage.pool())
            .await
            .expect("event");
    let payload: serde_json::Value = serde_json::from_str(&payload).expect("payload");
    assert_eq!(
        payload["data"]["integrity"]["status"], "failed",
        "{payload}"
    );

    // reject_failed: a tampered statement is a failed report, not billable, verdict shown.
    let got = server
        .analyse(
            &reject,
            vector_statement(true),
            None,
            Some(&reject_consent),
            None,
        )
        .await;
    assert_problem(&got, 422, "integrity_failed");
    assert_eq!(got.2["integrity"]["status"], "failed", "{}", got.2);
    let rejected = got.2["reportId"].as_str().expect("reportId").to_owned();
    let (status, _, report) = server.get(&format!("/v1/scores/{rejected}"), &reject).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["status"], "failed");
    assert_eq!(report["error"]["code"], "integrity_failed");
    assert_eq!(report["integrity"]["status"], "failed", "{report}");
    assert!(report["score"].is_null());
    // An intact statement is still completed under reject_failed.
    let got = server
        .analyse(
            &reject,
            vector_statement(false),
            None,
            Some(&reject_consent),
            None,
        )
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    assert_ne!(got.2["integrity"]["status"], "failed", "{}", got.2);

    let (_, _, usage) = server.get("/v1/usage", &reject).await;
    assert_eq!(usage["totals"]["billableUnits"], 1, "{usage}");
    let (_, _, usage) = server.get("/v1/usage", &accept).await;
    assert_eq!(usage["totals"]["billableUnits"], 1, "{usage}");
    server.stop().await;
}

/// The partner's policy is read with its key on every request, so a change decides the next
/// request of the same key; a partner without webhook endpoints (whose reports complete
/// without the outbox's transaction) gets no event.
async fn the_policy_read_with_the_key_applies_from_the_next_request(db: Db) {
    use alama_server::policy::IntegrityPolicy;
    let server = Server::start(&db).await;
    let name = partner("policy-change");
    let key = server.key(&name, Live).await;
    let consent = server.granted_consent(&key).await;
    let tampered = || server.analyse(&key, vector_statement(true), None, Some(&consent), None);
    let got = tampered().await;
    assert_eq!(got.0, 201, "accepted by default: {}", got.2);
    server
        .storage
        .set_integrity_policy(&name, IntegrityPolicy::RejectFailed)
        .await
        .expect("policy");
    assert_problem(&tampered().await, 422, "integrity_failed");

    let partner_id = server.key_record(&key).await.partner_id;
    let events: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM webhook_events WHERE partner_id = $1")
            .bind(&partner_id)
            .fetch_one(server.storage.pool())
            .await
            .expect("count");
    assert_eq!(events, 0);
    let completed: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM reports WHERE partner_id = $1 AND status = 'completed'",
    )
    .bind(&partner_id)
    .fetch_one(server.storage.pool())
    .await
    .expect("count");
    assert_eq!(
        completed, 1,
        "the first report completed without the outbox"
    );
    server.stop().await;
}

async fn connect(server: &Server) -> TcpStream {
    TcpStream::connect(server.base.trim_start_matches("http://"))
        .await
        .expect("connect")
}

/// The head of an analyse upload announcing `length` body bytes, and the body's first bytes.
fn upload_head(server: &Server, key: &str, length: usize) -> Vec<u8> {
    let host = server.base.trim_start_matches("http://");
    format!(
        "POST /v1/scores/analyse HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: {length}\r\n\r\n\
         --XyZ\r\nContent-Disposition: form-data; name=\"statement\"; filename=\"s.csv\"\r\n\r\n\
         Receipt No,Completion Time"
    )
    .into_bytes()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn uploads_wait_unread_for_a_slot_then_get_503() {
    let db = Db::sqlite();
    let limits = Limits {
        max_uploads_in_flight: 1,
        upload_queue_wait: Duration::from_millis(300),
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits).await;
    let key = server.key(&partner("slots"), Sandbox).await;

    // A slow upload holds the only slot.
    let mut holder = connect(&server).await;
    holder
        .write_all(&upload_head(&server, &key, 1_000_000))
        .await
        .expect("write");
    tokio::time::sleep(Duration::from_millis(200)).await;

    let started = Instant::now();
    let got = server
        .analyse(&key, statement_csv(50), None, None, None)
        .await;
    assert_problem(&got, 503, "service_unavailable");
    assert!(got.1.get("retry-after").is_some(), "Retry-After");
    assert!(started.elapsed() >= Duration::from_millis(300));

    // The slot frees when the slow upload goes away; the next upload is analysed.
    drop(holder);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let got = server
        .analyse(&key, statement_csv(50), None, None, None)
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_header_clients_are_disconnected() {
    let db = Db::sqlite();
    let limits = Limits {
        header_read_timeout: Duration::from_millis(500),
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits).await;
    let started = Instant::now();
    let mut slow = connect(&server).await;
    slow.write_all(b"GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n")
        .await
        .expect("write");
    let (_, closed) = support::read_until_closed(&mut slow, Duration::from_secs(5)).await;
    assert!(closed, "the server closed the slow-header connection");
    assert!(started.elapsed() < Duration::from_secs(3));

    // An idle kept-alive connection is closed the same way, after its first answer.
    let mut idle = connect(&server).await;
    idle.write_all(b"GET /v1/openapi.json HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .expect("write");
    let (text, closed) = support::read_until_closed(&mut idle, Duration::from_secs(5)).await;
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    assert!(closed, "the idle kept-alive connection was closed");
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_body_clients_get_408() {
    let db = Db::sqlite();
    let limits = Limits {
        body_idle_timeout: Duration::from_millis(500),
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits).await;
    let key = server.key(&partner("slowbody"), Sandbox).await;
    let started = Instant::now();
    let mut slow = connect(&server).await;
    slow.write_all(&upload_head(&server, &key, 1_000_000))
        .await
        .expect("write");
    let (text, closed) = support::read_until_closed(&mut slow, Duration::from_secs(5)).await;
    assert!(closed, "answered and closed");
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("application/problem+json"), "{text}");
    assert!(text.contains("\"code\":\"request_timeout\""), "{text}");
    assert!(started.elapsed() < Duration::from_secs(4));

    // The upload slot was given back: a normal upload still works.
    let got = server
        .analyse(&key, statement_csv(50), None, None, None)
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connections_past_the_cap_get_503_and_are_closed() {
    let db = Db::sqlite();
    let limits = Limits {
        max_connections: 2,
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits).await;
    let first = connect(&server).await;
    let second = connect(&server).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut third = connect(&server).await;
    let (text, closed) = support::read_until_closed(&mut third, Duration::from_secs(3)).await;
    assert!(closed);
    assert!(text.starts_with("HTTP/1.1 503"), "{text}");
    assert!(text.contains("\"code\":\"service_unavailable\""), "{text}");

    drop(first);
    drop(second);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let r = server
        .client
        .get(server.url("/v1/openapi.json"))
        .send()
        .await
        .expect("GET");
    assert_eq!(r.status().as_u16(), 200);
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_does_not_wait_for_a_slow_client_past_the_deadline() {
    let db = Db::sqlite();
    let limits = Limits {
        shutdown_grace: Duration::from_millis(500),
        body_idle_timeout: Duration::from_mins(1),
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits).await;
    let key = server.key(&partner("shutdown"), Sandbox).await;
    let mut slow = connect(&server).await;
    slow.write_all(&upload_head(&server, &key, 1_000_000))
        .await
        .expect("write");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let started = Instant::now();
    tokio::time::timeout(Duration::from_secs(5), server.stop())
        .await
        .expect("the server stops within its deadline");
    assert!(started.elapsed() < Duration::from_secs(3));
    let (_, closed) = support::read_until_closed(&mut slow, Duration::from_secs(2)).await;
    assert!(closed, "the slow client's connection was closed");
}

/// Every stored column of `table` rows matching `id`, as text (what a database reader sees).
async fn stored_text(server: &Server, sql: &'static str, id: &str) -> String {
    let row = sqlx::query(sql)
        .bind(id)
        .fetch_one(server.storage.pool())
        .await
        .expect("row");
    (0..sqlx::Row::len(&row))
        .map(|i| {
            sqlx::Row::try_get::<String, _>(&row, i)
                .or_else(|_| sqlx::Row::try_get::<i64, _>(&row, i).map(|n| n.to_string()))
                .unwrap_or_default()
        })
        .collect::<Vec<_>>()
        .join("|")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn request_fingerprints_are_keyed_and_never_include_the_password() {
    use sha2::{Digest, Sha256};
    let db = Db::sqlite();
    let server = Server::start(&db).await;
    let key = server.key(&partner("fp"), Sandbox).await;
    let statement = statement_csv(40);
    let password = "31415926";
    let first = server
        .analyse(&key, statement.clone(), Some(password), None, Some("fp-1"))
        .await;
    assert_eq!(first.0, 201, "{}", first.2);
    let id = first.2["reportId"].as_str().expect("id").to_owned();
    let row = stored_text(
        &server,
        "SELECT id, request_fingerprint, COALESCE(report_json, ''), COALESCE(error_detail, '') \
         FROM reports WHERE id = $1",
        &id,
    )
    .await;
    assert!(!row.contains(password), "the password is stored: {row}");
    let fingerprint: String =
        sqlx::query_scalar("SELECT request_fingerprint FROM reports WHERE id = $1")
            .bind(&id)
            .fetch_one(server.storage.pool())
            .await
            .expect("fingerprint");
    assert!(fingerprint.starts_with("v2:"), "{fingerprint}");
    // Not the unkeyed digest of the old scheme, nor of the statement alone.
    let mut old = Sha256::new();
    old.update(Sha256::digest(&statement));
    old.update([0]);
    old.update(password.as_bytes());
    old.update([0]);
    let old = alama_server::ids::hex(&old.finalize());
    assert!(!fingerprint.contains(&old));
    assert!(!fingerprint.contains(&alama_server::ids::hex(&Sha256::digest(&statement))));
    // Keyed by a secret generated once and kept: a second read gives the same key.
    let secret = server
        .storage
        .server_secret("fingerprint_key")
        .await
        .expect("secret");
    assert_eq!(secret.len(), 32);
    assert_eq!(
        server
            .storage
            .server_secret("fingerprint_key")
            .await
            .expect("secret"),
        secret
    );

    // The same key and statement with another password replays (the password is no input).
    let again = server
        .analyse(
            &key,
            statement.clone(),
            Some("27182818"),
            None,
            Some("fp-1"),
        )
        .await;
    assert_eq!(again.0, 201, "{}", again.2);
    assert_eq!(again.2["reportId"], id.as_str());

    // Another server secret (another database) gives another fingerprint for the same request.
    let other_db = Db::sqlite();
    let other = Server::start(&other_db).await;
    let other_key = other.key(&partner("fp"), Sandbox).await;
    let got = other
        .analyse(
            &other_key,
            statement.clone(),
            Some(password),
            None,
            Some("fp-1"),
        )
        .await;
    let other_id = got.2["reportId"].as_str().expect("id").to_owned();
    let stored = |id: String| {
        let pool = other.storage.pool().clone();
        async move {
            sqlx::query_scalar::<_, String>("SELECT request_fingerprint FROM reports WHERE id = $1")
                .bind(id)
                .fetch_one(&pool)
                .await
                .expect("fingerprint")
        }
    };
    let other_fp = stored(other_id).await;
    assert!(other_fp.starts_with("v2:"), "{other_fp}");
    assert_ne!(other_fp, fingerprint);
    // A request without an Idempotency-Key cannot be replayed: it keeps no fingerprint.
    let unkeyed = other
        .analyse(&other_key, statement, Some(password), None, None)
        .await;
    assert_eq!(unkeyed.0, 201, "{}", unkeyed.2);
    let unkeyed_id = unkeyed.2["reportId"].as_str().expect("id").to_owned();
    assert_eq!(stored(unkeyed_id).await, "");
    other.stop().await;
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn extractor_rejections_are_problems() {
    let db = Db::sqlite();
    let server = Server::start(&db).await;
    let key = server.key(&partner("plain"), Sandbox).await;
    // A path segment that is not UTF-8 once percent-decoded.
    let got = server.get("/v1/scores/%ff%fe", &key).await;
    assert_problem(&got, 400, "invalid_request");
    // A JSON body that does not parse, and one of the wrong type.
    for body in ["{not json", "[1, 2]"] {
        let r = server
            .client
            .post(server.url("/v1/consents"))
            .bearer_auth(&key)
            .header("content-type", "application/json")
            .body(body)
            .send()
            .await
            .expect("POST");
        let got = support::split(r).await;
        assert!(
            got.1
                .get("content-type")
                .is_some_and(|v| v.as_bytes() == b"application/problem+json"),
            "{body}: {got:?}"
        );
        assert!((400..500).contains(&got.0), "{body}: {}", got.0);
        assert!(got.2["code"].is_string(), "{}", got.2);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_authentication_is_throttled_per_address() {
    let db = Db::sqlite();
    let limits = Limits {
        auth_failures_per_minute: 3,
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits).await;
    let good = server.key(&partner("throttle"), Sandbox).await;
    // A well-formed key with a valid checksum that does not exist costs a lookup each time.
    let unknown = alama_server::keys::generate(Sandbox);
    for _ in 0..3 {
        assert_problem(
            &server.get("/v1/scores/rpt_x", &unknown).await,
            401,
            "invalid_api_key",
        );
    }
    let got = server.get("/v1/scores/rpt_x", &unknown).await;
    assert_problem(&got, 429, "auth_throttled");
    let retry: u64 = got
        .1
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!((1..=60).contains(&retry), "{retry}");
    // Only failures are refused: a good key from the same address still passes, every time
    // (issue 41; before it, all 5 were refused 429).
    for _ in 0..5 {
        assert_problem(
            &server.get("/v1/scores/rpt_x", &good).await,
            404,
            "report_not_found",
        );
        assert_problem(
            &server.get("/v1/scores/rpt_x", &unknown).await,
            429,
            "auth_throttled",
        );
    }
    // A malformed key is a failure too; a forged X-Forwarded-For (no trusted proxy) changes
    // nothing.
    assert_problem(
        &server
            .get("/v1/scores/rpt_x", "alama_sk_sandbox_nope")
            .await,
        429,
        "auth_throttled",
    );
    let r = server
        .client
        .get(server.url("/v1/scores/rpt_x"))
        .bearer_auth(&unknown)
        .header("x-forwarded-for", "203.0.113.50")
        .send()
        .await
        .expect("GET");
    assert_problem(&support::split(r).await, 429, "auth_throttled");
    server.stop().await;

    // Successful requests never count.
    let limits = Limits {
        auth_failures_per_minute: 2,
        ..Limits::default()
    };
    let db = Db::sqlite();
    let server = Server::start_with(&db, limits).await;
    let good = server.key(&partner("throttle-ok"), Sandbox).await;
    for _ in 0..5 {
        assert_eq!(server.get("/v1/scores/rpt_x", &good).await.0, 404);
    }
    server.stop().await;
}

// One scenario end to end: masking, DELETE, erasure on revocation, retention, usage.
#[allow(clippy::too_many_lines)]
async fn erasure_and_retention_keep_usage_counts(db: Db) {
    // Its retention pass erases everything older than tomorrow: on a database of its own.
    let db = db.own("alama_retention_test").await;
    let server = Server::start(&db).await;
    let key = server.key(&partner("privacy"), Live).await;
    let consent = server.granted_consent(&key).await;
    let holder = {
        let v: serde_json::Value =
            serde_json::from_slice(&vector_statement(false)).expect("statement");
        v["holder"]["name"]
            .as_str()
            .expect("holder name")
            .to_owned()
    };

    // The holder's name is stored (and answered) masked.
    let got = server
        .analyse(&key, vector_statement(false), None, Some(&consent), None)
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    let first = got.2["reportId"].as_str().expect("id").to_owned();
    let shown = got.2["statement"]["holderName"].as_str().expect("name");
    assert_ne!(shown, holder);
    assert!(shown.contains('*'), "{shown}");
    let stored: String = sqlx::query_scalar("SELECT report_json FROM reports WHERE id = $1")
        .bind(&first)
        .fetch_one(server.storage.pool())
        .await
        .expect("stored");
    assert!(!stored.contains(&holder), "the full name is stored");

    // DELETE erases: the report is gone for good, still billed.
    let r = server
        .client
        .delete(server.url(&format!("/v1/scores/{first}")))
        .bearer_auth(&key)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(r.status().as_u16(), 204);
    assert_problem(
        &server.get(&format!("/v1/scores/{first}"), &key).await,
        404,
        "report_not_found",
    );
    let r = server
        .client
        .delete(server.url(&format!("/v1/scores/{first}")))
        .bearer_auth(&key)
        .send()
        .await
        .expect("DELETE");
    assert_problem(&support::split(r).await, 404, "report_not_found");
    let stub: (Option<String>, Option<i64>, String) = {
        let row = sqlx::query("SELECT report_json, score, status FROM reports WHERE id = $1")
            .bind(&first)
            .fetch_one(server.storage.pool())
            .await
            .expect("stub");
        (
            sqlx::Row::get(&row, 0),
            sqlx::Row::get(&row, 1),
            sqlx::Row::get(&row, 2),
        )
    };
    assert_eq!(stub, (None, None, "completed".to_owned()));

    // Revoking the consent with eraseReports erases what was derived from it.
    let got = server
        .analyse(&key, vector_statement(false), None, Some(&consent), None)
        .await;
    let second = got.2["reportId"].as_str().expect("id").to_owned();
    let (status, _, _) = server
        .post_json(
            &format!("/v1/consents/{consent}/revoke"),
            &key,
            &serde_json::json!({"reason": "customer asked", "eraseReports": true}),
        )
        .await;
    assert_eq!(status, 200);
    assert_problem(
        &server.get(&format!("/v1/scores/{second}"), &key).await,
        404,
        "report_not_found",
    );

    // Retention: consents, request logs and reports past the period go; usage stays.
    let (_, _, before) = server.get("/v1/usage", &key).await;
    assert_eq!(before["totals"]["billableUnits"], 2, "{before}");
    let now = alama_server::ids::now_ms();
    let done = server
        .storage
        .apply_retention(now + 86_400_000, now)
        .await
        .expect("retention");
    assert!(done.consents >= 1 && done.requests >= 1, "{done:?}");
    assert_problem(
        &server.get(&format!("/v1/consents/{consent}"), &key).await,
        404,
        "consent_not_found",
    );
    let (_, _, after) = server.get("/v1/usage", &key).await;
    assert_eq!(after["totals"]["billableUnits"], 2, "{after}");
    assert_eq!(
        after["totals"]["analyses"]["submitted"],
        before["totals"]["analyses"]["submitted"]
    );
    let total = |u: &serde_json::Value| u["totals"]["requests"]["total"].as_i64().expect("total");
    // Two more: the first usage request and the consent GET, both recorded since then.
    assert_eq!(total(&after), total(&before) + 2, "{before}\n{after}");
    server.stop().await;
}

/// Claims a `processing` report as a server that then died: its own storage (a new server
/// id) that never writes a heartbeat.
async fn claim_as_dead_server(
    db: &Db,
    server: &Server,
    key: &str,
    statement: &[u8],
    idempotency_key: Option<&str>,
) -> String {
    use alama_server::storage::{Claim, NewReport, Storage};
    let caller = server.key_record(key).await;
    let secret = server
        .storage
        .server_secret("fingerprint_key")
        .await
        .expect("secret");
    let dead = Storage::connect(&db.url).await.expect("connect");
    let id = alama_server::ids::new_id("rpt");
    let claim = dead
        .claim_report(&NewReport {
            id: id.clone(),
            owner: alama_server::storage::Owner {
                partner_id: caller.partner_id.clone(),
                environment: Sandbox,
            },
            api_key_id: caller.id.clone(),
            consent_id: None,
            idempotency_key: idempotency_key.map(str::to_owned),
            request_fingerprint: alama_server::api::scores::request_fingerprint(
                &secret, statement, None,
            )
            .expect("fingerprint"),
            statement_format: "csv".into(),
            statement_bytes: 1,
            created_at: alama_server::ids::now_ms(),
        })
        .await
        .expect("claim");
    assert_eq!(claim, Claim::Created);
    dead.close().await;
    id
}

async fn interrupted_analyses_are_swept_and_retried_at_once(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("crash"), Sandbox).await;
    let statement = statement_csv(30);

    // A retry with the Idempotency-Key of an analysis whose server died runs at once.
    let crashed = claim_as_dead_server(&db, &server, &key, &statement, Some("crash-1")).await;
    let got = server
        .analyse(&key, statement.clone(), None, None, Some("crash-1"))
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    assert_ne!(got.2["reportId"], crashed.as_str());
    assert!(got.1.get("idempotent-replayed").is_none());
    let (_, _, old) = server.get(&format!("/v1/scores/{crashed}"), &key).await;
    assert_eq!(old["status"], "failed", "{old}");
    assert_eq!(old["error"]["code"], "analysis_interrupted");
    // The key now belongs to the new report.
    let again = server
        .analyse(&key, statement.clone(), None, None, Some("crash-1"))
        .await;
    assert_eq!(again.0, 201);
    assert_eq!(again.2["reportId"], got.2["reportId"]);

    // The sweeper fails an interrupted analysis nobody asks about (within a few seconds).
    let orphan = claim_as_dead_server(&db, &server, &key, &statement, None).await;
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let status: String = sqlx::query_scalar("SELECT status FROM reports WHERE id = $1")
            .bind(&orphan)
            .fetch_one(server.storage.pool())
            .await
            .expect("status");
        if status == "failed" {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the sweeper never failed {orphan}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let code: Option<String> = sqlx::query_scalar("SELECT error_code FROM reports WHERE id = $1")
        .bind(&orphan)
        .fetch_one(server.storage.pool())
        .await
        .expect("code");
    assert_eq!(code.as_deref(), Some("analysis_interrupted"));

    // A live server's analysis is not taken for interrupted.
    assert_eq!(
        server
            .storage
            .fail_interrupted(0, 0, alama_server::ids::now_ms())
            .await
            .expect("sweep"),
        0
    );
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_rate_limit_is_shared_across_replicas() {
    let Some(db) = Db::postgres() else {
        eprintln!("skipped: ALAMA_TEST_POSTGRES_URL is not set (server/ci-postgres.sh starts one)");
        return;
    };
    let limits = Limits {
        rate_per_minute: 1,
        rate_burst: 4,
        ..Limits::default()
    };
    let a = Server::start_with(&db, limits.clone()).await;
    let b = Server::start_with(&db, limits).await;
    let key = a.key(&partner("shared-rate"), Sandbox).await;
    let mut allowed = 0;
    let mut refused = 0;
    for i in 0..10 {
        let server = if i % 2 == 0 { &a } else { &b };
        match server.get("/v1/scores/rpt_x", &key).await.0 {
            404 => allowed += 1,
            429 => refused += 1,
            other => panic!("unexpected {other}"),
        }
    }
    assert_eq!(
        (allowed, refused),
        (4, 6),
        "the burst holds across both replicas"
    );
    a.stop().await;
    b.stop().await;
}

/// An upload refused before its body is read (here: an unknown key) still gets its answer while
/// the client goes on sending: the server half-closes and drains briefly (lingering close)
/// instead of resetting the connection, which a client sees as `EPIPE` (the portal browser
/// test's revoked-key upload failed this way).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_upload_still_reads_its_answer() {
    let db = Db::sqlite();
    let server = Server::start(&db).await;
    for _ in 0..3 {
        let length = 4 * 1024 * 1024;
        let mut stream = connect(&server).await;
        let head = upload_head(&server, "ak_test_unknown", length);
        let body_len = length - (head.len() - head.iter().position(|&b| b == b'-').unwrap_or(0));
        stream.write_all(&head).await.expect("write head");
        // Give the server time to answer and close before the body follows.
        tokio::time::sleep(Duration::from_millis(100)).await;
        let sent = stream.write_all(&vec![b'x'; body_len]).await;
        assert!(sent.is_ok(), "the body could be sent: {sent:?}");
        let (text, closed) = support::read_until_closed(&mut stream, Duration::from_secs(5)).await;
        assert!(closed);
        assert!(text.starts_with("HTTP/1.1 401"), "{text}");
        assert!(text.contains("application/problem+json"), "{text}");
    }
    server.stop().await;
}
