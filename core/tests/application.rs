//! Applications (issue 53): several statements of one applicant scored as one. Relations, never
//! figures: the card's points change between versions, the relations do not.

use alama_core::testing::application::{
    consecutive, overlapping, own_transfer, own_transfer_charge, two_sims,
};
use alama_core::testing::synthetic_statement;
use alama_core::{ApplicationReport, Report, Severity, Statement, score, score_application};
use proptest::prelude::*;
use rust_decimal_macros::dec;

fn apply(statements: &[Statement]) -> ApplicationReport {
    score_application(statements, None, None, None).expect("an application scores")
}

fn codes(a: &ApplicationReport) -> Vec<&str> {
    a.integrity
        .findings
        .iter()
        .map(|f| f.code.as_str())
        .collect()
}

/// The scoring of an application equals that of `r`: score, band, factors, reason codes and
/// insights.
fn assert_scored_as(a: &ApplicationReport, r: &Report) {
    assert_eq!(a.score, r.score);
    assert_eq!(a.band, r.band);
    assert_eq!(a.factors, r.factors);
    assert_eq!(a.reason_codes, r.reason_codes);
    assert_eq!(a.insights, r.insights);
    assert_eq!(a.statement_period, r.statement_period);
}

#[test]
fn an_application_of_one_statement_is_that_statement() {
    for seed in 0..6 {
        let s = synthetic_statement(seed, 6);
        let r = score(&s).expect("scores");
        let a = apply(std::slice::from_ref(&s));
        assert_scored_as(&a, &r);
        assert_eq!(a.integrity.status, r.integrity.status);
        assert_eq!(a.statement, r.statement);
        assert_eq!(a.statements.len(), 1);
        assert_eq!(a.statements[0].report_id, r.report_id);
        assert_eq!(a.statements[0].integrity_status, r.integrity.status);
        assert!(a.application_id.starts_with("app_") && a.application_id.len() == 28);
    }
}

/// Rows a critical finding names are left out of an application's features as they are of its
/// statement's (issue 51): an application of a statement with 40 rows in one second (M-Pesa
/// prints at most 20 at once) scores as that statement does, and says which rows it left out.
#[test]
fn rows_a_critical_finding_names_are_left_out_of_an_application_too() {
    for seed in 0..4 {
        let mut crowded = synthetic_statement(seed, 6);
        let at = crowded.transactions[0].completed_at;
        for t in crowded.transactions.iter_mut().take(40) {
            t.completed_at = at;
        }
        let r = score(&crowded).expect("scores");
        assert_eq!(r.integrity.status, "failed");
        let a = apply(std::slice::from_ref(&crowded));
        assert_scored_as(&a, &r);
        assert!(codes(&a).contains(&"rows_left_out"), "{:?}", codes(&a));
        assert_eq!(a.integrity.status, "failed");
    }
}

#[test]
fn consecutive_and_overlapping_statements_of_one_line_are_the_whole_period() {
    for seed in 0..4 {
        let whole = score(&synthetic_statement(seed, 6)).expect("scores");
        for parts in [consecutive(seed), overlapping(seed)] {
            let a = apply(&parts);
            assert_scored_as(&a, &whole);
            assert!(
                !codes(&a).contains(&"statements_disagree"),
                "{:?}",
                a.integrity
            );
            assert_eq!(
                a.statement.total_paid_in, whole.statement.total_paid_in,
                "rows read once"
            );
            assert_eq!(
                a.statement.transaction_count,
                whole.statement.transaction_count
            );
            assert_eq!(a.statements.len(), 2);
            assert!(a.statements[0].period_start < a.statements[1].period_start);
        }
    }
}

#[test]
fn overlapping_statements_that_differ_are_a_critical_finding_naming_the_rows() {
    let mut parts = overlapping(3);
    let april =
        |t: &alama_core::Transaction| t.completed_at.date().to_string().starts_with("2024-04");
    let row = parts[1]
        .transactions
        .iter_mut()
        .find(|t| april(t) && t.paid_in > dec!(0))
        .expect("a receipt in April");
    row.paid_in += dec!(1000);
    let receipt = row.receipt_no.clone();
    let a = apply(&parts);
    let f = a
        .integrity
        .findings
        .iter()
        .find(|f| f.code == "statements_disagree")
        .expect("disagreement found");
    assert_eq!(f.severity, Severity::Critical);
    assert!(f.message.contains(&receipt), "{}", f.message);
    assert_eq!(a.integrity.status, "failed");
}

#[test]
fn own_transfers_are_neither_income_nor_spending() {
    for seed in [1, 5, 9] {
        for amount in [dec!(500), dec!(20000)] {
            // The lines with the send's charge alone: the charge is spending, the transfer not.
            let plain = apply(&own_transfer_charge(seed, amount));
            let moved = apply(&own_transfer(seed, amount));
            assert_eq!(moved.score, plain.score, "seed {seed}");
            assert_eq!(moved.factors, plain.factors);
            assert_eq!(moved.insights, plain.insights);
            assert!(
                codes(&moved).contains(&"own_transfers"),
                "{:?}",
                codes(&moved)
            );
        }
        // Alone, each statement reads the transfer as money sent or received.
        let [a, _] = <[Statement; 2]>::try_from(own_transfer(seed, dec!(20000))).expect("two");
        assert_ne!(
            score(&a).expect("scores").statement.total_withdrawn,
            score(&two_sims(seed)[0])
                .expect("scores")
                .statement
                .total_withdrawn
        );
    }
}

#[test]
fn free_activity_between_own_lines_does_not_pay() {
    let plain = apply(&two_sims(2));
    let mut busy = two_sims(2);
    for round in 0..20u32 {
        let day = chrono::NaiveDate::from_ymd_opt(2024, 2, 1 + round).expect("a day");
        let at = day.and_hms_opt(9, 0, 0).expect("a time");
        let name = busy[0].holder.name.clone().expect("a name");
        let (from, to) = if round % 2 == 0 { (0, 1) } else { (1, 0) };
        let send = format!("Customer Transfer to 2547******000 - {name}");
        let receive = format!("Funds received from 2547******000 - {name}");
        busy[from] =
            alama_core::testing::edits::insert_rows(&busy[from], &[(at, &send, dec!(-3000))]);
        busy[to] =
            alama_core::testing::edits::insert_rows(&busy[to], &[(at, &receive, dec!(3000))]);
        // insert_rows numbers its rows from ZED0000: give this round's pair its own receipt.
        for s in &mut busy[..] {
            for t in &mut s.transactions {
                if t.completed_at == at && t.receipt_no.ends_with("ZED0000") {
                    t.receipt_no =
                        alama_core::testing::mpesa_receipt_at(at, &format!("OWN{round:04}"));
                }
            }
        }
    }
    let a = apply(&busy);
    assert!(a.score <= plain.score, "{} > {}", a.score, plain.score);
    assert!(
        a.integrity
            .findings
            .iter()
            .any(|f| f.code == "own_transfers" && f.message.starts_with("20 "))
    );
}

#[test]
fn statements_in_two_currencies_are_refused() {
    let kes = synthetic_statement(1, 3);
    let ugx = alama_core::testing::edits::converted(&kes, "UGX", dec!(30));
    let err = score_application(&[kes, ugx], None, None, None).expect_err("refused");
    assert_eq!(err.code(), "currency_mismatch");
    let none: [Statement; 0] = [];
    assert_eq!(
        score_application(&none, None, None, None)
            .map(|_| ())
            .map_err(|e| e.code()),
        Err("empty_statement")
    );
}

#[test]
fn a_different_holder_is_a_warning_and_a_gap_is_info() {
    let mut parts = two_sims(4);
    parts[1].holder.name = Some("Otieno Kamau".to_owned());
    let a = apply(&parts);
    let f = a
        .integrity
        .findings
        .iter()
        .find(|f| f.code == "holder_names_differ")
        .expect("names");
    assert_eq!(f.severity, Severity::Warning);
    let s = synthetic_statement(4, 6);
    let d = |m, d| chrono::NaiveDate::from_ymd_opt(2024, m, d).expect("a day");
    let gap = [
        alama_core::testing::edits::window(&s, d(1, 1), d(2, 29)),
        alama_core::testing::edits::window(&s, d(4, 1), d(6, 30)),
    ];
    let a = apply(&gap);
    let f = a
        .integrity
        .findings
        .iter()
        .find(|f| f.code == "statement_gap")
        .expect("a gap");
    assert_eq!(f.severity, Severity::Info);
    assert!(
        f.message.contains("2024-03-01 to 2024-03-31 (31 days)"),
        "{}",
        f.message
    );
}

#[test]
fn integrity_is_the_worst_of_the_statements() {
    let mut parts = two_sims(6);
    let good = apply(&parts);
    parts[1].transactions[3].balance = parts[1].transactions[3].balance.map(|b| b + dec!(777));
    let bad_alone = score(&parts[1]).expect("scores").integrity.status;
    let a = apply(&parts);
    assert_ne!(bad_alone, "consistent");
    assert_eq!(a.integrity.status, bad_alone);
    assert_eq!(
        a.statements
            .iter()
            .filter(|s| s.integrity_status == bad_alone)
            .count(),
        1
    );
    assert_ne!(good.integrity.status, a.integrity.status);
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 12,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_order_of_the_statements_changes_nothing(seed in 0u64..1_000, kind in 0usize..4, rot in 0usize..3) {
        let mut parts = match kind {
            0 => consecutive(seed),
            1 => overlapping(seed),
            2 => two_sims(seed),
            _ => own_transfer(seed, dec!(1234.50)),
        };
        parts.push(synthetic_statement(seed.wrapping_add(7), 2));
        let first = apply(&parts).to_json();
        parts.rotate_left(rot + 1);
        prop_assert_eq!(&first, &apply(&parts).to_json());
        parts.reverse();
        prop_assert_eq!(&first, &apply(&parts).to_json());
    }
}

#[test]
fn terms_are_assessed_and_named_by_the_application_id() {
    use alama_core::{Pricing, Terms};
    let s = synthetic_statement(3, 6);
    let terms =
        Terms::new(dec!(20000), 6, Pricing::MonthlyRate(dec!(0.035)), dec!(500)).expect("terms");
    let a = score_application(std::slice::from_ref(&s), None, Some(&terms), None).expect("scores");
    let alone = alama_core::affordability(&score(&s).expect("scores"), &terms);
    assert_eq!(a.affordability.as_ref(), Some(&alone));
    assert_eq!(alone.fits, alone.instalment <= alone.affordable_instalment);
    let dearer = Terms {
        pricing: Pricing::MonthlyRate(dec!(0.05)),
        ..terms
    };
    let b = score_application(std::slice::from_ref(&s), None, Some(&dearer), None).expect("scores");
    assert_ne!(a.application_id, b.application_id);
    assert!(b.affordability.expect("assessed").largest_principal <= alone.largest_principal);
    assert_eq!(apply(std::slice::from_ref(&s)).affordability, None);
}

/// The average daily balance a report's insights give.
fn average_balance(insights: &[alama_core::Insight]) -> rust_decimal::Decimal {
    insights
        .iter()
        .find(|i| i.code == "average_balance")
        .map(|i| i.value)
        .expect("an average balance")
}

/// The first and last days of a statement's completed rows.
fn completed_days(s: &Statement) -> (Option<chrono::NaiveDate>, Option<chrono::NaiveDate>) {
    let dates = s
        .transactions
        .iter()
        .filter(|t| t.is_completed())
        .map(|t| t.completed_at.date());
    (dates.clone().min(), dates.max())
}

/// Across accounts a day's balance is the total of each account's end-of-day balance, each read
/// by the single statement's rule: with two lines whose rows begin and end on the same days,
/// the application's average daily balance is the sum of the two statements' (to the cent each
/// is rounded to). Also when one line has rows a critical finding names: they are left out of
/// its own balances only, as they are of its report alone.
#[test]
fn the_balance_across_accounts_is_the_sum_of_the_accounts_balances() {
    let mut compared = 0;
    for seed in 0..12 {
        let plain = two_sims(seed);
        if completed_days(&plain[0]) != completed_days(&plain[1]) {
            continue;
        }
        // Forty rows from the middle of the first line at one second (M-Pesa prints at most 20
        // at once): left out, the line's first and last days kept.
        let mut crowded = plain.clone();
        let middle = crowded[0].transactions.len() / 2;
        let at = crowded[0].transactions[middle].completed_at;
        for t in &mut crowded[0].transactions[middle..middle + 40] {
            t.completed_at = at;
        }
        for sims in [plain, crowded] {
            let each: rust_decimal::Decimal = sims
                .iter()
                .map(|s| average_balance(&score(s).expect("scores").insights))
                .sum();
            let both = average_balance(&apply(&sims).insights);
            assert!(
                (both - each).abs() <= dec!(0.02),
                "seed {seed}: {both} against {each}"
            );
        }
        compared += 1;
    }
    assert!(
        compared >= 3,
        "only {compared} seeds had lines on the same days"
    );
}
