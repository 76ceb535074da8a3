//! The survey: what one pass over a prepared statement's rows tells before its report is
//! made (whether it is refused, its dates, the overview's sums).

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::overview::{CompletedSums, MonthRuns};
use crate::amount::{Arithmetic, Cents, Domain};
use crate::error::{Error, ErrorKind, Result};
use crate::statement::{Period, Statement, Transaction};

/// What one pass over a statement's rows tells before its report is made.
pub(super) struct Survey {
    /// The first amount (rows, then SUMMARY) beyond [`crate::money::MAX_AMOUNT`]: statements
    /// built by hand are not bounded by the parsers.
    pub(super) beyond_limit: Option<Decimal>,
    /// Whether a row is completed.
    pub(super) completed: bool,
    /// The first and last of the rows' dates.
    pub(super) dates: Option<(NaiveDate, NaiveDate)>,
    /// The sums of the report's overview, added up in the same pass, in cents, when the
    /// arithmetic is [`Arithmetic::Cents`]; `None` otherwise (the overview adds them up in
    /// `Decimal`).
    pub(super) completed_sums: Option<CompletedSums>,
}

impl Survey {
    /// The error that refuses `statement`, if any: an amount beyond the limit, no completed
    /// row, or more than [`crate::limits::MAX_PERIOD_DAYS`] days.
    pub(super) fn refusal(&self, statement: &Statement) -> Result<()> {
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
        if days > crate::limits::MAX_PERIOD_DAYS {
            let limit = crate::limits::MAX_PERIOD_DAYS;
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

/// The [`Survey`] of `statement` whose rows are `rows` (its own, or an application's combined
/// rows), in one pass over them (each of its parts was a pass of its own, 60–80 µs before a
/// 5,000-row report's two sides could start, 2026-11-26); the overview's sums only when
/// `with_sums` (an application's statements are refused one by one, but their overview is the
/// combined rows': a third of the survey's instructions).
pub(super) fn survey<'a>(
    statement: &Statement,
    rows: impl IntoIterator<Item = &'a Transaction>,
    with_sums: bool,
) -> Survey {
    let limit_cents = crate::money::MAX_AMOUNT * 100;
    let mut domain = Domain::default();
    let mut beyond_limit = None;
    let mut completed = false;
    let mut dates: Option<(NaiveDate, NaiveDate)> = None;
    // In cents until an amount is found outside their domain (then added up again, in
    // `Decimal`, by `overview`).
    let mut month_runs = MonthRuns::<Cents>::default();
    for t in rows {
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
            // Only while every amount so far is in the domain of cents, whose total bounds
            // these sums (past it they are not used, and could overflow).
            if with_sums && domain.arithmetic() == Arithmetic::Cents {
                month_runs.add(t);
            }
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
        completed_sums: (with_sums && arithmetic == Arithmetic::Cents).then(|| month_runs.finish()),
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
pub(super) fn covered_period(
    statement: &Statement,
    dates: Option<(NaiveDate, NaiveDate)>,
) -> Period {
    statement.period.unwrap_or_else(|| {
        let (start, end) = dates.unwrap_or((NaiveDate::MIN, NaiveDate::MIN));
        Period { start, end }
    })
}
