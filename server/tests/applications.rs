//! Applications (`POST /v1/applications`, issue 54) and statements seen before, over real HTTP:
//! every scenario on SQLite, and on PostgreSQL when `ALAMA_TEST_POSTGRES_URL` is set. Fixtures
//! are the engine's seeded statements and applications (`alama_core::testing`), sent as their
//! canonical JSON.
//!
//! (Over 400 lines: one short scenario per behaviour of applications and statements seen
//! before, sharing the fixtures at the top.)

#[allow(unused_imports)]
#[macro_use]
mod support;

use alama_core::Statement;
use alama_core::testing::application::{overlapping, own_transfer, two_sims};
use alama_core::testing::synthetic_statement;
use alama_server::Environment::Sandbox;
use alama_server::Limits;
use reqwest::multipart::{Form, Part};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use support::{Db, Server, assert_problem, partner};

on_both_backends!(
    two_sims_with_terms_complete_and_can_be_fetched,
    overlaps_are_read_once_and_disagreements_are_critical,
    own_transfers_are_found,
    forms_and_limits_are_checked,
    idempotent_retries_replay_the_application,
    seen_before_is_flagged_within_one_partner_only,
    seen_before_forgets_erased_reports,
    retention_forgets_the_fingerprints,
);

type Answer = (u16, reqwest::header::HeaderMap, Value);

fn json_of(s: &Statement) -> Vec<u8> {
    s.to_json().into_bytes()
}

/// POST /v1/applications with `statements` and the text `fields`.
async fn apply(
    server: &Server,
    key: &str,
    statements: &[Vec<u8>],
    fields: &[(&str, &str)],
    idempotency_key: Option<&str>,
) -> Answer {
    let mut form = Form::new();
    for (i, s) in statements.iter().enumerate() {
        form = form.part(
            "statement",
            Part::bytes(s.clone()).file_name(format!("s{i}.json")),
        );
    }
    for (name, value) in fields {
        form = form.text((*name).to_owned(), (*value).to_owned());
    }
    let mut request = server
        .client
        .post(server.url("/v1/applications"))
        .bearer_auth(key)
        .multipart(form);
    if let Some(k) = idempotency_key {
        request = request.header("Idempotency-Key", k);
    }
    support::split(request.send().await.expect("POST applications")).await
}

/// A granted consent of the partner of `key` for customer `reference`.
async fn consent(server: &Server, key: &str, reference: &str) -> String {
    let (status, _, c) = server
        .post_json(
            "/v1/consents",
            key,
            &json!({"customerReference": reference, "purpose": "credit_scoring"}),
        )
        .await;
    assert_eq!(status, 201, "{c}");
    let id = c["consentId"].as_str().expect("id").to_owned();
    let (status, _, g) = server
        .post_json(
            &format!("/v1/consents/{id}/grant"),
            key,
            &json!({"method": "app", "noticeSha256": c["notice"]["sha256"]}),
        )
        .await;
    assert_eq!(status, 200, "{g}");
    id
}

/// How many fingerprints of report `id` are kept.
async fn kept(server: &Server, id: impl AsRef<str>) -> i64 {
    sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM statement_fingerprints WHERE report_id = $1")
        .bind(id.as_ref().to_owned())
        .fetch_one(server.storage.pool())
        .await
        .expect("count")
}

fn codes(report: &Value) -> Vec<String> {
    report["integrity"]["findings"]
        .as_array()
        .map(|f| {
            f.iter()
                .filter_map(|f| f["code"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn seen_before(report: &Value) -> Vec<String> {
    report["integrity"]["findings"]
        .as_array()
        .map(|f| {
            f.iter()
                .filter(|f| f["code"] == "statement_seen_before")
                .filter_map(|f| f["message"].as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

async fn two_sims_with_terms_complete_and_can_be_fetched(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("app"), Sandbox).await;
    let sims: Vec<_> = two_sims(11).iter().map(json_of).collect();
    let got = apply(
        &server,
        &key,
        &sims,
        &[
            ("principal", "20000"),
            ("tenorMonths", "6"),
            ("monthlyRate", "0.035"),
        ],
        None,
    )
    .await;
    let (status, headers, body) = &got;
    assert_eq!(*status, 201, "{body}");
    let id = body["applicationId"].as_str().expect("id");
    assert!(id.starts_with("app_"), "{id}");
    assert_eq!(
        headers.get("location").and_then(|v| v.to_str().ok()),
        Some(format!("/v1/applications/{id}").as_str())
    );
    assert_eq!(body["status"], "completed");
    assert_eq!(body["statements"].as_array().map(Vec::len), Some(2));
    assert!(
        body["score"]
            .as_u64()
            .is_some_and(|s| (300..=850).contains(&s))
    );
    assert_eq!(body["affordability"]["terms"]["tenorMonths"], 6);
    assert_eq!(body["affordability"]["currency"], "KES");
    assert!(body["affordability"]["fits"].is_boolean());
    assert_eq!(body["environment"], "sandbox");
    assert!(body["consentId"].is_null());
    // The same engine figures as the engine's own application of these statements.
    let engine = alama_core::score_application(&two_sims(11), None, None, None).expect("engine");
    assert_eq!(body["score"], engine.score);
    assert_eq!(
        body["statements"][0]["reportId"],
        engine.statements[0].report_id
    );

    let (status, _, fetched) = server.get(&format!("/v1/applications/{id}"), &key).await;
    assert_eq!(status, 200);
    assert_eq!(&fetched, body);
    // Neither path answers the other's records.
    assert_problem(
        &server.get(&format!("/v1/scores/{id}"), &key).await,
        404,
        "report_not_found",
    );
    let other = server.key(&partner("app-other"), Sandbox).await;
    assert_problem(
        &server.get(&format!("/v1/applications/{id}"), &other).await,
        404,
        "application_not_found",
    );
    // One statement in another currency: refused, stored as failed.
    let ugx = alama_core::testing::edits::converted(
        &synthetic_statement(12, 6),
        "UGX",
        Decimal::from(30),
    );
    let got = apply(&server, &key, &[sims[0].clone(), json_of(&ugx)], &[], None).await;
    assert_problem(&got, 422, "currency_mismatch");
    let failed = got.2["applicationId"]
        .as_str()
        .expect("failed id")
        .to_owned();
    let (_, _, stored) = server
        .get(&format!("/v1/applications/{failed}"), &key)
        .await;
    assert_eq!(stored["status"], "failed");
    assert_eq!(stored["error"]["code"], "currency_mismatch");
    assert_eq!(stored["statements"], json!([]));
    // Erasure.
    let erased = server
        .client
        .delete(server.url(&format!("/v1/applications/{id}")))
        .bearer_auth(&key)
        .send()
        .await
        .expect("DELETE");
    assert_eq!(erased.status().as_u16(), 204);
    assert_problem(
        &server.get(&format!("/v1/applications/{id}"), &key).await,
        404,
        "application_not_found",
    );
    server.stop().await;
}

async fn overlaps_are_read_once_and_disagreements_are_critical(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("app-overlap"), Sandbox).await;
    let parts = overlapping(3);
    let (status, _, body) = apply(
        &server,
        &key,
        &parts.iter().map(json_of).collect::<Vec<_>>(),
        &[],
        None,
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let whole = alama_core::score(&synthetic_statement(3, 6)).expect("whole");
    assert_eq!(body["score"], whole.score, "an overlap is read once");
    assert!(!codes(&body).contains(&"statements_disagree".to_owned()));

    // The second statement's copy of an April row says another amount.
    let mut edited = parts;
    let row = edited[1]
        .transactions
        .iter_mut()
        .find(|t| {
            t.completed_at.date().to_string().starts_with("2024-04") && t.withdrawn > Decimal::ZERO
        })
        .expect("an April payment");
    row.withdrawn += Decimal::ONE;
    let (status, _, body) = apply(
        &server,
        &key,
        &edited.iter().map(json_of).collect::<Vec<_>>(),
        &[],
        None,
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["integrity"]["status"], "failed");
    assert!(
        codes(&body).contains(&"statements_disagree".to_owned()),
        "{body}"
    );
    server.stop().await;
}

async fn own_transfers_are_found(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("app-own"), Sandbox).await;
    let sims = own_transfer(5, Decimal::from(4000));
    let (status, _, body) = apply(
        &server,
        &key,
        &sims.iter().map(json_of).collect::<Vec<_>>(),
        &[],
        None,
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert!(codes(&body).contains(&"own_transfers".to_owned()), "{body}");
    server.stop().await;
}

async fn forms_and_limits_are_checked(db: Db) {
    let limits = Limits {
        max_statement_bytes: 150_000,
        ..Limits::default()
    };
    let server = Server::start_with(&db, limits).await;
    let key = server.key(&partner("app-limits"), Sandbox).await;
    let one = json_of(&synthetic_statement(1, 3));
    assert!(
        one.len() < 75_000 && one.len() * 3 > 150_000,
        "{}",
        one.len()
    );
    // Six statements: one too many.
    let small = json_of(&synthetic_statement(1, 1));
    let got = apply(&server, &key, &vec![small.clone(); 6], &[], None).await;
    assert_problem(&got, 422, "too_many_statements");
    assert_eq!(got.2["limit"], 5);
    // Together over the limit, though each is under it.
    let got = apply(&server, &key, &vec![one.clone(); 3], &[], None).await;
    assert_problem(&got, 413, "too_large");
    assert_eq!(got.2["limit"], 150_000);
    // No statement; more passwords than statements; unknown field; bad terms.
    assert_problem(
        &apply(&server, &key, &[], &[("principal", "1")], None).await,
        400,
        "invalid_request",
    );
    assert_problem(
        &apply(
            &server,
            &key,
            std::slice::from_ref(&small),
            &[("password", "a"), ("password", "b")],
            None,
        )
        .await,
        400,
        "invalid_request",
    );
    assert_problem(
        &apply(
            &server,
            &key,
            std::slice::from_ref(&small),
            &[("colour", "red")],
            None,
        )
        .await,
        400,
        "invalid_request",
    );
    let got = apply(
        &server,
        &key,
        std::slice::from_ref(&small),
        &[("principal", "1000")],
        None,
    )
    .await;
    assert_problem(&got, 400, "invalid_request");
    assert!(
        got.2["detail"]
            .as_str()
            .is_some_and(|d| d.contains("tenor")),
        "{}",
        got.2
    );
    assert_problem(
        &apply(
            &server,
            &key,
            std::slice::from_ref(&small),
            &[("principal", "lots"), ("tenorMonths", "3")],
            None,
        )
        .await,
        400,
        "invalid_request",
    );
    // A part that is not a statement is named by its position.
    let got = apply(
        &server,
        &key,
        &[small, b"\x00\x01garbage".to_vec()],
        &[],
        None,
    )
    .await;
    assert_problem(&got, 415, "unsupported_format");
    assert!(
        got.2["detail"]
            .as_str()
            .is_some_and(|d| d.starts_with("statement 2")),
        "{}",
        got.2
    );
    server.stop().await;
}

async fn idempotent_retries_replay_the_application(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("app-idem"), Sandbox).await;
    let sims: Vec<_> = two_sims(21).iter().map(json_of).collect();
    let first = apply(&server, &key, &sims, &[], Some("k-1")).await;
    assert_eq!(first.0, 201, "{}", first.2);
    // The same statements in the other order are the same request.
    let reversed: Vec<_> = sims.iter().rev().cloned().collect();
    let again = apply(&server, &key, &reversed, &[], Some("k-1")).await;
    assert_eq!(again.0, 201);
    assert_eq!(
        again
            .1
            .get("idempotent-replayed")
            .and_then(|v| v.to_str().ok()),
        Some("true")
    );
    assert_eq!(again.2, first.2);
    // Other terms under the same key: another request.
    let got = apply(
        &server,
        &key,
        &sims,
        &[("principal", "5000"), ("tenorMonths", "3")],
        Some("k-1"),
    )
    .await;
    assert_problem(&got, 422, "idempotency_key_reused");
    // A key of an analysis is not an application's.
    let (status, _, _) = server
        .analyse(&key, sims[0].clone(), None, None, Some("k-2"))
        .await;
    assert_eq!(status, 201);
    assert_problem(
        &apply(&server, &key, &sims[..1], &[], Some("k-2")).await,
        422,
        "idempotency_key_reused",
    );
    server.stop().await;
}

async fn seen_before_is_flagged_within_one_partner_only(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("seen"), Sandbox).await;
    let statement = json_of(&synthetic_statement(31, 6));
    let first_consent = consent(&server, &key, "CUST-A").await;
    let (status, _, first) = server
        .analyse(&key, statement.clone(), None, Some(&first_consent), None)
        .await;
    assert_eq!(status, 201, "{first}");
    assert!(seen_before(&first).is_empty(), "{first}");
    let first_id = first["reportId"].as_str().expect("id").to_owned();

    // The same customer again (a new consent): not flagged.
    let again = consent(&server, &key, "CUST-A").await;
    let (_, _, same) = server
        .analyse(&key, statement.clone(), None, Some(&again), None)
        .await;
    assert!(seen_before(&same).is_empty(), "{same}");
    assert_eq!(same["integrity"], first["integrity"]);

    // Another customer reference: flagged, naming the first report; the score is the engine's.
    let other = consent(&server, &key, "CUST-B").await;
    let (status, _, flagged) = server
        .analyse(&key, statement.clone(), None, Some(&other), None)
        .await;
    assert_eq!(status, 201, "{flagged}");
    let messages = seen_before(&flagged);
    assert_eq!(messages.len(), 1, "{flagged}");
    assert!(messages[0].contains(&first_id), "{}", messages[0]);
    assert_eq!(flagged["integrity"]["status"], "warnings");
    assert_eq!(flagged["score"], first["score"]);
    let finding = flagged["integrity"]["findings"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["code"] == "statement_seen_before"))
        .expect("finding");
    assert_eq!(finding["severity"], "warning");
    // Stored as answered.
    let (_, _, stored) = server
        .get(
            &format!("/v1/scores/{}", flagged["reportId"].as_str().expect("id")),
            &key,
        )
        .await;
    assert_eq!(stored, flagged);

    // In an application of another customer: the statement is named by its position.
    let third = consent(&server, &key, "CUST-C").await;
    let fresh = json_of(&synthetic_statement(32, 6));
    let (status, _, app) = apply(
        &server,
        &key,
        &[fresh, statement.clone()],
        &[("consentId", &third)],
        None,
    )
    .await;
    assert_eq!(status, 201, "{app}");
    let messages = seen_before(&app);
    assert_eq!(messages.len(), 1, "{app}");
    assert!(messages[0].starts_with("statement 2 "), "{}", messages[0]);

    // Another partner never sees this partner's statements.
    let stranger = server.key(&partner("seen-other"), Sandbox).await;
    let theirs = consent(&server, &stranger, "CUST-B").await;
    let (status, _, elsewhere) = server
        .analyse(&stranger, statement.clone(), None, Some(&theirs), None)
        .await;
    assert_eq!(status, 201);
    assert!(seen_before(&elsewhere).is_empty(), "{elsewhere}");
    // Without a consent (Sandbox) nothing is compared.
    let (_, _, anonymous) = server.analyse(&key, statement, None, None, None).await;
    assert!(seen_before(&anonymous).is_empty(), "{anonymous}");
    server.stop().await;
}

async fn seen_before_forgets_erased_reports(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("seen-erased"), Sandbox).await;
    let statement = json_of(&synthetic_statement(41, 6));
    let mut ids = Vec::new();
    for reference in ["CUST-1", "CUST-2"] {
        let c = consent(&server, &key, reference).await;
        let (status, _, r) = server
            .analyse(&key, statement.clone(), None, Some(&c), None)
            .await;
        assert_eq!(status, 201, "{r}");
        ids.push(r["reportId"].as_str().expect("id").to_owned());
    }
    // An application of the statement under a third customer: seen before, then kept too.
    let third = consent(&server, &key, "CUST-4").await;
    let (status, _, app) = apply(
        &server,
        &key,
        std::slice::from_ref(&statement),
        &[("consentId", &third)],
        None,
    )
    .await;
    assert_eq!(status, 201, "{app}");
    assert_eq!(seen_before(&app).len(), 1, "{app}");
    let app_id = app["applicationId"].as_str().expect("id").to_owned();
    assert_eq!(
        kept(&server, ids[0].clone()).await,
        64,
        "a sketch of 64 rows is kept"
    );
    assert_eq!(kept(&server, app_id.clone()).await, 64);
    // The application goes with its consent, revoked with `eraseReports`.
    let (status, _, revoked) = server
        .post_json(
            &format!("/v1/consents/{third}/revoke"),
            &key,
            &json!({"reason": "customer asked", "eraseReports": true}),
        )
        .await;
    assert_eq!(status, 200, "{revoked}");
    assert_eq!(
        kept(&server, app_id.clone()).await,
        0,
        "erasing the consent deletes them"
    );
    assert_problem(
        &server
            .get(&format!("/v1/applications/{app_id}"), &key)
            .await,
        404,
        "application_not_found",
    );
    for id in &ids {
        let r = server
            .client
            .delete(server.url(&format!("/v1/scores/{id}")))
            .bearer_auth(&key)
            .send()
            .await
            .expect("DELETE");
        assert_eq!(r.status().as_u16(), 204);
        assert_eq!(
            kept(&server, id.clone()).await,
            0,
            "erasure deletes the fingerprints"
        );
    }
    let c = consent(&server, &key, "CUST-3").await;
    let (status, _, after) = server.analyse(&key, statement, None, Some(&c), None).await;
    assert_eq!(status, 201);
    assert!(seen_before(&after).is_empty(), "{after}");
    server.stop().await;
}

async fn retention_forgets_the_fingerprints(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("seen-retention"), Sandbox).await;
    let c = consent(&server, &key, "CUST-R").await;
    let statement = json_of(&synthetic_statement(43, 3));
    let (status, _, first) = server.analyse(&key, statement, None, Some(&c), None).await;
    assert_eq!(status, 201, "{first}");
    // The end of the retention period erases the report, and its fingerprints with it (the
    // report aged to 1970, the cut-off just after: other tests' rows on a shared database stay).
    let last = first["reportId"].as_str().expect("id").to_owned();
    assert_eq!(kept(&server, last.clone()).await, 64);
    // A second report left as a pass that failed half-way leaves it: erased, fingerprints kept.
    let c2 = consent(&server, &key, "CUST-R2").await;
    let statement = json_of(&synthetic_statement(44, 3));
    let (status, _, second) = server.analyse(&key, statement, None, Some(&c2), None).await;
    assert_eq!(status, 201, "{second}");
    let half_done = second["reportId"].as_str().expect("id").to_owned();
    assert_eq!(kept(&server, half_done.clone()).await, 64);
    // Ages a report and its fingerprints to 1970 (`erased`: as a pass that failed after
    // erasing it leaves it).
    let age = |id: String, erased: bool| {
        let pool = server.storage.pool().clone();
        async move {
            let report = if erased {
                "UPDATE reports SET created_at = 1, erased_at = 2 WHERE id = $1"
            } else {
                "UPDATE reports SET created_at = 1 WHERE id = $1"
            };
            for sql in [
                report,
                "UPDATE statement_fingerprints SET created_at = 1 WHERE report_id = $1",
            ] {
                sqlx::query(sql)
                    .bind(&id)
                    .execute(&pool)
                    .await
                    .expect("age the report");
            }
        }
    };
    age(half_done.clone(), true).await;
    // Nothing left to erase: the pass still forgets what the half-done one left.
    server
        .storage
        .apply_retention(2, alama_server::ids::now_ms())
        .await
        .expect("retention");
    assert_eq!(
        kept(&server, half_done).await,
        0,
        "the next pass forgets what a half-done one left"
    );
    age(last.clone(), false).await;
    // Every test server runs its own 90-day retention pass at start, on the same database:
    // one started by a test running beside this one may erase the aged report first. Either
    // way the report ends erased and this pass forgets its fingerprints.
    server
        .storage
        .apply_retention(2, alama_server::ids::now_ms())
        .await
        .expect("retention");
    let erased: Option<i64> = sqlx::query_scalar("SELECT erased_at FROM reports WHERE id = $1")
        .bind(&last)
        .fetch_one(server.storage.pool())
        .await
        .expect("the report's row");
    assert!(erased.is_some(), "retention erases the aged report");
    assert_eq!(
        kept(&server, last).await,
        0,
        "retention deletes the fingerprints"
    );
    server.stop().await;
}
