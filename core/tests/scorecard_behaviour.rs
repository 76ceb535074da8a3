//! The behaviours a lender relies on, as properties over the persona generator
//! (`alama_core::testing`): statements that differ in one behaviour, scored, compared.
//! Each test is named after the behaviour; docs/scorecard.md lists them.
//!
//! The personas and edits are written in KES, in Safaricom's words. With
//! `ALAMA_BEHAVIOUR_CURRENCY=UGX` (or `GHS`, `LSL`), or `ALAMA_BEHAVIOUR_WALLET=<id>`, every
//! statement whose score is compared is first carried into that market's wallet, in its own
//! words, at its card's factor (`alama_core::testing::in_wallet`; docs/scorecard.md,
//! "Markets"), and scored with that market's built-in card, so each behaviour is checked on each
//! wallet (`scripts/test-all.sh` runs all four).

use alama_core::testing::{PersonaKind, SplitMix64, edits, persona_statement};
use alama_core::{ParseOptions, Statement};
use chrono::{Duration, NaiveDate, NaiveDateTime};
use proptest::prelude::*;
use rust_decimal::Decimal;

/// 24 cases per property in CI; `PROPTEST_CASES=2000` for a deeper search.
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: std::env::var("PROPTEST_CASES")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(24),
        ..ProptestConfig::default()
    }
}

#[path = "market_cards/factors.rs"]
#[allow(dead_code)] // the rationales are the card derivation's (tests/market_cards.rs)
mod factors;

/// The wallet the comparisons are made in (`ALAMA_BEHAVIOUR_WALLET`, or the first registered
/// wallet of `ALAMA_BEHAVIOUR_CURRENCY`; none: the statements as built, in Safaricom's words)
/// and its market's factor per KES.
fn market() -> Option<(&'static alama_core::Wallet, Decimal)> {
    let wallet = match (
        std::env::var("ALAMA_BEHAVIOUR_WALLET"),
        std::env::var("ALAMA_BEHAVIOUR_CURRENCY"),
    ) {
        (Ok(id), _) => alama_core::wallets::find(&id).expect("a registered wallet"),
        (_, Ok(currency)) if currency != "KES" => alama_core::wallets::ALL
            .iter()
            .copied()
            .find(|w| w.currency == Some(currency.as_str()) && w.generator.is_some())
            .expect("a wallet of that currency"),
        _ => return None,
    };
    let factor = match wallet.currency {
        Some("UGX") => factors::UGX,
        Some("GHS") => factors::GHS,
        Some("LSL") => factors::LSL,
        _ => "1",
    };
    Some((wallet, factor.parse().expect("a factor")))
}

fn score(s: &Statement) -> u16 {
    // Every movement carried into the wallet's words and market; without one, as built.
    let s = match market() {
        Some((wallet, factor)) => {
            alama_core::testing::in_wallet(s, wallet, factor).expect("a generator")
        }
        None => s.clone(),
    };
    alama_core::score(&s).expect("a persona scores").score
}

fn persona() -> impl Strategy<Value = PersonaKind> {
    prop::sample::select(PersonaKind::ALL.to_vec())
}

/// A time `day` days after the start of the 12 months ending 2024-06-30.
fn at(day: u64, minute: u64) -> NaiveDateTime {
    let start = NaiveDate::from_ymd_opt(2023, 7, 1).unwrap_or_default();
    (start + Duration::days(i64::try_from(day % 365).unwrap_or(0)))
        .and_hms_opt(6, 0, 0)
        .unwrap_or_default()
        + Duration::minutes(i64::try_from(minute % 900).unwrap_or(0))
}

/// One row a month on day `dom`, for the 12 months ending June 2024.
fn monthly(
    dom: u32,
    details: &'static str,
    amount: Decimal,
) -> Vec<(NaiveDateTime, &'static str, Decimal)> {
    (0..12u32)
        .map(|k| {
            let (y, m) = if k < 6 { (2023, 7 + k) } else { (2024, k - 5) };
            let t = NaiveDate::from_ymd_opt(y, m, dom)
                .and_then(|d| d.and_hms_opt(10, 0, 0))
                .unwrap_or_default();
            (t, details, amount)
        })
        .collect()
}

/// A holder whose every month is the same: salary on the 28th, rent on the 1st, power on the
/// 5th, shopping weekly, airtime on the 10th; 15 months ending on `end`.
fn regular_salaried(salary: u64, end: NaiveDate) -> Statement {
    let start = end - Duration::days(460);
    let pct = |p: u64| Decimal::from(salary * p / 100);
    let mut rows = Vec::new();
    let mut d = start;
    while d <= end {
        let at = d.and_hms_opt(9, 0, 0).unwrap_or_default();
        let day = chrono::Datelike::day(&d);
        let row: Option<(&str, Decimal)> = match day {
            1 => Some(("Pay Bill to 777777 - HOUSE RENT Acc. 1", -pct(30))),
            5 => Some(("Pay Bill Online to 888880 - KPLC PREPAID Acc. 1", -pct(4))),
            2 | 9 | 16 | 23 => Some(("Merchant Payment to 512345 - UMOJA SUPERMARKET", -pct(10))),
            10 => Some(("Airtime Purchase", -pct(2))),
            28 => Some((
                "Salary Payment from 600111 - SAVANNAH LOGISTICS LTD",
                Decimal::from(salary),
            )),
            _ => None,
        };
        if let Some(r) = row {
            rows.push((at, r.0, r.1));
        }
        d += Duration::days(1);
    }
    let empty = Statement {
        currency: "KES".to_owned(),
        currency_exponent: None,
        period: Some(alama_core::statement::Period { start, end }),
        ..Statement::default()
    };
    let mut s = edits::insert_rows(&empty, &rows);
    edits::rebalance(&mut s, Decimal::from(salary));
    s
}

fn is_repayment(t: &alama_core::Transaction) -> bool {
    t.details.starts_with("OD Loan Repayment")
}

/// Keeps each repayment row unless the stream says to drop it (`percent` in 100).
fn drop_some_repayments(s: &Statement, seed: u64, percent: u64) -> (Statement, Vec<bool>) {
    let mut rng = SplitMix64::new(seed);
    let keep: Vec<bool> = s
        .transactions
        .iter()
        .map(|_| !rng.chance(percent))
        .collect();
    let mut i = 0;
    let out = edits::delete_rows(s, |t| {
        let k = keep.get(i).copied().unwrap_or(true);
        i += 1;
        !is_repayment(t) || k
    });
    (out, keep)
}

/// A persona without its Paybill rows, and the same statement with a KES 10 KPLC token and a
/// KES 1 "rent" Paybill every month.
fn with_token_bills(kind: PersonaKind, seed: u64) -> (Statement, Statement) {
    let s = persona_statement(kind, seed, 12);
    let s = edits::delete_rows(&s, |t| !t.details.starts_with("Pay Bill"));
    let mut rows = monthly(
        3,
        "Pay Bill Online to 888880 - KPLC PREPAID Acc. 1",
        Decimal::from(-10),
    );
    rows.extend(monthly(
        4,
        "Pay Bill to 777777 - HOUSE RENT Acc. 1",
        Decimal::from(-1),
    ));
    let gamed = edits::insert_rows(&s, &rows);
    (s, gamed)
}

/// Token bills of an informal trader whose cash share sat just above a bin edge (0.1501 of
/// spending): before the spending mix left tokens out, KES 132 of them diluted it below the
/// edge and bought 5 points (found by `token_bills_gain_at_most_2_points`).
#[test]
fn token_bills_do_not_dilute_the_spending_mix() {
    let (s, gamed) = with_token_bills(PersonaKind::InformalTrader, 424);
    let features = |s: &Statement| {
        let mut prepared = s.clone();
        alama_core::parse::prepare(&mut prepared);
        alama_core::features::compute(&prepared.reading(), &alama_core::features::Thresholds::KES)
    };
    let (a, b) = (features(&s), features(&gamed));
    assert_eq!(a.cash_and_betting_share, b.cash_and_betting_share);
    assert_eq!(a.betting_share, b.betting_share);
    assert!(
        b.total_spending > a.total_spending,
        "the tokens are still spending"
    );
    assert!(
        score(&gamed) <= score(&s),
        "{} > {}",
        score(&gamed),
        score(&s)
    );
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn deleting_repayments_never_raises_the_score(seed in 0u64..1_000, drop in any::<u64>(), percent in 1u64..=100) {
        let s = persona_statement(PersonaKind::FulizaDependent, seed, 12);
        let (less, _) = drop_some_repayments(&s, drop, percent);
        prop_assert!(score(&less) <= score(&s), "{} > {}", score(&less), score(&s));
    }

    #[test]
    fn repaying_credit_never_lowers_the_score(seed in 0u64..1_000, drop in any::<u64>()) {
        // Two edits of one statement; the second repays everything the first repays and more.
        let s = persona_statement(PersonaKind::Gambler, seed, 12);
        let mut rng = SplitMix64::new(drop);
        let marks: Vec<u64> = s.transactions.iter().map(|_| rng.range(0, 2)).collect();
        let mut i = 0;
        let fewer = edits::delete_rows(&s, |t| { let m = marks[i]; i += 1; !is_repayment(t) || m == 0 });
        let mut j = 0;
        let more = edits::delete_rows(&s, |t| { let m = marks[j]; j += 1; !is_repayment(t) || m != 2 });
        prop_assert!(score(&more) >= score(&fewer), "{} < {}", score(&more), score(&fewer));
    }

    #[test]
    fn adding_betting_never_raises_the_score(kind in persona(), seed in 0u64..1_000, bets in prop::collection::vec((any::<u64>(), any::<u64>(), 10u64..5_000), 1..40)) {
        let s = persona_statement(kind, seed, 12);
        let rows: Vec<(NaiveDateTime, &str, Decimal)> = bets
            .iter()
            .map(|(d, m, amount)| (at(*d, *m), "Pay Bill Online to 290290 - SportPesa Acc. BET", -Decimal::from(*amount)))
            .collect();
        let betting = edits::insert_rows(&s, &rows);
        prop_assert!(score(&betting) <= score(&s));
    }

    #[test]
    fn betting_instead_of_cash_withdrawals_never_raises_the_score(kind in persona(), seed in 0u64..1_000) {
        // Every agent withdrawal (and its charge) becomes a bet of the same total.
        let s = persona_statement(kind, seed, 12);
        let mut bets = s.clone();
        let receipts: Vec<String> = s
            .transactions
            .iter()
            .filter(|t| t.details.starts_with("Customer Withdrawal"))
            .map(|t| t.receipt_no.clone())
            .collect();
        for t in &mut bets.transactions {
            if t.details.starts_with("Customer Withdrawal") {
                t.details = "Pay Bill Online to 290290 - SportPesa Acc. BET".to_owned();
            }
        }
        let charges: Vec<(String, Decimal)> = s
            .transactions
            .iter()
            .filter(|t| t.details == "Withdrawal Charge" && receipts.contains(&t.receipt_no))
            .map(|t| (t.receipt_no.clone(), t.withdrawn))
            .collect();
        for (receipt, charge) in &charges {
            if let Some(bet) = bets.transactions.iter_mut().find(|t| &t.receipt_no == receipt && t.details.contains("SportPesa")) {
                bet.withdrawn += *charge;
            }
        }
        let bets = edits::delete_rows(&bets, |t| t.details != "Withdrawal Charge");
        prop_assert!(score(&bets) <= score(&s), "{} > {}", score(&bets), score(&s));
    }

    #[test]
    fn a_one_off_inflow_never_lowers_the_score(kind in persona(), seed in 0u64..1_000, day in any::<u64>(), amount in 1u64..2_000_000, source in 0usize..3) {
        let s = persona_statement(kind, seed, 12);
        let details = [
            "Salary Payment from 600111 - SAVANNAH LOGISTICS LTD",
            "Deposit of Funds at Agent Till 777 - OTHER AGENCIES",
            "Funds received from 2547******999 - WINDFALL GIVER",
        ][source];
        let more = edits::insert_rows(&s, &[(at(day, 60), details, Decimal::from(amount))]);
        prop_assert!(score(&more) >= score(&s), "{} < {}", score(&more), score(&s));
    }

    #[test]
    fn scaling_amounts_down_tenfold_lowers_the_score(kind in persona(), seed in 0u64..1_000) {
        let s = persona_statement(kind, seed, 12);
        let f = alama_core::features::compute(&s.reading(), &alama_core::features::Thresholds::KES);
        // Above the lowest income edge (KES 3,000 a month) every bin is less than ten times the next.
        prop_assume!(f.typical_monthly_income >= Decimal::from(3_000));
        let small = edits::scale(&s, Decimal::new(1, 1));
        prop_assert!(score(&small) < score(&s), "{} >= {}", score(&small), score(&s));
    }

    #[test]
    fn the_request_day_moves_a_regular_salary_by_at_most_5_points(salary in 8u64..200, shift in 1i64..=29) {
        let end = NaiveDate::from_ymd_opt(2024, 8, 31).unwrap_or_default();
        let long = regular_salaried(salary * 1_000, end);
        let window = |k: i64| {
            let last = end - Duration::days(k);
            edits::window(&long, last - Duration::days(364), last)
        };
        let (a, b) = (score(&window(0)), score(&window(shift)));
        prop_assert!(a.abs_diff(b) <= 5, "{a} vs {b}");
    }

    #[test]
    fn round_trips_gain_at_most_2_points(kind in persona(), seed in 0u64..1_000, per_day in 1u64..=3, amount in 50u64..=1_000) {
        let s = persona_statement(kind, seed, 12);
        let mut rows = Vec::new();
        for day in 0..365 {
            for k in 0..per_day {
                rows.push((at(day, k * 60), "Customer Transfer to 2547******555 - PAL ROUNDTRIP", -Decimal::from(amount)));
                rows.push((at(day, k * 60 + 30), "Funds received from 2547******555 - PAL ROUNDTRIP", Decimal::from(amount)));
            }
        }
        let gamed = edits::insert_rows(&s, &rows);
        prop_assert!(score(&gamed) <= score(&s) + 2, "{} > {} + 2", score(&gamed), score(&s));
    }

    #[test]
    fn token_bills_gain_at_most_2_points(kind in persona(), seed in 0u64..1_000) {
        let (s, gamed) = with_token_bills(kind, seed);
        prop_assert!(score(&gamed) <= score(&s) + 2, "{} > {} + 2", score(&gamed), score(&s));
    }

    #[test]
    fn small_bills_are_not_bill_evidence_for_a_seasonal_income(seed in 0u64..1_000) {
        // A farmer's median month is small (KES 4,000–5,500 on these personas) but the average
        // month is KES 17,000–30,000: KES 60 a month to one biller is not material (it is still
        // activity, which may move the account-history points).
        let s = persona_statement(PersonaKind::SeasonalFarmer, seed, 12);
        let gamed = edits::insert_rows(&s, &monthly(3, "Pay Bill Online to 888880 - KPLC PREPAID Acc. 1", Decimal::from(-60)));
        let (a, b) = (alama_core::features::compute(&s.reading(), &alama_core::features::Thresholds::KES), alama_core::features::compute(&gamed.reading(), &alama_core::features::Thresholds::KES));
        prop_assert_eq!(a.bill_month_share, b.bill_month_share);
        prop_assert_eq!(a.bill_payment_count, b.bill_payment_count);
    }

    #[test]
    fn token_repayments_without_borrowing_gain_at_most_2_points(seed in 0u64..1_000) {
        let s = persona_statement(PersonaKind::Salaried, seed, 12);
        let gamed = edits::insert_rows(&s, &monthly(9, "Pay Bill to 851900 - TALA Acc. 1", Decimal::from(-10)));
        prop_assert!(score(&gamed) <= score(&s) + 2);
    }

    #[test]
    fn removing_the_balance_column_never_raises_the_score(kind in persona(), seed in 0u64..1_000) {
        let s = persona_statement(kind, seed, 12);
        let mut none = s.clone();
        for t in &mut none.transactions {
            t.balance = None;
        }
        prop_assert!(score(&none) <= score(&s));
    }

    #[test]
    fn editing_input_categories_changes_nothing(kind in persona(), seed in 0u64..1_000, pick in any::<u64>()) {
        let s = alama_core::parse(persona_statement(kind, seed, 3).to_json().as_bytes(), &ParseOptions::default()).expect("parses");
        let mut edited = s.clone().into_statement();
        let mut rng = SplitMix64::new(pick);
        for t in &mut edited.transactions {
            t.category = *rng.pick(&alama_core::Category::ALL);
        }
        let reparsed = alama_core::parse(edited.to_json().as_bytes(), &ParseOptions::default()).expect("parses");
        let a = alama_core::score(&s).expect("scores");
        let b = alama_core::score(&reparsed).expect("scores");
        prop_assert_eq!(a.to_json(), b.to_json());
        let csv = alama_core::parse(edited.to_csv().as_bytes(), &ParseOptions::default()).expect("parses");
        prop_assert_eq!(csv.transactions.iter().map(|t| t.category).collect::<Vec<_>>(), s.transactions.iter().map(|t| t.category).collect::<Vec<_>>());
    }

    #[test]
    fn never_borrowers_get_no_credit_reason_code(kind in prop::sample::select(vec![PersonaKind::Salaried, PersonaKind::Saver, PersonaKind::InformalTrader]), seed in 0u64..1_000) {
        let report = alama_core::score(&persona_statement(kind, seed, 12)).expect("scores");
        prop_assert!(report.reason_codes.iter().all(|r| r.factor != "credit_repayment"), "{:?}", report.reason_codes);
    }

    #[test]
    fn the_whole_report_is_identical_under_any_row_order(kind in persona(), seed in 0u64..1_000, shuffle in any::<u64>()) {
        let s = persona_statement(kind, seed, 4);
        let mut shuffled = s.clone();
        let mut rng = SplitMix64::new(shuffle);
        for i in (1..shuffled.transactions.len()).rev() {
            let j = rng.range(0, i as u64) as usize;
            shuffled.transactions.swap(i, j);
        }
        prop_assert_eq!(alama_core::score(&s).expect("scores").to_json(), alama_core::score(&shuffled).expect("scores").to_json());
    }

    /// A parsed statement is scored in place while it is as `parse` returned it; edited after
    /// parsing (Details, an amount given without cents, a category, a SUMMARY amount, a row
    /// added, one middle row's Details, which leaves the first and last rows as they were), it
    /// is prepared again. Either way its report is the one its bytes give.
    #[test]
    fn a_parsed_statement_scores_as_its_bytes_do_however_it_was_edited(
        kind in persona(), seed in 0u64..1_000, edit in 0u8..7, pick in any::<u64>(), long in any::<bool>()
    ) {
        let made = if long {
            alama_core::testing::synthetic_statement_with_rows(seed, 2_400)
        } else {
            persona_statement(kind, seed, 4)
        };
        let bytes = made.to_csv();
        let parsed = alama_core::parse(bytes.as_bytes(), &ParseOptions::default()).expect("parses");
        let from_bytes = alama_core::score_bytes(bytes.as_bytes(), &ParseOptions::default()).expect("scores");
        prop_assert_eq!(alama_core::score(&parsed).expect("scores").to_json(), from_bytes.to_json());

        // Every `step`-th row is edited, so that the edit moves the report.
        let mut edited = parsed.clone().into_statement();
        let mut rng = SplitMix64::new(pick);
        let step = rng.range(1, 4) as usize;
        let picked = edited.transactions.iter().enumerate().filter(|(i, _)| i % step == 0).count();
        for row in edited.transactions.iter_mut().step_by(step) {
            match edit {
                0 => row.details = "Pay Bill Online to 888880 - KPLC PREPAID Acc. 1".to_owned(),
                1 => row.details = "SportPesa bet placed".to_owned(),
                2 if row.withdrawn > Decimal::ZERO => {
                    row.withdrawn = Decimal::from(437);
                    row.balance = None;
                }
                3 => row.category = *rng.pick(&alama_core::Category::ALL),
                _ => {}
            }
        }
        match edit {
            4 => {
                let copies: Vec<_> = edited.transactions.iter().step_by(step).cloned().collect();
                prop_assert_eq!(copies.len(), picked);
                edited.transactions.extend(copies);
            }
            5 => {
                edited.summary = Some(alama_core::statement::Summary {
                    rows: Vec::new(),
                    total: alama_core::statement::SummaryRow {
                        transaction_type: "TOTAL".to_owned(),
                        paid_in: Decimal::from(1_000),
                        paid_out: Decimal::from(250),
                    },
                });
            }
            6 => {
                let middle = edited.transactions.len() / 2;
                edited.transactions[middle].details = "SportPesa bet placed".to_owned();
            }
            _ => {}
        }
        // The edited statement's bytes, as the canonical JSON (which is then its evidence).
        edited.source = Some(alama_core::Format::Json);
        let edited_bytes = edited.to_json();
        prop_assert_eq!(
            alama_core::score(&edited).expect("scores").to_json(),
            alama_core::score_bytes(edited_bytes.as_bytes(), &ParseOptions::default()).expect("scores").to_json()
        );
    }
}

#[test]
fn the_personas_rank_as_a_lender_would() {
    let s = |k| score(&persona_statement(k, 1, 12));
    let salaried = s(PersonaKind::Salaried);
    assert!(salaried >= 740, "salaried {salaried}");
    assert!(s(PersonaKind::Saver) >= salaried);
    assert!(s(PersonaKind::Gambler) < salaried);
    assert!(s(PersonaKind::FulizaDependent) < s(PersonaKind::Gambler));
    assert!(s(PersonaKind::SeasonalFarmer) < s(PersonaKind::InformalTrader));
}
