//! The running-balance chain of a wallet whose statements list every movement
//! ([`Chain::Listed`]: Airtel Money Uganda, MTN MoMo Ghana, Vodacom M-Pesa Lesotho), and the
//! SUMMARY balances.
//!
//! **The chain.** Rows are read oldest first (in reading order), in groups of rows at most the
//! wallet's `group_seconds` apart (a withdrawal and its charge printed a second apart, in either
//! order). A group chains when the running balance plus the group's net is one of its printed
//! balances (where breaks are evidence, its rows must also chain in some order, each printing
//! the balance it reached: `typed_over::in_order`); where the group holds a row printing 0 or a
//! charge row and the next group does not chain from that balance but does from another the
//! group prints (or settles there with the rows after it, see below), the group moved by more
//! than it prints, and the chain goes on from there (a row printing 0 among its rows:
//! `amount_not_printed`; else a break). A group that does not
//! chain is read together with the rows that follow it within the wallet's `settle_seconds`: rows
//! completed seconds apart may have settled in the other order (a debit whose printed balance
//! already holds a credit completed just after it); when they chain together they are one movement
//! (`settled_out_of_order`, info; each row printing a balance some order of them reaches, where
//! breaks are no evidence, and in that order, where they are), unless the group alone leads to
//! the next group and the rows taken with it do not. The statement's first group, with no balance before it, ends where the
//! next group chains from (or settles from, where its own rows do not lead it), else where its own
//! rows chain in order; a group completed within `settle_seconds` after it that does not chain from
//! it and whose rows end on the balance before it settled first (`settled_out_of_order`: its amount
//! is not read). What still does not chain is classified, never silently passed, and the chain goes
//! on from the balance of the group's own from which the next group chains, when one does (one
//! break, not a break on every group after it):
//! - `balance_of_another_account` (info): a row whose own balance before and after do not
//!   differ by its amount while the holder's balance around it moved by exactly that amount,
//!   and whose balance before is not the holder's: the printed balances are another account's
//!   (MTN's `XtraBalance` transfers);
//! - `balance_digit_edited` (critical): a group whose rows chain in order once one printed
//!   balance has one digit typed back (`super::typed_balance`): within a group whose last
//!   balance agrees, or where the next group goes on from the running balance plus the group's
//!   net (where breaks are evidence, rows settled out of order must chain in some order there
//!   too, each printing the balance it reached). Where breaks are no evidence, only in a group
//!   whose every row moved, the next group going on from the balance the rows reach and not
//!   from the one printed, and only a gap no two of the wallet's own movements without a row
//!   may be (`Silent::may_cancel`: one unit or more, more than a charge taken or credited
//!   without its row) nor a neighbour's balance (`ends::neighbours_balance`: the undoing of
//!   the row's own amount, the next group's movement);
//! - `amount_not_printed` (info): rows of amount 0 beside a balance that moved (Vodacom
//!   Lesotho's deposits and receipts printed with amount 0); the chain goes on from the
//!   printed balance;
//! - `levy_after_balance` (info): a row whose balance after leaves out its levy, which the
//!   next row's balance before, where printed, has taken (MTN's E-LEVY);
//! - `row_not_moving_balance` (info): a group that chains without one of its rows (Vodacom
//!   Lesotho prints a two-part payment's total and a `… Charge` row of its principal; only the
//!   total moves the balance); where breaks are no evidence, a principal that no total allows
//!   but one does once a digit of ten units or more is typed back, one above its total, or one
//!   whose withdrawal charge is off the printed tariff is `amount_digit_edited` instead
//!   (`super::typed_over::principal`); so is, wherever the chain stands (the statement's
//!   first group too), a principal and the total printing its balance that one digit typed
//!   back makes agree and that disagree as printed: the total below the principal or above it
//!   by more than a charge (`super::typed_over::total_off_principal`); so is a charge row
//!   beside one debit whose balance is another row's less an amount one digit off its printed
//!   charge (`super::typed_over::charge_off_its_step`);
//! - `amount_digit_edited` (critical): a break that one row's amount explains, when that amount
//!   and the amount its balances moved by differ in exactly one digit (300.00 printed, 900.00
//!   moved): the shape of a digit typed over. Where the wallet's breaks are not evidence, a
//!   units or cents digit counts only where none of the wallet's own movements without a row
//!   may be the difference (`super::typed_over::Silent`: a charge the statement prints, taken
//!   after a debit without its charge row, not after airtime, a repayment or a paybill in a
//!   group with no charge row showing its charge; a row printing 0 in the group before or
//!   beside it;
//!   a payment printed with its charge row, as Vodacom Lesotho's two-part payment printing
//!   51.00 for a 50.00 step);
//! - `balance_chain_break`: anything else; a warning where the wallet's breaks are evidence
//!   (`breaks_are_evidence`), else info.
//!
//! **The SUMMARY balances** (Airtel): opening + Total Credit − Total Debit must be the closing
//! balance (critical otherwise), and the rows must lead from the opening to the closing balance.

use rust_decimal::Decimal;

use super::finding;
use super::typed_over::{self, Silent};
use crate::report::{Finding, Severity};
use crate::statement::{Statement, Transaction};
use crate::wallets::Chain;
use agreeing::agreeing;
use ends::{
    chains_from, foreign_balances, last_moved, moved_alone, printed_a_neighbours, resume, settle,
    settled_first, settles_from, typed_before_next,
};
use tallies::{Tallies, report};

/// The chain and SUMMARY-balance checks (see the module documentation) of the statement's
/// rows, listed `by_time` in reading order ([`crate::statement::reading_order`]), with the
/// wallet's [`Chain::Listed`] parameters (`chain`; an unlisted chain is not checked here).
pub(super) fn check(
    statement: &Statement,
    by_time: &[&Transaction],
    chain: Chain,
    findings: &mut Vec<Finding>,
) {
    let Chain::Listed {
        group_seconds,
        settle_seconds,
        breaks_are_evidence,
    } = chain
    else {
        return;
    };
    summary_balances(statement, findings);
    let rules = Rules {
        group_seconds,
        settle_seconds,
        breaks_are_evidence,
    };
    walk(statement, by_time, rules, findings);
}

/// A wallet's [`Chain::Listed`] parameters.
#[derive(Clone, Copy)]
struct Rules {
    group_seconds: i64,
    settle_seconds: i64,
    breaks_are_evidence: bool,
}

fn walk(
    statement: &Statement,
    by_time: &[&Transaction],
    rules: Rules,
    findings: &mut Vec<Finding>,
) {
    let rows: Vec<&Transaction> = by_time
        .iter()
        .copied()
        .filter(|t| t.is_completed() && t.balance.is_some())
        .collect();
    let mut running: Option<Decimal> = statement
        .balances
        .map(|b| b.opening)
        .or_else(|| rows.first().and_then(|t| t.balance_before));
    let mut tallies = Tallies::default();
    // The groups the walk starts from, for what the whole statement prints (its tariff).
    let seconds = rules.group_seconds;
    let groups = std::iter::successors(
        (!rows.is_empty()).then(|| 0..group_end(&rows, 0, seconds)),
        |r| (r.end < rows.len()).then(|| r.end..group_end(&rows, r.end, seconds)),
    )
    .map(|r| &rows[r]);
    let mut silent = Silent::of(&rows, groups);
    let mut start = 0;
    while start < rows.len() {
        let mut end = group_end(&rows, start, rules.group_seconds);
        let before = running;
        // A two-part payment's total and principal that disagree, or a charge row off its own
        // step, whatever the chain says (found once per group: where the walk below finds the
        // group typed over too, its finding is kept instead).
        let off_its_pair = (!rules.breaks_are_evidence)
            .then(|| {
                typed_over::total_off_principal(&rows[start..end])
                    .or_else(|| typed_over::charge_off_its_step(&rows[start..end], running))
            })
            .flatten();
        let edited = tallies.edited.len();
        if let Some(balance) = running {
            let (next, through) = step(&rows, start, end, balance, rules, &silent, &mut tallies);
            running = Some(next);
            end = through;
        } else {
            // The statement's first group: where the next group chains from, or settles from
            // where its own rows do not lead it (see `step`), else where its rows chain in order,
            // else its last row that moves.
            let own =
                typed_over::first_end(&rows[start..end]).or_else(|| last_moved(&rows[start..end]));
            running = resume(&rows, start, end, rules)
                .or_else(|| own.and_then(|own| settles_from(&rows, start, end, own, rules)))
                .or(own);
            if let Some(through) = running.and_then(|b| settled_first(&rows, start, end, b, rules))
            {
                tallies.settled.add(rows[start].completed_at);
                end = through;
            }
        }
        if let Some(typed) = off_its_pair.filter(|_| tallies.edited.len() == edited) {
            tallies.edited.push(typed);
        }
        if let Some(balance) = running {
            silent.read(&rows[start..end], before, balance);
        }
        start = end;
    }
    if let (Some(b), Some(end)) = (statement.balances, running)
        && end != b.closing
        && !rows.is_empty()
    {
        findings.push(finding(
            "closing_balance_mismatch",
            Severity::Warning,
            format!(
                "the rows lead from the opening balance {} to {end}, but the statement's closing \
                 balance is {}",
                b.opening, b.closing
            ),
        ));
    }
    report(tallies, rules.breaks_are_evidence, findings);
}

/// The end (exclusive) of the group of rows starting at `start`: rows at most `seconds` apart.
fn group_end(rows: &[&Transaction], start: usize, seconds: i64) -> usize {
    let mut end = start + 1;
    while end < rows.len()
        && (rows[end].completed_at - rows[end - 1].completed_at).num_seconds() <= seconds
    {
        end += 1;
    }
    end
}

/// Reads the group `rows[start..end]` against the running `balance`: the balance after it and
/// where the next group starts (later than `end` when the group chained only with the rows
/// that settled with it), tallying what did not chain.
fn step(
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
    let next_before = rows.get(end).and_then(|t| t.balance_before);
    let net: Decimal = group.iter().map(|t| t.net()).sum();
    let expected = balance + net;
    if group.iter().any(|t| t.balance == Some(expected)) {
        return agreeing(rows, start, end, balance, rules, silent, tallies);
    }
    // A balance that leaves the levy out, where the next row's balance before (where printed)
    // has taken it: an amount typed over by the levy's size would otherwise read as the levy.
    if next_before.is_none_or(|b| b == expected)
        && group
            .iter()
            .any(|t| t.tax.is_some_and(|tax| t.balance == Some(expected + tax)))
    {
        tallies.levy.add(at);
        return (expected, end);
    }
    if next_before == Some(expected) && group.iter().any(|t| foreign_balances(group, t, balance)) {
        tallies.foreign.add(at);
        return (expected, end);
    }
    if let Some(typed) = typed_before_next(rows, start, end, balance, rules, silent) {
        tallies.balances.push(typed);
        return (expected, end);
    }
    // Where breaks are no evidence, a row alone at its time printing a neighbour's balance (the
    // balance before its own movement, or after the next group's) whose amount the next group
    // goes on from: a break (`info`), and the chain goes on from the running balance plus its
    // amount (money in printed beside the balance before it, as Vodacom Lesotho prints it with
    // an amount of 0; a balance printed after the next row, as Safaricom's 2023 sample does).
    if printed_a_neighbours(rows, start, end, expected, rules) {
        tallies.breaks.add(at);
        return (expected, end);
    }
    // Rows settled out of order are one movement, unless the group alone leads to the next
    // group while the rows taken with it do not lead on (a forged amount chaining with its
    // neighbours by chance).
    let resumed = resume(rows, start, end, rules);
    if let Some((settled, through)) = settle(rows, start, end, balance, rules, silent)
        && (through == rows.len()
            || chains_from(rows, through, settled, rules)
            || resumed.is_none())
    {
        tallies.settled.add(at);
        return (settled, through);
    }
    // Where the chain goes on from a balance the group ends on: there, when the next group
    // chains from it, else from the balance the next group does chain from.
    let go_on = |b: Decimal| {
        if chains_from(rows, end, b, rules) {
            b
        } else {
            resumed.unwrap_or(b)
        }
    };
    let last = resumed
        .or_else(|| typed_over::end_in_order(group, balance))
        .or_else(|| typed_over::broke_last(group, balance))
        .or_else(|| last_moved(group));
    if net.is_zero() {
        // Rows of amount 0 beside a balance that moved (Vodacom Lesotho).
        tallies.zero.add(at);
        return (last.unwrap_or(balance), end);
    }
    // Before a row not moving the balance: a charge row typed over leaves its group chaining
    // without it, the shape of a two-part payment.
    if let Some((typed, after)) = typed_over::in_group(
        group,
        balance,
        net,
        next_before,
        rules.breaks_are_evidence,
        silent,
    ) {
        tallies.edited.push(typed);
        return (go_on(after), end);
    }
    let chains_without = |t: &Transaction| {
        (rules.breaks_are_evidence || !moved_alone(group, t))
            && group.iter().any(|u| u.balance == Some(expected - t.net()))
    };
    if let Some(left_out) = group
        .iter()
        .find(|t| chains_without(t))
        .map(|t| expected - t.net())
    {
        // Every row the group chains without is tried as a typed-over principal, whatever
        // order the rows are listed in; only where breaks are no evidence (the wallets that
        // print two-part payments: Airtel's fee rows are charges of ten units or more).
        let principal = (!rules.breaks_are_evidence)
            .then(|| {
                group
                    .iter()
                    .filter(|t| chains_without(t))
                    .find_map(|idle| typed_over::principal(group, idle, silent))
            })
            .flatten();
        match principal {
            Some(typed) => tallies.edited.push(typed),
            None => tallies.idle.add(at),
        }
        return (go_on(left_out), end);
    }
    tallies.breaks.add(at);
    (last.unwrap_or(expected), end)
}

/// Opening + Total Credit − Total Debit against the closing balance (Airtel's SUMMARY).
fn summary_balances(statement: &Statement, findings: &mut Vec<Finding>) {
    let (Some(balances), Some(summary)) = (statement.balances, statement.summary.as_ref()) else {
        return;
    };
    let computed = balances.opening + summary.total.paid_in - summary.total.paid_out;
    if computed != balances.closing {
        findings.push(finding(
            "summary_balances_mismatch",
            Severity::Critical,
            format!(
                "the SUMMARY does not add up: opening {} + credit {} − debit {} = {computed}, but \
                 the closing balance is {}",
                balances.opening, summary.total.paid_in, summary.total.paid_out, balances.closing
            ),
        ));
    }
}

mod agreeing;
mod ends;
mod tallies;
#[cfg(test)]
mod tests;
