//! The source formats the engine reads, as a statement records the one it was read from.

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

/// A source format the engine reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// A PDF statement in a supported wallet's layout, encrypted or not.
    #[serde(rename = "pdf", alias = "mpesa_pdf")]
    Pdf,
    /// CSV with M-Pesa's columns (Receipt No, Completion Time, Details, Transaction Status,
    /// Paid In, Withdrawn, Balance) or their usual aliases; includes the canonical CSV.
    Csv,
    /// The canonical JSON statement (see [`crate::statement`]).
    Json,
    /// A spreadsheet (`.xlsx`, `.xls`, `.ods`) of a wallet's table, read as the CSV it saves
    /// to (a wallet that sends its statement as a spreadsheet).
    Xlsx,
}

impl Format {
    /// Parses `"pdf"`, `"csv"`, `"json"` or `"xlsx"` (case-insensitive; `"mpesa_pdf"` and
    /// `"spreadsheet"` too).
    ///
    /// # Errors
    /// `ErrorKind::UnsupportedFormat` for any other name.
    pub fn from_name(name: &str) -> Result<Self> {
        match name.to_ascii_lowercase().as_str() {
            "pdf" | "mpesa_pdf" => Ok(Self::Pdf),
            "csv" => Ok(Self::Csv),
            "json" => Ok(Self::Json),
            "xlsx" | "xls" | "ods" | "spreadsheet" => Ok(Self::Xlsx),
            other => Err(Error::new(
                ErrorKind::UnsupportedFormat,
                format!("unknown format name {other:?}: expected pdf, csv, json or xlsx"),
            )),
        }
    }
}
