//! The one error of the mobile bindings: `AlamaException` in Kotlin, `AlamaError` in Swift.
//!
//! One case per engine `ErrorKind`, each with the engine's human message as `detail`; [`AlamaError::code`]
//! (`errorCode(e)` in Kotlin/Swift) gives the stable `snake_case` code shared by every surface.

use alama_core::{Error, ErrorKind};

/// Why the engine could not parse or score a statement. Every case carries `detail`, one
/// human sentence that names the problem (a field named `message` would clash with Kotlin's
/// `Throwable.message`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error, uniffi::Error)]
pub enum AlamaError {
    /// `password_required`: the PDF is encrypted and no password was given. Safaricom's
    /// statement password is normally the customer's national ID number.
    #[error("password_required: {detail}")]
    PasswordRequired {
        /// Human message (one sentence naming the problem).
        detail: String,
    },
    /// `wrong_password`: the PDF is encrypted and the given password does not open it.
    #[error("wrong_password: {detail}")]
    WrongPassword {
        /// Human message (one sentence naming the problem).
        detail: String,
    },
    /// `unsupported_format`: the bytes are not a PDF, a CSV export or the canonical JSON.
    #[error("unsupported_format: {detail}")]
    UnsupportedFormat {
        /// Human message (one sentence naming the problem).
        detail: String,
    },
    /// `unsupported_wallet`: a readable file from a wallet or layout the engine does not know.
    #[error("unsupported_wallet: {detail}")]
    UnsupportedWallet {
        /// Human message (one sentence naming the problem).
        detail: String,
    },
    /// `malformed_statement`: the file claims a known format but is broken (corrupt PDF, bad
    /// CSV row, invalid JSON), or a value handed in from Kotlin/Swift is not a valid decimal or
    /// ISO 8601 date.
    #[error("malformed_statement: {detail}")]
    MalformedStatement {
        /// 1-based page (PDF) or 0.
        page: u32,
        /// 1-based line or CSV record, or 0 when not known.
        line: u32,
        /// Human message (one sentence naming the problem).
        detail: String,
    },
    /// `empty_statement`: the statement has no completed transactions, so nothing can be scored.
    #[error("empty_statement: {detail}")]
    EmptyStatement {
        /// Human message (one sentence naming the problem).
        detail: String,
    },
    /// `too_large`: the input exceeds a safety limit (bytes, pages, rows or decompressed size).
    #[error("too_large: {detail}")]
    TooLarge {
        /// The limit that was exceeded, in the unit the message names.
        limit: u64,
        /// Human message (one sentence naming the problem).
        detail: String,
    },
    /// `io_error`: reading a file failed.
    #[error("io_error: {detail}")]
    Io {
        /// Human message (one sentence naming the problem).
        detail: String,
    },
    /// `invalid_scorecard`: a scorecard JSON that does not validate (`Scorecard.fromJson`):
    /// bins with a gap or an overlap, a feature not in the catalogue, points that are not
    /// integers, maxima that do not add up to 550, or JSON that is not a scorecard.
    #[error("invalid_scorecard: {detail}")]
    InvalidScorecard {
        /// Human message (one sentence naming the problem).
        detail: String,
    },
    /// `currency_mismatch`: the scorecard given is in another currency than the statement (a
    /// KES card on a UGX statement); amounts are never converted.
    #[error("currency_mismatch: {detail}")]
    CurrencyMismatch {
        /// Human message naming both currencies.
        detail: String,
    },
    /// `unsupported_currency`: no scorecard given and no built-in card in the statement's
    /// currency; the message names the currencies that have one.
    #[error("unsupported_currency: {detail}")]
    UnsupportedCurrency {
        /// Human message naming the currencies with a built-in card.
        detail: String,
    },
    /// `invalid_terms`: loan terms (`LoanTerms`) that break a rule of docs/affordability.md (a
    /// principal that is not positive, a tenor outside 1 to 360 months, a monthly rate outside
    /// 0 to 1, negative fees or total cost).
    #[error("invalid_terms: {detail}")]
    InvalidTerms {
        /// Human message naming the field.
        detail: String,
    },
    /// An error kind of a newer engine that this version of the bindings does not name yet.
    #[error("{code}: {detail}")]
    Other {
        /// The engine's stable code.
        code: String,
        /// Human message (one sentence naming the problem).
        detail: String,
    },
}

impl AlamaError {
    /// The stable `snake_case` code of this error (`"wrong_password"`, …), the same on every
    /// surface (CLI, Python, Node, HTTP).
    pub fn code(&self) -> String {
        match self {
            Self::PasswordRequired { .. } => ErrorKind::PasswordRequired.code().to_owned(),
            Self::WrongPassword { .. } => ErrorKind::WrongPassword.code().to_owned(),
            Self::UnsupportedFormat { .. } => ErrorKind::UnsupportedFormat.code().to_owned(),
            Self::UnsupportedWallet { .. } => ErrorKind::UnsupportedWallet.code().to_owned(),
            Self::MalformedStatement { .. } => {
                ErrorKind::Malformed { page: 0, line: 0 }.code().to_owned()
            }
            Self::EmptyStatement { .. } => ErrorKind::EmptyStatement.code().to_owned(),
            Self::TooLarge { .. } => ErrorKind::TooLarge { limit: 0 }.code().to_owned(),
            Self::Io { .. } => ErrorKind::Io.code().to_owned(),
            Self::InvalidScorecard { .. } => ErrorKind::InvalidScorecard.code().to_owned(),
            Self::CurrencyMismatch { .. } => ErrorKind::CurrencyMismatch.code().to_owned(),
            Self::UnsupportedCurrency { .. } => ErrorKind::UnsupportedCurrency.code().to_owned(),
            Self::InvalidTerms { .. } => ErrorKind::InvalidTerms.code().to_owned(),
            Self::Other { code, .. } => code.clone(),
        }
    }
}

impl From<Error> for AlamaError {
    fn from(error: Error) -> Self {
        let detail = error.message().to_owned();
        match *error.kind() {
            ErrorKind::PasswordRequired => Self::PasswordRequired { detail },
            ErrorKind::WrongPassword => Self::WrongPassword { detail },
            ErrorKind::UnsupportedFormat => Self::UnsupportedFormat { detail },
            ErrorKind::UnsupportedWallet => Self::UnsupportedWallet { detail },
            ErrorKind::Malformed { page, line } => Self::MalformedStatement { page, line, detail },
            ErrorKind::EmptyStatement => Self::EmptyStatement { detail },
            ErrorKind::TooLarge { limit } => Self::TooLarge { limit, detail },
            ErrorKind::Io => Self::Io { detail },
            ErrorKind::InvalidScorecard => Self::InvalidScorecard { detail },
            ErrorKind::CurrencyMismatch => Self::CurrencyMismatch { detail },
            ErrorKind::UnsupportedCurrency => Self::UnsupportedCurrency { detail },
            ErrorKind::InvalidTerms => Self::InvalidTerms { detail },
            _ => Self::Other {
                code: error.code().to_owned(),
                detail,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every engine kind maps to its own case, with the engine's code and fields.
    #[test]
    fn every_kind_maps_to_a_case_with_its_code() {
        let kinds = [
            ErrorKind::PasswordRequired,
            ErrorKind::WrongPassword,
            ErrorKind::UnsupportedFormat,
            ErrorKind::UnsupportedWallet,
            ErrorKind::Malformed { page: 3, line: 7 },
            ErrorKind::EmptyStatement,
            ErrorKind::TooLarge { limit: 42 },
            ErrorKind::Io,
            ErrorKind::InvalidScorecard,
            ErrorKind::CurrencyMismatch,
            ErrorKind::UnsupportedCurrency,
            ErrorKind::InvalidTerms,
        ];
        let mapped: Vec<AlamaError> = kinds
            .iter()
            .map(|k| AlamaError::from(Error::new(k.clone(), "msg")))
            .collect();
        let codes: Vec<String> = mapped.iter().map(AlamaError::code).collect();
        assert_eq!(codes, ErrorKind::ALL_CODES);
        assert!(
            !mapped.iter().any(|e| matches!(e, AlamaError::Other { .. })),
            "every kind of this engine has its own case"
        );
        assert_eq!(
            mapped[8],
            AlamaError::InvalidScorecard {
                detail: "msg".to_owned()
            }
        );
        assert_eq!(
            mapped[4],
            AlamaError::MalformedStatement {
                page: 3,
                line: 7,
                detail: "msg".to_owned()
            }
        );
        assert_eq!(
            mapped[6],
            AlamaError::TooLarge {
                limit: 42,
                detail: "msg".to_owned()
            }
        );
        assert_eq!(mapped[1].to_string(), "wrong_password: msg");
    }
}
