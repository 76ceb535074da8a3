//! Round trips: money sent to a person and sent back by the same person (or the other way
//! round) within [`ROUND_TRIP_DAYS`] is netted out of income and spending, and rows wholly
//! netted are not counted as activity. Two KES 100 round trips a day with one friend would
//! otherwise add income, spending, "months with income" and transactions for free.
//!
//! Scope: person-to-person rows only (Send Money, money received, Pochi la Biashara), matched by
//! the counterparty each row's wallet names in its text
//! ([`Transaction::counterparty`], derived when the statement is prepared: M-Pesa's name after
//! the last `" - "`, Airtel's number, MTN's name). Legs of the same amount pair first, then what
//! is left nets first-in first-out, both in the canonical row order, so it does not depend on
//! the order the statement lists rows in.
//!
//! **Mirrors** (issue 40): rows that move no money net over minutes are not activity either.
//! A row is undone by its mirror when, within [`MIRROR_MINUTES`], a row of the same kind moves
//! money the other way (see `mirrored_in`):
//! - person to person, the **same amount** back, whoever the counterparty (a round trip with
//!   the holder's own second number is printed under another name, or a bare number, in each
//!   direction); such rows are netted out of income and spending like round trips;
//! - an overdraft (Fuliza), a mobile or digital loan drawn and repaid at once (the repayment
//!   may carry the fee, see `undoes`);
//! - savings put away and taken back (or the other way), and own-account (bank) transfers,
//!   the same amount back;
//!
//! each row matched with the latest open row of its kind that it undoes.
//! - a **reversal** and the row it reverses (the same amount the other way, within
//!   [`ROUND_TRIP_DAYS`] before it): a reversal is never activity, and both rows are netted out
//!   of income and spending like round trips (a reversed bill payment is no bill paid).
//!
//! Mirrors take nothing from savings or bank figures: they stop rows that cost nothing from
//! counting as activity (and, person to person, as income and spending), and credit drawn and
//! repaid at once from counting as credit history (`without_instant_credit`).
//!
//! (Over 400 lines: round trips, mirrors and reversals answer one question, how much of each
//! row moved no money net, and share the matching helpers; then their tests.)

use std::collections::{HashMap, VecDeque};

use chrono::{Duration, NaiveDateTime};
use rust_decimal::Decimal;

use crate::amount::Amount;
use crate::categorise::Category;
use crate::statement::Transaction;

/// Days within which money sent back to the same counterparty nets out.
pub const ROUND_TRIP_DAYS: i64 = 7;

/// Minutes within which a row and its mirror move no money net (see the module notes).
pub const MIRROR_MINUTES: i64 = 60;

/// Categories whose rows can form round trips.
const PERSON_TO_PERSON: &[Category] = &[
    Category::SendMoney,
    Category::ReceivedMoney,
    Category::PochiLaBiashara,
];

/// An amount still open for matching: when it moved and how much is left.
type Open<A> = VecDeque<(NaiveDateTime, A, usize)>;

/// Matches `amount` at `at` against the open amounts of the other direction; returns what was
/// matched and records it on both rows.
fn settle<A: Amount>(
    open: &mut Open<A>,
    at: NaiveDateTime,
    mut amount: A,
    row: usize,
    netted: &mut [A],
    window: Duration,
) -> A {
    while let Some((when, left, other)) = open.front_mut() {
        if at - *when > window {
            open.pop_front();
            continue;
        }
        if amount.is_zero() {
            break;
        }
        let m = amount.min(*left);
        amount = amount.minus(m);
        *left = left.minus(m);
        netted[row] = netted[row].plus(m);
        netted[*other] = netted[*other].plus(m);
        if left.is_zero() {
            open.pop_front();
        }
    }
    amount
}

/// Each row's counterparty as a number when it is a person-to-person row that names one (rows
/// naming the same party share it), numbered from 0 in order of first appearance, and how many
/// there are: the books of [`net_round_trips`]. Found by name in a hash map of the rows' own
/// names, once for both passes (a `BTreeMap` of names was a fifth of the features' time on 5,000
/// rows, `perf`, 2026-11-27). Only lookups: the map's order is never read.
fn parties(rows: &[&Transaction], categories: &[Category]) -> (Vec<Option<usize>>, usize) {
    let mut by_party: HashMap<&str, usize, foldhash::fast::RandomState> = HashMap::default();
    let numbers = rows
        .iter()
        .zip(categories)
        .map(|(t, category)| {
            if !PERSON_TO_PERSON.contains(category) {
                return None;
            }
            let next = by_party.len();
            Some(*by_party.entry(t.counterparty.as_deref()?).or_insert(next))
        })
        .collect();
    (numbers, by_party.len())
}

/// One pass of [`round_trips_in`] over the person-to-person rows, each counterparty's open
/// amounts in a book of its own (`parties`, from [`parties`]), on what `netted` has left of
/// each: with `same_amount`, a row nets only an open row of exactly its amount (the earliest
/// within the window); otherwise first-in first-out, any amounts.
fn net_round_trips<A: Amount>(
    rows: &[&Transaction],
    (parties, count): &(Vec<Option<usize>>, usize),
    netted: &mut [A],
    same_amount: bool,
) {
    let mut books: Vec<(Open<A>, Open<A>)> = Vec::new();
    books.resize_with(*count, Default::default);
    let window = Duration::days(ROUND_TRIP_DAYS);
    for (i, (t, party)) in rows.iter().zip(parties).enumerate() {
        let Some(book) = party else {
            continue;
        };
        let (ins, outs) = &mut books[*book];
        let (paid_in, withdrawn) = (A::of(t.paid_in), A::of(t.withdrawn));
        let (amount, open, other) = if paid_in.is_positive() {
            (paid_in.minus(netted[i]), outs, ins)
        } else if withdrawn.is_positive() {
            (withdrawn.minus(netted[i]), ins, outs)
        } else {
            continue;
        };
        if !amount.is_positive() {
            continue;
        }
        let left = if same_amount {
            settle_same(open, t.completed_at, amount, i, netted, window)
        } else {
            settle(open, t.completed_at, amount, i, netted, window)
        };
        if left.is_positive() {
            other.push_back((t.completed_at, left, i));
        }
    }
}

/// Nets `amount` at `at` against the earliest open amount of the other direction equal to it
/// (after dropping those older than `window`); returns what is left (all of it or nothing).
fn settle_same<A: Amount>(
    open: &mut Open<A>,
    at: NaiveDateTime,
    amount: A,
    row: usize,
    netted: &mut [A],
    window: Duration,
) -> A {
    while open.front().is_some_and(|(when, _, _)| at - *when > window) {
        open.pop_front();
    }
    match open.iter().position(|(_, left, _)| *left == amount) {
        Some(k) => {
            if let Some((_, _, other)) = open.remove(k) {
                netted[row] = netted[row].plus(amount);
                netted[other] = netted[other].plus(amount);
            }
            A::ZERO
        }
        None => amount,
    }
}

/// The amount of each row (same index as `rows`, which are in canonical order) that is part of
/// a round trip; zero for every other row.
pub fn round_trips(rows: &[&Transaction], categories: &[Category]) -> Vec<Decimal> {
    round_trips_in(rows, categories)
}

/// [`round_trips`] in the arithmetic `A` (see [`crate::amount`]).
///
/// Two passes over each counterparty's rows: legs of the **same amount** pair first (the
/// earliest open one within the window), then what is left nets first-in first-out. Without
/// the first pass, money sent to someone who also pays the holder and sent back at once
/// chained through the other payments: each send netted the oldest payment still open, each
/// return the send before it, so the netting moved the holder's income days towards the end of
/// the statement (the totals unchanged) and a round trip a day bought points of income recency
/// (issue 49's conformance suite).
pub(crate) fn round_trips_in<A: Amount>(rows: &[&Transaction], categories: &[Category]) -> Vec<A> {
    let mut netted = vec![A::ZERO; rows.len()];
    let parties = parties(rows, categories);
    net_round_trips(rows, &parties, &mut netted, true);
    net_round_trips(rows, &parties, &mut netted, false);
    // Person-to-person rows no name matched: the same amount back within minutes.
    let unnetted: Vec<usize> = (0..rows.len())
        .filter(|i| PERSON_TO_PERSON.contains(&categories[*i]) && netted[*i].is_zero())
        .collect();
    mirror(rows, unnetted.into_iter(), false, &mut netted);
    reversals(rows, categories, &mut netted);
    netted
}

/// The channels whose rows mirror one another (see the module notes): own-account transfers,
/// Fuliza, mobile loans, digital loans, savings.
const CHANNELS: usize = 5;

/// The channel of a category's rows, and whether it is credit (drawn, then repaid).
fn channel_of(category: Category) -> Option<(usize, bool)> {
    Some(match category {
        Category::OwnAccountTransfer => (0, false),
        Category::FulizaDraw | Category::FulizaRepayment => (1, true),
        Category::MobileLoanDisbursement | Category::MobileLoanRepayment => (2, true),
        Category::DigitalLoanDisbursement | Category::DigitalLoanRepayment => (3, true),
        Category::SavingsDeposit | Category::SavingsWithdrawal => (4, false),
        _ => return None,
    })
}

/// The money a row moves: Paid In when positive, else Withdrawn; with its direction (`true`
/// for money in).
fn moved<A: Amount>(t: &Transaction) -> (A, bool) {
    let paid_in = A::of(t.paid_in);
    if paid_in.is_positive() {
        (paid_in, true)
    } else {
        (A::of(t.withdrawn), false)
    }
}

/// Whether `later` (money in when `later_in`) undoes `earlier` (`earlier_in`): the same amount
/// the other way; for credit, a repayment of the draw and at most its fee (2 % of it and one
/// shilling: Fuliza's access fee is 1 % of the amount drawn, Safaricom's Fuliza tariff).
fn undoes<A: Amount>(
    credit: bool,
    (earlier, earlier_in): (A, bool),
    (later, later_in): (A, bool),
) -> bool {
    if earlier_in == later_in {
        return false;
    }
    if !credit {
        return later == earlier;
    }
    let (drawn, repaid) = (earlier.decimal(), later.decimal());
    earlier_in && repaid >= drawn && repaid - drawn <= drawn / Decimal::from(50) + Decimal::ONE
}

/// An open row of a channel: when, what it moved, and its index.
type OpenRow<A> = (NaiveDateTime, (A, bool), usize);

/// Matches each row of `members` (indexes of `rows`, in canonical order) with the latest
/// earlier open row of them within [`MIRROR_MINUTES`] that it undoes ([`undoes`]); both rows
/// of a match are wholly undone: their amounts are added to their entries of `out`.
fn mirror<A: Amount>(
    rows: &[&Transaction],
    members: impl Iterator<Item = usize>,
    credit: bool,
    out: &mut [A],
) {
    let window = Duration::minutes(MIRROR_MINUTES);
    let mut open: VecDeque<OpenRow<A>> = VecDeque::new();
    for i in members {
        let t = rows[i];
        let this = moved::<A>(t);
        if !this.0.is_positive() {
            continue;
        }
        while open.front().is_some_and(|o| t.completed_at - o.0 > window) {
            open.pop_front();
        }
        let found = open.iter().rposition(|o| undoes(credit, o.1, this));
        if let Some((_, (amount, _), j)) = found.and_then(|k| open.remove(k)) {
            out[i] = out[i].plus(this.0);
            out[j] = out[j].plus(amount);
        } else {
            open.push_back((t.completed_at, this, i));
        }
    }
}

/// The amount of each row (same index as `rows`, in canonical order) that moved no money net:
/// `netted` (the round trips, [`round_trips_in`]) or, when more, what a mirror undoes (see the
/// module notes). Rows whose rest is below the activity threshold are not activity.
pub(crate) fn mirrored_in<A: Amount>(
    rows: &[&Transaction],
    categories: &[Category],
    netted: &[A],
) -> Vec<A> {
    let mut mirrored = vec![A::ZERO; rows.len()];
    let mut members: [Vec<usize>; CHANNELS] = Default::default();
    let mut credit = [false; CHANNELS];
    for (i, c) in categories.iter().enumerate() {
        if let Some((channel, is_credit)) = channel_of(*c) {
            members[channel].push(i);
            credit[channel] = is_credit;
        }
    }
    for (rows_of, is_credit) in members.into_iter().zip(credit) {
        mirror(rows, rows_of.into_iter(), is_credit, &mut mirrored);
    }
    for (m, n) in mirrored.iter_mut().zip(netted) {
        *m = (*m).max(*n);
    }
    mirrored
}

/// `categories` with the credit rows (Fuliza, mobile and digital loans) that a mirror undoes
/// within minutes (see the module notes) as [`Category::Other`]: a draw repaid at once is no
/// credit history, so it cannot buy a record of punctual repayment.
pub(crate) fn without_instant_credit(
    rows: &[&Transaction],
    categories: &[Category],
) -> Vec<Category> {
    let mut out = categories.to_vec();
    let credit = |c: &Category| channel_of(*c).is_some_and(|(_, credit)| credit);
    if !categories.iter().any(credit) {
        return out;
    }
    let none = vec![Decimal::ZERO; rows.len()];
    let mirrored = mirrored_in::<Decimal>(rows, categories, &none);
    for ((c, t), m) in out.iter_mut().zip(rows).zip(&mirrored) {
        if credit(c) && *m >= moved::<Decimal>(t).0 && !m.is_zero() {
            *c = Category::Other;
        }
    }
    out
}

/// A reversal row is wholly undone, and so is the row it reverses: the latest earlier row,
/// not a reversal and not matched yet, of the same amount the other way within
/// [`ROUND_TRIP_DAYS`].
fn reversals<A: Amount>(rows: &[&Transaction], categories: &[Category], out: &mut [A]) {
    let window = Duration::days(ROUND_TRIP_DAYS);
    let mut reversed = vec![false; rows.len()];
    for (i, t) in rows.iter().enumerate() {
        if categories[i] != Category::Reversal {
            continue;
        }
        let (amount, inward) = moved::<A>(t);
        out[i] = out[i].plus(amount);
        let original = (0..i)
            .rev()
            .take_while(|j| t.completed_at - rows[*j].completed_at <= window)
            .find(|j| {
                let (other, other_in) = moved::<A>(rows[*j]);
                !reversed[*j]
                    && categories[*j] != Category::Reversal
                    && other_in != inward
                    && other == amount
            });
        if let Some(j) = original {
            reversed[j] = true;
            out[j] = out[j].plus(amount);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statement::TransactionStatus;
    use chrono::NaiveDate;
    use rust_decimal_macros::dec;

    fn row(day: u32, details: &str, paid_in: Decimal, withdrawn: Decimal) -> Transaction {
        Transaction {
            receipt_no: format!("R{day}"),
            completed_at: NaiveDate::from_ymd_opt(2024, 1, day)
                .and_then(|d| d.and_hms_opt(9, 0, 0))
                .unwrap_or_default(),
            details: details.to_owned(),
            status: TransactionStatus::Completed,
            paid_in,
            withdrawn,
            balance: None,
            category: Category::Uncategorised,
            ..crate::statement::Transaction::empty()
        }
    }

    #[test]
    fn money_sent_back_within_a_week_nets_out() {
        let rows = [
            row(
                1,
                "Customer Transfer to 0712***678 - JANE DOE",
                dec!(0),
                dec!(100),
            ),
            row(
                2,
                "Funds received from 2547***999 - Jane  Doe",
                dec!(60),
                dec!(0),
            ),
            // Too late for the first transfer's remaining 40.
            row(
                20,
                "Funds received from 2547***999 - JANE DOE",
                dec!(40),
                dec!(0),
            ),
            row(
                21,
                "Funds received from 0700 - JOHN ROE",
                dec!(500),
                dec!(0),
            ),
        ];
        // Prepared as a Safaricom statement: categories and counterparties in its words.
        let mut statement = crate::statement::Statement {
            transactions: rows.to_vec(),
            ..crate::statement::Statement::default()
        };
        crate::parse::prepare(&mut statement);
        let refs: Vec<&Transaction> = statement.transactions.iter().collect();
        let cats: Vec<Category> = statement.transactions.iter().map(|t| t.category).collect();
        assert_eq!(
            round_trips(&refs, &cats),
            [dec!(60), dec!(60), dec!(0), dec!(0)]
        );
    }

    #[test]
    fn only_person_to_person_rows_net() {
        let rows = [
            row(1, "Pay Bill to 888880 - KPLC PREPAID", dec!(0), dec!(100)),
            row(
                2,
                "Business Payment from 1 - KPLC PREPAID via API",
                dec!(100),
                dec!(0),
            ),
        ];
        let refs: Vec<&Transaction> = rows.iter().collect();
        let cats = [Category::Utilities, Category::SalaryAndBusinessPayments];
        assert_eq!(round_trips(&refs, &cats), [dec!(0), dec!(0)]);
    }
}
