//! Where a group of the listed chain ends, and where the chain goes on after it (see
//! [`super`]): the balance the next group chains from, rows that settled out of order, a
//! charge row that moved the balance by itself, a row printing another account's balances, a
//! balance typed over that the next group goes on past.

use rust_decimal::Decimal;

use super::typed_over::{self, Silent, beside_another_row, small_charge};
use super::{Rules, group_end};
use crate::Category;
use crate::check::typed_balance::TypedBalance;
use crate::statement::Transaction;

/// Whether `t`, a charge row below ten units of a `group`, moved the balance by itself: it
/// prints a balance no other row of the group prints (a send's charge row that fell by a second
/// charge without a row: the sample's 2.78 row falling by 4.51). A group chaining without it is
/// then a break, not a row that did not move the balance: a two-part payment's principal, a
/// charge row of ten units or more, prints its total's balance.
pub(super) fn moved_alone(group: &[&Transaction], t: &Transaction) -> bool {
    small_charge(t) && !beside_another_row(group, t)
}

/// Where the chain goes on after the group `rows[start..end]`, whose end is in doubt (it did
/// not chain, or the next group does not chain from where it did): the printed balance of one
/// of its rows (its last first) from which the next group chains, when one does. Rows of one
/// group are listed in any order, and a group that moved by more or less than it prints (a
/// charge taken without its row, a row printing 0) ends on the balance its last movement
/// printed, not always its last row's: one break, not a break on every group after.
pub(super) fn resume(
    rows: &[&Transaction],
    start: usize,
    end: usize,
    rules: Rules,
) -> Option<Decimal> {
    rows[start..end]
        .iter()
        .rev()
        .filter_map(|t| t.balance)
        .find(|b| chains_from(rows, end, *b, rules))
}

/// The balance the last row of a `group` that moves prints, else its last row's: a row printing
/// 0 may print another account's balance (Vodacom Lesotho's charge rows printing 0 beside a
/// balance of 72,238.63), which the chain does not go on from unless the next group chains
/// from it ([`resume`]).
pub(super) fn last_moved(group: &[&Transaction]) -> Option<Decimal> {
    group
        .iter()
        .rev()
        .find(|t| !t.net().is_zero())
        .or(group.last())
        .and_then(|t| t.balance)
}

/// Whether the group starting at `rows[end]` chains from `balance` (false when there is none):
/// with all its rows or, where breaks are no evidence, without a two-part payment's principal
/// (a charge row of ten units or more printing the balance another debit of the group prints:
/// it does not move the balance). `typed_over::principal::two_part_readings` reads principals
/// for the digit check and also asks that the debit allow the principal, leaving every paired
/// principal out at once; reading the next group by it here would change which groups the
/// chain reports as `row_not_moving_balance`, so the two stay apart.
pub(super) fn chains_from(
    rows: &[&Transaction],
    end: usize,
    balance: Decimal,
    rules: Rules,
) -> bool {
    let next = next_group(rows, end, rules);
    let net: Decimal = next.iter().map(|t| t.net()).sum();
    let principal = |p: &&&Transaction| {
        !rules.breaks_are_evidence
            && p.category == Category::Charges
            && p.withdrawn >= Decimal::TEN
            && next
                .iter()
                .any(|t| !std::ptr::eq(*t, **p) && t.net() < p.net() && t.balance == p.balance)
    };
    std::iter::once(Decimal::ZERO)
        .chain(next.iter().filter(principal).map(|p| p.net()))
        .any(|left_out| {
            next.iter()
                .any(|t| t.balance == Some(balance + net - left_out))
        })
}

/// The group `rows[start..end]` read with the groups that follow it within the wallet's
/// `settle_seconds` of its last row: the balance after them and the end of the last group
/// taken, when the running `balance` plus their net is printed by one of them, or, where the
/// group before took or credited a withdrawal charge without a row that the printed tariff
/// bounds, is off a balance the group itself prints by a charge within those bounds
/// ([`Silent::off_by_band`]: a withdrawal without its charge row, then a debit printing the
/// balance after a receipt settled first): the chain goes on from that printed balance (where
/// more than one is, the one the group's rows end on in order). Not a
/// balance only a later group prints: the group alone may be off by such a charge, and two
/// charges taken without a row may add up to one within the bounds (a review's shape).
pub(super) fn settle(
    rows: &[&Transaction],
    start: usize,
    end: usize,
    balance: Decimal,
    rules: Rules,
    silent: &Silent,
) -> Option<(Decimal, usize)> {
    let mut through = end;
    let mut net: Decimal = rows[start..end].iter().map(|t| t.net()).sum();
    while through < rows.len()
        && (rows[through].completed_at - rows[through - 1].completed_at).num_seconds()
            <= rules.settle_seconds
    {
        let next = group_end(rows, through, rules.group_seconds);
        net += rows[through..next].iter().map(|t| t.net()).sum::<Decimal>();
        through = next;
        let expected = balance + net;
        // Together they end on the balance the one that settled last prints (a debit printed
        // before a credit that settled first prints the sum of both): the order they settled
        // in is theirs, the sum is the chain's. Where breaks are evidence, in that order each
        // prints the balance it reached: else one of them is a balance typed over.
        let window = &rows[start..through];
        if window.iter().any(|t| t.balance == Some(expected))
            && (if rules.breaks_are_evidence {
                typed_over::in_order(window, balance, None)
            } else {
                each_reached(window, balance)
            })
        {
            return Some((expected, through));
        }
        // Where more than one balance of the group is off by such a charge, the one its rows
        // end on in the order they chain (a withdrawal listed before its charge row).
        let off: Vec<Decimal> = rows[start..end]
            .iter()
            .filter_map(|t| t.balance)
            .filter(|b| !rules.breaks_are_evidence && silent.off_by_band(expected - *b))
            .collect();
        let printed = match off[..] {
            [one] => Some(one),
            [] => None,
            _ => typed_over::first_end(&rows[start..end]).filter(|e| off.contains(e)),
        };
        if let Some(printed) = printed {
            return Some((printed, through));
        }
    }
    None
}

/// Whether every moving row of a `window` of rows read together as settled out of order prints
/// a balance some order of them reaches from the running `balance` (a row printing 0 prints
/// anything: Vodacom Lesotho's): a row printing a balance no order reaches did not settle
/// there (Vodacom's own settled rows print the balance after both, or the one they reached
/// first; an overdraft draw typed from 2.00 to 4.00 beside a paybill of 2.00 printing 0.00,
/// the statement's last row, read as settled: 0.00 less 2.00 is no balance either prints).
/// A window of more than six moving rows is not ordered.
fn each_reached(window: &[&Transaction], balance: Decimal) -> bool {
    let moving = window.iter().filter(|t| !t.net().is_zero()).count();
    moving > 6
        || window.iter().filter(|t| !t.net().is_zero()).all(|t| {
            t.balance
                .is_none_or(|b| typed_over::reachable(window, balance, t).contains(&b))
        })
}

/// A row of a `group` read from the running `balance` whose own printed balances do not differ
/// by its amount (its fee included): another account's balances (MTN's `XtraBalance`
/// transfers print the other account's before, after or both). Not where its balance before
/// is the holder's (the running balance, or one another row of the group prints) and its
/// balance after is one digit away from that balance plus its amount: a balance typed over
/// (issue 50).
pub(super) fn foreign_balances(group: &[&Transaction], t: &Transaction, balance: Decimal) -> bool {
    let Some(before) = t
        .balance_before
        .filter(|_| typed_over::own_balances_disagree(t))
    else {
        return false;
    };
    let holders = before == balance || group.iter().any(|u| u.balance == Some(before));
    !(holders && TypedBalance::of(t, before + t.net()).is_some())
}

/// Where the statement's first group `rows[start..end]`, ending on `balance`, ends once the group
/// after it is taken with it: when that group completed within the wallet's `settle_seconds`, does
/// not chain from `balance`, and its rows, chained in order, end on the balance before the first
/// group (`balance` less the first group's net): it settled first (a receipt completed seconds
/// after a withdrawal whose balance already holds it). Nothing before shows that balance, so its
/// amount is not read. A group that chains from `balance` is read as it chains (a receipt of the
/// first group's outflow, refunded in order, ends on that balance too).
pub(super) fn settled_first(
    rows: &[&Transaction],
    start: usize,
    end: usize,
    balance: Decimal,
    rules: Rules,
) -> Option<usize> {
    let gap = (rows.get(end)?.completed_at - rows[end - 1].completed_at).num_seconds();
    let through = group_end(rows, end, rules.group_seconds);
    let net: Decimal = rows[start..end].iter().map(|t| t.net()).sum();
    (gap <= rules.settle_seconds
        && !chains_from(rows, end, balance, rules)
        && typed_over::first_end(&rows[end..through]).is_some_and(|e| e + net == balance))
    .then_some(through)
}

/// The balance of the group `rows[start..end]` (its last first, not `expected`) from which the
/// next group, read with the rows that settle with it ([`settle`], with no charge of the group
/// before it left unbounded), chains, where from `expected` it does not.
pub(super) fn settles_from(
    rows: &[&Transaction],
    start: usize,
    end: usize,
    expected: Decimal,
    rules: Rules,
) -> Option<Decimal> {
    if end >= rows.len() {
        return None;
    }
    let next_end = group_end(rows, end, rules.group_seconds);
    let none = Silent::default();
    let settles = |b: Decimal| settle(rows, end, next_end, b, rules, &none).is_some();
    if settles(expected) {
        return None;
    }
    rows[start..end]
        .iter()
        .rev()
        .filter_map(|t| t.balance)
        .find(|b| *b != expected && settles(*b))
}

/// The row of the group `rows[start..end]` (read from the running `balance`) whose balance is
/// one digit away from the running balance plus the group's net, the group chaining in order
/// once it is typed back, with the next group going on from that sum (in order, where breaks
/// are evidence; or none after it there) and from no balance the group prints: a digit of the
/// balance typed over, not an amount (an amount typed over leaves the next group going on from
/// the printed balance). Where breaks are no evidence (`silent`: the group read before), see
/// the guards in [`super`]'s `balance_digit_edited`.
pub(super) fn typed_before_next(
    rows: &[&Transaction],
    start: usize,
    end: usize,
    balance: Decimal,
    rules: Rules,
    silent: &Silent,
) -> Option<TypedBalance> {
    let group = &rows[start..end];
    let expected = balance + group.iter().map(|t| t.net()).sum::<Decimal>();
    let next = next_group(rows, end, rules);
    let goes_on = |b: Decimal| chains_from(rows, end, b, rules);
    // Where breaks are no evidence, a balance is read back only where the next group confirms
    // the balance the rows reach and every row of the group moved (a row printing 0 leaves an
    // amount unknown), and not where two of the wallet's own movements without a row may
    // cancel out there.
    let typed = (rules.breaks_are_evidence
        || (!next.is_empty() && group.iter().all(|t| !t.net().is_zero())))
        && (next.is_empty()
            || (goes_on(expected)
                && (!rules.breaks_are_evidence || typed_over::in_order(next, expected, None))
                && !group.iter().filter_map(|t| t.balance).any(goes_on)));
    let read = |t: &Transaction| {
        rules.breaks_are_evidence
            || t.balance
                .is_some_and(|b| gap_read(rows, start, end, rules, silent, t, b - expected))
    };
    typed
        .then(|| {
            TypedBalance::in_group(
                group,
                |t| if read(t) { vec![expected] } else { Vec::new() },
                |t, b| typed_over::in_order(group, balance, Some((t, b))),
            )
        })
        .flatten()
}

/// The group of rows starting at `rows[end]` (empty after the last row).
pub(super) fn next_group<'a, 'b>(
    rows: &'a [&'b Transaction],
    end: usize,
    rules: Rules,
) -> &'a [&'b Transaction] {
    let end = end.min(rows.len());
    &rows[end..group_end(rows, end, rules.group_seconds).min(rows.len())]
}

/// Whether, where breaks are no evidence, row `t` of the group `rows[start..end]` (`silent`: the
/// group read before), its printed balance `gap` away from a balance its rows reach, may be read
/// as a digit typed over: no two of the wallet's own movements without a row may cancel out
/// there ([`Silent::may_cancel`]) and the row prints no neighbour's balance
/// ([`neighbours_balance`]).
pub(super) fn gap_read(
    rows: &[&Transaction],
    start: usize,
    end: usize,
    rules: Rules,
    silent: &Silent,
    t: &Transaction,
    gap: Decimal,
) -> bool {
    !silent.may_cancel(&rows[start..end], gap) && !neighbours_balance(rows, end, rules, t, gap)
}

/// Whether row `t` of the group ending at `rows[end]`, its printed balance `gap` away from the
/// balance its rows reach, prints a neighbour's balance rather than a digit typed over: the
/// balance before its own movement (a gap undoing its amount: Vodacom Lesotho prints money in
/// as 0 beside the balance before it, its amount landing on the next group), or the balance
/// after the next group's movement (a gap of that group's net or of one of its rows' amounts,
/// as Safaricom's 2023 sample prints one balance). Read where breaks are no evidence. A
/// two-part payment's principal (`typed_over::paired_principal`: the payment's amount on a
/// `Pay Bill Charge` row beside the total, which alone moves the balance) moves nothing, so no
/// balance is printed after it: a deposit of 30 typed to 50 before a principal of 20.00 is
/// off by that principal's amount, not printed after it.
pub(super) fn neighbours_balance(
    rows: &[&Transaction],
    end: usize,
    rules: Rules,
    t: &Transaction,
    gap: Decimal,
) -> bool {
    let next = next_group(rows, end, rules);
    let moving = || {
        next.iter()
            .filter(|u| !typed_over::paired_principal(next, u))
    };
    let next_net: Decimal = moving().map(|u| u.net()).sum();
    gap == -t.net() || gap == next_net || moving().any(|u| u.net() == gap)
}

/// Whether the group `rows[start..end]`, where breaks are no evidence, is one moving row
/// printing a neighbour's balance ([`neighbours_balance`]) rather than `expected` (the running
/// balance plus its amount), the next group going on from `expected`: it chains from it, or its
/// first row prints it (the balance before that row's own movement: a run of such rows).
pub(super) fn printed_a_neighbours(
    rows: &[&Transaction],
    start: usize,
    end: usize,
    expected: Decimal,
    rules: Rules,
) -> bool {
    let [t] = &rows[start..end] else {
        return false;
    };
    !rules.breaks_are_evidence
        && !t.net().is_zero()
        && t.balance
            .is_some_and(|b| neighbours_balance(rows, end, rules, t, b - expected))
        && (chains_from(rows, end, expected, rules)
            || rows.get(end).and_then(|n| n.balance) == Some(expected))
}
