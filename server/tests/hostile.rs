//! Issue 41, what a hostile partner measured from outside: erased reports readable in the
//! SQLite files, a failed-auth throttle that locked out valid keys (and, behind a proxy, every
//! partner), a portal sign-in lock that kept an account's owner out, and two protocol edges
//! (a raw non-UTF-8 request line, two `Authorization` headers). Each test starts its own server
//! on a loopback port over SQLite.
//!
//! (Over 400 lines: one scenario per finding of the hostile partner, kept together so the
//! issue's findings read as one list.)

#[allow(unused_macros, unused_imports)]
#[macro_use]
mod support;

use alama_server::Environment::{Live, Sandbox};
use alama_server::Limits;
use support::{Db, Server, assert_problem, partner};

/// The canonical JSON statement of a golden vector (holder name and phone included).
fn vector_statement() -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/vectors/synthetic-seed1-6m.json");
    let text = std::fs::read_to_string(path).expect("vector");
    let vector: serde_json::Value = serde_json::from_str(&text).expect("json");
    serde_json::to_vec(&vector["input"]).expect("json")
}

/// The SQLite files of `db`: the database and its write-ahead log.
fn sqlite_files(db: &Db) -> Vec<std::path::PathBuf> {
    let path = db.url.strip_prefix("sqlite://").expect("a SQLite URL");
    vec![path.into(), format!("{path}-wal").into()]
}

/// Pieces of a stored report that only its content holds (never the report id, which the
/// erasure stub keeps): the masked holder name, the score and band fields, and windows of the
/// JSON text at several places.
fn needles(report_json: &str, report_id: &str) -> Vec<Vec<u8>> {
    let report: serde_json::Value = serde_json::from_str(report_json).expect("report");
    let mut out = Vec::new();
    if let Some(name) = report["statement"]["holderName"].as_str() {
        out.push(format!("\"holderName\":\"{name}\"").into_bytes());
    }
    let bytes = report_json.as_bytes();
    for part in 1..8 {
        let start = bytes.len() * part / 8;
        let window = &bytes[start..(start + 40).min(bytes.len())];
        if !window
            .windows(report_id.len())
            .any(|w| w == report_id.as_bytes())
        {
            out.push(window.to_vec());
        }
    }
    out
}

/// How many times any of `needles` occurs in the SQLite files of `db` (a missing file counts
/// nothing).
fn copies_on_disk(db: &Db, needles: &[Vec<u8>]) -> (usize, usize) {
    let count = |path: &std::path::Path| {
        let data = std::fs::read(path).unwrap_or_default();
        needles
            .iter()
            .map(|n| data.windows(n.len()).filter(|w| w == n).count())
            .sum::<usize>()
    };
    let files = sqlite_files(db);
    (count(&files[0]), count(&files[1]))
}

async fn stored_report(server: &Server, id: &str) -> String {
    sqlx::query_scalar("SELECT report_json FROM reports WHERE id = $1")
        .bind(id)
        .fetch_one(server.storage.pool())
        .await
        .expect("stored report")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn erased_reports_leave_no_copy_in_the_sqlite_files() {
    let db = Db::sqlite();
    let server = Server::start(&db).await;
    let key = server.key(&partner("erase-disk"), Live).await;
    let consent = server.granted_consent(&key).await;

    // DELETE /v1/scores/{id}.
    let got = server
        .analyse(&key, vector_statement(), None, Some(&consent), None)
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    let first = got.2["reportId"].as_str().expect("id").to_owned();
    let first_needles = needles(&stored_report(&server, &first).await, &first);
    assert!(first_needles.len() >= 6, "{}", first_needles.len());
    let before = copies_on_disk(&db, &first_needles);
    assert!(before.0 + before.1 > 0, "the report is not on disk at all");
    let r = server
        .client
        .delete(server.url(&format!("/v1/scores/{first}")))
        .bearer_auth(&key)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(r.status().as_u16(), 204);
    let after = copies_on_disk(&db, &first_needles);
    eprintln!("DELETE: copies (db, wal) before erasure {before:?}, after {after:?}");
    assert_eq!(after, (0, 0), "copies of the erased report (db, wal)");

    // Consent revocation with erasure.
    let got = server
        .analyse(&key, vector_statement(), None, Some(&consent), None)
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    let second = got.2["reportId"].as_str().expect("id").to_owned();
    let second_needles = needles(&stored_report(&server, &second).await, &second);
    // In the database file itself, not only in the log: secure_delete has to zero it there.
    sqlx::query("PRAGMA wal_checkpoint(TRUNCATE)")
        .execute(server.storage.pool())
        .await
        .expect("checkpoint");
    let before = copies_on_disk(&db, &second_needles);
    assert!(before.0 > 0, "the report is not in the database file");
    let (status, _, body) = server
        .post_json(
            &format!("/v1/consents/{consent}/revoke"),
            &key,
            &serde_json::json!({"eraseReports": true}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let after = copies_on_disk(&db, &second_needles);
    eprintln!("revocation: copies (db, wal) before erasure {before:?}, after {after:?}");
    assert_eq!(after, (0, 0), "copies of the erased report (db, wal)");

    // The stub that keeps usage counts is still there.
    let status: String = sqlx::query_scalar("SELECT status FROM reports WHERE id = $1")
        .bind(&first)
        .fetch_one(server.storage.pool())
        .await
        .expect("stub");
    assert_eq!(status, "completed");
    assert_problem(
        &server.get(&format!("/v1/scores/{first}"), &key).await,
        404,
        "report_not_found",
    );
    server.stop().await;
}

on_both_backends!(a_revoked_erased_consent_keeps_its_evidence_not_the_customer);

/// Issue 52: a consent revoked with erasure kept the customer's name and phone number, served
/// by `GET /v1/consents/{id}` and on disk, until retention deleted the whole consent 90 days
/// later. Erasure now deletes them and keeps the evidence of consent with a keyed fingerprint
/// of them, against which a later claim is checked.
async fn a_revoked_erased_consent_keeps_its_evidence_not_the_customer(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("erase-consent"), Live).await;
    let (name, phone) = ("Wanjiku Testcase Mwangi", "+254 711 222 333");
    let (status, _, created) = server
        .post_json(
            "/v1/consents",
            &key,
            &serde_json::json!({"customerReference": "APP-52", "purpose": "credit_scoring",
                "customerName": name, "customerPhone": phone}),
        )
        .await;
    assert_eq!(status, 201, "{created}");
    let id = created["consentId"].as_str().expect("id").to_owned();
    let (status, _, granted) = server
        .post_json(
            &format!("/v1/consents/{id}/grant"),
            &key,
            &serde_json::json!({"method": "ussd", "noticeSha256": created["notice"]["sha256"],
                "evidence": "otp-77"}),
        )
        .await;
    assert_eq!(status, 200, "{granted}");
    let got = server
        .analyse(&key, vector_statement(), None, Some(&id), None)
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    let verify = |claim: serde_json::Value| {
        let (server, key, id) = (&server, &key, &id);
        async move {
            let (status, _, body) = server
                .post_json(&format!("/v1/consents/{id}/verify-customer"), key, &claim)
                .await;
            assert_eq!(status, 200, "{body}");
            body
        }
    };
    let right = serde_json::json!({"customerName": "wanjiku  testcase mwangi",
        "customerPhone": "254711222333"});
    let wrong = serde_json::json!({"customerName": name, "customerPhone": "+254 711 222 334"});
    assert_eq!(verify(right.clone()).await["matches"], true);
    assert_eq!(verify(wrong.clone()).await["matches"], false);

    let (status, _, revoked) = server
        .post_json(
            &format!("/v1/consents/{id}/revoke"),
            &key,
            &serde_json::json!({"eraseReports": true, "reason": "customer asked"}),
        )
        .await;
    assert_eq!(status, 200, "{revoked}");
    let (status, _, stored) = server.get(&format!("/v1/consents/{id}"), &key).await;
    assert_eq!(status, 200);
    for (answer, what) in [(&revoked, "revoke"), (&stored, "GET")] {
        assert!(answer["customerName"].is_null(), "{what}: {answer}");
        assert!(answer["customerPhone"].is_null(), "{what}: {answer}");
        assert!(answer["erasedAt"].is_string(), "{what}: {answer}");
        // The evidence of consent stays (s. 32(1)).
        assert_eq!(answer["status"], "revoked");
        assert_eq!(answer["purpose"], "credit_scoring");
        assert_eq!(answer["customerReference"], "APP-52");
        assert_eq!(answer["notice"], created["notice"]);
        assert_eq!(answer["grantMethod"], "ussd");
        assert_eq!(answer["grantEvidence"], "otp-77");
        assert_eq!(answer["grantedAt"], granted["grantedAt"]);
        assert_eq!(answer["createdAt"], created["createdAt"]);
        assert_eq!(answer["revokeReason"], "customer asked");
        assert!(!answer.to_string().contains("Wanjiku"), "{what}: {answer}");
    }
    // A later claim is still checked, through the kept fingerprint.
    let after = verify(right).await;
    assert_eq!(
        (after["matches"].clone(), after["erased"].clone()),
        (true.into(), true.into())
    );
    assert_eq!(verify(wrong).await["matches"], false);
    assert_eq!(
        verify(serde_json::json!({"customerPhone": phone})).await["matches"],
        false,
        "a claim of the number alone is not the consent's customer (both were given)"
    );
    // Revoking with erasure again changes nothing of it.
    let (status, _, again) = server
        .post_json(
            &format!("/v1/consents/{id}/revoke"),
            &key,
            &serde_json::json!({"eraseReports": true}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(again["erasedAt"], stored["erasedAt"]);
    // Nor the name nor the number is left in the SQLite files.
    if db.url.starts_with("sqlite:") {
        let needles = [name.as_bytes().to_vec(), phone.as_bytes().to_vec()];
        assert_eq!(
            copies_on_disk(&db, &needles),
            (0, 0),
            "name or phone on disk (db, wal)"
        );
    }
    server.stop().await;
}

/// GET `path` with `key`, from a client that says (through `X-Forwarded-For`) it is `client`.
async fn get_as(
    server: &Server,
    client: &str,
    key: &str,
) -> (u16, reqwest::header::HeaderMap, serde_json::Value) {
    let r = server
        .client
        .get(server.url("/v1/scores/rpt_x"))
        .bearer_auth(key)
        .header("x-forwarded-for", client)
        .send()
        .await
        .expect("GET");
    support::split(r).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_a_trusted_proxy_the_throttle_counts_the_real_client() {
    let db = Db::sqlite();
    let limits = Limits {
        auth_failures_per_minute: 2,
        trusted_proxies: vec![alama_server::client_ip::parse_proxy("127.0.0.0/8").expect("cidr")],
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits).await;
    let unknown = alama_server::keys::generate(Sandbox);
    for _ in 0..2 {
        assert_problem(
            &get_as(&server, "203.0.113.7", &unknown).await,
            401,
            "invalid_api_key",
        );
    }
    assert_problem(
        &get_as(&server, "203.0.113.7", &unknown).await,
        429,
        "auth_throttled",
    );
    // Another client behind the same proxy is its own address; one that puts the throttled
    // address first (a forged entry left of what the proxy appended) is not mistaken for it.
    assert_problem(
        &get_as(&server, "203.0.113.8", &unknown).await,
        401,
        "invalid_api_key",
    );
    assert_problem(
        &get_as(&server, "203.0.113.7, 198.51.100.4", &unknown).await,
        401,
        "invalid_api_key",
    );
    server.stop().await;
}

/// GET `/v1/scores/rpt_x` with `key` and `headers` (what a client wrote and what its proxy
/// added).
async fn get_with(
    server: &Server,
    key: &str,
    headers: &[(&str, &str)],
) -> (u16, reqwest::header::HeaderMap, serde_json::Value) {
    let mut request = server
        .client
        .get(server.url("/v1/scores/rpt_x"))
        .bearer_auth(key);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    support::split(request.send().await.expect("GET")).await
}

/// Issue 52: behind nginx's default (`X-Forwarded-For` appended, the client's own `Forwarded`
/// passed through), a client-written `Forwarded` won, so 40 bad keys from one client never met
/// the throttle and a forged `Forwarded` throttled another address. Only the configured header
/// is read now.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_written_forwarded_header_is_not_believed() {
    let db = Db::sqlite();
    let proxy = alama_server::client_ip::parse_proxy("127.0.0.0/8").expect("cidr");
    let limits = Limits {
        auth_failures_per_minute: 3,
        trusted_proxies: vec![proxy],
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits.clone()).await;
    let unknown = alama_server::keys::generate(Sandbox);
    // The attacker at 203.0.113.7 names a new address in `Forwarded` on every request, then
    // its victim's, 198.51.100.200.
    let mut statuses = Vec::new();
    for i in 0..40 {
        let forged = format!("for=198.51.100.{}", if i < 36 { i } else { 200 });
        let got = get_with(
            &server,
            &unknown,
            &[("forwarded", &forged), ("x-forwarded-for", "203.0.113.7")],
        )
        .await;
        statuses.push(got.0);
    }
    assert_eq!(&statuses[..3], &[401, 401, 401], "{statuses:?}");
    assert!(statuses[3..].iter().all(|s| *s == 429), "{statuses:?}");
    // Its forged `Forwarded: for=<victim>` did not count against the victim, who still gets
    // the plain 401 of a bad key (not 429) from its own address.
    let victim = get_with(&server, &unknown, &[("x-forwarded-for", "198.51.100.200")]).await;
    assert_problem(&victim, 401, "invalid_api_key");
    server.stop().await;

    // Behind a proxy that writes RFC 7239 (`--client-ip-header Forwarded`), `Forwarded` is the
    // one read, and a client-written X-Forwarded-For is ignored.
    let server = Server::start_with(
        &db,
        Limits {
            client_ip_header: alama_server::client_ip::ClientIpHeader::parse("Forwarded")
                .expect("name"),
            ..limits
        },
    )
    .await;
    for i in 0..4 {
        let forged = format!("198.51.100.{i}");
        let got = get_with(
            &server,
            &unknown,
            &[
                ("x-forwarded-for", &forged),
                ("forwarded", "for=\"203.0.113.7:5000\";proto=https"),
            ],
        )
        .await;
        let expected = if i < 3 { 401 } else { 429 };
        assert_eq!(got.0, expected, "request {i}: {}", got.2);
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_authorization_headers_are_a_problem() {
    let db = Db::sqlite();
    let server = Server::start(&db).await;
    let good = server.key(&partner("two-auth"), Sandbox).await;
    for (first, second) in [
        (
            format!("Bearer {good}"),
            "Bearer alama_sk_sandbox_other".to_owned(),
        ),
        (format!("Bearer {good}"), format!("Bearer {good}")),
    ] {
        let r = server
            .client
            .get(server.url("/v1/scores/rpt_x"))
            .header("authorization", first)
            .header("authorization", second)
            .send()
            .await
            .expect("GET");
        let got = support::split(r).await;
        assert_problem(&got, 400, "invalid_request");
        assert!(
            got.2["detail"]
                .as_str()
                .is_some_and(|d| d.contains("Authorization")),
            "{}",
            got.2
        );
    }
    server.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unparsable_requests_get_a_problem_too() {
    let db = Db::sqlite();
    let server = Server::start(&db).await;
    let mut huge = b"GET / HTTP/1.1\r\nhost: x\r\n".to_vec();
    for i in 0..2000 {
        huge.extend_from_slice(format!("x-filler-{i}: {}\r\n", "a".repeat(40)).as_bytes());
    }
    huge.extend_from_slice(b"\r\n");
    // A good request first on a kept-alive connection, then a bad one.
    let mut after_good = b"GET /v1/openapi.json HTTP/1.1\r\nhost: x\r\n\r\n".to_vec();
    after_good.extend_from_slice(b"GET /\xff HTTP/1.1\r\nhost: x\r\n\r\n");
    let cases: [(&[u8], &str, &str); 6] = [
        (
            b"GET /v1/scores/\xff\xfe HTTP/1.1\r\nhost: x\r\n\r\n",
            "400",
            "invalid_request",
        ),
        (
            b"G\xc3T / HTTP/1.1\r\nhost: x\r\n\r\n",
            "400",
            "invalid_request",
        ),
        (
            b"GET / HTTP/1.1\r\nhost: x\r\nx-bad\x01: y\r\n\r\n",
            "400",
            "invalid_request",
        ),
        (
            b"POST /v1/consents HTTP/1.1\r\nhost: x\r\ncontent-length: 1x\r\n\r\n",
            "400",
            "invalid_request",
        ),
        (&huge, "431", "request_head_too_large"),
        (&after_good, "400", "invalid_request"),
    ];
    for (raw, status, code) in cases {
        let (mut answer, _) =
            support::exchange_raw(&server, raw, std::time::Duration::from_secs(5)).await;
        if answer.starts_with("HTTP/1.1 200 ") {
            let at = answer.find("HTTP/1.1 400 ").expect("a second answer");
            answer = answer.split_off(at);
        }
        let (head, body) = answer.split_once("\r\n\r\n").expect("a response");
        assert!(head.starts_with(&format!("HTTP/1.1 {status} ")), "{head}");
        assert!(
            head.to_ascii_lowercase()
                .contains("content-type: application/problem+json"),
            "{head}"
        );
        let problem: serde_json::Value = serde_json::from_str(body).expect("problem JSON");
        assert_eq!(problem["code"], code, "{problem}");
        assert_eq!(problem["status"].to_string(), status);
        assert!(
            problem["requestId"]
                .as_str()
                .is_some_and(|id| head.contains(id))
        );
    }
    server.stop().await;
}

/// PostgreSQL (when `ALAMA_TEST_POSTGRES_URL` is set): an erasure starts a `VACUUM` of the
/// reports table, so the erased row versions are pruned instead of waiting for autovacuum.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_an_erasure_vacuums_the_reports_table() {
    let Some(db) = Db::postgres() else {
        eprintln!("skipped: ALAMA_TEST_POSTGRES_URL is not set (server/ci-postgres.sh starts one)");
        return;
    };
    let server = Server::start(&db).await;
    let vacuums = || async {
        let n: i64 = sqlx::query_scalar(
            "SELECT vacuum_count FROM pg_stat_user_tables WHERE relname = 'reports'",
        )
        .fetch_one(server.storage.pool())
        .await
        .expect("statistics");
        n
    };
    let key = server.key(&partner("erase-pg"), Live).await;
    let consent = server.granted_consent(&key).await;
    let got = server
        .analyse(&key, vector_statement(), None, Some(&consent), None)
        .await;
    assert_eq!(got.0, 201, "{}", got.2);
    let id = got.2["reportId"].as_str().expect("id").to_owned();
    let before = vacuums().await;
    let r = server
        .client
        .delete(server.url(&format!("/v1/scores/{id}")))
        .bearer_auth(&key)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(r.status().as_u16(), 204);
    let mut after = before;
    for _ in 0..100 {
        // The statistics collector reports with a delay.
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
        after = vacuums().await;
        if after > before {
            break;
        }
    }
    assert!(after > before, "no VACUUM of reports ({before} → {after})");
    server.stop().await;
}
