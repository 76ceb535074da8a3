//! Reading statements: format detection from content, one module per source format.
//!
//! Every parser returns a [`Statement`] whose transactions are categorised; lines that look like
//! transactions but cannot be read are kept in [`Statement::unparsed`], never dropped.

pub mod airtel_pdf;
pub mod csv;
pub mod json;
pub mod mpesa_pdf;
pub mod mtn_csv;
mod parsed;
mod pdf_text;
mod time;
pub mod vodacom_pdf;
pub mod wallet;

use crate::error::{Error, ErrorKind, Result};
use crate::statement::Statement;

pub use crate::statement::Format;
pub use parsed::{ParsedStatement, Scorable};

/// Safety limits for untrusted input. The defaults suit a partner upload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest input, bytes. Default 32 MiB (a 117-page M-Pesa PDF is about 0.5 MiB).
    pub max_bytes: u64,
    /// Most PDF pages. Default 2,000.
    pub max_pages: u32,
    /// Most transaction rows. Default 500,000.
    pub max_rows: u32,
    /// Most bytes one PDF content stream may decompress to. Default 64 MiB.
    pub max_decompressed: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_bytes: 32 * 1024 * 1024,
            max_pages: 2_000,
            max_rows: 500_000,
            max_decompressed: 64 * 1024 * 1024,
        }
    }
}

/// Options of [`parse`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// The PDF password (Safaricom: normally the customer's ID number). Ignored for CSV/JSON.
    pub password: Option<String>,
    /// Force a format instead of detecting it from the content.
    pub format: Option<Format>,
    /// Safety limits.
    pub limits: Limits,
}

impl ParseOptions {
    /// Options with a password.
    pub fn with_password(password: impl Into<String>) -> Self {
        Self {
            password: Some(password.into()),
            ..Self::default()
        }
    }
}

/// Detects the format from the first bytes: `%PDF-` → PDF, `{` → JSON, otherwise text with a
/// comma-, semicolon- or tab-separated header → CSV.
///
/// # Errors
/// `ErrorKind::UnsupportedFormat` for binary data that is none of these.
pub fn detect(bytes: &[u8]) -> Result<Format> {
    let head = &bytes[..bytes.len().min(1024)];
    let trimmed = trim_bom_and_space(head);
    if trimmed.starts_with(b"%PDF-") || find(head, b"%PDF-").is_some() {
        return Ok(Format::MpesaPdf);
    }
    if trimmed.first() == Some(&b'{') {
        return Ok(Format::Json);
    }
    // The first KiB may end inside a character: only what precedes it is read.
    let text = match std::str::from_utf8(trimmed) {
        Ok(text) => Some(text),
        Err(e) if e.error_len().is_none() => std::str::from_utf8(&trimmed[..e.valid_up_to()]).ok(),
        Err(_) => None,
    };
    let text_like = !head.is_empty()
        && text.is_some_and(|s| {
            s.chars()
                .all(|c| !c.is_control() || matches!(c, '\n' | '\r' | '\t'))
        });
    let first_line = trimmed.split(|b| *b == b'\n').next().unwrap_or_default();
    let delimited = first_line.iter().any(|b| matches!(b, b',' | b';' | b'\t'));
    // MTN's spreadsheet saved as CSV may keep a title above its header.
    if text_like && (delimited || mtn_csv::find_header(bytes).is_some()) {
        return Ok(Format::Csv);
    }
    Err(Error::new(
        ErrorKind::UnsupportedFormat,
        format!(
            "not a statement: expected a PDF, a CSV or the canonical JSON; {}",
            wallet::SUPPORTED
        ),
    ))
}

/// Parses a statement from bytes.
///
/// # Errors
/// - `ErrorKind::TooLarge` when `bytes` exceeds `options.limits.max_bytes`.
/// - `ErrorKind::UnsupportedFormat` when the content is not PDF, CSV or JSON.
/// - `ErrorKind::PasswordRequired` / `WrongPassword` for encrypted PDFs.
/// - `ErrorKind::UnsupportedWallet` for a readable file of an unknown layout.
/// - `ErrorKind::Malformed` for a broken file.
///
/// A statement with no transactions parses (it is an error only when scored).
///
/// The statement comes back prepared for scoring and read-only ([`ParsedStatement`]: read it
/// as a [`Statement`]; [`ParsedStatement::into_statement`] to edit it).
pub fn parse(bytes: &[u8], options: &ParseOptions) -> Result<ParsedStatement> {
    let limit = options.limits.max_bytes;
    if bytes.len() as u64 > limit {
        return Err(Error::new(
            ErrorKind::TooLarge { limit },
            format!(
                "the statement is {} bytes; the limit is {limit} bytes",
                bytes.len()
            ),
        ));
    }
    let format = match options.format {
        Some(f) => f,
        None => detect(bytes)?,
    };
    let mut statement = match format {
        Format::MpesaPdf => wallet::parse_pdf(bytes, options)?,
        Format::Csv => wallet::parse_csv(bytes, options)?,
        Format::Json => json::parse(bytes)?,
    };
    if statement.transactions.len() as u64 > u64::from(options.limits.max_rows) {
        let limit = u64::from(options.limits.max_rows);
        return Err(Error::new(
            ErrorKind::TooLarge { limit },
            format!(
                "the statement has {} rows; the limit is {limit} rows",
                statement.transactions.len()
            ),
        ));
    }
    prepare(&mut statement);
    statement.source = Some(format);
    Ok(ParsedStatement::from_prepared(statement))
}

/// What every parser's output goes through: amounts get at least two decimal places and every
/// row is categorised from its Details (an input category is replaced). [`crate::score`]
/// applies it to a copy of every [`Statement`] it is handed (a [`ParsedStatement`] has been
/// through it already), so `score(s)` of a hand-built statement and `score(parse(bytes))`
/// agree. Idempotent: a row's category is a function of
/// its Details and direction, and amounts keep a scale of two or more.
///
/// A long statement's two halves are categorised on two threads when the pool may be used
/// ([`crate::parallel`]), each with its own memo of the Details it has seen.
pub fn prepare(statement: &mut Statement) {
    normalise_summary(statement);
    if let Some(exponent) = crate::statement::currency_exponent(&statement.currency) {
        statement.currency_exponent = (exponent != 2).then_some(exponent);
    }
    let provider = statement.provider;
    let rows = &mut statement.transactions;
    if crate::parallel::worth_halving(rows.len()) {
        let half = rows.len() / 2;
        let (first, second) = rows.split_at_mut(half);
        crate::parallel::join(
            || prepare_rows(first, provider),
            || prepare_rows(second, provider),
        );
    } else {
        // One memo sees more repeats: on one thread, one pass is the cheaper.
        prepare_rows(rows, provider);
    }
}

/// [`prepare`] of rows: amounts to at least two decimal places, then categories by the
/// `provider`'s rule table ([`crate::categorise::wallets`]).
fn prepare_rows(rows: &mut [crate::statement::Transaction], provider: crate::statement::Provider) {
    use crate::money::normalise;
    for t in rows.iter_mut() {
        t.paid_in = normalise(t.paid_in);
        t.withdrawn = normalise(t.withdrawn);
        t.balance = t.balance.map(normalise);
    }
    crate::categorise::categorise_all_for(provider, rows);
}

/// Gives every amount of the SUMMARY at least two decimal places (see
/// [`crate::money::normalise`]).
fn normalise_summary(statement: &mut Statement) {
    use crate::money::normalise;
    if let Some(summary) = statement.summary.as_mut() {
        for row in summary
            .rows
            .iter_mut()
            .chain(std::iter::once(&mut summary.total))
        {
            row.paid_in = normalise(row.paid_in);
            row.paid_out = normalise(row.paid_out);
        }
    }
}

/// Reads a statement file, refusing one larger than `limits.max_bytes` without reading it all.
///
/// # Errors
/// - `ErrorKind::Io` when the file cannot be opened or read (the message names the path).
/// - `ErrorKind::TooLarge` when it is larger than `limits.max_bytes`.
pub fn read_file(path: &std::path::Path, limits: &Limits) -> Result<Vec<u8>> {
    let io = |e: std::io::Error| {
        Error::new(
            ErrorKind::Io,
            format!("cannot read {}: {e}", path.display()),
        )
    };
    let file = std::fs::File::open(path).map_err(io)?;
    // Sized from the file's length up front: growing a multi-megabyte buffer step by step
    // touches fresh memory at every step.
    let size = file.metadata().map_or(0, |m| m.len()).min(limits.max_bytes);
    let capacity = usize::try_from(size).unwrap_or(0).saturating_add(1);
    read_bounded_into(
        file,
        limits.max_bytes,
        &path.display().to_string(),
        Vec::with_capacity(capacity),
    )
    .map_err(|e| match e {
        ReadError::Io(e) => io(e),
        ReadError::TooLarge(e) => e,
    })
}

/// Why [`read_bounded`] failed.
#[derive(Debug)]
pub enum ReadError {
    /// The reader failed.
    Io(std::io::Error),
    /// More than the limit.
    TooLarge(Error),
}

/// Reads at most `max_bytes` from `reader` (one byte more tells that the input is too large).
///
/// # Errors
/// [`ReadError::Io`] when reading fails; [`ReadError::TooLarge`] past `max_bytes`, naming `what`.
pub fn read_bounded(
    reader: impl std::io::Read,
    max_bytes: u64,
    what: &str,
) -> std::result::Result<Vec<u8>, ReadError> {
    read_bounded_into(reader, max_bytes, what, Vec::new())
}

/// [`read_bounded`] into `bytes` (already allocated to the expected size).
fn read_bounded_into(
    reader: impl std::io::Read,
    max_bytes: u64,
    what: &str,
    mut bytes: Vec<u8>,
) -> std::result::Result<Vec<u8>, ReadError> {
    use std::io::Read;
    reader
        .take(max_bytes.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(ReadError::Io)?;
    if bytes.len() as u64 > max_bytes {
        return Err(ReadError::TooLarge(Error::new(
            ErrorKind::TooLarge { limit: max_bytes },
            format!("{what} is larger than the {max_bytes}-byte limit"),
        )));
    }
    Ok(bytes)
}

fn trim_bom_and_space(bytes: &[u8]) -> &[u8] {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = b
        .iter()
        .position(|c| !c.is_ascii_whitespace())
        .unwrap_or(b.len());
    &b[start..]
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_by_content() {
        assert_eq!(detect(b"%PDF-1.4\n...").ok(), Some(Format::MpesaPdf));
        assert_eq!(
            detect(b"\xEF\xBB\xBF {\"transactions\":[]}").ok(),
            Some(Format::Json)
        );
        assert_eq!(
            detect(b"Receipt No,Completion Time,Details\n").ok(),
            Some(Format::Csv)
        );
        let err = detect(b"\x89PNG\r\n\x1a\n\0\0\0").unwrap_err();
        assert_eq!(err.code(), "unsupported_format");
        assert_eq!(detect(b"").unwrap_err().code(), "unsupported_format");
        // The first KiB read ends inside a two-byte character: still a CSV.
        let mut csv = b"Receipt No,Completion Time,Details\n".to_vec();
        while csv.len() < 1023 {
            csv.push(b'x');
        }
        csv.extend("é,\n".as_bytes());
        assert_eq!(csv[1023], 0xC3);
        assert_eq!(detect(&csv).ok(), Some(Format::Csv));
        // A title above MTN's header: the MTN statement's CSV; above any other, not a CSV.
        let mtn = format!(
            "MTN MOBILE MONEY STATEMENT\n\n{}\n",
            mtn_csv::HEADER.join(",")
        );
        assert_eq!(detect(mtn.as_bytes()).ok(), Some(Format::Csv));
        let other = "A TITLE\nReceipt No,Completion Time,Details\n";
        assert_eq!(
            detect(other.as_bytes()).unwrap_err().code(),
            "unsupported_format"
        );
    }

    /// Preparing is idempotent, on one thread or two: a parsed statement prepared again is
    /// the same statement.
    #[cfg(feature = "testing")]
    #[test]
    fn preparing_a_parsed_statement_again_changes_nothing() {
        for (seed, rows) in [(3, 40), (4, 2_400)] {
            let csv = crate::testing::synthetic_statement_with_rows(seed, rows).to_csv();
            let options = ParseOptions::default();
            let parsed = parse(csv.as_bytes(), &options).expect("parses");
            let on_one_thread =
                crate::on_calling_thread(|| parse(csv.as_bytes(), &options)).expect("parses");
            assert_eq!(parsed, on_one_thread, "{rows} rows");
            let mut again = parsed.clone().into_statement();
            prepare(&mut again);
            assert_eq!(again, parsed, "{rows} rows");
        }
    }

    #[test]
    fn integer_amounts_get_two_decimal_places() {
        let json = br#"{"transactions":[{"receiptNo":"A1","completedAt":"2024-01-01T10:00:00","details":"x","status":"completed","paidIn":42100,"withdrawn":"0","balance":"42100.5"}]}"#;
        let s = parse(json, &ParseOptions::default()).unwrap();
        let t = &s.transactions[0];
        assert_eq!(t.paid_in.to_string(), "42100.00");
        assert_eq!(t.withdrawn.to_string(), "0.00");
        assert_eq!(
            t.balance.map(|b| b.to_string()).as_deref(),
            Some("42100.50")
        );
    }

    #[test]
    fn bounded_read_refuses_past_the_limit() {
        let err = read_bounded(&b"12345"[..], 4, "input").unwrap_err();
        assert!(
            matches!(err, ReadError::TooLarge(e) if e.kind() == &ErrorKind::TooLarge { limit: 4 })
        );
        assert_eq!(read_bounded(&b"1234"[..], 4, "input").unwrap(), b"1234");
        let missing = read_file(
            std::path::Path::new("/no/such/statement.pdf"),
            &Limits::default(),
        );
        assert_eq!(missing.unwrap_err().code(), "io_error");
    }

    #[test]
    fn too_large_is_rejected_before_parsing() {
        let mut options = ParseOptions::default();
        options.limits.max_bytes = 4;
        let err = parse(b"%PDF-1.7 and more", &options).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::TooLarge { limit: 4 });
    }
}
