//! End-of-day balances, read from the printed Balance column.
//!
//! The closing balance of a day is the closing balance of its last completion time, carried
//! over days without rows. Rows that share a completion time are not reliably printed in order,
//! so a group's closing balance is the printed balance that equals some row's opening balance
//! (its balance minus its own movement) plus the whole group's movement; if none does, the
//! group's lowest printed balance (the cautious choice). When more than one printed balance
//! could close the group, the one the running balance reaches (the previous closing plus the
//! movements since) is taken. These rules read the group as a set, so the result does not
//! depend on the order rows are listed in.
//!
//! (Over 400 lines: the group rules, the daily passes that apply them and the property tests
//! that the result does not depend on row order are one concept.)

use std::collections::BTreeMap;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::MAX_BUFFER_DAYS;
use super::credit::Credit;
use super::stats::{count, ratio};
use crate::amount::{Amount, net_of};
use crate::statement::Transaction;

/// The closing balance of a group of `(net movement, printed balance)` rows that share a
/// completion time.
pub(crate) fn group_closing<A: Amount>(rows: &[(A, A)]) -> Option<A> {
    // A row alone at its time (most rows) closes on its balance when its movement has the
    // balance's scale: what `multiset_closing` gives it, scale and all (a property test
    // compares them; zero, whose scale the sums change, is why the scales must match), without
    // its sums and searches.
    if let [(net, b)] = rows
        && net.scale() == b.scale()
    {
        return Some(*b);
    }
    multiset_closing(rows)
}

/// [`group_closing`] of a group whose closing the running balance says should be `expected`
/// (the previous closing plus every movement since): when the group's rows leave more than one
/// closing possible (a credit and a debit of the same amount at one second: either printed
/// balance can be the last), the one the running balance reaches. Without it the lowest was
/// taken, and any later row of the day, a round trip included, settled it the other way.
pub(crate) fn group_closing_from<A: Amount>(rows: &[(A, A)], expected: A) -> Option<A> {
    if rows.len() > 1 && rows.iter().any(|(_, b)| *b == expected) {
        let total = rows.iter().fold(A::ZERO, |a, (net, _)| a.plus(*net));
        if rows
            .iter()
            .any(|(net, b)| b.minus(*net).plus(total) == expected)
        {
            return Some(expected);
        }
    }
    group_closing(rows)
}

/// [`group_closing`] read from the group as a set (see the module).
fn multiset_closing<A: Amount>(rows: &[(A, A)]) -> Option<A> {
    let total = rows.iter().fold(A::ZERO, |a, (net, _)| a.plus(*net));
    let lowest = rows.iter().map(|(_, b)| *b).min()?;
    rows.iter()
        .map(|(net, b)| b.minus(*net).plus(total))
        .filter(|c| rows.iter().any(|(_, b)| b == c))
        .min()
        .or(Some(lowest))
}

/// The group's opening balance: its closing balance minus its movement.
pub(crate) fn group_opening<A: Amount>(rows: &[(A, A)]) -> Option<A> {
    let total = rows.iter().fold(A::ZERO, |a, (net, _)| a.plus(*net));
    group_closing(rows).map(|c| c.minus(total))
}

/// The closing balance of `t`, a row alone at its completion time that prints a balance:
/// [`group_closing`] of its `(net movement, balance)`, without the subtraction when its amounts
/// have its balance's scale (most rows: a difference of two amounts of one scale has that
/// scale, so the movement's scale is the balance's and the row closes on its balance).
fn alone_closing<A: Amount>(t: &Transaction) -> Option<A> {
    let b = t.balance?;
    if t.paid_in.scale() == b.scale() && t.withdrawn.scale() == b.scale() {
        return Some(A::of(b));
    }
    group_closing(&[(net_of::<A>(t), A::of(b))])
}

/// Printed end-of-day balances for every day from `first` to `last`, or `None` when no row
/// prints a balance. `rows` may be in any order; in time order (a report's reading order) they
/// are grouped in one pass.
pub fn daily_balances(
    rows: &[&Transaction],
    first: NaiveDate,
    last: NaiveDate,
) -> Option<Vec<Decimal>> {
    daily_balances_in(rows, first, last)
}

/// [`daily_balances`] in the arithmetic `A` (see [`crate::amount`]).
pub(crate) fn daily_balances_in<A: Amount>(
    rows: &[&Transaction],
    first: NaiveDate,
    last: NaiveDate,
) -> Option<Vec<A>> {
    // The rows that print a balance, grouped by time by a stable sort. (A copy of every row's
    // time, movement and balance, 48 bytes each, and the movement's subtraction were half of
    // this function's time on 5,000 rows; rows alone at their time need neither.)
    let mut printed: Vec<&Transaction> = Vec::with_capacity(rows.len());
    printed.extend(rows.iter().copied().filter(|t| t.balance.is_some()));
    crate::order::sort_stable_by_key(&mut printed, |t| t.completed_at);
    let first_group = printed
        .chunk_by(|a, b| a.completed_at == b.completed_at)
        .next()?;
    let mut group: Vec<(A, A)> = Vec::new();
    let mut current = group_opening(read_group(first_group, &mut group))?;
    // A day closes on its last group's closing, so only the last group of each day is read
    // (groups dated before `first` are not read at all): one group a day instead of one a
    // completion time (the closings of every group were 190 instructions a row, `callgrind`,
    // 2026-11-27).
    let days = usize::try_from((last - first).num_days() + 1).unwrap_or(0);
    let mut balances = Vec::with_capacity(days);
    let mut day = first;
    let mut at = 0;
    while day <= last {
        // The rows of `day` (earlier ones are passed over), by a scan: the rows are in time
        // order, and a binary search per day missed the cache at every probe.
        while printed.get(at).is_some_and(|t| t.completed_at.date() < day) {
            at += 1;
        }
        let mut end = at;
        while printed
            .get(end)
            .is_some_and(|t| t.completed_at.date() == day)
        {
            end += 1;
        }
        if end > at {
            let last_row = printed[end - 1];
            let shared = same_time_before(&printed, end - 1);
            let closing = if shared > 0 {
                // The running balance at the group's end: the previous closing and the day's
                // movements (the rows that print a balance; a row that prints none moved money
                // the chain does not show, and the expectation then matches no printed balance).
                let moved = printed[at..end]
                    .iter()
                    .fold(A::ZERO, |a, t| a.plus(net_of::<A>(t)));
                let rows = read_group(&printed[end - 1 - shared..end], &mut group);
                group_closing_from(rows, current.plus(moved))
            } else {
                alone_closing(last_row)
            };
            if let Some(c) = closing {
                current = c;
            }
            at = end;
        }
        balances.push(current);
        match day.succ_opt() {
            Some(next) => day = next,
            None => break,
        }
    }
    Some(balances)
}

/// The sum of every account's end-of-day balances ([`daily_balances_in`] of the rows of it the
/// features count, [`super::counted`]) for every day from `first` to `last`; `None` when an
/// account prints no balance.
fn accounts_daily_balances_in<A: Amount>(
    accounts: &[Vec<&Transaction>],
    first: NaiveDate,
    last: NaiveDate,
) -> Option<Vec<A>> {
    let mut total: Option<Vec<A>> = None;
    for account in accounts {
        let days = daily_balances_in::<A>(&super::counted(account), first, last)?;
        total = Some(match total {
            None => days,
            Some(sum) => sum.iter().zip(&days).map(|(a, b)| a.plus(*b)).collect(),
        });
    }
    total
}

/// The `(net movement, balance)` of `rows` (which print a balance), sorted, in `group`.
fn read_group<'g, A: Amount>(rows: &[&Transaction], group: &'g mut Vec<(A, A)>) -> &'g [(A, A)] {
    group.clear();
    group.extend(
        rows.iter()
            .filter_map(|t| Some((net_of(t), A::of(t.balance?)))),
    );
    group.sort_unstable();
    group
}

/// How many rows before `end` share `rows[end]`'s completion time.
fn same_time_before(rows: &[&Transaction], end: usize) -> usize {
    let at = rows[end].completed_at;
    rows[..end]
        .iter()
        .rev()
        .take_while(|t| t.completed_at == at)
        .count()
}

/// The amount owed on each day from `first` to `last`, from the per-day changes of the credit
/// ledgers (never below zero).
pub fn daily_owed(
    changes: &BTreeMap<NaiveDate, Decimal>,
    first: NaiveDate,
    last: NaiveDate,
) -> Vec<Decimal> {
    daily_owed_in(changes, first, last)
}

/// [`daily_owed`] in the arithmetic `A` (see [`crate::amount`]).
pub(crate) fn daily_owed_in<A: Amount>(
    changes: &BTreeMap<NaiveDate, Decimal>,
    first: NaiveDate,
    last: NaiveDate,
) -> Vec<A> {
    let mut owed = A::ZERO;
    let mut out = Vec::new();
    let mut day = first;
    while day <= last {
        if let Some(c) = changes.get(&day) {
            owed = owed.plus(A::of(*c)).at_least(A::ZERO);
        }
        out.push(owed);
        match day.succ_opt() {
            Some(next) => day = next,
            None => break,
        }
    }
    out
}

/// Balance figures; every field `None` (and 0 days) without printed balances.
pub(super) struct Balances {
    pub(super) average: Option<Decimal>,
    pub(super) average_net: Option<Decimal>,
    pub(super) minimum_net: Option<Decimal>,
    pub(super) days_near_zero: u32,
    pub(super) near_zero_share: Option<Decimal>,
    pub(super) buffer_days: Option<Decimal>,
}

/// The balance figures of the completed `rows` (in reading order) over the days `first` ..=
/// `last`, in the arithmetic `A`: the printed end-of-day balances, the same net of what is
/// owed to Fuliza and lenders (`owed`), the days below `near_zero_balance`, and the days of
/// `spending` the average net balance would pay for (at most [`MAX_BUFFER_DAYS`]).
///
/// When `accounts` is not empty (an application's rows, [`crate::statement::Reading::accounts`]),
/// a day's printed balance is the sum of every account's end-of-day balance (each read from its
/// own completed rows, copies once, as `rows` are), and `None` when an account prints none.
pub(super) fn balance_figures<A: Amount>(
    rows: &[&Transaction],
    accounts: &[Vec<&Transaction>],
    first: NaiveDate,
    last: NaiveDate,
    spending: Decimal,
    owed: &Credit,
    near_zero_balance: Decimal,
) -> Balances {
    let printed = if accounts.is_empty() {
        daily_balances_in::<A>(rows, first, last)
    } else {
        accounts_daily_balances_in::<A>(accounts, first, last)
    }
    .unwrap_or_default();
    let owed = daily_owed_in::<A>(&owed.owed_change_by_day, first, last);
    let net: Vec<A> = printed
        .iter()
        .zip(owed.iter().chain(std::iter::repeat(&A::ZERO)))
        .map(|(b, o)| b.minus(*o))
        .collect();
    let days = Decimal::from(printed.len());
    let total = |values: &[A]| values.iter().fold(A::ZERO, |s, v| s.plus(*v)).decimal();
    let average = ratio(total(&printed), days);
    let average_net = ratio(total(&net), days);
    let near_zero = A::of(near_zero_balance);
    let days_near_zero = count(net.iter().filter(|v| **v < near_zero).count());
    let buffer_days = average_net.map(|avg| match ratio(spending, days) {
        _ if avg <= Decimal::ZERO => Decimal::ZERO,
        Some(daily) if daily > Decimal::ZERO => ratio(avg, daily)
            .unwrap_or(MAX_BUFFER_DAYS)
            .min(MAX_BUFFER_DAYS),
        _ => MAX_BUFFER_DAYS,
    });
    Balances {
        average,
        average_net,
        minimum_net: net.iter().min().map(|v| v.decimal()),
        days_near_zero,
        near_zero_share: ratio(Decimal::from(days_near_zero), days),
        buffer_days,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rust_decimal_macros::dec;

    /// The end-of-day balances as first written: the closing of every group of rows that
    /// share a time, oldest first, and each day the closing of its last group.
    fn every_group_closing(
        rows: &[&Transaction],
        first: NaiveDate,
        last: NaiveDate,
    ) -> Option<Vec<Decimal>> {
        let mut printed: Vec<&Transaction> = rows
            .iter()
            .copied()
            .filter(|t| t.balance.is_some())
            .collect();
        printed.sort_by_key(|t| t.completed_at);
        let mut closings: Vec<(NaiveDate, Decimal)> = Vec::new();
        let mut opening = None;
        for same_time in printed.chunk_by(|a, b| a.completed_at == b.completed_at) {
            let mut group: Vec<(Decimal, Decimal)> = same_time
                .iter()
                .filter_map(|t| Some((t.paid_in - t.withdrawn, t.balance?)))
                .collect();
            group.sort_unstable();
            if opening.is_none() {
                opening = group_opening(&group);
            }
            let expected = closings
                .last()
                .map(|(_, c)| *c)
                .or(opening)
                .map(|c| c + group.iter().map(|(net, _)| *net).sum::<Decimal>());
            let closing = match expected {
                Some(e) => group_closing_from(&group, e),
                None => group_closing(&group),
            };
            if let Some(c) = closing {
                closings.push((same_time[0].completed_at.date(), c));
            }
        }
        let mut current = opening?;
        let mut balances = Vec::new();
        let mut day = first;
        while day <= last {
            for (d, c) in &closings {
                if *d == day {
                    current = *c;
                }
            }
            balances.push(current);
            day = day.succ_opt()?;
        }
        Some(balances)
    }

    /// Rows on a few days and times (so that rows share times and days), amounts of two places
    /// or of other scales, some without a balance.
    fn rows() -> impl Strategy<Value = Vec<Transaction>> {
        prop::collection::vec(
            (
                0u32..6,
                0u32..3,
                0i64..300,
                0i64..300,
                prop::option::weighted(0.8, -500i64..500),
                0u32..4,
            ),
            0..30,
        )
        .prop_map(|rows| {
            rows.into_iter()
                .map(|(day, second, paid_in, withdrawn, balance, scale)| {
                    let scale = if scale == 3 { 1 } else { 2 };
                    let mut t = crate::statement::completed_row(
                        Decimal::new(paid_in, scale),
                        Decimal::new(withdrawn, 2),
                        Decimal::ZERO,
                    );
                    t.balance = balance.map(|b| Decimal::new(b, 2));
                    t.completed_at = NaiveDate::from_ymd_opt(2024, 1, 2 + day)
                        .and_then(|d| d.and_hms_opt(9, 0, second))
                        .unwrap_or_default();
                    t
                })
                .collect()
        })
    }

    proptest! {
        /// Reading only each day's last group gives what reading every group gives, for rows in
        /// any order and days that start before or after the rows.
        #[test]
        fn each_day_closes_on_its_last_group(rows in rows(), from in 0u32..8, length in 0u32..8) {
            let refs: Vec<&Transaction> = rows.iter().collect();
            let first = NaiveDate::from_ymd_opt(2024, 1, 1 + from).unwrap_or_default();
            let last = first + chrono::Duration::days(i64::from(length));
            let text = |b: Option<Vec<Decimal>>| format!("{b:?}");
            prop_assert_eq!(
                text(daily_balances(&refs, first, last)),
                text(every_group_closing(&refs, first, last))
            );
        }
    }

    #[test]
    fn rows_sharing_a_time_close_on_the_consistent_balance() {
        // A payment and its charge at the same second, printed in either order.
        let pay = (dec!(-100), dec!(900));
        let charge = (dec!(-7), dec!(893));
        assert_eq!(group_closing(&[pay, charge]), Some(dec!(893)));
        assert_eq!(group_closing(&[charge, pay]), Some(dec!(893)));
        // Inconsistent printed balances: the cautious lowest.
        assert_eq!(
            group_closing(&[(dec!(-1), dec!(500)), (dec!(-1), dec!(700))]),
            Some(dec!(500))
        );
        assert_eq!(
            group_opening(&[(dec!(-7), dec!(993)), (dec!(-100), dec!(893))]),
            Some(dec!(1000))
        );
    }

    proptest::proptest! {
        /// A row alone at its time closes as the group's set reading closes it, scale and all
        /// (small balances, so that zero, whose scale the sums change, comes up often).
        #[test]
        fn a_row_alone_closes_as_its_group_does(
            net in -10_000i64..10_000,
            balance in -5i64..5,
            scales in (0u32..4, 0u32..4),
        ) {
            let row = [(Decimal::new(net, scales.0), Decimal::new(balance, scales.1))];
            let text = |c: Option<Decimal>| c.map(|c| c.to_string());
            proptest::prop_assert_eq!(text(group_closing(&row)), text(multiset_closing(&row)));
        }
    }

    proptest::proptest! {
        /// A row alone at its time closes as [`group_closing`] closes its movement and balance,
        /// scale and all, whether or not its amounts share the balance's scale.
        #[test]
        fn alone_closing_is_the_group_closing(
            paid_in in 0i64..10_000,
            withdrawn in 0i64..10_000,
            balance in -5i64..5,
            scales in (0u32..4, 0u32..4, 0u32..4),
        ) {
            let t = crate::statement::completed_row(
                Decimal::new(paid_in, scales.0),
                Decimal::new(withdrawn, scales.1),
                Decimal::new(balance, scales.2),
            );
            let b = Decimal::new(balance, scales.2);
            let text = |c: Option<Decimal>| c.map(|c| c.to_string());
            let row = [(t.paid_in.saturating_sub(t.withdrawn), b)];
            proptest::prop_assert_eq!(text(alone_closing(&t)), text(group_closing(&row)));
        }
    }

    #[test]
    fn owed_never_goes_below_zero() {
        let d = |n| NaiveDate::from_ymd_opt(2024, 1, n).unwrap_or_default();
        let changes = BTreeMap::from([(d(2), dec!(100)), (d(3), dec!(-150)), (d(4), dec!(20))]);
        assert_eq!(
            daily_owed(&changes, d(1), d(5)),
            [dec!(0), dec!(100), dec!(0), dec!(20), dec!(20)]
        );
    }
}
