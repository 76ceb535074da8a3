use super::*;
use crate::report::Band;
use proptest::prelude::*;
use rust_decimal_macros::dec;

fn card() -> &'static Scorecard {
    builtin()
}

fn attribute(code: &str) -> &'static card::Attribute {
    card()
        .characteristics
        .iter()
        .flat_map(|c| c.attributes.iter())
        .find(|a| a.code == code)
        .unwrap_or_else(|| panic!("no attribute {code}"))
}

#[test]
fn the_built_in_card_is_valid_data_of_this_version() {
    assert_eq!(card().version, VERSION);
    assert_eq!(card().sha256().len(), 64);
    // Canonical JSON round trips exactly.
    let again = Scorecard::from_json(&card().to_json()).expect("valid");
    assert_eq!(&again, card());
    assert_eq!(again.sha256(), card().sha256());
    // An equal copy takes the kept hash, which is the one it would compute.
    assert_eq!(again.sha256(), again.compute_sha256());
    // The built-in card's hash is kept; an edited copy's is its own.
    let mut edited = card().clone();
    edited.characteristics[0].name.push('!');
    assert_ne!(edited.sha256(), card().sha256());
    let total: u16 = card().characteristics.iter().map(|c| c.max).sum();
    assert_eq!(total, MAX_POINTS);
    let codes: Vec<&str> = card()
        .characteristics
        .iter()
        .map(|c| c.reason_code.as_str())
        .collect();
    assert_eq!(
        codes,
        ["R01", "R08", "R02", "R03", "R04", "R05", "R06", "R07"]
    );
}

/// Every bin of every table, probed at its edges: inclusive edges belong to their bin,
/// exclusive ones to the neighbour.
#[test]
fn every_bin_scores_its_points_at_its_edges() {
    let eps = dec!(0.0001);
    for c in &card().characteristics {
        for a in &c.attributes {
            for b in &a.bins {
                for (edge, inclusive, inside) in [
                    (b.min, b.min_inclusive, eps),
                    (b.max, b.max_inclusive, -eps),
                ] {
                    let Some(x) = edge else { continue };
                    assert_eq!(b.holds(x), inclusive, "{} {x}", a.code);
                    assert_eq!(
                        a.bins.iter().filter(|o| o.holds(x)).count(),
                        1,
                        "{} {x}",
                        a.code
                    );
                    assert_eq!(a.points_of(x + inside), b.points, "{} {x}", a.code);
                }
            }
            assert_eq!(a.bins.iter().filter(|b| b.holds(Decimal::MAX)).count(), 1);
            assert_eq!(a.bins.iter().filter(|b| b.holds(Decimal::MIN)).count(), 1);
        }
    }
}

#[test]
fn named_bins_score_as_documented() {
    let income = attribute("typical_monthly_income");
    assert_eq!(income.points_of(dec!(55000)), 46);
    assert_eq!(income.points_of(dec!(550)), 0);
    assert_eq!(income.points_of(dec!(15000)), 27);
    assert_eq!(income.points_of(dec!(14999.99)), 17);
    let on_time = attribute("on_time_repayment_share");
    assert_eq!(on_time.points_of(dec!(0.98)), 40);
    assert_eq!(on_time.points_of(dec!(0.61)), 8);
    let bills = attribute("bill_month_share");
    assert_eq!(bills.points_of(dec!(0)), 0);
    assert_eq!(bills.points_of(dec!(0.1)), 5);
    let betting = attribute("betting_share");
    assert_eq!(betting.points_of(dec!(0.2)), 4);
    assert_eq!(betting.points_of(dec!(0.35)), 0);
}

/// A card with one edit applied to its JSON.
fn edited(edit: impl Fn(&mut serde_json::Value)) -> crate::Result<Scorecard> {
    let mut v: serde_json::Value = serde_json::from_str(BUILTIN_JSON).expect("json");
    edit(&mut v);
    Scorecard::from_json(&v.to_string())
}

fn invalid_message(edit: impl Fn(&mut serde_json::Value)) -> String {
    match edited(edit) {
        Err(e) => {
            assert_eq!(e.code(), "invalid_scorecard");
            e.message().to_owned()
        }
        Ok(_) => panic!("an invalid card was accepted"),
    }
}

#[test]
fn invalid_cards_are_refused_with_the_problem_named() {
    let bins = |v: &mut serde_json::Value| v["characteristics"][0]["attributes"][0]["bins"].clone();
    let m = invalid_message(|v| {
        let mut b = bins(v);
        b[1]["min"] = serde_json::json!("0.55");
        v["characteristics"][0]["attributes"][0]["bins"] = b;
    });
    assert!(m.contains("gap") && m.contains("income_month_share"), "{m}");
    let m = invalid_message(|v| {
        let mut b = bins(v);
        b[0]["maxInclusive"] = serde_json::json!(true);
        v["characteristics"][0]["attributes"][0]["bins"] = b;
    });
    assert!(m.contains("overlap"), "{m}");
    let m = invalid_message(|v| {
        v["characteristics"][0]["attributes"][0]["feature"] = serde_json::json!("shoe_size");
    });
    assert!(m.contains("shoe_size") && m.contains("catalogue"), "{m}");
    let m = invalid_message(|v| {
        v["characteristics"][0]["attributes"][0]["bins"][0]["points"] = serde_json::json!(1.5);
    });
    assert!(m.contains("not a scorecard JSON"), "{m}");
    let m = invalid_message(|v| {
        v["characteristics"][0]["max"] = serde_json::json!(81);
    });
    assert!(m.contains("add up"), "{m}");
    let m = invalid_message(|v| {
        let last = v["characteristics"].as_array().map_or(0, Vec::len) - 1;
        v["characteristics"].as_array_mut().map(|a| a.remove(last));
    });
    assert!(m.contains("maxPoints"), "{m}");
    let m = invalid_message(|v| {
        v["characteristics"][0]["attributes"][0]["bins"][2]["points"] = serde_json::json!(25);
    });
    assert!(m.contains("direction"), "{m}");
    let m = invalid_message(|v| {
        v["characteristics"][0]["attributes"][0]["bins"][1]["min"] = serde_json::json!(0.5);
    });
    assert!(m.contains("not a scorecard JSON"), "{m}");
}

#[test]
fn a_refitted_card_scores_with_its_own_points_and_id() {
    let other = edited(|v| {
        v["version"] = serde_json::json!("lender-x-2027.01");
        // Move 10 points from income_month_share's best bin to its neutral value's table.
        v["characteristics"][0]["attributes"][0]["bins"][4]["points"] = serde_json::json!(30);
    })
    .expect("valid");
    assert_eq!(other.version, "lender-x-2027.01");
    assert_ne!(other.sha256(), card().sha256());
}

/// A salaried statement's features, the best on every attribute.
fn best() -> Features {
    Features {
        statement_days: 400,
        transaction_count: 1_300,
        transactions_per_month: dec!(100),
        typical_monthly_income: dec!(150000),
        income_floor: Some(dec!(140000)),
        income_month_share: Some(dec!(1)),
        salary_month_share: Some(dec!(1)),
        affordable_instalment: dec!(20000),
        net_cash_flow_ratio: Some(dec!(0.3)),
        balance_buffer_days: Some(dec!(30)),
        near_zero_share: Some(dec!(0)),
        on_time_repayment_share: Some(dec!(1)),
        fuliza_reliance: Some(dec!(0)),
        fuliza_month_share: Some(dec!(0)),
        loan_intensity: Some(dec!(0)),
        bill_month_share: Some(dec!(1)),
        ..Features::default()
    }
}

fn assess_builtin(f: &Features) -> Assessment {
    assess(card(), f)
}

#[test]
fn the_best_features_score_850_and_the_worst_304() {
    let a = assess_builtin(&best());
    assert_eq!(a.score, 850);
    assert!(a.reason_codes.is_empty());
    let worst = Features {
        income_floor: Some(dec!(0)),
        income_month_share: Some(dec!(0.2)),
        salary_month_share: Some(dec!(0)),
        net_cash_flow_ratio: Some(dec!(-1)),
        balance_buffer_days: None,
        near_zero_share: None,
        on_time_repayment_share: Some(dec!(0.1)),
        fuliza_reliance: Some(Decimal::MAX),
        fuliza_month_share: Some(dec!(1)),
        loan_intensity: Some(dec!(2)),
        bill_month_share: Some(dec!(0)),
        betting_share: dec!(0.5),
        cash_and_betting_share: dec!(0.9),
        transactions_per_month: dec!(1),
        statement_days: 1,
        ..Features::default()
    };
    // Account history never drops below its floor of 2 + 2.
    assert_eq!(assess_builtin(&worst).score, 304);
}

#[test]
fn a_never_borrower_is_neutral_and_gets_no_credit_reason() {
    let f = Features {
        on_time_repayment_share: None,
        ..best()
    };
    let a = assess_builtin(&f);
    assert_eq!(a.score, 850 - 16);
    assert!(a.reason_codes.is_empty(), "{:?}", a.reason_codes);
    let late = Features {
        on_time_repayment_share: Some(dec!(0.6)),
        ..best()
    };
    assert!(assess_builtin(&late).score < a.score);
}

#[test]
fn a_thin_file_loses_points_only_where_evidence_is_bad() {
    let thin = Features {
        statement_days: 30,
        transactions_per_month: dec!(20),
        typical_monthly_income: dec!(30000),
        income_floor: None,
        income_month_share: None,
        salary_month_share: None,
        bill_month_share: None,
        ..best()
    };
    let a = assess_builtin(&thin);
    let attrs: Vec<&str> = a
        .reason_codes
        .iter()
        .map(|r| r.attribute.as_str())
        .collect();
    assert!(
        a.reason_codes
            .iter()
            .all(|r| r.code != "R01" && r.code != "R05"),
        "{attrs:?}"
    );
    assert!(attrs.contains(&"statement_days"));
    assert!(attrs.contains(&"typical_monthly_income"));
}

#[test]
fn reasons_name_the_attribute_and_the_figure_largest_loss_first() {
    let f = Features {
        on_time_repayment_share: Some(dec!(0.61)),
        betting_share: dec!(0.05),
        ..best()
    };
    let a = assess_builtin(&f);
    let got: Vec<(&str, &str, u16)> = a
        .reason_codes
        .iter()
        .map(|r| (r.code.as_str(), r.attribute.as_str(), r.points_lost))
        .collect();
    assert_eq!(
        got,
        [
            ("R04", "on_time_repayment_share", 32),
            ("R06", "betting_share", 20)
        ]
    );
    assert_eq!(
        a.reason_codes[0].description,
        "Fuliza and loans: 61.0% of the amount due was repaid within 30 days"
    );
}

#[test]
fn overdue_credit_caps_the_score() {
    let mut f = best();
    f.credit.borrowed = dec!(10000);
    f.credit.due = dec!(10100);
    f.credit.overdue = dec!(5000);
    let a = assess_builtin(&f);
    assert_eq!(a.score, 579);
    assert_eq!(a.knockout, 850 - 579);
    assert_eq!(a.reason_codes[0].code, "K01");
    assert!(
        a.reason_codes[0]
            .description
            .starts_with("KES 5,000.00 of credit"),
        "{}",
        a.reason_codes[0].description
    );
    f.credit.overdue = dec!(99);
    assert_eq!(assess_builtin(&f).knockout, 0, "under KES 100");
    f.credit.overdue = dec!(500);
    assert_eq!(
        assess_builtin(&f).knockout,
        0,
        "under 5 % of the amount due"
    );
}

#[test]
fn bands_cover_the_whole_range_without_gaps() {
    let mut expected_lo = 300;
    for (_, lo, hi) in Band::RANGES {
        assert_eq!(lo, expected_lo);
        assert!(hi >= lo);
        expected_lo = hi + 1;
    }
    assert_eq!(expected_lo, 851);
    assert_eq!(Band::of(579), Band::Poor);
}

#[test]
fn docs_show_these_tables() {
    for (path, begin, end, text) in [
        (
            concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scorecard.md"),
            "<!-- scorecard:begin -->\n",
            "<!-- scorecard:end -->",
            describe(card()),
        ),
        (
            concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/features.md"),
            "<!-- features:begin -->\n",
            "<!-- features:end -->",
            crate::features::catalogue::describe(),
        ),
    ] {
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        let parts = doc.split_once(begin).and_then(|(head, rest)| {
            rest.split_once(end)
                .map(|(inner, tail)| (head, inner, tail))
        });
        if let (Some((head, _, tail)), true) = (parts, std::env::var_os("ALAMA_BLESS").is_some()) {
            std::fs::write(path, format!("{head}{begin}{text}{end}{tail}"))
                .unwrap_or_else(|e| panic!("write {path}: {e}"));
            continue;
        }
        assert!(
            parts.map(|(_, inner, _)| inner) == Some(text.as_str()),
            "{path} is out of date: run ALAMA_BLESS=1 cargo test -p alama-core docs_show"
        );
    }
}

/// The real statements of `../shared/samples/real/` (see its README), parsed once: every
/// one is categorised with less than 10 % `Other` rows and scores in a plausible middle
/// range. Prints counts and points only, never personal data; skips when the folder is
/// absent. (About 30 s in a debug build: three PDFs of up to 117 pages.)
#[test]
fn real_samples_are_categorised_and_score_plausibly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples/real");
    if !dir.is_dir() {
        eprintln!(
            "note: {} is absent; skipping the real-sample check",
            dir.display()
        );
        return;
    }
    let samples = [
        ("mpesa_2019-08_to_2021-derived_processed.csv", None),
        (
            "mpesa_2021-03_to_2021-09_unencrypted_itext_TRUNCATED.pdf",
            None,
        ),
        (
            "mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf",
            Some("183177"),
        ),
        ("mpesa_2024-04_to_2024-10_unlocked_ilovepdf.pdf", None),
    ];
    let mut scores = Vec::new();
    for (name, password) in samples {
        let Ok(bytes) = std::fs::read(dir.join(name)) else {
            eprintln!("note: {name} is absent; skipped");
            continue;
        };
        let options = crate::ParseOptions {
            password: password.map(str::to_owned),
            ..crate::ParseOptions::default()
        };
        let statement = crate::parse(&bytes, &options).expect("a real sample parses");
        let rows = statement.transactions.len();
        let other = statement
            .transactions
            .iter()
            .filter(|t| t.category == crate::Category::Other)
            .count();
        let report = crate::score(&statement).expect("a real sample scores");
        let points: Vec<String> = report
            .factors
            .iter()
            .map(|f| format!("{}={}/{}", f.code, f.score, f.max))
            .collect();
        eprintln!(
            "{name}: {rows} rows, {other} Other; score {} {}; {}",
            report.score,
            report.band.as_str(),
            points.join(" ")
        );
        assert!(rows > 0);
        assert!(
            other * 10 < rows,
            "{name}: {other} of {rows} rows are Other"
        );
        assert!(
            (450..=800).contains(&report.score),
            "{name}: {}",
            report.score
        );
        assert!(report.factors.iter().any(|f| f.score < f.max));
        scores.push(report.score);
    }
    eprintln!("scores: {scores:?}");
}

fn decimal() -> impl Strategy<Value = Decimal> {
    prop_oneof![
        (-2_000_000i64..2_000_000, 0u32..5).prop_map(|(n, s)| Decimal::new(n, s)),
        Just(Decimal::ZERO),
        Just(Decimal::MAX),
        Just(Decimal::MIN),
    ]
}

fn opt_decimal() -> impl Strategy<Value = Option<Decimal>> {
    proptest::option::of(decimal())
}

prop_compose! {
    /// Arbitrary features: any value in any field, including ones no statement produces.
    fn arb_features()(
        ratios in proptest::collection::vec(opt_decimal(), 12),
        plain in proptest::collection::vec(decimal(), 7),
        days in any::<u32>(),
    ) -> Features {
        let mut f = Features {
            statement_days: days,
            transactions_per_month: plain[0],
            betting_share: plain[1],
            cash_and_betting_share: plain[2],
            typical_monthly_income: plain[3],
            affordable_instalment: plain[4],
            income_floor: ratios[0],
            income_month_share: ratios[1],
            salary_month_share: ratios[2],
            net_cash_flow_ratio: ratios[3],
            balance_buffer_days: ratios[4],
            near_zero_share: ratios[5],
            on_time_repayment_share: ratios[6],
            fuliza_reliance: ratios[7],
            loan_intensity: ratios[8],
            bill_month_share: ratios[9],
            fuliza_month_share: ratios[10],
            ..Features::default()
        };
        f.credit.overdue = plain[5].abs();
        f.credit.due = plain[6].abs();
        f
    }
}

proptest! {
    #[test]
    fn points_stay_within_their_maxima_and_add_up(features in arb_features()) {
        let a = assess(card(), &features);
        prop_assert_eq!(a.factors.len(), card().characteristics.len());
        for (f, c) in a.factors.iter().zip(card().characteristics.iter()) {
            prop_assert!(f.score <= f.max);
            prop_assert_eq!(f.max, c.max);
            prop_assert_eq!(&f.code, &c.code);
        }
        prop_assert!((300..=850).contains(&a.score));
        prop_assert_eq!(a.score, BASE + a.factors.iter().map(|f| f.score).sum::<u16>() - a.knockout);
        prop_assert!(a.knockout == 0 || a.score == 579);
        // Largest loss first, after a thin file's `K02` (listed first whatever it removed).
        let evidence: Vec<_> = a.reason_codes.iter().filter(|r| r.code != "K02").collect();
        for w in evidence.windows(2) {
            prop_assert!(w[0].points_lost >= w[1].points_lost);
        }
        prop_assert_eq!(
            a.reason_codes.first().is_some_and(|r| r.code == "K02"),
            crate::scorecard::thin::is_thin(&features)
        );
        // Reason codes never claim more than the points actually lost.
        let lost: u16 = a.reason_codes.iter().map(|r| r.points_lost).sum();
        prop_assert!(lost + a.score <= 850);
    }

    #[test]
    fn every_score_has_exactly_one_band(score in 300u16..=850) {
        let containing = Band::RANGES
            .iter()
            .filter(|(_, lo, hi)| (*lo..=*hi).contains(&score))
            .count();
        prop_assert_eq!(containing, 1);
    }
}

#[cfg(feature = "testing")]
#[test]
fn score_values_gives_the_report_score_of_the_same_figures() {
    for seed in 1..=12 {
        let statement = crate::testing::synthetic_statement(seed, 1 + (seed as u32 % 12));
        let report = crate::score(&statement).expect("scores");
        let mut prepared = statement.clone();
        crate::parse::prepare(&mut prepared);
        let f = crate::features::compute(&prepared.reading(), &crate::features::Thresholds::KES);
        let values: std::collections::BTreeMap<String, Option<Decimal>> =
            crate::features::catalogue::values(&f)
                .into_iter()
                .map(|(n, v)| (n.to_owned(), v))
                .collect();
        let s = score_values(card(), &values).expect("every feature given");
        assert_eq!(s.score, report.score, "seed {seed}");
        let factor_points: Vec<u16> = s.factors.iter().map(|f| f.1).collect();
        let report_points: Vec<u16> = report.factors.iter().map(|f| f.score).collect();
        assert_eq!(factor_points, report_points);
        assert_eq!(
            s.score,
            BASE + s.factors.iter().map(|f| f.1).sum::<u16>() - s.knockout
        );
    }
}

#[test]
fn score_values_names_a_feature_it_was_not_given() {
    let e = score_values(card(), &std::collections::BTreeMap::new()).expect_err("no values");
    assert_eq!(e.code(), "invalid_scorecard");
    assert!(
        e.message().contains("no value for feature"),
        "{}",
        e.message()
    );
}

#[test]
fn every_catalogue_entry_has_a_window_and_scored_features_a_trend() {
    use crate::features::catalogue::{CATALOGUE, Trend};
    assert!(CATALOGUE.iter().all(|d| !d.window.is_empty()));
    // Every attribute of the built-in card agrees with its feature's trend.
    for a in card().characteristics.iter().flat_map(|c| &c.attributes) {
        let d = crate::features::catalogue::find(&a.feature).expect("in the catalogue");
        let expected = match a.direction {
            card::Direction::HigherIsBetter => Trend::Descending,
            card::Direction::LowerIsBetter => Trend::Ascending,
        };
        assert!(
            d.direction == expected || d.direction == Trend::None,
            "{}: {:?} vs {:?}",
            a.feature,
            d.direction,
            a.direction
        );
    }
}

/// A wallet that is not used to save breaks even (income − spending ≈ the change in balance):
/// that common value is inside one band, so a few shillings either way score the same.
#[test]
fn breaking_even_is_one_band() {
    let a = attribute("net_cash_flow_ratio");
    let points = |v| a.points_of(v);
    assert_eq!(points(dec!(-0.019)), points(dec!(0)));
    assert_eq!(points(dec!(0.019)), points(dec!(0)));
    assert!(points(dec!(-0.02)) == points(dec!(0)) && points(dec!(0.02)) > points(dec!(0)));
    assert!(points(dec!(-0.021)) < points(dec!(0)));
}
