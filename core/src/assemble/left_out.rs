//! The rows a critical finding names ([`crate::check::named`]) are left out of the features
//! (issue 51), and the report says which and why: a finding `rows_left_out` (`info`; the
//! critical findings have already made the verdict `failed`).
//!
//! A row left out also leaves the running balance: the money it moved is taken off every
//! printed balance after it (copies excepted: a copy repeats its row's balance and moved
//! nothing). Three hundred receipts in one second printed into the balance column would
//! otherwise still raise every later balance, and the score with it.

use std::fmt::Write as _;

use rust_decimal::Decimal;

use crate::check::named::{NAMING_CODES, named_rows};
use crate::report::{Finding, Severity};
use crate::statement::{Reading, Transaction};
use crate::wallets::Wallet;

/// The code of the finding that lists the rows left out.
pub(super) const ROWS_LEFT_OUT: &str = "rows_left_out";

/// Rows named in the finding's sentence before "and n more".
const NAMED_IN_FULL: usize = 3;

/// The rows of `reading` (of `wallet`) a critical finding does not name, in reading order, each printed
/// balance less the money the named rows of its account before it moved (one account unless
/// [`Reading::accounts`] lists several); and the finding saying which rows are left out and
/// why. `None` when no row is named (the reading is then used as it is).
pub(super) fn left_out(reading: &Reading<'_>, wallet: &Wallet) -> Option<LeftOut> {
    let named = named_rows(reading.statement, wallet, &reading.rows);
    if named.is_empty() {
        return None;
    }
    // The account of each row, by address (the accounts list the reading's own rows).
    let account_of: foldhash::HashMap<*const Transaction, usize> = reading
        .accounts
        .iter()
        .enumerate()
        .flat_map(|(a, rows)| rows.iter().map(move |t| (std::ptr::from_ref(*t), a)))
        .collect();
    let account = |t: &Transaction| account_of.get(&std::ptr::from_ref(t)).copied().unwrap_or(0);
    let mut skip = named.iter().peekable();
    let mut moved = vec![Decimal::ZERO; reading.accounts.len().max(1)];
    let mut kept = Vec::with_capacity(reading.rows.len() - named.len());
    let mut accounts = Vec::new();
    for (i, t) in reading.rows.iter().enumerate() {
        let a = account(t);
        if let Some((_, code)) = skip.next_if(|(n, _)| *n == i) {
            if *code != "duplicate_rows" && t.is_completed() {
                moved[a] = moved[a].saturating_add(t.paid_in.saturating_sub(t.withdrawn));
            }
            continue;
        }
        let mut row = (*t).clone();
        row.balance = row.balance.map(|b| b.saturating_sub(moved[a]));
        kept.push(row);
        if !reading.accounts.is_empty() {
            accounts.push(a);
        }
    }
    let why = |code: &str| match code {
        "impossible_row_rate" => "at a time that holds more rows than a wallet prints at once",
        "duplicate_rows" => "copies of another row",
        "before_wallet_launch" => "dated before the wallet existed",
        _ => "dated after the statement's request date",
    };
    let reasons: Vec<String> = NAMING_CODES
        .iter()
        .filter_map(|code| {
            let n = named.iter().filter(|(_, c)| c == code).count();
            (n > 0).then(|| format!("{n} {} ({code})", why(code)))
        })
        .collect();
    let mut message = format!(
        "{} row(s) are left out of the score, because a critical finding names them: {}; ",
        named.len(),
        reasons.join(", ")
    );
    let shown: Vec<String> = named
        .iter()
        .take(NAMED_IN_FULL)
        .map(|(i, _)| {
            let t = reading.rows[*i];
            let at = t.completed_at.format("%Y-%m-%d %H:%M:%S");
            if t.receipt_no.is_empty() {
                format!("{at}")
            } else {
                format!("{at} (receipt {})", t.receipt_no)
            }
        })
        .collect();
    let _ = write!(message, "first: {}", shown.join(", "));
    if named.len() > NAMED_IN_FULL {
        let _ = write!(message, " and {} more", named.len() - NAMED_IN_FULL);
    }
    Some(LeftOut {
        kept,
        accounts,
        finding: Finding {
            code: ROWS_LEFT_OUT.to_owned(),
            severity: Severity::Info,
            message,
        },
    })
}

/// What [`left_out`] keeps and says.
pub(super) struct LeftOut {
    /// The rows kept, in reading order, balances adjusted.
    pub(super) kept: Vec<Transaction>,
    /// The account (index in [`Reading::accounts`]) of each kept row; empty for one account.
    pub(super) accounts: Vec<usize>,
    /// The `rows_left_out` finding.
    pub(super) finding: Finding,
}

impl LeftOut {
    /// The kept rows as a reading of `statement`, their accounts' rows listed when `accounts`
    /// (of the reading they were kept from) lists several.
    pub(super) fn reading<'a>(
        &'a self,
        statement: &'a crate::statement::Statement,
        accounts: usize,
    ) -> Reading<'a> {
        let mut by_account: Vec<Vec<&Transaction>> = vec![Vec::new(); accounts];
        for (t, a) in self.kept.iter().zip(&self.accounts) {
            by_account[*a].push(t);
        }
        Reading {
            statement,
            rows: self.kept.iter().collect(),
            accounts: by_account,
        }
    }
}
