//! Spreadsheets (`.xlsx`, `.xls`, `.ods`): a wallet that sends its statement as a spreadsheet
//! (MTN MoMo Ghana) is read from the CSV its first sheet saves to, so the spreadsheet and its
//! CSV give the same rows ([`to_csv`]). Read with `calamine` (MIT, pure Rust).
//!
//! Cells become text as a spreadsheet program saves them to CSV: text as it is, whole numbers
//! without a decimal point, other numbers in the shortest decimal form that reads back as the
//! stored number (`12.5`; amounts are stored as binary floating point by the file itself, so
//! this is the exact figure the sheet shows), dates and times as `YYYY-MM-DD HH:MM:SS` (the
//! ISO form every wallet's table reader accepts), booleans `TRUE`/`FALSE`, errors empty.

use std::fmt::Write as _;
use std::io::Cursor;

use calamine::{Data, Reader};

use crate::error::{Error, ErrorKind, Result};
use crate::limits::Limits;

/// Whether `bytes` are a spreadsheet: a zip that holds an Excel workbook (`xl/workbook.xml`,
/// or `xl/workbook.bin`) or an `OpenDocument` spreadsheet (its `mimetype`), or a compound file
/// (`.xls`) with a `Workbook` or `Book` stream. Part names are stored in the clear in both
/// formats, so they are found without decompressing anything.
pub(super) fn is_spreadsheet(bytes: &[u8]) -> bool {
    let has = |needle: &[u8]| memchr::memmem::find(bytes, needle).is_some();
    if bytes.starts_with(b"PK\x03\x04") {
        return has(b"xl/workbook.") || has(b"application/vnd.oasis.opendocument.spreadsheet");
    }
    let utf16 = |name: &str| -> Vec<u8> { name.bytes().flat_map(|b| [b, 0]).collect() };
    bytes.starts_with(b"\xD0\xCF\x11\xE0\xA1\xB1\x1A\xE1")
        && (has(&utf16("Workbook")) || has(&utf16("Book")))
}

/// The CSV of the first sheet of the spreadsheet `bytes`.
///
/// # Errors
/// - `ErrorKind::TooLarge` when the archive's parts declare more than
///   `limits.max_decompressed` bytes together, or the sheet has more than `limits.max_rows`
///   rows.
/// - `ErrorKind::Malformed` when it is not a readable spreadsheet or has no sheet.
pub(super) fn to_csv(bytes: &[u8], limits: &Limits) -> Result<Vec<u8>> {
    check_declared_size(bytes, limits)?;
    let mut workbook = calamine::open_workbook_auto_from_rs(Cursor::new(bytes))
        .map_err(|e| Error::malformed(0, 0, format!("not a readable spreadsheet: {e}")))?;
    let Some(name) = workbook.sheet_names().first().cloned() else {
        return Err(Error::malformed(0, 0, "the spreadsheet has no sheet"));
    };
    let range = workbook
        .worksheet_range(&name)
        .map_err(|e| Error::malformed(0, 0, format!("the sheet cannot be read: {e}")))?;
    if range.height() as u64 > u64::from(limits.max_rows) {
        let limit = u64::from(limits.max_rows);
        return Err(Error::new(
            ErrorKind::TooLarge { limit },
            format!(
                "the spreadsheet has {} rows; the limit is {limit} rows",
                range.height()
            ),
        ));
    }
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut cell = String::new();
    for row in range.rows() {
        let cells: Vec<String> = row
            .iter()
            .map(|data| {
                cell.clear();
                text_of(data, &mut cell);
                cell.clone()
            })
            .collect();
        writer
            .write_record(&cells)
            .map_err(|e| Error::malformed(0, 0, format!("the sheet cannot be written: {e}")))?;
    }
    writer
        .into_inner()
        .map_err(|e| Error::malformed(0, 0, format!("the sheet cannot be written: {e}")))
}

/// The text a spreadsheet program saves `data` as (see the module notes).
fn text_of(data: &Data, out: &mut String) {
    match data {
        Data::Empty | Data::Error(_) => {}
        Data::String(s) | Data::DateTimeIso(s) | Data::DurationIso(s) => out.push_str(s),
        Data::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Data::Float(f) => {
            let _ = write!(out, "{f}");
        }
        Data::Bool(b) => out.push_str(if *b { "TRUE" } else { "FALSE" }),
        Data::DateTime(d) => {
            let (y, mo, day, h, mi, s, _) = d.to_ymd_hms_milli();
            let _ = write!(out, "{y:04}-{mo:02}-{day:02} {h:02}:{mi:02}:{s:02}");
        }
    }
}

/// Refuses an archive whose parts declare more than `limits.max_decompressed` bytes together,
/// before `calamine` expands them (a zip bomb).
fn check_declared_size(bytes: &[u8], limits: &Limits) -> Result<()> {
    let Ok(mut archive) = zip::ZipArchive::new(Cursor::new(bytes)) else {
        // Not a zip (an old `.xls`): calamine reads it, or says why not.
        return Ok(());
    };
    let mut total: u64 = 0;
    for index in 0..archive.len() {
        let size = archive
            .by_index_raw(index)
            .map_err(|e| Error::malformed(0, 0, format!("not a readable spreadsheet: {e}")))?
            .size();
        total = total.saturating_add(size);
    }
    if total > limits.max_decompressed {
        let limit = limits.max_decompressed;
        return Err(Error::new(
            ErrorKind::TooLarge { limit },
            format!("the spreadsheet expands to {total} bytes; the limit is {limit} bytes"),
        ));
    }
    Ok(())
}
