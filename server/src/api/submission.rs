//! The life of an upload that the engine scores, shared by analyses
//! ([`crate::api::scores::analyse`]) and applications ([`crate::api::applications::create`]):
//! admitted under an upload slot (refused from `Content-Length`, or `503` when no slot frees
//! up, the body drained either way), answered from an earlier request with the same
//! `Idempotency-Key`, claimed `processing`, then stored `failed` or, after the statements seen
//! before ([`crate::seen_before`]) and the partner's integrity policy, `completed`.

use axum::extract::{FromRequest, Multipart, Request};
use axum::response::Response;
use tokio::sync::OwnedSemaphorePermit;

use super::outcome::{Kind, TRANSIENT, created, replay};
use super::upload::{
    check_content_length, content_length, drain, expects_continue, idempotency_key, uploads_busy,
};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::ids::now_ms;
use crate::seen_before::Sketch;
use crate::state::AppState;
use crate::storage::{Claim, Completed, EventOrigin, NewReport, ReportRecord};

/// An upload let in: its form to read, its `Idempotency-Key`, the request's `origin` (for
/// webhook events), and the upload slot it holds until dropped.
pub struct Admitted {
    /// The multipart form, unread.
    pub multipart: Multipart,
    /// The request's `Idempotency-Key`, checked.
    pub idempotency_key: Option<String>,
    /// The request id and trace its webhook events keep.
    pub origin: EventOrigin,
    /// The request's `Content-Length` capped at the upload limit: a buffer size hint.
    pub size_hint: usize,
    _slot: OwnedSemaphorePermit,
}

/// Lets `request` in: `413 too_large` from its `Content-Length`, `400` for a bad
/// `Idempotency-Key`, `503 service_unavailable` when no upload slot frees up within
/// `upload_queue_wait` (the body is read only while holding a slot: waiting costs a socket, not
/// memory), `415 unsupported_media_type` unless it is `multipart/form-data` (`what` says which
/// parts it should have).
///
/// # Errors
/// As described.
pub async fn admit(state: &AppState, request: Request, what: &str) -> Result<Admitted, ApiError> {
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
    let Ok(Ok(slot)) = tokio::time::timeout(
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
    let multipart = Multipart::from_request(request, state).await.map_err(|e| {
        ApiError::new(
            "unsupported_media_type",
            format!("send multipart/form-data with {what} ({})", e.body_text()),
        )
    })?;
    Ok(Admitted {
        multipart,
        idempotency_key,
        origin,
        size_hint,
        _slot: slot,
    })
}

/// The stored answer to an earlier request of `caller` with `key` (see [`replay`]), if any.
///
/// # Errors
/// Those of [`replay`]; database errors.
pub async fn answered_before(
    state: &AppState,
    caller: &Caller,
    key: Option<&str>,
    fingerprint: &str,
) -> Result<Option<Response>, ApiError> {
    let Some(key) = key else {
        return Ok(None);
    };
    match state
        .storage
        .report_by_idempotency_key(&caller.owner(), key)
        .await?
    {
        Some(existing) => replay(state, existing, fingerprint).await,
        None => Ok(None),
    }
}

/// Claims `new` (`processing`); `Some` answer when another request took its key between the
/// lookup and the claim and has an outcome to replay.
///
/// # Errors
/// `idempotency_key_in_use` while that other request starts; those of [`replay`].
pub async fn claim(state: &AppState, new: &NewReport) -> Result<Option<Response>, ApiError> {
    let Claim::Existing(existing) = state.storage.claim_report(new).await? else {
        return Ok(None);
    };
    match replay(state, *existing, &new.request_fingerprint).await? {
        Some(answer) => Ok(Some(answer)),
        None => Err(ApiError::new(
            "idempotency_key_in_use",
            "another request with this Idempotency-Key is starting; retry",
        )
        .retry_after(1)),
    }
}

/// Stores `error` as the outcome of claimed record `id` (freeing its key for the
/// [`TRANSIENT`] codes) and returns it with the record's id (`reportId` or `applicationId`).
///
/// # Errors
/// Database errors.
pub async fn fail(state: &AppState, id: &str, error: ApiError) -> Result<ApiError, ApiError> {
    let release = TRANSIENT.contains(&error.code());
    state
        .storage
        .fail_report(id, error.code(), error.detail(), now_ms(), release)
        .await?;
    Ok(error.with(Kind::of(id).id_field(), id.to_owned()))
}

/// Compares the statements of claimed record `claimed` (their `sketches`, each with its
/// label) with the partner's earlier ones and adds the findings to `integrity`; nothing
/// without a consent or a sketch (see [`crate::seen_before`]).
///
/// # Errors
/// Database errors.
pub async fn seen_before(
    state: &AppState,
    claimed: &NewReport,
    integrity: &mut alama_core::report::Integrity,
    sketches: Vec<(Option<String>, Sketch)>,
) -> Result<(), ApiError> {
    let Some(consent_id) = &claimed.consent_id else {
        return Ok(());
    };
    if sketches.is_empty() {
        return Ok(());
    }
    let findings = crate::seen_before::check_and_keep(
        &state.storage,
        &claimed.owner,
        consent_id,
        &claimed.id,
        &sketches,
        now_ms(),
    )
    .await?;
    crate::seen_before::add_findings(integrity, findings);
    Ok(())
}

/// Stores the engine's outcome of claimed record `claimed`: failed `integrity_failed` (with
/// `rejected`, the problem's detail, and the verdict) when the partner's policy rejects its
/// `integrity`, else completed (`201`, its webhook events keeping the request `origin`).
///
/// # Errors
/// The `integrity_failed` problem; database errors.
pub async fn store(
    state: &AppState,
    caller: &Caller,
    claimed: NewReport,
    report: Completed<'_>,
    integrity: &alama_core::report::Integrity,
    rejected: &'static str,
    origin: &EventOrigin,
) -> Result<Response, ApiError> {
    let owner = caller.owner();
    let id = claimed.id;
    if caller.integrity_policy.rejects_integrity(integrity) {
        state
            .storage
            .reject_report(&id, report.json, "integrity_failed", rejected, now_ms())
            .await?;
        return Err(ApiError::new("integrity_failed", rejected)
            .with(Kind::of(&id).id_field(), id)
            .with("integrity", crate::policy::verdict_of(integrity)));
    }
    let completed_at = now_ms();
    let completed = state
        .storage
        .complete_report(&owner, &id, report, completed_at, origin)
        .await?;
    let record = if completed {
        // What the database now holds, without reading it back (a query, and the report's
        // JSON parsed from the row, on every analysis).
        ReportRecord {
            id,
            owner,
            consent_id: claimed.consent_id,
            request_fingerprint: claimed.request_fingerprint,
            status: "completed".to_owned(),
            report_json: Some(report.json.to_owned()),
            error_code: None,
            error_detail: None,
            created_at: claimed.created_at,
            completed_at: Some(completed_at),
        }
    } else {
        // No longer `processing` (failed as interrupted meanwhile, or erased): as stored.
        state
            .storage
            .report(&owner, &id)
            .await?
            .ok_or_else(|| ApiError::internal(&format!("record {id} vanished")))?
    };
    created(&record, false)
}
