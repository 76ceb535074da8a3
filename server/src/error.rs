//! The service's errors and THE table that maps every problem `code` — the engine's
//! [`alama_core::ErrorKind`] codes and the service's own — to an HTTP status and a title.
//!
//! Handlers return [`ApiError`]; [`crate::problem`] renders it, and the request middleware completes it, as
//! an RFC 9457 `application/problem+json` body carrying `code` and `requestId`.

use std::fmt;

use axum::http::StatusCode;
use serde_json::{Map, Value};

use crate::storage::StorageError;

/// One row of the error table: a stable `code`, its HTTP status and a short title.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CodeInfo {
    /// Stable `snake_case` code, the problem's `code` member.
    pub code: &'static str,
    /// HTTP status answered with this code.
    pub status: u16,
    /// The problem's `title`: the same for every occurrence of the code.
    pub title: &'static str,
}

const fn row(code: &'static str, status: u16, title: &'static str) -> CodeInfo {
    CodeInfo {
        code,
        status,
        title,
    }
}

/// Every code the service answers with, its HTTP status and title. The first block is the
/// engine's [`alama_core::ErrorKind::ALL_CODES`], in that order; a test keeps them in step.
pub const CODES: &[CodeInfo] = &[
    // The engine (alama_core::ErrorKind). A failed analysis stores one of these on its report.
    row(
        "password_required",
        422,
        "The statement is encrypted: a password is required",
    ),
    row(
        "wrong_password",
        422,
        "The password does not open the statement",
    ),
    row(
        "unsupported_format",
        415,
        "Not a statement file (PDF, CSV or JSON expected)",
    ),
    row(
        "unsupported_wallet",
        422,
        "A statement layout or wallet the engine does not read",
    ),
    row("malformed_statement", 422, "The statement file is broken"),
    row(
        "empty_statement",
        422,
        "The statement has no completed transactions to score",
    ),
    row("too_large", 413, "The upload exceeds a size limit"),
    row("io_error", 500, "The statement could not be read"),
    row("invalid_scorecard", 422, "The scorecard does not validate"),
    row(
        "currency_mismatch",
        422,
        "The scorecard is in another currency than the statement",
    ),
    row(
        "unsupported_currency",
        422,
        "No built-in scorecard for the statement's currency",
    ),
    // The engine's; the service checks a form's terms as it reads the request, and answers
    // them with `invalid_request` (server/README.md, Applications).
    row("invalid_terms", 400, "The loan terms are not valid"),
    // Keys and environments.
    row("missing_api_key", 401, "An API key is required"),
    row("invalid_api_key", 401, "The API key is not valid"),
    row("revoked_api_key", 401, "The API key has been revoked"),
    row(
        "live_mode_required",
        403,
        "This endpoint is available in Live only",
    ),
    row("rate_limited", 429, "Too many requests for this API key"),
    row(
        "auth_throttled",
        429,
        "Too many failed authentications from this address",
    ),
    // Resources.
    row("not_found", 404, "No such endpoint"),
    row(
        "method_not_allowed",
        405,
        "Method not allowed on this endpoint",
    ),
    row("report_not_found", 404, "No such report"),
    row("application_not_found", 404, "No such application"),
    row(
        "too_many_statements",
        422,
        "An application has more statements than allowed",
    ),
    row("consent_not_found", 404, "No such consent"),
    row(
        "consent_required",
        403,
        "A granted consent is required in Live",
    ),
    row("consent_not_granted", 403, "The consent is not granted"),
    row(
        "consent_state_conflict",
        409,
        "The consent cannot make this transition",
    ),
    row(
        "notice_mismatch",
        422,
        "The notice hash does not match the consent's notice",
    ),
    // Requests.
    row("invalid_request", 400, "The request is not valid"),
    row("request_timeout", 408, "The request body stopped arriving"),
    row("uri_too_long", 414, "The request URL is too long"),
    row(
        "request_head_too_large",
        431,
        "The request line and headers are too large",
    ),
    row(
        "unsupported_media_type",
        415,
        "Unsupported request content type",
    ),
    row(
        "idempotency_key_in_use",
        409,
        "A request with this Idempotency-Key is still running",
    ),
    row(
        "idempotency_key_reused",
        422,
        "This Idempotency-Key was used with a different request",
    ),
    row("report_not_completed", 409, "The report is not completed"),
    // Analysis.
    row(
        "unknown_scorecard",
        422,
        "No such scorecard for this partner and environment",
    ),
    row(
        "scorecard_conflict",
        409,
        "This scorecard version exists with other content",
    ),
    row(
        "analysis_timeout",
        422,
        "The statement took too long to analyse",
    ),
    row(
        "integrity_failed",
        422,
        "The statement failed its integrity checks",
    ),
    row(
        "analysis_interrupted",
        500,
        "The analysis was interrupted; submit it again",
    ),
    // Service.
    row("not_implemented", 501, "Not implemented yet"),
    row(
        "service_unavailable",
        503,
        "The service is temporarily unavailable",
    ),
    row(
        "not_ready",
        503,
        "The server is not ready to serve (see /readyz's checks)",
    ),
    row("internal_error", 500, "Internal error"),
];

/// The row of `code`; unknown codes (an engine kind added later) fall back to `internal_error`
/// with status 500, and a test makes sure every known code is listed.
pub fn lookup(code: &str) -> &'static CodeInfo {
    CODES
        .iter()
        .find(|c| c.code == code)
        .or_else(|| CODES.iter().find(|c| c.code == "internal_error"))
        .unwrap_or(&CODES[0])
}

/// An error answered as a problem: a code from [`CODES`], a human `detail`, optional extension
/// members (`reportId`, `consentStatus`, …) and an optional `Retry-After` in seconds. Boxed, so
/// `Result<T, ApiError>` stays small.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError(Box<Inner>);

#[derive(Debug, Clone, PartialEq)]
struct Inner {
    code: &'static str,
    detail: String,
    extensions: Map<String, Value>,
    retry_after: Option<u64>,
    replayed: bool,
}

impl ApiError {
    /// An error with `code` (a row of [`CODES`]) and a one-sentence `detail` for people.
    pub fn new(code: &'static str, detail: impl Into<String>) -> Self {
        Self(Box::new(Inner {
            code,
            detail: detail.into(),
            extensions: Map::new(),
            retry_after: None,
            replayed: false,
        }))
    }

    /// `invalid_request` (400) with `detail`.
    pub fn invalid(detail: impl Into<String>) -> Self {
        Self::new("invalid_request", detail)
    }

    /// `internal_error` (500). The cause is logged, never sent to the client.
    pub fn internal(cause: &impl fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(
            "internal_error",
            "an internal error occurred; the requestId identifies it",
        )
    }

    /// Adds an extension member to the problem body (camelCase name).
    #[must_use]
    pub fn with(mut self, name: &str, value: impl Into<Value>) -> Self {
        self.0.extensions.insert(name.to_owned(), value.into());
        self
    }

    /// Sets the `Retry-After` header, seconds.
    #[must_use]
    pub fn retry_after(mut self, seconds: u64) -> Self {
        self.0.retry_after = Some(seconds);
        self
    }

    /// The `Retry-After` seconds set by [`ApiError::retry_after`], if any.
    #[must_use]
    pub fn retry_after_seconds(&self) -> Option<u64> {
        self.0.retry_after
    }

    /// Whether [`ApiError::replayed`] marked the answer as an idempotent replay.
    #[must_use]
    pub fn is_replayed(&self) -> bool {
        self.0.replayed
    }

    /// Marks the answer as an idempotent replay (header `Idempotent-Replayed: true`).
    #[must_use]
    pub fn replayed(mut self) -> Self {
        self.0.replayed = true;
        self
    }

    /// The stable code.
    pub fn code(&self) -> &'static str {
        self.0.code
    }

    /// The human detail.
    pub fn detail(&self) -> &str {
        &self.0.detail
    }

    /// Extension members of the problem body.
    pub fn extensions(&self) -> &Map<String, Value> {
        &self.0.extensions
    }

    /// The HTTP status of the code.
    pub fn status(&self) -> StatusCode {
        StatusCode::from_u16(lookup(self.0.code).status)
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR)
    }

    /// The title of the code.
    pub fn title(&self) -> &'static str {
        lookup(self.0.code).title
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.0.code, self.0.detail)
    }
}

impl std::error::Error for ApiError {}

impl From<alama_core::Error> for ApiError {
    fn from(e: alama_core::Error) -> Self {
        let mut out = Self::new(e.code(), e.message());
        match e.kind() {
            alama_core::ErrorKind::Malformed { page, line } => {
                if *page > 0 {
                    out = out.with("page", *page);
                }
                if *line > 0 {
                    out = out.with("line", *line);
                }
            }
            alama_core::ErrorKind::TooLarge { limit } => out = out.with("limit", *limit),
            _ => {}
        }
        out
    }
}

/// The repository's errors as the service answers them: an unreachable database (pool timed
/// out or closed, I/O) is `503 service_unavailable` with `Retry-After: 1`, anything else
/// `500 internal_error` (logged, never shown). Here rather than in [`crate::storage`], which
/// knows nothing of HTTP.
impl From<StorageError> for ApiError {
    fn from(e: StorageError) -> Self {
        if e.is_unavailable() {
            tracing::error!(error = %e, "database unavailable");
            Self::new(
                "service_unavailable",
                "the database is unavailable; retry shortly",
            )
            .retry_after(1)
        } else {
            Self::internal(&e)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_codes_come_first_and_in_order() {
        let first: Vec<_> = CODES
            .iter()
            .take(alama_core::ErrorKind::ALL_CODES.len())
            .map(|c| c.code)
            .collect();
        assert_eq!(first, alama_core::ErrorKind::ALL_CODES);
    }

    #[test]
    fn codes_are_unique_and_statuses_are_errors() {
        let mut seen = std::collections::HashSet::new();
        for c in CODES {
            assert!(seen.insert(c.code), "duplicate {}", c.code);
            assert!((400..=599).contains(&c.status), "{}", c.code);
            assert!(StatusCode::from_u16(c.status).is_ok());
        }
    }

    #[test]
    fn engine_errors_map_through_the_table() {
        let e = alama_core::Error::new(alama_core::ErrorKind::WrongPassword, "nope");
        let api = ApiError::from(e);
        assert_eq!(api.code(), "wrong_password");
        assert_eq!(api.status(), StatusCode::UNPROCESSABLE_ENTITY);
        let e = alama_core::Error::new(alama_core::ErrorKind::UnsupportedFormat, "png");
        assert_eq!(
            ApiError::from(e).status(),
            StatusCode::UNSUPPORTED_MEDIA_TYPE
        );
        let e = alama_core::Error::new(alama_core::ErrorKind::TooLarge { limit: 9 }, "big");
        let api = ApiError::from(e);
        assert_eq!(api.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(api.extensions()["limit"], 9);
        assert_eq!(lookup("no_such_code").code, "internal_error");
    }
}
