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
//! **The holder** is the number on a side (From or To) of the most rows (on the sample, every
//! row): money out when it is From, in when it is To; a row without it (a system row) is read
//! by its balance against the row before it in time, or kept as an unparsed line. Charges are
//! rows of their own (`Withdrawal Charge`), as in Kenya, so no row has a fee.

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use crate::error::{Error, Result};
use crate::money::parse_amount;
use crate::pdf::{Line, Page, Piece, pieces};
use crate::statement::{
    AccountHolder, DocumentInfo, Statement, Transaction, TransactionStatus, UnparsedLine,
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

/// Reads an opened PDF as Vodacom M-Pesa Lesotho's statement: `Ok(None)` when its pages are
/// not this layout.
///
/// # Errors
/// Those of [`crate::pdf::Document::pages`], and `Malformed` for a table without the holder's
/// number.
pub(super) fn read(document: &crate::pdf::Document) -> Result<Option<Statement>> {
    let pages = document.pages()?;
    if !is_vodacom(&pages) {
        return Ok(None);
    }
    read_pages(crate::pdf::info_with_pages(document, &pages), &pages).map(Some)
}

/// Whether the pages are a Vodacom M-Pesa Lesotho statement: the title and the table header.
fn is_vodacom(pages: &[Page]) -> bool {
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

/// The footer's first line, the copyright line (`© 2021 Vodacom Lesotho`; the page number
/// follows it). Only a line that starts with the sign is: a Description may name Vodacom
/// Lesotho (`Pay Bill to … - Vodacom Lesotho Postpaid`), and a line of digits alone may be a
/// Description's wrapped number.
fn is_footer(text: &str) -> bool {
    let t = text.trim_start();
    t.starts_with('©') || t.starts_with("(c)") || t.starts_with("(C)")
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
fn read_pages(document: DocumentInfo, pages: &[Page]) -> Result<Statement> {
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
            let starts = starts_row(&cells[DATE]);
            // Only the date, the numbers and the Description wrap: an amount or a balance
            // below a row's is not the row's (a note or a number after the table).
            let stray = !starts
                && raw.last().is_some_and(|row| {
                    [AMOUNT, BALANCE]
                        .iter()
                        .any(|c| !cells[*c].is_empty() && !row.cells[*c].is_empty())
                });
            if stray {
                unparsed.push(UnparsedLine {
                    page: page.number,
                    line: number,
                    text: text.to_owned(),
                    reason: "a line under the amount or balance of the row above, which has one"
                        .to_owned(),
                });
            } else if starts {
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
    let transactions = rows_of(&raw, &holder, &mut unparsed);
    Ok(Statement {
        provider: super::WALLET.provider(),
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

/// The rows read, money out where `holder` is From (see [`out_by_balance`] for a row without
/// the holder's number); rows that cannot be read are added to `unparsed`.
fn rows_of(rows: &[RawRow], holder: &str, unparsed: &mut Vec<UnparsedLine>) -> Vec<Transaction> {
    let mut transactions = Vec::with_capacity(rows.len());
    for (at, row) in rows.iter().enumerate() {
        let out = if row.cells[FROM].trim() == holder {
            Some(true)
        } else if row.cells[TO].trim() == holder {
            Some(false)
        } else {
            out_by_balance(row, rows.get(at + 1))
        };
        let read = out
            .ok_or_else(|| {
                "neither From nor To is the holder's number, and the balance does not tell the \
                 direction"
                    .to_owned()
            })
            .and_then(|out| read_row(row, out));
        match read {
            Ok(t) => transactions.push(t),
            Err(reason) => unparsed.push(UnparsedLine {
                page: row.page,
                line: row.line,
                text: row.cells.join(" | "),
                reason,
            }),
        }
    }
    transactions
}

/// The holder's number: the one on a side (From or To) of the most rows. When two are on
/// every row (a statement whose rows are all between the same two numbers), a phone number
/// (eight digits or more) is preferred to an agent's, till's or organisation's short code, and
/// then the smaller, so that the choice is deterministic.
///
/// # Errors
/// `ErrorKind::Malformed` when no row has a number (the holder, and so every row's
/// direction, cannot be known).
fn holder_number(rows: &[RawRow]) -> Result<String> {
    let Some(first) = rows.first() else {
        return Ok(String::new());
    };
    let mut counts: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for row in rows {
        let (from, to) = (row.cells[FROM].trim(), row.cells[TO].trim());
        if !from.is_empty() {
            *counts.entry(from).or_default() += 1;
        }
        if !to.is_empty() && to != from {
            *counts.entry(to).or_default() += 1;
        }
    }
    let phone = |n: &str| n.chars().filter(char::is_ascii_digit).count() >= 8;
    counts
        .iter()
        .max_by_key(|(number, count)| (**count, phone(number), std::cmp::Reverse(**number)))
        .map(|(number, _)| (*number).to_owned())
        .ok_or_else(|| {
            Error::malformed(
                first.page,
                first.line,
                "Vodacom M-Pesa statement: no row has a From or To number, so the holder and \
                 each row's direction cannot be known",
            )
        })
}

/// Whether a row without the holder's number took money out: its balance is below the one
/// after the row listed next (the row before it in time; rows are listed newest first).
/// `None` when that cannot be told.
fn out_by_balance(row: &RawRow, older: Option<&RawRow>) -> Option<bool> {
    let balance = |r: &RawRow| parse_amount(r.cells[BALANCE].trim());
    let (now, before) = (balance(row)?, balance(older?)?);
    (now != before).then_some(now < before)
}

/// The row, money out when `out`.
fn read_row(row: &RawRow, out: bool) -> std::result::Result<Transaction, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    fn row(from: &str, to: &str, balance: &str) -> RawRow {
        RawRow {
            page: 1,
            line: 1,
            cells: [
                "2024-12-31T10:26:23".to_owned(),
                from.to_owned(),
                to.to_owned(),
                "10.00".to_owned(),
                balance.to_owned(),
                "Test".to_owned(),
            ],
        }
    }

    #[test]
    fn only_the_copyright_line_is_the_footer() {
        assert!(is_footer("© 2021 Vodacom Lesotho"));
        assert!(is_footer("  (c) 2021 Vodacom Lesotho"));
        assert!(!is_footer(
            "2024-12- 26650000000 50050 25.00 100.00 Pay Bill to 50050 - Vodacom Lesotho"
        ));
        assert!(!is_footer("Vodacom Lesotho Postpaid"));
    }

    #[test]
    fn the_holder_is_the_number_of_most_rows() {
        let holder = "26650000000";
        // A system row without the holder's number does not make the statement unreadable.
        let rows = [
            row(holder, "123456", "90.00"),
            row("", "", "100.00"),
            row("26651111111", holder, "90.00"),
        ];
        assert_eq!(holder_number(&rows).ok().as_deref(), Some(holder));
        // Listed newest first: the middle row's balance rose from 90 to 100 (money in).
        assert_eq!(out_by_balance(&rows[1], rows.get(2)), Some(false));
        assert_eq!(out_by_balance(&rows[0], rows.get(1)), Some(true));
        assert_eq!(out_by_balance(&rows[2], None), None);
        // Rows all between the same two numbers: the phone number, not the till.
        let pair = [
            row("123456", holder, "10.00"),
            row("123456", holder, "20.00"),
        ];
        assert_eq!(holder_number(&pair).ok().as_deref(), Some(holder));
        assert!(holder_number(&[row("", "", "1.00")]).is_err());
    }
}
