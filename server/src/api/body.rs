//! Request bodies of the partner API's JSON endpoints: reading one within [`MAX_JSON_BYTES`]
//! into its type, and the length rule of its text fields. Shared by [`super::consents`] and
//! [`super::consent_claims`], the API's JSON endpoints (the others take multipart forms).

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use crate::limits::MAX_JSON_BYTES;

/// Parses a JSON body (at most [`MAX_JSON_BYTES`]); an empty body is `T::default()` when
/// `empty` is given. A body that stopped arriving is `408 request_timeout`.
pub(super) fn parse_json<T: DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
    empty: Option<T>,
) -> Result<T, ApiError> {
    let body = body.map_err(|e| {
        if crate::body_timeout::is_body_timeout(&e) {
            ApiError::new("request_timeout", e.body_text())
        } else if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                "too_large",
                format!("JSON bodies are limited to {MAX_JSON_BYTES} bytes"),
            )
        } else {
            ApiError::invalid(e.body_text())
        }
    })?;
    if body.len() > MAX_JSON_BYTES {
        return Err(ApiError::new(
            "too_large",
            format!("JSON bodies are limited to {MAX_JSON_BYTES} bytes"),
        ));
    }
    if body.iter().all(u8::is_ascii_whitespace)
        && let Some(value) = empty
    {
        return Ok(value);
    }
    serde_json::from_slice(&body).map_err(|e| ApiError::invalid(format!("invalid JSON body: {e}")))
}

/// Checks that text field `field` has `min`–`max` characters and no control characters: a
/// `400 invalid_request` naming the field otherwise.
pub(super) fn check_len(field: &str, value: &str, min: usize, max: usize) -> Result<(), ApiError> {
    let n = value.chars().count();
    if n < min || n > max {
        return Err(ApiError::invalid(format!(
            "`{field}` must be {min}–{max} characters (got {n})"
        )));
    }
    if value.chars().any(char::is_control) {
        return Err(ApiError::invalid(format!(
            "`{field}` must not hold control characters"
        )));
    }
    Ok(())
}
