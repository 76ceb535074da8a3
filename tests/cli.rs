//! The `alama` command line, run as a user runs it: exit codes, one-line errors, outputs.

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

fn real(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/samples/real")
        .join(name);
    if p.exists() {
        Some(p)
    } else {
        eprintln!("skipped: {} is not present (CI has ../shared)", p.display());
        None
    }
}

#[test]
fn score_json_is_the_canonical_report() {
    let o = alama(&["score", "examples/statement.json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).expect("utf-8");
    let bytes = std::fs::read("examples/statement.json").expect("example");
    let report =
        alama_core::score_bytes(&bytes, &alama_core::ParseOptions::default()).expect("scores");
    assert_eq!(out, report.to_json() + "\n");
}

#[test]
fn score_text_shows_score_band_and_every_factor() {
    let o = alama(&["score", "examples/statement.csv", "--format", "text"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = String::from_utf8(o.stdout).expect("utf-8");
    let bytes = std::fs::read("examples/statement.csv").expect("example");
    let report =
        alama_core::score_bytes(&bytes, &alama_core::ParseOptions::default()).expect("scores");
    assert!(out.contains(&format!("SCORE {}", report.score)));
    assert!(out.contains(report.band.as_str()));
    for f in &report.factors {
        assert!(out.contains(&f.name), "missing factor {}", f.name);
    }
}

#[test]
fn parse_csv_round_trips_through_the_cli() {
    let o = alama(&["parse", "examples/statement.json", "--format", "csv"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8(o.stdout).expect("utf-8"),
        std::fs::read_to_string("examples/statement.csv").expect("example")
    );
}

#[test]
fn errors_are_one_line_with_a_code_and_exit_1() {
    let dir = std::env::temp_dir().join(format!("alama-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases: [(&str, &[u8], &str); 4] = [
        (
            "image.png",
            b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR",
            "error[unsupported_format]",
        ),
        (
            "wallet.csv",
            b"id,amount,when\n1,2,3\n",
            "error[unsupported_wallet]",
        ),
        (
            "empty.csv",
            b"Receipt No,Completion Time,Details,Paid In,Withdrawn\n",
            "error[empty_statement]",
        ),
        (
            "broken.json",
            b"{\"transactions\": [",
            "error[malformed_statement]",
        ),
    ];
    for (name, bytes, expected) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("write");
        let o = alama(&["score", path.to_str().expect("utf-8 path")]);
        assert_eq!(o.status.code(), Some(1), "{name}");
        let err = stderr(&o);
        assert!(err.starts_with(expected), "{name}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{name}: {err}");
    }
    let o = alama(&["score", "no/such/file.pdf"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).starts_with("error[io_error]"));
}

#[test]
fn real_encrypted_statement_reconciles_with_its_summary() {
    let Some(pdf) = real("mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf") else {
        return;
    };
    let o = alama(&["score", pdf.to_str().expect("path"), "--password", "183177"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("report JSON");
    assert_eq!(report["status"], "completed");
    assert_eq!(report["statementPeriod"], "May 2023 - May 2024");
    assert_eq!(report["statement"]["totalPaidIn"], "1201133.99");
    assert_eq!(report["statement"]["totalWithdrawn"], "1179174.99");
    assert_eq!(report["integrity"]["summaryReconciled"], true);
}

#[test]
fn real_encrypted_statement_needs_the_right_password() {
    let Some(pdf) = real("mpesa_2024-04_to_2024-10_encrypted_pw_unknown.pdf") else {
        return;
    };
    let path = pdf.to_str().expect("path");
    let o = alama(&["score", path]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error[password_required]"),
        "{}",
        stderr(&o)
    );
    let o = alama(&["score", path, "--password", "000000"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error[wrong_password]"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn score_writes_the_pdf_report_when_asked() {
    let out = std::env::temp_dir().join(format!("alama-cli-report-{}.pdf", std::process::id()));
    let o = alama(&[
        "score",
        "examples/statement.json",
        "--pdf",
        out.to_str().expect("path"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let pdf = std::fs::read(&out).expect("PDF written");
    assert!(pdf.starts_with(b"%PDF-"), "not a PDF");
    assert!(
        pdf.len() > 10_000,
        "suspiciously small PDF: {} bytes",
        pdf.len()
    );
    let _ = std::fs::remove_file(out);
}
