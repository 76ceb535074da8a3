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
//! How it is read:
//! 1. [`load`] opens the file with `lopdf` 0.47 (decryption, decompression bounded by
//!    [`Limits::max_decompressed`](crate::parse::Limits::max_decompressed), page limit) and takes
//!    the document metadata and file structure.
//! 2. [`reader`] reads each page's content stream once, straight from the opened document,
//!    for the operators that place text, with each font read once per document ([`fonts`]):
//!    every character with its position (x from the left, y from the top of the page, in
//!    points). It covers the fonts and operators the supported wallets' statements use; a
//!    document drawn otherwise (a Type3 font, a Form `XObject`, an inline image…) is refused
//!    as `UnsupportedWallet` (no genuine statement in `../shared/samples` needs more: issue 37
//!    measured it and removed the general `pdf-extract` path that read such documents).
//!    [`glyphs`] then groups characters into lines by baseline.
//! 3. [`layout`] finds the table header on each page and derives the column boundaries from it:
//!    the statement centres each header label in its cell and right-aligns the amounts, so cells
//!    are split by x position and an empty Paid In or Withdrawn cell stays empty (plain text
//!    extraction loses that).
//! 4. [`header`] reads the account header, the SUMMARY and the footer page numbers; [`rows`]
//!    reads the transaction rows, joining wrapped Details lines with single spaces. Every line in
//!    the table that cannot be read becomes an [`UnparsedLine`](crate::statement::UnparsedLine).
//!    Steps 3 and 4 take each page as soon as [`reader`] has placed its characters, so a long
//!    statement's characters are never all in memory at once.

mod fonts;
mod glyphs;
mod header;
mod layout;
mod lexer;
mod load;
mod reader;
mod rows;
mod structure;
#[cfg(test)]
mod tests;

use std::panic::{AssertUnwindSafe, catch_unwind};

pub(in crate::parse) use glyphs::{Line, Page};

use crate::error::{Error, ErrorKind, Result};
use crate::parse::ParseOptions;
use crate::statement::{Provider, Statement};

/// Parses an M-Pesa full statement PDF (encrypted or not) into a [`Statement`].
///
/// The result carries the account holder, the statement period and request date, the SUMMARY
/// table, every transaction row (Withdrawn as a positive amount), the document metadata
/// ([`DocumentInfo`](crate::statement::DocumentInfo): page count, encryption, producer, dates,
/// the page count the footer declares) and every table line that could not be read. Categories
/// are left at their default; [`crate::parse::parse`] categorises afterwards.
///
/// # Errors
/// - `ErrorKind::PasswordRequired`: the PDF is encrypted and `options.password` is `None` (or
///   empty).
/// - `ErrorKind::WrongPassword`: the password does not open the PDF.
/// - `ErrorKind::TooLarge`: more pages than `options.limits.max_pages`, a stream that
///   decompresses beyond `options.limits.max_decompressed`, or an absurd amount of text.
/// - `ErrorKind::Malformed`: the bytes are not a readable PDF (corrupt, truncated), or the PDF
///   machinery failed on it.
/// - `ErrorKind::UnsupportedWallet`: a readable PDF without an M-Pesa transaction table, or a
///   PDF that draws its text in a way no supported wallet's statement does (a font of another
///   kind, a form, an inline image), which the reader does not read.
pub fn parse(bytes: &[u8], options: &ParseOptions) -> Result<Statement> {
    // Last line of defence: `lopdf` or the engine's own reader could panic on a malformed
    // object instead of returning an error. A panic here must not take the caller down, so it
    // is caught and reported as a malformed file. (Requires the default `panic = "unwind"`.)
    match catch_unwind(AssertUnwindSafe(|| parse_inner(bytes, options))) {
        Ok(result) => result,
        Err(_) => Err(reader_failed()),
    }
}

/// Every page's lines of text, each character with its position, and the document's facts
/// (metadata, file structure), read as [`parse`] reads them (the engine's own reader): the text
/// layer the other wallets' PDF parsers
/// ([`crate::parse::airtel_pdf`], [`crate::parse::vodacom_pdf`]) read their layouts from.
///
/// # Errors
/// Those of [`parse`], except `UnsupportedWallet` (any readable PDF gives its pages).
pub(in crate::parse) fn read_pages(
    bytes: &[u8],
    options: &ParseOptions,
) -> Result<(crate::statement::DocumentInfo, Vec<Page>)> {
    match catch_unwind(AssertUnwindSafe(|| read_pages_inner(bytes, options))) {
        Ok(result) => result,
        Err(_) => Err(reader_failed()),
    }
}

fn read_pages_inner(
    bytes: &[u8],
    options: &ParseOptions,
) -> Result<(crate::statement::DocumentInfo, Vec<Page>)> {
    pages_of(load::open_document(bytes, options)?)
}

/// A PDF opened once and read as what its writer says it is: Safaricom's statement, or the
/// pages of a file whose document facts (`other_writer`: its decoded `/Producer`, `/Creator`)
/// name another wallet's writer, for that wallet's parser.
pub(in crate::parse) enum Read {
    /// Safaricom's full statement, as [`parse`] reads it (boxed: the variants' sizes differ).
    Mpesa(Box<Statement>),
    /// Another writer's file: its facts and pages, as [`read_pages`] gives them.
    Other(Box<crate::statement::DocumentInfo>, Vec<Page>),
}

/// Opens `bytes` once; when `other_writer` says the document facts name another wallet's
/// writer, its pages ([`Read::Other`]), else the Safaricom statement ([`Read::Mpesa`]).
///
/// # Errors
/// Those of [`parse`] (`UnsupportedWallet` for a readable PDF without Safaricom's table).
pub(in crate::parse) fn read(
    bytes: &[u8],
    options: &ParseOptions,
    other_writer: impl Fn(&crate::statement::DocumentInfo) -> bool,
) -> Result<Read> {
    let read = || {
        let opened = load::open_document(bytes, options)?;
        if other_writer(&opened.info) {
            let (document, pages) = pages_of(opened)?;
            return Ok(Read::Other(Box::new(document), pages));
        }
        parse_opened(opened).map(|s| Read::Mpesa(Box::new(s)))
    };
    match catch_unwind(AssertUnwindSafe(read)) {
        Ok(result) => result,
        Err(_) => Err(reader_failed()),
    }
}

fn pages_of(mut opened: load::Opened) -> Result<(crate::statement::DocumentInfo, Vec<Page>)> {
    let document = std::mem::take(&mut opened.info);
    let mut pages = Vec::new();
    let read_all = reader::extract(
        &opened.doc,
        &opened.page_ids,
        opened.per_stream,
        opened.total_budget,
        |page| pages.push(page),
    )?;
    if !read_all {
        return Err(not_read());
    }
    Ok((document, pages))
}

/// `UnsupportedWallet`: the PDF draws its text in a way no supported wallet's statement does,
/// so the own reader stepped aside (see the module documentation).
fn not_read() -> Error {
    Error::new(
        ErrorKind::UnsupportedWallet,
        "the PDF draws its text in a way no supported wallet's statement does (a font of \
         another kind, a form or an inline image), so it is not read",
    )
}

/// `Malformed`: a PDF reader (`lopdf`, the engine's own) panicked on the file's content.
fn reader_failed() -> Error {
    Error::malformed(
        0,
        0,
        "the PDF could not be read (its content made the PDF reader fail)",
    )
}

fn parse_inner(bytes: &[u8], options: &ParseOptions) -> Result<Statement> {
    parse_opened(load::open_document(bytes, options)?)
}

fn parse_opened(mut opened: load::Opened) -> Result<Statement> {
    let mut document = std::mem::take(&mut opened.info);
    // Each page is read into rows as soon as its characters are placed, so that a long
    // statement's characters are never all held at once.
    let mut reader = rows::Reader::new();
    let read_all = reader::extract(
        &opened.doc,
        &opened.page_ids,
        opened.per_stream,
        opened.total_budget,
        |page| reader.page(&page),
    )?;
    if !read_all {
        return Err(not_read());
    }
    let table = reader.finish()?;
    document.declared_pages = table.declared_pages;
    if let Some(structure) = document.structure.as_mut() {
        structure.off_grid = table.off_grid;
    }
    Ok(Statement {
        provider: Provider::Mpesa,
        holder: table.holder,
        currency: "KES".to_owned(),
        currency_exponent: None,
        period: table.period,
        requested_at: table.requested_at,
        summary: table.summary,
        transactions: table.transactions,
        document: Some(document),
        unparsed: table.unparsed,
        source: None,
        country: None,
        time_zone: None,
        balances: None,
    })
}
