//! The reading order of a statement's rows: the one order every stage of a report reads them
//! in, whatever order the source lists them in (M-Pesa: newest first). Part of the statement
//! model, so that the features, the integrity checks and the report id share it.

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use super::{Statement, Transaction};

/// The order every stage of a report reads rows in: completion time, then receipt number,
/// Details, Paid In, Withdrawn and Balance. Completed rows that tie are alike in all the
/// features read (a prepared row's category follows from its Details and amounts), so the
/// features do not depend on the order a statement lists its rows in.
pub fn sort_key(t: &Transaction) -> (NaiveDateTime, &str, &str, Decimal, Decimal, Option<Decimal>) {
    (
        t.completed_at,
        &t.receipt_no,
        &t.details,
        t.paid_in,
        t.withdrawn,
        t.balance,
    )
}

/// `rows` (each with its index in the statement) in the order they are read in: by
/// [`sort_key`], then by index. Made as a stable sort of completion times as integers (cheap to
/// compare; rows listed in either time order are sorted in one pass, see
/// `crate::order::sort_stable_by_key`), then a sort by the whole key and index of the few
/// rows that share a time.
pub fn reading_order<'a>(
    rows: impl Iterator<Item = (usize, &'a Transaction)>,
) -> Vec<(usize, &'a Transaction)> {
    let mut keyed: Vec<(i64, u32, usize, &Transaction)> = rows
        .map(|(i, t)| {
            let at = t.completed_at.and_utc();
            (at.timestamp(), at.timestamp_subsec_nanos(), i, t)
        })
        .collect();
    crate::order::sort_stable_by_key(&mut keyed, |k| (k.0, k.1));
    for same_time in keyed.chunk_by_mut(|a, b| (a.0, a.1) == (b.0, b.1)) {
        if same_time.len() > 1 {
            same_time.sort_by(|a, b| (sort_key(a.3), a.2).cmp(&(sort_key(b.3), b.2)));
        }
    }
    keyed.into_iter().map(|k| (k.2, k.3)).collect()
}

/// Every row of `rows` in reading order ([`reading_order`]): rows that share every field of
/// [`sort_key`] in their listed order.
pub fn in_reading_order(rows: &[Transaction]) -> Vec<&Transaction> {
    reading_order(rows.iter().enumerate())
        .into_iter()
        .map(|(_, t)| t)
        .collect()
}

/// A statement and its rows in reading order ([`in_reading_order`]): what the stages of a
/// report read (the features, the integrity checks, the report id), made once per report so
/// that the rows are put in order once (until 2026-11-27 each stage sorted them itself).
///
/// Made by [`Statement::reading`]; a stage that takes one reads `rows` for the order and
/// `statement` for everything else (header, period, document, unread lines).
#[derive(Debug, Clone)]
pub struct Reading<'a> {
    /// The statement, its rows as listed.
    pub statement: &'a Statement,
    /// Every row of the statement (cancelled and failed ones too), in reading order.
    pub rows: Vec<&'a Transaction>,
    /// When `rows` are several accounts' (an application's, [`crate::score_application`]):
    /// each account's rows (the same rows, in reading order), whose printed balances are that
    /// account's alone, so the balance features add the accounts' end-of-day balances. Empty
    /// for one statement, whose rows' balances are its own.
    pub accounts: Vec<Vec<&'a Transaction>>,
}

impl Statement {
    /// This statement with its rows in reading order, for the stages of a report
    /// ([`crate::features::compute`], [`crate::check::check`]). Sorts the rows: O(n log n), one
    /// pass when they are listed in either time order.
    pub fn reading(&self) -> Reading<'_> {
        Reading {
            statement: self,
            rows: in_reading_order(&self.transactions),
            accounts: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;

    use super::*;
    use crate::statement::TransactionStatus;

    proptest::proptest! {
        /// The cheap reading order is the stable sort by the whole key.
        #[test]
        fn reading_order_is_the_stable_sort_by_key(
            rows in proptest::collection::vec((0i64..4, 0u32..3, 0u8..3, 0i64..3), 0..40)
        ) {
            let rows: Vec<Transaction> = rows
                .into_iter()
                .map(|(secs, nanos, receipt, amount)| Transaction {
                    receipt_no: format!("R{receipt}"),
                    completed_at: chrono::DateTime::from_timestamp(1_700_000_000 + secs, nanos * 500_000_000)
                        .unwrap_or_default()
                        .naive_utc(),
                    status: TransactionStatus::Completed,
                    paid_in: Decimal::new(amount, 2),
                    ..Transaction::empty()
                })
                .collect();
            let mut expected: Vec<usize> = (0..rows.len()).collect();
            expected.sort_by(|a, b| sort_key(&rows[*a]).cmp(&sort_key(&rows[*b])));
            let read: Vec<usize> = reading_order(rows.iter().enumerate()).into_iter().map(|(i, _)| i).collect();
            proptest::prop_assert_eq!(read, expected);
        }
    }
}
