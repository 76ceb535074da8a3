//! Transaction ids that must rise with time, where a wallet numbers its transactions in the
//! order they happen (its profile's `ids_rise_with_time`: Airtel Uganda's Transaction ID, MTN
//! Ghana's `F_ID`; measured on the genuine samples, 23 and 105 rows without an exception).
//!
//! `ids_out_of_order` (warning): a row whose id is lower than the id of a row completed
//! strictly earlier. Rows that share a completion time are not compared with each other
//! (Airtel prints times to the minute). An invented row with a made-up id, or a row whose date
//! was moved, shows here even when every balance agrees. Read in reading order, so the listed
//! order cannot matter.

use super::finding;
use crate::report::{Finding, Severity};
use crate::statement::Transaction;
use crate::wallets::Wallet;

/// Adds `ids_out_of_order` when `wallet`'s ids rise with time and some of `by_time` (the rows
/// in reading order) do not.
pub(super) fn check(wallet: &Wallet, by_time: &[&Transaction], findings: &mut Vec<Finding>) {
    if !wallet.profile.ids_rise_with_time {
        return;
    }
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
}
