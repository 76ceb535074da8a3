//! Puts a report together, in one pipeline:
//!
//! ```text
//! prepared statement ─ survey (refused? dates, arithmetic, overview sums)
//!        ├─ features → scorecard → overview        (this thread)
//!        └─ report id → integrity check             (a thread of the pool, from 1,000 rows)
//!  join ─ insights → report
//! ```
//!
//! A statement reaches the pipeline prepared ([`crate::parse::prepare`]) exactly once: [`report`]
//! prepares a copy of what it is handed (a statement built or edited in code may carry no
//! categories, or wrong ones), [`report_of_parsed`] takes the statement `parse` has just
//! prepared and moves its rows. The report does not depend on row order (a property test
//! shuffles rows), so the rows are put in the order every stage reads them in
//! ([`features::sort_key`], ties in their listed order): each stage's own sort then finds them
//! sorted.

mod overview;
mod survey;

use crate::error::Result;
use crate::report::{Band, Integrity, Report, ReportStatus, StatementOverview};
use crate::statement::{Period, Statement, Transaction};
use crate::{check, features, insights, scorecard};

/// The report of `statement`, built or edited in code or parsed: a copy of its rows, in
/// reading order, is prepared and scored with `card`.
pub(crate) fn report(statement: &Statement, card: &scorecard::Scorecard) -> Result<Report> {
    let rows = &statement.transactions;
    let copied = reading_order(rows)
        .into_iter()
        .map(|i| rows[i].clone())
        .collect();
    let mut prepared = statement.with_transactions(copied);
    crate::parse::prepare(&mut prepared);
    report_of_prepared(&prepared, card, None)
}

/// [`report`] of a statement straight from [`crate::parse`], which has prepared it already:
/// its rows are moved into reading order instead of copied and prepared again.
///
/// `given_id`, when there is one, is the report's id in place of its content address (which is
/// then not computed).
pub(crate) fn report_of_parsed(
    mut statement: Statement,
    card: &scorecard::Scorecard,
    given_id: Option<String>,
) -> Result<Report> {
    let order = reading_order(&statement.transactions);
    permute(&mut statement.transactions, &order);
    report_of_prepared(&statement, card, given_id)
}

/// Puts `rows` in `order` in place: afterwards `rows[k]` is the row that was at `order[k]`
/// (`order` is a permutation of the indexes). Each cycle of the permutation is followed with
/// swaps, so no row is copied into a second vector (a CSV lists its rows newest first, and
/// moving 5,000 rows into a new vector, growing as it went, took 0.4 ms of a 3.9 ms report:
/// `stage_times`, 2026-11-25).
fn permute<T>(rows: &mut [T], order: &[usize]) {
    let mut placed = vec![false; rows.len()];
    for start in 0..rows.len() {
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let from = order[at];
            if from == start {
                break;
            }
            rows.swap(at, from);
            at = from;
        }
    }
}

/// Row indexes sorted by [`features::sort_key`], stable (see [`features::reading_order`]).
fn reading_order(rows: &[Transaction]) -> Vec<usize> {
    features::reading_order(rows.iter().enumerate())
        .into_iter()
        .map(|(i, _)| i)
        .collect()
}

/// The report of a prepared statement, its rows in any order (in reading order, each stage's
/// sort finds them sorted), under `given_id` or else its content address
/// ([`crate::report_id`]).
///
/// The survey refuses the statement or tells the arithmetic of its rows; then the two sides
/// run, joined once ([`crate::parallel::join_for_rows`]): the features, the scorecard and the
/// overview on this thread; the rows in time order, the report id and the integrity check on
/// the other (`stage_times`, a parsed 5,000-row statement, 2026-11-27: the id 0.25–0.28 ms
/// and the check 0.12 ms against the features 0.30 ms).
fn report_of_prepared(
    statement: &Statement,
    card: &scorecard::Scorecard,
    given_id: Option<String>,
) -> Result<Report> {
    let survey = survey::survey(statement);
    survey.refusal(statement)?;
    let period = survey::covered_period(statement, survey.dates);
    let arithmetic = survey.arithmetic;
    let sums = survey.completed_sums;
    let sha = card.sha256();
    let ((features, assessment, overview), (report_id, integrity)) = crate::parallel::join_for_rows(
        statement.transactions.len(),
        || {
            let features = features::compute_in(statement, Some(arithmetic), card.thresholds());
            let assessment = scorecard::assess(card, &features);
            let overview = overview::overview(statement, period, sums);
            (features, assessment, overview)
        },
        || {
            let by_time = crate::report_id::time_ordered(&statement.transactions);
            let report_id = given_id.unwrap_or_else(|| {
                crate::report_id::report_id_of(statement, &by_time, &card.version, &sha)
            });
            let integrity = check::check_in(statement, Some(arithmetic), Some(&by_time));
            (report_id, integrity)
        },
    );
    let parts = Parts {
        features,
        assessment,
        integrity,
        period,
        overview,
    };
    Ok(parts.report(card, sha, report_id))
}

/// What a report is made of, but its id.
struct Parts {
    features: features::Features,
    assessment: scorecard::Assessment,
    integrity: Integrity,
    period: Period,
    overview: StatementOverview,
}

impl Parts {
    /// The report of these parts, scored with `card` (whose SHA-256 is `sha`), under `report_id`.
    fn report(self, card: &scorecard::Scorecard, sha: String, report_id: String) -> Report {
        let score = self.assessment.score;
        Report {
            report_id,
            status: ReportStatus::Completed,
            score,
            band: Band::of(score),
            statement_period: overview::format_period(self.period),
            reason_codes: self.assessment.reason_codes,
            insights: insights::insights(&self.features, &card.currency, card.thresholds()),
            factors: self.assessment.factors,
            scorecard_version: card.version.clone(),
            scorecard_sha256: sha,
            integrity: self.integrity,
            statement: self.overview,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::strategy::Strategy as _;
    use rust_decimal::Decimal;

    use super::*;
    use crate::error::ErrorKind;

    /// A statement whose last row is `years` after its first (dates moved, nothing else).
    #[cfg(feature = "testing")]
    fn stretched(years: i64) -> Statement {
        let mut s = crate::testing::synthetic_statement(3, 3);
        s.period = None;
        let last = s.transactions.len() - 1;
        s.transactions[last].completed_at += chrono::TimeDelta::days(365 * years);
        s
    }

    #[cfg(feature = "testing")]
    #[test]
    fn a_statement_spanning_centuries_is_too_large_to_score() {
        let err = crate::score(&stretched(100)).expect_err("too long");
        assert_eq!(
            err.kind(),
            &ErrorKind::TooLarge {
                limit: crate::MAX_PERIOD_DAYS
            }
        );
        let mut header_only = crate::testing::synthetic_statement(3, 3);
        if let Some(p) = header_only.period.as_mut() {
            p.end = p.start + chrono::TimeDelta::days(20_000);
        }
        assert!(crate::score(&header_only).is_err());
        assert!(crate::score(&stretched(9)).is_ok());
    }

    /// Found by fuzzing: amounts near `Decimal`'s range overflowed a sum (a panic); a
    /// statement built by hand with such an amount is refused instead.
    #[cfg(feature = "testing")]
    #[test]
    fn an_amount_beyond_the_limit_is_refused_not_a_panic() {
        let mut s = crate::testing::synthetic_statement(5, 2);
        s.transactions[0].balance = Some(Decimal::MAX);
        s.transactions[1].paid_in = Decimal::MAX;
        let err = crate::score(&s).expect_err("refused");
        assert_eq!(err.code(), "too_large");
        assert!(
            err.message().contains("1000000000000 KES"),
            "{}",
            err.message()
        );
        // A long statement (made on two threads) is refused the same way.
        let mut long = crate::testing::synthetic_statement_with_rows(5, 5_000);
        long.transactions[4_000].withdrawn = Decimal::MAX;
        assert_eq!(crate::score(&long).map_err(|e| e.code()), Err("too_large"));
        // Parsed, the same rows are set aside as unreadable, and the rest is scored.
        let csv = s.to_csv();
        let parsed = crate::parse(csv.as_bytes(), &crate::ParseOptions::default()).expect("parses");
        assert_eq!(parsed.unparsed.len(), 2);
        assert!(crate::score(&parsed).is_ok());
    }

    proptest::proptest! {
        /// Permuting in place gives what picking the rows by index into a new vector gives.
        #[test]
        fn permute_in_place_picks_rows_by_index(
            order in (0usize..60).prop_flat_map(|n| {
                proptest::strategy::Just((0..n).collect::<Vec<usize>>()).prop_shuffle()
            })
        ) {
            let rows: Vec<String> = (0..order.len()).map(|i| format!("row {i}")).collect();
            let picked: Vec<String> = order.iter().map(|i| rows[*i].clone()).collect();
            let mut in_place = rows;
            permute(&mut in_place, &order);
            proptest::prop_assert_eq!(in_place, picked);
        }

        /// The cheap reading order is the stable sort by the whole key.
        #[test]
        fn reading_order_is_the_stable_sort_by_key(
            rows in proptest::collection::vec((0i64..4, 0u32..3, 0u8..3, 0i64..3), 0..40)
        ) {
            use crate::statement::TransactionStatus;
            let rows: Vec<Transaction> = rows
                .into_iter()
                .map(|(secs, nanos, receipt, amount)| Transaction {
                    receipt_no: format!("R{receipt}"),
                    completed_at: chrono::DateTime::from_timestamp(1_700_000_000 + secs, nanos * 500_000_000)
                        .unwrap_or_default()
                        .naive_utc(),
                    details: String::new(),
                    status: TransactionStatus::Completed,
                    paid_in: Decimal::new(amount, 2),
                    withdrawn: Decimal::ZERO,
                    balance: None,
                    category: crate::categorise::Category::default(),
                    ..Transaction::empty()
                })
                .collect();
            let mut expected: Vec<usize> = (0..rows.len()).collect();
            expected.sort_by(|a, b| features::sort_key(&rows[*a]).cmp(&features::sort_key(&rows[*b])));
            proptest::prop_assert_eq!(reading_order(&rows), expected);
        }
    }
}
