//! A partner's default scorecard per currency (issue 38): `alama scorecards add --default` sets
//! the default of the card's own currency, `POST /v1/scores/analyse` without a `scorecard` field
//! scores with the default of the statement's currency (else the built-in card of that
//! currency), a card of another currency is `422 currency_mismatch`, a currency with no card
//! `422 unsupported_currency`; migration 6 turns each earlier default into the default of its
//! card's currency.

#[macro_use]
mod support;

use std::path::{Path, PathBuf};

use alama_server::Environment::Sandbox;
use alama_server::cli::{DatabaseArgs, ScorecardsCommand, scorecards_command};
use serde_json::Value;
use support::{Db, Server, analyse, assert_problem, partner, statement_csv};

on_both_backends!(
    defaults_are_kept_per_currency,
    currency_mismatch_and_unsupported_currency_are_422,
);

/// examples/statement.json (a KES statement) labelled `currency`, as bytes.
fn statement_in(currency: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../examples/statement.json");
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("example")).expect("json");
    value["currency"] = Value::from(currency);
    serde_json::to_vec(&value).expect("json")
}

/// The built-in card of `currency` under a version of the partner's own, written to a file in
/// `dir`: (path, card).
fn own_card(dir: &Path, currency: &str, version: &str) -> (PathBuf, alama_core::Scorecard) {
    let mut card = alama_core::scorecard::builtin_for(currency)
        .expect("a built-in card")
        .clone();
    version.clone_into(&mut card.version);
    let path = dir.join(format!("{version}.json"));
    std::fs::write(&path, card.to_json_pretty()).expect("write");
    (path, card)
}

async fn add_default(db: &Db, partner: &str, file: &Path) -> (String, String) {
    let command = ScorecardsCommand::Add {
        partner: partner.to_owned(),
        environment: Sandbox,
        file: file.to_owned(),
        default: true,
        db: DatabaseArgs {
            database: db.url.clone(),
        },
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    scorecards_command(&command, &mut out, &mut err)
        .await
        .expect("add");
    (
        String::from_utf8(out).expect("utf8"),
        String::from_utf8(err).expect("utf8"),
    )
}

/// The sandbox versions marked default by `alama scorecards list`.
async fn listed_defaults(db: &Db, partner: &str) -> Vec<String> {
    let command = ScorecardsCommand::List {
        partner: partner.to_owned(),
        db: DatabaseArgs {
            database: db.url.clone(),
        },
    };
    let mut out = Vec::new();
    scorecards_command(&command, &mut out, &mut Vec::new())
        .await
        .expect("list");
    String::from_utf8(out)
        .expect("utf8")
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|r| r[0] == "sandbox" && r[2] == "yes")
        .map(|r| r[1].to_owned())
        .collect()
}

async fn defaults_are_kept_per_currency(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("per-currency");
    let key = server.key(&name, Sandbox).await;
    let dir = tempfile::tempdir().expect("tmp");
    let (kes_path, kes) = own_card(dir.path(), "KES", "lender-kes-2027.01");
    let (ugx_path, ugx) = own_card(dir.path(), "UGX", "lender-ugx-2027.01");
    let (_, note) = add_default(&db, &name, &kes_path).await;
    assert!(note.contains("for KES statements"), "{note}");
    let (_, note) = add_default(&db, &name, &ugx_path).await;
    assert!(note.contains("for UGX statements"), "{note}");
    // The UGX default did not replace the KES one: one default per currency.
    let mut defaults = listed_defaults(&db, &name).await;
    defaults.sort();
    assert_eq!(defaults, [kes.version.clone(), ugx.version.clone()]);

    let scored_with = |body: &Value| body["scorecardVersion"].as_str().map(str::to_owned);
    let (status, _, body) = analyse(&server, &key, statement_csv(120), None).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(scored_with(&body).as_deref(), Some(kes.version.as_str()));
    assert_eq!(body["scorecardSha256"], kes.sha256().as_str());
    let (status, _, body) = analyse(&server, &key, statement_in("UGX"), None).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(scored_with(&body).as_deref(), Some(ugx.version.as_str()));
    // A currency without a default of the partner's: the built-in card of that currency.
    let (status, _, body) = analyse(&server, &key, statement_in("GHS"), None).await;
    assert_eq!(status, 201, "{body}");
    let ghs = alama_core::scorecard::builtin_for("GHS").expect("GHS card");
    assert_eq!(scored_with(&body).as_deref(), Some(ghs.version.as_str()));

    // A new KES default replaces the KES default only.
    let (kes2_path, kes2) = own_card(dir.path(), "KES", "lender-kes-2027.02");
    add_default(&db, &name, &kes2_path).await;
    let mut defaults = listed_defaults(&db, &name).await;
    defaults.sort();
    assert_eq!(defaults, [kes2.version.clone(), ugx.version.clone()]);
    let (status, _, body) = analyse(&server, &key, statement_csv(120), None).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(scored_with(&body).as_deref(), Some(kes2.version.as_str()));
    server.stop().await;
}

async fn currency_mismatch_and_unsupported_currency_are_422(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("mismatch");
    let key = server.key(&name, Sandbox).await;
    let dir = tempfile::tempdir().expect("tmp");
    let (kes_path, kes) = own_card(dir.path(), "KES", "lender-kes-2027.01");
    add_default(&db, &name, &kes_path).await;
    let builtin_kes = alama_core::scorecard::builtin_for("KES").expect("KES card");

    // A KES card named on a UGX statement, built-in or the partner's own: no conversion.
    for version in [builtin_kes.version.as_str(), kes.version.as_str()] {
        let got = analyse(&server, &key, statement_in("UGX"), Some(version)).await;
        assert_problem(&got, 422, "currency_mismatch");
        let detail = got.2["detail"].as_str().expect("detail");
        assert!(detail.contains("KES") && detail.contains("UGX"), "{detail}");
    }
    // A USD statement without a card: the partner's KES default does not apply either.
    let got = analyse(&server, &key, statement_in("USD"), None).await;
    assert_problem(&got, 422, "unsupported_currency");
    let detail = got.2["detail"].as_str().expect("detail");
    for code in ["KES", "UGX", "GHS", "LSL"] {
        assert!(detail.contains(code), "{detail}");
    }
    // The same statement in KES still scores with the default.
    let (status, _, body) = analyse(&server, &key, statement_in("KES"), None).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["scorecardVersion"], kes.version.as_str());
    server.stop().await;
}

/// A database at schema version 5 with a KES default (partner `a`) and a UGX default
/// (partner `b`) migrates to one default per currency: each the default of its card's currency.
#[tokio::test]
async fn migration_6_keeps_each_default_under_its_cards_currency() {
    use sqlx::migrate::{Migration, MigrationType, Migrator};
    use sqlx::{Connection, SqlSafeStr};
    let db = Db::sqlite();
    sqlx::any::install_default_drivers();
    let steps = [
        include_str!("../migrations/0001_initial.sql"),
        include_str!("../migrations/0002_webhooks.sql"),
        include_str!("../migrations/0003_hardening.sql"),
        include_str!("../migrations/0004_portal.sql"),
        include_str!("../migrations/0005_scorecards.sql"),
    ];
    let names = ["initial", "webhooks", "hardening", "portal", "scorecards"];
    let migrations = steps
        .iter()
        .zip(names)
        .zip(1_i64..)
        .map(|((sql, name), version)| {
            Migration::new(
                version,
                std::borrow::Cow::Borrowed(name),
                MigrationType::Simple,
                sql.into_sql_str(),
                false,
            )
        })
        .collect();
    let url = format!("{}?mode=rwc", db.url);
    let mut conn = sqlx::AnyConnection::connect(&url).await.expect("connect");
    Migrator::with_migrations(migrations)
        .run(&mut conn)
        .await
        .expect("schema 5");
    let dir = tempfile::tempdir().expect("tmp");
    let (_, kes) = own_card(dir.path(), "KES", "lender-kes-2027.01");
    let (_, ugx) = own_card(dir.path(), "UGX", "lender-ugx-2027.01");
    for (partner, card) in [("ptn_a", &kes), ("ptn_b", &ugx)] {
        for (sql, binds) in [
            (
                "INSERT INTO partners (id, name, created_at) VALUES ($1, $2, 0)",
                vec![partner.to_owned(), partner.to_owned()],
            ),
            (
                "INSERT INTO scorecards (partner_id, environment, version, sha256, card_json, \
                 created_at) VALUES ($1, 'sandbox', $2, $3, $4, 0)",
                vec![
                    partner.to_owned(),
                    card.version.clone(),
                    card.sha256(),
                    card.to_json(),
                ],
            ),
            (
                "INSERT INTO scorecard_defaults (partner_id, environment, version, updated_at) \
                 VALUES ($1, 'sandbox', $2, 0)",
                vec![partner.to_owned(), card.version.clone()],
            ),
        ] {
            let mut query = sqlx::query(sql);
            for b in binds {
                query = query.bind(b);
            }
            query.execute(&mut conn).await.expect("insert");
        }
    }
    conn.close().await.expect("close");

    let storage = alama_server::storage::Storage::connect(&db.url)
        .await
        .expect("migrates to 6");
    for (partner, card) in [("ptn_a", &kes), ("ptn_b", &ugx)] {
        let owner = alama_server::storage::Owner {
            partner_id: partner.to_owned(),
            environment: Sandbox,
        };
        let defaults = storage.default_scorecards(&owner).await.expect("defaults");
        let currencies: Vec<&str> = defaults.keys().map(String::as_str).collect();
        assert_eq!(currencies, [card.currency.as_str()], "{partner}");
        assert_eq!(defaults[&card.currency], card.to_json(), "{partner}");
        let listed = storage.list_scorecards(partner).await.expect("list");
        assert!(listed.iter().all(|c| c.is_default), "{partner}");
    }
    storage.close().await;
}
