//! MTN MoMo Ghana statements as CSV (MTN's statement spreadsheet saved as CSV).
//!
//! (Just over 400 lines: finding MTN's columns by name and reading a row by them are one
//! concept, the layout of this one file type; split, each half would need the other's table.)
//!
//! Layout (measured on a real 105-row statement, see docs/wallets.md): the header
//! `TRANSACTION DATE,FROM ACCT,FROM NAME,FROM NO.,TRANS. TYPE,AMOUNT,FEES,E-LEVY,BAL BEFORE,BAL
//! AFTER,TO NO.,TO NAME,TO ACCT,F_ID,REF,OVA`, then one record per transaction, newest first.
//! Times read `05-May-2025 05:26:03 AM`, local time of Ghana (GMT, no daylight saving). Amounts
//! are GHS, major units, unsigned; the currency is not printed.
//!
//! The columns are found by their names ([`Layout`]), not their places, so that a statement
//! saved again from the spreadsheet still reads: columns in another order or among others, a
//! title above the header, no `E-LEVY` (statements from before May 2022), times in the forms a
//! spreadsheet writes ([`TIME_FORMATS`]), blank fees.
//!
//! - **The holder** is the account that appears on every row, on the FROM side (money out) or
//!   on the TO side (money in). An account on both sides of a row (a transfer to oneself) is
//!   read by its balances: out when `BAL AFTER` is below `BAL BEFORE`.
//! - **Amounts.** Money out: `withdrawn = AMOUNT + FEES + E-LEVY` (everything the holder paid for
//!   the row), with `fee = FEES` and `tax = E-LEVY` kept beside it. Money in: `paid_in = AMOUNT`
//!   (fees on an incoming row are the sender's, so `fee` and `tax` stay `None`).
//! - `balance` is `BAL AFTER`, `balance_before` is `BAL BEFORE`, as printed (see
//!   `crate::check::listed` for the rows whose printed balances do not chain).
//! - `receipt_no` is `F_ID`; `transaction_type` is `TRANS. TYPE` as printed (`TRANSFER`,
//!   `DEBIT`, `PAYMENT_SEND`, `PAYMENT`, `CASH_OUT`, `CASH_IN`, `ADJUSTMENT`, `CUSTOM_PAYMENT`).
//! - `details` is [`details_of`]: the type, the counterparty's name, `REF` and `OVA`, joined by
//!   `" | "`, for the category table (`super::rules`).
//!
//! A record whose time or amounts cannot be read becomes an [`UnparsedLine`]; a file without
//! MTN's columns is not this parser's (see [`find_header`]).

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use crate::error::{Error, Result};
use crate::money::parse_amount;
use crate::statement::{AccountHolder, Statement, Transaction, TransactionStatus, UnparsedLine};

/// MTN's 16 column names, in the order its statement prints them (a statement is read by the
/// names: see [`Layout`]).
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

/// The time layout of `TRANSACTION DATE` (`05-May-2025 05:26:03 AM`), the one MTN's statement
/// prints and the synthetic generator writes.
pub const TIME_FORMAT: &str = "%d-%b-%Y %I:%M:%S %p";

/// Every time layout `TRANSACTION DATE` is read in, tried in order: MTN's own
/// ([`TIME_FORMAT`]), then the forms a spreadsheet gives the same cell when it is saved again
/// (24-hour clock, no seconds, ISO dates, slashes). **Decision:** a date with slashes is read
/// day first (`05/03/2025` is 5 March), as Ghana writes dates and as MTN prints its own
/// (`05-May-2025`); never month first.
const TIME_FORMATS: [&str; 12] = [
    TIME_FORMAT,
    "%d-%b-%Y %H:%M:%S",
    "%d-%b-%Y %I:%M %p",
    "%d-%b-%Y %H:%M",
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y %I:%M:%S %p",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %I:%M %p",
    "%d/%m/%Y %H:%M",
    "%d-%m-%Y %H:%M:%S",
];

/// The columns a statement must have to be read: the time, both accounts (the holder is the
/// one on every row), the type, the amount and both balances. The others (names, numbers,
/// `FEES`, `E-LEVY`, `F_ID`, `REF`, `OVA`) are read when present (`E-LEVY` is not printed on
/// statements from before Ghana's levy of May 2022).
const REQUIRED: [usize; 7] = [
    TIME, FROM_ACCT, TO_ACCT, TYPE, AMOUNT, BAL_BEFORE, BAL_AFTER,
];

/// Lines read, at most, before MTN's header: a statement saved from the spreadsheet may keep
/// a title or the holder's details above it.
const MAX_LINES_BEFORE_HEADER: usize = 10;

/// A column name in a comparable form: its letters and digits, upper case (`"Trans. Type"` →
/// `TRANSTYPE`).
fn key(name: &str) -> impl Iterator<Item = char> + '_ {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_uppercase())
}

/// The [`HEADER`] position a column name stands for: its own name or a spelling of it seen in
/// re-saved exports (`TRANSACTION TYPE`, `BALANCE BEFORE`, `FEE`, `LEVY`, `TRANSACTION ID`).
fn column_of(name: &str) -> Option<usize> {
    HEADER.iter().position(|h| key(h).eq(key(name))).or(
        match key(name).collect::<String>().as_str() {
            "TRANSACTIONTYPE" | "TYPE" => Some(TYPE),
            "BALANCEBEFORE" => Some(BAL_BEFORE),
            "BALANCEAFTER" => Some(BAL_AFTER),
            "FEE" => Some(FEES),
            "LEVY" | "ELEVYAMOUNT" => Some(LEVY),
            "TRANSACTIONID" | "FINANCIALTRANSACTIONID" => Some(F_ID),
            "REFERENCE" => Some(REF),
            _ => None,
        },
    )
}

/// Where each of [`HEADER`]'s columns is in a statement's records, found by name in its header
/// line (in any order, among other columns).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// Per [`HEADER`] position: the column's index in a record, if the statement has it.
    index: [Option<usize>; 16],
}

impl Layout {
    /// The layout of a header line, when it names every [`REQUIRED`] column (case, spaces and
    /// punctuation aside): MTN's 16 columns in MTN's order, or in another order, or fewer.
    pub fn of_header(line: &str) -> Option<Layout> {
        let mut index = [None; 16];
        let cells = line.trim_start_matches('\u{feff}').trim_end().split(',');
        for (at, cell) in cells.enumerate() {
            if let Some(column) = column_of(cell.trim().trim_matches('"'))
                && index[column].is_none()
            {
                index[column] = Some(at);
            }
        }
        REQUIRED
            .iter()
            .all(|c| index[*c].is_some())
            .then_some(Layout { index })
    }

    /// The cell of `column` (a [`HEADER`] position) in `r`, trimmed; empty when the statement
    /// has no such column or the record is short.
    fn cell<'r>(&self, r: &'r Record, column: usize) -> &'r str {
        self.index[column]
            .and_then(|at| r.cells.get(at))
            .map_or("", |c| c.trim())
    }

    /// Whether the statement prints `column`.
    fn has(&self, column: usize) -> bool {
        self.index[column].is_some()
    }
}

/// MTN's header among the first lines of a CSV: the byte offset of the header line and the
/// layout it gives ([`Layout::of_header`]), or `None` when the file is not MTN's.
pub fn find_header(bytes: &[u8]) -> Option<(usize, Layout)> {
    let bytes_start = bytes.strip_prefix(b"\xEF\xBB\xBF").map_or(0, |_| 3);
    let mut offset = bytes_start;
    for line in bytes[bytes_start..]
        .split(|b| *b == b'\n')
        .take(MAX_LINES_BEFORE_HEADER + 1)
    {
        if let Some(layout) = Layout::of_header(&String::from_utf8_lossy(line)) {
            return Some((offset, layout));
        }
        offset += line.len() + 1;
    }
    None
}

/// One record's cells, as the file has them.
struct Record {
    line: u32,
    cells: Vec<String>,
}

/// Positions in [`HEADER`].
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

/// Reads a CSV as MTN MoMo Ghana's statement: `Ok(None)` when no header among its first lines
/// names MTN's columns ([`find_header`]).
///
/// # Errors
/// `ErrorKind::Malformed` when the file is not UTF-8 CSV, or when no account appears on every
/// row (the holder cannot be known, so no row's direction can).
pub(super) fn read(bytes: &[u8], _limits: &crate::limits::Limits) -> Result<Option<Statement>> {
    let Some((start, layout)) = find_header(bytes) else {
        return Ok(None);
    };
    let lines_before =
        u64::try_from(memchr::memchr_iter(b'\n', &bytes[..start]).count()).unwrap_or(u64::MAX);
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(true)
        .from_reader(&bytes[start..]);
    let mut records = Vec::new();
    for record in reader.records() {
        let line_of =
            |line: u64| u32::try_from(line.saturating_add(lines_before)).unwrap_or(u32::MAX);
        let record = record.map_err(|e| {
            let line = e.position().map_or(0, csv::Position::line);
            Error::malformed(0, line_of(line), format!("unreadable MTN CSV record: {e}"))
        })?;
        if record.iter().all(|c| c.trim().is_empty()) {
            continue;
        }
        let line = line_of(record.position().map_or(0, csv::Position::line));
        records.push(Record {
            line,
            cells: record.iter().map(str::to_owned).collect(),
        });
    }
    let holder = holder_account(&layout, &records)?;
    let mut statement = Statement {
        provider: super::WALLET.provider(),
        currency: "GHS".to_owned(),
        currency_exponent: None,
        country: Some("GH".to_owned()),
        time_zone: Some("Africa/Accra".to_owned()),
        ..Statement::default()
    };
    for record in &records {
        match read_row(&layout, record, &holder) {
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
    Ok(Some(statement))
}

/// Whether MTN's header is among the first lines of `bytes`.
pub(super) fn recognise(bytes: &[u8]) -> bool {
    find_header(bytes).is_some()
}

/// The account on every row (FROM ACCT or TO ACCT). Several (a one-row file) are told apart by
/// how often each side agrees with the balances; ties take the smallest account.
fn holder_account(layout: &Layout, records: &[Record]) -> Result<String> {
    let Some(first) = records.first() else {
        return Ok(String::new());
    };
    let mut candidates: Vec<&str> = [layout.cell(first, FROM_ACCT), layout.cell(first, TO_ACCT)]
        .into_iter()
        .filter(|a| !a.is_empty())
        .collect();
    candidates.retain(|a| {
        records
            .iter()
            .all(|r| layout.cell(r, FROM_ACCT) == *a || layout.cell(r, TO_ACCT) == *a)
    });
    candidates.sort_unstable();
    candidates.dedup();
    let agreeing = |account: &str| {
        records
            .iter()
            .filter(|r| {
                let (before, after) = (
                    amount(layout.cell(r, BAL_BEFORE)),
                    amount(layout.cell(r, BAL_AFTER)),
                );
                let falls = matches!((before, after), (Some(b), Some(a)) if a < b);
                falls == (layout.cell(r, FROM_ACCT) == account)
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
fn read_row(
    layout: &Layout,
    r: &Record,
    holder: &str,
) -> std::result::Result<(Transaction, AccountHolder), String> {
    if let Some(missing) = REQUIRED.iter().find(|c| layout.cell(r, **c).is_empty()) {
        return Err(format!("no {} on this row", HEADER[*missing]));
    }
    let time = layout.cell(r, TIME);
    let completed_at = TIME_FORMATS
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(time, f).ok())
        .ok_or_else(|| format!("TRANSACTION DATE {time:?} is not a date and time"))?;
    // A fee or levy left blank (or a column the statement does not print) is nothing paid.
    let read = |column: usize| {
        let text = layout.cell(r, column);
        if text.is_empty() && matches!(column, FEES | LEVY) {
            return Ok(Decimal::ZERO);
        }
        amount(text).ok_or_else(|| format!("{} {text:?} is not an amount", HEADER[column]))
    };
    let [value, fees, levy, before, after] = [AMOUNT, FEES, LEVY, BAL_BEFORE, BAL_AFTER].map(read);
    let (value, fees, levy, before, after) = (value?, fees?, levy?, before?, after?);
    let from_holder = layout.cell(r, FROM_ACCT) == holder;
    let to_holder = layout.cell(r, TO_ACCT) == holder;
    let out = match (from_holder, to_holder) {
        (true, true) => after < before,
        (from, _) => from,
    };
    let kind = layout.cell(r, TYPE);
    let (counterparty, name, number) = if out {
        (
            layout.cell(r, TO_NAME),
            layout.cell(r, FROM_NAME),
            layout.cell(r, FROM_NO),
        )
    } else {
        (
            layout.cell(r, FROM_NAME),
            layout.cell(r, TO_NAME),
            layout.cell(r, TO_NO),
        )
    };
    let row = Transaction {
        receipt_no: layout.cell(r, F_ID).to_owned(),
        completed_at,
        details: details_of(
            kind,
            out,
            counterparty,
            layout.cell(r, REF),
            layout.cell(r, OVA),
        ),
        status: TransactionStatus::Completed,
        paid_in: if out { Decimal::ZERO } else { value },
        withdrawn: if out {
            value + fees + levy
        } else {
            Decimal::ZERO
        },
        balance: Some(after),
        transaction_type: (!kind.is_empty()).then(|| kind.to_owned()),
        fee: (out && layout.has(FEES)).then_some(fees),
        tax: (out && layout.has(LEVY)).then_some(levy),
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
