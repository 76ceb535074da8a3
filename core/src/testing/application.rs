//! Seeded applications: several synthetic M-Pesa statements of one invented applicant, as
//! lenders receive them (docs/applications.md): two consecutive periods of one line, two
//! statements of one line that overlap, two SIMs, and two SIMs with a transfer between them.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::edits::{insert_rows, window};
use crate::statement::{Statement, Transaction};
use crate::wallets::synthetic_statement;

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

/// One line's six months (January to June 2024) sent as two statements: January–March and
/// April–June.
pub fn consecutive(seed: u64) -> Vec<Statement> {
    let s = synthetic_statement(seed, 6);
    vec![
        window(&s, day(2024, 1, 1), day(2024, 3, 31)),
        window(&s, day(2024, 4, 1), day(2024, 6, 30)),
    ]
}

/// One line's six months sent as two statements that both cover April: January–April and
/// April–June (the rows of April are alike in both).
pub fn overlapping(seed: u64) -> Vec<Statement> {
    let s = synthetic_statement(seed, 6);
    vec![
        window(&s, day(2024, 1, 1), day(2024, 4, 30)),
        window(&s, day(2024, 4, 1), day(2024, 6, 30)),
    ]
}

/// Two lines of one applicant (one name, two numbers), six months each.
pub fn two_sims(seed: u64) -> Vec<Statement> {
    let a = synthetic_statement(seed, 6);
    let mut b = synthetic_statement(seed.wrapping_add(1), 6);
    b.holder.name.clone_from(&a.holder.name);
    b.holder.mobile_number = a
        .holder
        .mobile_number
        .as_ref()
        .map(|n| format!("071{}", &n[n.len().saturating_sub(7)..]));
    vec![a, b]
}

/// [`two_sims`] with `amount` sent from the first line to the second on 2024-03-15 at 10:00,
/// under one receipt number on both statements; the send's charge, as Safaricom's tariff
/// sets it, stays on the first line under the same receipt ([`own_transfer_charge`] is the
/// same lines with the charge alone).
pub fn own_transfer(seed: u64, amount: Decimal) -> Vec<Statement> {
    transfer(seed, amount, true)
}

/// [`two_sims`] with only the charge of [`own_transfer`]'s send on the first line: what the
/// transfer costs, the baseline an own transfer is compared with.
pub fn own_transfer_charge(seed: u64, amount: Decimal) -> Vec<Statement> {
    transfer(seed, amount, false)
}

fn transfer(seed: u64, amount: Decimal, moved: bool) -> Vec<Statement> {
    let [a, b] = <[Statement; 2]>::try_from(two_sims(seed)).unwrap_or_default();
    let name = a.holder.name.clone().unwrap_or_default();
    let at = day(2024, 3, 15).and_hms_opt(10, 0, 0).unwrap_or_default();
    let tail = |s: &Statement| {
        let n = s.holder.mobile_number.clone().unwrap_or_default();
        n[n.len().saturating_sub(3)..].to_owned()
    };
    let send = format!("Customer Transfer to 2547******{} - {name}", tail(&b));
    let receive = format!("Funds received from 2547******{} - {name}", tail(&a));
    let charged = Transaction {
        completed_at: at,
        details: send.clone(),
        withdrawn: amount,
        ..Transaction::empty()
    };
    let charge = crate::wallets::of(&a.provider)
        .ok()
        .and_then(|w| w.profile.tariff)
        .and_then(|t| (t.charge)(&charged))
        .unwrap_or_default();
    let mut rows = Vec::new();
    if moved {
        rows.push((at, send.as_str(), -amount));
    }
    if !charge.is_zero() {
        rows.push((at, "Customer Transfer of Funds Charge", -charge));
    }
    let mut sent = insert_rows(&a, &rows);
    // One receipt for the movement (`insert_rows` numbers each row).
    for t in &mut sent.transactions {
        if t.completed_at == at && t.receipt_no.ends_with("ZED0001") {
            t.receipt_no = crate::wallets::mpesa_receipt_at(at, "ZED0000");
        }
    }
    if !moved {
        return vec![sent, b];
    }
    vec![sent, insert_rows(&b, &[(at, &receive, amount)])]
}
