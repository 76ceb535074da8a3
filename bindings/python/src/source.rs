//! What `parse`, `score` and `score_many` accept: statement bytes, a file path, or an already
//! parsed `Statement`; and the parse options built from their keyword arguments.

use std::path::PathBuf;

use alama_core::{Format, ParseOptions, Report, Scorecard, Statement};
use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes};

use crate::error;
use crate::statement::PyStatement;

/// One input, converted while attached to Python so that the work itself can run detached.
pub(crate) enum Source {
    /// The statement's bytes (copied from `bytes` or `bytearray`).
    Bytes(Vec<u8>),
    /// A file to read (from `str` or `os.PathLike`).
    Path(PathBuf),
    /// A parsed statement (frozen, so it can be read without the interpreter).
    Statement(Py<PyStatement>),
}

impl Source {
    /// Converts `bytes`, `bytearray`, `str`/`os.PathLike` (a path) or, when `allow_statement`,
    /// a `Statement`.
    ///
    /// # Errors
    /// `TypeError` for anything else.
    pub(crate) fn extract(obj: &Bound<'_, PyAny>, allow_statement: bool) -> PyResult<Self> {
        if let Ok(bytes) = obj.cast::<PyBytes>() {
            return Ok(Self::Bytes(bytes.as_bytes().to_vec()));
        }
        if let Ok(array) = obj.cast::<PyByteArray>() {
            return Ok(Self::Bytes(array.to_vec()));
        }
        if allow_statement && let Ok(statement) = obj.cast::<PyStatement>() {
            return Ok(Self::Statement(statement.clone().unbind()));
        }
        if let Ok(path) = obj.extract::<PathBuf>() {
            return Ok(Self::Path(path));
        }
        let expected = if allow_statement {
            "statement bytes, a file path (str or os.PathLike) or an alama.Statement"
        } else {
            "statement bytes or a file path (str or os.PathLike)"
        };
        Err(PyTypeError::new_err(format!(
            "expected {expected}, got {}",
            obj.get_type().name()?
        )))
    }

    /// Parses this source. Runs without the interpreter. A path is read through the engine's
    /// capped reader ([`alama_core::parse::read_file`]): an oversized file is refused
    /// (`too_large`) without being read whole.
    ///
    /// # Errors
    /// Those of [`alama_core::parse`], and `ErrorKind::Io` when a path cannot be read.
    pub(crate) fn statement(&self, options: &ParseOptions) -> alama_core::Result<Statement> {
        match self {
            Self::Bytes(bytes) => alama_core::parse(bytes, options).map(Into::into),
            Self::Path(path) => alama_core::parse(
                &alama_core::parse::read_file(path, &options.limits)?,
                options,
            )
            .map(Into::into),
            Self::Statement(statement) => Ok(statement.get().0.clone()),
        }
    }

    /// Parses (unless already parsed) and scores this source with `card`, or without one with
    /// the built-in card of the statement's currency: bytes and paths
    /// through [`alama_core::score_bytes_with`] (no second copy of the parsed rows). Runs
    /// without the interpreter.
    ///
    /// # Errors
    /// Those of [`Source::statement`] and [`alama_core::score_with`].
    pub(crate) fn report(
        &self,
        options: &ParseOptions,
        card: Option<&Scorecard>,
    ) -> alama_core::Result<Report> {
        match self {
            Self::Statement(statement) => match (options.as_of, card) {
                (Some(day), card) => alama_core::score_on(&statement.get().0, card, day),
                (None, Some(card)) => alama_core::score_with(&statement.get().0, card),
                (None, None) => alama_core::score(&statement.get().0),
            },
            Self::Bytes(bytes) => alama_core::score_bytes_with(bytes, options, card),
            Self::Path(path) => alama_core::score_bytes_with(
                &alama_core::parse::read_file(path, &options.limits)?,
                options,
                card,
            ),
        }
    }
}

/// Builds the engine's parse options from the keyword arguments.
///
/// # Errors
/// `UnsupportedFormatError` when `format` is not `"pdf"`, `"csv"`, `"json"` or `"xlsx"`.
pub(crate) fn options(
    py: Python<'_>,
    password: Option<String>,
    format: Option<&str>,
) -> PyResult<ParseOptions> {
    let format = format
        .map(|name| error::map(py, Format::from_name(name)))
        .transpose()?;
    Ok(ParseOptions {
        password,
        format,
        ..ParseOptions::default()
    })
}

/// The day of analysis from `as_of=`: a `datetime.date` (or `datetime.datetime`, whose date is
/// taken) or an ISO `"YYYY-MM-DD"` string; `None` when not given.
///
/// # Errors
/// `ValueError` for a string that is not an ISO date, `TypeError` for another type.
pub(crate) fn as_of(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<chrono::NaiveDate>> {
    let Some(value) = value else {
        return Ok(None);
    };
    let text: String = if let Ok(text) = value.extract::<String>() {
        text
    } else if value.hasattr("isoformat")? {
        value.call_method0("isoformat")?.extract()?
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "as_of must be a datetime.date or a 'YYYY-MM-DD' string",
        ));
    };
    let day = text.get(..10).unwrap_or(&text);
    chrono::NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .map(Some)
        .map_err(|_| {
            pyo3::exceptions::PyValueError::new_err(format!(
                "as_of must be a date as YYYY-MM-DD, got {text:?}"
            ))
        })
}
