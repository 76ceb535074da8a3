//! Applications: `POST /v1/applications`, `GET /v1/applications/{applicationId}`,
//! `DELETE /v1/applications/{applicationId}` (the Live-only PDF is [`crate::api::pdf`]).
//!
//! An application is several statements of one applicant scored as one by the engine
//! (`alama_core::score_application`, docs/applications.md): overlaps read once and compared,
//! own transfers neither income nor spending, one score, and the affordability of the loan
//! terms when given. It works exactly as an analysis does (`crate::api::scores`): the record is
//! stored `processing` (id `app_…`, a row of the reports table), the engine runs within the
//! request, and it ends `completed` (`201`) or `failed` (the problem carries the
//! `applicationId`); the same `Idempotency-Key` rules, consent rules, integrity policy,
//! webhooks (`application.completed`), usage and erasure. Decisions (server/README.md,
//! "Applications"):
//!
//! - **Form.** One `statement` file part per statement, in order, at most
//!   [`super::application_form::MAX_STATEMENTS`] (`422 too_many_statements`); the i-th `password` part opens the i-th
//!   statement (an empty part: none), so that interleaved parts and generated clients that send
//!   arrays field by field both work. The statements together are at most the single-upload
//!   limit (`max_statement_bytes`, 10 MiB: `413 too_large`), so that an application holds no
//!   more memory than an analysis. Loan terms are the form fields `principal`, `tenorMonths`,
//!   `monthlyRate` or `totalCost`, and `fees` (decimal strings in the statements' currency,
//!   major units; docs/affordability.md); bad terms are `400 invalid_request`.
//! - **Id.** The engine's `applicationId` is a content address; the service's is `app_` + a
//!   ULID, as an analysis' `reportId` is the service's (the same statements may be submitted
//!   twice, under two consents). Each statement in `statements[]` keeps the engine's report id.
//! - **Idempotency.** The request fingerprint covers every statement's SHA-256 (as a set), the
//!   consent, the scorecard and the terms, never a password.

use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use utoipa::ToSchema;

use super::analysis::{self, Upload};
use super::application_form::{fingerprint, read_form};
use super::outcome::{Kind, json_response, load, render};
use super::report_doc::ApplicationDoc;
use super::submission;
use crate::admission::sniff;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::ids::{new_id, now_ms};
use crate::limits::format_name;
use crate::problem::Problem;
use crate::state::AppState;
use crate::storage::{Completed, EventOrigin, NewReport};

/// The `multipart/form-data` body of `POST /v1/applications` (for the OpenAPI document).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct ApplicationForm {
    /// The statements, one `statement` part each (1–5), in any order: M-Pesa PDFs (encrypted
    /// or not), CSV exports or canonical JSON, in one currency; together at most 10 MiB.
    #[schema(value_type = Vec<String>, format = Binary, min_items = 1, max_items = 5)]
    statement: Vec<Vec<u8>>,
    /// The passwords: the i-th `password` part opens the i-th statement; an empty part (or
    /// none) for a statement that needs none.
    password: Option<Vec<String>>,
    /// `cns_…` of a granted consent: required in Live, optional in Sandbox.
    #[schema(rename = "consentId")]
    consent_id: Option<String>,
    /// As for `POST /v1/scores/analyse`: a scorecard version of this partner and environment,
    /// or a built-in one; absent, the default of the statements' currency.
    scorecard: Option<String>,
    /// Loan terms: the principal asked, a decimal string in the statements' currency, major
    /// units (`"20000"`). With `tenorMonths`, the report carries `affordability`.
    principal: Option<String>,
    /// Loan terms: the number of monthly instalments, 1–360.
    #[schema(rename = "tenorMonths")]
    tenor_months: Option<String>,
    /// Loan terms: interest a month on the balance owed, a fraction (`"0.035"` = 3.5 %).
    #[schema(rename = "monthlyRate")]
    monthly_rate: Option<String>,
    /// Loan terms: a flat charge over the whole loan instead of a monthly rate, major units.
    #[schema(rename = "totalCost")]
    total_cost: Option<String>,
    /// Loan terms: one-off fees added to what is repaid, major units (default `"0"`).
    fees: Option<String>,
}

/// Uploads several statements of one applicant and scores them as one application.
#[utoipa::path(
    post, path = "/v1/applications", tag = "applications",
    request_body(content = ApplicationForm, content_type = "multipart/form-data"),
    params(("Idempotency-Key" = Option<String>, Header,
        description = "Optional, 1–255 visible ASCII characters: a retry with the same key and request answers the stored outcome")),
    responses(
        (status = 201, description = "Scored (`completed`)", body = ApplicationDoc, headers(
            ("Location" = String, description = "`/v1/applications/{applicationId}`"),
            ("Idempotent-Replayed" = String, description = "`true` when this is the stored answer to an earlier request with the same Idempotency-Key"),
        )),
        (status = 400, description = "Bad form, terms or header (`invalid_request`)", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No, bad or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 403, description = "Consent required / not granted", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "`consentId` not found", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Same Idempotency-Key still processing", body = Problem, content_type = "application/problem+json"),
        (status = 413, description = "Statements together over 10 MiB (`too_large`, `limit`)", body = Problem, content_type = "application/problem+json"),
        (status = 415, description = "A part is not a PDF, CSV or JSON statement (`unsupported_format`)", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "More than 5 statements (`too_many_statements`, `limit`); the application failed (`wrong_password`, `malformed_statement` naming the statement, `currency_mismatch` for statements in two currencies, `integrity_failed` under `reject_failed`, …; `applicationId` given); `unknown_scorecard`; or Idempotency-Key reused", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Rate limited (`Retry-After`)", body = Problem, content_type = "application/problem+json"),
        (status = 503, description = "Every upload slot busy (`service_unavailable`, `Retry-After`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    request: Request,
) -> Result<Response, ApiError> {
    // One upload slot: the statements together are within one upload's limit.
    let admitted = submission::admit(&state, request, "`statement` file parts").await?;
    let read_started = std::time::Instant::now();
    let form = read_form(admitted.multipart, state.limits.max_statement_bytes).await?;
    state.metrics.stage("read_upload", read_started.elapsed());
    let terms = form.terms.terms()?;
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
    let consent_id =
        super::consents::require_granted(&state, &caller, form.consent_id.as_deref()).await?;
    let cards = super::scorecards::resolve(
        &state.storage,
        &owner,
        form.scorecard.as_deref(),
        caller.has_default_scorecards,
    )
    .await?;
    let mut formats = Vec::new();
    for (i, statement) in form.statements.iter().enumerate() {
        let format = sniff(statement)
            .map_err(|e| ApiError::new(e.code(), format!("statement {}: {}", i + 1, e.detail())))?;
        formats.push(format_name(format));
    }
    formats.sort_unstable();
    formats.dedup();
    let new = NewReport {
        id: new_id("app"),
        owner,
        api_key_id: caller.key_id.clone(),
        consent_id,
        idempotency_key,
        request_fingerprint: fingerprint,
        statement_format: formats.join(","),
        statement_bytes: i64::try_from(form.statements.iter().map(Vec::len).sum::<usize>())
            .unwrap_or(i64::MAX),
        created_at: now_ms(),
    };
    if let Some(answer) = submission::claim(&state, &new).await? {
        return Ok(answer);
    }
    let mut passwords = form.passwords;
    passwords.resize(form.statements.len(), None);
    let uploads: Vec<Upload> = form.statements.into_iter().zip(passwords).collect();
    let id = new.id.clone();
    let row_key = match &new.consent_id {
        Some(_) => Some(crate::seen_before::row_key(state.fingerprint_key().await?)),
        None => None,
    };
    let engine_started = std::time::Instant::now();
    let analysed =
        analysis::run_application(&state, uploads, cards, terms, id.clone(), row_key).await;
    state.metrics.stage("engine", engine_started.elapsed());
    let store_started = std::time::Instant::now();
    let answer = match analysed {
        Ok((report, sketches)) => {
            finish(&state, &caller, new, report, sketches, &admitted.origin).await
        }
        Err(error) => Err(submission::fail(&state, &id, error).await?),
    };
    state.metrics.stage("store", store_started.elapsed());
    answer
}

/// Stores the engine's application `report` as the claimed record, the holder's name masked
/// and each statement (labelled by its position) compared with those seen before: completed
/// (`201`) or failed `integrity_failed` under `reject_failed`.
async fn finish(
    state: &AppState,
    caller: &Caller,
    claimed: NewReport,
    mut report: alama_core::ApplicationReport,
    sketches: Vec<crate::seen_before::Sketch>,
    origin: &EventOrigin,
) -> Result<Response, ApiError> {
    if let Some(name) = report.statement.holder_name.take() {
        report.statement.holder_name = Some(crate::privacy::mask_name(&name));
    }
    let labelled = sketches
        .into_iter()
        .enumerate()
        .map(|(i, s)| (Some(format!("statement {}", i + 1)), s))
        .collect();
    submission::seen_before(state, &claimed, &mut report.integrity, labelled).await?;
    let json = report.to_json();
    submission::store(
        state,
        caller,
        claimed,
        Completed::of_application(&report, &json),
        &report.integrity,
        "a statement of the application failed its integrity checks, or two disagree (a \
         critical finding) and this partner's integrity policy is reject_failed; see \
         `integrity`",
        origin,
    )
    .await
}

/// Fetches an application: `processing`, `completed` or `failed`.
#[utoipa::path(
    get, path = "/v1/applications/{applicationId}", tag = "applications",
    params(("applicationId" = String, Path, description = "`app_…`")),
    responses(
        (status = 200, description = "The application", body = ApplicationDoc),
        (status = 401, description = "No, bad or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such application for this partner and environment (`application_not_found`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let record = load(&state, &caller, Kind::Application, &id).await?;
    Ok(json_response(StatusCode::OK, &render(&record)?))
}

/// Erases an application (right to erasure), as `DELETE /v1/scores/{reportId}` erases a report:
/// its content and its statements' fingerprints are deleted; a stub stays for usage counts.
#[utoipa::path(
    delete, path = "/v1/applications/{applicationId}", tag = "applications",
    params(("applicationId" = String, Path, description = "`app_…`")),
    responses(
        (status = 204, description = "Erased"),
        (status = 401, description = "No, bad or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such application (or already erased)", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Still processing (`report_not_completed`)", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn erase(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    super::outcome::erase(&state, &caller, Kind::Application, &id).await
}

/// The application's report read as a statement's report (`reportId` its `applicationId`):
/// the same score, factors, reason codes, insights, integrity and combined overview, for what
/// shows a report (the portal's report page). The statements read and the affordability are
/// the application's alone.
pub fn combined_report(a: alama_core::ApplicationReport) -> alama_core::Report {
    alama_core::Report {
        report_id: a.application_id,
        status: a.status,
        score: a.score,
        band: a.band,
        statement_period: a.statement_period,
        factors: a.factors,
        insights: a.insights,
        reason_codes: a.reason_codes,
        scorecard_version: a.scorecard_version,
        scorecard_sha256: a.scorecard_sha256,
        integrity: a.integrity,
        statement: a.statement,
    }
}
