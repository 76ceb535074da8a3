//! Puts a report together, in one pipeline:
//!
//! ```text
//! prepared statement ─ survey (refused? dates, arithmetic, overview sums) ─ reading order
//!        ├─ features → scorecard → overview        (this thread)
//!        └─ report id → integrity check             (a thread of the pool, from 1,000 rows)
//!  join ─ insights → report
//! ```
//!
//! A statement reaches the pipeline prepared ([`crate::parse::prepare`]) exactly once: `score`
//! prepares a copy of a [`Statement`] it is handed (one built or edited in code may carry no
//! categories, or wrong ones), and scores a [`crate::ParsedStatement`] as it is. The report does
//! not depend on row order (property tests shuffle rows, on every wallet): the features, the
//! integrity checks and the report id read the rows in their reading order, put in it once per
//! report ([`Statement::reading`]); the survey and the overview only add up and count, which no
//! order changes.
//!
//! Rows a critical finding names (impossible row rates, copies, rows before the wallet existed
//! or after the request date: [`crate::check::named`]) are left out of the features on the
//! first side (the money they moved taken off the balances printed after them), and the report
//! lists them in a `rows_left_out` finding ([`left_out`], issue 51).

mod left_out;
mod overview;
mod survey;

use crate::error::Result;
use crate::report::{Band, Integrity, Report, ReportStatus, StatementOverview};
use crate::statement::{Period, Statement};
use crate::wallets::Wallet;
use crate::{check, features, insights, scorecard};

/// The report of a prepared statement ([`crate::parse::prepare`]), its rows in any order,
/// scored with `card` (whose currency the caller has checked), under `given_id` or else its
/// content address ([`crate::report_id`]), judged on `as_of` (the day of analysis, when given).
///
/// # Errors
/// `UnsupportedWallet` for a provider no wallet has; those of the survey (`EmptyStatement`,
/// `TooLarge`).
///
/// The survey refuses the statement (or adds up the overview's sums); the rows are put in
/// reading order once ([`Statement::reading`]); then the two sides run,
/// joined once ([`crate::parallel::join_for_rows`]): the features, the scorecard and the
/// overview on this thread; the report id and the integrity check on the other (`stage_times`,
/// a parsed 5,000-row statement, 2026-11-27: the id 0.25 ms and the check 0.18–0.26 ms against
/// the features 0.45–0.50 ms). Each stage reads that reading, in the arithmetic its amounts
/// allow ([`crate::amount`]).
pub(crate) fn report(
    statement: &Statement,
    card: &scorecard::Scorecard,
    given_id: Option<String>,
    as_of: Option<chrono::NaiveDate>,
) -> Result<Report> {
    let (wallet, survey, period) = front(statement, &statement.transactions, true)?;
    let sha = card.sha256();
    let reading = &statement.reading();
    let (scored, (report_id, integrity)) = crate::parallel::join_for_rows(
        statement.transactions.len(),
        || Scored::of(reading, wallet, card, period, survey.completed_sums),
        || {
            let report_id = given_id
                .unwrap_or_else(|| crate::report_id::report_id(reading, &card.version, &sha));
            (report_id, check::check(reading, wallet, as_of))
        },
    );
    if let Some(finding) = &scored.left_out {
        // The rows are named by the checks' own rules: each code is one of their critical
        // findings (a test-time guard for when the checks change).
        debug_assert!(
            check::named::NAMING_CODES
                .iter()
                .filter(|code| finding.message.contains(&format!("({code})")))
                .all(|code| integrity
                    .findings
                    .iter()
                    .any(|f| f.code == *code && f.severity == crate::report::Severity::Critical)),
            "{}",
            finding.message
        );
    }
    Ok(scored.report(card, sha, report_id, integrity))
}

/// What an application reads of one prepared statement besides its rows: its report id under
/// `card`, its integrity judged on `as_of`, and the period it covers (the header's, else its
/// rows' first and last dates): [`report`]'s other side.
///
/// # Errors
/// Those of [`report`] (`UnsupportedWallet`, `EmptyStatement`, `TooLarge`).
pub(crate) fn read(
    statement: &Statement,
    card: &scorecard::Scorecard,
    as_of: Option<chrono::NaiveDate>,
) -> Result<(String, Integrity, Period)> {
    let (wallet, _, period) = front(statement, &statement.transactions, false)?;
    let reading = statement.reading();
    let id = crate::report_id::report_id(&reading, &card.version, &card.sha256());
    Ok((id, check::check(&reading, wallet, as_of), period))
}

/// [`report`]'s features side of `reading` (an application's rows combined), for a caller
/// that makes the report id and the integrity itself (the application's): the same function,
/// rows a critical finding names left out as there. [`Scored::report`] joins it with them.
///
/// The survey (refusal, period, the overview's sums) runs beside the features, on another
/// thread when one is free: an application's statements' reads hold the pool's other thread
/// for about as long as the features take, and the survey of 15,000 combined rows was 3.8 M
/// instructions on the features' thread (`stage_times`, 2026-11-28).
///
/// # Errors
/// Those of [`report`].
pub(crate) fn features_side(
    reading: &crate::statement::Reading<'_>,
    card: &scorecard::Scorecard,
) -> Result<Scored> {
    let wallet = crate::wallets::of(&reading.statement.provider)?;
    let ((features, assessment, left_out), overview) = crate::parallel::join(
        || assessed(reading, wallet, card),
        || {
            let (_, survey, period) = front(reading.statement, reading.rows.iter().copied(), true)?;
            let overview = overview::overview(
                reading.statement,
                &reading.rows,
                period,
                survey.completed_sums,
            );
            Ok::<_, crate::Error>((period, overview))
        },
    );
    let (period, overview) = overview?;
    Ok(Scored {
        features,
        assessment,
        overview,
        left_out,
        period,
        wallet,
    })
}

/// The front every report shares: the statement's wallet, the survey of its `rows` (which
/// refuses it, and adds up the overview's sums when `with_sums`), and the period it covers.
///
/// # Errors
/// `UnsupportedWallet` for a provider no wallet has; those of the survey (`EmptyStatement`,
/// `TooLarge`).
fn front<'a>(
    statement: &Statement,
    rows: impl IntoIterator<Item = &'a crate::statement::Transaction>,
    with_sums: bool,
) -> Result<(&'static Wallet, survey::Survey, Period)> {
    let wallet = crate::wallets::of(&statement.provider)?;
    let survey = survey::survey(statement, rows, with_sums);
    survey.refusal(statement)?;
    let period = survey::covered_period(statement, survey.dates);
    Ok((wallet, survey, period))
}

/// The features of `reading`'s rows (of `wallet`) that no critical finding names, their
/// assessment by `card`, and the `rows_left_out` finding when rows were left out.
fn assessed(
    reading: &crate::statement::Reading<'_>,
    wallet: &'static Wallet,
    card: &scorecard::Scorecard,
) -> (
    features::Features,
    scorecard::Assessment,
    Option<crate::report::Finding>,
) {
    let left_out = left_out::left_out(reading, wallet);
    let features = match &left_out {
        None => features::compute(reading, card.thresholds()),
        Some(l) => features::compute(
            &l.reading(reading.statement, reading.accounts.len()),
            card.thresholds(),
        ),
    };
    let assessment = scorecard::assess(card, &features);
    (features, assessment, left_out.map(|l| l.finding))
}

/// A report's features side: the features of the rows no critical finding names, their
/// assessment by the card, the overview, and the `rows_left_out` finding when rows were left
/// out; with the period the statement covers and its wallet, waiting for the other side's
/// report id and integrity ([`Scored::report`]).
pub(crate) struct Scored {
    features: features::Features,
    assessment: scorecard::Assessment,
    overview: StatementOverview,
    left_out: Option<crate::report::Finding>,
    period: Period,
    wallet: &'static Wallet,
}

impl Scored {
    /// The features side of `reading` (of `wallet`, covering `period`, with the survey's
    /// `sums`), scored with `card`.
    fn of(
        reading: &crate::statement::Reading<'_>,
        wallet: &'static Wallet,
        card: &scorecard::Scorecard,
        period: Period,
        sums: Option<overview::CompletedSums>,
    ) -> Self {
        let (features, assessment, left_out) = assessed(reading, wallet, card);
        Self {
            features,
            assessment,
            overview: overview::overview(reading.statement, &reading.rows, period, sums),
            left_out,
            period,
            wallet,
        }
    }

    /// The report of this side with the other's `integrity` (the `rows_left_out` finding
    /// added last), under `report_id`, with `card` (whose SHA-256 is `sha`); the insights in
    /// its wallet's words.
    pub(crate) fn report(
        self,
        card: &scorecard::Scorecard,
        sha: String,
        report_id: String,
        mut integrity: Integrity,
    ) -> Report {
        integrity.findings.extend(self.left_out);
        let score = self.assessment.score;
        Report {
            report_id,
            status: ReportStatus::Completed,
            score,
            band: Band::of(score),
            statement_period: overview::format_period(self.period),
            reason_codes: self.assessment.reason_codes,
            insights: insights::insights(
                &self.features,
                &card.currency,
                card.thresholds(),
                self.wallet,
            ),
            factors: self.assessment.factors,
            scorecard_version: card.version.clone(),
            scorecard_sha256: sha,
            integrity,
            statement: self.overview,
        }
    }
}

/// `"May 2023 - May 2024"`, the seed's form of a period.
pub(crate) fn format_period(period: Period) -> String {
    overview::format_period(period)
}

/// A phone number masked as a report shows it (`07*****678`).
pub(crate) fn mask_phone(number: &str) -> String {
    overview::mask_phone(number)
}

#[cfg(test)]
mod tests {
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
}
