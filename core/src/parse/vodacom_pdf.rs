//! Vodacom M-Pesa Lesotho statement PDF (`M-Pesa Statement`, written by `iText 2.1.7`).
//!
//! Layout (measured on a real 21-page, 357-row statement; see docs/wallets.md):
//! - no header block: no holder, period or currency is printed (the currency is LSL, the times
//!   South Africa Standard Time); page 1 has the title `M-Pesa Statement`;
//! - every page repeats the table header `Transaction Date | From | To | Transaction Amount |
//!   Balance | Description`, each value left-aligned under its label; rows are newest first;
//! - a row's first line holds the date up to its second dash (`2024-12-`), From, To, the amount
//!   (unsigned), the balance after the row and the Description's first line; the next line holds
//!   the rest of the date (`31T10:26:23`) and the Description wraps over up to four lines;
//! - the footer: `© 2021 Vodacom Lesotho` and the page number.
//!
//! **The holder** is the number on one side (From or To) of every row: money out when it is
//! From, in when it is To. Charges are rows of their own (`Withdrawal Charge`), as in Kenya, so
//! no row has a fee.

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use super::mpesa_pdf::{Line, Page};
use super::pdf_text::{Piece, pieces};
use crate::error::{Error, Result};
use crate::money::parse_amount;
use crate::statement::{
    AccountHolder, DocumentInfo, Provider, Statement, Transaction, TransactionStatus, UnparsedLine,
};

/// The title on page 1.
pub const TITLE: &str = "M-Pesa Statement";

/// Words inside a cell are split where characters are further apart than this many font sizes;
/// pieces are then put in the column whose label starts at or left of them.
const WORD_GAP: f32 = 0.6;

/// A piece belongs to a column when it starts at most this far left of the column's label
/// (points).
const ALIGN_TOLERANCE: f32 = 3.0;

/// The six columns, by position.
const DATE: usize = 0;
const FROM: usize = 1;
const TO: usize = 2;
const AMOUNT: usize = 3;
const BALANCE: usize = 4;
const DESCRIPTION: usize = 5;

/// Whether the pages are a Vodacom M-Pesa Lesotho statement: the title and the table header.
pub(in crate::parse) fn is_vodacom(pages: &[Page]) -> bool {
    let lines = || pages.iter().flat_map(|p| p.lines.iter());
    lines().any(|l| l.text().trim() == TITLE) && lines().any(|l| header_columns(l).is_some())
}

/// The left edges of the six columns' labels, from the table header line.
fn header_columns(line: &Line) -> Option<[f32; 6]> {
    let text = line.text();
    if !(text.starts_with("Transaction Date") && text.ends_with("Description")) {
        return None;
    }
    let words = pieces(line, 0.15);
    let x_of = |word: &str, nth: usize| {
        words
            .iter()
            .filter(|w| w.text == word)
            .nth(nth)
            .map(|w| w.x)
    };
    Some([
        words.first()?.x,
        x_of("From", 0)?,
        x_of("To", 0)?,
        x_of("Transaction", 1)?,
        x_of("Balance", 0)?,
        x_of("Description", 0)?,
    ])
}

/// The footer's first line, the copyright line (the page number follows it). A line of
/// digits alone is not a footer: a Description can wrap onto a line holding only a number.
fn is_footer(text: &str) -> bool {
    let t = text.trim();
    t.starts_with('©') || t.contains("Vodacom Lesotho")
}

/// A row as printed, before its direction is known.
struct RawRow {
    page: u32,
    line: u32,
    cells: [String; 6],
}

/// Each column's text of one line.
fn cells_of(line: &Line, columns: &[f32; 6]) -> [String; 6] {
    let mut cells: [String; 6] = Default::default();
    for piece in pieces(line, WORD_GAP) {
        let column = columns
            .iter()
            .rposition(|start| piece.x + ALIGN_TOLERANCE >= *start)
            .unwrap_or(DATE);
        push_word(&mut cells[column], &piece);
    }
    cells
}

fn push_word(cell: &mut String, piece: &Piece) {
    if !cell.is_empty() {
        cell.push(' ');
    }
    cell.push_str(&piece.text);
}

/// Whether a date cell begins a row: `YYYY-MM-` (the rest on the next line) or a whole time.
fn starts_row(date: &str) -> bool {
    let b = date.as_bytes();
    b.len() >= 8
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
}

/// Reads the statement from its pages (see the module documentation).
///
/// # Errors
/// `ErrorKind::Malformed` when rows were read but no number is on one side of every row (the
/// holder, and so every row's direction, cannot be known).
pub(in crate::parse) fn read(document: DocumentInfo, pages: &[Page]) -> Result<Statement> {
    let mut raw: Vec<RawRow> = Vec::new();
    let mut unparsed = Vec::new();
    let mut columns: Option<[f32; 6]> = None;
    for page in pages {
        let mut in_table = false;
        for (index, line) in page.lines.iter().enumerate() {
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            if let Some(found) = header_columns(line) {
                columns = Some(found);
                in_table = true;
                continue;
            }
            let text = line.text();
            if !in_table || text.trim().is_empty() {
                continue;
            }
            if is_footer(text) {
                in_table = false;
                continue;
            }
            let Some(columns) = columns.as_ref() else {
                continue;
            };
            let cells = cells_of(line, columns);
            if starts_row(&cells[DATE]) {
                raw.push(RawRow {
                    page: page.number,
                    line: number,
                    cells,
                });
            } else if let Some(row) = raw.last_mut() {
                for (column, (cell, more)) in row.cells.iter_mut().zip(cells).enumerate() {
                    // The date's second half joins without a space (`2024-12-` + `31T10:26:23`).
                    if !more.is_empty() {
                        if !cell.is_empty() && column != DATE {
                            cell.push(' ');
                        }
                        cell.push_str(&more);
                    }
                }
            } else {
                unparsed.push(UnparsedLine {
                    page: page.number,
                    line: number,
                    text: text.to_owned(),
                    reason: "a table line before the first row".to_owned(),
                });
            }
        }
    }
    let holder = holder_number(&raw)?;
    let mut transactions = Vec::with_capacity(raw.len());
    for row in &raw {
        match read_row(row, &holder) {
            Ok(t) => transactions.push(t),
            Err(reason) => unparsed.push(UnparsedLine {
                page: row.page,
                line: row.line,
                text: row.cells.join(" | "),
                reason,
            }),
        }
    }
    Ok(Statement {
        provider: Provider::VodacomMpesaLs,
        holder: AccountHolder {
            mobile_number: (!holder.is_empty()).then_some(holder),
            ..AccountHolder::default()
        },
        currency: "LSL".to_owned(),
        currency_exponent: None,
        country: Some("LS".to_owned()),
        time_zone: Some("Africa/Maseru".to_owned()),
        transactions,
        document: Some(document),
        unparsed,
        ..Statement::default()
    })
}

/// The number on one side of every row: of the first row's From and To, the one every row has
/// (when both are, which only a statement of rows between the same two numbers can have, the
/// smaller, so that the choice is deterministic).
fn holder_number(rows: &[RawRow]) -> Result<String> {
    let Some(first) = rows.first() else {
        return Ok(String::new());
    };
    let mut candidates: Vec<&str> = [first.cells[FROM].as_str(), first.cells[TO].as_str()]
        .into_iter()
        .filter(|n| !n.is_empty())
        .filter(|n| {
            rows.iter()
                .all(|r| r.cells[FROM] == *n || r.cells[TO] == *n)
        })
        .collect();
    candidates.sort_unstable();
    candidates.first().map(|n| (*n).to_owned()).ok_or_else(|| {
        Error::malformed(
            first.page,
            first.line,
            "Vodacom M-Pesa statement: no number is on one side (From or To) of every row, so \
             the holder and each row's direction cannot be known",
        )
    })
}

fn read_row(row: &RawRow, holder: &str) -> std::result::Result<Transaction, String> {
    let cell = |c: usize| row.cells[c].trim();
    let date = cell(DATE);
    let completed_at = NaiveDateTime::parse_from_str(date, "%Y-%m-%dT%H:%M:%S")
        .map_err(|_| format!("Transaction Date {date:?} is not YYYY-MM-DDThh:mm:ss"))?;
    let money = |c: usize, name: &str| {
        parse_amount(cell(c))
            .filter(|a| !a.is_sign_negative() && !cell(c).is_empty())
            .ok_or_else(|| format!("{name} {:?} is not an amount", cell(c)))
    };
    let amount = money(AMOUNT, "Transaction Amount")?;
    let balance = parse_amount(cell(BALANCE))
        .filter(|_| !cell(BALANCE).is_empty())
        .ok_or_else(|| format!("Balance {:?} is not an amount", cell(BALANCE)))?;
    let out = cell(FROM) == holder;
    Ok(Transaction {
        receipt_no: String::new(),
        completed_at,
        details: cell(DESCRIPTION).to_owned(),
        status: TransactionStatus::Completed,
        paid_in: if out { Decimal::ZERO } else { amount },
        withdrawn: if out { amount } else { Decimal::ZERO },
        balance: Some(balance),
        ..Transaction::empty()
    })
}
