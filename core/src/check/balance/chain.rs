//! The chain's groups, read from multisets (see the parent module): each completion time's
//! rows that print a balance, where the group starts and where it may end, and the breaks
//! between one group and the next.

use std::ops::Range;

use smallvec::{SmallVec, smallvec};

use crate::amount::{Amount, net_of};
use crate::statement::Transaction;

/// A few balances: a group is one row in most statements, so one or two values stay inline
/// (no allocation per row).
pub(super) type Values<A> = SmallVec<[A; 2]>;

/// The balances of one completion time's rows, in the arithmetic `A` (see [`crate::amount`]).
pub(super) struct Group<'a, A> {
    pub(super) rows: &'a [&'a Transaction],
    /// Openings no closing of the group explains (sorted).
    pub(super) starts: Values<A>,
    /// Where the group may end, as a sorted set: its unconsumed closings, or any of its
    /// printed balances for a group whose rows return to where they started.
    pub(super) closings: Values<A>,
}

/// The rows that print a balance (in time order) and where each completion time's group of
/// them starts and ends. A group's balances are read in one pass over the groups, each
/// against the one before it, and read again for the few that a finding names: kept for every
/// group, ~110 bytes each, writing them was a third of the check's time on 5,000 rows
/// (`perf`, 2026-11-27).
pub(super) struct Groups<'a> {
    pub(super) printed: &'a [&'a Transaction],
    pub(super) spans: Vec<Range<usize>>,
}

impl<'a> Groups<'a> {
    pub(super) fn len(&self) -> usize {
        self.spans.len()
    }

    /// The rows of group `index`.
    pub(super) fn rows(&self, index: usize) -> &'a [&'a Transaction] {
        &self.printed[self.spans[index].clone()]
    }

    /// The time and receipts ([`super::when`]) of each group of `indexes`, for messages.
    pub(super) fn when_each(&self, indexes: impl Iterator<Item = usize>) -> Vec<String> {
        indexes.map(|index| super::when(self.rows(index))).collect()
    }
}

/// `a − b` on multisets, sorted; a value equal to several representations (`1.0`, `1.00`)
/// is written as its first in `a`.
pub(super) fn difference<A: Amount>(a: &[A], b: &[A]) -> Values<A> {
    // One value (a group of one row, most groups): no copies, no sort.
    if let [x] = a {
        return if b.contains(x) {
            Values::new()
        } else {
            smallvec![*x]
        };
    }
    // Two (a payment and its charge): the same, sorted by one comparison.
    if let [x, y] = a
        && b.len() <= FEW
    {
        // Stable: of two equal values the first stays first.
        let (x, y) = if y < x { (*y, *x) } else { (*x, *y) };
        let taken = |v: A| b.iter().filter(|w| **w == v).count();
        let mut out = Values::new();
        if x == y {
            out.extend(std::iter::repeat_n(x, 2usize.saturating_sub(taken(x))));
        } else {
            out.extend([x, y].into_iter().filter(|v| taken(*v) == 0));
        }
        return out;
    }
    // Of each run of equal values in sorted `a`, as many as `b` does not match remain, written
    // as the run's first. `b`'s matches are counted by a scan for a group of a few rows (a
    // payment and its charge), with no copy or sort of `b` (copying and sorting both sets was a
    // quarter of the check's time on 5,000 rows, 2026-11-26), and in a sorted copy beyond.
    let mut a: Values<A> = a.iter().copied().collect();
    a.sort(); // stable: the first of equal values stays first
    let sorted_b = (b.len() > FEW).then(|| {
        let mut b = b.to_vec();
        b.sort_unstable();
        b
    });
    let mut out = Values::new();
    for run in a.chunk_by(|x, y| x == y) {
        let value = run[0];
        let taken = match &sorted_b {
            None => b.iter().filter(|y| **y == value).count(),
            Some(b) => b.partition_point(|y| *y <= value) - b.partition_point(|y| *y < value),
        };
        out.extend(std::iter::repeat_n(value, run.len().saturating_sub(taken)));
    }
    out
}

/// Up to this many values of its second set [`difference`] counts matches by scanning them,
/// not in a sorted copy.
pub(super) const FEW: usize = 8;

/// The completed rows that print a balance, in the order of `by_time` (every row, in reading
/// order: [`crate::statement::reading_order`]).
pub(super) fn printed<'a>(by_time: &[&'a Transaction]) -> Vec<&'a Transaction> {
    by_time
        .iter()
        .copied()
        .filter(|t| t.is_completed() && t.balance.is_some())
        .collect()
}

/// `values` as a sorted set; of equal values (`1.0`, `1.00`) the last listed stays, as in a
/// `BTreeSet` collected from them.
pub(super) fn set_of<A: Amount>(mut values: Values<A>) -> Values<A> {
    values.sort();
    if values.windows(2).all(|w| w[0] != w[1]) {
        return values;
    }
    values
        .chunk_by(|x, y| x == y)
        .filter_map(|run| run.last().copied())
        .collect()
}

/// What one pass over the groups of `printed` finds: the groups, the breaks of the chain
/// between them, and the groups whose own rows do not chain.
pub(super) fn scan<'a, A: Amount>(
    printed: &'a [&'a Transaction],
) -> (Groups<'a>, Vec<Break<A>>, Vec<usize>) {
    // At most one group a row, reserved at once.
    let mut spans = Vec::with_capacity(printed.len());
    let mut breaks = Vec::new();
    let mut internal = Vec::new();
    let mut previous: Option<Group<'a, A>> = None;
    let mut start = 0;
    for (index, rows) in printed
        .chunk_by(|a, b| a.completed_at == b.completed_at)
        .enumerate()
    {
        spans.push(start..start + rows.len());
        start += rows.len();
        let next = group::<A>(rows);
        if let Some(previous) = &previous
            && let Some(gap) = break_between(previous, &next)
        {
            breaks.push(Break { index, gap });
        }
        if next.starts.len() > 1 {
            internal.push(index);
        }
        previous = Some(next);
    }
    (Groups { printed, spans }, breaks, internal)
}

/// The group of `rows`, which share a completion time (at least one row).
pub(super) fn group<'a, A: Amount>(rows: &'a [&'a Transaction]) -> Group<'a, A> {
    // A row alone at its time (most rows): it starts at its opening unless it moved nothing,
    // and closes on its balance, which is what the multisets of `multiset_group` give for one
    // row (a property test compares them) without their copies and sorts.
    if let [t] = rows
        && let Some(b) = t.balance
    {
        let b = A::of(b);
        let opening = b.minus(net_of(t));
        return Group {
            starts: if opening == b {
                Values::new()
            } else {
                smallvec![opening]
            },
            closings: smallvec![b],
            rows,
        };
    }
    multiset_group(rows)
}

/// The group of `rows` read as multisets of openings and closings (see the module).
pub(super) fn multiset_group<'a, A: Amount>(rows: &'a [&'a Transaction]) -> Group<'a, A> {
    let balances: Values<A> = rows.iter().filter_map(|t| t.balance).map(A::of).collect();
    let openings: Values<A> = rows
        .iter()
        .filter_map(|t| t.balance.map(|b| A::of(b).minus(net_of(t))))
        .collect();
    let starts = difference(&openings, &balances);
    let ends = difference(&balances, &openings);
    // Closings no opening of the group consumes, else every printed balance.
    let closings = set_of(if ends.is_empty() { balances } else { ends });
    Group {
        rows,
        starts,
        closings,
    }
}

/// A break of the chain going into group `index`.
pub(super) struct Break<A> {
    pub(super) index: usize,
    /// `start − previous end`, in the statement's currency, when both are single values.
    pub(super) gap: Option<A>,
}

/// `None` when `next` starts where `previous` ends; else the break's gap, `start − previous
/// end` when both are single values.
#[allow(clippy::option_option)] // no break, or a break of unknown size
pub(super) fn break_between<A: Amount>(
    previous: &Group<'_, A>,
    next: &Group<'_, A>,
) -> Option<Option<A>> {
    let closings = &previous.closings;
    let linked = if next.starts.is_empty() {
        next.rows
            .iter()
            .filter_map(|t| t.balance)
            .any(|b| closings.binary_search(&A::of(b)).is_ok())
    } else {
        next.starts
            .iter()
            .any(|s| closings.binary_search(s).is_ok())
    };
    if linked {
        return None;
    }
    Some(match (closings.len(), next.starts.as_slice()) {
        (1, [start]) => closings.first().map(|c| start.minus(*c)),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rust_decimal::Decimal;
    use std::collections::BTreeMap;

    /// The multiset difference by counting, as the check first computed it.
    fn counted(a: &[Decimal], b: &[Decimal]) -> Vec<Decimal> {
        let mut counts: BTreeMap<Decimal, i64> = BTreeMap::new();
        for x in a {
            *counts.entry(*x).or_default() += 1;
        }
        for x in b {
            *counts.entry(*x).or_default() -= 1;
        }
        counts
            .into_iter()
            .filter(|(_, n)| *n > 0)
            .flat_map(|(x, n)| std::iter::repeat_n(x, usize::try_from(n).unwrap_or(0)))
            .collect()
    }

    /// Small values at scales 1–3, so equal values with different representations meet.
    fn values() -> impl Strategy<Value = Vec<Decimal>> {
        values_of(0..7)
    }

    fn values_of(len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Decimal>> {
        proptest::collection::vec(
            (0i64..6, 1u32..4).prop_map(|(n, scale)| Decimal::new(n * 10i64.pow(scale - 1), scale)),
            len,
        )
    }

    proptest! {
        /// A row alone at its time gets the group the multisets give it, scales included.
        #[test]
        fn a_row_alone_is_the_group_the_multisets_give(
            (paid_in, withdrawn, balance) in (0i64..500, 0i64..500, -500i64..500),
            scales in (0u32..4, 0u32..4, 0u32..4),
        ) {
            let row = crate::statement::completed_row(
                Decimal::new(paid_in, scales.0),
                Decimal::new(withdrawn, scales.1),
                Decimal::new(balance, scales.2),
            );
            let rows = [&row];
            let texts = |v: &Values<Decimal>| v.iter().map(ToString::to_string).collect::<Vec<_>>();
            let (fast, slow) = (group(&rows), multiset_group(&rows));
            prop_assert_eq!(texts(&fast.starts), texts(&slow.starts));
            prop_assert_eq!(texts(&fast.closings), texts(&slow.closings));
        }

        #[test]
        fn difference_is_the_counted_multiset_difference(a in values(), b in values()) {
            let fast: Vec<String> = difference(&a, &b).iter().map(ToString::to_string).collect();
            let slow: Vec<String> = counted(&a, &b).iter().map(ToString::to_string).collect();
            prop_assert_eq!(fast, slow);
        }

        /// Beyond a few values (`b` sorted, not scanned), the same.
        #[test]
        fn a_long_difference_is_the_counted_multiset_difference(
            a in values_of(0..3 * FEW),
            b in values_of(FEW + 1..3 * FEW),
        ) {
            let fast: Vec<String> = difference(&a, &b).iter().map(ToString::to_string).collect();
            let slow: Vec<String> = counted(&a, &b).iter().map(ToString::to_string).collect();
            prop_assert_eq!(fast, slow);
        }

    }
}
