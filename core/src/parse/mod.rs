//! Reading statements: the format detected from the content, then the file handed to the
//! wallet whose layout it is (the registry, `crate::wallets`), or read in the canonical form
//! ([`csv`], [`json`]); then prepared for scoring ([`prepare`]).
//!
//! Every reader returns a [`Statement`]; lines that look like transactions but cannot be read
//! are kept in [`Statement::unparsed`], never dropped.
//!
//! **Which wallet wrote a file.** A PDF is opened once. One whose writer (in its plain bytes,
//! or its decoded `/Producer` or `/Creator`) is named by a wallet's layout is read by that
//! layout first; then every wallet's PDF layout in registry order (Safaricom's first: nearly
//! every file the engine reads). A table (CSV, or a spreadsheet read as its CSV) goes to the
//! wallet whose header it holds, else is read by its column names in the canonical CSV form.
//! A file of none of these layouts is `unsupported_wallet`, naming the supported wallets.

pub mod csv;
pub mod json;
mod parsed;
mod read;
mod sheet;

use std::panic::{AssertUnwindSafe, catch_unwind};

use crate::error::{Error, ErrorKind, Result};
use crate::statement::Statement;
use crate::wallets::{self, Wallet};

pub use crate::limits::Limits;
pub use crate::statement::Format;
pub use parsed::{ParsedStatement, Scorable};
pub use read::{ReadError, read_bounded, read_file};

/// Options of [`parse`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// The PDF password (Safaricom: normally the customer's ID number). Ignored for CSV/JSON.
    pub password: Option<String>,
    /// Force a format instead of detecting it from the content.
    pub format: Option<Format>,
    /// Safety limits.
    pub limits: Limits,
    /// The day of analysis: the day the statement is judged on (the service's request date,
    /// the CLI's today or `--as-of`). A statement dated after it, or requested after it, cannot
    /// be genuine (`after_analysis_date`, critical). `None`: not checked. A report's bytes and
    /// id do not depend on it unless that finding does.
    pub as_of: Option<chrono::NaiveDate>,
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

/// Detects the format from the first bytes: `%PDF-` → PDF, a spreadsheet's zip or compound file
/// (see `sheet::is_spreadsheet`) → spreadsheet,
/// `{` → JSON, otherwise text with a comma-, semicolon- or tab-separated header (or a wallet's
/// table header among its first lines, below a title) → CSV.
///
/// # Errors
/// `ErrorKind::UnsupportedFormat` for binary data that is none of these.
pub fn detect(bytes: &[u8]) -> Result<Format> {
    let head = &bytes[..bytes.len().min(1024)];
    let trimmed = trim_bom_and_space(head);
    if trimmed.starts_with(b"%PDF-") || find(head, b"%PDF-").is_some() {
        return Ok(Format::Pdf);
    }
    if sheet::is_spreadsheet(bytes) {
        return Ok(Format::Xlsx);
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
    // A wallet's table saved as CSV may keep a title above its header.
    let titled = || {
        wallets::ALL
            .iter()
            .filter_map(|w| w.layouts.csv.as_ref())
            .any(|layout| (layout.recognise)(bytes))
    };
    if text_like && (delimited || titled()) {
        return Ok(Format::Csv);
    }
    Err(Error::new(
        ErrorKind::UnsupportedFormat,
        format!(
            "not a statement: expected a PDF, a spreadsheet, a CSV or the canonical JSON; {}",
            wallets::supported()
        ),
    ))
}

/// Parses a statement from bytes.
///
/// # Errors
/// - `ErrorKind::TooLarge` when `bytes` exceeds `options.limits.max_bytes`.
/// - `ErrorKind::UnsupportedFormat` when the content is not PDF, CSV or JSON, or is a PDF
///   encrypted in a form the reader cannot open (its encryption dictionary inside the trailer).
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
        Format::Pdf => read_pdf(bytes, options)?,
        Format::Csv => read_table(bytes, options)?,
        Format::Xlsx => read_table(&sheet::to_csv(bytes, &options.limits)?, options)?,
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
    Ok(ParsedStatement::from_prepared(statement, options.as_of))
}

/// What every parser's output goes through: amounts get at least two decimal places, and every
/// row is read in its wallet's words: its category from its Details and direction (an input
/// category is replaced), and, for a person-to-person row, the counterparty its wallet's
/// grammar names ([`crate::statement::Transaction::counterparty`]). [`crate::score`] applies it
/// to a copy of every [`Statement`] it is handed (a [`ParsedStatement`] has been through it
/// already), so `score(s)` of a hand-built statement and `score(parse(bytes))` agree.
/// Idempotent: a row's category and counterparty are functions of its Details, direction and
/// wallet, and amounts keep a scale of two or more.
///
/// A statement whose provider no wallet has (built in code) is read in the canonical form's
/// words; scoring it is `unsupported_wallet` (`crate::wallets::of`).
///
/// A long statement's two halves are categorised on two threads when the pool may be used
/// (`crate::parallel`), each with its own memo of the Details it has seen.
pub fn prepare(statement: &mut Statement) {
    normalise_summary(statement);
    if let Some(exponent) = crate::statement::currency_exponent(&statement.currency) {
        statement.currency_exponent = (exponent != 2).then_some(exponent);
    }
    let wallet = wallets::find(statement.provider.as_str()).unwrap_or(wallets::GENERIC);
    let rows = &mut statement.transactions;
    if crate::parallel::worth_halving(rows.len()) {
        let half = rows.len() / 2;
        let (first, second) = rows.split_at_mut(half);
        crate::parallel::join(
            || prepare_rows(first, wallet),
            || prepare_rows(second, wallet),
        );
    } else {
        // One memo sees more repeats: on one thread, one pass is the cheaper.
        prepare_rows(rows, wallet);
    }
}

/// [`prepare`] of rows: amounts to at least two decimal places, then categories by the
/// wallet's rule table, then the counterparties of person-to-person rows.
fn prepare_rows(rows: &mut [crate::statement::Transaction], wallet: &Wallet) {
    use crate::money::normalise;
    for t in rows.iter_mut() {
        t.paid_in = normalise(t.paid_in);
        t.withdrawn = normalise(t.withdrawn);
        t.balance = t.balance.map(normalise);
    }
    wallet.rules.categorise_all(rows);
    let mut buffer = String::new();
    for t in rows.iter_mut() {
        t.counterparty = if t.category.is_person_to_person() {
            (wallet.counterparty)(t, &mut buffer).map(str::to_owned)
        } else {
            None
        };
    }
}

/// Reads a PDF statement of any supported wallet (see the module notes), containing a panic
/// of a PDF reader (`lopdf`, the engine's own) as `Malformed`.
///
/// # Errors
/// Those of [`crate::pdf::Document::open`] and of the layouts' readers; `UnsupportedWallet`
/// (naming the supported wallets) for a readable PDF of no known layout.
fn read_pdf(bytes: &[u8], options: &ParseOptions) -> Result<Statement> {
    match catch_unwind(AssertUnwindSafe(|| read_pdf_unguarded(bytes, options))) {
        Ok(result) => result,
        Err(_) => Err(Error::malformed(
            0,
            0,
            "the PDF could not be read (its content made the PDF reader fail)",
        )),
    }
}

fn read_pdf_unguarded(bytes: &[u8], options: &ParseOptions) -> Result<Statement> {
    let document = crate::pdf::Document::open(bytes, options.password.as_deref(), &options.limits)
        .map_err(with_password_hints)?;
    let info = document.info();
    let names = |words: &[&[u8]]| {
        words.iter().any(|w| {
            memchr::memmem::find(bytes, w).is_some()
                || [&info.producer, &info.creator]
                    .into_iter()
                    .flatten()
                    .any(|text| memchr::memmem::find(text.as_bytes(), w).is_some())
        })
    };
    let layouts = || wallets::ALL.iter().filter_map(|w| w.layouts.pdf.as_ref());
    // The layouts whose writer the file names first, then every other in registry order.
    let (named, rest): (Vec<_>, Vec<_>) = layouts().partition(|l| names(l.writers));
    for layout in named.into_iter().chain(rest) {
        if let Some(statement) = (layout.read)(&document)? {
            return Ok(statement);
        }
    }
    Err(wallets::unsupported("a PDF of an unknown layout"))
}

/// A password error with the hints of the wallets that encrypt their statements.
fn with_password_hints(e: Error) -> Error {
    if matches!(e.kind(), ErrorKind::PasswordRequired) {
        let hints = wallets::password_hints();
        if !hints.is_empty() {
            return Error::new(
                ErrorKind::PasswordRequired,
                format!("{} ({})", e.message(), hints.join("; ")),
            );
        }
    }
    e
}

/// Reads a table (CSV) of any supported wallet: the wallet whose header it holds, else the
/// canonical CSV form.
///
/// # Errors
/// Those of the wallets' readers and of [`csv::parse`]; an unknown header is
/// `UnsupportedWallet`, naming the header's columns and the supported wallets.
fn read_table(bytes: &[u8], options: &ParseOptions) -> Result<Statement> {
    for layout in wallets::ALL.iter().filter_map(|w| w.layouts.csv.as_ref()) {
        if let Some(statement) = (layout.read)(bytes, &options.limits)? {
            return Ok(statement);
        }
    }
    csv::parse(bytes, options).map_err(|e| {
        if e.kind() == &ErrorKind::UnsupportedWallet {
            Error::new(
                ErrorKind::UnsupportedWallet,
                format!("{}; {}", e.message(), wallets::supported()),
            )
        } else {
            e
        }
    })
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
        assert_eq!(detect(b"%PDF-1.4\n...").ok(), Some(Format::Pdf));
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
            "TRANSACTION DATE,FROM ACCT,FROM NAME,FROM NO.,TRANS. TYPE,AMOUNT,FEES,E-LEVY,BAL \
             BEFORE,BAL AFTER,TO NO.,TO NAME,TO ACCT,F_ID,REF,OVA"
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
    fn too_large_is_rejected_before_parsing() {
        let mut options = ParseOptions::default();
        options.limits.max_bytes = 4;
        let err = parse(b"%PDF-1.7 and more", &options).unwrap_err();
        assert_eq!(err.kind(), &ErrorKind::TooLarge { limit: 4 });
    }
}
