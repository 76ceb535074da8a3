//! Reading a statement file (or standard input) with the options every subcommand shares.

use std::path::{Path, PathBuf};

use alama_core::parse::{ReadError, read_bounded, read_file};
use alama_core::{Error, ErrorKind, Format, ParseOptions, ParsedStatement};
use clap::Args;

/// Where the statement comes from and how to open it.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Statement file: a wallet's PDF, CSV or spreadsheet (Safaricom M-Pesa, Airtel Money Uganda,
    /// Vodacom M-Pesa Lesotho, MTN MoMo Ghana) or the canonical JSON or CSV; `-` reads standard
    /// input.
    pub file: PathBuf,
    /// Password of an encrypted PDF (Safaricom: normally the customer's ID number).
    #[arg(long, env = "ALAMA_PASSWORD", hide_env_values = true)]
    pub password: Option<String>,
    /// Input format, when detection from the content is not wanted: pdf, csv, json or xlsx.
    #[arg(long, value_name = "FORMAT")]
    pub input_format: Option<String>,
}

/// One-line error text: `error[code]: message`.
pub fn describe(error: &Error) -> String {
    format!("error[{}]: {}", error.code(), error.message())
}

/// Parse options from the shared flags.
///
/// # Errors
/// `ErrorKind::UnsupportedFormat` when `input_format` is not `pdf`, `csv`, `json` or `xlsx`.
pub fn options(
    password: Option<String>,
    input_format: Option<&str>,
) -> Result<ParseOptions, Error> {
    Ok(ParseOptions {
        password,
        format: input_format.map(Format::from_name).transpose()?,
        ..ParseOptions::default()
    })
}

/// Reads `file` (`-` is standard input) within the size limit and parses it.
///
/// # Errors
/// The engine's error: `io_error` when the file cannot be read, any parse error otherwise.
pub fn read_statement(file: &Path, options: &ParseOptions) -> Result<ParsedStatement, Error> {
    let bytes = read(file, options)?;
    alama_core::parse(&bytes, options)
}

/// Reads `file` like [`read_statement`] and scores it with `card`, or without one with the
/// built-in card of the statement's currency (the parsed statement is scored without being
/// copied: [`alama_core::score_bytes_with`]).
///
/// # Errors
/// Those of [`read_statement`], and the engine's scoring errors (`empty_statement`,
/// `too_large`, `currency_mismatch`, `unsupported_currency`).
pub fn score_file(
    file: &Path,
    options: &ParseOptions,
    card: Option<&alama_core::Scorecard>,
) -> Result<alama_core::Report, Error> {
    let bytes = read(file, options)?;
    alama_core::score_bytes_with(&bytes, options, card)
}

fn read(file: &Path, options: &ParseOptions) -> Result<Vec<u8>, Error> {
    if file.as_os_str() != "-" {
        return read_file(file, &options.limits);
    }
    read_bounded(std::io::stdin(), options.limits.max_bytes, "standard input").map_err(
        |e| match e {
            ReadError::Io(e) => {
                Error::new(ErrorKind::Io, format!("cannot read standard input: {e}"))
            }
            ReadError::TooLarge(e) => e,
        },
    )
}

impl InputArgs {
    /// Reads the file and parses it.
    pub fn statement(&self) -> Result<ParsedStatement, String> {
        let options = options(self.password.clone(), self.input_format.as_deref())
            .map_err(|e| describe(&e))?;
        read_statement(&self.file, &options).map_err(|e| describe(&e))
    }
}
