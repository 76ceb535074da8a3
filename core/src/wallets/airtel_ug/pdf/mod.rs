//! Airtel Money Uganda statement PDF (`AIRTEL MONEY STATEMENT`, written by `wkhtmltopdf`
//! 0.12 on Qt 4.8). (About 400 lines: the page regions and the row reader are one concept;
//! the header block is in `front.rs`.)
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
//! ([`pieces`]): the layout leaves several spaces' worth between columns, single
//! spaces inside a cell.
//!
//! Amounts: a `Debit` row withdraws `amount + fee` (Airtel's `Total Debit` counts the fees:
//! opening + credit − debit = closing to the cent on the sample), with `fee` kept beside it; a
//! `Credit` row pays in `amount` (and withdraws its fee, if it has one). A fee the balance shows
//! the holder did not pay (the balance moved by the amount alone) is not the holder's
//! ([`fee_by_balance`]); a blank fee is none.
//!
//! Not only the sample's edition is read: cells are found from the row's `Credit`/`Debit`
//! (so a blank fee cannot shift them), ids may hold letters, times and header dates are read
//! in a few day-first layouts, and a month without rows (no table) is still a statement. The SUMMARY's totals
//! become [`Summary::total`] (paid in = Total Credit, paid out = Total Debit), its balances
//! [`Statement::balances`].

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

mod front;

use front::Front;

use crate::money::parse_amount;
use crate::pdf::{Line, Page, Piece, pieces};
use crate::statement::{
    Balances, DocumentInfo, Statement, Summary, SummaryRow, Transaction, TransactionStatus,
    UnparsedLine,
};

/// The title on every page.
pub const TITLE: &str = "AIRTEL MONEY STATEMENT";

/// Time layout of the Transaction Date cell (`04-03-26 06:18 PM`).
pub const TIME_FORMAT: &str = "%d-%m-%y %I:%M %p";

/// The time layouts a Transaction Date is read in, tried in order: the sample's
/// ([`TIME_FORMAT`]), then with a four-digit year, seconds or a 24-hour clock, in case another
/// edition of the statement prints them. Day first, as Uganda writes dates.
const TIME_FORMATS: [&str; 8] = [
    TIME_FORMAT,
    "%d-%m-%Y %I:%M %p",
    "%d-%m-%y %I:%M:%S %p",
    "%d-%m-%Y %I:%M:%S %p",
    "%d-%m-%y %H:%M",
    "%d-%m-%Y %H:%M",
    "%d-%m-%y %H:%M:%S",
    "%d-%m-%Y %H:%M:%S",
];

/// `text` read with the first of [`TIME_FORMATS`] that fits it.
fn time_of(text: &str) -> Option<NaiveDateTime> {
    TIME_FORMATS
        .iter()
        .find_map(|f| NaiveDateTime::parse_from_str(text, f).ok())
}

/// Cells are split where characters are further apart than this many font sizes.
const CELL_GAP: f32 = 1.0;

/// Reads an opened PDF as Airtel Money Uganda's statement: `Ok(None)` when its pages are not
/// this layout.
///
/// # Errors
/// Those of [`crate::pdf::Document::pages`].
pub(super) fn read(document: &crate::pdf::Document) -> crate::error::Result<Option<Statement>> {
    let pages = document.pages()?;
    Ok(
        is_airtel(&pages)
            .then(|| read_pages(crate::pdf::info_with_pages(document, &pages), &pages)),
    )
}

/// Whether the pages are an Airtel Money statement: the title, and the table header or the
/// header block's period (a month without rows may print no table).
fn is_airtel(pages: &[Page]) -> bool {
    let lines = || pages.iter().flat_map(|p| p.lines.iter());
    lines().any(|l| l.text().trim() == TITLE)
        && lines()
            .any(|l| is_table_header(l) || l.text().trim_start().starts_with("Statement Period:"))
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

/// Reads the statement from its pages (see the module documentation). Rows and continuation
/// lines that cannot be read are kept as [`UnparsedLine`]s: nothing here fails.
fn read_pages(document: DocumentInfo, pages: &[Page]) -> Statement {
    let mut front = Front::default();
    let mut transactions: Vec<Transaction> = Vec::new();
    let mut unparsed = Vec::new();
    // Whether the last table line began a row that may continue.
    let mut open = false;
    // Description lines start left of the Status label.
    let mut status_left = f32::MAX;
    // The balance after the last completed row (rows are oldest first).
    let mut last_balance: Option<Decimal> = None;
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
                            Ok(mut row) => {
                                fee_by_balance(&mut row, last_balance);
                                if row.is_completed() {
                                    last_balance = row.balance.or(last_balance);
                                }
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
        provider: super::WALLET.provider(),
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

/// Whether a cell is the direction of a row (`Credit` or `Debit`).
fn is_direction(text: &str) -> bool {
    text.eq_ignore_ascii_case("credit") || text.eq_ignore_ascii_case("debit")
}

/// Whether a table line begins a row: after a transaction id (letters and digits, at least 6,
/// one a digit), a `Credit`/`Debit` cell or a Transaction Date. (A Description line can hold a
/// number alone, the `Receiving TID` of a transfer, but never a direction or a date after it.)
fn starts_row(cells: &[Piece]) -> bool {
    let id = cells.first().is_some_and(|c| {
        c.text.len() >= 6
            && c.text.bytes().all(|b| b.is_ascii_alphanumeric())
            && c.text.bytes().any(|b| b.is_ascii_digit())
    });
    let dated = || date_cells(&cells[1..]).is_some();
    id && cells.len() >= 3 && (cells.iter().any(|c| is_direction(&c.text)) || dated())
}

/// The Transaction Date at the start of `cells` (one piece, or two or three when the layout
/// left gaps in it) and the cells after it.
fn date_cells(cells: &[Piece]) -> Option<(NaiveDateTime, &[Piece])> {
    // Longest first: `04-03-26 06:18` alone would read as 06:18 on the 24-hour clock.
    (1..=3.min(cells.len())).rev().find_map(|n| {
        let text: Vec<&str> = cells[..n].iter().map(|c| c.text.as_str()).collect();
        time_of(&text.join(" ")).map(|at| (at, &cells[n..]))
    })
}

/// Splits `Received from … Transaction Successful` (a Description too close to its status to
/// leave a gap) into the Description and the status.
fn split_status(cell: &str) -> (&str, &str) {
    match cell.rfind("Transaction ") {
        Some(at) => (cell[..at].trim_end(), &cell[at..]),
        None => ("", cell),
    }
}

/// A row's first line: id, time, Description, status, amount, direction, fee, balance. The
/// cells are found from the direction (`Credit`/`Debit`): the amount stands left of it, the
/// fee and the balance right of it, the fee's cell empty on a row without one (then no fee
/// was paid).
fn read_row(cells: &[Piece]) -> std::result::Result<Transaction, String> {
    let Some((id, rest)) = cells.split_first() else {
        return Err("an empty line".to_owned());
    };
    let Some(at) = rest.iter().rposition(|c| is_direction(&c.text)) else {
        return Err("no Credit/Debit cell".to_owned());
    };
    let (before, after) = (&rest[..at], &rest[at + 1..]);
    let (fee, balance) = match after {
        [fee, balance] => (fee.text.as_str(), balance.text.as_str()),
        [balance] => ("", balance.text.as_str()),
        _ => {
            return Err(format!(
                "{} cells after Credit/Debit where a row has the fee and the balance",
                after.len()
            ));
        }
    };
    let Some((amount, head)) = before.split_last() else {
        return Err("no Transaction Amount before Credit/Debit".to_owned());
    };
    let (completed_at, middle) = date_cells(head).ok_or_else(|| {
        "no Transaction Date of the form DD-MM-YY hh:mm AM/PM after the id".to_owned()
    })?;
    // The status is the last cell before the amount, or the end of it when the Description
    // ran too close to leave a gap.
    let [description @ .., last] = middle else {
        return Err("no Status cell".to_owned());
    };
    let (tail, status) = split_status(&last.text);
    let details = description
        .iter()
        .map(|c| c.text.as_str())
        .chain(std::iter::once(tail))
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let cells = RowCells {
        amount: &amount.text,
        direction: &rest[at].text,
        fee,
        balance,
    };
    finish(&id.text, completed_at, &details, status, &cells)
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
    let fee = if fee.is_empty() {
        Decimal::ZERO
    } else {
        money("Fee", fee)?
    };
    let balance =
        parse_amount(balance).ok_or_else(|| format!("Balance {balance:?} is not an amount"))?;
    let (paid_in, withdrawn) = match direction.to_ascii_lowercase().as_str() {
        "credit" => (amount, fee),
        "debit" => (Decimal::ZERO, amount + fee),
        _ => return Err(format!("Credit/Debit {direction:?} is neither")),
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

/// Whose a row's fee is, from the balances: a fee is the holder's (inside `withdrawn`, as on
/// every row of the sample) unless the balance moved by the amount alone, which a fee the
/// other party paid leaves (MTN prints the sender's fee on incoming rows). Without the balance
/// before the row, the printed fee is the holder's.
fn fee_by_balance(row: &mut Transaction, before: Option<Decimal>) {
    let (Some(before), Some(after), Some(fee)) = (before, row.balance, row.fee) else {
        return;
    };
    if fee.is_zero() || !row.is_completed() {
        return;
    }
    let net = row.paid_in - row.withdrawn;
    if before + net != after && before + net + fee == after {
        row.withdrawn -= fee;
        row.fee = None;
    }
}

/// Airtel's status words: `Transaction Successful` moved money; `… Failed`, `… Cancelled`
/// did not; anything else is [`TransactionStatus::Other`].
pub fn status_of(text: &str) -> TransactionStatus {
    let word = text.trim().trim_start_matches("Transaction").trim();
    TransactionStatus::from_word(word)
}

#[cfg(test)]
mod tests;
