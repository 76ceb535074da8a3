//! The service over real HTTP on a loopback port: every scenario runs against SQLite, and
//! against PostgreSQL when `ALAMA_TEST_POSTGRES_URL` is set (see `server/ci-postgres.sh`).
//!
//! (Over 400 lines: the partner API's scenarios over one server harness, one short test per
//! behaviour of the seed's interface; split by endpoint, each file would repeat the harness.)

#[macro_use]
mod support;

use alama_server::Environment::{Live, Sandbox};
use alama_server::Limits;
use reqwest::multipart::{Form, Part};
use serde_json::{Value, json};
use sqlx::Row;
use support::{Db, Server, assert_problem, partner, real_sample, statement_csv};

const PDF_117: &str = "mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf";
const PDF_UNKNOWN_PW: &str = "mpesa_2024-04_to_2024-10_encrypted_pw_unknown.pdf";

on_both_backends!(
    consent_analyse_fetch_and_restart,
    real_pdf_statement,
    keys_are_checked,
    resources_are_isolated_by_partner_and_environment,
    live_only_endpoints_refuse_sandbox_keys,
    consent_lifecycle_and_rules,
    consent_bodies_are_validated,
    revoked_consents_stop_analysis,
    failed_analyses_are_stored_with_their_code,
    uploads_are_limited_by_size_and_type,
    idempotent_retries_replay_the_stored_outcome,
    rate_limit_answers_429_with_retry_after,
    slow_analyses_time_out_as_stored_failures,
    interrupted_analyses_fail_and_free_their_key,
    openapi_document_matches_the_server,
    cli_keys_create_list_revoke,
);

/// The engine's fields of a report: everything but the service's own.
fn engine_part(report: &Value) -> Value {
    let mut map = report.as_object().cloned().unwrap_or_default();
    for k in [
        "reportId",
        "consentId",
        "environment",
        "createdAt",
        "completedAt",
    ] {
        map.remove(k);
    }
    Value::Object(map)
}

async fn consent_analyse_fetch_and_restart(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("flow"), Sandbox).await;
    let consent = server.granted_consent(&key).await;
    let csv = statement_csv(400);

    let (status, headers, report) = server
        .analyse(&key, csv.clone(), None, Some(&consent), None)
        .await;
    assert_eq!(status, 201, "{report}");
    let id = report["reportId"].as_str().expect("reportId").to_owned();
    assert!(id.starts_with("rpt_") && id.len() == 30, "{id}");
    assert_eq!(
        headers.get("location").and_then(|v| v.to_str().ok()),
        Some(format!("/v1/scores/{id}").as_str())
    );
    assert!(headers.contains_key("x-request-id"));
    assert_eq!(report["status"], "completed");
    let score = report["score"].as_u64().expect("score");
    assert!((300..=850).contains(&score), "{score}");
    assert!(report["band"].is_string());
    assert_eq!(report["statementPeriod"], "Jan 2024 - Dec 2024");
    assert!(report["factors"].as_array().is_some_and(|f| !f.is_empty()));
    for f in report["factors"].as_array().into_iter().flatten() {
        assert!(f["score"].as_u64() <= f["max"].as_u64(), "{f}");
    }
    assert!(report["insights"].is_array());
    assert_eq!(report["consentId"], consent.as_str());
    assert_eq!(report["environment"], "sandbox");
    assert_eq!(report["statement"]["transactionCount"], 400);

    // The body is the engine's report, field for field, plus the service's fields.
    let engine = alama_core::score_bytes(&csv, &alama_core::ParseOptions::default())
        .expect("engine scores the CSV");
    let mut expected: Value = serde_json::from_str(&engine.to_json()).expect("json");
    expected.as_object_mut().expect("object").remove("reportId");
    assert_eq!(engine_part(&report), expected);

    let (status, _, fetched) = server.get(&format!("/v1/scores/{id}"), &key).await;
    assert_eq!(status, 200);
    assert_eq!(fetched, report);

    // Restart on the same database: the completed report is still there, byte for byte.
    server.stop().await;
    let server = Server::start(&db).await;
    let (status, _, after) = server.get(&format!("/v1/scores/{id}"), &key).await;
    assert_eq!(status, 200, "{after}");
    assert_eq!(after, report);
    server.stop().await;
}

async fn real_pdf_statement(db: Db) {
    let Some(path) = real_sample(PDF_117) else {
        eprintln!("skipped: ../shared/samples/real/{PDF_117} is absent");
        return;
    };
    let pdf = std::fs::read(path).expect("read sample");
    let server = Server::start(&db).await;
    let key = server.key(&partner("pdf"), Live).await;
    let consent = server.granted_consent(&key).await;
    let (status, _, report) = server
        .analyse(&key, pdf.clone(), Some("183177"), Some(&consent), None)
        .await;
    if status != 201 && report["code"] == "unsupported_format" {
        eprintln!(
            "skipped: the engine does not read M-Pesa PDFs yet ({})",
            report["detail"]
        );
        server.stop().await;
        return;
    }
    assert_eq!(status, 201, "{report}");
    assert_eq!(report["status"], "completed");
    assert_eq!(report["statementPeriod"], "May 2023 - May 2024");
    assert_eq!(report["statement"]["transactionCount"], 4382);
    let id = report["reportId"].as_str().expect("id");
    let (status, _, fetched) = server.get(&format!("/v1/scores/{id}"), &key).await;
    assert_eq!(status, 200);
    assert_eq!(fetched, report);

    // Wrong and missing passwords fail with the engine's codes; the failure is stored.
    let wrong = server
        .analyse(&key, pdf.clone(), Some("000000"), Some(&consent), None)
        .await;
    assert_problem(&wrong, 422, "wrong_password");
    let failed_id = wrong.2["reportId"].as_str().expect("reportId").to_owned();
    let (_, _, failed) = server.get(&format!("/v1/scores/{failed_id}"), &key).await;
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["error"]["code"], "wrong_password");
    let missing = server.analyse(&key, pdf, None, Some(&consent), None).await;
    assert_problem(&missing, 422, "password_required");
    if let Some(other) = real_sample(PDF_UNKNOWN_PW) {
        let other = std::fs::read(other).expect("read");
        let wrong = server
            .analyse(&key, other, Some("12345678"), Some(&consent), None)
            .await;
        assert_problem(&wrong, 422, "wrong_password");
    }
    server.stop().await;
}

async fn keys_are_checked(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("keys"), Sandbox).await;

    let r = server
        .client
        .get(server.url("/v1/scores/rpt_x"))
        .send()
        .await
        .expect("GET");
    assert_eq!(
        r.headers()
            .get("www-authenticate")
            .and_then(|v| v.to_str().ok()),
        Some("Bearer realm=\"alama\"")
    );
    let got = support::split(r).await;
    assert_problem(&got, 401, "missing_api_key");
    assert_eq!(got.2["instance"], "/v1/scores/rpt_x");

    assert_problem(
        &server.get("/v1/scores/rpt_x", "sk_test_123").await,
        401,
        "invalid_api_key",
    );
    // A typo fails the checksum without a lookup.
    let mut typo = key.clone().into_bytes();
    let i = typo.len() - 10;
    typo[i] = if typo[i] == b'a' { b'b' } else { b'a' };
    let typo = String::from_utf8(typo).expect("utf8");
    let got = server.get("/v1/scores/rpt_x", &typo).await;
    assert_problem(&got, 401, "invalid_api_key");
    assert!(
        got.2["detail"]
            .as_str()
            .is_some_and(|d| d.contains("checksum"))
    );
    // Well-formed but unknown.
    let unknown = alama_server::keys::generate(Sandbox);
    assert_problem(
        &server.get("/v1/scores/rpt_x", &unknown).await,
        401,
        "invalid_api_key",
    );

    // Revoked: refused on the next request.
    let record = server.key_record(&key).await;
    assert_problem(
        &server.get("/v1/scores/rpt_x", &key).await,
        404,
        "report_not_found",
    );
    server.storage.revoke_key(&record.id).await.expect("revoke");
    assert_problem(
        &server.get("/v1/scores/rpt_x", &key).await,
        401,
        "revoked_api_key",
    );
    server.stop().await;
}

async fn resources_are_isolated_by_partner_and_environment(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("iso-a");
    let a_sandbox = server.key(&name, Sandbox).await;
    let a_live = server.key(&name, Live).await;
    let b_sandbox = server.key(&partner("iso-b"), Sandbox).await;

    let consent = server.granted_consent(&a_sandbox).await;
    let (status, _, report) = server
        .analyse(&a_sandbox, statement_csv(60), None, Some(&consent), None)
        .await;
    assert_eq!(status, 201, "{report}");
    let path = format!("/v1/scores/{}", report["reportId"].as_str().expect("id"));

    assert_eq!(server.get(&path, &a_sandbox).await.0, 200);
    // Another partner, and the same partner's other environment: 404, never 403 or the data.
    for other in [&b_sandbox, &a_live] {
        let got = server.get(&path, other).await;
        assert_problem(&got, 404, "report_not_found");
        assert!(got.2.get("score").is_none());
        let got = server.get(&format!("/v1/consents/{consent}"), other).await;
        assert_problem(&got, 404, "consent_not_found");
        // Nor can they analyse under it.
        let got = server
            .analyse(other, statement_csv(60), None, Some(&consent), None)
            .await;
        assert_problem(&got, 404, "consent_not_found");
    }
    server.stop().await;
}

async fn live_only_endpoints_refuse_sandbox_keys(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("live");
    let sandbox = server.key(&name, Sandbox).await;
    let live = server.key(&name, Live).await;
    for path in ["/v1/usage", "/v1/scores/rpt_anything/pdf"] {
        let got = server.get(path, &sandbox).await;
        assert_problem(&got, 403, "live_mode_required");
        assert!(got.2["detail"].as_str().is_some_and(|d| d.contains("Live")));
    }
    // With a Live key they pass the environment check.
    assert_eq!(server.get("/v1/usage", &live).await.0, 200);
    assert_problem(
        &server.get("/v1/scores/rpt_unknown/pdf", &live).await,
        404,
        "report_not_found",
    );
    server.stop().await;
}

async fn consent_lifecycle_and_rules(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("Acme Loans"), Live).await;

    // Create: pending, with the notice and its hash.
    let (status, headers, consent) = server
        .post_json(
            "/v1/consents",
            &key,
            &json!({
                "customerReference": "LOAN-42",
                "customerName": "Test Customer",
                "customerPhone": "+254 700 000000",
                "purpose": "credit_scoring",
                "scopes": ["statement_analysis", "report_sharing"],
                "expiresInDays": 7
            }),
        )
        .await;
    assert_eq!(status, 201, "{consent}");
    let id = consent["consentId"].as_str().expect("id").to_owned();
    assert!(id.starts_with("cns_"));
    assert_eq!(
        headers.get("location").and_then(|v| v.to_str().ok()),
        Some(format!("/v1/consents/{id}").as_str())
    );
    assert_eq!(consent["status"], "pending");
    assert_eq!(consent["environment"], "live");
    assert_eq!(consent["purpose"], "credit_scoring");
    assert_eq!(
        consent["scopes"],
        json!(["report_sharing", "statement_analysis"])
    );
    let text = consent["notice"]["text"].as_str().expect("notice");
    assert!(text.contains("Acme Loans") && text.contains("LOAN-42") && text.contains("withdraw"));
    assert_eq!(consent["notice"]["sha256"].as_str().map(str::len), Some(64));
    assert!(consent["grantedAt"].is_null());

    // Live analysis: none given, pending, unknown.
    let csv = statement_csv(50);
    let got = server.analyse(&key, csv.clone(), None, None, None).await;
    assert_problem(&got, 403, "consent_required");
    let got = server
        .analyse(&key, csv.clone(), None, Some(&id), None)
        .await;
    assert_problem(&got, 403, "consent_not_granted");
    assert_eq!(got.2["consentStatus"], "pending");
    let got = server
        .analyse(&key, csv.clone(), None, Some("cns_nope"), None)
        .await;
    assert_problem(&got, 404, "consent_not_found");

    // Grant needs the notice hash the customer saw.
    let grant = format!("/v1/consents/{id}/grant");
    let got = server
        .post_json(
            &grant,
            &key,
            &json!({"method": "app", "noticeSha256": "00".repeat(32)}),
        )
        .await;
    assert_problem(&got, 422, "notice_mismatch");
    let got = server
        .post_json(
            &grant,
            &key,
            &json!({"method": "carrier pigeon", "noticeSha256": consent["notice"]["sha256"]}),
        )
        .await;
    assert_problem(&got, 400, "invalid_request");
    let body = json!({"method": "ussd", "noticeSha256": consent["notice"]["sha256"], "evidence": "OTP-778"});
    let (status, _, granted) = server.post_json(&grant, &key, &body).await;
    assert_eq!(status, 200, "{granted}");
    assert_eq!(granted["status"], "granted");
    assert_eq!(granted["grantMethod"], "ussd");
    assert_eq!(granted["grantEvidence"], "OTP-778");
    assert!(granted["grantedAt"].is_string());
    // Granting again is idempotent.
    assert_eq!(server.post_json(&grant, &key, &body).await.0, 200);

    let (status, _, report) = server
        .analyse(&key, csv.clone(), None, Some(&id), None)
        .await;
    assert_eq!(status, 201, "{report}");

    server.stop().await;
}

async fn revoked_consents_stop_analysis(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("revoke"), Live).await;
    let id = server.granted_consent(&key).await;
    let csv = statement_csv(50);
    let (status, _, report) = server
        .analyse(&key, csv.clone(), None, Some(&id), None)
        .await;
    assert_eq!(status, 201, "{report}");
    let (_, _, consent) = server.get(&format!("/v1/consents/{id}"), &key).await;
    let grant = format!("/v1/consents/{id}/grant");
    let body = json!({"method": "app", "noticeSha256": consent["notice"]["sha256"]});

    // Revoke: no further analysis; the report stays; grant is refused.
    let (status, _, revoked) = server
        .post_json(
            &format!("/v1/consents/{id}/revoke"),
            &key,
            &json!({"reason": "customer asked"}),
        )
        .await;
    assert_eq!(status, 200, "{revoked}");
    assert_eq!(revoked["status"], "revoked");
    assert_eq!(revoked["revokeReason"], "customer asked");
    let r = server
        .client
        .post(server.url(&format!("/v1/consents/{id}/revoke")))
        .bearer_auth(&key)
        .send()
        .await
        .expect("revoke with no body");
    assert_eq!(r.status().as_u16(), 200);
    let got = server
        .analyse(&key, csv.clone(), None, Some(&id), None)
        .await;
    assert_problem(&got, 403, "consent_not_granted");
    assert_eq!(got.2["consentStatus"], "revoked");
    assert_problem(
        &server.post_json(&grant, &key, &body).await,
        409,
        "consent_state_conflict",
    );
    let report_path = format!("/v1/scores/{}", report["reportId"].as_str().expect("id"));
    assert_eq!(server.get(&report_path, &key).await.0, 200);
    let (_, _, fetched) = server.get(&format!("/v1/consents/{id}"), &key).await;
    assert_eq!(fetched["status"], "revoked");

    server.stop().await;
}

async fn consent_bodies_are_validated(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("validate"), Sandbox).await;
    for bad in [
        json!({"customerReference": "x", "purpose": "marketing"}),
        json!({"customerReference": "", "purpose": "credit_scoring"}),
        json!({"customerReference": "x", "purpose": "credit_scoring", "scopes": ["report_sharing"]}),
        json!({"customerReference": "x", "purpose": "credit_scoring", "expiresInDays": 0}),
        json!({"customerReference": "x", "purpose": "credit_scoring", "colour": "red"}),
        json!({"customerReference": "x", "purpose": "credit_scoring", "customerPhone": "call me"}),
    ] {
        assert_problem(
            &server.post_json("/v1/consents", &key, &bad).await,
            400,
            "invalid_request",
        );
    }
    server.stop().await;
}

async fn failed_analyses_are_stored_with_their_code(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("fail"), Sandbox).await;

    // A CSV from a wallet the engine does not know.
    let other = b"Date,Amount,Memo\n2024-01-01,5,x\n".to_vec();
    let got = server.analyse(&key, other, None, None, None).await;
    assert_problem(&got, 422, "unsupported_wallet");
    let id = got.2["reportId"].as_str().expect("reportId").to_owned();
    let (status, _, failed) = server.get(&format!("/v1/scores/{id}"), &key).await;
    assert_eq!(status, 200);
    assert_eq!(failed["status"], "failed");
    assert_eq!(failed["error"]["code"], "unsupported_wallet");
    assert!(failed["score"].is_null() && failed["band"].is_null());
    assert_eq!(failed["factors"], json!([]));
    assert!(failed["completedAt"].is_string());

    // A statement with no transactions.
    let empty =
        b"Receipt No,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance\n"
            .to_vec();
    let got = server.analyse(&key, empty, None, None, None).await;
    assert_problem(&got, 422, "empty_statement");
    assert!(got.2["reportId"].is_string());

    // A PDF that is not one (or, with the sample, an encrypted one without its password).
    let broken = b"%PDF-1.7\n1 0 obj << >> endobj\n%%EOF".to_vec();
    let got = server.analyse(&key, broken, None, None, None).await;
    assert!([415, 422].contains(&got.0), "{}", got.2);
    assert!(got.2["reportId"].is_string(), "{}", got.2);
    server.stop().await;
}

async fn uploads_are_limited_by_size_and_type(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("limits"), Sandbox).await;

    // Not a statement: refused by its magic bytes, no report made.
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let got = server.analyse(&key, png, None, None, None).await;
    assert_problem(&got, 415, "unsupported_format");
    assert!(got.2.get("reportId").is_none());
    let zip = b"PK\x03\x04\x14\0\0\0".to_vec();
    assert_problem(
        &server.analyse(&key, zip, None, None, None).await,
        415,
        "unsupported_format",
    );

    // Over 10 MiB with a Content-Length: refused before the body is read.
    let big = vec![b'a'; 11 * 1024 * 1024];
    let got = server.analyse(&key, big.clone(), None, None, None).await;
    assert_problem(&got, 413, "too_large");

    // With `Expect: 100-continue` (curl's way for big uploads) the 413 comes from the headers
    // alone: not one byte of the body is sent.
    let head = format!(
        "POST /v1/scores/analyse HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\
         Content-Type: multipart/form-data; boundary=b\r\nContent-Length: 50000000\r\n\
         Expect: 100-continue\r\n\r\n"
    );
    let answer = raw_exchange(&server, head.as_bytes()).await;
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("application/problem+json"), "{answer}");

    // Over 10 MiB streamed without a Content-Length: refused once the part passes the limit.
    let form = Form::new().part("statement", Part::stream(big).file_name("s.csv"));
    let r = server
        .client
        .post(server.url("/v1/scores/analyse"))
        .bearer_auth(&key)
        .multipart(form)
        .send()
        .await
        .expect("POST");
    assert_problem(&support::split(r).await, 413, "too_large");

    // Not multipart, no statement part, unknown fields.
    let got = server
        .post_json("/v1/scores/analyse", &key, &json!({"statement": "x"}))
        .await;
    assert_problem(&got, 415, "unsupported_media_type");
    let form = Form::new().text("password", "1234");
    let r = server
        .client
        .post(server.url("/v1/scores/analyse"))
        .bearer_auth(&key)
        .multipart(form)
        .send()
        .await
        .expect("POST");
    assert_problem(&support::split(r).await, 400, "invalid_request");
    let form = Form::new()
        .part("statement", Part::bytes(statement_csv(20)))
        .text("pasword", "1234");
    let r = server
        .client
        .post(server.url("/v1/scores/analyse"))
        .bearer_auth(&key)
        .multipart(form)
        .send()
        .await
        .expect("POST");
    let got = support::split(r).await;
    assert_problem(&got, 400, "invalid_request");
    assert!(
        got.2["detail"]
            .as_str()
            .is_some_and(|d| d.contains("pasword"))
    );

    // Unknown endpoints and methods are problems too.
    assert_problem(&server.get("/v1/nope", &key).await, 404, "not_found");
    assert_problem(
        &server.get("/v1/scores/analyse", &key).await,
        405,
        "method_not_allowed",
    );
    server.stop().await;
}

/// Sends `request` on a fresh connection and returns the response head (and any body read).
async fn raw_exchange(server: &Server, request: &[u8]) -> String {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let addr = server.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(request).await.expect("write");
    let mut buf = vec![0u8; 8192];
    let n = tokio::time::timeout(std::time::Duration::from_secs(10), stream.read(&mut buf))
        .await
        .expect("the server answers without the body")
        .expect("read");
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

async fn idempotent_retries_replay_the_stored_outcome(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("idem"), Sandbox).await;
    let csv = statement_csv(120);

    let first = server
        .analyse(&key, csv.clone(), None, None, Some("order-1"))
        .await;
    assert_eq!(first.0, 201, "{}", first.2);
    assert!(!first.1.contains_key("idempotent-replayed"));
    let again = server
        .analyse(&key, csv.clone(), None, None, Some("order-1"))
        .await;
    assert_eq!(again.0, 201);
    assert_eq!(again.2, first.2);
    assert_eq!(
        again
            .1
            .get("idempotent-replayed")
            .and_then(|v| v.to_str().ok()),
        Some("true")
    );
    // Same key, another request.
    let other = server
        .analyse(&key, statement_csv(121), None, None, Some("order-1"))
        .await;
    assert_problem(&other, 422, "idempotency_key_reused");
    // Without a key, the same upload is a new report.
    let fresh = server.analyse(&key, csv.clone(), None, None, None).await;
    assert_eq!(fresh.0, 201);
    assert_ne!(fresh.2["reportId"], first.2["reportId"]);
    // Another partner may use the same key string.
    let other_key = server.key(&partner("idem-b"), Sandbox).await;
    let theirs = server
        .analyse(&other_key, csv, None, None, Some("order-1"))
        .await;
    assert_eq!(theirs.0, 201);
    assert_ne!(theirs.2["reportId"], first.2["reportId"]);

    // A failed analysis replays its failure with the same report id.
    let bad = b"Date,Amount\n2024-01-01,5\n".to_vec();
    let failed = server
        .analyse(&key, bad.clone(), None, None, Some("order-2"))
        .await;
    assert_problem(&failed, 422, "unsupported_wallet");
    let replay = server.analyse(&key, bad, None, None, Some("order-2")).await;
    assert_problem(&replay, 422, "unsupported_wallet");
    assert_eq!(replay.2["reportId"], failed.2["reportId"]);
    assert_ne!(replay.2["requestId"], failed.2["requestId"]);
    assert_eq!(
        replay
            .1
            .get("idempotent-replayed")
            .and_then(|v| v.to_str().ok()),
        Some("true")
    );

    let r = server
        .client
        .post(server.url("/v1/scores/analyse"))
        .bearer_auth(&key)
        .header("Idempotency-Key", "x".repeat(300))
        .multipart(Form::new().part("statement", Part::bytes(statement_csv(5))))
        .send()
        .await
        .expect("POST");
    assert_problem(&support::split(r).await, 400, "invalid_request");
    server.stop().await;
}

async fn rate_limit_answers_429_with_retry_after(db: Db) {
    let limits = Limits {
        rate_per_minute: 1,
        rate_burst: 3,
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits).await;
    let key = server.key(&partner("rate"), Sandbox).await;
    let other = server.key(&partner("rate-b"), Sandbox).await;
    for _ in 0..3 {
        assert_eq!(server.get("/v1/scores/rpt_x", &key).await.0, 404);
    }
    let got = server.get("/v1/scores/rpt_x", &key).await;
    assert_problem(&got, 429, "rate_limited");
    let retry: u64 = got
        .1
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
        .expect("Retry-After");
    assert!((1..=60).contains(&retry), "{retry}");
    // Per key: another key is unaffected.
    assert_eq!(server.get("/v1/scores/rpt_x", &other).await.0, 404);

    // Every authenticated request is a durable row (the source of usage figures).
    let record = server.key_record(&key).await;
    let rows = sqlx::query(
        "SELECT route, status FROM api_requests WHERE partner_id = $1 ORDER BY created_at, status",
    )
    .bind(&record.partner_id)
    .fetch_all(server.storage.pool())
    .await
    .expect("rows");
    let rows: Vec<(String, i64)> = rows
        .iter()
        .map(|r| (r.get::<String, _>(0), r.get::<i64, _>(1)))
        .collect();
    let route = "/v1/scores/{reportId}".to_owned();
    assert_eq!(
        rows,
        vec![
            (route.clone(), 404),
            (route.clone(), 404),
            (route.clone(), 404),
            (route, 429)
        ]
    );
    server.stop().await;
}

async fn slow_analyses_time_out_as_stored_failures(db: Db) {
    let limits = Limits {
        analysis_timeout: std::time::Duration::from_millis(1),
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits).await;
    let key = server.key(&partner("slow"), Sandbox).await;
    let got = server
        .analyse(&key, statement_csv(20_000), None, None, None)
        .await;
    assert_problem(&got, 422, "analysis_timeout");
    let id = got.2["reportId"].as_str().expect("reportId").to_owned();
    let (_, _, report) = server.get(&format!("/v1/scores/{id}"), &key).await;
    assert_eq!(report["status"], "failed");
    assert_eq!(report["error"]["code"], "analysis_timeout");
    server.stop().await;
}

async fn interrupted_analyses_fail_and_free_their_key(db: Db) {
    use alama_server::storage::{Claim, NewReport};
    let server = Server::start(&db).await;
    let key = server.key(&partner("crash"), Sandbox).await;
    let caller = server.key_record(&key).await;
    let csv = statement_csv(30);
    // What a server that died mid-analysis leaves behind: an old `processing` row.
    let first = server
        .analyse(&key, csv.clone(), None, None, Some("crash-1"))
        .await;
    assert_eq!(first.0, 201);
    let claim = server
        .storage
        .claim_report(&NewReport {
            id: "rpt_left_processing".into(),
            owner: alama_server::storage::Owner {
                partner_id: caller.partner_id.clone(),
                environment: Sandbox,
            },
            api_key_id: caller.id.clone(),
            consent_id: None,
            idempotency_key: Some("crash-2".into()),
            request_fingerprint: "f".repeat(64),
            statement_format: "csv".into(),
            statement_bytes: 1,
            created_at: alama_server::ids::now_ms() - 3_600_000,
        })
        .await
        .expect("claim");
    assert_eq!(claim, Claim::Created);
    let (status, _, report) = server.get("/v1/scores/rpt_left_processing", &key).await;
    assert_eq!(status, 200);
    assert_eq!(report["status"], "failed");
    assert_eq!(report["error"]["code"], "analysis_interrupted");
    // Its Idempotency-Key is free again: a retry runs a new analysis.
    let retry = server.analyse(&key, csv, None, None, Some("crash-2")).await;
    assert_eq!(retry.0, 201, "{}", retry.2);
    assert_ne!(retry.2["reportId"], "rpt_left_processing");
    server.stop().await;
}

fn schema_properties<'a>(doc: &'a Value, name: &str) -> Vec<&'a str> {
    doc["components"]["schemas"][name]["properties"]
        .as_object()
        .map(|p| p.keys().map(String::as_str).collect())
        .unwrap_or_default()
}

async fn openapi_document_matches_the_server(db: Db) {
    let server = Server::start(&db).await;
    let r = server
        .client
        .get(server.url("/v1/openapi.json"))
        .send()
        .await
        .expect("GET");
    assert_eq!(r.status().as_u16(), 200);
    let doc: Value = r.json().await.expect("json");
    assert_eq!(doc["openapi"], "3.1.0");
    for (path, method) in [
        ("/v1/consents", "post"),
        ("/v1/consents/{consentId}", "get"),
        ("/v1/consents/{consentId}/grant", "post"),
        ("/v1/consents/{consentId}/revoke", "post"),
        ("/v1/scores/analyse", "post"),
        ("/v1/scores/{reportId}", "get"),
        ("/v1/scores/{reportId}/pdf", "get"),
        ("/v1/usage", "get"),
    ] {
        assert!(doc["paths"][path][method].is_object(), "{method} {path}");
    }
    assert!(doc["components"]["securitySchemes"]["apiKey"].is_object());
    assert!(
        doc["paths"]["/v1/scores/analyse"]["post"]["requestBody"]["content"]["multipart/form-data"]
            .is_object()
    );
    let form = schema_properties(&doc, "AnalyseForm");
    for field in ["statement", "password", "consentId"] {
        assert!(form.contains(&field), "{field} in {form:?}");
    }

    // Every key of a real report and of its parts is in the document.
    let key = server.key(&partner("doc"), Sandbox).await;
    let (status, _, report) = server
        .analyse(&key, statement_csv(200), None, None, None)
        .await;
    assert_eq!(status, 201);
    let check = |schema: &str, object: &Value| {
        let props = schema_properties(&doc, schema);
        for k in object.as_object().expect("object").keys() {
            assert!(props.contains(&k.as_str()), "{schema} lacks {k}");
        }
    };
    check("ScoreReport", &report);
    check("Factor", &report["factors"][0]);
    if let Some(insight) = report["insights"].get(0) {
        check("Insight", insight);
    }
    if let Some(reason) = report["reasonCodes"].get(0) {
        check("ReasonCode", reason);
    }
    check("Integrity", &report["integrity"]);
    if let Some(finding) = report["integrity"]["findings"].get(0) {
        check("Finding", finding);
    }
    check("StatementOverview", &report["statement"]);
    check("MonthlyCashflow", &report["statement"]["monthly"][0]);
    let (_, _, consent) = server
        .post_json(
            "/v1/consents",
            &key,
            &json!({"customerReference": "d", "purpose": "credit_scoring"}),
        )
        .await;
    check("Consent", &consent);
    let problem = server.get("/v1/scores/rpt_none", &key).await.2;
    check(
        "Problem",
        &json!({
            "type": problem["type"], "title": problem["title"], "status": problem["status"],
            "detail": problem["detail"], "instance": problem["instance"], "code": problem["code"],
            "requestId": problem["requestId"]
        }),
    );
    server.stop().await;
}

async fn cli_keys_create_list_revoke(db: Db) {
    use alama_server::cli::{DatabaseArgs, KeysCommand, keys_command};
    let database = DatabaseArgs {
        database: db.url.clone(),
    };
    let name = partner("cli");
    let mut out = Vec::new();
    let mut err = Vec::new();
    keys_command(
        &KeysCommand::Create {
            partner: name.clone(),
            environment: Sandbox,
            db: database.clone(),
        },
        &mut out,
        &mut err,
    )
    .await
    .expect("create");
    let out = String::from_utf8(out).expect("utf8");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "the key alone on a line: {out:?}");
    let key = lines[0];
    assert!(alama_server::keys::parse(key).is_ok(), "{key}");
    assert!(key.starts_with("alama_sk_sandbox_"));
    let note = String::from_utf8(err).expect("utf8");
    assert!(note.contains("not shown again"), "{note}");

    let mut listing = Vec::new();
    keys_command(
        &KeysCommand::List {
            db: database.clone(),
        },
        &mut listing,
        &mut Vec::new(),
    )
    .await
    .expect("list");
    let listing = String::from_utf8(listing).expect("utf8");
    let row = listing
        .lines()
        .find(|l| l.contains(&name))
        .expect("listed")
        .to_owned();
    assert!(!listing.contains(key), "keys are never listed");
    assert!(row.contains("active") && row.contains("sandbox"));
    let id = row.split_whitespace().next().expect("id").to_owned();

    // The key works against a server on the same database until revoked.
    let server = Server::start(&db).await;
    assert_eq!(server.get("/v1/scores/rpt_x", key).await.0, 404);
    let mut revoked = Vec::new();
    keys_command(
        &KeysCommand::Revoke {
            id: id.clone(),
            db: database.clone(),
        },
        &mut revoked,
        &mut Vec::new(),
    )
    .await
    .expect("revoke");
    assert!(String::from_utf8(revoked).expect("utf8").contains(&id));
    assert_problem(
        &server.get("/v1/scores/rpt_x", key).await,
        401,
        "revoked_api_key",
    );
    let missing = keys_command(
        &KeysCommand::Revoke {
            id: "key_nope".into(),
            db: database,
        },
        &mut Vec::new(),
        &mut Vec::new(),
    )
    .await;
    assert!(missing.is_err_and(|e| e.starts_with("error[not_found]")));
    server.stop().await;
}
