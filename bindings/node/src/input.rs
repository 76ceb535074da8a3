//! Argument conversion: what JavaScript hands in, as the engine's inputs.

use alama_core::{Format, ParseOptions, Statement};
use napi::bindgen_prelude::{FromNapiValue, Uint8Array, Unknown};
use napi::{JsValue, ValueType};
use napi_derive::napi;
use serde_json::Value;

use crate::error;

/// Options of `parse`, `score` and `scoreAsync`.
#[napi(object, js_name = "ParseOptions")]
#[derive(Debug, Clone, Default)]
pub struct JsParseOptions {
    /// The PDF password. Safaricom sends M-Pesa statements encrypted with the customer's ID
    /// number. Ignored for CSV and JSON, and for unencrypted PDFs.
    pub password: Option<String>,
    /// Force a source format instead of detecting it from the content (`%PDF-` → PDF, `{` →
    /// canonical JSON, a delimited header line → CSV). Applies to bytes and paths only.
    /// Any other name throws `unsupported_format`.
    #[napi(ts_type = "StatementFormat")]
    pub format: Option<String>,
    /// The day of analysis, `YYYY-MM-DD`: a statement dated or requested after it is `failed`
    /// (`after_analysis_date`). Absent: not checked (the CLI passes today's date, the service
    /// the request's). Another form throws `InvalidArg`.
    pub as_of: Option<String>,
}

/// `YYYY-MM-DD` as a date.
fn day(text: &str) -> Option<chrono::NaiveDate> {
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d").ok()
}

impl JsParseOptions {
    /// Reads the optional options argument (`undefined`/`null` → defaults).
    ///
    /// # Errors
    /// `InvalidArg` when it is not an object of the documented shape.
    pub fn from_js(value: Option<Unknown<'_>>) -> napi::Result<Self> {
        let Some(value) = value else {
            return Ok(Self::default());
        };
        if value.get_type()? != ValueType::Object {
            return Err(error::invalid_arg("options must be an object"));
        }
        let options = Self::from_unknown(value)
            .map_err(|e| error::invalid_arg(format!("options: {}", e.reason)))?;
        if let Some(text) = options.as_of.as_deref().filter(|t| day(t).is_none()) {
            return Err(error::invalid_arg(format!(
                "options.asOf must be a date as YYYY-MM-DD, got {text:?}"
            )));
        }
        Ok(options)
    }

    /// The engine's options (default limits: 32 MiB, 2,000 pages, 500,000 rows).
    pub fn into_core(self) -> alama_core::Result<ParseOptions> {
        Ok(ParseOptions {
            password: self.password,
            format: self.format.as_deref().map(Format::from_name).transpose()?,
            as_of: self.as_of.as_deref().and_then(day),
            ..ParseOptions::default()
        })
    }
}

/// A statement to read: bytes, a path, or (for scoring) a statement object.
pub enum Input {
    /// The file's bytes (copied out of the `Buffer`/`Uint8Array`, so the caller may reuse it).
    Bytes(Vec<u8>),
    /// A path, read when the statement is parsed (on the worker thread for `scoreAsync`).
    Path(String),
    /// A `Statement` object (the canonical JSON form), as plain JSON data.
    Statement(Value),
    /// An object that could not be read as JSON data: the engine error to report when the
    /// statement is parsed (so `scoreAsync` rejects with it rather than throwing).
    Unreadable(alama_core::Error),
}

impl Input {
    /// Reads a JS argument: a string is a path, a `Uint8Array`/`Buffer` is the file's bytes,
    /// any other object is a `Statement` when `allow_statement` is set.
    ///
    /// # Errors
    /// `InvalidArg` for any other JS type. An object that is not JSON data becomes
    /// [`Input::Unreadable`] (`malformed_statement`).
    pub fn from_js(value: Unknown<'_>, allow_statement: bool) -> napi::Result<Self> {
        let expected = if allow_statement {
            "a Buffer, a Uint8Array, a path string or a Statement object"
        } else {
            "a Buffer, a Uint8Array or a path string"
        };
        match value.get_type()? {
            ValueType::String => Ok(Self::Path(String::from_unknown(value)?)),
            ValueType::Object if value.is_typedarray()? => {
                let bytes = Uint8Array::from_unknown(value)
                    .map_err(|_| error::invalid_arg(format!("expected {expected}")))?;
                Ok(Self::Bytes(bytes.to_vec()))
            }
            ValueType::Object if allow_statement && !value.is_arraybuffer()? => {
                Ok(Value::from_unknown(value).map_or_else(
                    |e| Self::Unreadable(error::unconvertible_statement(&e.reason)),
                    Self::Statement,
                ))
            }
            other => Err(error::invalid_arg(format!(
                "expected {expected}, got {other}"
            ))),
        }
    }

    /// Parses the input into the canonical statement, exactly as the CLI reads the same file
    /// (a statement object goes through the canonical JSON reader, so categories are filled
    /// in and money given as a JS number with a fraction is refused).
    ///
    /// # Errors
    /// Those of `alama_core::parse`, and `io_error` for a path that cannot be read.
    pub fn into_statement(self, options: &ParseOptions) -> alama_core::Result<Statement> {
        self.read_with(options, |bytes, options| {
            alama_core::parse(bytes, options).map(alama_core::ParsedStatement::into_statement)
        })
    }

    /// Parses and scores the input with `card` (without one, the built-in card of the
    /// statement's currency), as [`Input::into_statement`] reads it, through
    /// `alama_core::score_bytes_with` (the parsed rows are not copied a second time).
    ///
    /// # Errors
    /// Those of [`Input::into_statement`], and the engine's scoring errors.
    pub fn into_report(
        self,
        options: &ParseOptions,
        card: Option<&alama_core::Scorecard>,
    ) -> alama_core::Result<alama_core::Report> {
        self.read_with(options, |bytes, options| {
            alama_core::score_bytes_with(bytes, options, card)
        })
    }

    /// Hands the input's bytes and the options to read them with to `read` (a statement
    /// object as its canonical JSON).
    fn read_with<T>(
        self,
        options: &ParseOptions,
        read: impl FnOnce(&[u8], &ParseOptions) -> alama_core::Result<T>,
    ) -> alama_core::Result<T> {
        match self {
            Self::Bytes(bytes) => read(&bytes, options),
            Self::Path(path) => {
                // The engine's capped reader: an oversized file is refused (`too_large`) without
                // being read whole.
                let bytes =
                    alama_core::parse::read_file(std::path::Path::new(&path), &options.limits)?;
                read(&bytes, options)
            }
            Self::Statement(value) => {
                let json = value.to_string();
                let options = ParseOptions {
                    format: Some(Format::Json),
                    ..options.clone()
                };
                read(json.as_bytes(), &options)
            }
            Self::Unreadable(error) => Err(error),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_map_to_the_engine_and_unknown_ones_are_refused() {
        let options = |format: &str| JsParseOptions {
            password: Some("1234".into()),
            format: Some(format.into()),
            as_of: None,
        };
        let core = options("PDF").into_core().unwrap();
        assert_eq!(core.format, Some(Format::Pdf));
        assert_eq!(core.password.as_deref(), Some("1234"));
        assert_eq!(core.limits, alama_core::Limits::default());
        let err = options("xlsx").into_core().unwrap_err();
        assert_eq!(err.code(), "unsupported_format");
    }

    #[test]
    fn a_statement_value_goes_through_the_canonical_json_reader() {
        let value = serde_json::json!({
            "transactions": [{
                "receiptNo": "SEN4AB12CD",
                "completedAt": "2024-05-23T14:02:11",
                "details": "Funds received from 2547******456 - SAMPLE",
                "status": "completed",
                "paidIn": "1500.00",
                "withdrawn": "0.00"
            }]
        });
        let statement = Input::Statement(value)
            .into_statement(&ParseOptions::default())
            .unwrap();
        assert_eq!(statement.transactions.len(), 1);
        assert_ne!(
            statement.transactions[0].category,
            alama_core::Category::Uncategorised
        );
    }

    #[test]
    fn float_money_in_a_statement_value_is_malformed() {
        let value = serde_json::json!({
            "transactions": [{
                "receiptNo": "SEN4AB12CD",
                "completedAt": "2024-05-23T14:02:11",
                "details": "x",
                "status": "completed",
                "paidIn": 10.5,
                "withdrawn": "0.00"
            }]
        });
        let err = Input::Statement(value)
            .into_statement(&ParseOptions::default())
            .unwrap_err();
        assert_eq!(err.code(), "malformed_statement");
    }

    #[test]
    fn an_unreadable_path_is_an_io_error() {
        let err = Input::Path("/nonexistent/alama/statement.pdf".into())
            .into_statement(&ParseOptions::default())
            .unwrap_err();
        assert_eq!(err.code(), "io_error");
        assert!(err.message().contains("/nonexistent/alama/statement.pdf"));
    }
}
