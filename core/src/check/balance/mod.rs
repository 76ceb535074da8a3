//! The running-balance chain, order-independent by construction.
//!
//! Rows are grouped by completion time (rows sharing a time are not listed in a reliable order:
//! a payment, its charge, the Fuliza draw that funds it). Within a group each completed row
//! with a printed balance is an edge *opening → closing* (`opening = balance − net`). The
//! group's own chain is read from multisets, never from the listing order: the openings no
//! closing explains are where the group starts, the closings no opening consumes are where it
//! ends. A group whose rows cannot form one chain (more than one start) has broken arithmetic
//! of its own. Between groups (oldest first) the next group must start where the previous one
//! ended; the first group may start anywhere (statements start mid-day).
//!
//! Genuine statements break the chain: Safaricom does not list every movement (Fuliza
//! repayments taken from incoming money, a 27,570.00 debit with no row on the 2023 sample) and
//! sometimes prints a balance after a neighbouring row. So a break alone is an `info` finding;
//! it becomes evidence only with a signature of editing:
//! - **an edited balance**: the chain breaks into a row and out of it by the same amount (the
//!   row's printed balance disagrees with both neighbours; beside a group that may have
//!   started or ended at any of its balances, a Fuliza draw and the payment it funds, the
//!   break there is of unknown size, and the row's balance moved back by the other break must
//!   link to that group), and the amount is neither one of the next row's amounts nor the
//!   undoing of its own (the row prints a neighbour's balance, which is how a genuine balance
//!   printed out of order looks); `balance_digit_edited` (critical, `check::typed_balance`)
//!   where the printed balance is one digit from the chain's;
//! - **broken arithmetic inside a group** without a Fuliza row; `balance_digit_edited` where
//!   one balance typed back makes the group chain and link with its neighbours (a Fuliza
//!   group too; not a balance another row of the group prints as well);
//! - **a SUMMARY mismatch**: every break becomes a warning, and a break whose size equals the
//!   SUMMARY difference names the row whose amount was probably edited.

mod chain;
#[cfg(test)]
mod tests;

use std::collections::BTreeSet;

use rust_decimal::Decimal;

use chain::{Break, Groups, break_between, group, multiset_group, printed, scan};

use super::finding;
use super::typed_balance::{self, TypedBalance};
use super::typed_over::beside_another_row;
use crate::amount::{Amount, Arithmetic, Cents, net_of};
use crate::report::{Finding, Severity};
use crate::statement::{Statement, Transaction};
use crate::wallets::Wallet;

/// Whether a row among `rows` moved money through the wallet's overdraft (Safaricom's Fuliza).
pub(super) fn overdraft(wallet: &Wallet, rows: &[&Transaction]) -> bool {
    rows.iter().any(|t| (wallet.overdraft_row)(t))
}

/// The receipts of `rows`, sorted and de-duplicated, for messages.
fn receipts(rows: &[&Transaction]) -> String {
    let set: BTreeSet<&str> = rows.iter().map(|t| t.receipt_no.as_str()).collect();
    set.into_iter().collect::<Vec<_>>().join("/")
}

/// The time and receipts of `rows` (a group), for messages.
fn when(rows: &[&Transaction]) -> String {
    format!(
        "{} (receipt {})",
        rows[0].completed_at.format("%Y-%m-%d %H:%M:%S"),
        receipts(rows)
    )
}

fn list(items: &[String]) -> String {
    let mut shown: Vec<String> = items.iter().take(3).cloned().collect();
    if items.len() > 3 {
        shown.push(format!("and {} more", items.len() - 3));
    }
    shown.join(", ")
}

/// The gap of break `a` (into a group) when break `b` (out of it) undoes it: both of known
/// size and opposite, or one of unknown size (beside a group that may start or end at any of
/// its balances: a Fuliza draw and the payment it funds, 20.00 in and 20.00 out) where the
/// group, its balances moved back by the known one, links to that neighbour. `None`: the breaks
/// do not cancel out.
fn cancelling<A: Amount>(groups: &Groups<'_>, a: &Break<A>, b: &Break<A>) -> Option<A> {
    let moved = |gap: A| {
        let mut g = group::<A>(groups.rows(a.index));
        for v in g.starts.iter_mut().chain(g.closings.iter_mut()) {
            *v = v.plus(gap);
        }
        g.starts.sort();
        g.closings.sort();
        g
    };
    match (a.gap, b.gap) {
        (Some(ga), Some(gb)) => ga.plus(gb).is_zero().then_some(ga),
        (Some(ga), None) => {
            let after = group::<A>(groups.rows(b.index));
            break_between(&moved(A::ZERO.minus(ga)), &after)
                .is_none()
                .then_some(ga)
        }
        (None, Some(gb)) => {
            let before = group::<A>(groups.rows(a.index - 1));
            break_between(&before, &moved(gb))
                .is_none()
                .then(|| A::ZERO.minus(gb))
        }
        (None, None) => None,
    }
}

/// Finds adjacent breaks that cancel out ([`cancelling`]): a balance printed after the next
/// row or before its own movement when the gap is one of that row's amounts (counted), a
/// balance typed over when a row alone at its time prints a balance one digit away from the
/// chain's (returned), an edited balance otherwise (a warning). Returns the indexes of the
/// groups in such pairs, the count of out-of-order balances and the balances typed over.
fn edited_balances<A: Amount>(
    groups: &Groups<'_>,
    breaks: &[Break<A>],
    findings: &mut Vec<Finding>,
) -> (BTreeSet<usize>, usize, Vec<TypedBalance>) {
    let mut paired: BTreeSet<usize> = BTreeSet::new();
    let mut out_of_order = 0usize;
    let mut edited = Vec::new();
    let mut typed = Vec::new();
    for pair in breaks.windows(2) {
        let (a, b) = (&pair[0], &pair[1]);
        if b.index != a.index + 1 || paired.contains(&a.index) {
            continue;
        }
        let Some(ga) = cancelling(groups, a, b) else {
            continue;
        };
        paired.insert(a.index);
        paired.insert(b.index);
        // A row printing a neighbour's balance: the next row's (printed after it: the gap is
        // one of its amounts, signed as it moved; the 2023 sample's one pair) or the previous
        // one's (printed before its own movement: the gap undoes its own amount). Not a gap
        // undoing the previous row's amount: that copies no printed balance, and a digit
        // typed over beside an airtime purchase of 10.00 (207.98 → 217.98) is one.
        let nets = |i: usize| groups.rows(i).iter().map(|t| net_of::<A>(t));
        let explained =
            nets(b.index).any(|n| n == ga) || nets(a.index).any(|n| n.plus(ga).is_zero());
        let reached = |t: &&Transaction| {
            t.balance
                .and_then(|b| TypedBalance::of(t, b - ga.decimal()))
        };
        if explained {
            out_of_order += 1;
        } else if let [row] = groups.rows(a.index)
            && let Some(one) = reached(row)
        {
            typed.push(one);
        } else {
            edited.push(format!(
                "{} off by {}",
                when(groups.rows(a.index)),
                ga.decimal()
            ));
        }
    }
    if !edited.is_empty() {
        findings.push(finding(
            "balance_edited",
            Severity::Warning,
            format!(
                "{} row(s) print a balance that disagrees with both neighbouring rows by the \
                 same amount, which no listed or unlisted movement explains: {}",
                edited.len(),
                list(&edited)
            ),
        ));
    }

    (paired, out_of_order, typed)
}

/// Checks the chain of the statement's rows, listed `by_time` in reading order (by completion
/// time, ties by receipt, Details and amounts: [`crate::statement::reading_order`]).
/// `summary_difference` is SUMMARY minus rows (paid in, paid out) when the SUMMARY does not
/// reconcile, `None` otherwise. In the arithmetic of the rows that print a balance (see
/// [`crate::amount`]).
pub(super) fn check(
    statement: &Statement,
    wallet: &Wallet,
    summary_difference: Option<(Decimal, Decimal)>,
    by_time: &[&Transaction],
    findings: &mut Vec<Finding>,
) {
    let printed = printed(by_time);
    if Arithmetic::of(printed.iter().copied()) == Arithmetic::Cents {
        check_in::<Cents>(statement, wallet, &printed, summary_difference, findings);
    } else {
        check_in::<Decimal>(statement, wallet, &printed, summary_difference, findings);
    }
}

/// The row of group `index`, whose rows do not chain, whose balance one digit typed back makes
/// the group chain (one start) and link with the groups before and after it (where there are).
fn typed_in<A: Amount>(groups: &Groups<'_>, index: usize) -> Option<TypedBalance> {
    let rows = groups.rows(index);
    let before = index.checked_sub(1).map(|i| group::<A>(groups.rows(i)));
    let after = (index + 1 < groups.len()).then(|| groups.rows(index + 1));
    // A balance another row of the group prints too may be printed after both: not read.
    let candidates = |t: &Transaction| {
        if beside_another_row(rows, t) {
            Vec::new()
        } else {
            TypedBalance::typed_back(t.balance)
        }
    };
    TypedBalance::in_group(rows, candidates, |row, balance| {
        let mut read = row.clone();
        read.balance = Some(balance);
        let rows: Vec<&Transaction> = rows
            .iter()
            .map(|t| if std::ptr::eq(*t, row) { &read } else { *t })
            .collect();
        let this = multiset_group::<A>(&rows);
        this.starts.len() <= 1
            && before
                .as_ref()
                .is_none_or(|b| break_between(b, &this).is_none())
            && after.is_none_or(|a| break_between(&this, &group::<A>(a)).is_none())
    })
}

/// [`check`] of the `printed` rows in the arithmetic `A` (see [`crate::amount`]).
fn check_in<A: Amount>(
    statement: &Statement,
    wallet: &Wallet,
    printed: &[&Transaction],
    summary_difference: Option<(Decimal, Decimal)>,
    findings: &mut Vec<Finding>,
) {
    let (groups, breaks, internal) = scan::<A>(printed);

    let (paired, out_of_order, mut typed) = edited_balances(&groups, &breaks, findings);

    // Groups whose own rows do not chain: a balance typed over where one digit typed back
    // makes the group chain and link with its neighbours (a Fuliza group too), else broken
    // arithmetic (but in a Fuliza group, `info`).
    let mut broken = Vec::new();
    for g in internal {
        match typed_in::<A>(&groups, g) {
            Some(one) => typed.push(one),
            None => broken.push(g),
        }
    }
    typed_balance::report(&typed, findings);
    let (fuliza_internal, plain_internal): (Vec<usize>, Vec<usize>) = broken
        .into_iter()
        .partition(|g| overdraft(wallet, groups.rows(*g)));
    if !plain_internal.is_empty() {
        let at = groups.when_each(plain_internal.iter().copied());
        findings.push(finding(
            "row_arithmetic",
            Severity::Warning,
            format!(
                "the rows sharing a completion time do not form one balance chain at {} \
                 time(s): {}",
                at.len(),
                list(&at)
            ),
        ));
    }

    let unpaired: Vec<&Break<A>> = breaks
        .iter()
        .filter(|b| !paired.contains(&b.index))
        .collect();
    if let Some(difference) = summary_difference {
        summary_breaks(&groups, &unpaired, difference, findings);
        return;
    }

    let fuliza = unpaired
        .iter()
        .filter(|b| {
            overdraft(wallet, groups.rows(b.index)) || overdraft(wallet, groups.rows(b.index - 1))
        })
        .count();
    let total = unpaired
        .iter()
        .filter_map(|b| b.gap)
        .fold(A::ZERO, A::plus)
        .decimal();
    let unknown = unpaired.iter().filter(|b| b.gap.is_none()).count();
    let count = unpaired.len() + fuliza_internal.len() + out_of_order;
    let (word, currency) = (wallet.overdraft_word(), &statement.currency);
    if count > 0 {
        let at = groups.when_each(unpaired.iter().map(|b| b.index));
        findings.push(finding(
            "unlisted_movements",
            Severity::Info,
            format!(
                "the balance moves without a listed row at {} of {} completion times ({} next \
                 to {word} rows, net {total} {currency}{}); {} balance(s) were printed after a \
                 neighbouring row and {} {word} group(s) do not chain; {}{}",
                unpaired.len(),
                groups.len(),
                fuliza,
                if unknown > 0 {
                    format!(", {unknown} of unknown size")
                } else {
                    String::new()
                },
                out_of_order,
                fuliza_internal.len(),
                if statement.summary.is_some() {
                    format!(
                        "the SUMMARY reconciles, so these are movements {} does not list",
                        wallet.operator
                    )
                } else {
                    "without a SUMMARY they cannot be told from missing rows".to_owned()
                },
                if at.is_empty() {
                    String::new()
                } else {
                    format!(" (first: {})", list(&at))
                }
            ),
        ));
    }
}

/// The findings of the breaks `unpaired` when the SUMMARY does not reconcile (`difference`:
/// SUMMARY minus rows, paid in and paid out): every break is evidence; the ones the difference
/// explains are named.
fn summary_breaks<A: Amount>(
    groups: &Groups<'_>,
    unpaired: &[&Break<A>],
    (paid_in, paid_out): (Decimal, Decimal),
    findings: &mut Vec<Finding>,
) {
    let explained = |b: &&&Break<A>| {
        b.gap
            .map(A::decimal)
            .is_some_and(|g| g == paid_in || g == -paid_out)
    };
    let matching = groups.when_each(unpaired.iter().filter(explained).map(|b| b.index));
    if !matching.is_empty() {
        findings.push(finding(
            "edited_amount",
            Severity::Warning,
            format!(
                "the balance chain breaks by exactly the SUMMARY difference at {}: the \
                 amount of that row was probably edited",
                list(&matching)
            ),
        ));
    }
    if !unpaired.is_empty() {
        let at = groups.when_each(unpaired.iter().map(|b| b.index));
        findings.push(finding(
            "balance_breaks",
            Severity::Warning,
            format!(
                "the running balance does not follow from the previous row at {} of {} \
                 completion times, and the SUMMARY does not reconcile: {}",
                at.len(),
                groups.len(),
                list(&at)
            ),
        ));
    }
}
