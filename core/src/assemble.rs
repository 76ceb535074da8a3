//! Puts a report together: features → scorecard → reason codes, insights, integrity, overview.

use std::collections::BTreeMap;

use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;

use crate::amount::{Arithmetic, Domain};
use crate::error::{Error, ErrorKind, Result};
use crate::report::{Band, MonthlyCashflow, Report, ReportStatus, StatementOverview};
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
        crate::parse::prepare_rows(&mut part);
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
fn report_of_prepared(
    statement: &Statement,
    card: &scorecard::Scorecard,
    id: Id,
) -> Result<(Report, Option<u64>)> {
    let survey = survey(statement);
    if let Some(amount) = survey.beyond_limit {
        let limit = crate::money::MAX_AMOUNT;
        return Err(Error::new(
            ErrorKind::TooLarge { limit },
            format!(
                "the statement has an amount of {amount} KES; the engine reads amounts of at \
                 most {limit} KES"
            ),
        ));
    }
    if !survey.completed {
        return Err(Error::new(
            ErrorKind::EmptyStatement,
            "the statement has no completed transactions to score",
        ));
    }
    let days = span_days(statement, survey.dates);
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
    let sha = card.sha256();
    let period = covered_period(statement, survey.dates);
    // The features, the scorecard and the overview on this thread; the integrity check and
    // then the id (a pass over every row, independent of the rest) on a second one for long
    // statements. The sides are kept about even (`stage_times`, `score` of a parsed 5,000-row
    // statement):
    // - the check moved to this side once the features and the check had become cheaper than
    //   the id (2026-11-25: 1.05–1.10 ms against 1.12–1.17);
    // - the overview moved to the id's side once the fingerprint was taken in the id's pass
    //   (2026-11-26: 0.65–0.66 ms against 0.69–0.72);
    // - with the id hashed by BLAKE3 (0.11 ms of hashing, not 0.38) the id's side became the
    //   shorter one, so the check went back there and the overview came here (medians of 9
    //   interleaved runs on a 2-core AMD EPYC, 2026-11-26: 0.90 ms against 0.96 with only the
    //   check moved and 1.08 before BLAKE3). With a given id (the service) the second side
    //   is the check alone, which used to run after the features on this thread.
    let ((features, assessment, overview), (integrity, report_id, fingerprint)) =
        crate::parallel::join_for_rows(
            statement.transactions.len(),
            || {
                let features = features::compute_in(statement, Some(survey.arithmetic));
                let assessment = scorecard::assess(card, &features);
                (features, assessment, overview(statement, period))
            },
            || {
                let integrity = check::check_in(statement, Some(survey.arithmetic));
                let with_fingerprint = match id {
                    Id::Given(id) => return (integrity, id, None),
                    Id::Content => false,
                    Id::ContentAndFingerprint => true,
                };
                let (report_id, fingerprint) = crate::report_id::report_id_and_fingerprint(
                    statement,
                    &card.version,
                    &sha,
                    with_fingerprint,
                );
                (integrity, report_id, fingerprint)
            },
        );
    let score = assessment.score;
    let report = Report {
        report_id,
        status: ReportStatus::Completed,
        score,
        band: Band::of(score),
        statement_period: format_period(period),
        reason_codes: assessment.reason_codes,
        insights: insights::insights(&features),
        factors: assessment.factors,
        scorecard_version: card.version.clone(),
        scorecard_sha256: sha,
        integrity,
        statement: overview,
    };
    Ok((report, fingerprint))
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
}

/// The [`Survey`] of `statement`, in one pass over its rows (each of its parts was a pass of
/// its own, 60–80 µs before a 5,000-row report's two sides could start, 2026-11-26).
fn survey(statement: &Statement) -> Survey {
    let limit_cents = crate::money::MAX_AMOUNT * 100;
    let mut domain = Domain::default();
    let mut beyond_limit = None;
    let mut completed = false;
    let mut dates: Option<(NaiveDate, NaiveDate)> = None;
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
        completed |= t.is_completed();
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
    Survey {
        beyond_limit,
        completed,
        dates,
        arithmetic: domain.arithmetic(),
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

fn overview(statement: &Statement, period: Period) -> StatementOverview {
    // Summed per (year, month), then named `%Y-%m` once per month and ordered by that name.
    // Rows of a month are summed in a run while they follow one another (a statement lists
    // them in time order, either way up), and each run is added to its month's sums: one map
    // lookup a run instead of one a row. Sums of exact decimals do not depend on their order.
    // (year, month) → (a day of it, paid in, withdrawn).
    type Month = (i32, u32);
    type Sums = (NaiveDate, Decimal, Decimal);
    let mut by_month: BTreeMap<Month, Sums> = BTreeMap::new();
    let mut add_run = |key: Month, run: Sums| {
        let m = by_month
            .entry(key)
            .or_insert((run.0, Decimal::ZERO, Decimal::ZERO));
        m.1 += run.1;
        m.2 += run.2;
    };
    let mut run: Option<(Month, Sums)> = None;
    for t in statement.transactions.iter().filter(|t| t.is_completed()) {
        let day = t.completed_at.date();
        let key = (day.year(), day.month());
        match &mut run {
            Some((month, sums)) if *month == key => {
                sums.1 += t.paid_in;
                sums.2 += t.withdrawn;
            }
            _ => {
                if let Some((month, sums)) = run.take() {
                    add_run(month, sums);
                }
                run = Some((key, (day, t.paid_in, t.withdrawn)));
            }
        }
    }
    if let Some((month, sums)) = run {
        add_run(month, sums);
    }
    let monthly: BTreeMap<String, (Decimal, Decimal)> = by_month
        .into_values()
        .map(|(day, paid_in, withdrawn)| (day.format("%Y-%m").to_string(), (paid_in, withdrawn)))
        .collect();
    let (total_paid_in, total_withdrawn) = check::completed_totals(statement);
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
        completed_count: u32::try_from(
            statement
                .transactions
                .iter()
                .filter(|t| t.is_completed())
                .count(),
        )
        .unwrap_or(u32::MAX),
        total_paid_in,
        total_withdrawn,
        monthly: monthly
            .into_iter()
            .map(|(month, (paid_in, withdrawn))| MonthlyCashflow {
                month,
                paid_in,
                withdrawn,
            })
            .collect(),
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
                })
                .collect();
            let mut expected: Vec<usize> = (0..rows.len()).collect();
            expected.sort_by(|a, b| features::sort_key(&rows[*a]).cmp(&features::sort_key(&rows[*b])));
            proptest::prop_assert_eq!(reading_order(&rows), expected);
        }
    }
}
