//! RFC 9457 problem details: every error body is `application/problem+json` with `type`,
//! `title`, `status`, `detail`, `instance`, plus the stable `code` and the `requestId`.
//!
//! `type` is `urn:alama:problem:<code>`: a stable identifier, not a web page (RFC 9457 §3.1.1
//! allows non-resolvable URIs); the codes are listed in the README.

use axum::body::Body;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use serde_json::{Map, Value};
use utoipa::ToSchema;

use crate::error::ApiError;

/// The media type of every error body.
pub const CONTENT_TYPE: &str = "application/problem+json";

/// Response header carrying the request id (set on every response by the router's middleware).
pub const REQUEST_ID_HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// Response header set on idempotent replays (`Idempotent-Replayed: true`).
pub const REPLAYED_HEADER: HeaderName = HeaderName::from_static("idempotent-replayed");

/// Prefix of the problem `type` URI; the code follows.
pub const TYPE_PREFIX: &str = "urn:alama:problem:";

/// An error body (RFC 9457). Extension members such as `reportId` (a failed analysis),
/// `consentStatus` or `limit` are added where they help.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Problem {
    /// `urn:alama:problem:<code>`.
    #[serde(rename = "type")]
    pub type_uri: String,
    /// Short summary, the same for every occurrence of the code.
    pub title: String,
    /// The HTTP status code.
    pub status: u16,
    /// What went wrong in this occurrence, for people.
    pub detail: String,
    /// The request path.
    pub instance: String,
    /// Stable machine-readable code, e.g. `wrong_password`.
    pub code: String,
    /// The id of this request, also in the `X-Request-Id` header.
    pub request_id: String,
    /// Extension members (`reportId`, `consentStatus`, `limit`, `page`, `line`), flattened.
    #[serde(flatten)]
    #[schema(ignore)]
    pub extensions: Map<String, Value>,
}

impl Problem {
    /// The problem of `error` for the request `request_id` at path `instance`.
    pub fn of(error: &ApiError, request_id: &str, instance: &str) -> Self {
        Self {
            type_uri: format!("{TYPE_PREFIX}{}", error.code()),
            title: error.title().to_owned(),
            status: error.status().as_u16(),
            detail: error.detail().to_owned(),
            instance: instance.to_owned(),
            code: error.code().to_owned(),
            request_id: request_id.to_owned(),
            extensions: error.extensions().clone(),
        }
    }
}

/// The JSON text of `error`'s problem.
pub fn body(error: &ApiError, request_id: &str, instance: &str) -> String {
    serde_json::to_string(&Problem::of(error, request_id, instance)).unwrap_or_default()
}

/// Rewrites an error response's body with the request id and path (called once per request by
/// the middleware in [`crate::router`]). Responses that are not problems are left alone.
pub fn finalize(response: &mut Response, request_id: &str, instance: &str) {
    if let Some(error) = response.extensions_mut().remove::<ApiError>() {
        let text = body(&error, request_id, instance);
        response
            .headers_mut()
            .remove(axum::http::header::CONTENT_LENGTH);
        *response.body_mut() = Body::from(text);
    }
}

/// Whether `response` is an error that is not yet a problem: an extractor's or the router's
/// own rejection (a path segment that is not UTF-8, a JSON body that does not parse, …), with
/// a `text/plain` body.
pub fn is_plain_error(response: &Response) -> bool {
    let status = response.status();
    (status.is_client_error() || status.is_server_error())
        && response.extensions().get::<ApiError>().is_none()
        && response
            .headers()
            .get(header::CONTENT_TYPE)
            .is_none_or(|v| v.as_bytes() != CONTENT_TYPE.as_bytes())
}

/// The code of a plain error response of `status`.
pub fn code_for_status(status: StatusCode) -> &'static str {
    match status.as_u16() {
        401 => "invalid_api_key",
        404 => "not_found",
        405 => "method_not_allowed",
        408 => "request_timeout",
        413 => "too_large",
        415 => "unsupported_media_type",
        429 => "rate_limited",
        503 => "service_unavailable",
        500..=599 => "internal_error",
        _ => "invalid_request",
    }
}

/// Turns a plain error response (see [`is_plain_error`]) into a problem, its text (at most
/// 1 KiB, never for server errors) as the `detail`. An extractor's rejection of a body that
/// stopped arriving (its text says so: extractors flatten the [`crate::body_timeout`] error to
/// text) is `408 request_timeout`, whatever its status (axum answers `400` for a body it could
/// not buffer). With `keep` (the portal's own pages), any other plain error is given back as
/// it was.
pub async fn from_plain(response: Response, keep: bool) -> Response {
    let (parts, body) = response.into_parts();
    let bytes = axum::body::to_bytes(body, PLAIN_TEXT_LIMIT)
        .await
        .unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).trim().to_owned();
    if text.contains(crate::body_timeout::TIMEOUT_TEXT) {
        return ApiError::new("request_timeout", text).into_response();
    }
    if keep {
        return Response::from_parts(parts, Body::from(bytes));
    }
    let status = parts.status;
    let code = code_for_status(status);
    let text = if text.len() > 1024 {
        String::new()
    } else {
        text
    };
    let detail = if status.is_server_error() || text.is_empty() {
        status
            .canonical_reason()
            .unwrap_or("the request could not be handled")
            .to_owned()
    } else {
        text
    };
    ApiError::new(code, detail).into_response()
}

impl IntoResponse for ApiError {
    /// A problem response; the request middleware fills in `requestId` and `instance`
    /// ([`finalize`]), which is why the error rides along in the extensions.
    fn into_response(self) -> Response {
        let status = self.status();
        let body = body(&self, "", "");
        let mut response = (status, body).into_response();
        let headers = response.headers_mut();
        headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(CONTENT_TYPE));
        if let Some(seconds) = self.retry_after_seconds() {
            headers.insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        if status == StatusCode::UNAUTHORIZED {
            headers.insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static("Bearer realm=\"alama\""),
            );
        }
        if self.is_replayed() {
            headers.insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
        }
        response.extensions_mut().insert(self);
        response
    }
}

/// How much of a plain error's body is read (rejection texts are a line).
const PLAIN_TEXT_LIMIT: usize = 64 * 1024;

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn plain_rejections_become_problems() {
        let plain = (StatusCode::BAD_REQUEST, "Invalid URL: not UTF-8").into_response();
        assert!(is_plain_error(&plain));
        let problem = from_plain(plain, false).await;
        assert!(!is_plain_error(&problem));
        assert_eq!(problem.status(), StatusCode::BAD_REQUEST);
        let error = problem.extensions().get::<ApiError>().cloned();
        assert_eq!(error.as_ref().map(ApiError::code), Some("invalid_request"));
        assert_eq!(
            error.as_ref().map(ApiError::detail),
            Some("Invalid URL: not UTF-8")
        );
        assert!(!is_plain_error(&StatusCode::OK.into_response()));
    }

    #[tokio::test]
    async fn a_body_that_stopped_arriving_is_408_even_on_kept_pages() {
        let text = format!(
            "Failed to buffer the request body: {}: nothing received for 15 s",
            crate::body_timeout::TIMEOUT_TEXT
        );
        for keep in [false, true] {
            let plain = (StatusCode::BAD_REQUEST, text.clone()).into_response();
            let answer = from_plain(plain, keep).await;
            assert_eq!(answer.status(), StatusCode::REQUEST_TIMEOUT);
        }
        let page = (StatusCode::UNPROCESSABLE_ENTITY, "<p>form</p>").into_response();
        let kept = from_plain(page, true).await;
        assert_eq!(kept.status(), StatusCode::UNPROCESSABLE_ENTITY);
        assert!(kept.extensions().get::<ApiError>().is_none());
    }
}
