//! Seeded applications: several synthetic M-Pesa statements of one invented applicant, as
//! lenders receive them (docs/applications.md): two consecutive periods of one line, two
//! statements of one line that overlap, two SIMs, and two SIMs with a transfer between them.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::edits::{insert_rows, window};
use crate::statement::Statement;
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
/// under one receipt number on both statements (the charge stays on the first).
pub fn own_transfer(seed: u64, amount: Decimal) -> Vec<Statement> {
    let [a, b] = <[Statement; 2]>::try_from(two_sims(seed)).unwrap_or_default();
    let name = a.holder.name.clone().unwrap_or_default();
    let at = day(2024, 3, 15).and_hms_opt(10, 0, 0).unwrap_or_default();
    let tail = |s: &Statement| {
        let n = s.holder.mobile_number.clone().unwrap_or_default();
        n[n.len().saturating_sub(3)..].to_owned()
    };
    let send = format!("Customer Transfer to 2547******{} - {name}", tail(&b));
    let receive = format!("Funds received from 2547******{} - {name}", tail(&a));
    vec![
        insert_rows(&a, &[(at, &send, -amount)]),
        insert_rows(&b, &[(at, &receive, amount)]),
    ]
}
