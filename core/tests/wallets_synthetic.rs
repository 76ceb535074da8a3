//! Each other wallet's parser reads its own synthetic generator's file back exactly
//! (write-then-parse is the identity), rejects a damaged file with a typed error or keeps the
//! damaged row as an unparsed line, and reads 1,000 rows quickly.

use alama_core::parse::{ParseOptions, parse};
use alama_core::statement::Statement;
use alama_core::testing::SplitMix64;
use alama_core::testing::wallets::{Synthetic, airtel_statement, mtn_statement, vodacom_statement};
use proptest::prelude::*;
use rust_decimal::Decimal;

fn round_trip(synthetic: &Synthetic) {
    let parsed = parse(&synthetic.bytes, &ParseOptions::default()).expect("parses");
    assert!(parsed.unparsed.is_empty(), "{:?}", parsed.unparsed);
    let expected: Statement = synthetic.expected_prepared(&parsed);
    assert_eq!(parsed.transactions.len(), expected.transactions.len());
    for (got, want) in parsed.transactions.iter().zip(&expected.transactions) {
        assert_eq!(got, want);
    }
    assert_eq!(parsed, expected);
    // The canonical JSON and CSV carry every field of these wallets' rows.
    let json = parse(parsed.to_json().as_bytes(), &ParseOptions::default()).expect("JSON");
    assert_eq!(json.transactions, parsed.transactions);
    assert_eq!(
        (json.provider.clone(), &json.currency, &json.country),
        (parsed.provider.clone(), &parsed.currency, &parsed.country)
    );
    let csv = parse(parsed.to_csv().as_bytes(), &ParseOptions::default()).expect("CSV");
    assert_eq!(csv.transactions, parsed.transactions);
    assert_eq!(
        (csv.provider.clone(), &csv.currency),
        (parsed.provider.clone(), &parsed.currency)
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn airtel_write_then_parse_is_the_identity(seed in any::<u64>(), rows in 1usize..60) {
        round_trip(&airtel_statement(seed, rows));
    }

    #[test]
    fn vodacom_write_then_parse_is_the_identity(seed in any::<u64>(), rows in 1usize..60) {
        round_trip(&vodacom_statement(seed, rows));
    }

    #[test]
    fn mtn_write_then_parse_is_the_identity(seed in any::<u64>(), rows in 1usize..60) {
        round_trip(&mtn_statement(seed, rows));
    }

    /// Row order changes nothing on any wallet, rows that share a completion time included
    /// (every check reads the rows in one reading order, whatever the listing): the statement
    /// as parsed, as listed with ties made, and shuffled, give the same report.
    #[test]
    fn row_order_does_not_change_a_wallets_report(seed in any::<u64>(), shuffle in any::<u64>()) {
        for synthetic in [airtel_statement(seed, 30), vodacom_statement(seed, 30), mtn_statement(seed, 30)] {
            let parsed = parse(&synthetic.bytes, &ParseOptions::default()).expect("parses");
            let mut tied = parsed.clone().into_statement();
            // Every third row at the time of the row after it: pairs whose order only the
            // reading order's tie-breaks decide.
            for i in (0..tied.transactions.len().saturating_sub(1)).step_by(3) {
                tied.transactions[i].completed_at = tied.transactions[i + 1].completed_at;
            }
            // A chain break inside a tie and rows printed twice: findings whose wording
            // and counts the order of tied rows could otherwise decide.
            let rows = &mut tied.transactions;
            if let Some(b) = rows[3].balance.as_mut() {
                *b += Decimal::from(7);
            }
            // Rows 0 and 1 share a time: both printed twice.
            let (first, second) = (rows[0].clone(), rows[1].clone());
            rows.push(second);
            rows.insert(5, first);
            let mut shuffled = tied.clone();
            let mut rng = SplitMix64::new(shuffle);
            for i in (1..shuffled.transactions.len()).rev() {
                let j = usize::try_from(rng.range(0, i as u64)).unwrap_or(0); // inclusive
                shuffled.transactions.swap(i, j);
            }
            let json = |s: &Statement| alama_core::score(s).map(|r| r.to_json()).map_err(|e| e.code().to_owned());
            prop_assert_eq!(alama_core::score(&parsed).map(|r| r.to_json()).map_err(|e| e.code().to_owned()), json(&parsed.clone().into_statement()));
            let reversed = Statement { transactions: tied.transactions.iter().rev().cloned().collect(), ..tied.clone() };
            prop_assert_eq!(json(&tied), json(&shuffled));
            prop_assert_eq!(json(&tied), json(&reversed));
        }
    }

    /// A PDF cut short is a typed error, never a panic or a silent partial statement.
    #[test]
    fn a_truncated_pdf_is_malformed(seed in any::<u64>(), keep in 0.1f64..0.9) {
        for synthetic in [airtel_statement(seed, 20), vodacom_statement(seed, 20)] {
            let cut = (synthetic.bytes.len() as f64 * keep) as usize;
            let err = parse(&synthetic.bytes[..cut], &ParseOptions::default())
                .expect_err("a truncated PDF does not parse");
            prop_assert!(
                matches!(err.code(), "malformed_statement" | "unsupported_wallet"),
                "{}", err.code()
            );
        }
    }
}

/// A damaged MTN amount keeps its row as an unparsed line (counted, never dropped); a
/// damaged header is an unsupported wallet that names the supported ones.
#[test]
fn a_damaged_mtn_csv_is_reported() {
    let synthetic = mtn_statement(7, 30);
    let text = String::from_utf8(synthetic.bytes.clone()).expect("UTF-8");
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    lines[3] = lines[3]
        .replacen(",TRANSFER,", ",TRANSFER,1x2,", 1)
        .replacen(",DEBIT,", ",DEBIT,1x2,", 1);
    lines[3] = lines[3].replacen(",CASH_OUT,", ",CASH_OUT,1x2,", 1);
    lines[3] = lines[3].replacen(",CASH_IN,", ",CASH_IN,1x2,", 1);
    lines[3] = lines[3].replacen(",ADJUSTMENT,", ",ADJUSTMENT,1x2,", 1);
    let damaged = lines.join("\n");
    let parsed = parse(damaged.as_bytes(), &ParseOptions::default()).expect("parses");
    assert_eq!(parsed.transactions.len(), 29);
    assert_eq!(parsed.unparsed.len(), 1);
    let headless = text.replacen("BAL BEFORE", "OPENING", 1);
    let err = parse(headless.as_bytes(), &ParseOptions::default()).expect_err("unknown header");
    assert_eq!(err.code(), "unsupported_wallet");
    assert!(
        err.message().contains("MTN MoMo Ghana"),
        "{}",
        err.message()
    );
}

/// The synthetic MTN CSV's records (header first), each cell as written.
fn mtn_records(synthetic: &Synthetic) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .has_headers(false)
        .from_reader(synthetic.bytes.as_slice())
        .records()
        .map(|r| r.expect("a record").iter().map(str::to_owned).collect())
        .collect()
}

/// `records` written back as CSV.
fn csv_of(records: &[Vec<String>]) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    for r in records {
        w.write_record(r).expect("written");
    }
    w.into_inner().expect("flushed")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// MTN's statement is read by its columns' names, not their places: the same statement with
    /// its columns in another order, a title above the header, times as a spreadsheet saves them
    /// again (ISO, 24-hour) and blank fees where none was paid reads as the original.
    #[test]
    fn an_mtn_statement_resaved_reads_the_same(seed in any::<u64>(), rows in 1usize..40, turn in 1usize..16) {
        let synthetic = mtn_statement(seed, rows);
        let original = parse(&synthetic.bytes, &ParseOptions::default()).expect("parses");
        let mut records = mtn_records(&synthetic);
        for (i, record) in records.iter_mut().enumerate() {
            if i > 0 {
                let at = chrono::NaiveDateTime::parse_from_str(&record[0], "%d-%b-%Y %I:%M:%S %p").expect("MTN time");
                record[0] = at.format("%Y-%m-%d %H:%M:%S").to_string();
                if record[6] == "0.00" {
                    record[6].clear();
                }
            }
            record.rotate_left(turn);
        }
        let mut bytes = b"MTN MOBILE MONEY STATEMENT\n\n".to_vec();
        bytes.extend(csv_of(&records));
        let resaved = parse(&bytes, &ParseOptions::default()).expect("parses");
        prop_assert_eq!(&resaved.provider, &original.provider);
        prop_assert!(resaved.unparsed.is_empty(), "{:?}", resaved.unparsed);
        prop_assert_eq!(&resaved.transactions, &original.transactions);
    }
}

/// An MTN statement from before Ghana's E-levy (May 2022) has no `E-LEVY` column: its rows read
/// with no tax, and everything else as with the column.
#[test]
fn an_mtn_statement_without_the_levy_column_reads() {
    let synthetic = mtn_statement(11, 40);
    let original = parse(&synthetic.bytes, &ParseOptions::default()).expect("parses");
    let records: Vec<Vec<String>> = mtn_records(&synthetic)
        .into_iter()
        .map(|mut r| {
            r.remove(7);
            r
        })
        .collect();
    let parsed = parse(&csv_of(&records), &ParseOptions::default()).expect("parses");
    assert!(parsed.unparsed.is_empty(), "{:?}", parsed.unparsed);
    assert_eq!(parsed.transactions.len(), original.transactions.len());
    for (got, was) in parsed.transactions.iter().zip(&original.transactions) {
        assert_eq!(got.tax, None);
        assert_eq!(got.withdrawn, was.withdrawn - was.tax.unwrap_or_default());
        assert_eq!(
            (got.paid_in, &got.details, got.completed_at, got.balance),
            (was.paid_in, &was.details, was.completed_at, was.balance)
        );
    }
}

/// A PDF of none of the known layouts is an unsupported wallet naming the supported ones.
#[test]
fn an_unknown_pdf_layout_names_the_supported_wallets() {
    let bytes = alama_core::testing::wallet_pdf::document(
        vec![alama_core::testing::wallet_pdf::Canvas::default()],
        "Test",
        "",
    );
    let err = parse(&bytes, &ParseOptions::default()).expect_err("no layout");
    assert_eq!(err.code(), "unsupported_wallet");
    for name in [
        "Airtel Money Uganda",
        "Vodacom M-Pesa Lesotho",
        "MTN MoMo Ghana",
        "Safaricom",
    ] {
        assert!(err.message().contains(name), "{}", err.message());
    }
}

/// 1,000 rows of each layout parse (the budget, well under 50 ms, is for a release build; a
/// debug build is an order of magnitude slower, so this prints the time and bounds it loosely).
#[test]
fn a_thousand_rows_parse_quickly() {
    for (name, synthetic) in [
        ("airtel", airtel_statement(1, 1_000)),
        ("vodacom", vodacom_statement(1, 1_000)),
        ("mtn", mtn_statement(1, 1_000)),
    ] {
        let started = std::time::Instant::now();
        let parsed = parse(&synthetic.bytes, &ParseOptions::default()).expect("parses");
        let took = started.elapsed();
        eprintln!("{name}: 1,000 rows in {took:?}");
        assert_eq!(parsed.transactions.len(), 1_000);
        assert!(took.as_millis() < 5_000, "{name}: {took:?}");
    }
}

/// A PDF whose writer is named only in its decoded `/Producer` (here an escaped `e`, so the
/// plain bytes do not hold it, as in the real Airtel file) is read for the other layouts from
/// that name, and gives the same statement as the file that names it in plain bytes.
#[test]
fn the_writer_is_read_from_the_decoded_producer() {
    let synthetic = vodacom_statement(5, 30);
    let plain = b"(iText 2.1.7 by 1T3XT)";
    let escaped = b"(iT\\145xt 2.1.7 by 1T)";
    assert_eq!(plain.len(), escaped.len(), "the xref offsets stay valid");
    let at = memchr_find(&synthetic.bytes, plain).expect("the producer in plain bytes");
    let mut bytes = synthetic.bytes.clone();
    bytes[at..at + plain.len()].copy_from_slice(escaped);
    assert!(memchr_find(&bytes, b"iText 2.1.7").is_none());
    let original = parse(&synthetic.bytes, &ParseOptions::default()).expect("parses");
    let parsed = parse(&bytes, &ParseOptions::default()).expect("parses");
    let producer = parsed.document.as_ref().and_then(|d| d.producer.clone());
    assert_eq!(producer.as_deref(), Some("iText 2.1.7 by 1T"));
    assert_eq!(parsed.provider, original.provider);
    assert_eq!(parsed.transactions, original.transactions);
}

fn memchr_find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// MTN sends its statement as a spreadsheet: the `.xlsx` a CSV export was saved from reads as
/// the same statement as the CSV (amounts stored as numbers, texts as text), and is detected
/// without a format name.
#[test]
fn mtn_spreadsheet_reads_as_its_csv() {
    for seed in [2u64, 9, 31] {
        let synthetic = mtn_statement(seed, 40);
        let from_csv = parse(&synthetic.bytes, &ParseOptions::default()).expect("CSV");
        let xlsx = alama_core::testing::xlsx_from_csv(&synthetic.bytes);
        let from_xlsx = parse(&xlsx, &ParseOptions::default()).expect("xlsx");
        assert_eq!(
            from_xlsx.source,
            Some(alama_core::Format::Xlsx),
            "seed {seed}"
        );
        assert_eq!(from_xlsx.transactions, from_csv.transactions, "seed {seed}");
        assert_eq!(
            (from_xlsx.provider.clone(), &from_xlsx.currency),
            (from_csv.provider.clone(), &from_csv.currency)
        );
    }
}

/// Every wallet that prints a levy (`Profile::levy`: MTN Ghana's E-LEVY): its generated files
/// print levies the law allows, and a levied row whose amount is lowered after the fact, its
/// levy and balances kept, shows as `levy_off_rate`.
#[test]
fn a_levied_row_lowered_after_the_fact_keeps_its_old_levy() {
    use alama_core::check::check;
    let code = |s: &Statement, w: &alama_core::wallets::Wallet| {
        check(&s.reading(), w, None)
            .findings
            .iter()
            .any(|f| f.code == "levy_off_rate")
    };
    let mut lowered = 0;
    for w in alama_core::wallets::ALL
        .iter()
        .filter(|w| w.profile.levy.is_some())
    {
        let generator = w
            .generator
            .as_ref()
            .expect("a wallet with a levy has a generator");
        for seed in 0..8 {
            let synthetic = (generator.file)(seed, 40);
            let s = parse(&synthetic.bytes, &ParseOptions::default())
                .expect("parses")
                .into_statement();
            assert!(!code(&s, w), "{} seed {seed}: a lawful levy flagged", w.id);
            let mut forged = s.clone();
            let Some(row) = forged
                .transactions
                .iter_mut()
                .find(|t| t.tax.is_some_and(|tax| tax > Decimal::new(5, 2)))
            else {
                continue;
            };
            // The amount a tenth of what it was; the levy of the old amount kept.
            let tax = row.tax.unwrap_or_default();
            row.withdrawn = (row.withdrawn - tax) / Decimal::TEN + tax;
            assert!(
                code(&forged, w),
                "{} seed {seed}: a lowered amount passed",
                w.id
            );
            lowered += 1;
        }
    }
    assert!(lowered > 0, "no generated file had a levied row");
}
