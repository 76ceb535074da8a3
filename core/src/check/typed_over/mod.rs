//! A digit typed over an amount (`amount_digit_edited`, critical; issue 50): on a wallet whose
//! statements list every movement, a chain break that one row's amount explains, when the
//! printed amount and the amount the row's balances moved by differ in exactly one digit
//! (300.00 printed beside a 900.00 step), the balances left as they were.

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use super::{finding, first_row};
use crate::report::{Finding, Severity};
use crate::statement::Transaction;

mod charge_step;
mod moves;
mod order;
mod principal;
mod shape;
mod silent;
mod tariff;

pub(super) use charge_step::charge_off_its_step;
use moves::moves;
pub(super) use order::{
    beside_another_row, broke_last, end_in_order, first_end, in_order, own_balances_disagree,
    reachable,
};
pub(super) use principal::{paired_principal, principal, total_off_principal};
pub(super) use shape::small_charge;
use shape::{Before, Reading, Shape, is_send, takes_no_charge, uncharged, wants_charge_row};
pub(super) use silent::Silent;

/// A row whose printed amount is one digit off the amount its balances moved by
/// ([`one_digit_apart`]), found by the chain of a wallet that lists every movement
/// ([`super::listed`]). Not on Safaricom's chain ([`super::balance`]): its movements without a
/// row (Fuliza repayments and others) are often round, and on the 2023 sample 27 of them sit
/// beside a row one digit off (20.00 printed, 80.00 moved); its edits show in the SUMMARY
/// instead.
pub(super) struct TypedOver {
    at: NaiveDateTime,
    receipt: String,
    /// The row's printed net (paid in − withdrawn) and the net its balances moved by, in the
    /// statement's currency.
    printed: Decimal,
    moved: Decimal,
}

impl TypedOver {
    /// `row`, whose balances moved by `moved` (signed as its net), when `moved` and the row's
    /// printed net are [`one_digit_apart`] by at least `least` (major units).
    fn of(row: &Transaction, moved: Decimal, least: Decimal) -> Option<Self> {
        one_digit_apart(row.net(), moved, least).then(|| Self {
            at: row.completed_at,
            receipt: row.receipt_no.clone(),
            printed: row.net(),
            moved,
        })
    }
}

/// A digit worth ten currency units or more (the tens or higher) typed over counts on every
/// wallet that lists every movement. Below it, on a wallet whose genuine chains break for
/// reasons not all explained (`breaks_are_evidence: false`), a units or cents digit counts
/// unless the break may be one of the wallet's own movements without a row ([`Silent`]).
const TENS: Decimal = Decimal::TEN;

/// Whether a row's printed net and the net its balances moved by have the same sign and, written
/// with two decimals, the same number of digits, differing in exactly one of them by `least`
/// or more: a digit typed over (300.00 printed for a 900.00 step; issue 50's Lesotho forgery).
pub(in crate::check) fn one_digit_apart(printed: Decimal, moved: Decimal, least: Decimal) -> bool {
    if printed.is_zero() || printed.is_sign_negative() != moved.is_sign_negative() {
        return false;
    }
    if (printed - moved).abs() < least {
        return false;
    }
    let (a, b) = (
        format!("{:.2}", printed.abs()),
        format!("{:.2}", moved.abs()),
    );
    a.len() == b.len() && a.bytes().zip(b.bytes()).filter(|(x, y)| x != y).count() == 1
}

/// A cent, the least a digit typed over may be worth.
pub(in crate::check) const CENT: Decimal = Decimal::from_parts(1, 0, 0, false, 2);

/// Every amount that `printed` (positive) is with one digit worth `least` or more changed
/// (written with two decimals; the leading digit never to 0, the length kept): what a digit
/// typed over may have been.
pub(in crate::check) fn digit_typed_back(
    printed: Decimal,
    least: Decimal,
) -> impl Iterator<Item = Decimal> {
    let digits: Vec<u32> = format!("{printed:.2}")
        .bytes()
        .filter(u8::is_ascii_digit)
        .map(|b| u32::from(b - b'0'))
        .collect();
    let len = digits.len();
    (0..len).flat_map(move |i| {
        let now = digits[i];
        // The digit's worth: a cent for the last, ten times more for each one before it.
        let unit = u32::try_from(len - 1 - i)
            .ok()
            .and_then(|p| 10i128.checked_pow(p))
            .and_then(|u| Decimal::try_from_i128_with_scale(u, 2).ok())
            .filter(|u| *u >= least);
        (0..=9u32)
            .filter(move |d| *d != now && !(i == 0 && *d == 0))
            .filter_map(move |d| {
                let step = (Decimal::from(d) - Decimal::from(now)).checked_mul(unit?)?;
                printed.checked_add(step)
            })
    })
}

/// The row of a `group` of rows that breaks the chain, read from the running `balance` (`net`:
/// the group's printed net), whose amount, replaced by the amount the printed balances say it
/// moved, makes the group chain, when the two are [`one_digit_apart`]: by any digit where
/// `breaks_are_evidence`, else by [`TENS`] or more, or by less where no movement without a row
/// ([`Silent`]) may be the difference; and the balance the group then ends on. Where no reading
/// from the running balance ends on a balance the group prints, and the group's first row does
/// not print the running balance as its own balance before (MTN's `BAL BEFORE`), each other
/// balance the group before prints is tried (that group may have ended on it: a charge taken
/// twice, a row printing 0 beside its receipt).
pub(super) fn in_group(
    group: &[&Transaction],
    balance: Decimal,
    net: Decimal,
    next_before: Option<Decimal>,
    breaks_are_evidence: bool,
    silent: &Silent,
) -> Option<(TypedOver, Decimal)> {
    let readings = principal::two_part_readings(group, breaks_are_evidence);
    let shape = Shape::of(group, next_before, breaks_are_evidence);
    // Each other balance the group before prints only where no reading from the running balance
    // ends on a balance the group prints (the group chains once its principal is left out), and
    // where the group's first row does not print the running balance as its own balance before
    // (MTN's BAL BEFORE: the row says where it started; a levy the balance before it left out
    // is taken there, and a row raised by the levy's amount must not be read from the other).
    let only_running = readings.iter().any(|(_, left_out)| {
        group
            .iter()
            .any(|t| t.balance == Some(balance + net - left_out))
    }) || group.first().and_then(|t| t.balance_before) == Some(balance);
    // From the running balance, from it moved by the one charge the printed tariff allows the
    // group before to have taken without a row, then from each other balance it prints.
    let running = (balance, silent.after_unprinted, silent.after_unknown_credit);
    let pinned = silent
        .pinned(balance)
        .map(|b| ((b, false, false), Before::Pinned));
    let befores = std::iter::once((running, Before::Running))
        .chain(pinned)
        .chain(
            silent
                .others
                .iter()
                .filter(|_| !only_running)
                .map(|&other| (other, silent.others_from)),
        );
    let all: Vec<Reading<'_>> = befores
        .flat_map(|((before, after_unprinted, after_unknown_credit), from)| {
            readings.iter().map(move |(skip, left_out)| Reading {
                before,
                expected: before + net - left_out,
                skip,
                after_unprinted,
                after_unknown_credit,
                from,
            })
        })
        .collect();
    let explained: Vec<bool> = (0..group.len())
        .map(|i| explained(&shape, &all, i, breaks_are_evidence, silent))
        .collect();
    // A reading from a balance the group before only passed through clears a row (above), but
    // shows no digit.
    all.iter()
        .filter(|reading| reading.from != Before::Passed)
        .find_map(|reading| from(&shape, reading, &explained, breaks_are_evidence, silent))
}

/// [`in_group`] for one [`Reading`] of a group's [`Shape`]. A row moved by what the group's end
/// leaves once the other rows are taken off, or, where breaks are no evidence, by its own step
/// from the balance before the group ([`Shape::own_step`]: a group with a charge taken twice
/// ends off its rows' sum, but the row's own step still shows its digit). Its step from another
/// row's balance clears it, and shows a digit of ten units or more only from a row printing 0
/// (the other row may have come after it, its own amount then read back). A row that any
/// reading of the group explains ([`explained`], worked out once for every row) is never one
/// digit off by another. Beside or after a row printing 0
/// left unknown (a charge printing 0 may have been taken or credited), a movement is also read
/// off by each charge the statement prints, more or less (to clear a row in a group of money in
/// whose rows printing 0 are charge rows, only less, by the charge each shows:
/// [`Shape::charges_credited`]); such a reading shows a digit only where the
/// movement as read is twenty units or more off the printed amount (an unknown charge and a
/// printed one may add up to a round difference: a withdrawal charge of 11.84 unprinted beside
/// a printed 1.84 makes ten; twenty would take a charge of twenty units more than another).
/// After a withdrawal charge taken or credited without a row that the printed tariff bounds, a
/// row read from the running balance off by more or less than the bounds allow is also read
/// off by each charge of the tariff within them ([`Silent::band_readings`]).
fn from(
    shape: &Shape<'_>,
    reading: &Reading<'_>,
    explained: &[bool],
    breaks_are_evidence: bool,
    silent: &Silent,
) -> Option<(TypedOver, Decimal)> {
    shape
        .rows
        .iter()
        .enumerate()
        .filter(|(i, _)| !reading.skip.contains(i) && !explained[*i])
        .find_map(|(_, row)| {
            let (shows, _) = moves(shape, reading, row, breaks_are_evidence, silent);
            shows.iter().find_map(|show| {
                let m = show.moved;
                let least = if breaks_are_evidence {
                    Decimal::ZERO
                } else {
                    silent.least(shape, reading, row, m, show.held_back, show.landed)?
                };
                // Off by a printed charge only where the movement is twenty units or more off.
                let mut read = if (m - row.net()).abs() >= TENS + TENS {
                    read_as(shape, reading, row, m, breaks_are_evidence, silent, false)
                } else {
                    vec![m]
                };
                if !breaks_are_evidence && reading.from == Before::Running {
                    read.extend(silent.band_readings(shape, row, m));
                    read.extend(silent.transfer.send_readings(&silent.tariff, shape, row, m));
                }
                read.into_iter()
                    .find_map(|x| TypedOver::of(row, x, least))
                    .map(|typed| (typed, show.after))
            })
        })
}

/// Whether any reading of a group (`all`: from any balance before, row `i` not left out)
/// explains its row `i`, exactly or as one of the wallet's own movements without a row in a
/// group that then chains ([`Silent::excuses`]): such a row is never one digit off by another
/// reading.
fn explained(
    shape: &Shape<'_>,
    all: &[Reading<'_>],
    i: usize,
    breaks_are_evidence: bool,
    silent: &Silent,
) -> bool {
    let row = shape.rows[i];
    all.iter().filter(|r| !r.skip.contains(&i)).any(|r| {
        let (shows, clears) = moves(shape, r, row, breaks_are_evidence, silent);
        shows.iter().map(|s| s.moved).chain(clears).any(|m| {
            read_as(shape, r, row, m, breaks_are_evidence, silent, true).contains(&row.net())
                || (!breaks_are_evidence && silent.excuses(shape, r, row, m))
        })
    })
}

/// What `m` reads as under a reading: itself, then, beside or after a row printing 0 left
/// unknown, off by each charge the statement prints on another row, less and more (for the
/// guard, in a group of money in whose rows printing 0 show the charges credited, off by those
/// charges, and only less: [`Shape::charges_credited`]); for the
/// guard ([`explained`]), also in a group that took a charge without its row
/// ([`uncharged`]: a row explained so is never one digit off by another reading, but
/// such a reading shows no digit of its own).
fn read_as(
    shape: &Shape<'_>,
    reading: &Reading<'_>,
    row: &Transaction,
    m: Decimal,
    breaks_are_evidence: bool,
    silent: &Silent,
    guard: bool,
) -> Vec<Decimal> {
    let mut read = vec![m];
    let unknown = (guard && !breaks_are_evidence && uncharged(shape.rows))
        || (!breaks_are_evidence && reading.after_unprinted);
    // For the guard, a group whose rows printing 0 show the charges credited is read off by
    // those charges alone, and only less: a credited charge raised the balance by its amount.
    let credited = (guard && !unknown && shape.unprinted)
        .then(|| shape.charges_credited(&silent.charges))
        .flatten();
    if let Some(credited) = credited {
        read.extend(credited.iter().map(|c| m - c));
    } else if unknown || shape.unprinted {
        read.extend(silent.charges_beside(row).flat_map(|c| [m - c, m + c]));
    }
    read
}

/// The critical finding `amount_digit_edited` for the rows `typed` (none: no finding).
pub(super) fn report(typed: &[TypedOver], findings: &mut Vec<Finding>) {
    let Some(first) = typed.first() else {
        return;
    };
    findings.push(finding(
        "amount_digit_edited",
        Severity::Critical,
        format!(
            "{} row(s) print an amount one digit away from the amount their balances moved by \
             on a wallet that lists every movement, the shape of a digit typed over (first at \
             {}: printed {}, the balances moved {})",
            typed.len(),
            first_row(first.at, &first.receipt),
            first.printed.abs(),
            first.moved.abs()
        ),
    ));
}

#[cfg(test)]
mod tests;
