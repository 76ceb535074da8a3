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

use axum::extract::{Multipart, Path, Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use hmac::{Hmac, KeyInit, Mac};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use crate::admission::sniff;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::ids::{new_id, now_ms};
use crate::limits::{MAX_ID_BYTES, MAX_PASSWORD_BYTES, format_name};
use crate::problem::Problem;
use crate::state::AppState;

use super::report_doc::ScoreReport;
use super::upload::{multipart_error, read_capped, read_text};
use super::{analysis, consents, submission};
use crate::storage::{Completed, EventOrigin, NewReport};

use super::outcome::{Kind, json_response, load, render};

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
    let admitted = submission::admit(&state, request, "a `statement` file part").await?;
    let read_started = std::time::Instant::now();
    let form = read_form(
        admitted.multipart,
        state.limits.max_statement_bytes,
        admitted.size_hint,
    )
    .await?;
    state.metrics.stage("read_upload", read_started.elapsed());
    // Only a request that can be retried under its key needs telling apart from another: one
    // without a key stores no fingerprint (nothing derived from the statement that is not
    // needed; and the SHA-256 of the upload was ~5 % of the service's CPU time per request).
    let idempotency_key = admitted.idempotency_key;
    let fingerprint = match idempotency_key {
        Some(_) => fingerprint(state.fingerprint_key().await?, &form)?,
        None => String::new(),
    };
    if let Some(answer) =
        submission::answered_before(&state, &caller, idempotency_key.as_deref(), &fingerprint)
            .await?
    {
        return Ok(answer);
    }
    let owner = caller.owner();
    let consent_id = consents::require_granted(&state, &caller, form.consent_id.as_deref()).await?;
    let cards = crate::api::scorecards::resolve(
        &state.storage,
        &owner,
        form.scorecard.as_deref(),
        caller.has_default_scorecards,
    )
    .await?;
    let format = sniff(&form.statement)?;
    let new = NewReport {
        id: new_id("rpt"),
        owner,
        api_key_id: caller.key_id.clone(),
        consent_id,
        idempotency_key,
        request_fingerprint: fingerprint,
        statement_format: format_name(format).to_owned(),
        statement_bytes: i64::try_from(form.statement.len()).unwrap_or(i64::MAX),
        created_at: now_ms(),
    };
    if let Some(answer) = submission::claim(&state, &new).await? {
        return Ok(answer);
    }
    run_and_store(&state, &caller, new, form, cards, &admitted.origin).await
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
    // Statements seen before are compared only under a consent (crate::seen_before).
    let row_key = match &new.consent_id {
        Some(_) => Some(crate::seen_before::row_key(state.fingerprint_key().await?)),
        None => None,
    };
    let analysed = analysis::run(
        state,
        form.statement,
        form.password,
        cards,
        report_id.clone(),
        row_key,
    )
    .await;
    let metrics = state.metrics.clone();
    metrics.stage("engine", engine_started.elapsed());
    let format = new.statement_format.clone();
    let store_started = std::time::Instant::now();
    let answer = match analysed {
        Ok((report, sketch)) => {
            let wallet = report.statement.provider.clone();
            let answer = finish(state, caller, new, report, sketch, origin).await;
            metrics.analysis(
                answer.as_ref().err().map(ApiError::code),
                Some(&wallet),
                &format,
            );
            answer
        }
        Err(error) => {
            metrics.analysis(Some(error.code()), None, &format);
            Err(submission::fail(state, &report_id, error).await?)
        }
    };
    metrics.stage("store", store_started.elapsed());
    answer
}

/// Stores the engine's `report` (scored under the claimed report's id, see [`analysis::run`])
/// as report `claimed`, the holder's name masked and the statement compared with those seen
/// before: completed (`201`), or failed `integrity_failed` under the partner's `reject_failed`
/// policy. Its webhook events keep the request `origin`.
async fn finish(
    state: &AppState,
    caller: &Caller,
    claimed: NewReport,
    mut report: alama_core::Report,
    sketch: Option<crate::seen_before::Sketch>,
    origin: &EventOrigin,
) -> Result<Response, ApiError> {
    debug_assert_eq!(report.report_id, claimed.id, "scored under the claimed id");
    crate::privacy::mask_report(&mut report);
    let sketches = sketch.map(|s| (None, s)).into_iter().collect();
    submission::seen_before(state, &claimed, &mut report.integrity, sketches).await?;
    let json = report.to_json();
    submission::store(
        state,
        caller,
        claimed,
        Completed::of_report(&report, &json),
        &report.integrity,
        "the statement failed its integrity checks (a critical finding: rows or pages \
         missing, or the file edited) and this partner's integrity policy is reject_failed; \
         see `integrity`",
        origin,
    )
    .await
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
    let record = load(&state, &caller, Kind::Analysis, &id).await?;
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
    super::outcome::erase(&state, &caller, Kind::Analysis, &id).await
}
