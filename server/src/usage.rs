//! `GET /v1/usage` (Live only): request volume, success rates and billing usage. The figures
//! come with issue 7, counted from the durable `api_requests` and `reports` rows; this module
//! already answers Sandbox keys with `403 live_mode_required`.

use axum::response::Response;

use crate::auth::Caller;
use crate::error::ApiError;
use crate::problem::Problem;

/// Usage of the calling partner in Live.
#[utoipa::path(
    get, path = "/v1/usage", tag = "usage",
    responses(
        (status = 403, description = "Sandbox key (`live_mode_required`)", body = Problem, content_type = "application/problem+json"),
        (status = 501, description = "Not built yet", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn get(caller: Caller) -> Result<Response, ApiError> {
    caller.require_live("GET /v1/usage")?;
    Err(ApiError::new(
        "not_implemented",
        "usage figures are not built yet",
    ))
}
