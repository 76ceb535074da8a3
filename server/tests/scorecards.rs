//! A partner's own scorecards (issue 14): `alama scorecards add|list`, immutable versions, one
//! default per partner, environment and currency (more in `currency_defaults.rs`), the analyse
//! endpoint's `scorecard` field (a named card gives exactly `alama_core::score_with`'s report),
//! `unknown_scorecard`, partner isolation, and the golden vectors of every card in
//! tests/scorecard-vectors/ replayed over HTTP.

#[macro_use]
mod support;

use std::path::PathBuf;

use alama_server::Environment::{self, Live, Sandbox};
use alama_server::cli::{DatabaseArgs, ScorecardsCommand, scorecards_command};
use reqwest::multipart::{Form, Part};
use serde_json::{Map, Value};
use support::{Db, Server, analyse, assert_problem, partner, split, statement_csv};

on_both_backends!(
    add_list_conflict_and_default,
    a_named_card_scores_as_score_with,
    absent_field_uses_the_default_then_the_builtin,
    unknown_scorecard_is_422,
    partners_and_environments_are_isolated,
    vectors_of_every_card_replay_over_http,
    idempotency_key_covers_the_scorecard,
);

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/scorecard-vectors")
}

/// Every scorecard file of tests/scorecard-vectors/ (files with `characteristics`), by name.
fn card_files() -> Vec<(String, PathBuf, Value)> {
    let mut out: Vec<_> = std::fs::read_dir(vectors_dir())
        .expect("tests/scorecard-vectors")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| {
            let value: Value =
                serde_json::from_str(&std::fs::read_to_string(&p).expect("read")).expect("json");
            let name = p.file_name().expect("name").to_string_lossy().into_owned();
            (name, p, value)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn cards() -> Vec<(String, PathBuf, Value)> {
    card_files()
        .into_iter()
        .filter(|(_, _, v)| v.get("characteristics").is_some())
        .collect()
}

/// The committed lender example card: (path, parsed card).
fn lender_card() -> (PathBuf, alama_core::Scorecard) {
    let path = vectors_dir().join("lender-example-2027.01.json");
    let card = alama_core::Scorecard::from_json(&std::fs::read_to_string(&path).expect("card"))
        .expect("valid card");
    (path, card)
}

/// `card` under another version, written to a temp file: (path, card).
fn renamed(dir: &tempfile::TempDir, version: &str) -> (PathBuf, alama_core::Scorecard) {
    let (_, mut card) = lender_card();
    version.clone_into(&mut card.version);
    let path = dir.path().join(format!("{version}.json"));
    std::fs::write(&path, card.to_json_pretty()).expect("write");
    (path, card)
}

async fn add(
    db: &Db,
    partner: &str,
    environment: Environment,
    file: &std::path::Path,
    default: bool,
) -> Result<String, String> {
    let command = ScorecardsCommand::Add {
        partner: partner.to_owned(),
        environment,
        file: file.to_owned(),
        default,
        db: DatabaseArgs {
            database: db.url.clone(),
        },
    };
    let mut out = Vec::new();
    scorecards_command(&command, &mut out, &mut Vec::new()).await?;
    Ok(String::from_utf8(out).expect("utf8"))
}

async fn list(db: &Db, partner: &str) -> Result<String, String> {
    let command = ScorecardsCommand::List {
        partner: partner.to_owned(),
        db: DatabaseArgs {
            database: db.url.clone(),
        },
    };
    let mut out = Vec::new();
    scorecards_command(&command, &mut out, &mut Vec::new()).await?;
    Ok(String::from_utf8(out).expect("utf8"))
}

/// The engine's report as the service stores it: its `reportId`, the holder name masked.
fn as_served(mut report: alama_core::Report, report_id: &str) -> String {
    report_id.clone_into(&mut report.report_id);
    alama_server::privacy::mask_report(&mut report);
    report.to_json()
}

/// The service's body without its own members: the engine's report JSON.
fn engine_part(body: &Value) -> String {
    let mut map: Map<String, Value> = body.as_object().expect("object").clone();
    for k in ["consentId", "environment", "createdAt", "completedAt"] {
        map.remove(k);
    }
    serde_json::to_string(&map).expect("json")
}

async fn add_list_conflict_and_default(db: Db) {
    let name = partner("cards");
    let dir = tempfile::tempdir().expect("tmp");
    let (path, card) = lender_card();
    let out = add(&db, &name, Sandbox, &path, false).await.expect("add");
    assert_eq!(
        out.trim(),
        format!("added {} {}", card.version, card.sha256())
    );
    let again = add(&db, &name, Sandbox, &path, false)
        .await
        .expect("re-add");
    assert!(again.starts_with("unchanged "), "{again}");

    // Same version, other content: refused, whatever the flags.
    let (_, mut other) = lender_card();
    other.characteristics[0].name.push_str(" (edited)");
    let edited = dir.path().join("edited.json");
    std::fs::write(&edited, other.to_json()).expect("write");
    let conflict = add(&db, &name, Sandbox, &edited, true)
        .await
        .expect_err("must fail");
    assert!(
        conflict.starts_with("error[scorecard_conflict]"),
        "{conflict}"
    );
    assert!(conflict.contains(&card.sha256()), "{conflict}");

    // An invalid card and an unreadable file.
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, r#"{"version": "x"}"#).expect("write");
    let invalid = add(&db, &name, Sandbox, &broken, false)
        .await
        .expect_err("must fail");
    assert!(invalid.starts_with("error[invalid_scorecard]"), "{invalid}");
    let missing = add(&db, &name, Sandbox, &dir.path().join("none.json"), false)
        .await
        .expect_err("must fail");
    assert!(missing.starts_with("error[io_error]"), "{missing}");

    let rows = |text: &str| -> Vec<Vec<String>> {
        text.lines()
            .skip(1)
            .map(|l| l.split_whitespace().map(str::to_owned).collect())
            .collect()
    };
    let listed = rows(&list(&db, &name).await.expect("list"));
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0][..2], ["sandbox".to_owned(), card.version.clone()]);
    assert_eq!(listed[0][2], card.sha256(), "not the default yet");

    // --default on an existing version, then on a new one: one default per environment.
    add(&db, &name, Sandbox, &path, true)
        .await
        .expect("default");
    let (second, second_card) = renamed(&dir, "lender-example-2027.02");
    add(&db, &name, Sandbox, &second, true)
        .await
        .expect("second");
    add(&db, &name, Live, &path, true).await.expect("live");
    let listed = rows(&list(&db, &name).await.expect("list"));
    let defaults: Vec<(&str, &str)> = listed
        .iter()
        .filter(|r| r[2] == "yes")
        .map(|r| (r[0].as_str(), r[1].as_str()))
        .collect();
    assert_eq!(
        defaults,
        [
            ("live", card.version.as_str()),
            ("sandbox", second_card.version.as_str())
        ]
    );
    assert_eq!(listed.len(), 3);
    let unknown = list(&db, &partner("nobody")).await.expect_err("must fail");
    assert!(unknown.starts_with("error[not_found]"), "{unknown}");
}

async fn a_named_card_scores_as_score_with(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("named");
    let key = server.key(&name, Sandbox).await;
    let (path, card) = lender_card();
    add(&db, &name, Sandbox, &path, false).await.expect("add");
    let csv = statement_csv(400);
    let got = analyse(&server, &key, csv.clone(), Some(&card.version)).await;
    assert_eq!(got.0, 201, "{}", got.2);
    let body = &got.2;
    assert_eq!(body["scorecardVersion"], card.version.as_str());
    assert_eq!(body["scorecardSha256"], card.sha256().as_str());
    let statement = alama_core::parse(&csv, &alama_core::ParseOptions::default()).expect("parses");
    let expected = alama_core::score_with(&statement, &card).expect("scores");
    let id = body["reportId"].as_str().expect("id");
    assert_eq!(engine_part(body), as_served(expected, id));
    // Fetched again: the same card.
    let (status, _, fetched) = server.get(&format!("/v1/scores/{id}"), &key).await;
    assert_eq!(status, 200);
    assert_eq!(fetched["scorecardSha256"], card.sha256().as_str());
    server.stop().await;
}

async fn absent_field_uses_the_default_then_the_builtin(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("default");
    let key = server.key(&name, Sandbox).await;
    let builtin = alama_core::scorecard::builtin();
    let csv = statement_csv(200);
    let (status, _, body) = analyse(&server, &key, csv.clone(), None).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["scorecardVersion"], builtin.version.as_str());
    assert_eq!(body["scorecardSha256"], builtin.sha256().as_str());

    let (path, card) = lender_card();
    add(&db, &name, Sandbox, &path, true).await.expect("add");
    let (status, _, body) = analyse(&server, &key, csv.clone(), None).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["scorecardVersion"], card.version.as_str());
    assert_eq!(body["scorecardSha256"], card.sha256().as_str());

    // The built-in card stays available by its version, whatever the default.
    let (status, _, body) = analyse(&server, &key, csv, Some(&builtin.version)).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["scorecardSha256"], builtin.sha256().as_str());
    server.stop().await;
}

async fn unknown_scorecard_is_422(db: Db) {
    let server = Server::start(&db).await;
    let key = server.key(&partner("unknown"), Sandbox).await;
    let got = analyse(&server, &key, statement_csv(50), Some("no-such-card-1.0")).await;
    assert_problem(&got, 422, "unknown_scorecard");
    assert_eq!(got.2["scorecard"], "no-such-card-1.0");
    assert!(got.2.get("reportId").is_none(), "no report is stored");
    server.stop().await;
}

async fn partners_and_environments_are_isolated(db: Db) {
    let server = Server::start(&db).await;
    let (a, b) = (partner("iso-a"), partner("iso-b"));
    let key_b = server.key(&b, Sandbox).await;
    let key_a_live = server.key(&a, Live).await;
    let (path, card) = lender_card();
    add(&db, &a, Sandbox, &path, true).await.expect("add");
    // Partner B can neither name A's card nor inherit A's default.
    let got = analyse(&server, &key_b, statement_csv(50), Some(&card.version)).await;
    assert_problem(&got, 422, "unknown_scorecard");
    // A's sandbox card is not A's live card (Live needs a granted consent first).
    let consent = server.granted_consent(&key_a_live).await;
    let form = Form::new()
        .part(
            "statement",
            Part::bytes(statement_csv(50)).file_name("s.csv"),
        )
        .text("consentId", consent)
        .text("scorecard", card.version.clone());
    let r = server
        .client
        .post(server.url("/v1/scores/analyse"))
        .bearer_auth(&key_a_live)
        .multipart(form)
        .send()
        .await
        .expect("POST");
    assert_problem(&split(r).await, 422, "unknown_scorecard");
    let (status, _, body) = analyse(&server, &key_b, statement_csv(50), None).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(
        body["scorecardVersion"],
        alama_core::scorecard::builtin().version.as_str()
    );
    server.stop().await;
}

async fn vectors_of_every_card_replay_over_http(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("vectors");
    let key = server.key(&name, Sandbox).await;
    let files = card_files();
    let cards = cards();
    assert!(
        !cards.is_empty(),
        "no scorecard in tests/scorecard-vectors/"
    );
    let mut replayed = 0;
    for (card_name, path, card_json) in &cards {
        add(&db, &name, Sandbox, path, false).await.expect("add");
        let version = card_json["version"].as_str().expect("version");
        let vectors: Vec<&Value> = files
            .iter()
            .map(|(_, _, v)| v)
            .filter(|v| v.get("input").is_some() && v["scorecard"] == card_name.as_str())
            .collect();
        assert!(!vectors.is_empty(), "no vector names {card_name}");
        for v in vectors {
            let input = serde_json::to_vec(&v["input"]).expect("json");
            let (status, _, body) = analyse(&server, &key, input, Some(version)).await;
            assert_eq!(status, 201, "{} {body}", v["name"]);
            let expected =
                alama_core::Report::from_json(&v["report"].to_string()).expect("vector report");
            let id = body["reportId"].as_str().expect("id");
            assert_eq!(engine_part(&body), as_served(expected, id), "{}", v["name"]);
            replayed += 1;
        }
    }
    assert!(replayed > 0);
    server.stop().await;
}

async fn idempotency_key_covers_the_scorecard(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("idem");
    let key = server.key(&name, Sandbox).await;
    let (path, card) = lender_card();
    add(&db, &name, Sandbox, &path, false).await.expect("add");
    let post = |scorecard: Option<String>| {
        let mut form = Form::new().part("statement", Part::bytes(statement_csv(60)).file_name("s"));
        if let Some(s) = scorecard {
            form = form.text("scorecard", s);
        }
        server
            .client
            .post(server.url("/v1/scores/analyse"))
            .bearer_auth(&key)
            .header("Idempotency-Key", "idem-scorecard-1")
            .multipart(form)
            .send()
    };
    let first = split(post(Some(card.version.clone())).await.expect("POST")).await;
    assert_eq!(first.0, 201, "{}", first.2);
    let again = split(post(Some(card.version.clone())).await.expect("POST")).await;
    assert_eq!(again.0, 201, "{}", again.2);
    assert_eq!(
        again
            .1
            .get("idempotent-replayed")
            .map(reqwest::header::HeaderValue::as_bytes),
        Some(&b"true"[..])
    );
    assert_eq!(again.2["reportId"], first.2["reportId"]);
    // The same key and statement with another (or no) scorecard is another request.
    let other = split(post(None).await.expect("POST")).await;
    assert_problem(&other, 422, "idempotency_key_reused");
    server.stop().await;
}
