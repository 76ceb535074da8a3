//! The one mapping from the engine's [`ErrorKind`] to Python exceptions.
//!
//! `alama.AlamaError` is the base class; each kind has one subclass whose class attribute
//! `code` is the kind's stable code ([`ErrorKind::code`], shared with the CLI, Node, mobile and
//! HTTP surfaces). Raised instances also carry `code`, `message` and, where the kind has them,
//! `page`/`line` (`malformed_statement`) or `limit` (`too_large`).

use alama_core::{Error, ErrorKind};
use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::PyType;

create_exception!(
    alama,
    AlamaError,
    PyException,
    "Base class of every error the Alama engine raises.\n\n\
     Attributes: `code` (str, the stable snake_case code shared by every Alama surface, e.g. \
     \"wrong_password\") and `message` (str, one human sentence)."
);
create_exception!(
    alama,
    PasswordRequiredError,
    AlamaError,
    "The PDF is encrypted and no password was given (code \"password_required\"). Safaricom's \
     statement password is normally the customer's national ID number."
);
create_exception!(
    alama,
    WrongPasswordError,
    AlamaError,
    "The PDF is encrypted and the given password does not open it (code \"wrong_password\")."
);
create_exception!(
    alama,
    UnsupportedFormatError,
    AlamaError,
    "The bytes are not a format the engine reads: not an M-Pesa PDF, a CSV export or the \
     canonical JSON; also an unknown `format=` name (code \"unsupported_format\")."
);
create_exception!(
    alama,
    UnsupportedWalletError,
    AlamaError,
    "A readable file from a wallet or layout the engine does not know, e.g. a CSV whose header \
     has no receipt, time or amount columns (code \"unsupported_wallet\")."
);
create_exception!(
    alama,
    MalformedStatementError,
    AlamaError,
    "The file claims a known format but is broken: corrupt PDF, bad CSV record, invalid or \
     incomplete statement JSON/dict (code \"malformed_statement\"). Attributes `page` and \
     `line` (int, 1-based, 0 when unknown) locate the problem."
);
create_exception!(
    alama,
    EmptyStatementError,
    AlamaError,
    "The statement has no completed transactions, so it cannot be scored (code \
     \"empty_statement\")."
);
create_exception!(
    alama,
    TooLargeError,
    AlamaError,
    "The input exceeds a safety limit: bytes, pages, rows or decompressed size (code \
     \"too_large\"). Attribute `limit` (int) is the limit exceeded, in the unit the message names."
);
create_exception!(
    alama,
    InvalidScorecardError,
    AlamaError,
    "A scorecard JSON that does not validate: not a scorecard, a gap or overlap in bins, an \
     unknown feature, non-integer points, maxima that do not add up to 550… The message names \
     the problem (code \"invalid_scorecard\")."
);
create_exception!(
    alama,
    CurrencyMismatchError,
    AlamaError,
    "The scorecard given is in another currency than the statement (a KES card on a UGX \
     statement); amounts are never converted (code \"currency_mismatch\")."
);
create_exception!(
    alama,
    UnsupportedCurrencyError,
    AlamaError,
    "No scorecard was given and no built-in card is in the statement's currency; the message \
     names the currencies that have one (code \"unsupported_currency\")."
);
create_exception!(
    alama,
    InvalidTermsError,
    AlamaError,
    "Loan terms that break a rule of docs/affordability.md (a principal that is not positive, a \
     tenor outside 1 to 360 months, a monthly rate outside 0 to 1, negative fees or total cost, \
     a principal without a tenor); the message names the field (code \"invalid_terms\")."
);
create_exception!(
    alama,
    FileReadError,
    AlamaError,
    "Reading a statement file from disk failed: missing file, no permission, a directory \
     (code \"io_error\")."
);

/// Sets the class attribute `code` of every exception class (called once at module import).
pub(crate) fn set_class_codes(py: Python<'_>) -> PyResult<()> {
    let classes: [(Bound<'_, PyType>, &str); 12] = [
        (py.get_type::<PasswordRequiredError>(), "password_required"),
        (py.get_type::<WrongPasswordError>(), "wrong_password"),
        (
            py.get_type::<UnsupportedFormatError>(),
            "unsupported_format",
        ),
        (
            py.get_type::<UnsupportedWalletError>(),
            "unsupported_wallet",
        ),
        (
            py.get_type::<MalformedStatementError>(),
            "malformed_statement",
        ),
        (py.get_type::<EmptyStatementError>(), "empty_statement"),
        (py.get_type::<TooLargeError>(), "too_large"),
        (py.get_type::<FileReadError>(), "io_error"),
        (py.get_type::<InvalidScorecardError>(), "invalid_scorecard"),
        (py.get_type::<CurrencyMismatchError>(), "currency_mismatch"),
        (
            py.get_type::<UnsupportedCurrencyError>(),
            "unsupported_currency",
        ),
        (py.get_type::<InvalidTermsError>(), "invalid_terms"),
    ];
    for (class, code) in classes {
        class.setattr("code", code)?;
    }
    // The base class has no code of its own; instances always carry theirs.
    py.get_type::<AlamaError>().setattr("code", py.None())
}

/// Converts an engine error into the matching Python exception, with its attributes set.
pub(crate) fn to_py(py: Python<'_>, error: &Error) -> PyErr {
    let message = error.message().to_owned();
    let err = match error.kind() {
        ErrorKind::PasswordRequired => PasswordRequiredError::new_err(message.clone()),
        ErrorKind::WrongPassword => WrongPasswordError::new_err(message.clone()),
        ErrorKind::UnsupportedFormat => UnsupportedFormatError::new_err(message.clone()),
        ErrorKind::UnsupportedWallet => UnsupportedWalletError::new_err(message.clone()),
        ErrorKind::Malformed { .. } => MalformedStatementError::new_err(message.clone()),
        ErrorKind::EmptyStatement => EmptyStatementError::new_err(message.clone()),
        ErrorKind::TooLarge { .. } => TooLargeError::new_err(message.clone()),
        ErrorKind::Io => FileReadError::new_err(message.clone()),
        ErrorKind::InvalidScorecard => InvalidScorecardError::new_err(message.clone()),
        ErrorKind::CurrencyMismatch => CurrencyMismatchError::new_err(message.clone()),
        ErrorKind::UnsupportedCurrency => UnsupportedCurrencyError::new_err(message.clone()),
        ErrorKind::InvalidTerms => InvalidTermsError::new_err(message.clone()),
        // A kind added to the engine after this binding: still an AlamaError with its code.
        _ => AlamaError::new_err(message.clone()),
    };
    let value = err.value(py);
    let attributes = value
        .setattr("code", error.code())
        .and_then(|()| value.setattr("message", message));
    let attributes = attributes.and_then(|()| match *error.kind() {
        ErrorKind::Malformed { page, line } => value
            .setattr("page", page)
            .and_then(|()| value.setattr("line", line)),
        ErrorKind::TooLarge { limit } => value.setattr("limit", limit),
        _ => Ok(()),
    });
    match attributes {
        Ok(()) => err,
        Err(e) => e,
    }
}

/// Maps a core result into a Python result.
pub(crate) fn map<T>(py: Python<'_>, result: alama_core::Result<T>) -> PyResult<T> {
    result.map_err(|e| to_py(py, &e))
}
