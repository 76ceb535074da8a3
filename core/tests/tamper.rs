//! The tamper benchmark: edited copies of the real statements in `../shared/samples/real/`
//! (made by [`alama_core::tamper`]) must come out `warnings` or `failed`.
//!
//! - `quick_tamper_check` (always run): one variant of every edit kind on the two small
//!   samples; asserts the detections docs/integrity.md promises.
//! - `tamper_benchmark` (ignored; run on demand): `ALAMA_TAMPER_N` (default 2) seeded variants
//!   per edit kind per genuine PDF; prints the confusion table published in docs/integrity.md:
//!   `cargo test -p alama-core --features testing --test tamper -- --ignored --nocapture`
//!
//! The samples hold real people's data: only edit kinds, codes and counts are printed. Without
//! the samples folder every test prints a note and passes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use alama_core::check::check;
use alama_core::tamper::{Edit, mutate};
use alama_core::{ParseOptions, Severity};

/// Genuine PDFs and their passwords ("" when not encrypted).
const GENUINE: &[(&str, &str)] = &[
    (
        "mpesa_2022-01_monthly_itext5_aes256_pw34915463.pdf",
        "34915463",
    ),
    ("mpesa_2023-04_decrypted_3heights.pdf", ""),
    (
        "mpesa_2021-03_to_2022-03_encrypted_pw35388008_cancelled_rows.pdf",
        "35388008",
    ),
    ("mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf", "183177"),
    ("mpesa_2024-04_to_2024-10_unlocked_ilovepdf.pdf", ""),
];

/// Finding codes that come from the content (sums, chain, pages, rows), not from the file.
const CONTENT_CODES: &[&str] = &[
    "summary_mismatch",
    "edited_amount",
    "balance_breaks",
    "balance_edited",
    "balance_digit_edited",
    "row_arithmetic",
    "missing_pages",
    "extra_pages",
    "unparsed_rows",
    "rows_outside_period",
    "receipt_off_day",
];

fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples/real");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("note: {} is absent; skipping", dir.display());
        None
    }
}

/// The outcome of one variant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Outcome {
    /// `warnings` or `failed` with a content finding.
    ByContent,
    /// `warnings` or `failed` from file forensics only.
    ByForensics,
    /// The engine refused the file (it no longer parses).
    Refused,
    /// `verified` or `consistent`.
    Missed,
}

fn judge(bytes: &[u8], password: &str) -> Outcome {
    let options = if password.is_empty() {
        ParseOptions::default()
    } else {
        ParseOptions::with_password(password)
    };
    let Ok(statement) = alama_core::parse(bytes, &options) else {
        return Outcome::Refused;
    };
    let wallet = alama_core::wallets::of(&statement.provider).expect("a wallet");
    let integrity = check(&statement.reading(), wallet, None);
    let serious = |f: &&alama_core::Finding| f.severity > Severity::Info;
    if !integrity.findings.iter().any(|f| serious(&f)) {
        return Outcome::Missed;
    }
    let by_content = integrity
        .findings
        .iter()
        .filter(serious)
        .any(|f| CONTENT_CODES.contains(&f.code.as_str()));
    if by_content {
        Outcome::ByContent
    } else {
        Outcome::ByForensics
    }
}

fn run(dir: &Path, name: &str, password: &str, edit: Edit, seed: u64) -> Option<Outcome> {
    let original = std::fs::read(dir.join(name)).ok()?;
    let pw = (!password.is_empty()).then_some(password);
    match mutate(&original, pw, edit, seed) {
        Ok(bytes) => {
            if let Ok(dump) = std::env::var("ALAMA_TAMPER_DUMP") {
                let file = format!("{dump}/{}-{seed}-{name}", edit.name());
                std::fs::write(file, &bytes).ok()?;
            }
            Some(judge(&bytes, password))
        }
        Err(e) => {
            eprintln!("{}: {name} seed {seed}: not made ({e})", edit.name());
            None
        }
    }
}

#[test]
fn quick_tamper_check() {
    let Some(dir) = samples() else {
        return;
    };
    for (name, password) in &GENUINE[..2] {
        for edit in Edit::ALL {
            let Some(outcome) = run(&dir, name, password, edit, 1) else {
                continue;
            };
            eprintln!("{name}: {} → {outcome:?}", edit.name());
            // Content edits that change a sum must be caught by the content checks.
            if matches!(
                edit,
                Edit::AmountDigit | Edit::DeleteRow | Edit::DropPage | Edit::FabricateRow
            ) {
                assert!(
                    matches!(outcome, Outcome::ByContent | Outcome::Refused),
                    "{name}: {} → {outcome:?}",
                    edit.name()
                );
            }
            // Appending to the file is always visible.
            if edit == Edit::IncrementalUpdate {
                assert_eq!(outcome, Outcome::ByForensics, "{name}");
            }
        }
    }
}

#[test]
#[allow(clippy::print_stdout)] // the benchmark's output is its table
#[ignore = "benchmark: several minutes in a debug build; run on demand"]
fn tamper_benchmark() {
    let Some(dir) = samples() else {
        return;
    };
    let n: u64 = std::env::var("ALAMA_TAMPER_N")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2);
    let mut table: BTreeMap<Edit, [u32; 5]> = BTreeMap::new();
    for (name, password) in GENUINE {
        let genuine = std::fs::read(dir.join(name)).map(|b| judge(&b, password));
        eprintln!("genuine {name}: {genuine:?}");
        for edit in Edit::ALL {
            for seed in 1..=n {
                let row = table.entry(edit).or_default();
                match run(&dir, name, password, edit, seed) {
                    Some(Outcome::ByContent) => row[0] += 1,
                    Some(Outcome::ByForensics) => row[1] += 1,
                    Some(Outcome::Refused) => row[2] += 1,
                    Some(Outcome::Missed) => row[3] += 1,
                    None => row[4] += 1,
                }
            }
        }
    }
    println!("| edit | variants | by content | by forensics only | refused | missed | detected |");
    println!("|---|---|---|---|---|---|---|");
    for (edit, [content, forensics, refused, missed, _]) in &table {
        let made = content + forensics + refused + missed;
        let detected = content + forensics + refused;
        println!(
            "| {} | {made} | {content} | {forensics} | {refused} | {missed} | {:.0} % |",
            edit.name(),
            f64::from(detected) * 100.0 / f64::from(made.max(1))
        );
    }
}
