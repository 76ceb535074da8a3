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
//!   [`MAX_STATEMENTS`] (`422 too_many_statements`); the i-th `password` part opens the i-th
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

use std::str::FromStr;

use axum::extract::{Multipart, Path, Request, State};
use axum::http::StatusCode;
use axum::response::Response;
use hmac::{Hmac, KeyInit, Mac};
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

use super::analysis::{self, Upload};
use super::outcome::{Kind, json_response, load, render};
use super::report_doc::ApplicationDoc;
use super::submission;
use super::upload::{multipart_error, read_capped, read_text};
use crate::admission::sniff;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::ids::{new_id, now_ms};
use crate::limits::{MAX_ID_BYTES, MAX_PASSWORD_BYTES, format_name};
use crate::problem::Problem;
use crate::state::AppState;
use crate::storage::{Completed, EventOrigin, NewReport};

/// Most statements in one application (two SIMs, or a year of one line in consecutive
/// exports, fit).
pub const MAX_STATEMENTS: usize = 5;

/// The `multipart/form-data` body of `POST /v1/applications` (for the OpenAPI document).
#[derive(Debug, ToSchema)]
#[allow(dead_code)]
pub struct ApplicationForm {
    /// The statements, one `statement` part each (1–5), in any order: M-Pesa PDFs (encrypted
    /// or not), CSV exports or canonical JSON, in one currency; together at most 10 MiB.
    #[schema(value_type = Vec<String>, format = Binary)]
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

/// The form's loan-term fields as sent.
#[derive(Debug, Default)]
struct TermFields {
    principal: Option<String>,
    tenor_months: Option<String>,
    monthly_rate: Option<String>,
    total_cost: Option<String>,
    fees: Option<String>,
}

impl TermFields {
    fn slot(&mut self, name: &str) -> Option<&mut Option<String>> {
        match name {
            "principal" => Some(&mut self.principal),
            "tenorMonths" => Some(&mut self.tenor_months),
            "monthlyRate" => Some(&mut self.monthly_rate),
            "totalCost" => Some(&mut self.total_cost),
            "fees" => Some(&mut self.fees),
            _ => None,
        }
    }

    /// The terms (`None` without principal and tenor), checked by the engine.
    fn terms(&self) -> Result<Option<alama_core::Terms>, ApiError> {
        let decimal = |name: &str, v: &Option<String>| {
            v.as_deref()
                .map(|t| {
                    Decimal::from_str(t).map_err(|_| {
                        ApiError::invalid(format!("`{name}` must be a decimal number, got {t:?}"))
                    })
                })
                .transpose()
        };
        let tenor = self
            .tenor_months
            .as_deref()
            .map(|t| {
                t.parse::<u32>().map_err(|_| {
                    ApiError::invalid(format!("`tenorMonths` must be a whole number, got {t:?}"))
                })
            })
            .transpose()?;
        alama_core::Terms::from_options(
            decimal("principal", &self.principal)?,
            tenor,
            decimal("monthlyRate", &self.monthly_rate)?,
            decimal("totalCost", &self.total_cost)?,
            decimal("fees", &self.fees)?,
        )
        .map_err(|e| ApiError::invalid(e.message().to_owned()))
    }
}

struct Form {
    statements: Vec<Vec<u8>>,
    passwords: Vec<Option<String>>,
    consent_id: Option<String>,
    scorecard: Option<String>,
    terms: TermFields,
}

async fn read_form(mut multipart: Multipart, max_total: usize) -> Result<Form, ApiError> {
    let mut form = Form {
        statements: Vec::new(),
        passwords: Vec::new(),
        consent_id: None,
        scorecard: None,
        terms: TermFields::default(),
    };
    let mut total = 0usize;
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(&e))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        match name.as_str() {
            "statement" => {
                if form.statements.len() == MAX_STATEMENTS {
                    return Err(ApiError::new(
                        "too_many_statements",
                        format!("an application takes at most {MAX_STATEMENTS} statements"),
                    )
                    .with("limit", MAX_STATEMENTS));
                }
                let left = max_total - total;
                let bytes = read_capped(&mut field, left, "too_large", 0)
                    .await
                    .map_err(|e| {
                        if e.code() == "too_large" {
                            ApiError::new(
                                "too_large",
                                format!(
                                    "the application's statements together are larger than \
                                     {max_total} bytes"
                                ),
                            )
                            .with("limit", max_total)
                        } else {
                            e
                        }
                    })?;
                total += bytes.len();
                form.statements.push(bytes);
            }
            "password" => {
                if form.passwords.len() == MAX_STATEMENTS {
                    return Err(ApiError::invalid("more `password` parts than statements"));
                }
                form.passwords
                    .push(read_text(&mut field, MAX_PASSWORD_BYTES).await?);
            }
            "consentId" | "scorecard" => {
                let slot = if name == "consentId" {
                    &mut form.consent_id
                } else {
                    &mut form.scorecard
                };
                if slot.is_some() {
                    return Err(ApiError::invalid(format!(
                        "the form field `{name}` is repeated"
                    )));
                }
                *slot = read_text(&mut field, MAX_ID_BYTES).await?;
            }
            other => {
                let value = read_text(&mut field, MAX_ID_BYTES).await?;
                let Some(slot) = form.terms.slot(other) else {
                    return Err(ApiError::invalid(format!(
                        "unknown form field `{name}`: expected `statement` (files), `password`, \
                         `consentId`, `scorecard`, `principal`, `tenorMonths`, `monthlyRate`, \
                         `totalCost`, `fees`"
                    )));
                };
                if slot.is_some() {
                    return Err(ApiError::invalid(format!(
                        "the form field `{name}` is repeated"
                    )));
                }
                *slot = value;
            }
        }
    }
    if form.statements.is_empty() {
        return Err(ApiError::invalid(
            "the form has no `statement` file part: an application needs 1 to 5 statements",
        ));
    }
    if form.passwords.len() > form.statements.len() {
        return Err(ApiError::invalid(format!(
            "{} `password` parts for {} statements: the i-th password opens the i-th statement",
            form.passwords.len(),
            form.statements.len()
        )));
    }
    Ok(form)
}

/// `app1:` + hex HMAC-SHA256, under the server's fingerprint key, of every statement's SHA-256
/// (sorted: the same statements in another order are the same request), the consent id, the
/// scorecard field and the terms as given. Never a password (see
/// `crate::api::scores::request_fingerprint`).
fn fingerprint(key: &[u8], form: &Form) -> Result<String, ApiError> {
    let mut digests: Vec<_> = form.statements.iter().map(Sha256::digest).collect();
    digests.sort_unstable();
    let mut mac = Hmac::<Sha256>::new_from_slice(key).map_err(|e| ApiError::internal(&e))?;
    mac.update(b"alama application fingerprint v1\0");
    for d in &digests {
        mac.update(d);
    }
    let t = &form.terms;
    for part in [
        &form.consent_id,
        &form.scorecard,
        &t.principal,
        &t.tenor_months,
        &t.monthly_rate,
        &t.total_cost,
        &t.fees,
    ] {
        mac.update(b"\0");
        mac.update(part.as_deref().map_or(b"-".as_slice(), str::as_bytes));
    }
    Ok(format!(
        "app1:{}",
        crate::ids::hex(&mac.finalize().into_bytes())
    ))
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
