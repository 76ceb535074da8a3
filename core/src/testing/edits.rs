//! Edits of a statement that keep it consistent, the way a modeller builds controlled
//! experiments: delete or insert rows (every later balance and the SUMMARY follow), scale every
//! amount, or cut a window out of a longer statement.
//!
//! All functions expect rows listed newest first, as Safaricom and the generator list them.

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::statement::{Period, Statement, Summary, SummaryRow, Transaction, TransactionStatus};

/// Recomputes every printed balance from the opening balance (the oldest row's balance minus
/// its own movement) and the SUMMARY total from the completed rows.
pub fn rebalance(statement: &mut Statement, opening: Decimal) {
    let mut balance = opening;
    for t in statement.transactions.iter_mut().rev() {
        if t.is_completed() {
            balance += t.paid_in - t.withdrawn;
        }
        if t.balance.is_some() {
            t.balance = Some(crate::money::cents(balance));
        }
    }
    let (paid_in, paid_out) = statement
        .transactions
        .iter()
        .filter(|t| t.is_completed())
        .fold((Decimal::ZERO, Decimal::ZERO), |(i, o), t| {
            (i + t.paid_in, o + t.withdrawn)
        });
    statement.summary = Some(Summary {
        rows: Vec::new(),
        total: SummaryRow {
            transaction_type: "TOTAL".to_owned(),
            paid_in,
            paid_out,
        },
    });
}

/// The balance before the oldest completed row.
pub fn opening_balance(statement: &Statement) -> Decimal {
    statement
        .transactions
        .iter()
        .rev()
        .find(|t| t.is_completed())
        .and_then(|t| t.balance.map(|b| b - (t.paid_in - t.withdrawn)))
        .unwrap_or_default()
}

/// Deletes the rows `keep` rejects and recomputes the balances.
pub fn delete_rows(statement: &Statement, mut keep: impl FnMut(&Transaction) -> bool) -> Statement {
    let opening = opening_balance(statement);
    let mut s = statement.clone();
    s.transactions.retain(|t| keep(t));
    rebalance(&mut s, opening);
    s
}

/// Inserts completed rows `(time, details, signed amount)` (positive = Paid In) at their place
/// in time, and recomputes the balances. The `i`th row's receipt is M-Pesa's code of its day,
/// then `ZED` and `i` in four digits (`RIPZED0000`; longer from the 10,000th row).
pub fn insert_rows(statement: &Statement, rows: &[(NaiveDateTime, &str, Decimal)]) -> Statement {
    let opening = opening_balance(statement);
    let mut s = statement.clone();
    for (i, (at, details, amount)) in rows.iter().enumerate() {
        let t = Transaction {
            receipt_no: crate::wallets::mpesa_receipt_at(*at, &format!("ZED{i:04}")),
            completed_at: *at,
            details: (*details).to_owned(),
            status: TransactionStatus::Completed,
            paid_in: crate::money::cents((*amount).max(Decimal::ZERO)),
            withdrawn: crate::money::cents((-*amount).max(Decimal::ZERO)),
            balance: Some(Decimal::ZERO),
            category: crate::Category::Uncategorised,
            ..crate::statement::Transaction::empty()
        };
        // Newest first: the new row goes before the first row that is not newer than it.
        let pos = s
            .transactions
            .iter()
            .position(|r| r.completed_at <= *at)
            .unwrap_or(s.transactions.len());
        s.transactions.insert(pos, t);
    }
    rebalance(&mut s, opening);
    s
}

/// The statement carried into another market: every printed amount (rows, balances, SUMMARY)
/// multiplied by `factor` and rounded half away from zero to the cent, labelled `currency`; a
/// missing balance stays missing and nothing is rebalanced (unlike [`scale`]). The currency
/// tests carry KES personas to UGX, GHS and LSL at each card's factor with it.
pub fn converted(statement: &Statement, currency: &str, factor: Decimal) -> Statement {
    let money = |v: Decimal| {
        (v * factor).round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
    };
    let mut out = statement.clone();
    currency.clone_into(&mut out.currency);
    for t in &mut out.transactions {
        t.paid_in = money(t.paid_in);
        t.withdrawn = money(t.withdrawn);
        t.balance = t.balance.map(money);
    }
    if let Some(summary) = out.summary.as_mut() {
        for row in summary
            .rows
            .iter_mut()
            .chain(std::iter::once(&mut summary.total))
        {
            row.paid_in = money(row.paid_in);
            row.paid_out = money(row.paid_out);
        }
    }
    out
}

/// Multiplies every amount and balance by `factor` (rounded to cents).
pub fn scale(statement: &Statement, factor: Decimal) -> Statement {
    let mut s = statement.clone();
    let opening = opening_balance(statement) * factor;
    for t in &mut s.transactions {
        t.paid_in = crate::money::cents(t.paid_in * factor);
        t.withdrawn = crate::money::cents(t.withdrawn * factor);
    }
    rebalance(&mut s, crate::money::cents(opening));
    s
}

/// The rows dated `start..=end`, with that period and a SUMMARY of its own.
pub fn window(statement: &Statement, start: NaiveDate, end: NaiveDate) -> Statement {
    let mut s = statement.clone();
    s.transactions
        .retain(|t| (start..=end).contains(&t.completed_at.date()));
    s.period = Some(Period { start, end });
    s.requested_at = end.succ_opt();
    let opening = opening_balance(&s);
    rebalance(&mut s, opening);
    s
}
