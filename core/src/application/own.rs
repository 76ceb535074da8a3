//! Transfers between the applicant's own accounts (docs/applications.md, rule 4): a send on
//! one account whose receipt, amount and counterparty match a receipt on another. They are
//! neither income nor spending: the combined reading lists them as `own_account_transfer`.

use rust_decimal::Decimal;

use super::combine::Account;
use super::identity;
use crate::categorise::Category;
use crate::statement::Transaction;

/// The place in `accounts` (account, row) of the two sides `[send, receipt]` of every own
/// transfer: a completed send on one account and the completed receipt of the same amount under
/// the same receipt number on another, whose counterparty (when the send names one) shares a
/// name with the receiving account's holder.
pub(super) fn own_transfers(accounts: &[Account<'_>]) -> Vec<[(usize, usize); 2]> {
    if accounts.len() < 2 {
        return Vec::new();
    }
    let mut incoming: foldhash::HashMap<&str, Vec<(usize, usize, &Transaction)>> =
        foldhash::HashMap::default();
    for (a, acc) in accounts.iter().enumerate() {
        for (i, t) in acc.rows.iter().enumerate() {
            if t.is_completed()
                && t.category == Category::ReceivedMoney
                && t.paid_in > Decimal::ZERO
            {
                incoming
                    .entry(t.receipt_no.as_str())
                    .or_default()
                    .push((a, i, *t));
            }
        }
    }
    let mut pairs = Vec::new();
    for (a, acc) in accounts.iter().enumerate() {
        for (i, t) in acc.rows.iter().enumerate() {
            if !(t.is_completed()
                && t.category == Category::SendMoney
                && t.withdrawn > Decimal::ZERO)
            {
                continue;
            }
            let Some(candidates) = incoming.get_mut(t.receipt_no.as_str()) else {
                continue;
            };
            let names_holder = |b: usize| {
                let holder = accounts[b]
                    .statements
                    .iter()
                    .find_map(|(s, _)| s.holder.name.as_deref());
                match (t.counterparty.as_deref(), holder) {
                    (Some(c), Some(h)) => identity::compare(c, h) != identity::Likeness::Different,
                    _ => true,
                }
            };
            if let Some(k) = candidates
                .iter()
                .position(|(b, _, r)| *b != a && r.paid_in == t.withdrawn && names_holder(*b))
            {
                let (b, j, _) = candidates.swap_remove(k);
                pairs.push([(a, i), (b, j)]);
            }
        }
    }
    pairs
}
