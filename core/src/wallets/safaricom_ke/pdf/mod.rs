//! Safaricom M-Pesa full statement PDF.
//!
//! Source layouts (both verified on real statements):
//! - **2021, iText 5** (`Producer: iText® 5.1.0`): header labels without colons (`Customer Name`,
//!   `Date of Statement`), base-14 Helvetica, A4, the `Transaction Status` column header on two
//!   lines.
//! - **2023+, `OpenPDF` 1.3** (`Producer: OpenPDF 1.3.26`): header labels with colons
//!   (`Customer Name:`, `Request Date:`), embedded `DejaVu` Sans, 595 × 848 pt pages, a banner image
//!   on every page. Safaricom e-mails it RC4-encrypted (R=3), the password normally being the
//!   customer's ID number. Re-saved copies (iLovePDF "unlock") keep this layout.
//!
//! Page 1 carries the account header (name, mobile number, e-mail, statement period, request
//! date) and the SUMMARY table; every page repeats the transaction table header
//! (`Receipt No. | Completion Time | Details | Transaction Status | Paid In | Withdrawn |
//! Balance`) and ends with a footer (`Disclaimer: …`, `Twitter: … | For self-help dial …`,
//! `Page x of N`).
//!
//! How it is read (on the shared reader, `crate::pdf`, which places every character):
//! 1. [`layout`] finds the table header on each page and derives the column boundaries from it:
//!    the statement centres each header label in its cell and right-aligns the amounts, so cells
//!    are split by x position and an empty Paid In or Withdrawn cell stays empty (plain text
//!    extraction loses that).
//! 2. [`header`] reads the account header, the SUMMARY and the footer page numbers; [`rows`]
//!    reads the transaction rows, joining wrapped Details lines with single spaces. Every line in
//!    the table that cannot be read becomes an [`UnparsedLine`](crate::statement::UnparsedLine).
//!    Both take each page as soon as the shared reader has placed its characters, so a long
//!    statement's characters are never all in memory at once.

mod grid;
mod header;
mod layout;
mod rows;
#[cfg(test)]
mod tests;

use crate::error::{ErrorKind, Result};
use crate::statement::Statement;

/// Reads an opened PDF as Safaricom's full statement: `Ok(None)` when no page has its
/// transaction table.
///
/// The result carries the account holder, the statement period and request date, the SUMMARY
/// table, every transaction row (Withdrawn as a positive amount), the document metadata
/// ([`DocumentInfo`](crate::statement::DocumentInfo): page count, encryption, producer, dates,
/// the page count the footer declares, the off-grid amounts) and every table line that could
/// not be read. Categories are left at their default; `crate::parse` prepares the statement.
///
/// # Errors
/// Those of [`crate::pdf::Document::each_page`].
pub(super) fn read(document: &crate::pdf::Document) -> Result<Option<Statement>> {
    // Each page is read into rows as soon as its characters are placed, so that a long
    // statement's characters are never all held at once.
    let mut reader = rows::Reader::new();
    document.each_page(|page| reader.page(&page))?;
    let table = match reader.finish() {
        Ok(table) => table,
        Err(e) if e.kind() == &ErrorKind::UnsupportedWallet => return Ok(None),
        Err(e) => return Err(e),
    };
    let mut info = document.info().clone();
    info.declared_pages = table.declared_pages;
    if let Some(structure) = info.structure.as_mut() {
        structure.off_grid = table.off_grid;
        structure.off_rounding = table.off_rounding;
    }
    Ok(Some(Statement {
        provider: super::WALLET.provider(),
        holder: table.holder,
        currency: "KES".to_owned(),
        currency_exponent: None,
        period: table.period,
        requested_at: table.requested_at,
        summary: table.summary,
        transactions: table.transactions,
        document: Some(info),
        unparsed: table.unparsed,
        source: None,
        country: None,
        time_zone: None,
        balances: None,
    }))
}
