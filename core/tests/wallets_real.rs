//! The real statements of other wallets in `../shared/samples/wallets/` (skipped when absent):
//! each parses to the figures the statement itself prints (see that folder's README and
//! docs/wallets.md). Personal data: nothing here prints a name, a number or an address.

use alama_core::parse::{ParseOptions, parse};
use alama_core::statement::Statement;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;

fn sample(name: &str) -> Option<Statement> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples/wallets");
    let bytes = std::fs::read(dir.join(name)).ok()?;
    let started = std::time::Instant::now();
    let statement = parse(&bytes, &ParseOptions::default()).expect("the sample parses");
    eprintln!("{name}: parsed in {:?}", started.elapsed());
    Some(statement.into_statement())
}

/// Rows, totals and the share of `other`, for the report (amounts only).
fn describe(name: &str, s: &Statement) {
    let paid_in: Decimal = s.transactions.iter().map(|t| t.paid_in).sum();
    let withdrawn: Decimal = s.transactions.iter().map(|t| t.withdrawn).sum();
    let other = s
        .transactions
        .iter()
        .filter(|t| t.category == alama_core::Category::Other)
        .count();
    eprintln!(
        "{name}: {} rows, {} unparsed, paid in {paid_in}, withdrawn {withdrawn}, other {other}",
        s.transactions.len(),
        s.unparsed.len()
    );
    for u in &s.unparsed {
        eprintln!("  unparsed page {} line {}: {}", u.page, u.line, u.reason);
    }
    let mut by_category = std::collections::BTreeMap::new();
    for t in &s.transactions {
        *by_category.entry(format!("{:?}", t.category)).or_insert(0) += 1;
    }
    eprintln!("{name}: categories {by_category:?}");
    let wallet = alama_core::wallets::of(&s.provider).expect("a wallet");
    let integrity = alama_core::check::check(&s.reading(), wallet, None);
    eprintln!(
        "{name}: integrity {} ({:?}), findings {:?}",
        integrity.status,
        integrity.evidence_level,
        integrity
            .findings
            .iter()
            .map(|f| (f.severity, f.message.as_str()))
            .collect::<Vec<_>>()
    );
    assert!(
        matches!(integrity.status.as_str(), "verified" | "consistent"),
        "{name}: no false alarm, got {}",
        integrity.status
    );
    assert!(
        other * 100 <= s.transactions.len(),
        "{name}: {other} of {} rows are `other` (at most 1 %)",
        s.transactions.len()
    );
}

#[test]
fn airtel_money_uganda_reads_to_its_summary() {
    let Some(s) = sample("airtel-money-ug_2026-03_personal.pdf") else {
        return;
    };
    describe("airtel", &s);
    assert_eq!(s.provider.as_str(), "airtel-money-ug");
    assert_eq!(s.currency, "UGX");
    assert!(s.unparsed.is_empty());
    assert_eq!(s.transactions.len(), 23);
    let balances = s.balances.expect("opening and closing balances");
    assert_eq!(balances.opening, dec!(25111.80));
    assert_eq!(balances.closing, dec!(73201.80));
    let total = &s.summary.as_ref().expect("SUMMARY").total;
    assert_eq!(total.paid_in, dec!(7040000.00));
    assert_eq!(total.paid_out, dec!(6991910.00));
    let paid_in: Decimal = s.transactions.iter().map(|t| t.paid_in).sum();
    let withdrawn: Decimal = s.transactions.iter().map(|t| t.withdrawn).sum();
    assert_eq!(paid_in, total.paid_in);
    assert_eq!(withdrawn, total.paid_out, "the fees are inside the debit");
    assert_eq!(balances.opening + paid_in - withdrawn, balances.closing);
    let mut running = balances.opening;
    for t in &s.transactions {
        running += t.paid_in - t.withdrawn;
        assert_eq!(Some(running), t.balance, "{}", t.completed_at);
    }
}

#[test]
fn vodacom_mpesa_lesotho_reads_every_row() {
    let Some(s) = sample("vodacom-mpesa-ls_2024-12_personal.pdf") else {
        return;
    };
    describe("lesotho", &s);
    assert_eq!(s.provider.as_str(), "vodacom-mpesa-ls");
    assert_eq!(s.currency, "LSL");
    assert!(s.unparsed.is_empty());
    assert_eq!(s.transactions.len(), 357);
    let first = s.transactions.iter().map(|t| t.completed_at.date()).min();
    let last = s.transactions.iter().map(|t| t.completed_at.date()).max();
    assert_eq!(first.map(|d| d.to_string()).as_deref(), Some("2024-07-02"));
    assert_eq!(last.map(|d| d.to_string()).as_deref(), Some("2024-12-31"));
}

#[test]
fn mtn_momo_ghana_reads_every_row() {
    let Some(s) = sample("mtn-momo-gh_2025-03_to_2025-05_personal.csv") else {
        return;
    };
    describe("mtn", &s);
    assert_eq!(s.provider.as_str(), "mtn-momo-gh");
    assert_eq!(s.currency, "GHS");
    assert!(s.unparsed.is_empty());
    // 105 records after the header (the samples' README counts 104: `wc -l` of a file whose
    // last line has no newline, less the header).
    assert_eq!(s.transactions.len(), 105);
    assert!(
        s.transactions.iter().all(|t| t.balance.is_some()
            && t.balance_before.is_some()
            && t.transaction_type.is_some()),
        "every MTN row keeps its printed balances and type"
    );
    // The rows whose own balances move by their amount (fees and levy included) — all but the
    // 5 XtraBalance rows whose balances are another account's and the 1 levied row.
    let own = s
        .transactions
        .iter()
        .filter(|t| {
            t.balance
                .zip(t.balance_before)
                .is_some_and(|(a, b)| a - b == t.net())
        })
        .count();
    assert_eq!(
        own,
        105 - 6,
        "rows whose printed balances move by their amount"
    );
}

/// Qt 4.8 numbers a subset font's glyphs 1, 2, 3, … as it first draws them
/// (`QFontSubset::addGlyph`): the genuine Airtel file keeps that order; the same file with one
/// glyph of page 1 drawn as the font's last glyph (a glyph drawn before its first use, as a
/// closing balance raised to a digit the statement first draws further on) is `off_grid_text`.
#[test]
fn airtel_glyphs_are_numbered_as_qt_first_draws_them() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples/wallets");
    let Ok(bytes) = std::fs::read(dir.join("airtel-money-ug_2026-03_personal.pdf")) else {
        return;
    };
    let structure = |bytes: &[u8]| {
        let s = parse(bytes, &ParseOptions::default()).expect("parses");
        s.into_statement()
            .document
            .and_then(|d| d.structure)
            .expect("a structure")
    };
    let genuine = structure(&bytes);
    assert_eq!(
        (
            genuine.glyphs_numbered_otherwise,
            genuine.placed_otherwise,
            genuine.joined_glyph_strings
        ),
        (0, 0, 0),
        "Qt's own drawing"
    );

    // Page 1's first glyph of its first two-byte font (id 1) drawn as that font's last id.
    let mut doc = lopdf::Document::load_mem(&bytes).expect("loads");
    let page = *doc.get_pages().get(&1).expect("page 1");
    let content = doc.get_page_content(page);
    let text = String::from_utf8_lossy(&content).into_owned();
    let last = text
        .match_indices("> Tj")
        .filter_map(|(at, _)| u32::from_str_radix(&text[at - 4..at], 16).ok())
        .max()
        .expect("glyphs");
    let first = text.find("<0001> Tj").expect("glyph 1 drawn");
    let edited = format!("{}<{last:04X}>{}", &text[..first], &text[first + 6..]);
    doc.change_page_content(page, edited.into_bytes())
        .expect("replaced");
    let mut out = Vec::new();
    doc.save_to(&mut out).expect("saved");
    assert!(structure(&out).glyphs_numbered_otherwise > 0);
    let statement = parse(&out, &ParseOptions::default())
        .expect("parses")
        .into_statement();
    let wallet = alama_core::wallets::of(&statement.provider).expect("a wallet");
    let integrity = alama_core::check::check(&statement.reading(), wallet, None);
    let off_grid = integrity
        .findings
        .iter()
        .find(|f| f.code == "off_grid_text")
        .expect("off_grid_text");
    assert!(
        off_grid.message.contains("numbered otherwise"),
        "{}",
        off_grid.message
    );
}

/// A copy linearized ("fast web view", as a document system or an e-mail gateway may make it)
/// is a re-save, not an edit appended to the file: its first page's cross-reference section,
/// whose `%%EOF` comes before the first page's objects, is part of the one save. Needs `qpdf`
/// (installed by `scripts/install-system-deps.sh`); skipped without it.
#[test]
fn a_linearized_copy_is_resaved_not_updated() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples/wallets");
    let original = dir.join("airtel-money-ug_2026-03_personal.pdf");
    let out = std::env::temp_dir().join(format!("alama-linearized-{}.pdf", std::process::id()));
    let made = original.is_file()
        && std::process::Command::new("qpdf")
            .arg("--linearize")
            .arg(&original)
            .arg(&out)
            .status()
            // 3: written, with warnings.
            .is_ok_and(|s| matches!(s.code(), Some(0 | 3)));
    if !made {
        eprintln!("note: the Airtel sample or qpdf is absent; skipping");
        return;
    }
    let bytes = std::fs::read(&out).expect("the linearized copy");
    let _ = std::fs::remove_file(&out);
    let codes = |bytes: &[u8]| {
        let statement = parse(bytes, &ParseOptions::default())
            .expect("the copy parses")
            .into_statement();
        let wallet = alama_core::wallets::of(&statement.provider).expect("a wallet");
        let integrity = alama_core::check::check(&statement.reading(), wallet, None);
        let codes: Vec<String> = integrity.findings.iter().map(|f| f.code.clone()).collect();
        (integrity.evidence_level, codes)
    };
    let (level, found) = codes(&bytes);
    assert_eq!(level, alama_core::EvidenceLevel::PdfResaved);
    assert!(found.iter().any(|c| c == "disguised_resave"), "{found:?}");
    assert!(
        !found.iter().any(|c| c == "incremental_update"),
        "{found:?}"
    );

    // A section appended after linearization is still an update: only the first page's
    // section is part of the save.
    let mut updated = bytes.clone();
    let last = updated.len()
        - updated
            .windows(9)
            .rev()
            .position(|w| w == b"startxref")
            .unwrap()
        - 9;
    let tail = String::from_utf8_lossy(&updated[last..]).into_owned();
    updated.extend_from_slice(format!("\n{tail}").as_bytes());
    let (_, found) = codes(&updated);
    assert!(found.iter().any(|c| c == "incremental_update"), "{found:?}");
}
