//! What the listed chain's walk found, by kind, and the one finding per kind it reports (see the
//! module documentation of [`super`]).

use chrono::NaiveDateTime;

use super::super::finding;
use super::super::typed_balance::{self, TypedBalance};
use super::super::typed_over::{self, TypedOver};
use crate::report::{Finding, Severity};

/// Counts and the first time of each kind of finding.
#[derive(Default)]
pub(super) struct Tally {
    count: usize,
    first: Option<NaiveDateTime>,
}

impl Tally {
    pub(super) fn add(&mut self, at: NaiveDateTime) {
        self.count += 1;
        self.first.get_or_insert(at);
    }
}

/// What the walk found, by kind (see the module documentation).
#[derive(Default)]
pub(super) struct Tallies {
    pub(super) foreign: Tally,
    pub(super) levy: Tally,
    pub(super) zero: Tally,
    pub(super) idle: Tally,
    pub(super) settled: Tally,
    pub(super) breaks: Tally,
    /// Rows whose printed amount is one digit off the amount their balances moved by.
    pub(super) edited: Vec<TypedOver>,
    /// Rows whose printed balance is one digit off the balance their rows reach.
    pub(super) balances: Vec<TypedBalance>,
}

/// One finding per kind of row that did not chain (see the module documentation);
/// `breaks_are_evidence` makes a break a warning.
pub(super) fn report(tallies: Tallies, breaks_are_evidence: bool, findings: &mut Vec<Finding>) {
    let Tallies {
        foreign,
        levy,
        zero,
        idle,
        settled,
        breaks,
        edited,
        balances,
    } = tallies;
    typed_over::report(&edited, findings);
    typed_balance::report(&balances, findings);
    let reports = [
        (
            "balance_of_another_account",
            Severity::Info,
            foreign,
            "row(s) print the balances of another account (their balance before and after do \
             not differ by the amount), while the holder's balance around them moved by exactly \
             their amount",
        ),
        (
            "levy_after_balance",
            Severity::Info,
            levy,
            "row(s) print a balance without their levy, which the next row's balance has taken",
        ),
        (
            "amount_not_printed",
            Severity::Info,
            zero,
            "time(s) where rows print an amount of 0 beside a balance that moved",
        ),
        (
            "row_not_moving_balance",
            Severity::Info,
            idle,
            "group(s) of rows chain only without one of their rows (a two-part payment's total and \
             a charge row of its principal: only the total moved the balance)",
        ),
        (
            "settled_out_of_order",
            Severity::Info,
            settled,
            "time(s) where rows completed seconds apart settled in the other order (a row's \
             balance already holds the rows just after it); together they chain",
        ),
        (
            "balance_chain_break",
            if breaks_are_evidence {
                Severity::Warning
            } else {
                Severity::Info
            },
            breaks,
            "time(s) where the printed balance does not follow from the balance before and the \
             rows' amounts",
        ),
    ];
    for (code, severity, tally, what) in reports {
        if let Some(first) = tally.first {
            findings.push(finding(
                code,
                severity,
                format!("{} {what} (first at {first})", tally.count),
            ));
        }
    }
}
