//! Plausibility: what a wallet cannot print, read from the statement, its wallet's profile
//! (`crate::wallets::Profile`) and the day it is judged on (an input, never the clock, so a
//! report is the same whenever it is made on the same day of analysis).
//!
//! Each is a `critical` finding (the verdict is `failed`): a genuine statement cannot show it,
//! so a statement that does was not printed by the wallet as it stands.
//! - `before_wallet_launch`: a row dated before the wallet existed (the profile's launch day,
//!   with its source; M-Pesa: 6 March 2007).
//! - `after_request_date`: a row dated after the statement's own request date (its header's
//!   "Date of Statement"): a statement cannot list what had not happened when it was printed.
//! - `after_analysis_date`: a row, or the request date, later than the day of analysis: a
//!   statement from the future.
//! - `balance_below_floor`: a printed balance below the wallet's floor. An M-Pesa balance is
//!   never negative: an overdraft is drawn through Fuliza, a separate account whose draw is
//!   printed as money in. Where the profile says so, rows at a completion time with an
//!   overdraft row are not held to the floor (statements of 2019 printed a row paid with Fuliza,
//!   "Customer Transfer Fuliza MPESA …", with the overdrawn balance: 53 rows of the real
//!   2019–2021 sample, down to −3,210.32).
//! - `impossible_row_rate`: more completed rows at one completion time than the wallet's
//!   `max_rows_at_one_time`. A movement prints at most a few rows at once (a payment, its
//!   charge, the overdraft draw funding it and its fee); hundreds in one second is not a
//!   personal wallet. Sources that print dates without times (every row at 00:00:00) are not
//!   checked.
//!
//! See docs/integrity.md.

use chrono::{NaiveDate, NaiveTime};
use rust_decimal::Decimal;

use super::finding;
use crate::report::{Finding, Severity};
use crate::statement::{Statement, Transaction};
use crate::wallets::Wallet;

fn day(t: &Transaction) -> NaiveDate {
    t.completed_at.date()
}

/// Adds the plausibility findings of `statement` (of `wallet`), whose rows `by_time` lists in
/// reading order, judged on `as_of` when given.
pub(crate) fn check(
    statement: &Statement,
    wallet: &Wallet,
    by_time: &[&Transaction],
    as_of: Option<NaiveDate>,
    findings: &mut Vec<Finding>,
) {
    let profile = &wallet.profile;
    if let Some(launch) = profile.launched {
        let early = by_time.iter().filter(|t| day(t) < launch.date).count();
        if let Some(first) = by_time.first().filter(|_| early > 0) {
            findings.push(finding(
                "before_wallet_launch",
                Severity::Critical,
                format!(
                    "{early} row(s) are dated before the wallet existed (first: {}; {} \
                     launched on {})",
                    day(first),
                    wallet.name,
                    launch.date
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
    if let Some(today) = as_of {
        future(statement, by_time, today, findings);
    }
    if let Some(floor) = profile.balance_floor {
        // Rows at a time with an overdraft row may print the overdrawn balance where the
        // profile says so. The rows of a time are read only when one of its balances is below
        // the floor.
        let low =
            |t: &Transaction| t.is_completed() && t.balance.is_some_and(|b| b < floor.balance);
        let below: Vec<Decimal> = by_time
            .chunk_by(|a, b| a.completed_at == b.completed_at)
            .filter(|same| {
                same.iter().any(|t| low(t))
                    && !(floor.overdraft_may_go_below && super::balance::overdraft(wallet, same))
            })
            .flatten()
            .filter(|t| low(t))
            .filter_map(|t| t.balance)
            .collect();
        if let Some(lowest) = below.iter().min() {
            findings.push(finding(
                "balance_below_floor",
                Severity::Critical,
                format!(
                    "{} row(s) print a balance below {} {} (lowest {lowest}); a {} balance \
                     is never below it (an overdraft is drawn as money in)",
                    below.len(),
                    floor.balance,
                    statement.currency,
                    wallet.name
                ),
            ));
        }
    }
    check_rate(by_time, profile.max_rows_at_one_time, findings);
}

/// `after_analysis_date`: rows, or the request date, later than the day of analysis `today`.
fn future(
    statement: &Statement,
    by_time: &[&Transaction],
    today: NaiveDate,
    findings: &mut Vec<Finding>,
) {
    let late = by_time.iter().filter(|t| day(t) > today).count();
    let requested_late = statement.requested_at.filter(|r| *r > today);
    if late == 0 && requested_late.is_none() {
        return;
    }
    let mut what = Vec::new();
    if late > 0 {
        what.push(format!("{late} row(s) are dated after it"));
    }
    if let Some(r) = requested_late {
        what.push(format!("the statement was requested on {r}"));
    }
    findings.push(finding(
        "after_analysis_date",
        Severity::Critical,
        format!(
            "the statement is judged on {today}, but {}: a statement cannot show what has not \
             happened yet",
            what.join(" and ")
        ),
    ));
}

/// `impossible_row_rate` (see the module notes).
fn check_rate(by_time: &[&Transaction], most: usize, findings: &mut Vec<Finding>) {
    let timed = by_time
        .iter()
        .any(|t| t.completed_at.time() != NaiveTime::MIN);
    if !timed {
        return;
    }
    let crowded: Vec<(usize, &Transaction)> = by_time
        .chunk_by(|a, b| a.completed_at == b.completed_at)
        .map(|same| (same.iter().filter(|t| t.is_completed()).count(), same[0]))
        .filter(|(n, _)| *n > most)
        .collect();
    let Some((crowdest, at)) = crowded.iter().max_by_key(|(n, _)| *n) else {
        return;
    };
    findings.push(finding(
        "impossible_row_rate",
        Severity::Critical,
        format!(
            "{} time(s) hold more than {most} completed rows each (most: {crowdest} at {}); a \
             wallet prints a few rows per movement",
            crowded.len(),
            at.completed_at.format("%Y-%m-%d %H:%M:%S")
        ),
    ));
}
