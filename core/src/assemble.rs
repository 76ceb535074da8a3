//! Puts a report together: features → scorecard → reason codes, insights, integrity, overview.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;
use std::sync::OnceLock;

use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;

use crate::amount::{Amount, Arithmetic, Cents, Domain};
use crate::error::{Error, ErrorKind, Result};
use crate::report::{Band, Integrity, MonthlyCashflow, Report, ReportStatus, StatementOverview};
use crate::statement::{Period, Statement, Transaction};
use crate::{check, features, insights, scorecard};

pub(crate) fn report(statement: &Statement, card: &scorecard::Scorecard) -> Result<Report> {
    // Statements built by hand (bindings, canonical JSON without categories, amounts without
    // cents) are prepared here exactly as `parse` prepares them, so `score(s)` and
    // `score(parse(bytes))` agree.
    //
    // The report does not depend on row order (a property test shuffles rows), so the rows
    // are copied in the order every stage reads them in (`features::sort_key`, ties in their
    // listed order): each stage's own sort then finds them sorted.
    //
    // A long statement's two halves are copied and prepared on two threads when the pool may
    // be used (`stage_times`, 2026-11-25: `score` of 5,000 rows 2.07–2.10 ms against 2.24–2.28
    // copying them on one thread). Freeing the copy on the pool instead of here was slower
    // (2.6–2.8 ms): glibc's malloc frees another thread's blocks under a lock.
    //
    // A statement still as `parse` returned it (`crate::prepared`) is read in place, neither
    // copied nor prepared again: every stage's result is independent of row order, and each
    // sorts what it reads. Whether it is still so is known from its fingerprint, taken in the
    // id's pass; until then the report made in place is only a candidate.
    if crate::prepared::may_be_remembered(crate::report_id::quick_key(statement))
        && let Ok((report, Some(fingerprint))) =
            report_of_prepared(statement, card, Id::ContentAndFingerprint)
        && crate::prepared::remembered(fingerprint)
    {
        return Ok(report);
    }
    let rows = &statement.transactions;
    let order = reading_order(rows);
    let copy_prepared = |indexes: &[usize]| {
        let mut part: Vec<Transaction> = indexes.iter().map(|i| rows[*i].clone()).collect();
        crate::parse::prepare_rows(&mut part, statement.provider);
        part
    };
    let copied = if crate::parallel::worth_halving(order.len()) {
        let (first, second) = order.split_at(order.len() / 2);
        let (mut first, mut second) =
            crate::parallel::join(|| copy_prepared(first), || copy_prepared(second));
        first.append(&mut second);
        first
    } else {
        copy_prepared(&order)
    };
    let mut prepared = statement.with_transactions(copied);
    crate::parse::normalise_summary(&mut prepared);
    report_of_prepared(&prepared, card, Id::Content).map(|(report, _)| report)
}

/// The id a report gets.
enum Id {
    /// Given by the caller (the content address is then not computed).
    Given(String),
    /// The content address of [`crate::report_id`].
    Content,
    /// The content address, and the statement's fingerprint (see [`crate::prepared`]) from
    /// the same pass.
    ContentAndFingerprint,
}

/// [`report`] of a statement straight from [`crate::parse`], which has prepared it already
/// (`prepare` is idempotent: amounts keep their scale, categories are a function of Details
/// and direction): its rows are moved into reading order instead of copied and prepared again.
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
    let id = given_id.map_or(Id::Content, Id::Given);
    report_of_prepared(&statement, card, id).map(|(report, _)| report)
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

/// The report of a prepared statement, its rows in any order (in reading order, each stage's
/// sort finds them sorted), with the id `id` asks for; and with [`Id::ContentAndFingerprint`]
/// the statement's fingerprint.
///
/// A long statement's report is made on two threads ([`crate::parallel::join_for_rows`]):
/// - this one surveys the rows ([`survey`]: the limits, the arithmetic, the overview's sums,
///   in one pass), then computes the features and the scorecard;
/// - the other makes the report id (a pass over every row's bytes, which any statement has, so
///   it starts at once, before the survey says whether the statement is scored), then the
///   integrity check, in the arithmetic the survey found ([`Surveyed`]).
///
/// The sides are kept about even (`stage_times`, `score` of a parsed 5,000-row statement,
/// 2-core Xeon, 2026-11-27): the id 0.25–0.28 ms and the check 0.12 ms against the survey
/// 0.06 ms and the features 0.30 ms; the second side starts 40–70 µs after the first (a pool
/// thread wakes). With the check on the first side instead, that side ended at 0.54 ms and
/// the report took 0.56 ms, against 0.46–0.49 ms.
fn report_of_prepared(
    statement: &Statement,
    card: &scorecard::Scorecard,
    id: Id,
) -> Result<(Report, Option<u64>)> {
    let sha = card.sha256();
    let with_fingerprint = match id {
        Id::Given(given) => return report_under_id(statement, card, sha, given),
        Id::Content => false,
        Id::ContentAndFingerprint => true,
    };
    let surveyed = Surveyed::default();
    let (scored, (report_id, fingerprint, integrity)) = crate::parallel::join_for_rows(
        statement.transactions.len(),
        || {
            let survey = surveyed.publish(statement);
            survey.refusal(statement)?;
            let features = features::compute_in(statement, Some(survey.arithmetic));
            let assessment = scorecard::assess(card, &features);
            let period = covered_period(statement, survey.dates);
            let overview = overview(statement, period, survey.completed_sums);
            Ok((features, assessment, period, overview))
        },
        || {
            // The rows in time order, for the id and then the check.
            let by_time = crate::report_id::time_ordered(&statement.transactions);
            let (report_id, fingerprint) = crate::report_id::report_id_and_fingerprint_of(
                statement,
                &by_time,
                &card.version,
                &sha,
                with_fingerprint,
            );
            let integrity = surveyed
                .outcome(statement)
                .map(|arithmetic| check::check_in(statement, Some(arithmetic), Some(&by_time)));
            (report_id, fingerprint, integrity)
        },
    );
    let (features, assessment, period, overview) = scored?;
    // Checked on the other side, which knew it was scored (the fallback never runs).
    let integrity = integrity.unwrap_or_else(|| check::check(statement));
    let parts = Parts {
        features,
        assessment,
        integrity,
        period,
        overview,
    };
    Ok((parts.report(card, sha, report_id), fingerprint))
}

/// [`report_of_prepared`] under a given id (the content address is not computed): the
/// features and the scorecard on this thread, the integrity check on a second one.
fn report_under_id(
    statement: &Statement,
    card: &scorecard::Scorecard,
    sha: String,
    report_id: String,
) -> Result<(Report, Option<u64>)> {
    let survey = survey(statement);
    survey.refusal(statement)?;
    let period = covered_period(statement, survey.dates);
    let arithmetic = survey.arithmetic;
    let ((features, assessment, overview), integrity) = crate::parallel::join_for_rows(
        statement.transactions.len(),
        || {
            let features = features::compute_in(statement, Some(arithmetic));
            let assessment = scorecard::assess(card, &features);
            let overview = overview(statement, period, survey.completed_sums);
            (features, assessment, overview)
        },
        || check::check_in(statement, Some(arithmetic), None),
    );
    let parts = Parts {
        features,
        assessment,
        integrity,
        period,
        overview,
    };
    Ok((parts.report(card, sha, report_id), None))
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
            statement_period: format_period(self.period),
            reason_codes: self.assessment.reason_codes,
            insights: insights::insights(&self.features),
            factors: self.assessment.factors,
            scorecard_version: card.version.clone(),
            scorecard_sha256: sha,
            integrity: self.integrity,
            statement: self.overview,
        }
    }
}

/// A statement's [`Survey`] as one side of a report hands it to the other: the arithmetic of
/// its rows when it is scored, `None` when it is refused.
#[derive(Default)]
struct Surveyed(OnceLock<Option<Arithmetic>>);

impl Surveyed {
    /// Surveys `statement` and hands the outcome over.
    fn publish(&self, statement: &Statement) -> Survey {
        let survey = survey(statement);
        // Set already only if the other side could not wait (see `outcome`): the same outcome.
        let _ = self.0.set(Self::outcome_of(&survey, statement));
        survey
    }

    /// The outcome [`Surveyed::publish`] hands over. The publishing side surveys first, while
    /// this side makes the report id, so it is nearly always there already; if it is not, this
    /// side surveys the statement itself rather than wait on the other (whatever order the
    /// threads run in, neither waits on the other).
    fn outcome(&self, statement: &Statement) -> Option<Arithmetic> {
        *self
            .0
            .get_or_init(|| Self::outcome_of(&survey(statement), statement))
    }

    fn outcome_of(survey: &Survey, statement: &Statement) -> Option<Arithmetic> {
        survey
            .refusal(statement)
            .is_ok()
            .then_some(survey.arithmetic)
    }
}

/// Row indexes sorted by [`features::sort_key`], stable (see [`features::reading_order`]).
fn reading_order(rows: &[Transaction]) -> Vec<usize> {
    features::reading_order(rows.iter().enumerate())
        .into_iter()
        .map(|(i, _)| i)
        .collect()
}

/// What one pass over a statement's rows tells before its report is made.
struct Survey {
    /// The first amount (rows, then SUMMARY) beyond [`crate::money::MAX_AMOUNT`]: statements
    /// built by hand are not bounded by the parsers.
    beyond_limit: Option<Decimal>,
    /// Whether a row is completed.
    completed: bool,
    /// The first and last of the rows' dates.
    dates: Option<(NaiveDate, NaiveDate)>,
    /// The arithmetic of the row passes (see [`crate::amount`]).
    arithmetic: Arithmetic,
    /// The sums of the report's overview, added up in the same pass, in cents, when the
    /// arithmetic is [`Arithmetic::Cents`]; `None` otherwise (the overview adds them up in
    /// `Decimal`).
    completed_sums: Option<CompletedSums>,
}

impl Survey {
    /// The error that refuses `statement`, if any: an amount beyond the limit, no completed
    /// row, or more than [`crate::MAX_PERIOD_DAYS`] days.
    fn refusal(&self, statement: &Statement) -> Result<()> {
        if let Some(amount) = self.beyond_limit {
            let limit = crate::money::MAX_AMOUNT;
            return Err(Error::new(
                ErrorKind::TooLarge { limit },
                format!(
                    "the statement has an amount of {amount} KES; the engine reads amounts of \
                     at most {limit} KES"
                ),
            ));
        }
        if !self.completed {
            return Err(Error::new(
                ErrorKind::EmptyStatement,
                "the statement has no completed transactions to score",
            ));
        }
        let days = span_days(statement, self.dates);
        if days > crate::MAX_PERIOD_DAYS {
            let limit = crate::MAX_PERIOD_DAYS;
            return Err(Error::new(
                ErrorKind::TooLarge { limit },
                format!(
                    "the statement spans {days} days; the engine scores statements of at most \
                     {limit} days (ten years)"
                ),
            ));
        }
        Ok(())
    }
}

/// The [`Survey`] of `statement`, in one pass over its rows (each of its parts was a pass of
/// its own, 60–80 µs before a 5,000-row report's two sides could start, 2026-11-26).
fn survey(statement: &Statement) -> Survey {
    let limit_cents = crate::money::MAX_AMOUNT * 100;
    let mut domain = Domain::default();
    let mut beyond_limit = None;
    let mut completed = false;
    let mut dates: Option<(NaiveDate, NaiveDate)> = None;
    // In cents until an amount is found outside their domain (then added up again, in
    // `Decimal`, by `overview`).
    let mut sums = MonthRuns::<Cents>::default();
    for t in &statement.transactions {
        let mut read = |a: Decimal| {
            let within = match domain.read(a) {
                Some(cents) => cents <= limit_cents,
                None => crate::money::within_limit(a),
            };
            if !within && beyond_limit.is_none() {
                beyond_limit = Some(a);
            }
        };
        read(t.paid_in);
        read(t.withdrawn);
        if let Some(b) = t.balance {
            read(b);
        }
        if t.is_completed() {
            completed = true;
            sums.add(t);
        }
        let day = t.completed_at.date();
        dates = Some(dates.map_or((day, day), |(first, last)| (first.min(day), last.max(day))));
    }
    if beyond_limit.is_none() {
        beyond_limit = statement
            .summary
            .iter()
            .flat_map(|s| s.rows.iter().chain(std::iter::once(&s.total)))
            .flat_map(|r| [r.paid_in, r.paid_out])
            .find(|a| !crate::money::within_limit(*a));
    }
    let arithmetic = domain.arithmetic();
    Survey {
        beyond_limit,
        completed,
        dates,
        arithmetic,
        completed_sums: (arithmetic == Arithmetic::Cents).then(|| sums.finish()),
    }
}

/// Days from the earliest to the latest of the rows' dates (`dates`, see [`Survey`]) and the
/// header period's ends.
fn span_days(statement: &Statement, dates: Option<(NaiveDate, NaiveDate)>) -> u64 {
    let header = statement.period.iter().flat_map(|p| [p.start, p.end]);
    let all = dates.into_iter().flat_map(|(a, b)| [a, b]).chain(header);
    let (Some(first), Some(last)) = (all.clone().min(), all.max()) else {
        return 0;
    };
    u64::try_from((last - first).num_days()).unwrap_or(0)
}

/// The header period, or the first and last transaction dates (`dates`, see [`Survey`]).
fn covered_period(statement: &Statement, dates: Option<(NaiveDate, NaiveDate)>) -> Period {
    statement.period.unwrap_or_else(|| {
        let (start, end) = dates.unwrap_or((NaiveDate::MIN, NaiveDate::MIN));
        Period { start, end }
    })
}

/// `"May 2023 - May 2024"`: the seed's `<Mon YYYY> - <Mon YYYY>`, English month abbreviations.
pub fn format_period(period: Period) -> String {
    format!(
        "{} - {}",
        period.start.format("%b %Y"),
        period.end.format("%b %Y")
    )
}

/// Masks all but the last three digits of a phone number, keeping a leading `+`/`0`/`254`
/// prefix readable: `0712345678` → `07*****678`.
pub fn mask_phone(number: &str) -> String {
    let chars: Vec<char> = number.chars().filter(|c| !c.is_whitespace()).collect();
    let n = chars.len();
    let keep_head = if number.starts_with("254") || number.starts_with("+254") {
        chars.iter().take_while(|c| **c == '+').count() + 3
    } else {
        2.min(n)
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i < keep_head || i + 3 >= n || !c.is_ascii_digit() {
                *c
            } else {
                '*'
            }
        })
        .collect()
}

/// The statement overview of the report: its sums are `sums` when the survey added them up
/// (in cents), else added up here in `Decimal` (see [`Survey::completed_sums`]).
fn overview(
    statement: &Statement,
    period: Period,
    sums: Option<CompletedSums>,
) -> StatementOverview {
    let CompletedSums {
        count,
        paid_in,
        withdrawn,
        monthly,
    } = sums.unwrap_or_else(|| completed_sums(statement));
    let provider = serde_json::to_value(statement.provider)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default();
    StatementOverview {
        provider,
        currency: statement.currency.clone(),
        holder_name: statement.holder.name.clone(),
        mobile_number_masked: statement.holder.mobile_number.as_deref().map(mask_phone),
        period_start: period.start.to_string(),
        period_end: period.end.to_string(),
        transaction_count: u32::try_from(statement.transactions.len()).unwrap_or(u32::MAX),
        completed_count: u32::try_from(count).unwrap_or(u32::MAX),
        total_paid_in: paid_in,
        total_withdrawn: withdrawn,
        monthly,
    }
}

/// The completed rows' count and money in and out, in all and per calendar month.
struct CompletedSums {
    count: usize,
    paid_in: Decimal,
    withdrawn: Decimal,
    monthly: Vec<MonthlyCashflow>,
}

/// [`CompletedSums`] of `statement` in one pass, in `Decimal`.
fn completed_sums(statement: &Statement) -> CompletedSums {
    let mut sums = MonthRuns::<Decimal>::default();
    for t in statement.transactions.iter().filter(|t| t.is_completed()) {
        sums.add(t);
    }
    sums.finish()
}

/// A calendar month: (year, month).
type Month = (i32, u32);

/// [`CompletedSums`] as completed rows are added, in the arithmetic `A`. Summed per calendar
/// month, then named `%Y-%m` once per month and ordered by that name. Rows of a month are
/// summed in a run while they follow one another (a statement lists them in time order, either
/// way up), and each run is added to its month's sums: one map lookup a run instead of one a
/// row. The totals are summed row by row.
struct MonthRuns<A> {
    count: usize,
    paid_in: A,
    withdrawn: A,
    /// (year, month) → (a day of it, paid in, withdrawn).
    by_month: BTreeMap<Month, (NaiveDate, A, A)>,
    run: Option<Run<A>>,
}

/// Rows of one month that follow one another.
struct Run<A> {
    month: Month,
    /// The month's first and last days.
    days: RangeInclusive<NaiveDate>,
    /// The day of the run's first row.
    day: NaiveDate,
    paid_in: A,
    withdrawn: A,
}

impl<A: Amount> Default for MonthRuns<A> {
    fn default() -> Self {
        MonthRuns {
            count: 0,
            paid_in: A::ZERO,
            withdrawn: A::ZERO,
            by_month: BTreeMap::new(),
            run: None,
        }
    }
}

impl<A: Amount> MonthRuns<A> {
    /// Adds a completed row.
    fn add(&mut self, t: &Transaction) {
        let (pin, wout) = (A::of(t.paid_in), A::of(t.withdrawn));
        self.count += 1;
        self.paid_in = self.paid_in.plus(pin);
        self.withdrawn = self.withdrawn.plus(wout);
        let day = t.completed_at.date();
        match &mut self.run {
            // The same month as the row before: compared as dates, not read off the date.
            Some(run) if run.days.contains(&day) => {
                run.paid_in = run.paid_in.plus(pin);
                run.withdrawn = run.withdrawn.plus(wout);
            }
            _ => {
                self.end_run();
                let first = day.with_day(1).unwrap_or(day);
                let last = first
                    .checked_add_months(chrono::Months::new(1))
                    .and_then(|next| next.pred_opt())
                    .unwrap_or(NaiveDate::MAX);
                self.run = Some(Run {
                    month: (day.year(), day.month()),
                    days: first..=last,
                    day,
                    paid_in: pin,
                    withdrawn: wout,
                });
            }
        }
    }

    /// Adds the run to its month's sums.
    fn end_run(&mut self) {
        if let Some(run) = self.run.take() {
            let m = self
                .by_month
                .entry(run.month)
                .or_insert((run.day, A::ZERO, A::ZERO));
            m.1 = m.1.plus(run.paid_in);
            m.2 = m.2.plus(run.withdrawn);
        }
    }

    /// The sums of the rows added.
    fn finish(mut self) -> CompletedSums {
        self.end_run();
        let monthly = self
            .by_month
            .into_values()
            .map(|(day, paid_in, withdrawn)| MonthlyCashflow {
                month: day.format("%Y-%m").to_string(),
                paid_in: paid_in.decimal(),
                withdrawn: withdrawn.decimal(),
            })
            .collect();
        CompletedSums {
            count: self.count,
            paid_in: self.paid_in.decimal(),
            withdrawn: self.withdrawn.decimal(),
            monthly,
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::strategy::Strategy as _;

    use super::*;

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

    /// Whichever side asks first, the outcome is the survey's: the arithmetic of a scored
    /// statement, `None` for a refused one.
    #[cfg(feature = "testing")]
    #[test]
    fn the_survey_is_handed_over_in_either_order() {
        let scored = crate::testing::synthetic_statement(7, 2);
        let mut refused = scored.clone();
        for t in &mut refused.transactions {
            t.status = crate::statement::TransactionStatus::Failed;
        }
        for statement in [&scored, &refused] {
            let expected = (survey(statement).refusal(statement).is_ok())
                .then_some(survey(statement).arithmetic);
            let published_first = Surveyed::default();
            published_first.publish(statement);
            assert_eq!(published_first.outcome(statement), expected);
            let asked_first = Surveyed::default();
            assert_eq!(asked_first.outcome(statement), expected);
            asked_first.publish(statement);
            assert_eq!(asked_first.outcome(statement), expected);
        }
        assert_eq!(
            Surveyed::default().outcome(&scored),
            Some(Arithmetic::Cents)
        );
        assert_eq!(Surveyed::default().outcome(&refused), None);
    }

    #[test]
    fn masks_phone_numbers() {
        assert_eq!(mask_phone("0712345678"), "07*****678");
        assert_eq!(mask_phone("254712345678"), "254******678");
    }

    #[test]
    fn formats_period_as_the_seed_does() {
        let p = Period {
            start: NaiveDate::from_ymd_opt(2023, 5, 23).unwrap_or_default(),
            end: NaiveDate::from_ymd_opt(2024, 5, 23).unwrap_or_default(),
        };
        assert_eq!(format_period(p), "May 2023 - May 2024");
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
                    category: crate::categorise::Category::default(), ..crate::statement::Transaction::empty()
                })
                .collect();
            let mut expected: Vec<usize> = (0..rows.len()).collect();
            expected.sort_by(|a, b| features::sort_key(&rows[*a]).cmp(&features::sort_key(&rows[*b])));
            proptest::prop_assert_eq!(reading_order(&rows), expected);
        }
    }
}
