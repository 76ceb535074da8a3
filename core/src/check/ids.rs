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
//!   row whose receipt carries another day than the day it was completed (a reversal may
//!   complete on a later day than its receipt's). Read only on a statement whose receipts
//!   follow the scheme: nine in ten or more of ten or more receipts carry their own day, as
//!   every genuine statement's do (18,830 of 18,831 on the seven Kenyan samples, the other a
//!   reversal). A statement of made-up receipts (`TST0000001`, a test's or a hand-built one's)
//!   or of another scheme is not read: it shows nothing either way.

use super::finding;
use crate::report::{Finding, Severity};
use crate::statement::{Category, Transaction};
use crate::wallets::{Ids, Wallet};

/// Of a statement's receipts, the fewest, and the share (tenths) that must carry their own day,
/// for the statement to be read as one that follows the wallet's scheme.
const FEWEST_RECEIPTS: usize = 10;
const TENTHS_CARRYING: usize = 9;

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
    let receipts = by_time
        .iter()
        .filter(|r| !r.receipt_no.trim().is_empty())
        .count();
    let off: Vec<&Transaction> = by_time
        .iter()
        .filter(|r| !r.receipt_no.trim().is_empty())
        .filter(|r| {
            day_of(r.receipt_no.trim()).is_none_or(|day| {
                let completed = r.completed_at.date();
                day != completed && !(r.category == Category::Reversal && day < completed)
            })
        })
        .copied()
        .collect();
    let carrying = receipts - off.len();
    let Some(first) = off.first() else {
        return;
    };
    if receipts < FEWEST_RECEIPTS || carrying * 10 < receipts * TENTHS_CARRYING {
        return;
    }
    findings.push(finding(
        "receipt_off_day",
        Severity::Warning,
        format!(
            "{} row(s) carry a receipt whose first three characters, {}'s code of the day a \
             receipt is made, name another day than the row's completion, where {carrying} of \
             the statement's {receipts} receipts carry their own: a row was invented or its date \
             edited (first completed at {}, receipt {})",
            off.len(),
            wallet.operator,
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
    /// (11 to 31: `RIB…` to `RIV…`).
    fn mpesa(receipt_day: u32, day: u32) -> Transaction {
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
    fn receipts_that_do_not_follow_the_scheme_are_not_read() {
        // Fewer than ten receipts.
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
