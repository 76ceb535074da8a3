//! Rows a critical finding names are left out of the score (issue 51): a `failed` statement
//! never scores above the same statement without them, and the report says which rows and why.
//! In every market (`ALAMA_BEHAVIOUR_CURRENCY`).

use super::*;

/// The report's `rows_left_out` finding, if any.
fn left_out(r: &alama_core::Report) -> Option<&alama_core::report::Finding> {
    r.integrity
        .findings
        .iter()
        .find(|f| f.code == "rows_left_out")
}

/// A second at which `s` has no row, from `day` on.
fn free_second(s: &Statement, day: u64) -> NaiveDateTime {
    let mut t = at(day, 0).date().and_hms_opt(23, 59, 0).unwrap_or_default();
    while s.transactions.iter().any(|r| r.completed_at == t) {
        t += Duration::seconds(1);
    }
    t
}

proptest! {
    #![proptest_config(config())]

    /// Hundreds of rows in one second (`impossible_row_rate`), money in or out: `failed`, and
    /// scored as the statement without them. More than 60, the most rows at one time any
    /// wallet's profile allows (Airtel Uganda's, whose times are to the minute).
    #[test]
    fn a_burst_of_rows_in_one_second_never_raises_the_score(
        kind in persona(), seed in 0u64..1_000, n in 61usize..400, amount in 50u64..50_000,
        incoming in any::<bool>(), day in any::<u64>(),
    ) {
        let s = persona_statement(kind, seed, 12);
        let second = free_second(&s, day);
        let (details, signed) = if incoming {
            ("Funds received from 2547******321 - BURST SENDER", Decimal::from(amount))
        } else {
            ("Merchant Payment to 512345 - UMOJA SUPERMARKET", -Decimal::from(amount))
        };
        let rows = vec![(second, details, signed); n];
        let burst = edits::insert_rows(&s, &rows);
        let (base, failed) = (report(&s), report(&burst));
        prop_assert_eq!(failed.integrity.status.as_str(), "failed");
        prop_assert!(failed.score <= base.score, "{} > {}", failed.score, base.score);
        let finding = left_out(&failed).expect("the report lists the rows left out");
        prop_assert!(finding.message.starts_with(&format!("{n} row(s)")), "{}", finding.message);
        prop_assert!(finding.message.contains("(impossible_row_rate)"));
    }

    /// Rows dated after the statement's request date: `failed`, scored without them.
    #[test]
    fn rows_after_the_request_date_never_raise_the_score(
        kind in persona(), seed in 0u64..1_000, n in 1usize..10, amount in 50u64..200_000,
    ) {
        let s = persona_statement(kind, seed, 12);
        let requested = s.requested_at.expect("a request date");
        let rows: Vec<(NaiveDateTime, &str, Decimal)> = (0..n)
            .map(|k| (
                (requested + Duration::days(1 + i64::try_from(k).unwrap_or(0))).and_hms_opt(9, 0, 0).unwrap_or_default(),
                "Salary Payment from 600111 - SAVANNAH LOGISTICS LTD",
                Decimal::from(amount),
            ))
            .collect();
        let (base, failed) = (report(&s), report(&edits::insert_rows(&s, &rows)));
        prop_assert_eq!(failed.integrity.status.as_str(), "failed");
        prop_assert!(failed.score <= base.score, "{} > {}", failed.score, base.score);
        prop_assert!(left_out(&failed).is_some_and(|f| f.message.contains("(after_request_date)")));
    }

    /// Copies of rows (`duplicate_rows`): `failed`, each row scored once. The copies are made
    /// in the market's wallet, after the statement is carried there: a copy repeats its row,
    /// balance included (carried after copying, its balance would be recomputed as if it had
    /// moved money).
    #[test]
    fn copies_never_raise_the_score(kind in persona(), seed in 0u64..1_000, pick in any::<u64>()) {
        let s = carried(&persona_statement(kind, seed, 12));
        let mut rng = SplitMix64::new(pick);
        let mut copied = s.clone();
        copied.transactions.extend(s.transactions.iter().filter(|_| rng.chance(20)).cloned());
        prop_assume!(copied.transactions.len() > s.transactions.len());
        let scored = |s: &Statement| alama_core::score(s).expect("a persona scores");
        let (base, failed) = (scored(&s), scored(&copied));
        prop_assert_eq!(failed.integrity.status.as_str(), "failed");
        prop_assert!(failed.score <= base.score);
        prop_assert!(left_out(&failed).is_some_and(|f| f.message.contains("(duplicate_rows)")));
    }
}

/// A year of the market wallet's launch (M-Pesa's, 6 March 2007, in Kenya): the rows before it
/// are named, left out with the money they moved, and the statement scores as its rows from the
/// launch on, their balances without that money.
#[test]
fn rows_before_the_wallet_existed_are_left_out() {
    let wallet = market().map_or_else(
        || alama_core::wallets::find("mpesa").expect("Safaricom M-Pesa"),
        |(w, _)| w,
    );
    let launch = wallet.profile.launched.expect("a launch day").date;
    let end = launch + Duration::days(300);
    for kind in PersonaKind::ALL {
        let s = alama_core::testing::persona_statement_until(kind, 3, 12, end);
        let after = edits::delete_rows(&s, |t| t.completed_at.date() >= launch);
        let (failed, without) = (report(&s), report(&after));
        assert_eq!(failed.integrity.status, "failed", "{}", kind.name());
        assert!(
            failed.score <= without.score,
            "{}: {} > {}",
            kind.name(),
            failed.score,
            without.score
        );
        assert_eq!(failed.score, without.score, "{}", kind.name());
        let finding = left_out(&failed).expect("listed");
        assert!(
            finding.message.contains("(before_wallet_launch)"),
            "{}",
            finding.message
        );
        assert!(left_out(&without).is_none());
    }
}

/// The rows left out are exactly the rows named: the burst of the issue (320 receipts of
/// KES 500 in one second, which raised a score by 18 to 27 points) scores as the statement
/// without it, on every persona.
#[test]
fn the_issues_burst_scores_as_the_statement_without_it() {
    for kind in PersonaKind::ALL {
        let s = persona_statement(kind, 2, 12);
        let second = free_second(&s, 200);
        let rows = vec![
            (
                second,
                "Funds received from 2547******321 - BURST SENDER",
                Decimal::from(500)
            );
            320
        ];
        let burst = edits::insert_rows(&s, &rows);
        assert_eq!(report(&burst).score, report(&s).score, "{}", kind.name());
    }
}
