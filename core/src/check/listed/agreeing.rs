//! A group of the listed chain one of whose rows prints the running balance plus the group's
//! net (see [`super`]): where the chain goes on after it, and a balance typed over inside it.

use rust_decimal::Decimal;

use super::Rules;
use super::ends::{chains_from, gap_read, resume, settles_from};
use super::tallies::Tallies;
use super::typed_over::{self, Silent};
use crate::Category;
use crate::check::typed_balance::TypedBalance;
use crate::statement::Transaction;

/// [`super::step`] of a group `rows[start..end]` one of whose rows prints the running
/// `balance` plus the group's net.
pub(super) fn agreeing(
    rows: &[&Transaction],
    start: usize,
    end: usize,
    balance: Decimal,
    rules: Rules,
    silent: &Silent,
    tallies: &mut Tallies,
) -> (Decimal, usize) {
    let group = &rows[start..end];
    let at = group[0].completed_at;
    let expected = balance + group.iter().map(|t| t.net()).sum::<Decimal>();
    // Where breaks are evidence, each balance the group prints is one its rows reach in
    // some order: the last balance agreeing says nothing of a balance typed over before it.
    // A balance typed over there is read back by the one digit that makes them chain.
    // Where breaks are no evidence (Vodacom Lesotho: a charge taken twice, a withdrawal
    // printing the balance after its charge), a group out of order is the wallet's own; a
    // balance is read back there only where every row moved, no two of the wallet's own
    // movements without a row may be the gap nor is it a neighbour's balance (`gap_read`),
    // and where the next group goes on from the balance the rows reach and not from the one
    // printed (a group that ended elsewhere, by a charge taken without its row, may chain by
    // chance: the next group then goes on from a balance it prints).
    let next_goes_on = chains_from(rows, end, expected, rules);
    let moved = group.iter().all(|t| !t.net().is_zero()) && next_goes_on;
    if (rules.breaks_are_evidence || moved) && !typed_over::in_order(group, balance, None) {
        let read = |t: &Transaction, b: Decimal| {
            rules.breaks_are_evidence
                || t.balance.is_some_and(|p| {
                    gap_read(rows, start, end, rules, silent, t, p - b)
                        && !chains_from(rows, end, p, rules)
                })
        };
        let typed = TypedBalance::in_group(
            group,
            |t| {
                let mut reach = typed_over::reachable(group, balance, t);
                reach.retain(|b| read(t, *b));
                reach
            },
            |t, b| typed_over::in_order(group, balance, Some((t, b))),
        );
        match typed {
            Some(typed) => {
                tallies.balances.push(typed);
                return (expected, end);
            }
            None if rules.breaks_are_evidence => {
                tallies.breaks.add(at);
                return (expected, end);
            }
            None => {}
        }
    }
    // The rows chain, but the next group goes on from another balance of theirs: the group
    // moved by more than it prints. A row printing 0 among them is that movement (Vodacom
    // Lesotho's receipt whose sender paid the withdrawal charge: the charge row prints 0
    // and the balance after both); a charge row, a charge taken twice (a break). Without
    // either, the next group's own rows are read (an amount edited there by as much as one
    // of these rows must not be taken for this group's).
    let unsure = group
        .iter()
        .any(|t| t.net().is_zero() || t.category == Category::Charges);
    if unsure && !next_goes_on {
        // Where the next group chains from none of them but settles with the rows after it
        // from one of them and not from the running balance plus the net (a send's charge
        // printing 0 beside the balance after it, then a debit printing the balance after
        // a receipt that settled first), the chain goes on from that balance too.
        if let Some(resumed) = resume(rows, start, end, rules)
            .or_else(|| settles_from(rows, start, end, expected, rules))
        {
            if group.iter().any(|t| t.net().is_zero()) {
                tallies.zero.add(at);
            } else {
                tallies.breaks.add(at);
            }
            return (resumed, end);
        }
        // Where the next group chains from none of them, a group whose rows chain in order
        // only from another balance printed the running balance plus its net by chance: the
        // chain goes on from where that order ends (a break before the group).
        if let Some(in_order) = typed_over::end_in_order(group, balance) {
            tallies.breaks.add(at);
            return (in_order, end);
        }
    }
    (expected, end)
}
