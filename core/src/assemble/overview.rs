//! The report's statement overview: who, which period, and the completed rows' money in and
//! out, in all and per calendar month.

use std::collections::BTreeMap;
use std::ops::RangeInclusive;

use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;

use crate::amount::Amount;
use crate::report::{MonthlyCashflow, StatementOverview};
use crate::statement::{Period, Statement, Transaction};

/// `"May 2023 - May 2024"`: the seed's `<Mon YYYY> - <Mon YYYY>`, English month abbreviations.
pub(super) fn format_period(period: Period) -> String {
    format!(
        "{} - {}",
        period.start.format("%b %Y"),
        period.end.format("%b %Y")
    )
}

/// Masks all but the last three digits of a phone number, keeping a leading `+`/`0`/`254`
/// prefix readable: `0712345678` → `07*****678`.
pub(super) fn mask_phone(number: &str) -> String {
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

/// The statement overview of the report of `statement` whose rows are `rows` (its own, or an
/// application's combined rows): its sums are `sums` when the survey added them up
/// (in cents), else added up here in `Decimal` (see [`super::survey::Survey::completed_sums`]).
pub(super) fn overview(
    statement: &Statement,
    rows: &[&Transaction],
    period: Period,
    sums: Option<CompletedSums>,
) -> StatementOverview {
    let CompletedSums {
        count,
        paid_in,
        withdrawn,
        monthly,
    } = sums.unwrap_or_else(|| completed_sums(rows));
    let provider = statement.provider.to_string();
    StatementOverview {
        provider,
        currency: statement.currency.clone(),
        holder_name: statement.holder.name.clone(),
        mobile_number_masked: statement.holder.mobile_number.as_deref().map(mask_phone),
        period_start: period.start.to_string(),
        period_end: period.end.to_string(),
        transaction_count: u32::try_from(rows.len()).unwrap_or(u32::MAX),
        completed_count: u32::try_from(count).unwrap_or(u32::MAX),
        total_paid_in: paid_in,
        total_withdrawn: withdrawn,
        monthly,
    }
}

/// The completed rows' count and money in and out, in all and per calendar month.
pub(super) struct CompletedSums {
    count: usize,
    paid_in: Decimal,
    withdrawn: Decimal,
    monthly: Vec<MonthlyCashflow>,
}

/// [`CompletedSums`] of `rows` in one pass, in `Decimal`.
fn completed_sums(rows: &[&Transaction]) -> CompletedSums {
    let mut sums = MonthRuns::<Decimal>::default();
    for t in rows.iter().filter(|t| t.is_completed()) {
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
pub(super) struct MonthRuns<A> {
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
    pub(super) fn add(&mut self, t: &Transaction) {
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
    pub(super) fn finish(mut self) -> CompletedSums {
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
    use super::*;

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
}
