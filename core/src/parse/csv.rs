//! CSV statements: M-Pesa exports and the canonical CSV the engine writes.
//!
//! Columns are found by header name, case-insensitively, with the usual aliases:
//!
//! | field | header names accepted |
//! |---|---|
//! | receipt number | Receipt No, Receipt No., Receipt, Receipt Number, Code, Transaction Code, Transaction ID |
//! | completion time | Completion Time, Time, Date, Transaction Date, Completed At |
//! | details | Details, Description, Narrative |
//! | status | Transaction Status, Status (optional: `Completed` when absent) |
//! | paid in | Paid In, Money In, Credit, Amount In |
//! | withdrawn | Withdrawn, Money Out, Debit, Paid Out, Amount Out (sign ignored) |
//! | balance | Balance (optional) |
//! | category | Category (optional; values that are not an Alama category are ignored) |
//! | printed type | Printed Type (optional: the wallet's own transaction type) |
//! | fee | Fee (optional: the part of Withdrawn that is the wallet's fee) |
//! | tax | Tax (optional: the part of Withdrawn that is a tax or levy) |
//! | balance before | Balance Before (optional) |
//! | currency, wallet | Currency, Wallet (optional: ISO 4217 code and provider name of the statement, read from the first row) |
//!
//! The canonical CSV ([`write()`]) uses the first name of each row, amounts as plain decimals with
//! two places (Withdrawn positive), times as `YYYY-MM-DD HH:MM:SS` local time.
//!
//! (Over 400 lines: one format, its column table, its reader (the `csv` crate and the plain
//! fast path, which must read alike) and its writer; then the tests that they agree.)

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use crate::categorise::Category;
use crate::error::{Error, ErrorKind, Result};
use crate::money::{cents, parse_amount};
use crate::parse::ParseOptions;
use crate::statement::{Statement, Transaction, TransactionStatus, UnparsedLine};

/// The canonical CSV header.
pub const CANONICAL_HEADER: [&str; 8] = [
    "Receipt No",
    "Completion Time",
    "Details",
    "Transaction Status",
    "Paid In",
    "Withdrawn",
    "Balance",
    "Category",
];

const RECEIPT: &[&str] = &[
    "receipt no",
    "receipt no.",
    "receipt",
    "receipt number",
    "code",
    "transaction code",
    "transaction id",
];
const TIME: &[&str] = &[
    "completion time",
    "time",
    "date",
    "transaction date",
    "completed at",
];
const DETAILS: &[&str] = &["details", "description", "narrative"];
const STATUS: &[&str] = &["transaction status", "status"];
const PAID_IN: &[&str] = &["paid in", "money in", "credit", "amount in"];
const WITHDRAWN: &[&str] = &["withdrawn", "money out", "debit", "paid out", "amount out"];
const BALANCE: &[&str] = &["balance"];
const CATEGORY: &[&str] = &["category"];
const PRINTED_TYPE: &[&str] = &["printed type"];
const FEE: &[&str] = &["fee"];
const TAX: &[&str] = &["tax"];
const BALANCE_BEFORE: &[&str] = &["balance before"];
const CURRENCY: &[&str] = &["currency"];
const WALLET: &[&str] = &["wallet"];

/// Time layouts accepted in the completion-time column.
const TIME_FORMATS: &[&str] = &[
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%dT%H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
    "%d-%m-%Y %H:%M:%S",
];

struct Columns {
    receipt: usize,
    time: usize,
    details: usize,
    status: Option<usize>,
    paid_in: usize,
    withdrawn: usize,
    balance: Option<usize>,
    category: Option<usize>,
    /// Printed Type, Fee, Tax, Balance Before (other wallets' fields).
    wallet_fields: [Option<usize>; 4],
    /// Currency and Wallet (statement fields, on every row of the canonical CSV).
    statement_fields: [Option<usize>; 2],
}

fn find(headers: &[String], names: &[&str]) -> Option<usize> {
    headers.iter().position(|h| names.contains(&h.as_str()))
}

fn columns(headers: &[String]) -> Result<Columns> {
    let required = [
        ("Receipt No", find(headers, RECEIPT)),
        ("Completion Time", find(headers, TIME)),
        ("Details", find(headers, DETAILS)),
        ("Paid In", find(headers, PAID_IN)),
        ("Withdrawn", find(headers, WITHDRAWN)),
    ];
    let missing: Vec<&str> = required
        .iter()
        .filter(|(_, i)| i.is_none())
        .map(|(n, _)| *n)
        .collect();
    if !missing.is_empty() {
        return Err(Error::new(
            ErrorKind::UnsupportedWallet,
            format!(
                "CSV from an unknown wallet: no column for {} (header names: {})",
                missing.join(", "),
                headers.join(", ")
            ),
        ));
    }
    let [receipt, time, details, paid_in, withdrawn] = required.map(|(_, i)| i.unwrap_or_default());
    Ok(Columns {
        receipt,
        time,
        details,
        status: find(headers, STATUS),
        paid_in,
        withdrawn,
        balance: find(headers, BALANCE),
        category: find(headers, CATEGORY),
        wallet_fields: [PRINTED_TYPE, FEE, TAX, BALANCE_BEFORE].map(|names| find(headers, names)),
        statement_fields: [CURRENCY, WALLET].map(|names| find(headers, names)),
    })
}

/// A completion time from its cell, already trimmed by [`trim_cell`].
fn parse_time(t: &str) -> Option<NaiveDateTime> {
    if let Ok(exact) = crate::statement::time::iso_seconds(t) {
        return exact;
    }
    TIME_FORMATS
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(t, f).ok())
}

/// `cell.trim()`, returning at once a cell that starts and ends with a visible ASCII character
/// (nearly every cell; `str::trim` steps through Unicode white space from both ends: 5 % of
/// the time of reading a 5,000-row CSV).
fn trim_cell(cell: &str) -> &str {
    match (cell.as_bytes().first(), cell.as_bytes().last()) {
        (Some(first), Some(last)) if first.is_ascii_graphic() && last.is_ascii_graphic() => cell,
        _ => cell.trim(),
    }
}

/// One CSV record's cells as text, from either reader ([`read_rows`], [`read_plain`]).
trait Record {
    /// Cell `i`, or `""` past the record's end.
    fn cell(&self, i: usize) -> &str;
    /// Every cell, in order.
    fn cells(&self) -> impl Iterator<Item = &str>;
}

impl Record for csv::StringRecord {
    fn cell(&self, i: usize) -> &str {
        self.get(i).unwrap_or("")
    }
    fn cells(&self) -> impl Iterator<Item = &str> {
        self.iter()
    }
}

/// A record of [`read_plain`]: `text` is its bytes, found to be UTF-8 once (so is each cell: cells
/// are cut at the ASCII delimiter), and each cell is read from it by its place in the record,
/// without checking its bytes again (checking every cell again was 11 % of the time of an
/// analysis, `perf`, 2026-11-25).
struct PlainRecord<'r, 'a> {
    record: &'r simd_csv::ZeroCopyByteRecord<'a>,
    text: &'r str,
}

impl PlainRecord<'_, '_> {
    /// The text of `cell`, a sub-slice of the record's bytes.
    fn text_of(&self, cell: &[u8]) -> &str {
        let start = cell.as_ptr().addr() - self.record.as_slice().as_ptr().addr();
        self.text.get(start..start + cell.len()).unwrap_or("")
    }
}

impl Record for PlainRecord<'_, '_> {
    fn cell(&self, i: usize) -> &str {
        self.record.get(i).map_or("", |cell| self.text_of(cell))
    }
    fn cells(&self) -> impl Iterator<Item = &str> {
        self.record.iter().map(|cell| self.text_of(cell))
    }
}

fn parse_row(record: &impl Record, c: &Columns) -> std::result::Result<Transaction, String> {
    let cell = |i: usize| trim_cell(record.cell(i));
    let receipt_no = cell(c.receipt).to_owned();
    // Another wallet's canonical CSV (it has the Wallet column) may have rows without a
    // receipt: Vodacom Lesotho prints none.
    if receipt_no.is_empty() && c.statement_fields[1].is_none() {
        return Err("empty receipt number".to_owned());
    }
    let completed_at = parse_time(cell(c.time))
        .ok_or_else(|| format!("completion time {:?} is not a date and time", cell(c.time)))?;
    let amount = |i: usize, name: &str| {
        parse_amount(cell(i)).ok_or_else(|| format!("{name} {:?} is not an amount", cell(i)))
    };
    let paid_in = cents(amount(c.paid_in, "Paid In")?.abs());
    let withdrawn = cents(amount(c.withdrawn, "Withdrawn")?.abs());
    let optional_amount = |column: Option<usize>, name: &str| match column.map(cell) {
        None | Some("") => Ok(None),
        Some(b) => parse_amount(b)
            .map(|a| Some(cents(a)))
            .ok_or_else(|| format!("{name} {b:?} is not an amount")),
    };
    let balance = optional_amount(c.balance, "Balance")?;
    let [printed_type, fee, tax, balance_before] = c.wallet_fields;
    let status = c.status.map_or(TransactionStatus::Completed, |i| {
        TransactionStatus::from_word(cell(i))
    });
    let category = c
        .category
        .and_then(|i| {
            use serde::de::{Deserialize, IntoDeserializer, value::Error};
            Category::deserialize(IntoDeserializer::<Error>::into_deserializer(cell(i))).ok()
        })
        .unwrap_or_default();
    Ok(Transaction {
        receipt_no,
        completed_at,
        details: cell(c.details).to_owned(),
        status,
        paid_in,
        withdrawn,
        balance,
        category,
        transaction_type: printed_type
            .map(cell)
            .filter(|t| !t.is_empty())
            .map(str::to_owned),
        fee: optional_amount(fee, "Fee")?,
        tax: optional_amount(tax, "Tax")?,
        balance_before: optional_amount(balance_before, "Balance Before")?,
        counterparty: None,
    })
}

fn delimiter(bytes: &[u8]) -> u8 {
    let first = bytes.split(|b| *b == b'\n').next().unwrap_or_default();
    [b',', b';', b'\t']
        .into_iter()
        .max_by_key(|d| first.split(|b| b == d).count())
        .unwrap_or(b',')
}

/// Parses a CSV statement.
///
/// # Errors
/// - `ErrorKind::UnsupportedWallet` when the header lacks a receipt, time, details, paid-in or
///   withdrawn column (the message lists the header names it saw).
/// - `ErrorKind::Malformed` when the file is not valid UTF-8 CSV.
///
/// Rows whose cells cannot be read go to [`Statement::unparsed`] with their line number.
pub fn parse(bytes: &[u8], _options: &ParseOptions) -> Result<Statement> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let delimiter = delimiter(bytes);
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(bytes);
    let headers: Vec<String> = reader
        .headers()
        .map_err(|e| Error::malformed(0, 1, format!("unreadable CSV header: {e}")))?
        .iter()
        .map(|h| h.trim().to_ascii_lowercase())
        .collect();
    let cols = columns(&headers)?;
    let body = usize::try_from(reader.position().byte())
        .ok()
        .and_then(|start| bytes.get(start..));
    let plain_rows = body
        .filter(|body| is_plain(body))
        .and_then(|body| read_plain_body(body, delimiter, &cols));
    let rows = match plain_rows {
        Some(rows) => rows,
        // A quoted file, a lone `\r`, or a record that is not UTF-8 (whose error `csv` names).
        None => read_rows(reader, body.map_or(0, rows_to_reserve), &cols)?,
    };
    let mut statement = Statement {
        currency: "KES".to_owned(),
        currency_exponent: None,
        transactions: rows.transactions,
        unparsed: rows.unparsed,
        ..Statement::default()
    };
    if cols.statement_fields.iter().any(Option::is_some) {
        read_statement_fields(bytes, delimiter, &cols, &mut statement)?;
    }
    Ok(statement)
}

/// Sets the statement's currency and wallet (with the wallet's country and time zone) from the
/// first record's Currency and Wallet cells (the canonical CSV of another wallet's statement).
///
/// # Errors
/// `ErrorKind::Malformed` for a Wallet cell that names no provider.
fn read_statement_fields(
    bytes: &[u8],
    delimiter: u8,
    cols: &Columns,
    statement: &mut Statement,
) -> Result<()> {
    let mut reader = csv::ReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .from_reader(bytes);
    let Some(Ok(first)) = reader.records().next() else {
        return Ok(());
    };
    let [currency, wallet] = cols
        .statement_fields
        .map(|column| column.and_then(|i| first.get(i)).map(str::trim));
    if let Some(code) = currency.filter(|c| !c.is_empty()) {
        code.clone_into(&mut statement.currency);
    }
    if let Some(name) = wallet.filter(|w| !w.is_empty()) {
        let wallet = crate::wallets::find(name)
            .ok_or_else(|| Error::malformed(0, 2, format!("Wallet {name:?} names no wallet")))?;
        statement.provider = wallet.provider();
        statement.country = wallet.country.map(str::to_owned);
        statement.time_zone = wallet.time_zone.map(str::to_owned);
    }
    Ok(())
}

/// Whether the records of `body` can be read by [`read_plain`] exactly as `csv` reads them: the
/// file holds no `"` (so no field is quoted or spans lines) and every `\r` ends a line as part of
/// `\r\n` (`csv` also ends a record at a lone `\r`; `simd-csv` does not). Then a record is a
/// line, cut at the delimiter, and empty lines are skipped, by either reader: a property test
/// compares them on files of every such byte.
fn is_plain(body: &[u8]) -> bool {
    !body.contains(&b'"')
        && memchr::memchr_iter(b'\r', body).all(|at| body.get(at + 1) == Some(&b'\n'))
}

/// The rows of a [`is_plain`] body, read with `simd-csv` (5× faster than `csv` on a 5,000-row
/// statement: 0.12 against 0.63 ms for its records, 2026-11-25), in two halves on two threads
/// when [`split_body`] cuts it. `None` when a record is not UTF-8.
fn read_plain_body(body: &[u8], delimiter: u8, cols: &Columns) -> Option<Rows> {
    match split_body(body) {
        Some((first, second)) => {
            let (first, second) = crate::parallel::join(
                || read_plain(first, delimiter, cols),
                || read_plain(second, delimiter, cols),
            );
            Some(first?.followed_by(second?))
        }
        None => read_plain(body, delimiter, cols),
    }
}

/// Fewest bytes of CSV body worth reading in two halves on two threads (about 1,000 rows of an
/// M-Pesa export: see [`crate::parallel::MIN_ROWS`]).
const MIN_SPLIT_BYTES: usize = 100 * 1_024;

/// An [`is_plain`] body cut in two at the line break nearest after its middle, when it is long
/// enough to be worth two threads and the pool may be used (in a service's
/// [`crate::on_calling_thread`], two halves read one after the other cost 2–3 % more than one
/// piece). `None` otherwise.
fn split_body(body: &[u8]) -> Option<(&[u8], &[u8])> {
    if body.len() < MIN_SPLIT_BYTES || !crate::parallel::pool_usable() {
        return None;
    }
    let middle = body.len() / 2;
    let cut = middle + memchr::memchr(b'\n', body.get(middle..)?)? + 1;
    Some(body.split_at(cut))
}

/// The rows read from a run of CSV records.
struct Rows {
    transactions: Vec<Transaction>,
    unparsed: Vec<UnparsedLine>,
    /// Records read, blank ones included (line numbers count them).
    records: u32,
}

impl Rows {
    /// No rows yet, room reserved for `records`.
    fn with_capacity(records: usize) -> Rows {
        Rows {
            transactions: Vec::with_capacity(records),
            unparsed: Vec::new(),
            records: 0,
        }
    }

    /// Reads the next record: a transaction, or an unparsed line naming why; a record whose
    /// cells are all blank only counts as a line.
    fn push(&mut self, record: &impl Record, cols: &Columns) {
        let line = self.records.saturating_add(2);
        self.records = self.records.saturating_add(1);
        if record.cells().all(|c| trim_cell(c).is_empty()) {
            return;
        }
        match parse_row(record, cols) {
            Ok(t) => self.transactions.push(t),
            Err(reason) => self.unparsed.push(UnparsedLine {
                page: 0,
                line,
                text: record.cells().collect::<Vec<_>>().join(","),
                reason,
            }),
        }
    }

    /// These rows, then `later`'s, whose line numbers were counted from the same header.
    fn followed_by(mut self, mut later: Rows) -> Rows {
        for line in &mut later.unparsed {
            line.line = line.line.saturating_add(self.records);
        }
        self.transactions.append(&mut later.transactions);
        self.unparsed.append(&mut later.unparsed);
        self.records = self.records.saturating_add(later.records);
        self
    }
}

/// The rows worth reserving for the records in `bytes`: its lines (a record spans one line or
/// more), but no more than one per [`RESERVED_ROW_BYTES`], so that a file of empty or tiny lines
/// reserves no more than about twice its own size (a row is about 120 bytes, and its receipt
/// number and Details are allocated as they are read).
fn rows_to_reserve(bytes: &[u8]) -> usize {
    (memchr::memchr_iter(b'\n', bytes).count() + 1).min(bytes.len() / RESERVED_ROW_BYTES)
}

/// Fewest bytes per line for which [`rows_to_reserve`] reserves a row each: the rows of M-Pesa exports
/// and of the canonical CSV are 90–180 bytes (a longer list of shorter rows grows as usual).
const RESERVED_ROW_BYTES: usize = 64;

/// Reads every record left in `reader`, which holds at most `records` of them (the rows are
/// reserved at once: grown by doubling, 5,000 rows were copied and their fresh pages faulted
/// in again several times, 5 % of the engine's time for a 5,000-row CSV under glibc's malloc,
/// 1–2 % under mimalloc, `perf`, 2026-11-25). Line numbers are counted as records from the
/// header (line 1): the first record read is line 2.
fn read_rows(mut reader: csv::Reader<&[u8]>, records: usize, cols: &Columns) -> Result<Rows> {
    let mut rows = Rows::with_capacity(records);
    // One record buffer for every row.
    let mut record = csv::StringRecord::new();
    loop {
        let line = rows.records.saturating_add(2);
        let more = reader
            .read_record(&mut record)
            .map_err(|e| Error::malformed(0, line, format!("bad CSV record: {e}")))?;
        if !more {
            break;
        }
        rows.push(&record, cols);
    }
    Ok(rows)
}

/// [`read_rows`] of the records of an [`is_plain`] run of lines, with `simd-csv`'s reader, which
/// hands out each record's cells in its buffer instead of copying them into a record. `None`
/// when a record is not UTF-8 (`csv` refuses it; its reading then names the record).
fn read_plain(records: &[u8], delimiter: u8, cols: &Columns) -> Option<Rows> {
    let mut rows = Rows::with_capacity(rows_to_reserve(records));
    let mut reader = simd_csv::ZeroCopyReaderBuilder::new()
        .delimiter(delimiter)
        .flexible(true)
        .has_headers(false)
        .from_reader(records);
    // Reading a byte slice cannot fail, nor can a flexible record without quotes.
    while let Some(record) = reader.read_byte_record().ok()? {
        let text = std::str::from_utf8(record.as_slice()).ok()?;
        rows.push(
            &PlainRecord {
                record: &record,
                text,
            },
            cols,
        );
    }
    Some(rows)
}

fn amount_cell(value: Decimal) -> String {
    cents(value).to_string()
}

/// Writes the canonical CSV of a statement's transactions (header fields are not part of CSV).
///
/// A statement of another wallet than Safaricom M-Pesa also gets the columns Printed Type, Fee,
/// Tax, Balance Before, Currency and Wallet (the last two repeated on every row), so that its
/// rows, currency and wallet read back as they were; a Kenyan statement's CSV is unchanged.
pub fn write(statement: &Statement) -> String {
    let mut w = csv::Writer::from_writer(Vec::new());
    let wallet = statement.provider.as_str() != crate::statement::Provider::DEFAULT_ID
        || statement.currency != "KES"
        || statement.transactions.iter().any(|t| {
            t.transaction_type.is_some()
                || t.fee.is_some()
                || t.tax.is_some()
                || t.balance_before.is_some()
        });
    let provider = statement.provider.to_string();
    let extra = |t: Option<&crate::statement::Transaction>| -> Vec<String> {
        if !wallet {
            return Vec::new();
        }
        match t {
            None => [
                "Printed Type",
                "Fee",
                "Tax",
                "Balance Before",
                "Currency",
                "Wallet",
            ]
            .map(str::to_owned)
            .to_vec(),
            Some(t) => vec![
                t.transaction_type.clone().unwrap_or_default(),
                t.fee.map(amount_cell).unwrap_or_default(),
                t.tax.map(amount_cell).unwrap_or_default(),
                t.balance_before.map(amount_cell).unwrap_or_default(),
                statement.currency.clone(),
                provider.clone(),
            ],
        }
    };
    let header: Vec<String> = CANONICAL_HEADER
        .map(str::to_owned)
        .into_iter()
        .chain(extra(None))
        .collect();
    let rows = std::iter::once(header).chain(statement.transactions.iter().map(|t| {
        let mut row: Vec<String> = [
            t.receipt_no.clone(),
            t.completed_at.format("%Y-%m-%d %H:%M:%S").to_string(),
            t.details.clone(),
            t.status.as_word().to_owned(),
            amount_cell(t.paid_in),
            amount_cell(t.withdrawn),
            t.balance.map(amount_cell).unwrap_or_default(),
            serde_json::to_value(t.category)
                .ok()
                .and_then(|v| v.as_str().map(str::to_owned))
                .unwrap_or_default(),
        ]
        .into();
        row.extend(extra(Some(t)));
        row
    }));
    for row in rows {
        // Writing to a Vec cannot fail.
        let _ = w.write_record(&row);
    }
    w.into_inner()
        .ok()
        .and_then(|b| String::from_utf8(b).ok())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::strategy::Strategy as _;
    use rust_decimal_macros::dec;

    #[test]
    fn reads_aliases_and_signed_withdrawals() {
        let csv = ",CODE,TIME,DETAILS,STATUS,MONEY IN,MONEY OUT,BALANCE\n\
                   0,QAB1CD2EF3,2021-03-28 10:00:01,Pay Bill to 888880 - KPLC,Completed,0.0,-1530.0,251.27\n";
        let s = parse(csv.as_bytes(), &ParseOptions::default()).unwrap();
        assert_eq!(s.transactions.len(), 1);
        let t = &s.transactions[0];
        assert_eq!(t.withdrawn, dec!(1530.00));
        assert_eq!(t.balance, Some(dec!(251.27)));
        assert_eq!(t.status, TransactionStatus::Completed);
    }

    #[test]
    fn reads_the_category_column_and_status_words_as_given() {
        let csv = "Receipt No,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Category\n\
                   A1,2024-01-01 10:00:00,x,SUCCESS,10,0,send_money\n\
                   A2,2024-01-01 10:00:01,x,Canceled,10,0,no such category\n\
                   A3,2024-01-01 10:00:02,x,pending,10,0,\n";
        let s = parse(csv.as_bytes(), &ParseOptions::default()).unwrap();
        let got: Vec<_> = s
            .transactions
            .iter()
            .map(|t| (t.status, t.category))
            .collect();
        assert_eq!(
            got,
            [
                (TransactionStatus::Completed, Category::SendMoney),
                (TransactionStatus::Cancelled, Category::Uncategorised),
                (TransactionStatus::Other, Category::Uncategorised),
            ]
        );
    }

    proptest::proptest! {
        /// The shortcut trims as `str::trim` does, Unicode white space included.
        #[test]
        fn trim_cell_is_str_trim(cell in "[ \\t\\u{a0}\\u{2003}\\u{85}a-z0-9.,]{0,8}") {
            proptest::prop_assert_eq!(trim_cell(&cell), cell.trim());
        }
    }

    #[test]
    fn unknown_wallet_names_missing_columns() {
        let err = parse(b"id,amount\n1,2\n", &ParseOptions::default()).unwrap_err();
        assert_eq!(err.code(), "unsupported_wallet");
        assert!(err.message().contains("Receipt No"));
    }

    #[test]
    fn rows_are_reserved_for_lines_but_never_more_than_the_bytes_allow() {
        assert_eq!(rows_to_reserve(b""), 0);
        // Three 130-byte rows and the empty last line: four lines.
        let row = format!(
            "A1,2024-01-01 10:00:00,{},Completed,0.00,10.00,90.00\n",
            "x".repeat(85)
        );
        assert_eq!(rows_to_reserve(row.repeat(3).as_bytes()), 4);
        // A megabyte of empty lines reserves 16,384 rows (~2 MiB), not a million.
        assert_eq!(
            rows_to_reserve(&vec![b'\n'; 1 << 20]),
            (1 << 20) / RESERVED_ROW_BYTES
        );
    }

    /// The rows of `csv` read in one piece with the `csv` crate, as every CSV was read before
    /// the halves and `simd-csv`.
    fn read_in_one_piece(csv: &[u8]) -> Result<Rows> {
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(csv);
        let headers: Vec<String> = reader
            .headers()
            .unwrap()
            .iter()
            .map(|h| h.trim().to_ascii_lowercase())
            .collect();
        read_rows(reader, 0, &columns(&headers).unwrap())
    }

    /// A long CSV read in two halves gives what reading it in one piece gives: the same rows in
    /// the same order, and bad rows of either half kept with their line numbers in the file
    /// (a blank record counts as a line, an empty line does not, as the one-piece reading has
    /// always counted them).
    #[test]
    #[cfg(feature = "testing")]
    fn a_long_csv_read_in_halves_is_the_csv_read_in_one_piece() {
        let synthetic = crate::testing::synthetic_statement_with_rows(3, 3_000);
        let mut lines: Vec<String> = synthetic.to_csv().lines().map(str::to_owned).collect();
        let n = lines.len();
        let bad_at = [5, n / 2 - 1, n / 2, n / 2 + 1, n - 3];
        for at in bad_at {
            lines[at] = format!("BAD{at},not a time,x,Completed,1.00,0.00,,");
        }
        let blank_at = n / 2 + 7;
        lines.insert(blank_at, ",,,,,,,".to_owned());
        lines.insert(n / 3, String::new());
        let csv = lines.join("\r\n") + "\r\n";
        let body_start = csv.find('\n').unwrap() + 1;
        assert!(
            split_body(&csv.as_bytes()[body_start..]).is_some(),
            "long enough to split"
        );

        let halves = parse(csv.as_bytes(), &ParseOptions::default()).unwrap();
        let whole = read_in_one_piece(csv.as_bytes()).unwrap();
        assert_eq!(halves.transactions, whole.transactions);
        assert_eq!(halves.transactions.len(), n - 1 - bad_at.len());
        assert_eq!(halves.unparsed, whole.unparsed);
        let lines: Vec<u32> = halves.unparsed.iter().map(|u| u.line).collect();
        let expected: Vec<u32> = bad_at
            .iter()
            .map(|at| u32::try_from(at + 1 + usize::from(*at >= blank_at)).unwrap())
            .collect();
        assert_eq!(lines, expected);
        // A service's analysis reads it in one piece, to the same statement.
        let one_piece = crate::on_calling_thread(|| {
            assert!(split_body(&csv.as_bytes()[body_start..]).is_none());
            parse(csv.as_bytes(), &ParseOptions::default()).unwrap()
        });
        assert_eq!(one_piece, halves);
    }

    /// A quoted CSV is read in one piece (a quoted field may hold a line break), and a file whose
    /// second half is not UTF-8 gets the error of the one-piece reading, naming the same record.
    #[test]
    #[cfg(feature = "testing")]
    fn quoted_or_broken_csvs_are_read_as_in_one_piece() {
        let synthetic = crate::testing::synthetic_statement_with_rows(4, 2_000);
        let csv = synthetic.to_csv();
        let body_start = csv.find('\n').unwrap() + 1;
        let quoted = csv.replacen(",Completed,", ",\"Completed\",", 1);
        assert!(!is_plain(&quoted.as_bytes()[body_start..]));
        let parsed = parse(quoted.as_bytes(), &ParseOptions::default()).unwrap();
        assert_eq!(parsed.transactions.len(), 2_000);

        let mut broken = csv.into_bytes();
        let at = broken.len() * 3 / 4;
        broken[at] = 0xFF;
        let err = parse(&broken, &ParseOptions::default()).unwrap_err();
        let Err(expected) = read_in_one_piece(&broken) else {
            panic!("0xFF is not UTF-8");
        };
        assert_eq!(err, expected);
        assert!(matches!(err.kind(), ErrorKind::Malformed { line, .. } if *line > 1_000));
    }

    #[cfg(feature = "testing")]
    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
        /// Whatever a long file holds (line ends `\n` or `\r\n`, junk lines of any bytes but
        /// `"`, blank and empty lines, invalid UTF-8 anywhere), reading it in halves gives what
        /// the one-piece reading of a service's analysis gives: the same statement, or the same
        /// error.
        #[test]
        fn halves_and_one_piece_agree_on_any_long_file(
            crlf in proptest::collection::vec(proptest::bool::ANY, 64),
            junk in proptest::collection::vec((0usize..3_000, "[, \r0-9A-Za-zé]{0,40}"), 0..6),
            broken in proptest::option::weighted(0.25, 0usize..1_000_000),
        ) {
            let synthetic = crate::testing::synthetic_statement_with_rows(5, 3_000);
            let mut lines: Vec<Vec<u8>> =
                synthetic.to_csv().lines().map(|l| l.as_bytes().to_vec()).collect();
            for (at, text) in junk {
                lines.insert(1 + at.min(lines.len() - 1), text.into_bytes());
            }
            let mut csv = Vec::new();
            for (i, line) in lines.iter().enumerate() {
                csv.extend_from_slice(line);
                csv.extend_from_slice(if crlf[i % crlf.len()] { b"\r\n" } else { b"\n" });
            }
            if let Some(at) = broken {
                let at = at % csv.len();
                csv[at] = 0xFF;
            }
            let halves = parse(&csv, &ParseOptions::default());
            let one_piece = crate::on_calling_thread(|| parse(&csv, &ParseOptions::default()));
            proptest::prop_assert_eq!(&halves, &one_piece);
            same_as_csv_crate(&csv, halves)?;
        }
    }

    /// `parse`'s result is what the `csv` crate reads from `file`: the same rows and unparsed
    /// lines, or the same error.
    fn same_as_csv_crate(
        file: &[u8],
        parsed: Result<Statement>,
    ) -> std::result::Result<(), proptest::test_runner::TestCaseError> {
        match (parsed, read_in_one_piece(file)) {
            (Ok(statement), Ok(rows)) => {
                proptest::prop_assert_eq!(statement.transactions, rows.transactions);
                proptest::prop_assert_eq!(statement.unparsed, rows.unparsed);
            }
            (Err(a), Err(b)) => proptest::prop_assert_eq!(a, b),
            (a, b) => proptest::prop_assert!(false, "parse {a:?}, csv {:?}", b.map(|r| r.records)),
        }
        Ok(())
    }

    proptest::proptest! {
        /// Any file, of rows and of junk lines of every byte a CSV reader treats apart (the
        /// delimiter, `"`, `\r`, `\n`, blanks, non-ASCII, bytes that are not UTF-8), ended by
        /// `\n`, `\r\n` or a lone `\r`: `parse` reads from it what the `csv` crate reads,
        /// whichever reader it took (`simd-csv` for [`is_plain`] files).
        #[test]
        fn every_file_is_read_as_the_csv_crate_reads_it(
            lines in proptest::collection::vec(
                (
                    proptest::prop_oneof![
                        "[a-z ]{0,12}".prop_map(|d| format!(
                            "A1,2024-01-01 10:00:00,{d},Completed,10.00,0.00,5.00"
                        ).into_bytes()),
                        proptest::collection::vec(
                            proptest::sample::select(b",\"\r\n \ta1.\xc3\xa9\xff".to_vec()),
                            0..24,
                        ),
                    ],
                    proptest::sample::select(vec!["\n", "\r\n", "\r", ""]),
                ),
                0..12,
            ),
        ) {
            let mut file =
                b"Receipt No,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance\r\n"
                    .to_vec();
            for (line, end) in lines {
                file.extend_from_slice(&line);
                file.extend_from_slice(end.as_bytes());
            }
            same_as_csv_crate(&file, parse(&file, &ParseOptions::default()))?;
        }
    }

    #[test]
    fn bad_rows_are_kept_as_unparsed() {
        let csv = "Receipt No,Completion Time,Details,Paid In,Withdrawn\n\
                   A1,2024-01-01 10:00:00,x,10,0\n\
                   A2,yesterday,x,10,0\n";
        let s = parse(csv.as_bytes(), &ParseOptions::default()).unwrap();
        assert_eq!(s.transactions.len(), 1);
        assert_eq!(s.unparsed.len(), 1);
        assert_eq!(s.unparsed[0].line, 3);
    }
}
