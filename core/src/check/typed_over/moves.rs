//! What a reading of a group says a row moved by ([`moves`]): the readings that may show a
//! digit typed over ([`Shows`]) and those that only clear the row, and when money in printed as
//! 0 has landed ([`landed`]).

use rust_decimal::Decimal;

use super::shape::{Before, Reading, Shape};
use super::{Silent, TENS};
use crate::statement::Transaction;

/// A reading of a row that may show a digit ([`moves`]).
#[derive(Clone, Copy)]
pub(super) struct Shows {
    /// What the row moved by (signed as its net, the statement's currency).
    pub(super) moved: Decimal,
    /// The balance the group then ends on.
    pub(super) after: Decimal,
    /// Whether units and cents are held back.
    pub(super) held_back: bool,
    /// Whether it is read from the balance of money in printed as 0 that landed ([`landed`]).
    pub(super) landed: bool,
}

/// What a [`Reading`] of a group's [`Shape`] says `row` moved by: the readings that may show a
/// digit ([`Shows`]) and those that only clear it (see `from` in [`super`]).
pub(super) fn moves(
    shape: &Shape<'_>,
    reading: &Reading<'_>,
    row: &Transaction,
    breaks_are_evidence: bool,
    silent: &Silent,
) -> (Vec<Shows>, Vec<Decimal>) {
    let others = reading.expected - row.net();
    let mut shows: Vec<Shows> = shape
        .ends
        .iter()
        .map(|&after| Shows {
            moved: after - others,
            after,
            held_back: shape.held_back(row),
            landed: false,
        })
        .collect();
    let mut clears: Vec<Decimal> = Vec::new();
    if let (false, Some(own)) = (breaks_are_evidence, row.balance) {
        let end = shape.ends.first().copied().unwrap_or(own);
        let step = own - reading.before;
        match shape.own_step(row, own, &silent.charges) {
            // Where the rows after it provably came after it, its step shows units and cents
            // only: the balance before the group is trusted no further, unless the group before
            // chained to it and left no row printing 0 unknown (`Before::Passed`), and nothing
            // beside the row holds it back.
            Some((held_back, below_tens))
                if !below_tens
                    || (step - row.net()).abs() < TENS
                    || (!held_back
                        && reading.from == Before::Running
                        && silent.others_from == Before::Passed) =>
            {
                shows.push(Shows {
                    moved: step,
                    after: end,
                    held_back,
                    landed: false,
                });
            }
            _ => clears.push(step),
        }
        // From another row's balance: that row may have come after it (its own amount read
        // back), so only a row printing 0 (a deposit printed as 0 before a repayment from it)
        // shows a digit there, and only of ten units or more.
        for t in shape.rows.iter().filter(|t| !std::ptr::eq(**t, row)) {
            match t.balance {
                Some(b) if t.net().is_zero() => {
                    let landed = landed(shape.rows, t, reading.before);
                    shows.push(Shows {
                        moved: own - b,
                        after: end,
                        held_back: true,
                        landed,
                    });
                }
                Some(b) => clears.push(own - b),
                None => {}
            }
        }
    }
    (shows, clears)
}

/// Whether `t`, a row of a `group` printing 0, is money in (any row printing 0 but a charge row:
/// a receipt, deposit or advance) whose amount landed on its own balance before the group's other
/// rows: the group's only row printing 0, completed before each of them (so before the row read
/// for a digit), its balance above the balance `before` the group (by its amount, then known).
/// Read from that balance, a row after it has no unknown amount between (the sample's November
/// receipt of 204.22 printing the balance with it, a loan repayment of 181.12 taken from that
/// balance two seconds later). Beside the balance before it (its amount left out, landing later)
/// or after another row of its group (that row's step from it would be read backwards), it has
/// not. Another account's balance is taken for its own where it happens to lie above the one
/// before; its step to a row's balance is then rarely of the row's length (a review's
/// 330,772.13).
fn landed(group: &[&Transaction], t: &Transaction, before: Decimal) -> bool {
    t.category != crate::Category::Charges
        && group.iter().filter(|u| u.net().is_zero()).count() == 1
        && group
            .iter()
            .all(|u| std::ptr::eq(*u, t) || u.completed_at > t.completed_at)
        && t.balance.is_some_and(|b| b > before)
}
