//! The stored outcome of an upload, shared by analyses (`/v1/scores`, `rpt_…`) and
//! applications (`/v1/applications`, `app_…`), which are rows of one table and differ here only
//! in names ([`Kind`]): the body of a stored record, the `201` answer, the replay of an
//! `Idempotency-Key`, loading (failing first what a stopped server left `processing`) and
//! erasure.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use crate::auth::Caller;
use crate::error::{ApiError, lookup};
use crate::ids::{now_ms, rfc3339};
use crate::limits::MAX_ID_BYTES;
use crate::problem::REPLAYED_HEADER;
use crate::state::AppState;
use crate::storage::{ReportRecord, kind_of};

/// Error codes that free the `Idempotency-Key` so that a retry runs again: failures of the
/// service, not of the statement, and the password failures (the password is not part of the
/// stored fingerprint, so a retry with the right password must not replay the wrong one).
pub const TRANSIENT: [&str; 5] = [
    "internal_error",
    "service_unavailable",
    "analysis_interrupted",
    "wrong_password",
    "password_required",
];

/// What a stored record is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// One statement, `rpt_…`, `/v1/scores/{reportId}`.
    Analysis,
    /// Several statements of one applicant, `app_…`, `/v1/applications/{applicationId}`.
    Application,
}

impl Kind {
    /// The kind of record `id` (by its prefix).
    pub fn of(id: &str) -> Self {
        match kind_of(id) {
            "application" => Self::Application,
            _ => Self::Analysis,
        }
    }

    /// The JSON field of its id: `reportId` or `applicationId`.
    pub fn id_field(self) -> &'static str {
        match self {
            Self::Analysis => "reportId",
            Self::Application => "applicationId",
        }
    }

    /// Its `404` problem.
    pub fn not_found(self, id: &str) -> ApiError {
        match self {
            Self::Analysis => ApiError::new("report_not_found", format!("no report {id:?}")),
            Self::Application => {
                ApiError::new("application_not_found", format!("no application {id:?}"))
            }
        }
    }

    /// `report` or `application`, in messages.
    pub fn noun(self) -> &'static str {
        match self {
            Self::Analysis => "report",
            Self::Application => "application",
        }
    }

    fn location(self, id: &str) -> String {
        match self {
            Self::Analysis => format!("/v1/scores/{id}"),
            Self::Application => format!("/v1/applications/{id}"),
        }
    }
}

/// The body of a stored record: for `completed`, the engine's report (its fields in the
/// engine's order, `reportId` or `applicationId` the service's) followed by the service's
/// `consentId`, `environment`, `createdAt`, `completedAt`; for `processing`/`failed`, the same
/// shape with `score`, `band` and `statementPeriod` null (an application's `statements` empty
/// and `affordability` null), and `error` on failures.
///
/// # Errors
/// `internal_error` when the stored JSON cannot be read back.
pub fn render(record: &ReportRecord) -> Result<Value, ApiError> {
    let kind = Kind::of(&record.id);
    let mut body = match record.report_json.as_deref() {
        Some(text) if record.status == "completed" => {
            serde_json::from_str::<Map<String, Value>>(text).map_err(|e| ApiError::internal(&e))?
        }
        _ => {
            let mut m = Map::new();
            m.insert(kind.id_field().into(), json!(record.id));
            m.insert("status".into(), json!(record.status));
            for field in ["score", "band", "statementPeriod"] {
                m.insert(field.into(), Value::Null);
            }
            m.insert("factors".into(), json!([]));
            m.insert("insights".into(), json!([]));
            if kind == Kind::Application {
                m.insert("statements".into(), json!([]));
                m.insert("affordability".into(), Value::Null);
            }
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

/// `body` as JSON with `status`.
pub fn json_response(status: StatusCode, body: &Value) -> Response {
    (status, axum::Json(body)).into_response()
}

/// The `201` of a completed record, with its `Location` (and `Idempotent-Replayed: true` for
/// a replay).
///
/// # Errors
/// Those of [`render`].
pub fn created(record: &ReportRecord, replayed: bool) -> Result<Response, ApiError> {
    let mut response = json_response(StatusCode::CREATED, &render(record)?);
    let headers = response.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&Kind::of(&record.id).location(&record.id)) {
        headers.insert(header::LOCATION, v);
    }
    if replayed {
        headers.insert(REPLAYED_HEADER, HeaderValue::from_static("true"));
    }
    Ok(response)
}

/// The problem of a failed record, with its id.
pub fn failure(record: &ReportRecord) -> ApiError {
    let code = lookup(record.error_code.as_deref().unwrap_or("internal_error")).code;
    ApiError::new(code, record.error_detail.clone().unwrap_or_default())
        .with(Kind::of(&record.id).id_field(), record.id.clone())
}

/// The stored outcome of an earlier request with the same `Idempotency-Key`; `Ok(None)` when
/// that earlier analysis was interrupted (its server stopped): it is failed and its key freed,
/// and this request runs the analysis at once.
///
/// # Errors
/// `idempotency_key_reused` when `fingerprint` is not the earlier request's (an analysis'
/// key used for an application counts as another request); the stored failure (replayed);
/// `idempotency_key_in_use` while it runs.
pub async fn replay(
    state: &AppState,
    existing: ReportRecord,
    fingerprint: &str,
) -> Result<Option<Response>, ApiError> {
    let kind = Kind::of(&existing.id);
    if existing.request_fingerprint != fingerprint {
        return Err(ApiError::new(
            "idempotency_key_reused",
            format!(
                "this Idempotency-Key was used for {} {} with a different request \
                 (statements, consent, scorecard or terms); use a new key",
                kind.noun(),
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
                    "{} {} for this Idempotency-Key is still processing",
                    kind.noun(),
                    existing.id
                ),
            )
            .with(kind.id_field(), existing.id)
            .retry_after(1))
        }
    }
}

/// Fails record `id` if its analysis was interrupted (too old, or its server stopped
/// heartbeating); returns whether it did.
async fn fail_if_interrupted(state: &AppState, id: &str) -> Result<bool, ApiError> {
    let now = now_ms();
    let (stale, heartbeat) = crate::limits::interrupted_cutoffs(&state.limits, now);
    Ok(state
        .storage
        .fail_if_interrupted(id, stale, heartbeat, now)
        .await?)
}

/// Record `id` of the caller, of `kind` (`404 report_not_found` / `application_not_found`
/// otherwise), failing it first if it was left `processing` by a stopped server.
///
/// # Errors
/// The `404`; database errors.
pub async fn load(
    state: &AppState,
    caller: &Caller,
    kind: Kind,
    id: &str,
) -> Result<ReportRecord, ApiError> {
    let owner = caller.owner();
    let not_found = || kind.not_found(id);
    if id.len() > MAX_ID_BYTES || Kind::of(id) != kind {
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

/// Erases record `id` of `kind` (right to erasure): `204`; `404` when there is none (or it
/// was erased); `409 report_not_completed` while it is processing.
///
/// # Errors
/// As described; database errors.
pub async fn erase(
    state: &AppState,
    caller: &Caller,
    kind: Kind,
    id: &str,
) -> Result<Response, ApiError> {
    if id.len() > MAX_ID_BYTES || Kind::of(id) != kind {
        return Err(kind.not_found(id));
    }
    match state
        .storage
        .erase_report(&caller.owner(), id, now_ms())
        .await?
    {
        None => Err(kind.not_found(id)),
        Some(false) => Err(ApiError::new(
            "report_not_completed",
            format!(
                "{} {id} is still processing; erase it once it has finished",
                kind.noun()
            ),
        )
        .with(kind.id_field(), id.to_owned())),
        Some(true) => Ok(StatusCode::NO_CONTENT.into_response()),
    }
}
