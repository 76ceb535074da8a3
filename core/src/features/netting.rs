//! Round trips: money sent to a person and sent back by the same person (or the other way
//! round) within [`ROUND_TRIP_DAYS`] is netted out of income and spending, and rows wholly
//! netted are not counted as activity. Two KES 100 round trips a day with one friend would
//! otherwise add income, spending, "months with income" and transactions for free.
//!
//! Scope: person-to-person rows only (Send Money, money received, Pochi la Biashara), matched by
//! counterparty name (the text after the last `" - "` of the Details, normalised), because the
//! phone number is masked differently in each direction. Matching is first-in first-out in the
//! canonical row order, so it does not depend on the order the statement lists rows in.

use std::collections::{HashMap, VecDeque};

use chrono::{Duration, NaiveDateTime};
use rust_decimal::Decimal;

use crate::amount::Amount;
use crate::categorise::{Category, normalise_into};
use crate::statement::Transaction;

/// Days within which money sent back to the same counterparty nets out.
pub const ROUND_TRIP_DAYS: i64 = 7;

/// Categories whose rows can form round trips.
const PERSON_TO_PERSON: &[Category] = &[
    Category::SendMoney,
    Category::ReceivedMoney,
    Category::PochiLaBiashara,
];

/// The counterparty of a person-to-person row: the normalised name after the last `" - "`
/// (see [`crate::categorise::normalise`]), written into `buffer`.
fn counterparty<'b>(details: &str, buffer: &'b mut String) -> Option<&'b str> {
    let bytes = details.as_bytes();
    // Text of ASCII whose only white space is the space (the Details of every genuine
    // statement): its normal form is its words, split at spaces, lower-cased and joined by
    // one space, so `" - "` in it is a word `-` that is neither the first word nor the last,
    // and the name is the words after it. Only those few words are copied (normalising the
    // whole text took ~600 instructions a row: `callgrind`, 2026-11-27).
    let other_space = bytes.iter().fold(0u8, |odd, b| {
        odd | u8::from(!b.is_ascii()) | u8::from(b.wrapping_sub(b'\t') < 5)
    });
    if other_space == 0 {
        let is_word = |b: &u8| *b != b' ';
        let dash = spaced_dashes(bytes).find(|&dash| {
            bytes[..dash].iter().rev().any(is_word) && bytes[dash + 1..].iter().any(is_word)
        })?;
        buffer.clear();
        for word in details[dash + 1..].split(' ').filter(|w| !w.is_empty()) {
            if !buffer.is_empty() {
                buffer.push(' ');
            }
            buffer.push_str(word);
        }
        buffer.make_ascii_lowercase();
        return Some(buffer.as_str());
    }
    normalise_into(details, buffer);
    let name = buffer
        .get(after_last_separator(buffer.as_bytes())?..)?
        .trim();
    (!name.is_empty()).then_some(name)
}

/// Where the text after the last `" - "` of `text` starts: what `str::rsplit_once(" - ")`
/// splits at, found from the last `-` with a space on each side (the last such `-` is the
/// last match's, since a match's start is its `-` less one), without building a substring
/// searcher per row (`rsplit_once` was a quarter of the round trips' time, `perf`, 2026-11-27).
fn after_last_separator(text: &[u8]) -> Option<usize> {
    spaced_dashes(text).next().map(|dash| dash + 2)
}

/// The positions of the `-`s of `text` with a space on each side (each the middle of a
/// `" - "`), last first.
fn spaced_dashes(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memrchr_iter(b'-', text)
        .filter(|&dash| dash > 0 && text[dash - 1] == b' ' && text.get(dash + 1) == Some(&b' '))
}

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
) -> A {
    let window = Duration::days(ROUND_TRIP_DAYS);
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

/// The amount of each row (same index as `rows`, which are in canonical order) that is part of
/// a round trip; zero for every other row.
pub fn round_trips(rows: &[&Transaction], categories: &[Category]) -> Vec<Decimal> {
    round_trips_in(rows, categories)
}

/// [`round_trips`] in the arithmetic `A` (see [`crate::amount`]).
pub(crate) fn round_trips_in<A: Amount>(rows: &[&Transaction], categories: &[Category]) -> Vec<A> {
    let mut netted = vec![A::ZERO; rows.len()];
    // Each counterparty's open amounts (`books`), found by its name in a hash map through one
    // buffer, so that a row allocates nothing unless its counterparty is new (a `String` per
    // row and a `BTreeMap` of names were a fifth of the features' time on 5,000 rows, `perf`,
    // 2026-11-27). Only lookups: the map's order is never read.
    let mut books: Vec<(Open<A>, Open<A>)> = Vec::new();
    let mut by_party: HashMap<String, usize, foldhash::fast::RandomState> = HashMap::default();
    let mut buffer = String::new();
    for (i, t) in rows.iter().enumerate() {
        if !PERSON_TO_PERSON.contains(&categories[i]) {
            continue;
        }
        let Some(party) = counterparty(&t.details, &mut buffer) else {
            continue;
        };
        let book = if let Some(book) = by_party.get(party) {
            *book
        } else {
            by_party.insert(party.to_owned(), books.len());
            books.push(Default::default());
            books.len() - 1
        };
        let (ins, outs) = &mut books[book];
        let (paid_in, withdrawn) = (A::of(t.paid_in), A::of(t.withdrawn));
        if paid_in.is_positive() {
            let left = settle(outs, t.completed_at, paid_in, i, &mut netted);
            if left.is_positive() {
                ins.push_back((t.completed_at, left, i));
            }
        } else if withdrawn.is_positive() {
            let left = settle(ins, t.completed_at, withdrawn, i, &mut netted);
            if left.is_positive() {
                outs.push_back((t.completed_at, left, i));
            }
        }
    }
    netted
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
        let refs: Vec<&Transaction> = rows.iter().collect();
        let cats: Vec<Category> = rows
            .iter()
            .map(|t| crate::categorise::categorise(&t.details, t.paid_in > t.withdrawn))
            .collect();
        assert_eq!(
            round_trips(&refs, &cats),
            [dec!(60), dec!(60), dec!(0), dec!(0)]
        );
    }

    proptest::proptest! {
        /// The counterparty is the name after the last `" - "` of the normalised text, on texts
        /// of spaces, dashes, letters, other white space and other scripts.
        #[test]
        fn the_counterparty_is_read_from_the_normal_form(
            text in "[ aB-]{0,10}|[ aB\t\u{a0}é-]{0,10}"
        ) {
            let normal = crate::categorise::normalise(&text);
            let expected = normal
                .rsplit_once(" - ")
                .map(|(_, name)| name.trim().to_owned())
                .filter(|name| !name.is_empty());
            let mut buffer = String::from("left over");
            let read = counterparty(&text, &mut buffer).map(str::to_owned);
            proptest::prop_assert_eq!(read, expected);
        }

        /// The split is `rsplit_once`'s, on texts of spaces, dashes and letters.
        #[test]
        fn the_last_separator_is_where_rsplit_once_splits(text in "[ a-]{0,12}") {
            let expected = text.rsplit_once(" - ").map(|(head, _)| head.len() + 3);
            proptest::prop_assert_eq!(after_last_separator(text.as_bytes()), expected);
        }
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
