//! What the order of a group's rows shows (see [`super`]): where a group ends when its rows
//! chain in some order, which balances its rows reach from a row's own (rows that provably
//! came after it), the charge a charge row printing 0 shows, and whether a withdrawal's charge
//! row follows it.

use rust_decimal::Decimal;

use super::{Reading, principal, wants_charge_row};
use crate::Category;
use crate::statement::Transaction;

/// Where a `group` ends when its moving rows (not printing 0) chain in some order from a
/// balance other than the running `balance`, and not from it: the last balance of that order.
/// Such a group prints the running balance plus its net only by chance, a movement without a
/// row before it being the same as one of its own rows (the sample's withdrawal charge of 1.84
/// taken beside a row printing 0, then a withdrawal of 50 and its charge row of 1.84: the
/// withdrawal prints the running balance less both). `None` where they chain from `balance`, or
/// from no balance, or hold more than six moving rows.
pub(in crate::check) fn end_in_order(group: &[&Transaction], balance: Decimal) -> Option<Decimal> {
    let movers = movers(group, &[], &[], Transaction::net);
    if movers.is_empty() || movers.len() > 6 || in_some_order(&movers, 0, balance) {
        return None;
    }
    chained_end(&movers)
}

/// Where a `group` read with no balance before it (the statement's first) ends when its moving
/// rows (not printing 0) chain in some order from the balance before one of them: the last
/// balance of that order (the rows of a send and its two charge rows listed in any order end on
/// the balance the last charge prints). `None` where they chain in no order, or hold more than
/// six moving rows.
pub(in crate::check) fn first_end(group: &[&Transaction]) -> Option<Decimal> {
    let movers = movers(group, &[], &[], Transaction::net);
    if movers.is_empty() || movers.len() > 6 {
        return None;
    }
    chained_end(&movers)
}

/// The balance the `movers` (net, printed balance) end on when they chain in some order from the
/// balance before one of them.
fn chained_end(movers: &[(Decimal, Option<Decimal>)]) -> Option<Decimal> {
    let net: Decimal = movers.iter().map(|(n, _)| *n).sum();
    movers
        .iter()
        .filter_map(|&(n, b)| b.map(|b| b - n))
        .find(|&start| in_some_order(movers, 0, start))
        .map(|start| start + net)
}

/// Where a `group` that does not chain from the running `balance` ends when all its moving rows
/// (not printing 0) but one chain in some order from it and that one prints a balance: there,
/// the balance the row that broke the chain prints (it came last: the sample's send of 102.01
/// printing the running balance less it, then its charge row of 4.02 falling by 7.09, a
/// second charge taken with it). `None` where no such row is one alone, or the group holds more
/// than six moving rows.
pub(in crate::check) fn broke_last(group: &[&Transaction], balance: Decimal) -> Option<Decimal> {
    let movers = movers(group, &[], &[], Transaction::net);
    if movers.len() < 2 || movers.len() > 6 {
        return None;
    }
    // Row `i` marked used from the start: the others chain from `balance` without it.
    let mut ends = (0..movers.len()).filter_map(|i| {
        movers[i]
            .1
            .filter(|_| in_some_order(&movers, 1 << i, balance))
    });
    match (ends.next(), ends.next()) {
        (Some(end), None) => Some(end),
        _ => None,
    }
}

/// Whether the `movers` (net, printed balance) not yet `used` (a bit each) can follow `balance`
/// in some order, each printing the balance reached after it.
pub(super) fn in_some_order(
    movers: &[(Decimal, Option<Decimal>)],
    used: u8,
    balance: Decimal,
) -> bool {
    if usize::try_from(used.count_ones()).is_ok_and(|n| n == movers.len()) {
        return true;
    }
    movers.iter().enumerate().any(|(i, &(net, printed))| {
        let after = balance + net;
        used & (1 << i) == 0
            && printed.is_none_or(|p| p == after)
            && in_some_order(movers, used | (1 << i), after)
    })
}

/// The charge, signed as it moved the balance, that a charge row `t` of a `group` printing 0
/// shows: its balance is no other row's, and is another row's that moves plus or less a charge
/// the statement prints (`charges`: a receipt's withdrawal charge paid by its sender, credited
/// after it; Vodacom's "Customer Transfer of Funds with withdrawal Charge paid From …"). A row
/// printing 0 beside another row's balance, or another account's, shows none.
pub(super) fn charge_shown(
    group: &[&Transaction],
    t: &Transaction,
    charges: &[Decimal],
) -> Option<Decimal> {
    let b = t
        .balance
        .filter(|_| t.category == Category::Charges && t.net().is_zero())?;
    if beside_another_row(group, t) {
        return None;
    }
    group
        .iter()
        .filter(|u| !std::ptr::eq(**u, t))
        .filter(|g| !g.net().is_zero())
        .filter_map(|g| g.balance)
        .flat_map(|g| charges.iter().map(move |c| (g, *c)))
        .find_map(|(g, c)| [c, -c].into_iter().find(|c| b == g + c))
}

/// Whether row `t` of a `group` prints the balance another of its rows prints (a charge row
/// printing 0 there shows no charge of its own: [`charge_shown`]).
pub(in crate::check) fn beside_another_row(group: &[&Transaction], t: &Transaction) -> bool {
    t.balance.is_some()
        && group
            .iter()
            .any(|u| !std::ptr::eq(*u, t) && u.balance == t.balance)
}

/// The balances that the `rows` of a group (but `row`) reach from the balance `from`: `from`,
/// then each balance of a row that moved from one of them by its printed amount, or of a row
/// printing 0 beside one of them plus or less a charge the statement prints (`charges`: a
/// receipt, its sender-paid withdrawal charge credited, then a Fuliza repayment taken from
/// both). A row printing a balance reached from a row's balance provably came after that row.
pub(super) fn reached(
    rows: &[&Transaction],
    row: Option<&Transaction>,
    from: Decimal,
    charges: &[Decimal],
) -> Vec<Decimal> {
    let mut reached = vec![from];
    let mut grew = true;
    while grew {
        grew = false;
        for t in rows
            .iter()
            .filter(|t| row.is_none_or(|r| !std::ptr::eq(**t, r)))
        {
            let Some(b) = t.balance.filter(|b| !reached.contains(b)) else {
                continue;
            };
            let follows = if t.net().is_zero() {
                reached
                    .iter()
                    .any(|a| charges.iter().any(|c| b == a + c || b == a - c))
            } else {
                reached.contains(&(b - t.net()))
            };
            if follows {
                reached.push(b);
                grew = true;
            }
        }
    }
    reached
}

/// Whether row `t` of a `group` is a charge row that takes money: not a two-part payment's
/// principal.
pub(super) fn takes_charge(group: &[&Transaction], t: &Transaction) -> bool {
    t.category == Category::Charges
        && t.net() < Decimal::ZERO
        && !principal::paired_principal(group, t)
}

/// Whether a `group` holds an agent withdrawal that no charge row of it follows or comes just
/// before (a charge row printing the withdrawal's balance less its charge, or the balance the
/// withdrawal was taken from): its charge was taken without a row, even where the group prints
/// as many charge rows as withdrawals and sends (a send paying its recipient's withdrawal charge
/// prints two).
pub(super) fn withdrawal_unpaired(group: &[&Transaction]) -> bool {
    group.iter().any(|w| {
        w.category == Category::AgentWithdrawal
            && wants_charge_row(group, w)
            && w.balance.is_some_and(|b| {
                !group.iter().any(|c| {
                    takes_charge(group, c)
                        && (c.balance == Some(b + c.net()) || c.balance == Some(b - w.net()))
                })
            })
    })
}

/// Whether the group chains from `reading.before` once `row` is read as moving `moved`: in some
/// order, every row that moves (not left out by the reading, not printing 0) prints the balance
/// the group has reached after it. A units or cents digit counts only where it does (a digit
/// typed over, the balances left as they were, is the one thing wrong with the group); where it
/// does not, the group holds one of the wallet's own movements without a row (a charge taken
/// twice, another account's balance), and the digit may be part of it. Groups of more than six
/// moving rows are not ordered (never seen: a movement prints a few rows) and count as chaining.
/// A charge row printing 0 that shows its charge (`super::order::charge_shown`) moves by it.
pub(super) fn chains_once_read(
    rows: &[&Transaction],
    reading: &Reading<'_>,
    row: &Transaction,
    moved: Decimal,
    charges: &[Decimal],
) -> bool {
    let movers = movers(rows, reading.skip, charges, |t| {
        if std::ptr::eq(t, row) { moved } else { t.net() }
    });
    movers.len() > 6 || in_some_order(&movers, 0, reading.before)
}

/// Up to this many moving rows [`in_order`] orders: a search over the sets of rows taken,
/// each set tried once (the balance after a set is the same in every order), so at most
/// 2^12 × 12 steps.
const ORDERED: usize = 12;

/// Whether the rows of a `group` chain in some order from `before`, each row that moves printing
/// the balance reached after it (a row with a levy: or that balance before its levy was taken,
/// MTN Ghana's `levy_after_balance`): a group whose last balance agrees can still print an
/// edited balance before it (a digit of a balance typed over, in a group or among rows settled
/// out of order). Not held to its own balance: a row printing 0, a row whose balance before and
/// after do not differ by its amount (another account's balances), and a row printing the same
/// balance as another row of the group (both printed after the two moved). Groups of more
/// than [`ORDERED`] moving rows are not ordered (true). `reading`: a row of the group read as
/// printing another balance (a digit of its balance typed back,
/// [`crate::check::typed_balance`]).
pub(in crate::check) fn in_order(
    group: &[&Transaction],
    before: Decimal,
    reading: Option<(&Transaction, Decimal)>,
) -> bool {
    let moving: Vec<&Transaction> = group
        .iter()
        .copied()
        .filter(|t| !t.net().is_zero())
        .collect();
    let printed = |t: &Transaction| match reading {
        Some((row, balance)) if std::ptr::eq(row, t) => Some(balance),
        _ if own_balances_disagree(t) || beside_another_row(&moving, t) => None,
        _ => t.balance,
    };
    let movers: Vec<(Decimal, Option<Decimal>, Decimal)> = moving
        .iter()
        .map(|t| (t.net(), printed(t), t.tax.unwrap_or_default()))
        .collect();
    if movers.len() > ORDERED {
        return true;
    }
    let mut dead = vec![false; 1 << movers.len()];
    ordered(&movers, 0, before, &mut dead)
}

/// Whether the `movers` (net, printed balance, levy) not yet `used` (a bit each) follow
/// `balance` in some order, each printing the balance reached after it or, with a levy, that
/// balance with the levy left out; `dead` marks the sets already tried without success.
fn ordered(
    movers: &[(Decimal, Option<Decimal>, Decimal)],
    used: usize,
    balance: Decimal,
    dead: &mut [bool],
) -> bool {
    if used.count_ones() as usize == movers.len() {
        return true;
    }
    if dead[used] {
        return false;
    }
    for (i, &(net, printed, levy)) in movers.iter().enumerate() {
        let after = balance + net;
        if used & (1 << i) == 0
            && printed.is_none_or(|p| p == after || p == after + levy)
            && ordered(movers, used | (1 << i), after, dead)
        {
            return true;
        }
    }
    dead[used] = true;
    false
}

/// Whether row `t` prints a balance before and after that do not differ by its amount (its fee
/// included): the balances may be another account's (MTN's `XtraBalance` transfers).
pub(in crate::check) fn own_balances_disagree(t: &Transaction) -> bool {
    t.balance_before
        .zip(t.balance)
        .is_some_and(|(before, after)| after - before != t.net())
}

/// The balances row `t` of a `group` of at most six moving rows reaches in some order from
/// `before`: `before` plus its own amount and those of any of the group's other moving rows.
pub(in crate::check) fn reachable(
    group: &[&Transaction],
    before: Decimal,
    t: &Transaction,
) -> Vec<Decimal> {
    let others: Vec<Decimal> = group
        .iter()
        .filter(|u| !std::ptr::eq(**u, t) && !u.net().is_zero())
        .map(|u| u.net())
        .collect();
    if others.len() > 5 {
        return Vec::new();
    }
    (0..1usize << others.len())
        .map(|set| {
            others
                .iter()
                .enumerate()
                .filter(|(i, _)| set & (1 << i) != 0)
                .map(|(_, n)| *n)
                .sum::<Decimal>()
                + before
                + t.net()
        })
        .collect()
}

/// Whether a `group` chained from `before` to `end`: in some order, every row that moves (a
/// charge row printing 0 by the charge it shows, [`charge_shown`]) prints the balance reached
/// after it, and the last reaches `end`. Groups of more than six moving rows are not ordered.
pub(in crate::check) fn chained(
    group: &[&Transaction],
    before: Decimal,
    end: Decimal,
    charges: &[Decimal],
) -> bool {
    let movers = movers(group, &[], charges, Transaction::net);
    movers.len() <= 6
        && before + movers.iter().map(|(n, _)| *n).sum::<Decimal>() == end
        && in_some_order(&movers, 0, before)
}

/// The rows of a group that move, but those at the indices `skip`, as (net, printed balance):
/// each row not printing 0 by `net(row)`, and each charge row printing 0 that shows its charge
/// ([`charge_shown`]) by that charge.
fn movers(
    rows: &[&Transaction],
    skip: &[usize],
    charges: &[Decimal],
    net: impl Fn(&Transaction) -> Decimal,
) -> Vec<(Decimal, Option<Decimal>)> {
    let kept = || {
        rows.iter()
            .enumerate()
            .filter(|(i, _)| !skip.contains(i))
            .map(|(_, t)| *t)
    };
    kept()
        .filter(|t| !t.net().is_zero())
        .map(|t| (net(t), t.balance))
        .chain(kept().filter_map(|t| charge_shown(rows, t, charges).map(|c| (c, t.balance))))
        .collect()
}
