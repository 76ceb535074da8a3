//! The one error type of the engine. Every surface (CLI, Python, Node, Kotlin/Swift, HTTP) maps
//! [`ErrorKind`] once, by its stable [`ErrorKind::code`].

use std::fmt;

/// What went wrong, as a closed set that bindings can map one to one.
///
/// The `code` of each kind (see [`ErrorKind::code`]) is a stable `snake_case` string shared by
/// every surface: the Python exception's `.code`, the Node error's `code`, the HTTP problem's
/// `code`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The PDF is encrypted and no password was given. Safaricom's statement password is
    /// normally the customer's national ID number.
    PasswordRequired,
    /// The PDF is encrypted and the given password does not open it.
    WrongPassword,
    /// The bytes are not a statement format the engine reads (not a PDF, CSV or canonical JSON),
    /// or an encrypted PDF whose encryption dictionary is written inside its trailer (as `MuPDF`
    /// writes it), which the PDF reader cannot decrypt (`pdf::load`).
    UnsupportedFormat,
    /// A readable file from a wallet or layout the engine does not know (e.g. a CSV whose
    /// header names no receipt/time/amount columns, or a PDF of none of the supported wallets'
    /// layouts); the message names the supported ones (`parse::wallet::SUPPORTED`).
    UnsupportedWallet,
    /// The file claims a known format but is broken (corrupt PDF, bad CSV row, invalid JSON).
    Malformed {
        /// 1-based page (PDF) or 0.
        page: u32,
        /// 1-based line or CSV record, or 0 when not known.
        line: u32,
    },
    /// The statement has no transactions, so nothing can be scored.
    EmptyStatement,
    /// The input exceeds a safety limit (bytes, pages, rows or decompressed size).
    TooLarge {
        /// The limit that was exceeded, in the unit the message names.
        limit: u64,
    },
    /// Reading a file from disk failed (CLI and bindings that take a path).
    Io,
    /// A scorecard (JSON) that does not validate: bins with a gap or an overlap, maxima that do
    /// not add up, an unknown feature, non-integer points (see `scorecard::card`).
    InvalidScorecard,
    /// The scorecard given is in another currency than the statement (a KES card on a UGX
    /// statement): amounts are never converted, so the statement is not scored. HTTP 422.
    CurrencyMismatch,
    /// No scorecard was given and no built-in card is in the statement's currency (e.g. USD);
    /// the message names the currencies that have one. A lender may bring its own card. HTTP 422.
    UnsupportedCurrency,
    /// Loan terms (principal, tenor, price, fees: `crate::Terms`) that break a rule of
    /// docs/affordability.md; the message names the field. HTTP 400.
    InvalidTerms,
}

impl ErrorKind {
    /// The stable, `snake_case` code of this kind (`"wrong_password"`, …).
    pub fn code(&self) -> &'static str {
        match self {
            Self::PasswordRequired => "password_required",
            Self::WrongPassword => "wrong_password",
            Self::UnsupportedFormat => "unsupported_format",
            Self::UnsupportedWallet => "unsupported_wallet",
            Self::Malformed { .. } => "malformed_statement",
            Self::EmptyStatement => "empty_statement",
            Self::TooLarge { .. } => "too_large",
            Self::Io => "io_error",
            Self::InvalidScorecard => "invalid_scorecard",
            Self::CurrencyMismatch => "currency_mismatch",
            Self::UnsupportedCurrency => "unsupported_currency",
            Self::InvalidTerms => "invalid_terms",
        }
    }

    /// Every code, in a fixed order (for docs and binding tests).
    pub const ALL_CODES: [&'static str; 12] = [
        "password_required",
        "wrong_password",
        "unsupported_format",
        "unsupported_wallet",
        "malformed_statement",
        "empty_statement",
        "too_large",
        "io_error",
        "invalid_scorecard",
        "currency_mismatch",
        "unsupported_currency",
        "invalid_terms",
    ];
}

/// The engine's error: a [`ErrorKind`] plus a human message that names the problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub struct Error {
    kind: ErrorKind,
    message: String,
}

impl Error {
    /// Builds an error of `kind` with a human `message` (one sentence, no trailing period needed).
    pub fn new(kind: ErrorKind, message: impl Into<String>) -> Self {
        Self {
            kind,
            message: message.into(),
        }
    }

    /// The kind, for matching.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// The stable code of the kind (see [`ErrorKind::code`]).
    pub fn code(&self) -> &'static str {
        self.kind.code()
    }

    /// The human message.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// Shorthand for [`ErrorKind::Malformed`].
    pub fn malformed(page: u32, line: u32, message: impl Into<String>) -> Self {
        Self::new(ErrorKind::Malformed { page, line }, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.code(), self.message)
    }
}

/// `Result` with the engine's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_listed() {
        let kinds = [
            ErrorKind::PasswordRequired,
            ErrorKind::WrongPassword,
            ErrorKind::UnsupportedFormat,
            ErrorKind::UnsupportedWallet,
            ErrorKind::Malformed { page: 1, line: 2 },
            ErrorKind::EmptyStatement,
            ErrorKind::TooLarge { limit: 1 },
            ErrorKind::Io,
            ErrorKind::InvalidScorecard,
            ErrorKind::CurrencyMismatch,
            ErrorKind::UnsupportedCurrency,
            ErrorKind::InvalidTerms,
        ];
        let codes: Vec<_> = kinds.iter().map(ErrorKind::code).collect();
        assert_eq!(codes, ErrorKind::ALL_CODES);
    }

    #[test]
    fn display_starts_with_code() {
        let e = Error::new(
            ErrorKind::WrongPassword,
            "the password does not open this PDF",
        );
        assert_eq!(
            e.to_string(),
            "wrong_password: the password does not open this PDF"
        );
    }
}
