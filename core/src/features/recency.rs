//! Income recency: has the income the holder's own pay cycle expects arrived by the request
//! date? (issue 51; docs/scorecard.md, "Income recency").
//!
//! The calendar-month figures read full months only, so an income missing in the month of the
//! request used to leave no trace (a statement requested on 20 December whose 1 December salary
//! never came scored as if it had come), and an income that did come in that month did not
//! count either. This module reads every day, the partial month included:
//!
//! - **Income days.** The arrivals of income (`super::sums`: earned income net of round
//!   trips, and money in from banks when bank funding is recurrent) are added up per day; a day
//!   whose income reaches the card's `materialMonthlyIncome` (KES 1,000 on the Kenyan card: the
//!   least a month needs to count as a month with income) is an income day. A salary day is
//!   one; KES 10 from a friend is none. The edge is the card's, never the statement's own
//!   (a quarter of the typical month, tried first, moved with every inflow: one windfall raised
//!   the median month, and a farmer's small transfers stopped being income days).
//! - **The pay cycle** is the median number of days between consecutive income days, measured
//!   with at least [`MIN_INCOME_DAYS`] of them (three gaps) and never shorter than
//!   [`MIN_CYCLE_DAYS`]: a trader paid every day is expected to be paid within the week, not
//!   within the day. It is measured only when the income days keep a rhythm: at least three
//!   gaps in four between half and twice the median gap (`is_regular`). Irregular income (a
//!   farmer's harvests, occasional work) has no day on which the next income is expected, and
//!   the median of irregular gaps moves with every added day (one windfall between two sparse
//!   income days halved it, and the farmer's last income looked twice as late), so recency is
//!   then not measured. The card scores an unmeasured recency in full: recency only ever takes
//!   points away, when an income is known to be missing.
//! - **Cycles since income** = days from the last income day to the last day the statement
//!   covers ÷ the cycle. Up to 1.5 the next income is not yet due (half a cycle of grace: two
//!   weeks for a monthly salary); 1.5 to 2.5, one expected income has not come; and so on (the
//!   card's bins). Only the latest income days decide it, so an income lost recently weighs
//!   more than one lost long before the request (which the monthly figures still count).

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::stats::{median, ratio};

/// Income days needed to measure a pay cycle (three gaps between them).
pub const MIN_INCOME_DAYS: usize = 4;

/// The shortest pay cycle, days: a week.
pub const MIN_CYCLE_DAYS: u32 = 7;

/// The pay cycle and how long ago the last income came.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) struct Recency {
    /// The median days between income days, at least [`MIN_CYCLE_DAYS`].
    pub(super) cycle: Option<Decimal>,
    /// The last income day.
    pub(super) last_event: Option<NaiveDate>,
    /// Days from the last income day to `end` ÷ the cycle.
    pub(super) cycles_since: Option<Decimal>,
}

/// The [`Recency`] of `arrivals` (`(day, amount, from a bank)` in reading order; bank money
/// counts only when `bank_recurrent`), with `material` the card's `materialMonthlyIncome` and
/// `end` the last day the statement covers.
pub(super) fn recency(
    arrivals: &[(NaiveDate, Decimal, bool)],
    bank_recurrent: bool,
    material: Decimal,
    end: NaiveDate,
) -> Recency {
    let mut days: Vec<NaiveDate> = Vec::new();
    let mut current: Option<(NaiveDate, Decimal)> = None;
    let counted = arrivals
        .iter()
        .filter(|(_, _, bank)| bank_recurrent || !*bank)
        .map(|(day, amount, _)| (*day, *amount));
    for (day, amount) in counted.chain(std::iter::once((NaiveDate::MAX, Decimal::ZERO))) {
        match current.as_mut() {
            Some((d, sum)) if *d == day => *sum = sum.saturating_add(amount),
            _ => {
                if let Some((d, sum)) = current
                    && sum >= material
                    && material > Decimal::ZERO
                {
                    days.push(d);
                }
                current = Some((day, amount));
            }
        }
    }
    let Some(last) = days.last().copied() else {
        return Recency::default();
    };
    let gaps: Vec<Decimal> = days
        .windows(2)
        .map(|w| Decimal::from((w[1] - w[0]).num_days()))
        .collect();
    let cycle = (days.len() >= MIN_INCOME_DAYS)
        .then(|| median(&gaps))
        .flatten()
        .filter(|m| is_regular(&gaps, *m))
        .map(|m| m.max(Decimal::from(MIN_CYCLE_DAYS)));
    Recency {
        cycle,
        last_event: Some(last),
        cycles_since: cycle.and_then(|c| ratio(Decimal::from((end - last).num_days().max(0)), c)),
    }
}

/// Whether `gaps` keep a rhythm around their `median`: at least three in four lie between half
/// and twice the median.
fn is_regular(gaps: &[Decimal], median: Decimal) -> bool {
    let within = gaps
        .iter()
        .filter(|g| **g * Decimal::TWO >= median && **g <= median * Decimal::TWO)
        .count();
    within * 4 >= gaps.len() * 3
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn day(m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(2024, m, d).unwrap_or_default()
    }

    fn salaries(
        months: std::ops::RangeInclusive<u32>,
        dom: u32,
    ) -> Vec<(NaiveDate, Decimal, bool)> {
        months.map(|m| (day(m, dom), dec!(40000), false)).collect()
    }

    #[test]
    fn a_monthly_salary_has_a_monthly_cycle_and_a_missing_one_is_seen() {
        let paid = recency(&salaries(1..=12, 1), false, dec!(1000), day(12, 20));
        assert_eq!(paid.last_event, Some(day(12, 1)));
        let cycle = paid.cycle.expect("measured");
        assert!(cycle >= dec!(30) && cycle <= dec!(31), "{cycle}");
        assert!(paid.cycles_since.expect("measured") < dec!(1));
        // The December salary never came: 49 days since the November one.
        let missing = recency(&salaries(1..=11, 1), false, dec!(1000), day(12, 20));
        assert_eq!(missing.last_event, Some(day(11, 1)));
        let since = missing.cycles_since.expect("measured");
        assert!(since > dec!(1.5) && since < dec!(2.5), "{since}");
    }

    #[test]
    fn small_receipts_are_no_income_days_and_daily_pay_has_a_weekly_cycle() {
        // KES 400 twice a day makes a material day; KES 10 a day never does.
        let daily: Vec<_> = (1..=60)
            .flat_map(|k| {
                let d = day(1, 1) + chrono::Duration::days(k);
                [(d, dec!(400), false), (d, dec!(600), false)]
            })
            .collect();
        let r = recency(&daily, false, dec!(1000), day(3, 1));
        assert_eq!(r.cycle, Some(Decimal::from(MIN_CYCLE_DAYS)));
        assert_eq!(r.last_event, Some(day(3, 1)));
        let tokens: Vec<_> = daily.iter().map(|(d, _, b)| (*d, dec!(10), *b)).collect();
        assert_eq!(
            recency(&tokens, false, dec!(1000), day(3, 1)),
            Recency::default()
        );
    }

    #[test]
    fn irregular_income_has_no_cycle() {
        // Two harvests a year and a few odd jobs: no day on which the next income is expected.
        let harvests = [
            (3, 2),
            (3, 9),
            (3, 30),
            (4, 6),
            (6, 1),
            (8, 3),
            (8, 10),
            (9, 28),
        ];
        let arrivals: Vec<_> = harvests
            .iter()
            .map(|(m, d)| (day(*m, *d), dec!(20000), false))
            .collect();
        let r = recency(&arrivals, false, dec!(1000), day(10, 31));
        assert_eq!((r.cycle, r.cycles_since), (None, None));
        assert_eq!(r.last_event, Some(day(9, 28)));
        // A monthly salary a few days early or late still keeps its rhythm.
        let salaries: Vec<_> = [
            (1, 28),
            (2, 26),
            (3, 28),
            (4, 30),
            (5, 28),
            (6, 25),
            (7, 29),
        ]
        .iter()
        .map(|(m, d)| (day(*m, *d), dec!(40000), false))
        .collect();
        assert!(
            recency(&salaries, false, dec!(1000), day(7, 31))
                .cycle
                .is_some()
        );
    }

    #[test]
    fn bank_money_counts_only_when_recurrent_and_few_events_measure_no_cycle() {
        let bank: Vec<_> = (1..=6).map(|m| (day(m, 28), dec!(40000), true)).collect();
        assert_eq!(
            recency(&bank, false, dec!(1000), day(6, 30)),
            Recency::default()
        );
        assert!(recency(&bank, true, dec!(1000), day(6, 30)).cycle.is_some());
        let three = salaries(1..=3, 28);
        let r = recency(&three, false, dec!(1000), day(3, 30));
        assert_eq!((r.cycle, r.last_event), (None, Some(day(3, 28))));
        assert_eq!(
            recency(&three, false, Decimal::ZERO, day(3, 30)),
            Recency::default()
        );
    }
}
