//! Which wallet wrote a file, from its content: the dispatch between the wallets' parsers.
//!
//! A PDF is tried as Safaricom's full statement first (nearly every file the engine reads); one
//! without Safaricom's table is read once more for its lines, which name the other layouts:
//! Airtel Money Uganda's title `AIRTEL MONEY STATEMENT` and its table header, or Vodacom
//! M-Pesa Lesotho's title `M-Pesa Statement` and its header `Transaction Date | From | To |
//! Transaction Amount | Balance | Description`. A CSV whose header is MTN's 16 columns is MTN
//! MoMo Ghana's; any other CSV is read by its column names ([`super::csv`]). A file of none of
//! these layouts is `unsupported_wallet`, with [`SUPPORTED`] in the message.

use crate::error::{Error, ErrorKind, Result};
use crate::parse::{ParseOptions, airtel_pdf, csv, mpesa_pdf, mtn_csv, vodacom_pdf};
use crate::statement::Statement;

/// The wallets and formats the engine reads, for messages.
pub const SUPPORTED: &str = "supported: Safaricom M-Pesa Kenya (full statement PDF, CSV \
    export), Airtel Money Uganda (statement PDF), Vodacom M-Pesa Lesotho (statement PDF), MTN \
    MoMo Ghana (statement CSV), and the canonical JSON or CSV of any wallet";

/// Reads a PDF statement of any supported wallet.
///
/// # Errors
/// Those of [`mpesa_pdf::parse`]; `UnsupportedWallet` (naming [`SUPPORTED`]) for a readable
/// PDF of no known layout.
pub fn parse_pdf(bytes: &[u8], options: &ParseOptions) -> Result<Statement> {
    // A file that names another wallet's writer is read for those layouts first (one reading
    // instead of two); the content decides either way.
    let other_writer = OTHER_WRITERS
        .iter()
        .any(|w| memchr::memmem::find(bytes, w).is_some());
    if other_writer && let Some(statement) = parse_other_pdf(bytes, options)? {
        return Ok(statement);
    }
    match mpesa_pdf::parse(bytes, options) {
        Err(e) if e.kind() == &ErrorKind::UnsupportedWallet => {}
        other => return other,
    }
    if !other_writer && let Some(statement) = parse_other_pdf(bytes, options)? {
        return Ok(statement);
    }
    Err(unsupported("a PDF of an unknown layout"))
}

/// The `/Producer` and `/Creator` words of the other wallets' PDF writers, as their files
/// carry them (uncompressed): `wkhtmltopdf` (Airtel Uganda), `iText 2.1.7` (Vodacom Lesotho).
const OTHER_WRITERS: [&[u8]; 2] = [b"wkhtmltopdf", b"iText 2.1.7"];

/// The statement of an Airtel or Vodacom layout, `None` for a PDF of neither.
fn parse_other_pdf(bytes: &[u8], options: &ParseOptions) -> Result<Option<Statement>> {
    let (document, pages) = mpesa_pdf::read_pages(bytes, options)?;
    if airtel_pdf::is_airtel(&pages) {
        return Ok(Some(airtel_pdf::read(document, &pages)));
    }
    if vodacom_pdf::is_vodacom(&pages) {
        return vodacom_pdf::read(document, &pages).map(Some);
    }
    Ok(None)
}

/// Reads a CSV statement of any supported wallet.
///
/// # Errors
/// Those of [`mtn_csv::parse`] and [`csv::parse`]; an unknown header is `UnsupportedWallet`,
/// naming the header's columns and [`SUPPORTED`].
pub fn parse_csv(bytes: &[u8], options: &ParseOptions) -> Result<Statement> {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first_line = body.split(|b| *b == b'\n').next().unwrap_or_default();
    if mtn_csv::is_mtn_header(&String::from_utf8_lossy(first_line)) {
        return mtn_csv::parse(bytes);
    }
    csv::parse(bytes, options).map_err(|e| {
        if e.kind() == &ErrorKind::UnsupportedWallet {
            Error::new(
                ErrorKind::UnsupportedWallet,
                format!("{}; {SUPPORTED}", e.message()),
            )
        } else {
            e
        }
    })
}

/// `UnsupportedWallet` for `what`, naming the supported wallets and formats.
pub fn unsupported(what: &str) -> Error {
    Error::new(
        ErrorKind::UnsupportedWallet,
        format!("not a statement of a supported wallet ({what}); {SUPPORTED}"),
    )
}
