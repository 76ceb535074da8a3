//! Reading an upload (`POST /v1/scores/analyse`, `POST /v1/applications`): multipart fields
//! capped as they stream in, refused bodies drained (bounded) so the client reads the answer,
//! the upload slot's `503`, and the `Idempotency-Key` header.

use std::pin::Pin;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::multipart::{Field, MultipartError};
use axum::http::{HeaderMap, StatusCode, header};

use crate::error::ApiError;
use crate::limits::{DRAIN_LIMIT, DRAIN_TIME, Limits, MAX_IDEMPOTENCY_KEY_BYTES};

pub(crate) fn multipart_error(e: &MultipartError) -> ApiError {
    if crate::body_timeout::is_body_timeout(e) {
        ApiError::new("request_timeout", e.body_text())
    } else if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new("too_large", "the request body exceeds the upload limit")
    } else {
        ApiError::invalid(format!("unreadable multipart body: {}", e.body_text()))
    }
}

/// Reads a field, refusing it as soon as it passes `max` bytes.
pub(crate) async fn read_capped(
    field: &mut Field<'_>,
    max: usize,
    code: &'static str,
    size_hint: usize,
) -> Result<Vec<u8>, ApiError> {
    let mut out = Vec::with_capacity(size_hint.min(max));
    while let Some(chunk) = field.chunk().await.map_err(|e| multipart_error(&e))? {
        if out.len() + chunk.len() > max {
            let name = field.name().unwrap_or_default().to_owned();
            discard_rest(field).await;
            return Err(
                ApiError::new(code, format!("`{name}` is larger than {max} bytes"))
                    .with("limit", max),
            );
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// Reads and drops the rest of an oversized part (the body is capped at [`DRAIN_LIMIT`] and
/// this takes at most [`DRAIN_TIME`]), so that a client still sending reads the `413` instead
/// of a reset connection.
pub(crate) async fn discard_rest(field: &mut Field<'_>) {
    let _ = tokio::time::timeout(DRAIN_TIME, async {
        while let Ok(Some(_)) = field.chunk().await {}
    })
    .await;
}

/// Reads and drops a refused request's body, up to [`DRAIN_LIMIT`] bytes and [`DRAIN_TIME`].
pub(crate) async fn drain(mut body: Body) {
    let _ = tokio::time::timeout(DRAIN_TIME, async {
        let mut seen = 0usize;
        while seen <= DRAIN_LIMIT {
            match std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
                Some(Ok(frame)) => seen += frame.data_ref().map_or(0, Bytes::len),
                _ => break,
            }
        }
    })
    .await;
}

pub(crate) fn expects_continue(headers: &HeaderMap) -> bool {
    headers
        .get(header::EXPECT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"))
}

pub(crate) async fn read_text(
    field: &mut Field<'_>,
    max: usize,
) -> Result<Option<String>, ApiError> {
    let bytes = read_capped(field, max, "invalid_request", 0).await?;
    let text = String::from_utf8(bytes)
        .map_err(|_| ApiError::invalid("form fields must be UTF-8 text"))?;
    let text = text.trim().to_owned();
    Ok((!text.is_empty()).then_some(text))
}

/// `503 service_unavailable` when every upload slot stayed taken for `upload_queue_wait`.
pub(crate) fn uploads_busy(limits: &Limits) -> ApiError {
    ApiError::new(
        "service_unavailable",
        format!(
            "the server is analysing as many uploads as it takes at once ({}); retry shortly",
            limits.max_uploads_in_flight
        ),
    )
    .retry_after(2)
}

/// `Content-Length` of the request, when given and numeric.
pub(crate) fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
}

pub(crate) fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get("idempotency-key") else {
        return Ok(None);
    };
    let key = value
        .to_str()
        .ok()
        .map(str::trim)
        .filter(|k| !k.is_empty() && k.len() <= MAX_IDEMPOTENCY_KEY_BYTES)
        .filter(|k| k.bytes().all(|b| b.is_ascii_graphic()))
        .ok_or_else(|| {
            ApiError::invalid(format!(
                "Idempotency-Key must be 1–{MAX_IDEMPOTENCY_KEY_BYTES} visible ASCII characters"
            ))
        })?;
    Ok(Some(key.to_owned()))
}

/// `413 too_large` when the request's `Content-Length` is over the upload limit.
pub(crate) fn check_content_length(headers: &HeaderMap, limits: &Limits) -> Result<(), ApiError> {
    let max = limits.max_request_bytes();
    match content_length(headers) {
        Some(n) if n > max as u64 => Err(ApiError::new(
            "too_large",
            format!(
                "the request is {n} bytes; the limit is {max} bytes (a statement of at most {} \
                 bytes plus the form's other fields)",
                limits.max_statement_bytes
            ),
        )
        .with("limit", max)),
        _ => Ok(()),
    }
}
