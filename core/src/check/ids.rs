//! Transaction ids against their rows' times, where a wallet's ids say when they were made
//! (its profile's [`Ids`], measured on genuine samples). An invented row with a made-up id, or a
//! row whose date was moved, shows here even when every balance agrees. Read in reading order,
//! so the listed order cannot matter.
//!
//! - `ids_out_of_order` (warning), where ids are numbers that rise with time (Airtel Uganda's
//!   Transaction ID, MTN Ghana's `F_ID`): a row whose id is lower than the id of a row
//!   completed strictly earlier. Rows that share a completion time are not compared with each
//!   other (Airtel prints times to the minute).
//! - `receipt_off_day` (warning), where each id carries its day (M-Pesa Kenya's receipts): a
//!   completed row whose receipt carries another day than the day it was completed, no day, or
//!   is missing. The rows of a reversal's receipt may complete on a later day than the
//!   receipt's, and any row in the first minutes after midnight on the next day. Read only on a
//!   statement whose receipts follow the scheme: nine in ten rows or more carry their own day,
//!   as every genuine statement's do (18,830 of 18,831 on the seven Kenyan samples, the other a
//!   reversal). A statement of made-up receipts (`TST0000001`, a test's or a hand-built one's)
//!   or of another scheme is not read: it shows nothing either way. The scheme is public: a
//!   forger who gives an invented row a receipt of its day, or edits a receipt's first three
//!   characters with its date, is not seen here.

use std::collections::BTreeSet;

use super::finding;
use crate::report::{Finding, Severity};
use crate::statement::{Category, Transaction};
use crate::wallets::{Ids, Wallet};

/// The share of a statement's rows (tenths) whose receipts must carry their own day for the
/// statement to be read as one that follows the wallet's scheme (genuine M-Pesa statements:
/// 18,830 of 18,831 receipts).
const TENTHS_CARRYING: usize = 9;

/// The minutes after midnight within which a row may complete on the day after its receipt's:
/// a receipt is made when a transaction starts, and one started a moment before midnight
/// completes after it (none of the samples' 18,831 rows needs it; 12 complete in the first ten
/// minutes of a day, each with its own day's receipt).
const MIDNIGHT_MINUTES: u32 = 5;

/// Adds `ids_out_of_order` or `receipt_off_day` where `wallet`'s ids say when they were made
/// and some of `by_time` (the rows in reading order) disagree.
pub(super) fn check(wallet: &Wallet, by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    match wallet.profile.ids {
        Ids::Unordered => {}
        Ids::RiseWithTime => rising(wallet, by_time, findings),
        Ids::CarryTheirDay { day_of } => carrying(wallet, day_of, by_time, findings),
    }
}

fn rising(wallet: &Wallet, by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    // The highest id of the rows before the current completion time, and of the rows at it.
    let mut before: Option<u128> = None;
    let mut at_time: Option<u128> = None;
    let mut time = None;
    let mut out_of_order: Vec<&Transaction> = Vec::new();
    for row in by_time {
        let Ok(id) = row.receipt_no.trim().parse::<u128>() else {
            continue;
        };
        if time != Some(row.completed_at) {
            before = before.max(at_time);
            at_time = None;
            time = Some(row.completed_at);
        }
        if before.is_some_and(|b| id < b) {
            out_of_order.push(row);
        }
        at_time = at_time.max(Some(id));
    }
    let Some(first) = out_of_order.first() else {
        return;
    };
    findings.push(finding(
        "ids_out_of_order",
        Severity::Warning,
        format!(
            "{} row(s) carry a transaction id lower than a row completed earlier, where {} numbers \
             its transactions in time order: a row was invented or its date edited (first at {}, \
             id {})",
            out_of_order.len(),
            wallet.operator,
            first.completed_at,
            first.receipt_no
        ),
    ));
}

fn carrying(
    wallet: &Wallet,
    day_of: fn(&str) -> Option<chrono::NaiveDate>,
    by_time: &[&Transaction],
    findings: &mut Vec<Finding>,
) {
    // Every row of a reversal's receipt may complete after the receipt's day (the refunded
    // charge, the overdraft repaid from the credit), never before it.
    let reversed: BTreeSet<&str> = by_time
        .iter()
        .filter(|r| r.category == Category::Reversal)
        .map(|r| r.receipt_no.trim())
        .filter(|r| !r.is_empty())
        .collect();
    let just_after_midnight =
        chrono::NaiveTime::from_hms_opt(0, MIDNIGHT_MINUTES, 0).unwrap_or_default();
    let carries = |r: &Transaction| {
        let receipt = r.receipt_no.trim();
        let Some(day) = day_of(receipt) else {
            return false;
        };
        let completed = r.completed_at.date();
        day == completed
            || (day < completed && reversed.contains(receipt))
            || (day.succ_opt() == Some(completed) && r.completed_at.time() < just_after_midnight)
    };
    let carrying = by_time.iter().filter(|r| carries(r)).count();
    // Nine in ten rows or more carry their own day (with one row off: ten rows or more).
    if carrying == 0 || carrying * 10 < by_time.len() * TENTHS_CARRYING {
        return;
    }
    // Completed rows only (a row that did not complete moved no money); a row without a
    // receipt is off too: every row of such a wallet carries one.
    let off: Vec<&Transaction> = by_time
        .iter()
        .filter(|r| r.is_completed() && !carries(r))
        .copied()
        .collect();
    let Some(first) = off.first() else {
        return;
    };
    findings.push(finding(
        "receipt_off_day",
        Severity::Warning,
        format!(
            "{} completed row(s) carry no receipt, or one whose first three characters ({}'s \
             code of the day a receipt is made) name no day or another day than the row's \
             completion, where {carrying} of the statement's {} rows carry their own day: a row \
             was invented or its date edited (first completed at {}, receipt {:?})",
            off.len(),
            wallet.operator,
            by_time.len(),
            first.completed_at,
            first.receipt_no.trim()
        ),
    ));
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::NaiveDate;

    fn row(id: &str, minute: u32) -> Transaction {
        Transaction {
            receipt_no: id.to_owned(),
            completed_at: NaiveDate::from_ymd_opt(2026, 3, 4)
                .and_then(|d| d.and_hms_opt(9, minute, 0))
                .unwrap_or_default(),
            ..Transaction::empty()
        }
    }

    fn codes(wallet: &str, rows: &[Transaction]) -> Vec<String> {
        let wallet = crate::wallets::find(wallet).expect("registered");
        let by_time: Vec<&Transaction> = rows.iter().collect();
        let mut findings = Vec::new();
        check(wallet, &by_time, &mut findings);
        findings.into_iter().map(|f| f.code).collect()
    }

    #[test]
    fn a_lower_id_after_a_higher_one_is_out_of_order_but_not_within_one_minute() {
        let rising = [row("100", 1), row("102", 2), row("101", 2), row("103", 3)];
        assert!(codes("airtel-money-ug", &rising).is_empty());
        let invented = [row("100", 1), row("102", 2), row("101", 3)];
        assert_eq!(codes("airtel-money-ug", &invented), ["ids_out_of_order"]);
        // A wallet whose ids are not numbered in time order is not checked.
        assert!(codes("mpesa", &invented).is_empty());
    }

    /// A row completed on `day` of September 2023 at 10:00 whose receipt carries `receipt_day`
    /// (10 to 30: `RIA…` to `RIU…`).
    fn mpesa(receipt_day: u32, day: u32) -> Transaction {
        assert!((10..=30).contains(&receipt_day) && (1..=30).contains(&day));
        let code = char::from(b'A' + u8::try_from(receipt_day - 10).unwrap_or(0));
        Transaction {
            receipt_no: format!("RI{code}5XXXXXX"),
            completed_at: NaiveDate::from_ymd_opt(2023, 9, day)
                .and_then(|d| d.and_hms_opt(10, 0, 0))
                .unwrap_or_default(),
            ..Transaction::empty()
        }
    }

    #[test]
    fn a_receipt_of_another_day_is_off_where_the_receipts_carry_their_days() {
        let mut rows: Vec<Transaction> = (11..=20).map(|d| mpesa(d, d)).collect();
        assert!(codes("mpesa", &rows).is_empty());
        // A row whose date was moved from the 14th to the 24th.
        rows[3].completed_at = mpesa(24, 24).completed_at;
        assert_eq!(codes("mpesa", &rows), ["receipt_off_day"]);
        // A reversal may complete after its receipt's day, never before.
        rows[3].category = Category::Reversal;
        assert!(codes("mpesa", &rows).is_empty());
        rows[3].completed_at = mpesa(12, 12).completed_at;
        assert_eq!(codes("mpesa", &rows), ["receipt_off_day"]);
        // An invented row with a made-up receipt.
        let mut invented: Vec<Transaction> = (11..=20).map(|d| mpesa(d, d)).collect();
        invented.push(Transaction {
            receipt_no: "SJK1AB2CD3".to_owned(),
            ..mpesa(15, 15)
        });
        assert_eq!(codes("mpesa", &invented), ["receipt_off_day"]);
        // A wallet whose ids are numbers is not read this way.
        assert!(codes("airtel-money-ug", &rows).is_empty());
    }

    #[test]
    fn the_rows_of_a_reversals_receipt_and_the_minutes_after_midnight_may_complete_a_day_later() {
        let mut rows: Vec<Transaction> = (11..=20).map(|d| mpesa(d, d)).collect();
        // A reversal completed on the 16th of a receipt of the 12th, and its charge refunded on
        // the 17th under the same receipt (not a reversal by its words).
        let mut reversal = mpesa(12, 16);
        reversal.category = Category::Reversal;
        rows.push(reversal);
        rows.push(mpesa(12, 17));
        assert!(codes("mpesa", &rows).is_empty());
        // A receipt of the 13th completed four minutes after midnight: started before it.
        let at = |h, m| {
            NaiveDate::from_ymd_opt(2023, 9, 14)
                .and_then(|d| d.and_hms_opt(h, m, 0))
                .unwrap_or_default()
        };
        rows[2].completed_at = at(0, 4);
        assert!(codes("mpesa", &rows).is_empty());
        rows[2].completed_at = at(0, 6);
        assert_eq!(codes("mpesa", &rows), ["receipt_off_day"]);
    }

    #[test]
    fn a_completed_row_without_a_receipt_is_off_and_a_failed_row_is_not_read() {
        let mut rows: Vec<Transaction> = (10..=30).map(|d| mpesa(d, d)).collect();
        rows[4].status = crate::statement::TransactionStatus::Failed;
        rows[4].completed_at = mpesa(25, 25).completed_at;
        assert!(codes("mpesa", &rows).is_empty());
        // 20 of 22 rows carry their day: the scheme is still read.
        rows.push(Transaction {
            receipt_no: String::new(),
            ..mpesa(15, 15)
        });
        assert_eq!(codes("mpesa", &rows), ["receipt_off_day"]);
    }

    #[test]
    fn receipts_that_do_not_follow_the_scheme_are_not_read() {
        // With one row off, fewer than ten rows cannot reach nine in ten.
        let mut few: Vec<Transaction> = (11..=19).map(|d| mpesa(d, d)).collect();
        few[0].completed_at = mpesa(25, 25).completed_at;
        assert!(codes("mpesa", &few).is_empty());
        // More than one in ten off: a statement of made-up or other-scheme receipts.
        let mut made_up: Vec<Transaction> = (11..=20).map(|d| mpesa(d, d)).collect();
        for row in made_up.iter_mut().take(2) {
            "TST0000001".clone_into(&mut row.receipt_no);
        }
        assert!(codes("mpesa", &made_up).is_empty());
        // One in ten is read.
        made_up[1] = mpesa(12, 12);
        assert_eq!(codes("mpesa", &made_up), ["receipt_off_day"]);
    }
}
