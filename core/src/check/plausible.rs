//! Plausibility: what a wallet cannot print, read from the statement alone (never from the
//! clock, so a report is the same whenever it is made).
//!
//! Each is a `critical` finding (the verdict is `failed`): a genuine statement cannot show it,
//! so a statement that does was not printed by the wallet as it stands.
//! - `before_wallet_launch`: a row dated before the wallet existed. M-Pesa launched in Kenya on
//!   6 March 2007 ([`MPESA_LAUNCH`]; Safaricom, "M-PESA: 10 years" press release, and
//!   Hughes & Lonie, "M-PESA: Mobile Money for the Unbanked", *Innovations* 2(1–2), 2007).
//!   Other wallets have no launch date here and are not checked.
//! - `after_request_date`: a row dated after the statement's own request date (its header's
//!   "Date of Statement"): a statement cannot list what had not happened when it was printed.
//! - `balance_below_floor`: a printed balance below the wallet's floor. An M-Pesa balance is
//!   never negative ([`MPESA_BALANCE_FLOOR`]): an overdraft is drawn through Fuliza, a
//!   separate account whose draw is printed as money in, so the wallet balance stays at or above
//!   zero. The one exception is a movement paid with Fuliza: statements of 2019 printed such a
//!   row ("Customer Transfer Fuliza MPESA …") with the overdrawn balance (53 rows of the real
//!   2019–2021 sample, down to −3,210.32), so rows at a completion time with a Fuliza row are
//!   not held to the floor. Other wallets are not checked (their overdraft rules are not known
//!   here).
//! - `impossible_row_rate`: more than [`MAX_ROWS_AT_ONE_TIME`] completed rows at one
//!   completion time. A movement prints at most a few rows at once (a payment, its charge, the
//!   Fuliza draw funding it and its fee); hundreds in one second is not a personal wallet.
//!   Sources that print dates without times (every row at 00:00:00) are not checked.
//!
//! See docs/integrity.md.

use chrono::{NaiveDate, NaiveTime};
use rust_decimal::Decimal;

use super::finding;
use crate::report::{Finding, Severity};
use crate::statement::{Provider, Statement, Transaction};

/// The day M-Pesa launched in Kenya (Safaricom, 6 March 2007).
pub const MPESA_LAUNCH: NaiveDate = match NaiveDate::from_ymd_opt(2007, 3, 6) {
    Some(d) => d,
    None => NaiveDate::MIN,
};

/// The lowest balance an M-Pesa statement prints, KES: zero (Fuliza is a separate account).
pub const MPESA_BALANCE_FLOOR: Decimal = Decimal::ZERO;

/// The most completed rows one completion time may hold (a payment, its charge, a Fuliza draw
/// and its fee, with room to spare: the real samples hold at most 3).
pub const MAX_ROWS_AT_ONE_TIME: usize = 20;

/// The first day a row of `provider` can carry, if known (also read by [`super::named`]).
pub(super) fn launch(provider: Provider) -> Option<NaiveDate> {
    (provider == Provider::Mpesa).then_some(MPESA_LAUNCH)
}

/// The lowest balance `provider` prints, if known.
fn floor(provider: Provider) -> Option<Decimal> {
    (provider == Provider::Mpesa).then_some(MPESA_BALANCE_FLOOR)
}

fn day(t: &Transaction) -> NaiveDate {
    t.completed_at.date()
}

/// Adds the plausibility findings of `statement`, whose rows `by_time` lists in completion-time
/// order.
pub(crate) fn check(statement: &Statement, by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    if let Some(launch) = launch(statement.provider) {
        let early = by_time.iter().filter(|t| day(t) < launch).count();
        if let Some(first) = by_time.first().filter(|_| early > 0) {
            findings.push(finding(
                "before_wallet_launch",
                Severity::Critical,
                format!(
                    "{early} row(s) are dated before the wallet existed (first: {}; M-Pesa \
                     launched on {launch})",
                    day(first)
                ),
            ));
        }
    }
    if let Some(requested) = statement.requested_at {
        let late = by_time.iter().filter(|t| day(t) > requested).count();
        if let Some(last) = by_time.last().filter(|_| late > 0) {
            findings.push(finding(
                "after_request_date",
                Severity::Critical,
                format!(
                    "{late} row(s) are dated after the statement's request date {requested} \
                     (last: {})",
                    day(last)
                ),
            ));
        }
    }
    if let Some(floor) = floor(statement.provider) {
        // A row paid with Fuliza may print the overdrawn balance (the 2019 format, "Customer
        // Transfer Fuliza MPESA", on the real 2019–2021 sample): not below the floor.
        // The Details of a time are read only when one of its balances is below the floor.
        let low = |t: &Transaction| t.is_completed() && t.balance.is_some_and(|b| b < floor);
        let below: Vec<Decimal> = by_time
            .chunk_by(|a, b| a.completed_at == b.completed_at)
            .filter(|same| same.iter().any(|t| low(t)) && !super::balance::fuliza(same))
            .flatten()
            .filter(|t| low(t))
            .filter_map(|t| t.balance)
            .collect();
        if let Some(lowest) = below.iter().min() {
            findings.push(finding(
                "balance_below_floor",
                Severity::Critical,
                format!(
                    "{} row(s) print a balance below {floor} KES (lowest {lowest}); an M-Pesa \
                     balance is never negative (an overdraft is a Fuliza draw)",
                    below.len()
                ),
            ));
        }
    }
    check_rate(by_time, findings);
}

/// `impossible_row_rate` (see the module notes).
fn check_rate(by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    let timed = by_time
        .iter()
        .any(|t| t.completed_at.time() != NaiveTime::MIN);
    if !timed {
        return;
    }
    let crowded: Vec<(usize, &Transaction)> = by_time
        .chunk_by(|a, b| a.completed_at == b.completed_at)
        .map(|same| (same.iter().filter(|t| t.is_completed()).count(), same[0]))
        .filter(|(n, _)| *n > MAX_ROWS_AT_ONE_TIME)
        .collect();
    let Some((most, at)) = crowded.iter().max_by_key(|(n, _)| *n) else {
        return;
    };
    findings.push(finding(
        "impossible_row_rate",
        Severity::Critical,
        format!(
            "{} time(s) hold more than {MAX_ROWS_AT_ONE_TIME} completed rows each (most: {most} \
             at {}); a wallet prints a few rows per movement",
            crowded.len(),
            at.completed_at.format("%Y-%m-%d %H:%M:%S")
        ),
    ));
}
