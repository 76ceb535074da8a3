//! The shareable PDF report: content (text read back with `lopdf`), validity (lopdf), determinism and
//! robustness against extreme reports. Run with `cargo test -p alama-core --features pdf-report`.
#![cfg(feature = "pdf-report")]

use alama_core::pdf_report::{RenderOptions, render};
use alama_core::report::{Factor, Finding, Insight, ReasonCode, Report, ReportStatus, Severity};
use alama_core::{ErrorKind, Format, ParseOptions, Statement};
use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

/// A tiny deterministic generator (64-bit LCG), so the fixtures need no RNG crate.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// A synthetic M-Pesa CSV of `months` months ending in June 2024: a salary on the 25th, side
/// income, shopping, bills, airtime, with a consistent running balance. Invented people only.
fn synthetic_csv(months: u32, seed: u64) -> String {
    let mut rng = Lcg(seed);
    let mut rows = Vec::new();
    let mut balance = Decimal::from(2_500);
    let start = NaiveDate::from_ymd_opt(2024, 7, 1)
        .and_then(|d| d.checked_sub_months(chrono::Months::new(months)))
        .expect("start");
    let mut receipt = 0u32;
    for m in 0..months {
        let first = start
            .checked_add_months(chrono::Months::new(m))
            .expect("month");
        let mut day_rows: Vec<(u32, String, Decimal, Decimal)> = vec![(
            25,
            "Salary Payment from 5555 - SAVANNAH SAMPLE LOGISTICS".to_owned(),
            Decimal::from(38_000 + rng.next(9_000)),
            Decimal::ZERO,
        )];
        for _ in 0..(6 + rng.next(6)) {
            day_rows.push((
                1 + rng.next(27) as u32,
                "Funds received from 0722000111 - JANE EXAMPLE".to_owned(),
                Decimal::from(500 + rng.next(4_000)),
                Decimal::ZERO,
            ));
        }
        for _ in 0..(14 + rng.next(10)) {
            day_rows.push((
                1 + rng.next(27) as u32,
                "Merchant Payment to 123456 - UMOJA SAMPLE SUPERMARKET".to_owned(),
                Decimal::ZERO,
                Decimal::from(150 + rng.next(2_800)),
            ));
        }
        day_rows.push((
            5,
            "Pay Bill to 888880 - KPLC PREPAID Acc. 12345".to_owned(),
            Decimal::ZERO,
            Decimal::from(1_500 + rng.next(1_500)),
        ));
        day_rows.push((
            27,
            "Customer Transfer to 0733000222 - PETER SAMPLE".to_owned(),
            Decimal::ZERO,
            Decimal::from(9_000 + rng.next(9_000)),
        ));
        day_rows.sort_by_key(|r| r.0);
        for (i, (day, details, paid_in, withdrawn)) in day_rows.into_iter().enumerate() {
            let date = first.with_day0(day - 1).unwrap_or(first);
            let time = format!("{} {:02}:{:02}:00", date, 7 + i % 14, (i * 7) % 60);
            balance += paid_in - withdrawn;
            receipt += 1;
            rows.push(format!(
                "SYN{receipt:07},{time},{details},Completed,{paid_in}.00,{withdrawn}.00,{balance}.00"
            ));
        }
    }
    let mut csv = String::from(
        "Receipt No,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance\n",
    );
    for row in rows.iter().rev() {
        csv.push_str(row);
        csv.push('\n');
    }
    csv
}

use chrono::Datelike;

fn statement(months: u32) -> Statement {
    let options = ParseOptions {
        format: Some(Format::Csv),
        ..ParseOptions::default()
    };
    let mut s = alama_core::parse(synthetic_csv(months, 7).as_bytes(), &options)
        .expect("parse")
        .into_statement();
    s.holder.name = Some("AMANI SAMPLE TESTMAN".to_owned());
    s.holder.mobile_number = Some("0700000123".to_owned());
    s
}

fn report(months: u32) -> Report {
    alama_core::score(&statement(months)).expect("score")
}

/// The generation time, UTC (09:30 in Nairobi).
fn at() -> NaiveDateTime {
    NaiveDate::from_ymd_opt(2026, 11, 24)
        .and_then(|d| d.and_hms_opt(6, 30, 0))
        .expect("date")
}

/// Text of a PDF with all whitespace removed (extractors differ in the spaces they emit).
fn squashed_text(pdf: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(pdf).expect("lopdf opens the report");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    let text = doc.extract_text(&pages).expect("extract text");
    squash(&text)
}

fn squash(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

fn page_count(pdf: &[u8]) -> usize {
    lopdf::Document::load_mem(pdf)
        .expect("lopdf opens the report")
        .get_pages()
        .len()
}

#[test]
fn text_holds_score_band_period_factors_and_holder() {
    let r = report(12);
    let pdf = render(&r, &RenderOptions::new(at())).expect("render");
    assert!(pdf.starts_with(b"%PDF-"));
    let text = squashed_text(&pdf);
    let expect = [
        r.score.to_string(),
        r.band.as_str().to_owned(),
        "Safaricom M-Pesa Kenya · KES".to_owned(),
        r.report_id.clone(),
        r.scorecard_version.clone(),
        "07*****123".to_owned(),
        "AMANI SAMPLE TESTMAN".to_owned(),
        "24 Nov 2026, 09:30 EAT".to_owned(),
    ];
    for e in expect.iter().chain(r.factors.iter().map(|f| &f.name)) {
        assert!(text.contains(&squash(e)), "the PDF text lacks {e:?}");
    }
    for rc in &r.reason_codes {
        assert!(text.contains(&squash(&rc.code)), "lacks reason {}", rc.code);
    }
    for f in &r.integrity.findings {
        assert!(text.contains(&squash(&f.code)), "lacks finding {}", f.code);
    }
    // The full phone number never appears.
    assert!(!text.contains("0700000123"));
}

/// Each wallet's report in its own terms: the wallet's name (never its code), the generation
/// time in the statement's zone, labelled, amounts in the currency's customary form (UGX
/// without decimals in prose), the exact period, every insight's sentence whole (none cut off
/// with an ellipsis) under its title.
#[test]
fn each_wallets_report_is_in_its_terms() {
    let cases = [
        (
            "wallet-airtel-ug-seed1-60rows",
            "Airtel Money Uganda · UGX",
            "24 Nov 2026, 09:30 EAT",
            "1 Mar 2026 – 31 Mar 2026",
        ),
        (
            "wallet-mtn-gh-seed2-80rows",
            "MTN MoMo Ghana · GHS",
            "24 Nov 2026, 06:30 GMT",
            "1 Mar 2025 – 13 Apr 2025",
        ),
        (
            "wallet-vodacom-ls-seed3-80rows",
            "Vodacom M-Pesa Lesotho · LSL",
            "24 Nov 2026, 08:30 SAST",
            "",
        ),
        (
            "synthetic-seed1-6m",
            "Safaricom M-Pesa Kenya · KES",
            "24 Nov 2026, 09:30 EAT",
            "1 Jan 2024 – 30 Jun 2024",
        ),
    ];
    for (name, wallet, generated, period) in cases {
        let path = format!(
            "{}/../tests/vectors/{name}.json",
            env!("CARGO_MANIFEST_DIR")
        );
        let vector: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&path).expect("vector")).expect("json");
        let r: Report = serde_json::from_value(vector["report"].clone()).expect("report");
        let text = squashed_text(&render(&r, &RenderOptions::new(at())).expect("render"));
        for e in [wallet, generated, period, "AVERAGEINCOME"] {
            assert!(text.contains(&squash(e)), "{name}: the PDF lacks {e:?}");
        }
        assert!(
            !text.contains(&squash(&r.statement.provider)) || r.statement.provider == "mpesa",
            "{name} prints its code"
        );
        assert!(!text.contains('…'), "{name}: something is cut off");
        for i in &r.insights {
            assert!(
                text.contains(&squash(&i.message)),
                "{name}: {} is not whole",
                i.code
            );
        }
        if r.statement.currency == "UGX" {
            assert!(
                !text.contains("UGX0.00") && text.contains("UGX"),
                "{name}: UGX with cents"
            );
        }
    }
}

#[test]
fn opens_with_lopdf_as_a4() {
    let pdf = render(&report(12), &RenderOptions::new(at())).expect("render");
    let doc = lopdf::Document::load_mem(&pdf).expect("lopdf");
    let pages = doc.get_pages();
    assert!((1..=3).contains(&pages.len()), "{} pages", pages.len());
    for id in pages.values() {
        let page = doc.get_dictionary(*id).expect("page");
        let media = page
            .get(b"MediaBox")
            .and_then(lopdf::Object::as_array)
            .expect("MediaBox");
        let w = media[2].as_float().expect("w");
        let h = media[3].as_float().expect("h");
        assert!(
            (w - 595.28).abs() < 0.5 && (h - 841.89).abs() < 0.5,
            "{w}x{h}"
        );
    }
}

#[test]
fn same_input_same_bytes() {
    let r = report(6);
    let a = render(&r, &RenderOptions::new(at())).expect("render");
    let b = render(&r, &RenderOptions::new(at())).expect("render");
    assert_eq!(a, b);
    let later = at() + chrono::Duration::minutes(1);
    let c = render(&r, &RenderOptions::new(later)).expect("render");
    assert_ne!(a, c, "the generation time is part of the document");
}

#[test]
fn twenty_four_months_render() {
    let r = report(24);
    assert_eq!(r.statement.monthly.len(), 24);
    let pdf = render(&r, &RenderOptions::new(at())).expect("render");
    let text = squashed_text(&pdf);
    assert!(text.contains("Monthlycashflow"));
    assert!(page_count(&pdf) <= 3);
}

/// A report with everything at its extreme: it must render without panicking, open, and keep
/// every page inside A4.
#[test]
fn extreme_reports_do_not_overflow_or_panic() {
    let mut r = report(24);
    let long = "WANJIRU ".repeat(40) + &"X".repeat(300);
    r.statement.holder_name = Some(long.clone() + "\u{0}\u{7}\t\n\u{202e}\u{1F600}");
    r.statement.mobile_number_masked = Some("+254*****************************999".to_owned());
    r.statement_period = "Jan 1999 - Dec 2099 ".repeat(5);
    r.report_id = format!("rpt_{}", "f".repeat(200));
    r.scorecard_version = "v".repeat(120);
    r.statement.currency = "KESKESKESKES".to_owned();
    r.statement.total_paid_in = Decimal::new(i64::MAX, 2);
    r.factors = (0..40)
        .map(|i| Factor {
            name: format!("Factor {i} {}", "with a very long name ".repeat(6)),
            score: if i % 3 == 0 { 90 } else { 3 },
            max: if i % 5 == 0 { 0 } else { 60 },
            code: format!("factor_{i}"),
        })
        .collect();
    r.reason_codes = (0..30)
        .map(|i| ReasonCode {
            code: format!("R{i:02}{}", "9".repeat(i)),
            factor: format!("factor_{i}"),
            attribute: format!("attribute_{i}"),
            points_lost: 57,
            description: "Income varies strongly from month to month ".repeat(i + 1),
        })
        .collect();
    r.insights = (0..51)
        .map(|i| Insight {
            code: format!("insight_{i}"),
            message: "A sentence about the statement that goes on and on. ".repeat(i % 9 + 1),
            value: Decimal::new(123_456_789_012_345 * (i64::try_from(i).unwrap_or(0) + 1), 2),
            unit: [
                "KES",
                "KES/month",
                "ratio",
                "months",
                "count",
                "days",
                "weird unit",
            ][i % 7]
                .to_owned(),
        })
        .collect();
    r.integrity.findings = (0..200)
        .map(|i| Finding {
            code: format!("finding_{i}_{}", "z".repeat(i % 50)),
            severity: [Severity::Info, Severity::Warning, Severity::Critical][i % 3],
            message: format!("Finding number {i}: {}", long.repeat(i % 4 + 1)),
        })
        .collect();
    r.integrity.status = "failed".to_owned();
    for m in &mut r.statement.monthly {
        m.withdrawn = Decimal::new(999_999_999_999, 0);
    }
    r.score = 9_999;
    let pdf = render(&r, &RenderOptions::new(at()).with_issuer("I".repeat(300))).expect("render");
    let pages = page_count(&pdf);
    assert!((2..=40).contains(&pages), "{pages} pages");
    let text = squashed_text(&pdf);
    assert!(text.contains("andmorefindings") || text.contains("160morefindings"));

    // Empty lists and a zero-month statement render too.
    let mut empty = report(1);
    empty.factors.clear();
    empty.reason_codes.clear();
    empty.insights.clear();
    empty.integrity.findings.clear();
    empty.statement.monthly.clear();
    empty.statement.holder_name = None;
    empty.statement.mobile_number_masked = None;
    empty.score = 0;
    let pdf = render(&empty, &RenderOptions::new(at())).expect("render");
    assert!(page_count(&pdf) >= 1);
}

#[test]
fn refuses_a_report_that_is_not_completed() {
    let mut r = report(3);
    r.status = ReportStatus::Processing;
    let err = render(&r, &RenderOptions::new(at())).expect_err("not completed");
    assert!(matches!(err.kind(), ErrorKind::Malformed { .. }));
}

/// Writes the example report of the docs from the project's synthetic statement generator:
/// `cargo test -p alama-core --features pdf-report,testing --test pdf_report -- --ignored
/// write_example`, then `pdftoppm -png -r 110 target/report-example.pdf target/page` and see
/// docs/report-example.png. `ALAMA_REPORT_EXAMPLE` overrides the output path,
/// `ALAMA_EXAMPLE_SEED` the seed.
#[cfg(feature = "testing")]
#[test]
#[ignore = "writes a file; run by hand to refresh docs/report-example.png"]
fn write_example() {
    let path = std::env::var("ALAMA_REPORT_EXAMPLE")
        .unwrap_or_else(|_| "../target/report-example.pdf".to_owned());
    let seed = std::env::var("ALAMA_EXAMPLE_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(29);
    let r = alama_core::score(&alama_core::testing::synthetic_statement(seed, 12)).expect("score");
    let started = std::time::Instant::now();
    let pdf = render(&r, &RenderOptions::new(at())).expect("render");
    let cold = started.elapsed();
    let runs = 20;
    let started = std::time::Instant::now();
    for _ in 0..runs {
        assert_eq!(render(&r, &RenderOptions::new(at())).expect("render"), pdf);
    }
    let warm = started.elapsed() / runs;
    eprintln!(
        "seed {seed}: score {} ({}), {} bytes, {} pages; first render {cold:?} (parses the \
         fonts), then {warm:?} per render",
        r.score,
        r.band.as_str(),
        pdf.len(),
        page_count(&pdf)
    );
    std::fs::write(&path, &pdf).expect("write");
}
