//! Safaricom M-Pesa full statement PDF (being written).

use crate::error::{Error, ErrorKind, Result};
use crate::parse::ParseOptions;
use crate::statement::Statement;

/// Parses an M-Pesa statement PDF.
///
/// # Errors
/// Not yet implemented: `ErrorKind::UnsupportedFormat`.
pub fn parse(_bytes: &[u8], _options: &ParseOptions) -> Result<Statement> {
    Err(Error::new(ErrorKind::UnsupportedFormat, "PDF reading is not built yet"))
}
