//! Reading the pages' lines into the account header, the SUMMARY and the transaction rows.
//!
//! Per page: lines above the table header are the account header and SUMMARY (first page) or
//! the page number; the table runs from its header row to the footer (`Disclaimer…`). A table
//! line is either
//! - a **row**: `RECEIPT  YYYY-MM-DD HH:MM:SS  Details…` left of the status column, a status
//!   word, and the amounts (each in its own column, found by x position), or
//! - a **continuation** of the previous row's Details: text left of the status column only.
//!
//! Anything else in the table (and a row whose time, status or amounts cannot be read) is kept
//! as an [`UnparsedLine`] with the reason; continuation lines of an unreadable row are kept
//! the same way.
//!
//! (Over 400 lines: one reader, a state machine over the lines of every page, then its tests
//! on hand-built lines.)

use chrono::NaiveDateTime;
use rust_decimal::Decimal;

use super::grid::{self, Placed};
use super::header::{
    HeaderFields, header_field, is_detailed_title, is_footer_start, is_summary_header,
    is_summary_title, page_of, summary_row,
};
use super::layout::{Cells, Columns, header_columns, is_header_remainder};
use crate::categorise::Category;
use crate::error::{Error, ErrorKind, Result};
use crate::money::{cents, parse_amount};
use crate::pdf::{Line, Page};
use crate::statement::{
    AccountHolder, PageLine, Period, Summary, SummaryRow, Transaction, TransactionStatus,
    UnparsedLine,
};

/// Everything read from the pages.
#[derive(Debug, Default)]
pub(super) struct Table {
    /// Account holder from the header.
    pub holder: AccountHolder,
    /// Statement period from the header.
    pub period: Option<Period>,
    /// Request date from the header.
    pub requested_at: Option<chrono::NaiveDate>,
    /// The SUMMARY table, when it has a TOTAL row.
    pub summary: Option<Summary>,
    /// Transaction rows, in statement order.
    pub transactions: Vec<Transaction>,
    /// Table lines that could not be read.
    pub unparsed: Vec<UnparsedLine>,
    /// The largest `N` of the footers' `Page x of N`.
    pub declared_pages: Option<u32>,
    /// Table and SUMMARY lines whose amounts do not line up with their column (see
    /// [`grid::off_grid`]).
    pub off_grid: Vec<PageLine>,
    /// Table and SUMMARY lines whose amounts start or end where the writer's rounding of a
    /// start cannot put them (see [`grid::off_writers_rounding`]).
    pub off_rounding: Vec<PageLine>,
}

/// What the previous table line left open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Open {
    /// No row yet.
    Nothing,
    /// The row at this index of `transactions` may continue.
    Row(usize),
    /// The last row could not be read; its continuation lines cannot be either.
    Unreadable,
}

/// Where a line sits on its page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Region {
    /// Above the first table header of the document: account header, SUMMARY.
    Front,
    /// Above the table header of a later page.
    PageTop,
    /// Inside the transaction table.
    Table,
    /// Below the table: footer.
    Footer,
}

/// Reads the statement from its pages: [`Reader::page`] of each, then [`Reader::finish`]
/// (the tests' shorthand; the parser hands pages to a [`Reader`] as they are read).
///
/// # Errors
/// Those of [`Reader::finish`].
#[cfg(test)]
pub(super) fn read(pages: &[Page]) -> Result<Table> {
    let mut reader = Reader::new();
    for page in pages {
        reader.page(page);
    }
    reader.finish()
}

impl Reader {
    /// A reader before the first page.
    pub(super) fn new() -> Self {
        Reader {
            table: Table::default(),
            header: HeaderFields::default(),
            summary_rows: Vec::new(),
            summary_total: None,
            in_summary: false,
            columns: None,
            open: Open::Nothing,
            table_cells: Vec::new(),
            summary_cells: Vec::new(),
        }
    }

    /// The statement read from the pages given to [`Reader::page`].
    ///
    /// # Errors
    /// `ErrorKind::UnsupportedWallet` when no page had the M-Pesa transaction table header.
    pub(super) fn finish(self) -> Result<Table> {
        if self.columns.is_none() {
            return Err(Error::new(
                ErrorKind::UnsupportedWallet,
                "not an M-Pesa statement: the PDF has no transaction table (Receipt No., \
                 Completion Time, Details, Transaction Status, Paid In, Withdrawn, Balance)",
            ));
        }
        let mut table = self.table;
        // The SUMMARY sits above the table: its lines come first.
        table.off_grid = grid::off_grid(&self.summary_cells);
        table.off_grid.extend(grid::off_grid(&self.table_cells));
        table.off_rounding = grid::off_writers_rounding(&self.table_cells, &self.summary_cells);
        table.holder = self.header.holder;
        table.period = self.header.period;
        table.requested_at = self.header.requested_at;
        match self.summary_total {
            Some(total) => {
                table.summary = Some(Summary {
                    rows: self.summary_rows,
                    total,
                });
            }
            None if !self.summary_rows.is_empty() => table.unparsed.push(UnparsedLine {
                page: 1,
                line: 0,
                text: "SUMMARY".to_owned(),
                reason: "the SUMMARY table has no TOTAL row".to_owned(),
            }),
            None => {}
        }
        Ok(table)
    }
}

/// Reads pages one after the other, in page order (a row's Details may continue on the next
/// page, and a page without a table header keeps the columns of the one before).
pub(super) struct Reader {
    table: Table,
    header: HeaderFields,
    summary_rows: Vec<SummaryRow>,
    summary_total: Option<SummaryRow>,
    in_summary: bool,
    columns: Option<Columns>,
    open: Open,
    /// `(page, line, Paid In, Withdrawn, Balance)` of every table line, each amount anchored
    /// at its right edge.
    table_cells: Vec<(u32, u32, [Option<Placed>; 3])>,
    /// `(page, line, Paid In, Paid Out, None)` of every SUMMARY row, anchored at their centres.
    summary_cells: Vec<(u32, u32, [Option<Placed>; 3])>,
}

impl Reader {
    /// Reads the next page.
    pub(super) fn page(&mut self, page: &Page) {
        let texts: Vec<&str> = page.lines.iter().map(Line::text).collect();
        let header = page
            .lines
            .iter()
            .zip(&texts)
            .enumerate()
            .find_map(|(i, (line, text))| header_columns(line, text).map(|c| (i, c)));
        let mut region = match (&header, self.columns.is_some()) {
            (_, false) => Region::Front,
            (Some(_), true) => Region::PageTop,
            // A page without a header row (after the first table) is all table.
            (None, true) => Region::Table,
        };
        let mut after_header = false;
        for (index, (line, text)) in page.lines.iter().zip(&texts).enumerate() {
            let number = u32::try_from(index + 1).unwrap_or(u32::MAX);
            if text.is_empty() {
                continue;
            }
            if let Some((_, of)) = page_of(text) {
                let declared = self.table.declared_pages.get_or_insert(of);
                *declared = (*declared).max(of);
                continue;
            }
            if let Some((at, columns)) = header
                && at == index
            {
                self.columns = Some(columns);
                self.in_summary = false;
                region = Region::Table;
                after_header = true;
                continue;
            }
            if is_footer_start(text) {
                region = Region::Footer;
            }
            match region {
                Region::Front => self.front_line(page.number, number, line, text),
                Region::Table => {
                    if after_header && is_header_remainder(line) {
                        continue;
                    }
                    after_header = false;
                    if let Some(columns) = self.columns {
                        let cells = columns.cells(line);
                        let amounts = columns
                            .amount_extents(line)
                            .map(|extent| extent.map(|(start, end)| Placed { start, anchor: end }));
                        self.table_cells.push((page.number, number, amounts));
                        self.table_line(page.number, number, text, &cells, &columns);
                    }
                }
                Region::PageTop | Region::Footer => {}
            }
        }
    }

    /// A line above the first table: account header or SUMMARY.
    fn front_line(&mut self, page: u32, line: u32, glyphs: &Line, text: &str) {
        if is_summary_title(text) {
            self.in_summary = true;
            return;
        }
        if is_detailed_title(text) {
            self.in_summary = false;
            return;
        }
        if self.in_summary {
            if is_summary_header(text) {
                return;
            }
            let row = summary_row(text);
            if row.is_some() {
                self.summary_cells
                    .push((page, line, grid::summary_cells(glyphs)));
            }
            match row {
                Some(row) if row.transaction_type == "TOTAL" => self.summary_total = Some(row),
                Some(row) => self.summary_rows.push(row),
                None => self.table.unparsed.push(UnparsedLine {
                    page,
                    line,
                    text: text.to_owned(),
                    reason: "SUMMARY line is not a transaction type with two amounts".to_owned(),
                }),
            }
            return;
        }
        header_field(text, &mut self.header);
    }

    fn unparsed(&mut self, page: u32, line: u32, text: &str, reason: impl Into<String>) {
        self.table.unparsed.push(UnparsedLine {
            page,
            line,
            text: text.to_owned(),
            reason: reason.into(),
        });
    }

    fn table_line(&mut self, page: u32, line: u32, text: &str, cells: &Cells, columns: &Columns) {
        match row_start(&cells.text) {
            Start::Row {
                receipt_no,
                completed_at,
                details,
            } => match read_row(receipt_no, completed_at, details, cells) {
                Ok(transaction) => {
                    self.table.transactions.push(transaction);
                    self.open = Open::Row(self.table.transactions.len() - 1);
                }
                Err(reason) => {
                    self.unparsed(page, line, text, reason);
                    self.open = Open::Unreadable;
                }
            },
            Start::BadTime => {
                self.unparsed(page, line, text, "the Completion Time cannot be read");
                self.open = Open::Unreadable;
            }
            Start::No => {
                let only_text = cells.status.is_empty()
                    && cells.paid_in.is_empty()
                    && cells.withdrawn.is_empty()
                    && cells.balance.is_empty();
                if !only_text {
                    self.unparsed(
                        page,
                        line,
                        text,
                        "a status or amount without a receipt number and completion time",
                    );
                    self.open = Open::Unreadable;
                    return;
                }
                let left_of_details = matches!(
                    (columns.details, cells.first_x),
                    (Some(left), Some(x)) if x < left - 3.0
                );
                if left_of_details {
                    self.unparsed(
                        page,
                        line,
                        text,
                        "text in the Receipt No. / Completion Time columns that is not a \
                         receipt number and completion time",
                    );
                    return;
                }
                match self.open {
                    Open::Row(index) => {
                        let details = &mut self.table.transactions[index].details;
                        if !details.is_empty() {
                            details.push(' ');
                        }
                        details.push_str(&cells.text);
                    }
                    Open::Unreadable => {
                        self.unparsed(page, line, text, "continues a row that could not be read");
                    }
                    Open::Nothing => {
                        self.unparsed(page, line, text, "Details text without a row before it");
                    }
                }
            }
        }
    }
}

/// How the text left of the status column begins.
enum Start<'a> {
    /// A receipt number and a completion time, then the first Details line (may be empty).
    Row {
        receipt_no: &'a str,
        completed_at: NaiveDateTime,
        details: &'a str,
    },
    /// A receipt number and something date-like that is not a valid time.
    BadTime,
    /// Not a row start.
    No,
}

/// M-Pesa receipt numbers: 10 upper-case letters and digits starting with a letter (8–12
/// accepted).
fn is_receipt(word: &str) -> bool {
    (8..=12).contains(&word.len())
        && word.starts_with(|c: char| c.is_ascii_uppercase())
        && word
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

fn row_start(text: &str) -> Start<'_> {
    let mut parts = text.splitn(4, ' ');
    let (Some(receipt), Some(date), Some(time)) = (parts.next(), parts.next(), parts.next()) else {
        return Start::No;
    };
    let details = parts.next().unwrap_or_default();
    let date_like = date.len() == 10 && date.as_bytes()[4] == b'-' && date.as_bytes()[7] == b'-';
    if !is_receipt(receipt) || !date_like {
        return Start::No;
    }
    let text = format!("{date} {time}");
    let parsed = crate::statement::time::iso_seconds(&text)
        .unwrap_or_else(|_| NaiveDateTime::parse_from_str(&text, "%Y-%m-%d %H:%M:%S").ok());
    match parsed {
        Some(completed_at) => Start::Row {
            receipt_no: receipt,
            completed_at,
            details,
        },
        None => Start::BadTime,
    }
}

/// Reads an amount cell; empty is zero. Returns the reason when it is not an amount.
fn amount(cell: &str, column: &str) -> std::result::Result<Decimal, String> {
    let compact: String = cell.chars().filter(|c| !c.is_whitespace()).collect();
    parse_amount(&compact)
        .filter(|_| compact.is_empty() || compact.chars().any(|c| c.is_ascii_digit()))
        .map(cents)
        .ok_or_else(|| format!("{column} {cell:?} is not an amount"))
}

fn read_row(
    receipt_no: &str,
    completed_at: NaiveDateTime,
    details: &str,
    cells: &Cells,
) -> std::result::Result<Transaction, String> {
    if cells.status.is_empty() {
        return Err("the Transaction Status is missing".to_owned());
    }
    let status = TransactionStatus::from_word(&cells.status);
    let paid_in = amount(&cells.paid_in, "Paid In")?;
    if paid_in.is_sign_negative() && !paid_in.is_zero() {
        return Err(format!("Paid In {:?} is negative", cells.paid_in));
    }
    let withdrawn = amount(&cells.withdrawn, "Withdrawn")?.abs();
    let balance = if cells.balance.is_empty() {
        None
    } else {
        Some(amount(&cells.balance, "Balance")?)
    };
    Ok(Transaction {
        receipt_no: receipt_no.to_owned(),
        completed_at,
        details: details.to_owned(),
        status,
        paid_in,
        withdrawn,
        balance,
        category: Category::default(),
        ..crate::statement::Transaction::empty()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::{Glyph, Line, group_lines};
    use rust_decimal_macros::dec;

    /// A line of words at the given left edges (3 pt per character, size 6); `right` words
    /// are placed so they end at the given x.
    fn line(y: f32, words: &[(f32, &str)], right: &[(f32, &str)]) -> Line {
        let mut glyphs = Vec::new();
        let mut put = |x0: f32, word: &str, size: f32| {
            for (i, c) in word.chars().enumerate() {
                let x = x0 + size / 2.0 * i as f32;
                glyphs.push(Glyph {
                    x,
                    right: x + size / 2.0,
                    y,
                    size,
                    ch: c,
                });
            }
        };
        for (x, w) in words {
            put(*x, w, 6.0);
        }
        for (x, w) in right {
            put(x - 3.0 * w.chars().count() as f32, w, 6.0);
        }
        group_lines(glyphs).remove(0)
    }

    fn header(y: f32) -> Line {
        let mut glyphs = Vec::new();
        for (x0, word) in [
            (50.7, "Receipt No."),
            (110.8, "Completion Time"),
            (200.0, "Details"),
            (282.2, "Transaction Status"),
            (372.9, "Paid In"),
            (435.5, "Withdrawn"),
            (510.2, "Balance"),
        ] {
            for (i, c) in word.chars().enumerate() {
                let x = x0 + 3.5 * i as f32;
                glyphs.push(Glyph {
                    x,
                    right: x + 3.5,
                    y,
                    size: 7.0,
                    ch: c,
                });
            }
        }
        group_lines(glyphs).remove(0)
    }

    #[test]
    fn reads_rows_continuations_and_unparsed_lines() {
        let lines = vec![
            line(10.0, &[(38.0, "Customer Name:"), (194.9, "A Person")], &[]),
            line(20.0, &[(38.0, "SUMMARY")], &[]),
            line(
                30.0,
                &[(38.0, "TOTAL:")],
                &[(419.0, "20.00"), (520.0, "92.00")],
            ),
            header(40.0),
            line(
                50.0,
                &[
                    (38.0, "SEK1T9AY5J"),
                    (107.7, "2024-05-20"),
                    (144.5, "11:40:09"),
                    (200.0, "Customer Transfer"),
                    (300.0, "Completed"),
                ],
                &[(487.3, "-92.00"), (557.0, "1,709.81")],
            ),
            line(56.0, &[(200.0, "to - 2547******091")], &[]),
            line(
                66.0,
                &[
                    (38.0, "SEK3SWDQN1"),
                    (107.7, "2024-05-20"),
                    (144.5, "09:46:41"),
                    (300.0, "Completed"),
                ],
                &[(417.5, "20.00"), (557.0, "1,801.81")],
            ),
            line(76.0, &[(38.0, "garbage")], &[(557.0, "1.00")]),
            line(86.0, &[(200.0, "orphan words")], &[]),
            line(96.0, &[(38.0, "Disclaimer: personal use")], &[]),
        ];
        let table = read(&[Page {
            number: 1,
            lines,
            joined_glyph_strings: 0,
            placed_otherwise: 0,
            first_drawn: Vec::new(),
        }])
        .expect("table");
        assert_eq!(table.holder.name.as_deref(), Some("A Person"));
        let summary = table.summary.expect("summary");
        assert_eq!(summary.total.paid_out, dec!(92.00));
        assert_eq!(table.transactions.len(), 2);
        let first = &table.transactions[0];
        assert_eq!(first.details, "Customer Transfer to - 2547******091");
        assert_eq!(first.withdrawn, dec!(92.00));
        assert_eq!(first.paid_in, Decimal::ZERO);
        assert_eq!(first.balance, Some(dec!(1709.81)));
        assert_eq!(first.status, TransactionStatus::Completed);
        let second = &table.transactions[1];
        assert_eq!(second.details, "");
        assert_eq!(second.paid_in, dec!(20.00));
        assert_eq!(table.unparsed.len(), 2, "{:?}", table.unparsed);
        assert_eq!(
            table.unparsed[1].reason,
            "continues a row that could not be read"
        );
    }

    #[test]
    fn no_table_is_unsupported_wallet() {
        let lines = vec![line(10.0, &[(38.0, "Hello world")], &[])];
        let err = read(&[Page {
            number: 1,
            lines,
            joined_glyph_strings: 0,
            placed_otherwise: 0,
            first_drawn: Vec::new(),
        }])
        .expect_err("no table");
        assert_eq!(err.code(), "unsupported_wallet");
    }
}
