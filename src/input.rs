//! Reading a statement file (or standard input) with the options every subcommand shares.

use std::io::Read;
use std::path::PathBuf;

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
        let bytes = self
            .read(options.limits.max_bytes)
            .map_err(|e| describe(&e))?;
        alama_core::parse(&bytes, &options).map_err(|e| describe(&e))
    }

    fn read(&self, max_bytes: u64) -> Result<Vec<u8>, Error> {
        let io = |e: std::io::Error| {
            Error::new(
                ErrorKind::Io,
                format!("cannot read {}: {e}", self.file.display()),
            )
        };
        let mut bytes = Vec::new();
        let reader: Box<dyn Read> = if self.file.as_os_str() == "-" {
            Box::new(std::io::stdin())
        } else {
            Box::new(std::fs::File::open(&self.file).map_err(io)?)
        };
        // Read one byte past the limit so an oversized input is refused without reading it all.
        reader
            .take(max_bytes + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > max_bytes {
            return Err(Error::new(
                ErrorKind::TooLarge { limit: max_bytes },
                format!(
                    "{} is larger than the {max_bytes}-byte limit",
                    self.file.display()
                ),
            ));
        }
        Ok(bytes)
    }
}
