//! Airtel Money Uganda statement PDF (`AIRTEL MONEY STATEMENT`, written by `wkhtmltopdf`
//! 0.12 on Qt 4.8).
//!
//! Layout (measured on a real 2-page, 23-row statement; see docs/wallets.md):
//! - every page starts with the title and the header block (`Customer Name:`, `Mobile Number:`,
//!   `Email Address:`, `Statement Period: 01-Mar-26 to 31-Mar-26`, `Request Date: 21 Apr,
//!   2026`); page 1 then has the SUMMARY (`Opening Balance:`, `Closing Balance:`, `Total
//!   Credit:`, `Total Debit:`, each `Ugx 25,111.80`) and `DETAILED STATEMENT`;
//! - the table header (`Transaction ID | Transaction Date | Description | Status |
//!   Transaction Amount | Credit/Debit | Fee | Balance`, its labels on three lines) repeats on
//!   each page; rows are oldest first;
//! - a row's first line has every cell: a 12-digit id, `DD-MM-YY hh:mm AM/PM` (East Africa
//!   Time), the Description's first line, the status (`Transaction Successful`), the amount
//!   (unsigned), `Credit` or `Debit`, the fee and the balance after the row; the Description
//!   wraps onto the lines below;
//! - the footer: the page number, `www.airtel.co.ug`, a disclaimer and a self-service line.
//!
//! Cells are the line's runs of characters split by gaps wider than the font size
//! ([`pdf_text::pieces`]): the layout leaves several spaces' worth between columns, single
//! spaces inside a cell.
//!
//! Amounts: a `Debit` row withdraws `amount + fee` (Airtel's `Total Debit` counts the fees:
//! opening + credit − debit = closing to the cent on the sample), with `fee` kept beside it; a
//! `Credit` row pays in `amount` (and withdraws its fee, if it has one). The SUMMARY's totals
//! become [`Summary::total`] (paid in = Total Credit, paid out = Total Debit), its balances
//! [`Statement::balances`].

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use super::mpesa_pdf::{Line, Page};
use super::pdf_text::{Piece, pieces};
use crate::money::parse_amount;
use crate::statement::{
    AccountHolder, Balances, DocumentInfo, Period, Provider, Statement, Summary, SummaryRow,
    Transaction, TransactionStatus, UnparsedLine,
};

/// The title on every page.
pub const TITLE: &str = "AIRTEL MONEY STATEMENT";

/// Time layout of the Transaction Date cell (`04-03-26 06:18 PM`).
pub const TIME_FORMAT: &str = "%d-%m-%y %I:%M %p";

/// Cells are split where characters are further apart than this many font sizes.
const CELL_GAP: f32 = 1.0;

/// Whether the pages are an Airtel Money statement: the title, and the table header on a page.
pub(in crate::parse) fn is_airtel(pages: &[Page]) -> bool {
    let lines = || pages.iter().flat_map(|p| p.lines.iter());
    lines().any(|l| l.text().trim() == TITLE) && lines().any(is_table_header)
}

/// The line of the table header that holds `Transaction ID`, `Transaction Date` and
/// `Description`.
fn is_table_header(line: &Line) -> bool {
    let text = line.text();
    text.contains("Transaction ID") && text.contains("Transaction Date") && text.contains("Status")
}

/// The header's last line (`Amount /Debit`), the first line of its labels
/// (`Transaction Credit`), or the section title above the table.
fn is_header_part(text: &str) -> bool {
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    matches!(
        compact.as_str(),
        "Amount/Debit" | "TransactionCredit" | "DETAILEDSTATEMENT"
    )
}

/// A footer line: the web address, the disclaimer, the self-service line. (The page number
/// above them stands right of the Status column, where no Description line does.)
fn is_footer(text: &str) -> bool {
    let t = text.trim();
    t.starts_with("www.airtel") || t.starts_with("Disclaimer") || t.starts_with("For self-service")
}

/// The left edge of the `Status` label of the table header, points.
fn status_x(line: &Line) -> Option<f32> {
    pieces(line, 0.15)
        .iter()
        .find(|p| p.text == "Status")
        .map(|p| p.x)
}

/// Where the reader is on a page.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Region {
    Front,
    Table,
    Footer,
}

/// The header block and SUMMARY as read.
#[derive(Default)]
struct Front {
    holder: AccountHolder,
    period: Option<Period>,
    requested_at: Option<NaiveDate>,
    opening: Option<Decimal>,
    closing: Option<Decimal>,
    credit: Option<Decimal>,
    debit: Option<Decimal>,
}

impl Front {
    /// Reads a header or SUMMARY line (`Label: value`); other lines are ignored.
    fn read(&mut self, text: &str) {
        let Some((label, value)) = text.split_once(':') else {
            return;
        };
        let value = value.trim();
        let money = || parse_amount(strip_currency(value));
        match label.trim() {
            "Customer Name" => self.holder.name = Some(value.to_owned()).filter(|v| !v.is_empty()),
            "Mobile Number" => {
                self.holder.mobile_number = Some(value.to_owned()).filter(|v| !v.is_empty());
            }
            "Email Address" => self.holder.email = Some(value.to_owned()).filter(|v| !v.is_empty()),
            "Statement Period" => {
                self.period = value.split_once(" to ").and_then(|(a, b)| {
                    let day = |d: &str| NaiveDate::parse_from_str(d.trim(), "%d-%b-%y").ok();
                    Some(Period {
                        start: day(a)?,
                        end: day(b)?,
                    })
                });
            }
            "Request Date" => {
                self.requested_at = NaiveDate::parse_from_str(value, "%d %b, %Y").ok();
            }
            "Opening Balance" => self.opening = money(),
            "Closing Balance" => self.closing = money(),
            "Total Credit" => self.credit = money(),
            "Total Debit" => self.debit = money(),
            _ => {}
        }
    }
}

/// `25,111.80` from `Ugx 25,111.80` (the currency word in any case).
fn strip_currency(value: &str) -> &str {
    let v = value.trim();
    match v.get(..3) {
        Some(code) if code.eq_ignore_ascii_case("ugx") => v[3..].trim(),
        _ => v,
    }
}

/// Reads the statement from its pages (see the module documentation). Rows and continuation
/// lines that cannot be read are kept as [`UnparsedLine`]s: nothing here fails.
pub(in crate::parse) fn read(document: DocumentInfo, pages: &[Page]) -> Statement {
    let mut front = Front::default();
    let mut transactions: Vec<Transaction> = Vec::new();
    let mut unparsed = Vec::new();
    // Whether the last table line began a row that may continue.
    let mut open = false;
    // Description lines start left of the Status label.
    let mut status_left = f32::MAX;
    for page in pages {
        let mut region = Region::Front;
        for (index, line) in page.lines.iter().enumerate() {
            let text = line.text();
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            match region {
                Region::Footer => {}
                Region::Front if is_table_header(line) => {
                    region = Region::Table;
                    status_left = status_x(line).unwrap_or(f32::MAX);
                }
                Region::Front => {
                    if page.number == 1 {
                        front.read(text);
                    }
                }
                // A Description may go on at the top of the next page's table: the row stays
                // open across the footer.
                Region::Table if is_footer(text) => region = Region::Footer,
                Region::Table if is_header_part(text) || text.trim().is_empty() => {}
                Region::Table => {
                    let cells = pieces(line, CELL_GAP);
                    if starts_row(&cells) {
                        match read_row(&cells) {
                            Ok(row) => {
                                transactions.push(row);
                                open = true;
                            }
                            Err(reason) => {
                                open = false;
                                unparsed.push(unparsed_line(page.number, number, text, reason));
                            }
                        }
                    } else if cells.first().is_some_and(|c| c.x >= status_left) {
                        // The page number, right of every Description.
                    } else if let (true, Some(row)) = (open, transactions.last_mut()) {
                        row.details.push(' ');
                        row.details.push_str(text.trim());
                    } else {
                        unparsed.push(unparsed_line(
                            page.number,
                            number,
                            text,
                            "a Description line without a readable row above it".to_owned(),
                        ));
                    }
                }
            }
        }
    }
    let summary = match (front.credit, front.debit) {
        (Some(paid_in), Some(paid_out)) => Some(Summary {
            rows: Vec::new(),
            total: SummaryRow {
                transaction_type: "TOTAL".to_owned(),
                paid_in,
                paid_out,
            },
        }),
        _ => None,
    };
    let balances = match (front.opening, front.closing) {
        (Some(opening), Some(closing)) => Some(Balances { opening, closing }),
        _ => None,
    };
    Statement {
        provider: Provider::AirtelMoneyUg,
        holder: front.holder,
        currency: "UGX".to_owned(),
        currency_exponent: None,
        country: Some("UG".to_owned()),
        time_zone: Some("Africa/Kampala".to_owned()),
        period: front.period,
        requested_at: front.requested_at,
        summary,
        balances,
        transactions,
        document: Some(document),
        unparsed,
        source: None,
    }
}

fn unparsed_line(page: u32, line: u32, text: &str, reason: String) -> UnparsedLine {
    UnparsedLine {
        page,
        line,
        text: text.to_owned(),
        reason,
    }
}

/// Whether a table line begins a row: its first cell is a transaction id (digits only, at
/// least 6) and it has the cells of a row (a Description line can hold a number alone: the
/// `Receiving TID` of a transfer).
fn starts_row(cells: &[Piece]) -> bool {
    cells.len() >= 6
        && cells
            .first()
            .is_some_and(|c| c.text.len() >= 6 && c.text.bytes().all(|b| b.is_ascii_digit()))
}

/// Splits `Received from … Transaction Successful` (a Description too close to its status to
/// leave a gap) into the Description and the status.
fn split_status(cell: &str) -> (&str, &str) {
    match cell.rfind("Transaction ") {
        Some(at) => (cell[..at].trim_end(), &cell[at..]),
        None => ("", cell),
    }
}

/// A row's first line: id, time, Description, status, amount, direction, fee, balance.
fn read_row(cells: &[Piece]) -> std::result::Result<Transaction, String> {
    let texts: Vec<&str> = cells.iter().map(|c| c.text.as_str()).collect();
    let [id, rest @ ..] = texts.as_slice() else {
        return Err("an empty line".to_owned());
    };
    let [middle @ .., amount, direction, fee, balance] = rest else {
        return Err(format!(
            "{} cells where a row has at least 6 (id, date, status, amount, Credit/Debit, fee, \
             balance)",
            texts.len()
        ));
    };
    // The date and time are one cell, or two when the layout left a gap between them.
    let (completed_at, middle) = match middle {
        [time, more @ ..] if NaiveDateTime::parse_from_str(time, TIME_FORMAT).is_ok() => {
            (NaiveDateTime::parse_from_str(time, TIME_FORMAT).ok(), more)
        }
        [day, time, more @ ..] => (
            NaiveDateTime::parse_from_str(&format!("{day} {time}"), TIME_FORMAT).ok(),
            more,
        ),
        _ => (None, middle),
    };
    let completed_at = completed_at.ok_or_else(|| {
        "no Transaction Date of the form DD-MM-YY hh:mm AM/PM after the id".to_owned()
    })?;
    // The status is the last cell before the amount, or the end of it when the Description
    // ran too close to leave a gap.
    let [description @ .., last] = middle else {
        return Err("no Status cell".to_owned());
    };
    let (tail, status) = split_status(last);
    let details = description
        .iter()
        .copied()
        .chain(std::iter::once(tail))
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let cells = RowCells {
        amount,
        direction,
        fee,
        balance,
    };
    finish(id, completed_at, &details, status, &cells)
}

/// The amount cells of a row's first line, as printed.
#[derive(Clone, Copy)]
struct RowCells<'a> {
    amount: &'a str,
    direction: &'a str,
    fee: &'a str,
    balance: &'a str,
}

/// The row from its cells' texts.
fn finish(
    id: &str,
    completed_at: NaiveDateTime,
    details: &str,
    status: &str,
    cells: &RowCells<'_>,
) -> std::result::Result<Transaction, String> {
    let RowCells {
        amount,
        direction,
        fee,
        balance,
    } = *cells;
    let money = |name: &str, text: &str| {
        parse_amount(text)
            .filter(|a| !a.is_sign_negative())
            .ok_or_else(|| format!("{name} {text:?} is not an amount"))
    };
    let amount = money("Transaction Amount", amount)?;
    let fee = money("Fee", fee)?;
    let balance =
        parse_amount(balance).ok_or_else(|| format!("Balance {balance:?} is not an amount"))?;
    let (paid_in, withdrawn) = match direction {
        "Credit" => (amount, fee),
        "Debit" => (Decimal::ZERO, amount + fee),
        other => return Err(format!("Credit/Debit {other:?} is neither")),
    };
    Ok(Transaction {
        receipt_no: id.to_owned(),
        completed_at,
        details: details.to_owned(),
        status: status_of(status),
        paid_in,
        withdrawn,
        balance: Some(balance),
        fee: Some(fee),
        ..Transaction::empty()
    })
}

/// Airtel's status words: `Transaction Successful` moved money; `… Failed`, `… Cancelled`
/// did not; anything else is [`TransactionStatus::Other`].
pub fn status_of(text: &str) -> TransactionStatus {
    let word = text.trim().trim_start_matches("Transaction").trim();
    TransactionStatus::from_word(word)
}
