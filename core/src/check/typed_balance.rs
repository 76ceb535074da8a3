//! A digit of a printed balance typed over (issue 50): a borrower who raises a balance edits
//! that figure and leaves the rows around it as printed. The chain then breaks into the row and
//! out of it, and the printed balance is one digit away from the balance the rows reach (the
//! same length, [`one_digit_apart`]): `balance_digit_edited`, critical, as a digit typed over
//! an amount is (`amount_digit_edited`).
//!
//! Read by Safaricom's chain ([`super::balance`]: a balance whose breaks cancel out, or a group
//! of rows sharing a completion time that chains once one of its balances is typed back, a
//! Fuliza group included) and by the chain of a wallet whose breaks are evidence
//! ([`super::listed`]: Airtel Uganda, MTN Ghana; a group whose rows chain once one balance is
//! typed back, the next group going on from where they then end). Where a wallet's genuine
//! breaks are not all explained (Vodacom Lesotho), only a gap of one unit or more and more
//! than a charge taken or credited without its row may be, in a group whose every row moved,
//! the next group going on from the balance the rows reach (a smaller gap stays a break,
//! `info`). Not where the row prints a neighbour's balance (on Safaricom a gap of one of the
//! next row's amounts, or undoing its own: `unlisted_movements`; on Vodacom the same, the next
//! group's net included).
//! On the genuine samples no balance is one digit away from the balance its rows reach: the one
//! Safaricom group that does not chain (a Fuliza draw of 423.02 printing 660.00 beside a
//! charge printing 0.00, 2023 sample) needs more than one digit changed.

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use super::typed_over::{CENT, digit_typed_back, one_digit_apart};
use super::{finding, first_row};
use crate::report::{Finding, Severity};
use crate::statement::Transaction;

/// A row whose printed balance is one digit away from the balance its rows reach.
pub(super) struct TypedBalance {
    at: NaiveDateTime,
    receipt: String,
    /// The printed balance and the balance the rows reach, in the statement's currency.
    printed: Decimal,
    reached: Decimal,
}

impl TypedBalance {
    /// `row`, when its printed balance and `reached` (the balance its rows reach) are one digit
    /// apart.
    pub(super) fn of(row: &Transaction, reached: Decimal) -> Option<Self> {
        let printed = row.balance?;
        (!printed.is_sign_negative() && one_digit_apart(printed, reached, CENT)).then(|| Self {
            at: row.completed_at,
            receipt: row.receipt_no.clone(),
            printed,
            reached,
        })
    }

    /// The first row of `group` whose printed balance is one digit away from one of the
    /// `candidates` it may have printed (the balances its rows reach) with which the group
    /// `chains` (the row and the balance it is read as printing).
    pub(super) fn in_group(
        group: &[&Transaction],
        candidates: impl Fn(&Transaction) -> Vec<Decimal>,
        chains: impl Fn(&Transaction, Decimal) -> bool,
    ) -> Option<Self> {
        group.iter().find_map(|t| {
            candidates(t)
                .into_iter()
                .filter_map(|b| Self::of(t, b))
                .find(|typed| chains(t, typed.reached))
        })
    }

    /// Every balance `printed` (not negative) is with one digit typed back: candidates for
    /// [`TypedBalance::in_group`] where the balance the rows reach is not known. A balance below
    /// ten may have been 0.00 (an empty wallet's balance, raised to 5.00).
    pub(super) fn typed_back(printed: Option<Decimal>) -> Vec<Decimal> {
        let Some(printed) = printed.filter(|b| !b.is_sign_negative()) else {
            return Vec::new();
        };
        let empty = (printed < Decimal::TEN).then_some(Decimal::ZERO);
        digit_typed_back(printed, CENT).chain(empty).collect()
    }
}

/// The critical finding `balance_digit_edited` for the rows `typed` (none: no finding).
pub(super) fn report(typed: &[TypedBalance], findings: &mut Vec<Finding>) {
    let Some(first) = typed.first() else {
        return;
    };
    findings.push(finding(
        "balance_digit_edited",
        Severity::Critical,
        format!(
            "{} row(s) print a balance one digit away from the balance the rows before and after \
             it reach, the shape of a digit typed over (first at {}: printed {}, the \
             rows reach {})",
            typed.len(),
            first_row(first.at, &first.receipt),
            first.printed,
            first.reached
        ),
    ));
}
