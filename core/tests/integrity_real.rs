//! The integrity verdict on every real statement in `../shared/samples/real/` (see its README:
//! passwords and truths). Genuine statements must come out `verified` or `consistent` with no
//! warning, the truncated 2021 file `failed`, and the integrity section must not depend on the
//! order of the rows.
//!
//! The files hold real people's data: these tests print codes and counts only. When the folder
//! is absent (a clone without the samples) each test prints a note and passes.

use std::path::PathBuf;

/// The integrity of a statement read in reading order, judged by its own wallet.
fn check(reading: &alama_core::statement::Reading<'_>) -> alama_core::report::Integrity {
    let wallet = alama_core::wallets::of(&reading.statement.provider).expect("a wallet");
    alama_core::check::check(reading, wallet, None)
}
use alama_core::{EvidenceLevel, ParseOptions, Severity, Statement};

/// `(file, password, expected status, expected evidence level)`.
const GENUINE: &[(&str, &str, &str, EvidenceLevel)] = &[
    (
        "mpesa_2021-03_to_2022-03_encrypted_pw35388008_cancelled_rows.pdf",
        "35388008",
        "verified",
        EvidenceLevel::PdfOriginal,
    ),
    (
        "mpesa_2022-01_monthly_itext5_aes256_pw34915463.pdf",
        "34915463",
        "verified",
        EvidenceLevel::PdfOriginal,
    ),
    (
        "mpesa_2023-04_decrypted_3heights.pdf",
        "",
        "consistent",
        EvidenceLevel::PdfResaved,
    ),
    (
        "mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf",
        "183177",
        "verified",
        EvidenceLevel::PdfOriginal,
    ),
    (
        "mpesa_2024-04_to_2024-10_unlocked_ilovepdf.pdf",
        "",
        "consistent",
        EvidenceLevel::PdfResaved,
    ),
    (
        "mpesa_2019-08_to_2021-derived_processed.csv",
        "",
        "consistent",
        EvidenceLevel::Csv,
    ),
];

const TRUNCATED: &str = "mpesa_2021-03_to_2021-09_unencrypted_itext_TRUNCATED.pdf";

fn samples() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples/real");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("note: {} is absent; skipping", dir.display());
        None
    }
}

fn parse(dir: &std::path::Path, name: &str, password: &str) -> Statement {
    let bytes = std::fs::read(dir.join(name)).expect("the sample is readable");
    let options = if password.is_empty() {
        ParseOptions::default()
    } else {
        ParseOptions::with_password(password)
    };
    alama_core::parse(&bytes, &options)
        .expect("the sample parses")
        .into_statement()
}

#[test]
fn genuine_statements_are_verified_or_consistent_in_any_row_order() {
    let Some(dir) = samples() else {
        return;
    };
    for (name, password, status, level) in GENUINE {
        let statement = parse(&dir, name, password);
        let integrity = check(&statement.reading());
        let serious: Vec<&str> = integrity
            .findings
            .iter()
            .filter(|f| f.severity > Severity::Info)
            .map(|f| f.code.as_str())
            .collect();
        assert!(serious.is_empty(), "{name}: {serious:?}");
        assert_eq!(integrity.status, *status, "{name}");
        assert_eq!(integrity.evidence_level, *level, "{name}");
        if integrity.summary_reconciled.is_some() {
            assert_eq!(integrity.summary_reconciled, Some(true), "{name}");
        }
        let mut reversed = statement.clone();
        reversed.transactions.reverse();
        assert_eq!(
            check(&reversed.reading()),
            integrity,
            "{name}: reversed rows"
        );
        let mut rotated = statement.clone();
        let half = rotated.transactions.len() / 2;
        rotated.transactions.rotate_left(half);
        assert_eq!(check(&rotated.reading()), integrity, "{name}: rotated rows");
    }
}

#[test]
fn cancelled_rows_count_in_the_summary() {
    let Some(dir) = samples() else {
        return;
    };
    let (name, password, _, _) = GENUINE[0];
    let mut statement = parse(&dir, name, password);
    assert_eq!(check(&statement.reading()).summary_reconciled, Some(true));
    // Without its Cancelled rows the same statement no longer reconciles.
    statement
        .transactions
        .retain(|t| t.status != alama_core::TransactionStatus::Cancelled);
    let integrity = check(&statement.reading());
    assert_eq!(integrity.summary_reconciled, Some(false));
    assert_eq!(integrity.status, "failed");
}

#[test]
fn the_truncated_statement_fails() {
    let Some(dir) = samples() else {
        return;
    };
    let integrity = check(&parse(&dir, TRUNCATED, "").reading());
    assert_eq!(integrity.status, "failed");
    let codes: Vec<&str> = integrity.findings.iter().map(|f| f.code.as_str()).collect();
    assert!(codes.contains(&"missing_pages"), "{codes:?}");
    assert!(codes.contains(&"summary_mismatch"), "{codes:?}");
}

/// Every genuine PDF sample, parsed, by name.
fn genuine_pdfs(dir: &std::path::Path) -> Vec<(&'static str, Statement)> {
    GENUINE
        .iter()
        .filter(|g| g.3 != EvidenceLevel::Csv)
        .map(|(name, password, _, _)| (*name, parse(dir, name, password)))
        .collect()
}

/// Asserts that `statement`, edited with its SUMMARY TOTAL made to agree, still reconciles but
/// gets the finding `code`.
fn assert_reconciled_with(name: &str, statement: &Statement, code: &str) {
    let integrity = check(&statement.reading());
    let codes: Vec<&str> = integrity.findings.iter().map(|f| f.code.as_str()).collect();
    assert!(codes.contains(&code), "{name}: {codes:?}");
    assert_eq!(integrity.summary_reconciled, Some(true), "{name}");
}

/// A debit lowered (a borrower hiding a bet or a repayment) with the SUMMARY's TOTAL Paid Out
/// made to agree, the type line as printed: the SUMMARY's own lines no longer add up
/// (`summary_types_off`), on every genuine PDF whose SUMMARY lists its types.
#[test]
fn a_total_made_to_agree_with_a_lowered_debit_leaves_its_type_line_off() {
    let Some(dir) = samples() else {
        return;
    };
    let mut seen = 0;
    for (name, mut statement) in genuine_pdfs(&dir) {
        if statement.summary.as_ref().is_none_or(|s| s.rows.is_empty()) {
            continue;
        }
        seen += 1;
        let lowered = rust_decimal::Decimal::from(10);
        let debit = statement
            .transactions
            .iter_mut()
            .filter(|t| t.withdrawn > lowered * rust_decimal::Decimal::TWO)
            .max_by_key(|t| t.withdrawn);
        debit.expect("a debit").withdrawn -= lowered;
        if let Some(summary) = statement.summary.as_mut() {
            summary.total.paid_out -= lowered;
        }
        assert_reconciled_with(name, &statement, "summary_types_off");
    }
    assert!(seen >= 4, "only {seen} samples list their SUMMARY's types");
}

/// An agent deposit raised (cash in dressed up as income) with the SUMMARY's TOTAL Paid In made
/// to agree, the AGENT DEPOSIT line as printed: the line no longer matches the deposits
/// (`summary_line_off`), on every genuine PDF that lists a deposit.
#[test]
fn a_raised_agent_deposit_leaves_its_summary_line_off() {
    let Some(dir) = samples() else {
        return;
    };
    let mut seen = 0;
    for (name, mut statement) in genuine_pdfs(&dir) {
        let raised = rust_decimal::Decimal::from(600);
        let deposit = statement
            .transactions
            .iter_mut()
            .find(|t| t.details.starts_with("Deposit of Funds at Agent Till"));
        let Some(deposit) = deposit else {
            continue;
        };
        seen += 1;
        deposit.paid_in += raised;
        if let Some(summary) = statement.summary.as_mut() {
            summary.total.paid_in += raised;
        }
        assert_reconciled_with(name, &statement, "summary_line_off");
    }
    assert!(seen >= 3, "only {seen} samples list an agent deposit");
}
