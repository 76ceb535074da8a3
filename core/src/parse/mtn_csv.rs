//! MTN MoMo Ghana statements as CSV (MTN's statement spreadsheet saved as CSV, 16 columns).
//!
//! Layout (measured on a real 105-row statement, see docs/wallets.md): the header
//! `TRANSACTION DATE,FROM ACCT,FROM NAME,FROM NO.,TRANS. TYPE,AMOUNT,FEES,E-LEVY,BAL BEFORE,BAL
//! AFTER,TO NO.,TO NAME,TO ACCT,F_ID,REF,OVA`, then one record per transaction, newest first.
//! Times read `05-May-2025 05:26:03 AM`, local time of Ghana (GMT, no daylight saving). Amounts
//! are GHS, major units, unsigned; the currency is not printed.
//!
//! - **The holder** is the account that appears on every row, on the FROM side (money out) or
//!   on the TO side (money in). An account on both sides of a row (a transfer to oneself) is
//!   read by its balances: out when `BAL AFTER` is below `BAL BEFORE`.
//! - **Amounts.** Money out: `withdrawn = AMOUNT + FEES + E-LEVY` (everything the holder paid for
//!   the row), with `fee = FEES` and `tax = E-LEVY` kept beside it. Money in: `paid_in = AMOUNT`
//!   (fees on an incoming row are the sender's, so `fee` and `tax` stay `None`).
//! - `balance` is `BAL AFTER`, `balance_before` is `BAL BEFORE`, as printed (see
//!   [`crate::check::wallet_chain`] for the rows whose printed balances do not chain).
//! - `receipt_no` is `F_ID`; `transaction_type` is `TRANS. TYPE` as printed (`TRANSFER`,
//!   `DEBIT`, `PAYMENT_SEND`, `PAYMENT`, `CASH_OUT`, `CASH_IN`, `ADJUSTMENT`, `CUSTOM_PAYMENT`).
//! - `details` is [`details_of`]: the type, the counterparty's name, `REF` and `OVA`, joined by
//!   `" | "`, for the category table ([`crate::categorise::mtn_gh`]).
//!
//! A record whose time or amounts cannot be read becomes an [`UnparsedLine`]; a file without
//! MTN's columns is not this parser's (see [`is_mtn_header`]).

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use crate::error::{Error, ErrorKind, Result};
use crate::money::parse_amount;
use crate::statement::{
    AccountHolder, Provider, Statement, Transaction, TransactionStatus, UnparsedLine,
};

/// MTN's 16 column names, in their order.
pub const HEADER: [&str; 16] = [
    "TRANSACTION DATE",
    "FROM ACCT",
    "FROM NAME",
    "FROM NO.",
    "TRANS. TYPE",
    "AMOUNT",
    "FEES",
    "E-LEVY",
    "BAL BEFORE",
    "BAL AFTER",
    "TO NO.",
    "TO NAME",
    "TO ACCT",
    "F_ID",
    "REF",
    "OVA",
];

/// The time layout of `TRANSACTION DATE` (`05-May-2025 05:26:03 AM`).
pub const TIME_FORMAT: &str = "%d-%b-%Y %I:%M:%S %p";

/// Whether the first line of a CSV is MTN's header: every name of [`HEADER`] in order
/// (case-insensitive, cells trimmed).
pub fn is_mtn_header(first_line: &str) -> bool {
    let cells: Vec<&str> = first_line
        .trim_start_matches('\u{feff}')
        .trim_end()
        .split(',')
        .map(str::trim)
        .collect();
    cells.len() >= HEADER.len()
        && HEADER
            .iter()
            .zip(&cells)
            .all(|(name, cell)| name.eq_ignore_ascii_case(cell))
}

/// One record's cells, by [`HEADER`] position.
struct Record {
    line: u32,
    cells: Vec<String>,
}

impl Record {
    fn cell(&self, column: usize) -> &str {
        self.cells.get(column).map_or("", |c| c.trim())
    }
}

/// `FROM ACCT`, `TO ACCT`, and the other columns by position in [`HEADER`].
const TIME: usize = 0;
const FROM_ACCT: usize = 1;
const FROM_NAME: usize = 2;
const FROM_NO: usize = 3;
const TYPE: usize = 4;
const AMOUNT: usize = 5;
const FEES: usize = 6;
const LEVY: usize = 7;
const BAL_BEFORE: usize = 8;
const BAL_AFTER: usize = 9;
const TO_NO: usize = 10;
const TO_NAME: usize = 11;
const TO_ACCT: usize = 12;
const F_ID: usize = 13;
const REF: usize = 14;
const OVA: usize = 15;

/// The Details text the engine keeps for a row: the printed type, `to`/`from` the counterparty's
/// name, `REF` and `OVA`, the empty ones left out, joined by `" | "`
/// (`"TRANSFER | to JANE DOE | Rent | Internal"`).
pub fn details_of(kind: &str, out: bool, counterparty: &str, reference: &str, ova: &str) -> String {
    let party = if counterparty.is_empty() {
        String::new()
    } else if out {
        format!("to {counterparty}")
    } else {
        format!("from {counterparty}")
    };
    [kind, party.as_str(), reference, ova]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" | ")
}

/// Parses an MTN MoMo Ghana CSV statement.
///
/// # Errors
/// - `ErrorKind::UnsupportedWallet` when the header is not MTN's ([`is_mtn_header`]).
/// - `ErrorKind::Malformed` when the file is not UTF-8 CSV, or when no account appears on
///   every row (the holder cannot be known, so no row's direction can).
pub fn parse(bytes: &[u8]) -> Result<Statement> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first_line = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    if !is_mtn_header(&String::from_utf8_lossy(first_line)) {
        return Err(Error::new(
            ErrorKind::UnsupportedWallet,
            "not an MTN MoMo Ghana CSV: the header is not MTN's 16 columns",
        ));
    }
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(true)
        .from_reader(bytes);
    let mut records = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            Error::malformed(
                0,
                u32::try_from(line).unwrap_or(u32::MAX),
                format!("unreadable MTN CSV record: {e}"),
            )
        })?;
        let line = record
            .position()
            .map_or(0, |p| u32::try_from(p.line()).unwrap_or(u32::MAX));
        records.push(Record {
            line,
            cells: record.iter().map(str::to_owned).collect(),
        });
    }
    let holder = holder_account(&records)?;
    let mut statement = Statement {
        provider: Provider::MtnMomoGh,
        currency: "GHS".to_owned(),
        currency_exponent: None,
        country: Some("GH".to_owned()),
        time_zone: Some("Africa/Accra".to_owned()),
        ..Statement::default()
    };
    for record in &records {
        match read_row(record, &holder) {
            Ok((row, side)) => {
                if statement.holder.mobile_number.is_none() {
                    statement.holder = side;
                }
                statement.transactions.push(row);
            }
            Err(reason) => statement.unparsed.push(UnparsedLine {
                page: 0,
                line: record.line,
                text: record.cells.join(","),
                reason,
            }),
        }
    }
    Ok(statement)
}

/// The account on every row (FROM ACCT or TO ACCT). Several (a one-row file) are told apart by
/// how often each side agrees with the balances; ties take the smallest account.
fn holder_account(records: &[Record]) -> Result<String> {
    let Some(first) = records.first() else {
        return Ok(String::new());
    };
    let mut candidates: Vec<&str> = [first.cell(FROM_ACCT), first.cell(TO_ACCT)]
        .into_iter()
        .filter(|a| !a.is_empty())
        .collect();
    candidates.retain(|a| {
        records
            .iter()
            .all(|r| r.cell(FROM_ACCT) == *a || r.cell(TO_ACCT) == *a)
    });
    candidates.sort_unstable();
    candidates.dedup();
    let agreeing = |account: &str| {
        records
            .iter()
            .filter(|r| {
                let (before, after) = (amount(r.cell(BAL_BEFORE)), amount(r.cell(BAL_AFTER)));
                let falls = matches!((before, after), (Some(b), Some(a)) if a < b);
                falls == (r.cell(FROM_ACCT) == account)
            })
            .count()
    };
    candidates
        .iter()
        .max_by_key(|a| (agreeing(a), std::cmp::Reverse(**a)))
        .map(|a| (*a).to_owned())
        .ok_or_else(|| {
            Error::malformed(
                0,
                2,
                "MTN CSV: no account appears on every row (FROM ACCT or TO ACCT), so the \
                 statement's holder and each row's direction cannot be known",
            )
        })
}

fn amount(text: &str) -> Option<Decimal> {
    parse_amount(text).filter(|a| !a.is_sign_negative())
}

/// One row and the holder as that row names them (name and number on the holder's side).
fn read_row(r: &Record, holder: &str) -> std::result::Result<(Transaction, AccountHolder), String> {
    if r.cells.len() < HEADER.len() {
        return Err(format!(
            "{} cells where MTN's statement has {}",
            r.cells.len(),
            HEADER.len()
        ));
    }
    let time = r.cell(TIME);
    let completed_at = NaiveDateTime::parse_from_str(time, TIME_FORMAT)
        .map_err(|_| format!("TRANSACTION DATE {time:?} is not a date and time"))?;
    let read = |column: usize| {
        amount(r.cell(column))
            .ok_or_else(|| format!("{} {:?} is not an amount", HEADER[column], r.cell(column)))
    };
    let [value, fees, levy, before, after] = [AMOUNT, FEES, LEVY, BAL_BEFORE, BAL_AFTER].map(read);
    let (value, fees, levy, before, after) = (value?, fees?, levy?, before?, after?);
    let from_holder = r.cell(FROM_ACCT) == holder;
    let to_holder = r.cell(TO_ACCT) == holder;
    let out = match (from_holder, to_holder) {
        (true, true) => after < before,
        (from, _) => from,
    };
    let kind = r.cell(TYPE);
    let (counterparty, name, number) = if out {
        (r.cell(TO_NAME), r.cell(FROM_NAME), r.cell(FROM_NO))
    } else {
        (r.cell(FROM_NAME), r.cell(TO_NAME), r.cell(TO_NO))
    };
    let row = Transaction {
        receipt_no: r.cell(F_ID).to_owned(),
        completed_at,
        details: details_of(kind, out, counterparty, r.cell(REF), r.cell(OVA)),
        status: TransactionStatus::Completed,
        paid_in: if out { Decimal::ZERO } else { value },
        withdrawn: if out {
            value + fees + levy
        } else {
            Decimal::ZERO
        },
        balance: Some(after),
        transaction_type: (!kind.is_empty()).then(|| kind.to_owned()),
        fee: out.then_some(fees),
        tax: out.then_some(levy),
        balance_before: Some(before),
        ..Transaction::empty()
    };
    let side = AccountHolder {
        name: (!name.is_empty()).then(|| name.to_owned()),
        mobile_number: (!number.is_empty()).then(|| number.to_owned()),
        email: None,
    };
    Ok((row, side))
}
