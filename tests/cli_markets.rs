//! The `alama` command line in markets other than Kenya (issue 38): `alama scorecard list` shows
//! the built-in card of each currency, a statement is scored with the card of its own currency,
//! and a card of another currency or a currency without a card is a one-line error, exit 1.
//! (A file of its own: tests/cli.rs is past the ~400-line mark.)

use std::path::PathBuf;
use std::process::{Command, Output};

fn alama(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_alama"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("runs alama")
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// examples/statement.json labelled `currency`, written to a temp folder of this test: its path.
fn statement_in(currency: &str, test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("alama-cli-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let mut value: serde_json::Value =
        serde_json::from_slice(&std::fs::read("examples/statement.json").expect("example"))
            .expect("json");
    value["currency"] = serde_json::Value::from(currency);
    let path = dir.join(format!("statement-{currency}.json"));
    std::fs::write(&path, value.to_string()).expect("write");
    path
}

#[test]
fn scorecard_list_shows_the_four_builtin_cards() {
    let o = alama(&["scorecard", "list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).expect("utf-8");
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    let listed: Vec<(&str, &str)> = rows.iter().map(|r| (r[0], r[1])).collect();
    let expected: Vec<(String, String)> = alama_core::scorecard::builtins()
        .map(|c| (c.currency.clone(), c.version.clone()))
        .collect();
    assert_eq!(
        listed,
        expected
            .iter()
            .map(|(c, v)| (c.as_str(), v.as_str()))
            .collect::<Vec<_>>()
    );
    let mut currencies: Vec<&str> = listed.iter().map(|r| r.0).collect();
    currencies.sort_unstable();
    assert_eq!(currencies, ["GHS", "KES", "LSL", "UGX"]);
    for (row, card) in rows.iter().zip(alama_core::scorecard::builtins()) {
        assert!(card.sha256().starts_with(row[2]), "{out}");
        // The month-with-income edge, in the card's own currency.
        assert_eq!(row[3], card.currency, "{out}");
    }
}

#[test]
fn a_ugx_statement_scores_with_the_ugx_card() {
    let ugx = statement_in("UGX", "ugx");
    let o = alama(&["score", ugx.to_str().expect("utf-8")]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("report");
    assert_eq!(report["scorecardVersion"], "alama-ugx-2027.03");
    assert_eq!(report["statement"]["currency"], "UGX");
    let card = alama_core::scorecard::builtin_for("UGX").expect("UGX card");
    assert_eq!(report["scorecardSha256"], card.sha256().as_str());
    // The same numbers labelled KES are a larger income: never the same report.
    let kes = alama(&["score", "examples/statement.json"]);
    let kes: serde_json::Value = serde_json::from_slice(&kes.stdout).expect("report");
    assert_ne!(kes["scorecardVersion"], report["scorecardVersion"]);
    let _ = std::fs::remove_dir_all(ugx.parent().expect("dir"));
}

#[test]
fn a_kes_card_on_a_ugx_statement_is_currency_mismatch() {
    let ugx = statement_in("UGX", "mismatch");
    let dir = ugx.parent().expect("dir").to_owned();
    let exported = alama(&["scorecard", "export", "--currency", "KES"]);
    assert!(exported.status.success(), "{}", stderr(&exported));
    let card = dir.join("kes.json");
    std::fs::write(&card, &exported.stdout).expect("write");
    let o = alama(&[
        "score",
        ugx.to_str().expect("utf-8"),
        "--scorecard",
        card.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(o.stdout.is_empty(), "no report is printed");
    let err = stderr(&o);
    assert!(err.starts_with("error[currency_mismatch]:"), "{err}");
    assert!(err.contains("KES") && err.contains("UGX"), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_usd_statement_is_unsupported_currency() {
    let usd = statement_in("USD", "usd");
    let o = alama(&["score", usd.to_str().expect("utf-8")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.starts_with("error[unsupported_currency]:"), "{err}");
    for code in ["USD", "KES", "UGX", "GHS", "LSL"] {
        assert!(err.contains(code), "{err}");
    }
    let _ = std::fs::remove_dir_all(usd.parent().expect("dir"));
}
