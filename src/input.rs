//! Reading a statement file (or standard input) with the options every subcommand shares.

use std::path::PathBuf;

use alama_core::parse::{ReadError, read_bounded, read_file};
use alama_core::{Error, ErrorKind, Format, ParseOptions};
use clap::Args;

/// Where the statement comes from and how to open it.
#[derive(Debug, Args)]
pub struct InputArgs {
    /// Statement file: an M-Pesa PDF, a CSV export or canonical JSON; `-` reads standard input.
    pub file: PathBuf,
    /// Password of an encrypted PDF (Safaricom: normally the customer's ID number).
    #[arg(long, env = "ALAMA_PASSWORD", hide_env_values = true)]
    pub password: Option<String>,
    /// Input format, when detection from the content is not wanted: pdf, csv or json.
    #[arg(long, value_name = "FORMAT")]
    pub input_format: Option<String>,
}

/// One-line error text: `error[code]: message`.
pub fn describe(error: &Error) -> String {
    format!("error[{}]: {}", error.code(), error.message())
}

impl InputArgs {
    /// Reads the file and parses it.
    pub fn statement(&self) -> Result<alama_core::Statement, String> {
        let options = ParseOptions {
            password: self.password.clone(),
            format: self
                .input_format
                .as_deref()
                .map(Format::from_name)
                .transpose()
                .map_err(|e| describe(&e))?,
            ..ParseOptions::default()
        };
        let bytes = self.read(&options).map_err(|e| describe(&e))?;
        alama_core::parse(&bytes, &options).map_err(|e| describe(&e))
    }

    fn read(&self, options: &ParseOptions) -> Result<Vec<u8>, Error> {
        if self.file.as_os_str() != "-" {
            return read_file(&self.file, &options.limits);
        }
        read_bounded(std::io::stdin(), options.limits.max_bytes, "standard input").map_err(|e| {
            match e {
                ReadError::Io(e) => {
                    Error::new(ErrorKind::Io, format!("cannot read standard input: {e}"))
                }
                ReadError::TooLarge(e) => e,
            }
        })
    }
}
