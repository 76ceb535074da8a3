//! Round trips: money sent to a person and sent back by the same person (or the other way
//! round) within [`ROUND_TRIP_DAYS`] is netted out of income and spending, and rows wholly
//! netted are not counted as activity. Two KES 100 round trips a day with one friend would
//! otherwise add income, spending, "months with income" and transactions for free.
//!
//! Scope: person-to-person rows only (Send Money, money received, Pochi la Biashara), matched by
//! counterparty name (the text after the last `" - "` of the Details, normalised), because the
//! phone number is masked differently in each direction. Matching is first-in first-out in the
//! canonical row order, so it does not depend on the order the statement lists rows in.

use std::collections::{BTreeMap, VecDeque};

use chrono::{Duration, NaiveDateTime};
use rust_decimal::Decimal;

use crate::categorise::{Category, normalise};
use crate::statement::Transaction;

/// Days within which money sent back to the same counterparty nets out.
pub const ROUND_TRIP_DAYS: i64 = 7;

/// Categories whose rows can form round trips.
const PERSON_TO_PERSON: &[Category] = &[
    Category::SendMoney,
    Category::ReceivedMoney,
    Category::PochiLaBiashara,
];

/// The counterparty of a person-to-person row: the normalised name after the last `" - "`.
fn counterparty(details: &str) -> Option<String> {
    let text = normalise(details);
    let (_, name) = text.rsplit_once(" - ")?;
    let name = name.trim();
    (!name.is_empty()).then(|| name.to_owned())
}

/// An amount still open for matching: when it moved and how much is left.
type Open = VecDeque<(NaiveDateTime, Decimal, usize)>;

/// Matches `amount` at `at` against the open amounts of the other direction; returns what was
/// matched and records it on both rows.
fn settle(
    open: &mut Open,
    at: NaiveDateTime,
    mut amount: Decimal,
    row: usize,
    netted: &mut [Decimal],
) -> Decimal {
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
        amount -= m;
        *left -= m;
        netted[row] = netted[row].saturating_add(m);
        netted[*other] = netted[*other].saturating_add(m);
        if left.is_zero() {
            open.pop_front();
        }
    }
    amount
}

/// The amount of each row (same index as `rows`, which are in canonical order) that is part of
/// a round trip; zero for every other row.
pub fn round_trips(rows: &[&Transaction], categories: &[Category]) -> Vec<Decimal> {
    let mut netted = vec![Decimal::ZERO; rows.len()];
    let mut by_party: BTreeMap<String, (Open, Open)> = BTreeMap::new();
    for (i, t) in rows.iter().enumerate() {
        if !PERSON_TO_PERSON.contains(&categories[i]) {
            continue;
        }
        let Some(party) = counterparty(&t.details) else {
            continue;
        };
        let (ins, outs) = by_party.entry(party).or_default();
        if t.paid_in > Decimal::ZERO {
            let left = settle(outs, t.completed_at, t.paid_in, i, &mut netted);
            if left > Decimal::ZERO {
                ins.push_back((t.completed_at, left, i));
            }
        } else if t.withdrawn > Decimal::ZERO {
            let left = settle(ins, t.completed_at, t.withdrawn, i, &mut netted);
            if left > Decimal::ZERO {
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
