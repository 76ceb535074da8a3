//! The calendar the features read in: the days a statement covers and its calendar months
//! (see the rules in [`super`]).

use chrono::{Datelike, Duration, NaiveDate};
use rust_decimal::Decimal;

use super::MonthFigures;
use crate::statement::Statement;

/// The days a statement covers (see the module rules).
pub(super) fn coverage(
    statement: &Statement,
    first: NaiveDate,
    last: NaiveDate,
) -> (NaiveDate, NaiveDate) {
    let slack = Duration::days(31);
    match statement.period {
        Some(p)
            if p.start <= first
                && p.start >= first - slack
                && p.end >= last
                && p.end <= last + slack =>
        {
            (p.start, p.end)
        }
        _ => (first, last),
    }
}

/// Empty calendar months covering `start..=end`, oldest first.
pub(super) fn empty_months(start: NaiveDate, end: NaiveDate) -> Vec<MonthFigures> {
    let mut months = Vec::new();
    let mut first_of = start.with_day(1).unwrap_or(start);
    while first_of <= end {
        let next = first_of
            .checked_add_months(chrono::Months::new(1))
            .unwrap_or(NaiveDate::MAX);
        let last_of = next.pred_opt().unwrap_or(first_of);
        let (s, e) = (first_of.max(start), last_of.min(end));
        months.push(MonthFigures {
            start: s,
            end: e,
            days: u32::try_from((e - s).num_days() + 1).unwrap_or(0),
            full: s == first_of && e == last_of,
            transactions: 0,
            income: Decimal::ZERO,
            earned_income: Decimal::ZERO,
            salary_income: Decimal::ZERO,
            bank_in: Decimal::ZERO,
            bank_out: Decimal::ZERO,
            spending: Decimal::ZERO,
            fuliza_drawn: Decimal::ZERO,
            bill_payments: 0,
            use_days: 0,
        });
        if next == NaiveDate::MAX {
            break;
        }
        first_of = next;
    }
    months
}

/// Index of the month that holds `day` in months starting at `start`.
pub(super) fn month_index(day: NaiveDate, start: NaiveDate) -> usize {
    let months =
        (day.year() - start.year()) * 12 + day.month().cast_signed() - start.month().cast_signed();
    usize::try_from(months).unwrap_or(usize::MAX)
}
