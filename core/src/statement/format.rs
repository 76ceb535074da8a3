//! The source formats the engine reads, as a statement records the one it was read from.

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

/// A source format the engine reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Safaricom M-Pesa full statement PDF (2021 `iText` and 2023+ `OpenPDF` layouts), encrypted or not.
    MpesaPdf,
    /// CSV with M-Pesa's columns (Receipt No, Completion Time, Details, Transaction Status,
    /// Paid In, Withdrawn, Balance) or their usual aliases; includes the canonical CSV.
    Csv,
    /// The canonical JSON statement (see [`crate::statement`]).
    Json,
}

impl Format {
    /// Parses `"pdf"`, `"csv"` or `"json"` (case-insensitive).
    ///
    /// # Errors
    /// `ErrorKind::UnsupportedFormat` for any other name.
    pub fn from_name(name: &str) -> Result<Self> {
        match name.to_ascii_lowercase().as_str() {
            "pdf" | "mpesa_pdf" => Ok(Self::MpesaPdf),
            "csv" => Ok(Self::Csv),
            "json" => Ok(Self::Json),
            other => Err(Error::new(
                ErrorKind::UnsupportedFormat,
                format!("unknown format name {other:?}: expected pdf, csv or json"),
            )),
        }
    }
}
