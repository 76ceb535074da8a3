//! Score reports: `POST /v1/scores/analyse`, `GET /v1/scores/{reportId}` (the Live-only
//! `GET /v1/scores/{reportId}/pdf` is [`crate::api::pdf`]).
//!
//! An analysis runs within its request: the report is stored `processing`, the engine runs, and
//! the report is stored `completed` (answered `201` with the report) or `failed` (answered with
//! the error's problem, which carries the `reportId`; the failed report can be fetched). With an
//! `Idempotency-Key`, a retried POST answers the stored outcome (header
//! `Idempotent-Replayed: true`) instead of scoring twice; the same key with a different request
//! is `422 idempotency_key_reused`, and while the first is still running `409
//! idempotency_key_in_use`. Failures of the service itself (`internal_error`,
//! `service_unavailable`, `analysis_interrupted`) and password failures (`wrong_password`,
//! `password_required`) free the key so that a retry runs again.

use std::pin::Pin;

use axum::body::{Body, Bytes, HttpBody};
use axum::extract::multipart::{Field, MultipartError};
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use hmac::{Hmac, KeyInit, Mac};
use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::admission::sniff;
use crate::auth::Caller;
use crate::error::{ApiError, lookup};
use crate::ids::{new_id, now_ms, rfc3339};
use crate::limits::{
    DRAIN_LIMIT, DRAIN_TIME, Limits, MAX_ID_BYTES, MAX_IDEMPOTENCY_KEY_BYTES, MAX_PASSWORD_BYTES,
    format_name,
};
use crate::problem::Problem;
use crate::state::AppState;

use super::report_doc::ScoreReport;
use super::{analysis, consents};
use crate::storage::{Claim, EventOrigin, NewReport, ReportRecord};

use crate::problem::REPLAYED_HEADER;

/// Error codes that free the `Idempotency-Key` so that a retry runs again: failures of the
/// service, not of the statement, and the password failures (the password is not part of the
/// stored fingerprint, so a retry with the right password must not replay the wrong one).
const TRANSIENT: [&str; 5] = [
    "internal_error",
    "service_unavailable",
    "analysis_interrupted",
    "wrong_password",
    "password_required",
];

/// The `multipart/form-data` body of `POST /v1/scores/analyse` (for the OpenAPI document).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct AnalyseForm {
    /// The statement file: an M-Pesa PDF (encrypted or not), a CSV export, or the canonical
    /// JSON; at most 10 MiB. The file name and part content type are ignored: the type is read
    /// from the content.
    #[schema(value_type = String, format = Binary)]
    statement: Vec<u8>,
    /// The PDF password (Safaricom: normally the customer's ID number).
    password: Option<String>,
    /// `cns_…` of a granted consent: required in Live, optional in Sandbox.
    #[schema(rename = "consentId")]
    consent_id: Option<String>,
    /// The version of a scorecard stored for this partner and environment (`alama scorecards
    /// add`), or a built-in scorecard's version. Absent: the partner's default in this
    /// environment for the statement's currency, else the built-in scorecard of that currency
    /// (KES, UGX, GHS, LSL; another currency: `422 unsupported_currency`). Unknown:
    /// `422 unknown_scorecard`; of another currency than the statement: `422 currency_mismatch`.
    scorecard: Option<String>,
}

struct Form {
    statement: Vec<u8>,
    password: Option<String>,
    consent_id: Option<String>,
    scorecard: Option<String>,
}

fn multipart_error(e: &MultipartError) -> ApiError {
    if crate::body_timeout::is_body_timeout(e) {
        ApiError::new("request_timeout", e.body_text())
    } else if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::new("too_large", "the request body exceeds the upload limit")
    } else {
        ApiError::invalid(format!("unreadable multipart body: {}", e.body_text()))
    }
}

/// Reads a field, refusing it as soon as it passes `max` bytes.
async fn read_capped(
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
async fn discard_rest(field: &mut Field<'_>) {
    let _ = tokio::time::timeout(DRAIN_TIME, async {
        while let Ok(Some(_)) = field.chunk().await {}
    })
    .await;
}

/// Reads and drops a refused request's body, up to [`DRAIN_LIMIT`] bytes and [`DRAIN_TIME`].
async fn drain(mut body: Body) {
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

fn expects_continue(headers: &HeaderMap) -> bool {
    headers
        .get(header::EXPECT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("100-continue"))
}

async fn read_text(field: &mut Field<'_>, max: usize) -> Result<Option<String>, ApiError> {
    let bytes = read_capped(field, max, "invalid_request", 0).await?;
    let text = String::from_utf8(bytes)
        .map_err(|_| ApiError::invalid("form fields must be UTF-8 text"))?;
    let text = text.trim().to_owned();
    Ok((!text.is_empty()).then_some(text))
}

/// `503 service_unavailable` when every upload slot stayed taken for `upload_queue_wait`.
fn uploads_busy(limits: &Limits) -> ApiError {
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
fn content_length(headers: &HeaderMap) -> Option<u64> {
    headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
}

/// Reads the form; `size_hint` (the request's length, capped at `max_statement`) sizes the
/// statement buffer once instead of letting it double past the file's size.
async fn read_form(
    mut multipart: Multipart,
    max_statement: usize,
    size_hint: usize,
) -> Result<Form, ApiError> {
    let mut statement = None;
    let mut password = None;
    let mut consent_id = None;
    let mut scorecard = None;
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(&e))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        match name.as_str() {
            "statement" if statement.is_none() => {
                statement =
                    Some(read_capped(&mut field, max_statement, "too_large", size_hint).await?);
            }
            "password" if password.is_none() => {
                password = read_text(&mut field, MAX_PASSWORD_BYTES).await?;
            }
            "consentId" if consent_id.is_none() => {
                consent_id = read_text(&mut field, MAX_ID_BYTES).await?;
            }
            "scorecard" if scorecard.is_none() => {
                scorecard = read_text(&mut field, MAX_ID_BYTES).await?;
            }
            "statement" | "password" | "consentId" | "scorecard" => {
                return Err(ApiError::invalid(format!(
                    "the form field `{name}` is repeated"
                )));
            }
            _ => {
                return Err(ApiError::invalid(format!(
                    "unknown form field `{name}`: expected `statement` (file), `password`, `consentId`, `scorecard`"
                )));
            }
        }
    }
    let statement =
        statement.ok_or_else(|| ApiError::invalid("the form has no `statement` file part"))?;
    Ok(Form {
        statement,
        password,
        consent_id,
        scorecard,
    })
}

fn check_content_length(headers: &HeaderMap, limits: &Limits) -> Result<(), ApiError> {
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

fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
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

/// `v2:` + hex HMAC-SHA256, under the server's fingerprint key, of the statement's SHA-256,
/// the consent id and (when given) the `scorecard` field. The password is deliberately not an input: nothing stored may help
/// recover it (an ID number is a small search space, and whoever reads the database may read
/// a stored key too). A retry under the same `Idempotency-Key` with another password is told
/// apart by the outcome instead: `wrong_password` and `password_required` free the key.
fn fingerprint(key: &[u8], form: &Form) -> Result<String, ApiError> {
    request_fingerprint_with(
        key,
        &form.statement,
        form.consent_id.as_deref(),
        form.scorecard.as_deref(),
    )
}

/// The stored fingerprint of an analyse request without a `scorecard` field (see
/// `fingerprint`): `v2:` + hex HMAC-SHA256 under `key` of the statement's SHA-256 and the
/// consent id.
///
/// # Errors
/// `internal_error` if the HMAC cannot be keyed (it takes any key length).
pub fn request_fingerprint(
    key: &[u8],
    statement: &[u8],
    consent_id: Option<&str>,
) -> Result<String, ApiError> {
    request_fingerprint_with(key, statement, consent_id, None)
}

/// [`request_fingerprint`] of a request that may name a scorecard. Without one the bytes
/// hashed are exactly those of the fingerprints stored before scorecards existed, so their
/// retries still replay; with one, its name is hashed too, so the same `Idempotency-Key` with
/// another scorecard is `idempotency_key_reused`.
///
/// # Errors
/// `internal_error` if the HMAC cannot be keyed (it takes any key length).
pub fn request_fingerprint_with(
    key: &[u8],
    statement: &[u8],
    consent_id: Option<&str>,
    scorecard: Option<&str>,
) -> Result<String, ApiError> {
    let digest = Sha256::digest(statement);
    let mut mac = Hmac::<Sha256>::new_from_slice(key).map_err(|e| ApiError::internal(&e))?;
    mac.update(b"alama request fingerprint v2\0");
    mac.update(&digest);
    mac.update(&[0]);
    mac.update(consent_id.unwrap_or_default().as_bytes());
    if let Some(scorecard) = scorecard {
        mac.update(b"\0scorecard\0");
        mac.update(scorecard.as_bytes());
    }
    Ok(format!(
        "v2:{}",
        crate::ids::hex(&mac.finalize().into_bytes())
    ))
}

/// The report body of a stored report: for `completed`, the engine's report (its fields in the
/// engine's order, `reportId` the service's) followed by the service's `consentId`,
/// `environment`, `createdAt`, `completedAt`; for `processing`/`failed`, the same shape with
/// `score`, `band` and `statementPeriod` null, and `error` on failures.
pub fn render(record: &ReportRecord) -> Result<Value, ApiError> {
    let mut body = match record.report_json.as_deref() {
        Some(text) if record.status == "completed" => {
            serde_json::from_str::<Map<String, Value>>(text).map_err(|e| ApiError::internal(&e))?
        }
        _ => {
            let mut m = Map::new();
            m.insert("reportId".into(), json!(record.id));
            m.insert("status".into(), json!(record.status));
            for field in ["score", "band", "statementPeriod"] {
                m.insert(field.into(), Value::Null);
            }
            m.insert("factors".into(), json!([]));
            m.insert("insights".into(), json!([]));
            // A report refused by the integrity policy keeps the engine's verdict.
            if let Some(integrity) = record
                .report_json
                .as_deref()
                .and_then(|text| serde_json::from_str::<Map<String, Value>>(text).ok())
                .and_then(|mut report| report.remove("integrity"))
            {
                m.insert("integrity".into(), integrity);
            }
            if let Some(code) = &record.error_code {
                m.insert(
                    "error".into(),
                    json!({ "code": code, "detail": record.error_detail }),
                );
            }
            m
        }
    };
    body.insert("consentId".into(), json!(record.consent_id));
    body.insert("environment".into(), json!(record.owner.environment));
    body.insert("createdAt".into(), json!(rfc3339(record.created_at)));
    body.insert(
        "completedAt".into(),
        json!(record.completed_at.map(rfc3339)),
    );
    Ok(Value::Object(body))
}

fn json_response(status: StatusCode, body: &Value) -> Response {
    (status, axum::Json(body)).into_response()
}

fn created(record: &ReportRecord, replayed: bool) -> Result<Response, ApiError> {
    let mut response = json_response(StatusCode::CREATED, &render(record)?);
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&format!("/v1/scores/{}", record.id)) {
        headers.insert(header::LOCATION, v);
    }
    if replayed {
        headers.insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
    }
    Ok(response)
}

fn failure(record: &ReportRecord) -> ApiError {
    let code = lookup(record.error_code.as_deref().unwrap_or("internal_error")).code;
    ApiError::new(code, record.error_detail.clone().unwrap_or_default())
        .with("reportId", record.id.clone())
}

/// The stored outcome of an earlier request with the same `Idempotency-Key`; `Ok(None)` when
/// that earlier analysis was interrupted (its server stopped): it is failed and its key freed,
/// and this request runs the analysis at once.
async fn replay(
    state: &AppState,
    existing: ReportRecord,
    fingerprint: &str,
) -> Result<Option<Response>, ApiError> {
    if existing.request_fingerprint != fingerprint {
        return Err(ApiError::new(
            "idempotency_key_reused",
            format!(
                "this Idempotency-Key was used for report {} with a different statement, \
                 consent or scorecard; use a new key",
                existing.id
            ),
        ));
    }
    match existing.status.as_str() {
        "completed" => created(&existing, true).map(Some),
        "failed" => Err(failure(&existing).replayed()),
        _ => {
            if fail_if_interrupted(state, &existing.id).await? {
                return Ok(None);
            }
            Err(ApiError::new(
                "idempotency_key_in_use",
                format!(
                    "report {} for this Idempotency-Key is still processing",
                    existing.id
                ),
            )
            .with("reportId", existing.id)
            .retry_after(1))
        }
    }
}

/// Uploads a statement and scores it.
#[utoipa::path(
    post, path = "/v1/scores/analyse", tag = "scores",
    request_body(content = AnalyseForm, content_type = "multipart/form-data"),
    params(("Idempotency-Key" = Option<String>, Header,
        description = "Optional, 1–255 visible ASCII characters: a retry with the same key and request answers the stored outcome")),
    responses(
        (status = 201, description = "Scored (`completed`)", body = ScoreReport, headers(
            ("Location" = String, description = "`/v1/scores/{reportId}`"),
            ("Idempotent-Replayed" = String, description = "`true` when this is the stored answer to an earlier request with the same Idempotency-Key"),
        )),
        (status = 400, description = "Bad form or header (`invalid_request`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No, bad or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Consent required / not granted", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`consentId` not found", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Same Idempotency-Key still processing", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Upload over 10 MiB (`too_large`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "Not a PDF, CSV or JSON statement (`unsupported_format`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "Analysis failed (`wrong_password`, `password_required`, `malformed_statement`, `currency_mismatch`, `unsupported_currency`, `integrity_failed` under the `reject_failed` policy, …; `reportId` given), `scorecard` names no scorecard of this partner and environment (`unknown_scorecard`, no report stored), or Idempotency-Key reused", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Rate limited (`Retry-After`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every upload slot busy (`service_unavailable`, `Retry-After`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn analyse(
    State(state): State<AppState>,
    caller: Caller,
    request: Request,
) -> Result<Response, ApiError> {
    if let Err(too_large) = check_content_length(request.headers(), &state.limits) {
        // Refused from the header alone. A client waiting for `100 Continue` sends nothing
        // more; others are still sending, so the body is drained (bounded) before answering.
        if !expects_continue(request.headers()) {
            drain(request.into_body()).await;
        }
        return Err(too_large);
    }
    let idempotency_key = idempotency_key(request.headers())?;
    let origin = request
        .extensions()
        .get::<EventOrigin>()
        .cloned()
        .unwrap_or_default();
    // The body is read only while holding an upload slot: waiting costs a socket, not memory.
    let Ok(Ok(_upload_slot)) = tokio::time::timeout(
        state.limits.upload_queue_wait,
        state.uploads.clone().acquire_owned(),
    )
    .await
    else {
        if !expects_continue(request.headers()) {
            drain(request.into_body()).await;
        }
        return Err(uploads_busy(&state.limits));
    };
    let size_hint = content_length(request.headers())
        .map_or(0, |n| usize::try_from(n).unwrap_or(usize::MAX))
        .min(state.limits.max_statement_bytes);
    let read_started = std::time::Instant::now();
    let multipart = Multipart::from_request(request, &state)
        .await
        .map_err(|e| {
            ApiError::new(
                "unsupported_media_type",
                format!(
                    "send multipart/form-data with a `statement` file part ({})",
                    e.body_text()
                ),
            )
        })?;
    let form = read_form(multipart, state.limits.max_statement_bytes, size_hint).await?;
    state.metrics.stage("read_upload", read_started.elapsed());
    // Only a request that can be retried under its key needs telling apart from another: one
    // without a key stores no fingerprint (nothing derived from the statement that is not
    // needed; and the SHA-256 of the upload was ~5 % of the service's CPU time per request).
    let fingerprint = match idempotency_key {
        Some(_) => fingerprint(state.fingerprint_key().await?, &form)?,
        None => String::new(),
    };
    let owner = caller.owner();
    if let Some(key) = &idempotency_key
        && let Some(existing) = state.storage.report_by_idempotency_key(&owner, key).await?
        && let Some(answer) = replay(&state, existing, &fingerprint).await?
    {
        return Ok(answer);
    }
    let consent_id = consents::require_granted(&state, &caller, form.consent_id.as_deref()).await?;
    let cards = crate::api::scorecards::resolve(
        &state.storage,
        &owner,
        form.scorecard.as_deref(),
        caller.has_default_scorecards,
    )
    .await?;
    let format = sniff(&form.statement)?;
    let report_id = new_id("rpt");
    let new = NewReport {
        id: report_id.clone(),
        owner: owner.clone(),
        api_key_id: caller.key_id.clone(),
        consent_id,
        idempotency_key,
        request_fingerprint: fingerprint.clone(),
        statement_format: format_name(format).to_owned(),
        statement_bytes: i64::try_from(form.statement.len()).unwrap_or(i64::MAX),
        created_at: now_ms(),
    };
    let claim = state.storage.claim_report(&new).await?;
    if let Claim::Existing(existing) = claim {
        // Another request took the key between the lookup and the claim.
        return match replay(&state, *existing, &fingerprint).await? {
            Some(answer) => Ok(answer),
            None => Err(ApiError::new(
                "idempotency_key_in_use",
                "another request with this Idempotency-Key is starting; retry",
            )
            .retry_after(1)),
        };
    }
    run_and_store(&state, &caller, new, form, cards, &origin).await
}

/// Runs the engine on the claimed report `new` and stores its outcome, recording the
/// analysis and the duration of both stages in the metrics; `origin` (the request) goes with
/// the report's webhook events.
async fn run_and_store(
    state: &AppState,
    caller: &Caller,
    new: NewReport,
    form: Form,
    cards: crate::api::scorecards::CardChoice,
    origin: &EventOrigin,
) -> Result<Response, ApiError> {
    let report_id = new.id.clone();
    let engine_started = std::time::Instant::now();
    let analysed = analysis::run(
        state,
        form.statement,
        form.password,
        cards,
        report_id.clone(),
    )
    .await;
    let metrics = state.metrics.clone();
    metrics.stage("engine", engine_started.elapsed());
    let format = new.statement_format.clone();
    let store_started = std::time::Instant::now();
    let answer = match analysed {
        Ok(report) => {
            let wallet = report.statement.provider.clone();
            let answer = finish(state, caller, new, report, origin).await;
            metrics.analysis(
                answer.as_ref().err().map(ApiError::code),
                Some(&wallet),
                &format,
            );
            answer
        }
        Err(error) => {
            metrics.analysis(Some(error.code()), None, &format);
            let release = TRANSIENT.contains(&error.code());
            state
                .storage
                .fail_report(&report_id, error.code(), error.detail(), now_ms(), release)
                .await?;
            Err(error.with("reportId", report_id))
        }
    };
    metrics.stage("store", store_started.elapsed());
    answer
}

/// Stores the engine's `report` (scored under the claimed report's id, see [`analysis::run`])
/// as report `claimed`: completed (`201`), or failed `integrity_failed` under the partner's
/// `reject_failed` policy. Its webhook events keep the request `origin`.
async fn finish(
    state: &AppState,
    caller: &Caller,
    claimed: NewReport,
    mut report: alama_core::Report,
    origin: &EventOrigin,
) -> Result<Response, ApiError> {
    let owner = caller.owner();
    let report_id = claimed.id;
    debug_assert_eq!(report.report_id, report_id, "scored under the claimed id");
    crate::privacy::mask_report(&mut report);
    let json = report.to_json();
    if caller.integrity_policy.rejects(&report) {
        let detail = "the statement failed its integrity checks (a critical finding: \
                          rows or pages missing, or the file edited) and this partner's \
                          integrity policy is reject_failed; see `integrity`";
        state
            .storage
            .reject_report(&report_id, &json, "integrity_failed", detail, now_ms())
            .await?;
        return Err(ApiError::new("integrity_failed", detail)
            .with("reportId", report_id)
            .with("integrity", crate::policy::verdict(&report)));
    }
    let completed_at = now_ms();
    let completed = state
        .storage
        .complete_report(&owner, &report_id, &report, &json, completed_at, origin)
        .await?;
    let record = if completed {
        // What the database now holds, without reading it back (a query, and the report's
        // JSON parsed from the row, on every analysis).
        ReportRecord {
            id: report_id,
            owner,
            consent_id: claimed.consent_id,
            request_fingerprint: claimed.request_fingerprint,
            status: "completed".to_owned(),
            report_json: Some(json),
            error_code: None,
            error_detail: None,
            created_at: claimed.created_at,
            completed_at: Some(completed_at),
        }
    } else {
        // No longer `processing` (failed as interrupted meanwhile, or erased): as stored.
        state
            .storage
            .report(&owner, &report_id)
            .await?
            .ok_or_else(|| ApiError::internal(&format!("report {report_id} vanished")))?
    };
    created(&record, false)
}

/// Fetches a report: `processing`, `completed` or `failed`.
#[utoipa::path(
    get, path = "/v1/scores/{reportId}", tag = "scores",
    params(("reportId" = String, Path, description = "`rpt_…`")),
    responses(
        (status = 200, description = "The report", body = ScoreReport),
        (status = 401, description = "No, bad or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such report for this partner and environment", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let record = load(&state, &caller, &id).await?;
    Ok(json_response(StatusCode::OK, &render(&record)?))
}

/// Erases a report (right to erasure): its content is deleted for good; a stub without
/// personal data stays for usage counts.
#[utoipa::path(
    delete, path = "/v1/scores/{reportId}", tag = "scores",
    params(("reportId" = String, Path, description = "`rpt_…`")),
    responses(
        (status = 204, description = "Erased"),
        (status = 401, description = "No, bad or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such report (or already erased)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Still processing (`report_not_completed`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn erase(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let not_found = || ApiError::new("report_not_found", format!("no report {id:?}"));
    if id.len() > MAX_ID_BYTES {
        return Err(not_found());
    }
    match state
        .storage
        .erase_report(&caller.owner(), &id, now_ms())
        .await?
    {
        None => Err(not_found()),
        Some(false) => Err(ApiError::new(
            "report_not_completed",
            format!("report {id} is still processing; erase it once it has finished"),
        )
        .with("reportId", id.clone())),
        Some(true) => Ok(StatusCode::NO_CONTENT.into_response()),
    }
}

/// Fails report `id` if its analysis was interrupted (too old, or its server stopped
/// heartbeating); returns whether it did.
async fn fail_if_interrupted(state: &AppState, id: &str) -> Result<bool, ApiError> {
    let now = now_ms();
    let (stale, heartbeat) = crate::limits::interrupted_cutoffs(&state.limits, now);
    Ok(state
        .storage
        .fail_if_interrupted(id, stale, heartbeat, now)
        .await?)
}

/// Report `id` of the caller (`404 report_not_found` otherwise), failing it first if it was
/// left `processing` by a stopped server.
pub(crate) async fn load(
    state: &AppState,
    caller: &Caller,
    id: &str,
) -> Result<ReportRecord, ApiError> {
    let owner = caller.owner();
    let not_found = || ApiError::new("report_not_found", format!("no report {id:?}"));
    if id.len() > MAX_ID_BYTES {
        return Err(not_found());
    }
    let record = state
        .storage
        .report(&owner, id)
        .await?
        .ok_or_else(not_found)?;
    if record.status == "processing" && fail_if_interrupted(state, id).await? {
        return state
            .storage
            .report(&owner, id)
            .await?
            .ok_or_else(not_found);
    }
    Ok(record)
}
