//! Which wallet wrote a file, from its content: the dispatch between the wallets' parsers.
//!
//! A PDF is opened once. One whose writer (in its plain bytes, or its decoded `/Producer` or
//! `/Creator`) is another wallet's has its text read once for those layouts; any other is read
//! as Safaricom's full statement (nearly every file the engine reads), and one without
//! Safaricom's table is read once more for its lines. The lines name the other layouts:
//! Airtel Money Uganda's title `AIRTEL MONEY STATEMENT` and its table header, or Vodacom
//! M-Pesa Lesotho's title `M-Pesa Statement` and its header `Transaction Date | From | To |
//! Transaction Amount | Balance | Description`. A CSV whose header is MTN's 16 columns is MTN
//! MoMo Ghana's; any other CSV is read by its column names ([`super::csv`]). A file of none of
//! these layouts is `unsupported_wallet`, with [`SUPPORTED`] in the message.

use crate::error::{Error, ErrorKind, Result};
use crate::parse::mpesa_pdf::Page;
use crate::parse::{ParseOptions, airtel_pdf, csv, mpesa_pdf, mtn_csv, vodacom_pdf};
use crate::statement::{DocumentInfo, Statement};

/// The wallets and formats the engine reads, for messages.
pub const SUPPORTED: &str = "supported: Safaricom M-Pesa Kenya (full statement PDF, CSV \
    export), Airtel Money Uganda (statement PDF), Vodacom M-Pesa Lesotho (statement PDF), MTN \
    MoMo Ghana (statement CSV), and the canonical JSON or CSV of any wallet";

/// Reads a PDF statement of any supported wallet.
///
/// # Errors
/// Those of [`mpesa_pdf::parse`]; `UnsupportedWallet` (naming [`SUPPORTED`]) for a readable
/// PDF of no known layout, or (saying why) for one whose text the engine's reader does not
/// read (a font of another kind, a form or an inline image).
pub fn parse_pdf(bytes: &[u8], options: &ParseOptions) -> Result<Statement> {
    // The file is opened once; one that names another wallet's writer (in its plain bytes, or
    // in its decoded `/Producer` or `/Creator`) has its text read once for those layouts, any
    // other is read as Safaricom's. The content decides either way.
    let plain = OTHER_WRITERS
        .iter()
        .any(|w| memchr::memmem::find(bytes, w).is_some());
    let names_other = |info: &DocumentInfo| {
        plain
            || [&info.producer, &info.creator]
                .into_iter()
                .flatten()
                .any(|text| {
                    OTHER_WRITERS
                        .iter()
                        .any(|w| memchr::memmem::find(text.as_bytes(), w).is_some())
                })
    };
    let other_writer = match mpesa_pdf::read(bytes, options, names_other) {
        Ok(mpesa_pdf::Read::Mpesa(statement)) => return Ok(*statement),
        Ok(mpesa_pdf::Read::Other(document, pages)) => {
            if let Some(statement) = other_layout(*document, &pages)? {
                return Ok(statement);
            }
            true
        }
        Err(e) if e.kind() == &ErrorKind::UnsupportedWallet => false,
        Err(e) => return Err(e),
    };
    if other_writer {
        // Another writer's file of neither layout: Safaricom's reader has the last word.
        match mpesa_pdf::parse(bytes, options) {
            Err(e) if e.kind() == &ErrorKind::UnsupportedWallet => {}
            other => return other,
        }
    } else if let Some(statement) = parse_other_pdf(bytes, options)? {
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
    other_layout(document, &pages)
}

/// The statement of the pages of an Airtel or Vodacom layout, `None` for neither.
fn other_layout(document: DocumentInfo, pages: &[Page]) -> Result<Option<Statement>> {
    if airtel_pdf::is_airtel(pages) {
        return Ok(Some(airtel_pdf::read(document, pages)));
    }
    if vodacom_pdf::is_vodacom(pages) {
        return vodacom_pdf::read(document, pages).map(Some);
    }
    Ok(None)
}

/// Reads a CSV statement of any supported wallet.
///
/// # Errors
/// Those of [`mtn_csv::parse`] and [`csv::parse`]; an unknown header is `UnsupportedWallet`,
/// naming the header's columns and [`SUPPORTED`].
pub fn parse_csv(bytes: &[u8], options: &ParseOptions) -> Result<Statement> {
    // MTN's reader looks for its header once; a file without it is another wallet's.
    match mtn_csv::parse(bytes) {
        Err(e) if e.kind() == &ErrorKind::UnsupportedWallet => {}
        mtn => return mtn,
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
