//! The `alama` command line, run as a user runs it: exit codes, one-line errors, outputs.
//! (Over 400 lines: one test per behaviour of the command a user sees, each short.)

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

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
    // Loan terms that break a rule name the field under their own code.
    let o = alama(&[
        "apply",
        "examples/statement.json",
        "--principal",
        "1000",
        "--tenor-months",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).starts_with("error[invalid_terms]"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("tenor"), "{}", stderr(&o));
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

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("alama-cli-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

#[test]
fn a_closed_pipe_ends_quietly_with_exit_0() {
    // `alama parse big.json | head -c1`: the reader leaves after one byte; the output (hundreds
    // of kilobytes) cannot fit the pipe, so alama meets EPIPE and must end as Unix tools do.
    let dir = temp_dir("pipe");
    let big = dir.join("big.json");
    let statement = alama_core::testing::synthetic_statement(7, 24);
    std::fs::write(&big, statement.to_json()).expect("write");
    let mut head = Command::new("head")
        .arg("-c1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs head");
    let head_stdin = head.stdin.take().expect("head's stdin");
    let alama = Command::new(env!("CARGO_BIN_EXE_alama"))
        .args(["parse", big.to_str().expect("utf-8 path")])
        .stdout(Stdio::from(head_stdin))
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs alama");
    let head_out = head.wait_with_output().expect("head ends");
    let o = alama.wait_with_output().expect("alama ends");
    assert_eq!(head_out.stdout, b"{");
    assert!(o.stderr.is_empty(), "stderr: {}", stderr(&o));
    assert_eq!(o.status.code(), Some(0));
    let _ = std::fs::remove_dir_all(dir);
}

/// A one-page PDF whose font has no `/Subtype`: `pdf-extract` 0.12 panicked on it (an unwrap in
/// `get_name_string`); the engine's own reader does not read such a font and refuses the file.
fn pdf_with_a_font_without_subtype() -> Vec<u8> {
    use std::fmt::Write as _;
    let content = "BT /F1 12 Tf 72 720 Td (Receipt No. Completion Time Details) Tj ET";
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] \
         /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>"
            .to_owned(),
        format!(
            "<< /Length {} >>\nstream\n{content}\nendstream",
            content.len()
        ),
        "<< /Type /Font /BaseFont /Helvetica >>".to_owned(),
    ];
    let mut pdf = String::from("%PDF-1.4\n");
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(pdf.len());
        write!(pdf, "{} 0 obj\n{object}\nendobj\n", i + 1).expect("a String takes it");
    }
    let xref = pdf.len();
    write!(pdf, "xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).expect("a String takes it");
    for offset in offsets {
        writeln!(pdf, "{offset:010} 00000 n ").expect("a String takes it");
    }
    write!(
        pdf,
        "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%EOF\n",
        objects.len() + 1
    )
    .expect("a String takes it");
    pdf.into_bytes()
}

#[test]
fn a_pdf_the_reader_does_not_read_prints_only_the_error_line() {
    // Issue 12: no panic message (or backtrace) may reach stderr for a file the parser refuses;
    // RUST_BACKTRACE=1 would add a backtrace to a panic's default message.
    let dir = temp_dir("panic");
    let pdf = dir.join("font-without-subtype.pdf");
    std::fs::write(&pdf, pdf_with_a_font_without_subtype()).expect("write");
    let o = Command::new(env!("CARGO_BIN_EXE_alama"))
        .args(["score", pdf.to_str().expect("utf-8 path")])
        .env("RUST_BACKTRACE", "1")
        .output()
        .expect("runs alama");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stderr(&o),
        "error[unsupported_wallet]: the PDF draws its text in a way no supported wallet's \
         statement does (a font of another kind, a form or an inline image), so it is not read\n"
    );
    let _ = std::fs::remove_dir_all(dir);
}

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect()
}

#[test]
fn batch_scores_files_and_folders_into_json_lines_in_order() {
    let dir = temp_dir("batch");
    let sub = dir.join("more");
    std::fs::create_dir_all(&sub).expect("sub dir");
    std::fs::copy("examples/statement.json", dir.join("b.json")).expect("copy");
    std::fs::copy("examples/statement.csv", sub.join("a.csv")).expect("copy");
    std::fs::write(dir.join("c.csv"), "id,amount,when\n1,2,3\n").expect("write");
    std::fs::write(dir.join("notes.txt"), "not a statement").expect("write");
    std::fs::write(dir.join(".hidden.json"), "{").expect("write");
    let folder = dir.to_str().expect("utf-8 path");
    let o = alama(&["score", "examples/statement.json", folder, "--jobs", "2"]);
    // One statement failed: exit 1, one summary line on stderr, every line on stdout.
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 of 4 statements"), "{}", stderr(&o));
    let lines = json_lines(&o);
    let files: Vec<&str> = lines
        .iter()
        .map(|l| l["file"].as_str().expect("file"))
        .collect();
    let sub_a = sub.join("a.csv");
    let expected = [
        "examples/statement.json".to_owned(),
        dir.join("b.json").display().to_string(),
        dir.join("c.csv").display().to_string(),
        sub_a.display().to_string(),
    ];
    assert_eq!(files, expected);

    // A report line is the canonical report with `file` first: the same bytes after it.
    let bytes = std::fs::read("examples/statement.json").expect("example");
    let report =
        alama_core::score_bytes(&bytes, &alama_core::ParseOptions::default()).expect("scores");
    let first = String::from_utf8_lossy(&o.stdout)
        .lines()
        .next()
        .expect("a line")
        .to_owned();
    assert_eq!(
        first,
        format!(
            "{{\"file\":\"examples/statement.json\",{}",
            &report.to_json()[1..]
        )
    );
    assert_eq!(lines[1]["reportId"], lines[0]["reportId"]);
    assert_eq!(lines[2]["error"]["code"], "unsupported_wallet");
    assert!(
        lines[2]["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty())
    );
    assert!(lines[3]["score"].is_u64());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_folder_of_mtn_spreadsheets_is_scored_like_their_csv() {
    // MTN MoMo Ghana sends its statement as a spreadsheet: a folder's `.xlsx` files are
    // statements too, and score as the CSV they were saved from.
    let dir = temp_dir("xlsx");
    let csv = std::fs::read("tests/vectors/wallet-mtn-gh-seed2-80rows.csv").expect("vector");
    std::fs::write(
        dir.join("mtn.xlsx"),
        alama_core::testing::xlsx_from_csv(&csv),
    )
    .expect("write");
    let as_of = "--as-of=2030-01-01";
    let o = alama(&["score", dir.to_str().expect("utf-8 path"), as_of]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 1, "one statement in the folder");
    let o = alama(&[
        "score",
        "tests/vectors/wallet-mtn-gh-seed2-80rows.csv",
        as_of,
    ]);
    let from_csv: serde_json::Value = serde_json::from_slice(&o.stdout).expect("report");
    assert_eq!(lines[0]["statement"]["currency"], "GHS");
    let mut from_xlsx = lines[0].clone();
    from_xlsx.as_object_mut().expect("object").remove("file");
    assert_eq!(from_xlsx, from_csv, "the same report, id included");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn batch_takes_passwords_from_a_csv() {
    let dir = temp_dir("passwords");
    let statement = alama_core::testing::synthetic_statement(3, 2);
    std::fs::write(dir.join("one.json"), statement.to_json()).expect("write");
    std::fs::write(dir.join("two.csv"), statement.to_csv()).expect("write");
    // The passwords file sits in the folder too: it is not taken for a statement.
    std::fs::write(dir.join("pw.csv"), "file,password\none.json,1234\n").expect("write");
    let o = alama(&[
        "score",
        dir.to_str().expect("utf-8 path"),
        "--passwords",
        dir.join("pw.csv").to_str().expect("utf-8 path"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        o.stderr.is_empty(),
        "no progress bar when stderr is not a terminal"
    );
    let lines = json_lines(&o);
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l["status"] == "completed"));

    // A malformed passwords file is refused before any scoring, naming its line.
    std::fs::write(dir.join("bad.txt"), "one.json,1\ntwo.csv\n").expect("write");
    let o = alama(&[
        "score",
        "examples/statement.json",
        "--passwords",
        dir.join("bad.txt").to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("line 2"), "{}", stderr(&o));
    assert!(o.stdout.is_empty());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn batch_wrong_password_is_a_line_not_a_stop() {
    let Some(pdf) = real("mpesa_2024-04_to_2024-10_encrypted_pw_unknown.pdf") else {
        return;
    };
    let dir = temp_dir("batch-pdf");
    std::fs::write(
        dir.join("pw.csv"),
        "mpesa_2024-04_to_2024-10_encrypted_pw_unknown.pdf,000000\n",
    )
    .expect("write");
    let o = alama(&[
        "score",
        pdf.to_str().expect("path"),
        "examples/statement.csv",
        "--passwords",
        dir.join("pw.csv").to_str().expect("utf-8 path"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let lines = json_lines(&o);
    assert_eq!(lines[0]["error"]["code"], "wrong_password");
    assert_eq!(lines[1]["status"], "completed");
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn batch_refuses_text_and_pdf_output_as_usage_errors() {
    let o = alama(&[
        "score",
        "examples/statement.json",
        "examples/statement.csv",
        "--format",
        "text",
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "error[usage_error]: several statements print JSON Lines: use --format json (the default)\n"
    );
    assert!(o.stdout.is_empty());
}

#[test]
fn a_command_line_that_does_not_parse_is_one_usage_error_line_with_exit_code_1() {
    // Every refusal has one form (README.md, "The command line"): clap's own messages too.
    for (args, line) in [
        (
            &["score", "examples/statement.csv", "--pasword", "x"][..],
            "error[usage_error]: unexpected argument '--pasword' found; a similar argument \
             exists: '--password'; see 'alama score --help'\n",
        ),
        (
            &["score", "examples/statement.csv", "--format", "xml"][..],
            "error[usage_error]: invalid value 'xml' for '--format <FORMAT>'; [possible values: \
             json, json-pretty, text]; see 'alama score --help'\n",
        ),
        (
            &["score"][..],
            "error[usage_error]: the following required arguments were not provided: \
             <FILE>...; see 'alama score --help'\n",
        ),
        (
            &["scorecard"][..],
            "error[usage_error]: 'alama scorecard' needs a command: list, validate, describe, \
             export; see 'alama scorecard --help'\n",
        ),
        (
            // A bad value: clap's message has no `Usage:` line; the help named is still the
            // subcommand's.
            &["keys", "create", "--environment", "moon", "--partner", "a"][..],
            "error[usage_error]: invalid value 'moon' for '--environment <ENVIRONMENT>'; \
             [possible values: sandbox, live]; see 'alama keys create --help'\n",
        ),
        (
            &["nonsense"][..],
            "error[usage_error]: unrecognized subcommand 'nonsense'; see 'alama --help'\n",
        ),
    ] {
        let o = alama(args);
        assert_eq!(o.status.code(), Some(1), "alama {args:?}: {}", stderr(&o));
        assert_eq!(stderr(&o), line, "alama {args:?}");
        assert!(o.stdout.is_empty());
    }
    // clap's own help and version stay as clap prints them, on standard output, exit code 0.
    for args in [
        &["--help"][..],
        &["score", "--help"][..],
        &["--version"][..],
    ] {
        let o = alama(args);
        assert_eq!(o.status.code(), Some(0), "alama {args:?}");
        assert!(stderr(&o).is_empty());
        assert!(!o.stdout.is_empty());
    }
}

#[test]
fn a_scorecard_of_ones_own_scores_and_an_invalid_one_is_named() {
    let dir = std::env::temp_dir().join(format!("alama-card-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("tmp");
    let exported = alama(&["scorecard", "export"]);
    assert!(exported.status.success(), "{}", stderr(&exported));
    let mut card: serde_json::Value = serde_json::from_slice(&exported.stdout).expect("card JSON");
    card["version"] = serde_json::json!("lender-test-1");
    let good = dir.join("good.json");
    std::fs::write(&good, card.to_string()).expect("write");
    let valid = alama(&["scorecard", "validate", good.to_str().expect("utf-8")]);
    assert!(valid.status.success(), "{}", stderr(&valid));
    assert!(String::from_utf8_lossy(&valid.stdout).starts_with("valid: lender-test-1"));

    let own = alama(&[
        "score",
        "examples/statement.csv",
        "--scorecard",
        good.to_str().expect("utf-8"),
    ]);
    assert!(own.status.success(), "{}", stderr(&own));
    let report: serde_json::Value = serde_json::from_slice(&own.stdout).expect("report");
    assert_eq!(report["scorecardVersion"], "lender-test-1");
    let builtin: serde_json::Value =
        serde_json::from_slice(&alama(&["score", "examples/statement.csv"]).stdout)
            .expect("report");
    assert_eq!(
        report["score"], builtin["score"],
        "same tables, same points"
    );
    assert_ne!(
        report["reportId"], builtin["reportId"],
        "the id covers the card"
    );
    assert_ne!(report["scorecardSha256"], builtin["scorecardSha256"]);

    // A gap between two bins.
    card["characteristics"][0]["attributes"][0]["bins"][1]["min"] = serde_json::json!("0.55");
    let bad = dir.join("bad.json");
    std::fs::write(&bad, card.to_string()).expect("write");
    for args in [
        vec!["scorecard", "validate", bad.to_str().expect("utf-8")],
        vec![
            "score",
            "examples/statement.csv",
            "--scorecard",
            bad.to_str().expect("utf-8"),
        ],
    ] {
        let out = alama(&args);
        assert_eq!(out.status.code(), Some(1));
        let err = stderr(&out);
        assert!(
            err.starts_with("error[invalid_scorecard]:") && err.contains("gap"),
            "{err}"
        );
    }
    let described = alama(&["scorecard", "describe"]);
    assert!(String::from_utf8_lossy(&described.stdout).contains("### 2. Capacity"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Another wallet's statement, detected from its content, is scored and its text report names
/// the wallet and its currency (a synthetic Airtel Money Uganda PDF and MTN MoMo Ghana CSV).
#[test]
fn the_text_report_names_another_wallet_and_its_currency() {
    let dir = std::env::temp_dir().join(format!("alama-wallets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let cases = [
        (
            "airtel.pdf",
            alama_core::testing::wallets::airtel_statement(3, 40).bytes,
            "Wallet: Airtel Money Uganda",
            "currency UGX",
        ),
        (
            "mtn.csv",
            alama_core::testing::wallets::mtn_statement(3, 40).bytes,
            "Wallet: MTN MoMo Ghana",
            "currency GHS",
        ),
    ];
    for (name, bytes, wallet, currency) in cases {
        let path = dir.join(name);
        std::fs::write(&path, bytes).expect("writes");
        let o = alama(&[
            "score",
            path.to_str().expect("UTF-8 path"),
            "--format",
            "text",
        ]);
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(o.status.success(), "{name}: {}", stderr(&o));
        assert!(out.contains(wallet), "{name}: {out}");
        assert!(out.contains(currency), "{name}: {out}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
