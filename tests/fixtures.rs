//! The project's own fixtures: `examples/statement.{csv,json}` and the golden vectors in
//! `tests/vectors/`, all made by the seeded synthetic generator (`alama_core::testing`).
//!
//! `cargo test --test fixtures` checks that the committed files are exactly what the generator
//! and the engine produce today; `ALAMA_BLESS=1 cargo test --test fixtures` rewrites them after a
//! deliberate change (a new scorecard version, a new rule), so the diff shows what moved.
//! Python, Node, Kotlin and the HTTP tests replay the same vectors.

use std::path::{Path, PathBuf};

use alama_core::testing::wallets::{Synthetic, airtel_statement, mtn_statement, vodacom_statement};
use alama_core::testing::{synthetic_statement, thin_statement};
use alama_core::{ParseOptions, Statement};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn bless() -> bool {
    std::env::var_os("ALAMA_BLESS").is_some()
}

/// The named vectors: (name, statement).
fn vectors() -> Vec<(String, Statement)> {
    let mut v: Vec<(String, Statement)> =
        [(1, 6), (2, 6), (3, 12), (4, 3), (5, 12), (6, 1), (7, 24)]
            .into_iter()
            .map(|(seed, months)| {
                (
                    format!("synthetic-seed{seed}-{months}m"),
                    synthetic_statement(seed, months),
                )
            })
            .collect();
    v.push(("thin-10rows-14days".to_owned(), thin_statement(10, 14)));
    v
}

fn example() -> Statement {
    let raw = synthetic_statement(42, 6);
    alama_core::parse(raw.to_json().as_bytes(), &ParseOptions::default())
        .expect("generator output parses")
        .into_statement()
}

fn check_or_write(path: &Path, expected: &str) {
    if bless() {
        std::fs::write(path, expected).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        return;
    }
    let actual = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}); run ALAMA_BLESS=1 cargo test --test fixtures",
            path.display()
        )
    });
    assert!(
        actual == expected,
        "{} differs from what the engine produces now; if the change is deliberate, run \
         ALAMA_BLESS=1 cargo test --test fixtures and review the diff",
        path.display()
    );
}

/// The other wallets' vectors: (name, file extension, the file as the wallet writes it), made by
/// each wallet's seeded generator (`alama_core::testing::wallets`), never from a real file.
fn wallet_vectors() -> Vec<(&'static str, &'static str, Synthetic)> {
    vec![
        (
            "wallet-airtel-ug-seed1-60rows",
            "pdf",
            airtel_statement(1, 60),
        ),
        ("wallet-mtn-gh-seed2-80rows", "csv", mtn_statement(2, 80)),
        (
            "wallet-vodacom-ls-seed3-80rows",
            "pdf",
            vodacom_statement(3, 80),
        ),
    ]
}

fn check_or_write_bytes(path: &Path, expected: &[u8]) {
    if bless() {
        std::fs::write(path, expected).unwrap_or_else(|e| panic!("write {}: {e}", path.display()));
        return;
    }
    let actual = std::fs::read(path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}); run ALAMA_BLESS=1 cargo test --test fixtures",
            path.display()
        )
    });
    assert!(
        actual == expected,
        "{} differs from what the generator writes now; if the change is deliberate, run \
         ALAMA_BLESS=1 cargo test --test fixtures and review the diff",
        path.display()
    );
}

#[test]
fn example_statement_files_are_generated() {
    // The example is the canonical (categorised) form that `alama parse` prints.
    let s = example();
    let json = serde_json::to_string_pretty(&s).expect("statement serialises") + "\n";
    check_or_write(&root().join("examples/statement.json"), &json);
    check_or_write(&root().join("examples/statement.csv"), &s.to_csv());
}

#[test]
fn examples_parse_to_the_same_report() {
    // The CSV loses the header (name, period, summary), so only the JSON keeps the full report;
    // both must score, and the JSON must give back exactly the generator's statement.
    let s = example();
    let json =
        std::fs::read(root().join("examples/statement.json")).expect("examples/statement.json");
    let parsed = alama_core::parse(&json, &ParseOptions::default()).expect("parses");
    let from_generator = alama_core::score(&s).expect("scores");
    assert_eq!(parsed, s);
    assert_eq!(alama_core::score(&parsed).expect("scores"), from_generator);
    let csv = std::fs::read(root().join("examples/statement.csv")).expect("examples/statement.csv");
    let from_csv = alama_core::parse(&csv, &ParseOptions::default()).expect("parses");
    assert_eq!(from_csv.transactions.len(), s.transactions.len());
    assert!(alama_core::score(&from_csv).is_ok());
}

#[test]
fn golden_vectors_replay() {
    let dir = root().join("tests/vectors");
    for (name, statement) in vectors() {
        let report = alama_core::score(&statement).expect("vector scores");
        let input: serde_json::Value = serde_json::from_str(&statement.to_json()).expect("json");
        let expected: serde_json::Value = serde_json::from_str(&report.to_json()).expect("json");
        let file = serde_json::json!({ "name": name, "input": input, "report": expected });
        let text = serde_json::to_string_pretty(&file).expect("serialises") + "\n";
        check_or_write(&dir.join(format!("{name}.json")), &text);

        // Replaying the committed input must give the committed report, byte for byte.
        let committed: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{name}.json"))).expect("vector"),
        )
        .expect("vector JSON");
        let input_bytes = serde_json::to_vec(&committed["input"]).expect("input");
        let replayed =
            alama_core::score_bytes(&input_bytes, &ParseOptions::default()).expect("replays");
        assert_eq!(
            replayed.to_json(),
            serde_json::to_string(&committed["report"]).expect("report"),
            "{name}"
        );
    }
}

/// One vector per other wallet: `{name}.{pdf,csv}` is the wallet's own file; `{name}.json` names
/// it (`file`) beside the canonical JSON its parse gives (`statement`) and the report of scoring
/// the file with the built-in card of its currency (`report`). Every runtime scores the file to
/// that report, byte for byte. (No `input`: the canonical JSON alone would score with the
/// evidence level of a JSON file, not of the wallet's own PDF or CSV.)
#[test]
fn wallet_vectors_replay() {
    let dir = root().join("tests/vectors");
    for (name, ext, synthetic) in wallet_vectors() {
        let file = format!("{name}.{ext}");
        check_or_write_bytes(&dir.join(&file), &synthetic.bytes);
        let bytes = std::fs::read(dir.join(&file)).expect("the vector's file");
        let parsed = alama_core::parse(&bytes, &ParseOptions::default()).expect("parses");
        assert!(parsed.unparsed.is_empty(), "{name}: {:?}", parsed.unparsed);
        assert_eq!(parsed, synthetic.expected_prepared(&parsed), "{name}");
        let report = alama_core::score_bytes(&bytes, &ParseOptions::default()).expect("scores");
        assert_eq!(report.statement.currency, parsed.currency, "{name}");
        let statement: serde_json::Value = serde_json::from_str(&parsed.to_json()).expect("json");
        let expected: serde_json::Value = serde_json::from_str(&report.to_json()).expect("json");
        let vector = serde_json::json!({
            "name": name,
            "file": file,
            "statement": statement,
            "report": expected,
        });
        let text = serde_json::to_string_pretty(&vector).expect("serialises") + "\n";
        check_or_write(&dir.join(format!("{name}.json")), &text);

        // The committed file replays to the committed statement and report.
        let committed: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{name}.json"))).expect("vector"),
        )
        .expect("vector JSON");
        assert_eq!(committed["file"], serde_json::json!(file));
        assert_eq!(
            parsed.to_json(),
            serde_json::to_string(&committed["statement"]).expect("statement"),
            "{name}"
        );
        assert_eq!(
            report.to_json(),
            serde_json::to_string(&committed["report"]).expect("report"),
            "{name}"
        );
    }
}

/// A second, non-default scorecard (a lender's refit, made here from the built-in card with
/// other income edges and knock-out cap), and the vectors scored with it: the same statement
/// and the same card give the same report in every runtime.
fn lender_card() -> alama_core::Scorecard {
    let mut v: serde_json::Value =
        serde_json::from_str(alama_core::scorecard::BUILTIN_JSON).expect("built-in JSON");
    v["version"] = serde_json::json!("lender-example-2027.01");
    if let Some(k) = v.get_mut("knockout") {
        k["cap"] = serde_json::json!(550);
    }
    // Capacity: income edges at 80 % of the built-in ones (a lender in a poorer region).
    let edges = ["2400", "6000", "12000", "24000", "40000", "80000"];
    let bins = &mut v["characteristics"][1]["attributes"][0]["bins"];
    for (i, b) in bins.as_array_mut().into_iter().flatten().enumerate() {
        if i > 0 {
            b["min"] = serde_json::json!(edges[i - 1]);
        }
        if let Some(edge) = edges.get(i) {
            b["max"] = serde_json::json!(edge);
        }
    }
    alama_core::Scorecard::from_json(&v.to_string()).expect("the lender card validates")
}

#[test]
fn scorecard_vectors_replay() {
    let dir = root().join("tests/scorecard-vectors");
    let card = lender_card();
    let card_path = dir.join(format!("{}.json", card.version));
    if bless() {
        std::fs::create_dir_all(&dir).expect("mkdir");
    }
    check_or_write(&card_path, &(card.to_json_pretty() + "\n"));
    let committed_card =
        alama_core::Scorecard::from_json(&std::fs::read_to_string(&card_path).expect("card"))
            .expect("committed card validates");
    assert_eq!(committed_card, card);
    for (name, statement) in vectors().into_iter().take(4) {
        let report = alama_core::score_with(&statement, &card).expect("vector scores");
        assert_eq!(report.scorecard_version, "lender-example-2027.01");
        assert_eq!(report.scorecard_sha256, card.sha256());
        assert_ne!(
            report.report_id,
            alama_core::score(&statement).expect("scores").report_id
        );
        let input: serde_json::Value = serde_json::from_str(&statement.to_json()).expect("json");
        let expected: serde_json::Value = serde_json::from_str(&report.to_json()).expect("json");
        let file = serde_json::json!({
            "name": name,
            "scorecard": format!("{}.json", card.version),
            "input": input,
            "report": expected,
        });
        let text = serde_json::to_string_pretty(&file).expect("serialises") + "\n";
        check_or_write(&dir.join(format!("{name}.json")), &text);
    }
}

/// The card fitted by `alama.modelling` on the synthetic population
/// (`scripts/fit-synthetic-scorecard.py`; docs/modelling.md), and the vectors scored with it,
/// named `{card version}-{vector name}.json`: a fitted card is plain data that every runtime
/// evaluates to the same report.
#[test]
fn fitted_scorecard_vectors_replay() {
    let dir = root().join("tests/scorecard-vectors");
    let card_file = "fitted-synthetic-2027.01.json";
    let text = std::fs::read_to_string(dir.join(card_file)).expect("the fitted card");
    let card = alama_core::Scorecard::from_json(&text).expect("the fitted card validates");
    assert_eq!(card.version, "fitted-synthetic-2027.01");
    assert_eq!(
        text,
        card.to_json_pretty() + "\n",
        "the fitted card is in canonical form"
    );
    for (name, statement) in vectors().into_iter().take(4) {
        let report = alama_core::score_with(&statement, &card).expect("vector scores");
        assert_eq!(report.scorecard_version, card.version);
        assert_eq!(report.scorecard_sha256, card.sha256());
        let input: serde_json::Value = serde_json::from_str(&statement.to_json()).expect("json");
        let expected: serde_json::Value = serde_json::from_str(&report.to_json()).expect("json");
        let file = serde_json::json!({
            "name": name,
            "scorecard": card_file,
            "input": input,
            "report": expected,
        });
        let text = serde_json::to_string_pretty(&file).expect("serialises") + "\n";
        let path = dir.join(format!("{}-{name}.json", card.version));
        check_or_write(&path, &text);

        // Replaying the committed input with the committed card gives the committed report.
        let committed: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("vector")).expect("JSON");
        let replayed = alama_core::score_with(
            &alama_core::parse(
                &serde_json::to_vec(&committed["input"]).expect("input"),
                &ParseOptions::default(),
            )
            .expect("parses"),
            &card,
        )
        .expect("replays");
        assert_eq!(
            replayed.to_json(),
            serde_json::to_string(&committed["report"]).expect("report"),
            "{name}"
        );
    }
}

/// The application vectors (issue 53): several statements of one invented applicant, made by
/// `alama_core::testing::application`, with loan terms or without. `applications/{name}.json` holds the
/// statements' canonical JSON (`inputs`), the terms (`terms`, or `null`) and the application's
/// report (`application`); every runtime parses each input with default options, scores them
/// as one application with those terms, and must print the committed report byte for byte.
fn application_vectors() -> Vec<(&'static str, Vec<Statement>, Option<alama_core::Terms>)> {
    use alama_core::testing::application::{consecutive, overlapping, own_transfer, two_sims};
    use alama_core::{Pricing, Terms};
    use rust_decimal::Decimal;
    let terms = |p: i64, n: u32, pricing: Pricing, fees: i64| {
        Terms::new(Decimal::from(p), n, pricing, Decimal::from(fees)).ok()
    };
    vec![
        ("application-consecutive-seed11", consecutive(11), None),
        (
            "application-overlap-seed12",
            overlapping(12),
            terms(30_000, 6, Pricing::MonthlyRate(Decimal::new(35, 3)), 500),
        ),
        (
            "application-two-sims-seed13",
            two_sims(13),
            terms(15_000, 3, Pricing::TotalCost(Decimal::from(2_250)), 0),
        ),
        (
            "application-own-transfer-seed14",
            own_transfer(14, Decimal::from(5_000)),
            terms(50_000, 12, Pricing::MonthlyRate(Decimal::new(2, 2)), 1_000),
        ),
    ]
}

#[test]
fn application_vectors_replay() {
    let dir = root().join("tests/vectors/applications");
    for (name, statements, terms) in application_vectors() {
        let report = alama_core::score_application(&statements, None, terms.as_ref(), None)
            .expect("the application scores");
        let inputs: Vec<serde_json::Value> = statements
            .iter()
            .map(|s| serde_json::from_str(&s.to_json()).expect("json"))
            .collect();
        let vector = serde_json::json!({
            "name": name,
            "inputs": inputs,
            "terms": terms,
            "application": serde_json::from_str::<serde_json::Value>(&report.to_json()).expect("json"),
        });
        let text = serde_json::to_string_pretty(&vector).expect("serialises") + "\n";
        check_or_write(&dir.join(format!("{name}.json")), &text);

        // The committed inputs, parsed as any binding parses them, give the committed report.
        let committed: serde_json::Value = serde_json::from_str(
            &std::fs::read_to_string(dir.join(format!("{name}.json"))).expect("vector"),
        )
        .expect("vector JSON");
        let parsed: Vec<_> = committed["inputs"]
            .as_array()
            .expect("inputs")
            .iter()
            .map(|i| {
                let bytes = serde_json::to_vec(i).expect("input");
                alama_core::parse(&bytes, &ParseOptions::default()).expect("parses")
            })
            .collect();
        let terms: Option<alama_core::Terms> =
            serde_json::from_value(committed["terms"].clone()).expect("terms");
        let replayed =
            alama_core::score_application(&parsed, None, terms.as_ref(), None).expect("replays");
        assert_eq!(
            replayed.to_json(),
            serde_json::to_string(&committed["application"]).expect("application"),
            "{name}"
        );
    }
}
