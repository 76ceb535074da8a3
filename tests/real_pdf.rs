//! The M-Pesa PDF parser on the real statements in `../shared/samples/real/` (see its README:
//! passwords and the truths asserted here), plus non-statement and broken PDFs.
//!
//! The real files hold real people's data: these tests print counts and totals only, never
//! names, phone numbers or e-mail addresses. When the folder is absent (a clone without the
//! samples) each test prints a note and passes.
//!
//! `cargo test --test real_pdf` (add `--release` and `-- --nocapture` to see parse timings).
//!
//! (Over 400 lines: each real sample's tests against the truths its README gives, then the
//! broken and non-statement files; the cases share the helpers at the top.)

use std::path::PathBuf;
use std::time::Instant;

use alama_core::check::completed_totals;

/// The integrity of a statement read in reading order, judged by its own wallet.
fn check(reading: &alama_core::statement::Reading<'_>) -> alama_core::report::Integrity {
    let wallet = alama_core::wallets::of(&reading.statement.provider).expect("a wallet");
    alama_core::check::check(reading, wallet, None)
}
use alama_core::statement::DocumentInfo;
use alama_core::{ErrorKind, ParseOptions, Statement, TransactionStatus};

const ENCRYPTED_2023: &str = "mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf";
const ILOVEPDF_2024: &str = "mpesa_2024-04_to_2024-10_unlocked_ilovepdf.pdf";
const TRUNCATED_2021: &str = "mpesa_2021-03_to_2021-09_unencrypted_itext_TRUNCATED.pdf";
const UNKNOWN_PW_2024: &str = "mpesa_2024-04_to_2024-10_encrypted_pw_unknown.pdf";

/// The bytes of a real sample, or `None` (with a note) when the samples are absent.
fn real(name: &str) -> Option<Vec<u8>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/samples/real")
        .join(name);
    let bytes = std::fs::read(&path).ok();
    if bytes.is_none() {
        eprintln!(
            "note: {} is absent; skipping this real-statement test",
            path.display()
        );
    }
    bytes
}

fn parse_timed(bytes: &[u8], options: &ParseOptions, label: &str) -> Statement {
    let start = Instant::now();
    let statement = alama_core::parse(bytes, options).expect("the statement parses");
    eprintln!(
        "{label}: {} rows, {} pages in {:.0?}",
        statement.transactions.len(),
        statement.document.as_ref().map_or(0, |d| d.pages),
        start.elapsed()
    );
    statement.into_statement()
}

fn document(statement: &Statement) -> &DocumentInfo {
    statement
        .document
        .as_ref()
        .expect("a PDF has document info")
}

fn codes(statement: &Statement) -> Vec<String> {
    check(&statement.reading())
        .findings
        .into_iter()
        .map(|f| f.code)
        .collect()
}

/// Checks that every row is well-formed and that the parsed totals equal the SUMMARY TOTAL.
fn assert_reconciles(statement: &Statement, paid_in: &str, withdrawn: &str) {
    let (sum_in, sum_out) = completed_totals(statement);
    assert_eq!(sum_in.to_string(), paid_in);
    assert_eq!(sum_out.to_string(), withdrawn);
    let summary = statement.summary.as_ref().expect("a SUMMARY table");
    assert_eq!(summary.total.paid_in.to_string(), paid_in);
    assert_eq!(summary.total.paid_out.to_string(), withdrawn);
    assert!(
        summary.rows.len() >= 5,
        "one SUMMARY row per transaction type"
    );
    assert_eq!(check(&statement.reading()).summary_reconciled, Some(true));
    for t in &statement.transactions {
        assert_eq!(t.receipt_no.len(), 10);
        assert!(!t.paid_in.is_sign_negative() && !t.withdrawn.is_sign_negative());
        assert!(
            t.paid_in.is_zero() || t.withdrawn.is_zero(),
            "a row is either paid in or withdrawn"
        );
        assert!(t.balance.is_some());
        assert!(!t.details.contains("  ") && t.details.trim() == t.details);
    }
}

fn holder_is_read(statement: &Statement) {
    let holder = &statement.holder;
    assert!(holder.name.as_deref().is_some_and(|n| !n.is_empty()));
    assert!(
        holder.mobile_number.as_deref().is_some_and(|m| m
            .chars()
            .filter(char::is_ascii_digit)
            .count()
            >= 9)
    );
    assert!(holder.email.as_deref().is_some_and(|e| e.contains('@')));
}

#[test]
fn encrypted_2023_statement_reconciles_with_its_summary() {
    let Some(bytes) = real(ENCRYPTED_2023) else {
        return;
    };
    let s = parse_timed(
        &bytes,
        &ParseOptions::with_password("183177"),
        "2023-05..2024-05",
    );
    assert_eq!(s.transactions.len(), 4_382);
    assert!(s.unparsed.is_empty(), "{} unparsed lines", s.unparsed.len());
    assert_reconciles(&s, "1201133.99", "1179174.99");
    assert!(
        s.transactions
            .iter()
            .all(|t| t.status == TransactionStatus::Completed)
    );
    assert_eq!(
        s.transactions
            .iter()
            .filter(|t| t.details.is_empty())
            .count(),
        17
    );
    assert!(
        s.transactions
            .iter()
            .any(|t| t.details.contains("OverDraft of Credit Party"))
    );
    let period = s.period.expect("statement period");
    assert_eq!(period.start.to_string(), "2023-05-23");
    assert_eq!(period.end.to_string(), "2024-05-23");
    assert_eq!(
        s.requested_at.map(|d| d.to_string()).as_deref(),
        Some("2024-05-23")
    );
    assert_eq!(s.currency, "KES");
    holder_is_read(&s);
    // Newest first: the first row is on the last day of the period.
    assert_eq!(
        s.transactions[0].completed_at.date().to_string(),
        "2024-05-23"
    );
    let doc = document(&s);
    assert!(doc.encrypted);
    assert_eq!(doc.pages, 117);
    assert_eq!(doc.declared_pages, Some(117));
    assert!(
        doc.producer
            .as_deref()
            .is_some_and(|p| p.starts_with("OpenPDF"))
    );
    assert!(
        doc.created
            .as_deref()
            .is_some_and(|c| c.starts_with("D:2024"))
    );
    let findings = codes(&s);
    assert!(!findings.contains(&"non_wallet_producer".to_owned()));
    assert!(!findings.contains(&"summary_mismatch".to_owned()));
    assert!(!findings.contains(&"missing_pages".to_owned()));
    assert_eq!(check(&s.reading()).status, "verified");
}

#[test]
fn ilovepdf_copy_reconciles_and_is_flagged() {
    let Some(bytes) = real(ILOVEPDF_2024) else {
        return;
    };
    let s = parse_timed(
        &bytes,
        &ParseOptions::default(),
        "2024-04..2024-10 iLovePDF",
    );
    assert_eq!(s.transactions.len(), 3_437);
    assert!(s.unparsed.is_empty(), "{} unparsed lines", s.unparsed.len());
    assert_reconciles(&s, "551433.17", "554936.71");
    let period = s.period.expect("statement period");
    assert_eq!(period.start.to_string(), "2024-04-14");
    assert_eq!(period.end.to_string(), "2024-10-14");
    holder_is_read(&s);
    let doc = document(&s);
    assert!(!doc.encrypted);
    assert_eq!(doc.pages, 90);
    assert_eq!(doc.producer.as_deref(), Some("iLovePDF"));
    assert!(doc.author.is_none() && doc.title.is_none() && doc.creator.is_none());
    let findings = codes(&s);
    assert!(findings.contains(&"non_wallet_producer".to_owned()));
    assert!(!findings.contains(&"summary_mismatch".to_owned()));
    // Re-saved by a named tool: a fact, not evidence of editing.
    assert_eq!(check(&s.reading()).status, "consistent");
}

#[test]
fn truncated_2021_statement_is_flagged_incomplete() {
    let Some(bytes) = real(TRUNCATED_2021) else {
        return;
    };
    let s = parse_timed(&bytes, &ParseOptions::default(), "2021-03..2021-09 iText");
    assert_eq!(s.transactions.len(), 982);
    assert!(s.unparsed.is_empty(), "{} unparsed lines", s.unparsed.len());
    assert!(
        s.transactions
            .iter()
            .all(|t| t.status == TransactionStatus::Completed)
    );
    let summary = s.summary.as_ref().expect("a SUMMARY table");
    assert_eq!(summary.total.paid_in.to_string(), "849938.05");
    assert_eq!(summary.total.paid_out.to_string(), "852105.39");
    assert_eq!(summary.rows.len(), 7);
    assert_eq!(summary.rows[2].transaction_type, "AGENT DEPOSIT");
    let period = s.period.expect("statement period");
    assert_eq!(period.start.to_string(), "2021-03-28");
    assert_eq!(period.end.to_string(), "2021-09-28");
    assert_eq!(
        s.requested_at.map(|d| d.to_string()).as_deref(),
        Some("2021-09-28")
    );
    holder_is_read(&s);
    let doc = document(&s);
    assert_eq!(doc.pages, 20);
    assert_eq!(doc.declared_pages, Some(21));
    assert!(!doc.encrypted);
    assert!(
        doc.producer
            .as_deref()
            .is_some_and(|p| p.starts_with("iText"))
    );
    let integrity = check(&s.reading());
    assert_eq!(integrity.summary_reconciled, Some(false));
    assert_eq!(integrity.status, "failed");
    let findings = codes(&s);
    assert!(findings.contains(&"missing_pages".to_owned()));
    assert!(findings.contains(&"summary_mismatch".to_owned()));
}

#[test]
fn encrypted_file_needs_its_password() {
    let Some(bytes) = real(UNKNOWN_PW_2024) else {
        return;
    };
    let err = alama_core::parse(&bytes, &ParseOptions::default()).expect_err("needs a password");
    assert_eq!(err.kind(), &ErrorKind::PasswordRequired);
    assert_eq!(err.code(), "password_required");
    let err = alama_core::parse(&bytes, &ParseOptions::with_password("00000000"))
        .expect_err("wrong password");
    assert_eq!(err.kind(), &ErrorKind::WrongPassword);
    assert_eq!(err.code(), "wrong_password");
    if let Some(known) = real(ENCRYPTED_2023) {
        let err = alama_core::parse(&known, &ParseOptions::with_password("183178"))
            .expect_err("wrong password");
        assert_eq!(err.code(), "wrong_password");
    }
}

#[test]
fn page_limit_is_enforced() {
    let Some(bytes) = real(TRUNCATED_2021) else {
        return;
    };
    let mut options = ParseOptions::default();
    options.limits.max_pages = 10;
    let err = alama_core::parse(&bytes, &options).expect_err("too many pages");
    assert_eq!(err.kind(), &ErrorKind::TooLarge { limit: 10 });
}

#[test]
fn truncated_and_mutated_real_bytes_never_panic() {
    let Some(bytes) = real(TRUNCATED_2021) else {
        return;
    };
    // Cut the file at many places, and flip bytes at many places: every outcome must be a
    // statement or a typed error, never a panic.
    let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let options = ParseOptions::default();
    // (A few cases only: this file takes about 1 s a parse in a debug build. The synthetic
    // proptest in alama-core covers many more.)
    for i in 1..=4 {
        let cut = bytes.len() * i / 5;
        let _ = alama_core::parse(&bytes[..cut], &options);
    }
    for _ in 0..4 {
        let mut mutated = bytes.clone();
        for _ in 0..64 {
            let at = usize::try_from(next() % bytes.len() as u64).unwrap_or(0);
            mutated[at] = u8::try_from(next() % 256).unwrap_or(0);
        }
        if let Ok(s) = alama_core::parse(&mutated, &options) {
            assert!(s.transactions.len() <= 982 + 50);
        }
    }
}

/// A one-page PDF with one line of Helvetica text, written by hand.
fn text_pdf(text: &str) -> Vec<u8> {
    let content = format!("BT /F1 12 Tf 72 720 Td ({text}) Tj ET");
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_owned(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned(),
    ];
    let mut pdf = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        pdf.extend_from_slice(format!("{} 0 obj\n{body}\nendobj\n", i + 1).as_bytes());
    }
    let xref = pdf.len();
    pdf.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        pdf.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    pdf.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    pdf
}

#[test]
fn a_pdf_that_is_not_a_statement_is_an_unsupported_wallet() {
    let pdf = text_pdf("Invoice 42: thank you for your business");
    let err = alama_core::parse(&pdf, &ParseOptions::default()).expect_err("not a statement");
    assert_eq!(err.kind(), &ErrorKind::UnsupportedWallet);
    assert_eq!(err.code(), "unsupported_wallet");
}

#[test]
fn garbage_after_the_pdf_marker_is_malformed() {
    let err = alama_core::parse(
        b"%PDF-1.7\n\x00\x01 this is not a PDF at all",
        &ParseOptions::default(),
    )
    .expect_err("garbage");
    assert_eq!(err.code(), "malformed_statement");
    let pdf = text_pdf("Receipt No.");
    for cut in [10, pdf.len() / 3, pdf.len() / 2] {
        let err = alama_core::parse(&pdf[..cut], &ParseOptions::default()).expect_err("truncated");
        assert!(
            matches!(
                err.kind(),
                ErrorKind::Malformed { .. } | ErrorKind::UnsupportedWallet
            ),
            "{err}"
        );
    }
}

/// Timing only, no assertion on time: `cargo test --release --test real_pdf -- --ignored
/// --nocapture parse_timing`.
#[test]
#[ignore = "timing; run on demand in release"]
fn parse_timing() {
    let Some(bytes) = real(ENCRYPTED_2023) else {
        return;
    };
    let options = ParseOptions::with_password("183177");
    let mut times: Vec<std::time::Duration> = (0..7)
        .map(|_| {
            let start = Instant::now();
            let s = alama_core::parse(&bytes, &options).expect("parses");
            assert_eq!(s.transactions.len(), 4_382);
            start.elapsed()
        })
        .collect();
    times.sort();
    eprintln!(
        "117-page encrypted statement: min {:.0?}, median {:.0?}, max {:.0?} over {} runs \
         ({} threads available)",
        times[0],
        times[times.len() / 2],
        times[times.len() - 1],
        times.len(),
        std::thread::available_parallelism().map_or(1, std::num::NonZeroUsize::get)
    );
}
