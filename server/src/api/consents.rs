//! Consent sessions: `POST /v1/consents`, `GET /v1/consents/{consentId}`,
//! `POST /v1/consents/{consentId}/grant`, `POST /v1/consents/{consentId}/revoke`.
//!
//! A consent is created `pending` with the exact notice text the customer must be shown (and
//! its SHA-256). The partner records the customer's agreement with `grant`, echoing the notice
//! hash as proof of what was agreed to; `revoke` withdraws it. `expired` is derived from
//! `expiresAt`. Analysis in Live needs a `granted`, unexpired consent of the same partner and
//! environment whose scopes include `statement_analysis`.
//!
//! The notice is worded for the wallet whose statement will be analysed when the partner names
//! it (`wallet`): the wallet's name and its country's data protection law and authority
//! ([`super::consent_notice`]); without it, in general terms. How this maps to Kenya's Data
//! Protection Act, 2019 is in the README.
//!
//! (Over 400 lines with its tests: the four handlers of one resource and the request and
//! response schemas the OpenAPI document shows for them; the notice is in
//! [`super::consent_notice`], the body reading in `body`.)

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body::{check_len, parse_json};
use super::consent_notice::{notice_text, sha256_hex};
use crate::auth::Caller;
use crate::error::ApiError;
use crate::ids::{new_id, now_ms, rfc3339};
use crate::keys::Environment;
use crate::limits::MAX_ID_BYTES;
use crate::problem::Problem;
use crate::state::AppState;
use crate::storage::{ConsentRecord, Owner};

/// Version of the notice template below ("2026-12": worded for the statement's wallet and its
/// country's law; "2026-11" said "M-Pesa" and Kenya's Act whatever the wallet).
pub const NOTICE_VERSION: &str = "2026-12";
/// The only purpose this service processes statements for.
pub const PURPOSE: &str = "credit_scoring";
/// Scope: read the uploaded statement and compute the score report (required).
pub const SCOPE_ANALYSIS: &str = "statement_analysis";
/// Scope: share the report as a PDF with the people who decide on the application.
pub const SCOPE_SHARING: &str = "report_sharing";
/// How a customer may have agreed.
pub const GRANT_METHODS: [&str; 6] = ["app", "web", "ussd", "sms", "in_person", "signed_form"];

const DAY_MS: i64 = 86_400_000;

/// Body of `POST /v1/consents`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateConsent {
    /// The partner's reference for the customer or application, 1–128 characters.
    pub customer_reference: String,
    /// Customer's name, optional, at most 200 characters.
    pub customer_name: Option<String>,
    /// Customer's phone number, optional: digits, spaces and a leading `+`, at most 20.
    pub customer_phone: Option<String>,
    /// Must be `credit_scoring`.
    pub purpose: String,
    /// Scopes asked for; default `["statement_analysis"]`. Allowed: `statement_analysis`
    /// (required), `report_sharing`.
    pub scopes: Option<Vec<String>>,
    /// Days until the consent expires, 1–365; default 30.
    pub expires_in_days: Option<u32>,
    /// The wallet whose statement will be analysed, as reports name it (`mpesa`,
    /// `airtel-money-ug`, `mtn-momo-gh`, `vodacom-mpesa-ls`): the notice then names the wallet
    /// ("your Airtel Money Uganda statement") and its country's data protection law and
    /// authority. Absent: the notice says "your mobile-money statement" and names no law. Only
    /// the notice uses it; an analysis under the consent is not checked against it.
    /// Another code is a 400 naming the codes this version knows.
    #[schema(example = "airtel-money-ug")]
    pub wallet: Option<String>,
}

/// Body of `POST /v1/consents/{consentId}/grant`: the customer's recorded agreement.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GrantConsent {
    /// How the customer agreed: `app`, `web`, `ussd`, `sms`, `in_person` or `signed_form`.
    pub method: String,
    /// SHA-256 (hex) of the notice text the customer was shown: must equal `notice.sha256`.
    pub notice_sha256: String,
    /// The partner's evidence reference (e.g. an OTP confirmation id, a form number), at most
    /// 500 characters.
    pub evidence: Option<String>,
}

/// Body of `POST /v1/consents/{consentId}/revoke` (optional).
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct RevokeConsent {
    /// Why, at most 500 characters.
    pub reason: Option<String>,
    /// Also erase every report analysed under this consent, and the customer's name and phone
    /// number on it (the customer's right to erasure; the consent's evidence and a keyed
    /// fingerprint of the name and number stay, as proof of consent). Default false.
    pub erase_reports: Option<bool>,
}

/// Status of a consent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ConsentStatus {
    /// Created; the customer has not agreed yet.
    Pending,
    /// The customer agreed; analysis allowed until `expiresAt`.
    Granted,
    /// Withdrawn; no further analysis.
    Revoked,
    /// `expiresAt` has passed while pending or granted.
    Expired,
}

/// The notice the customer is shown and agrees to.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Notice {
    /// Template version.
    pub version: String,
    /// The exact text (English).
    pub text: String,
    /// Hex SHA-256 of `text`; `grant` must echo it.
    pub sha256: String,
}

/// A consent session.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Consent {
    /// `cns_…`.
    pub consent_id: String,
    /// Current status.
    pub status: ConsentStatus,
    /// Environment of the key that created it.
    pub environment: Environment,
    /// The partner's reference for the customer.
    pub customer_reference: String,
    /// Customer's name, if given.
    pub customer_name: Option<String>,
    /// Customer's phone number, if given.
    pub customer_phone: Option<String>,
    /// `credit_scoring`.
    pub purpose: String,
    /// Scopes.
    pub scopes: Vec<String>,
    /// The notice.
    pub notice: Notice,
    /// RFC 3339 UTC.
    pub created_at: String,
    /// RFC 3339 UTC.
    pub expires_at: String,
    /// RFC 3339 UTC, when granted.
    pub granted_at: Option<String>,
    /// How the customer agreed.
    pub grant_method: Option<String>,
    /// The partner's evidence reference.
    pub grant_evidence: Option<String>,
    /// RFC 3339 UTC, when revoked.
    pub revoked_at: Option<String>,
    /// Reason given at revocation.
    pub revoke_reason: Option<String>,
    /// RFC 3339 UTC, when the customer's name and phone number were erased (a revocation with
    /// `eraseReports`); from then on `customerName` and `customerPhone` are null, and what is
    /// kept of them is a keyed fingerprint (`POST …/verify-customer` checks a claim against it).
    pub erased_at: Option<String>,
}

/// The status of `c` at `now`: `expired` once `expires_at` has passed unless revoked.
pub fn effective_status(c: &ConsentRecord, now: i64) -> ConsentStatus {
    match c.status.as_str() {
        "revoked" => ConsentStatus::Revoked,
        _ if now >= c.expires_at => ConsentStatus::Expired,
        "granted" => ConsentStatus::Granted,
        _ => ConsentStatus::Pending,
    }
}

fn status_word(s: ConsentStatus) -> &'static str {
    match s {
        ConsentStatus::Pending => "pending",
        ConsentStatus::Granted => "granted",
        ConsentStatus::Revoked => "revoked",
        ConsentStatus::Expired => "expired",
    }
}

fn view(c: &ConsentRecord, now: i64) -> Consent {
    Consent {
        consent_id: c.id.clone(),
        status: effective_status(c, now),
        environment: c.owner.environment,
        customer_reference: c.customer_reference.clone(),
        customer_name: c.customer_name.clone(),
        customer_phone: c.customer_phone.clone(),
        purpose: c.purpose.clone(),
        scopes: c.scopes.clone(),
        notice: Notice {
            version: c.notice_version.clone(),
            text: c.notice_text.clone(),
            sha256: c.notice_sha256.clone(),
        },
        created_at: rfc3339(c.created_at),
        expires_at: rfc3339(c.expires_at),
        granted_at: c.granted_at.map(rfc3339),
        grant_method: c.grant_method.clone(),
        grant_evidence: c.grant_evidence.clone(),
        revoked_at: c.revoked_at.map(rfc3339),
        revoke_reason: c.revoke_reason.clone(),
        erased_at: c.erased_at.map(rfc3339),
    }
}

fn validate(body: &CreateConsent) -> Result<(Vec<String>, u32), ApiError> {
    check_len("customerReference", body.customer_reference.trim(), 1, 128)?;
    if let Some(name) = &body.customer_name {
        check_len("customerName", name, 1, 200)?;
    }
    if let Some(phone) = &body.customer_phone {
        let digits = phone.strip_prefix('+').unwrap_or(phone);
        if phone.len() > 20 || !digits.chars().all(|c| c.is_ascii_digit() || c == ' ') {
            return Err(ApiError::invalid(
                "`customerPhone` must be digits and spaces with an optional leading `+`, at most 20",
            ));
        }
    }
    if body.purpose != PURPOSE {
        return Err(ApiError::invalid(format!(
            "`purpose` must be `{PURPOSE}` (got {:?})",
            body.purpose
        )));
    }
    let mut scopes = body
        .scopes
        .clone()
        .unwrap_or_else(|| vec![SCOPE_ANALYSIS.to_owned()]);
    scopes.sort();
    scopes.dedup();
    if let Some(bad) = scopes
        .iter()
        .find(|s| *s != SCOPE_ANALYSIS && *s != SCOPE_SHARING)
    {
        return Err(ApiError::invalid(format!(
            "unknown scope {bad:?}: allowed are `{SCOPE_ANALYSIS}` and `{SCOPE_SHARING}`"
        )));
    }
    if !scopes.iter().any(|s| s == SCOPE_ANALYSIS) {
        return Err(ApiError::invalid(format!(
            "`scopes` must include `{SCOPE_ANALYSIS}`"
        )));
    }
    let days = body.expires_in_days.unwrap_or(30);
    if !(1..=365).contains(&days) {
        return Err(ApiError::invalid("`expiresInDays` must be 1–365"));
    }
    Ok((scopes, days))
}

pub(super) async fn load(
    state: &AppState,
    owner: &Owner,
    id: &str,
) -> Result<ConsentRecord, ApiError> {
    let found = if id.len() <= MAX_ID_BYTES {
        state.storage.consent(owner, id).await?
    } else {
        None
    };
    found.ok_or_else(|| ApiError::new("consent_not_found", format!("no consent {id:?}")))
}

fn consent_response(status: StatusCode, consent: &Consent) -> Response {
    let mut response = (status, Json(consent)).into_response();
    if status == StatusCode::CREATED
        && let Ok(v) = format!("/v1/consents/{}", consent.consent_id).parse()
    {
        response.headers_mut().insert(header::LOCATION, v);
    }
    response
}

/// Creates a `pending` consent session with its notice.
#[utoipa::path(
    post, path = "/v1/consents", tag = "consents",
    request_body = CreateConsent,
    responses(
        (status = 201, description = "Created, `pending`", body = Consent),
        (status = 400, description = "Invalid body", body = Problem, content_type = "application/problem+json"),
        (status = 401, description = "No, bad or revoked key", body = Problem, content_type = "application/problem+json"),
        (status = 429, description = "Rate limited", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn create(
    State(state): State<AppState>,
    caller: Caller,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body: CreateConsent = parse_json(body, None)?;
    let (scopes, days) = validate(&body)?;
    let wallet = match body.wallet.as_deref() {
        None => None,
        Some(id) => Some(alama_core::wallets::find(id).ok_or_else(|| {
            let known: Vec<&str> = alama_core::wallets::ALL.iter().map(|w| w.id).collect();
            ApiError::invalid(format!(
                "unknown wallet {id:?}: expected one of {}",
                known.join(", ")
            ))
        })?),
    };
    let now = now_ms();
    let expires_at = now + i64::from(days) * DAY_MS;
    let reference = body.customer_reference.trim().to_owned();
    let text = notice_text(
        &caller.partner_name,
        &reference,
        &scopes,
        expires_at,
        wallet,
    );
    let record = ConsentRecord {
        id: new_id("cns"),
        owner: caller.owner(),
        customer_reference: reference,
        customer_name: body.customer_name,
        customer_phone: body.customer_phone,
        purpose: PURPOSE.to_owned(),
        scopes,
        notice_version: NOTICE_VERSION.to_owned(),
        notice_sha256: sha256_hex(&text),
        notice_text: text,
        status: "pending".to_owned(),
        expires_at,
        created_at: now,
        granted_at: None,
        grant_method: None,
        grant_evidence: None,
        revoked_at: None,
        revoke_reason: None,
        erased_at: None,
        customer_fingerprint: None,
    };
    state.storage.insert_consent(&record).await?;
    Ok(consent_response(StatusCode::CREATED, &view(&record, now)))
}

/// Fetches a consent session.
#[utoipa::path(
    get, path = "/v1/consents/{consentId}", tag = "consents",
    params(("consentId" = String, Path, description = "`cns_…`")),
    responses(
        (status = 200, description = "The consent", body = Consent),
        (status = 404, description = "No such consent for this partner and environment", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn get(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let record = load(&state, &caller.owner(), &id).await?;
    Ok(consent_response(StatusCode::OK, &view(&record, now_ms())))
}

/// Records the customer's agreement: `pending` → `granted`. Granting a granted consent again
/// answers it unchanged.
#[utoipa::path(
    post, path = "/v1/consents/{consentId}/grant", tag = "consents",
    params(("consentId" = String, Path, description = "`cns_…`")),
    request_body = GrantConsent,
    responses(
        (status = 200, description = "Granted", body = Consent),
        (status = 404, description = "No such consent", body = Problem, content_type = "application/problem+json"),
        (status = 409, description = "Revoked or expired", body = Problem, content_type = "application/problem+json"),
        (status = 422, description = "noticeSha256 does not match", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn grant(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body: GrantConsent = parse_json(body, None)?;
    if !GRANT_METHODS.contains(&body.method.as_str()) {
        return Err(ApiError::invalid(format!(
            "`method` must be one of {}",
            GRANT_METHODS.join(", ")
        )));
    }
    if let Some(evidence) = &body.evidence {
        check_len("evidence", evidence, 1, 500)?;
    }
    let owner = caller.owner();
    let record = load(&state, &owner, &id).await?;
    if !body
        .notice_sha256
        .eq_ignore_ascii_case(&record.notice_sha256)
    {
        return Err(ApiError::new(
            "notice_mismatch",
            "`noticeSha256` is not the SHA-256 of this consent's notice: show the customer \
             `notice.text` and send `notice.sha256`",
        ));
    }
    let now = now_ms();
    match effective_status(&record, now) {
        ConsentStatus::Granted => return Ok(consent_response(StatusCode::OK, &view(&record, now))),
        ConsentStatus::Pending => {}
        other => return Err(conflict("grant", other)),
    }
    let moved = state
        .storage
        .grant_consent(&owner, &id, now, &body.method, body.evidence.as_deref())
        .await?;
    let record = load(&state, &owner, &id).await?;
    let status = effective_status(&record, now);
    if !moved && status != ConsentStatus::Granted {
        return Err(conflict("grant", status));
    }
    Ok(consent_response(StatusCode::OK, &view(&record, now)))
}

/// Withdraws a consent: any status → `revoked` (idempotent). Reports already made stay, unless
/// `eraseReports`: then they are erased, and so are the customer's name and phone number on the
/// consent (its evidence and a keyed fingerprint of them stay).
#[utoipa::path(
    post, path = "/v1/consents/{consentId}/revoke", tag = "consents",
    params(("consentId" = String, Path, description = "`cns_…`")),
    request_body(content = RevokeConsent, description = "Optional"),
    responses(
        (status = 200, description = "Revoked", body = Consent),
        (status = 404, description = "No such consent", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn revoke(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body: RevokeConsent = parse_json(body, Some(RevokeConsent::default()))?;
    if let Some(reason) = &body.reason {
        check_len("reason", reason, 1, 500)?;
    }
    let owner = caller.owner();
    let before = load(&state, &owner, &id).await?;
    let now = now_ms();
    state
        .storage
        .revoke_consent(&owner, &id, now, body.reason.as_deref())
        .await?;
    if body.erase_reports == Some(true) {
        let fingerprint = match before.customer_fingerprint {
            Some(kept) => Some(kept),
            None => crate::privacy::customer_fingerprint(
                state.fingerprint_key().await?,
                before.customer_name.as_deref(),
                before.customer_phone.as_deref(),
            ),
        };
        let erased = state
            .storage
            .erase_consent(&owner, &id, fingerprint.as_deref(), now)
            .await?;
        tracing::info!(consent = %id, erased, "consent and its reports erased on revocation");
    }
    let record = load(&state, &owner, &id).await?;
    Ok(consent_response(StatusCode::OK, &view(&record, now)))
}

fn conflict(action: &str, status: ConsentStatus) -> ApiError {
    ApiError::new(
        "consent_state_conflict",
        format!("cannot {action} a consent that is {}", status_word(status)),
    )
    .with("consentStatus", status_word(status))
}

/// The consent an analysis runs under: required in Live, optional in Sandbox; when given it
/// must be the caller's (same partner and environment), granted, unexpired, with the
/// `statement_analysis` scope.
///
/// # Errors
/// `consent_required` (Live, none given), `consent_not_found`, `consent_not_granted`.
pub async fn require_granted(
    state: &AppState,
    caller: &Caller,
    consent_id: Option<&str>,
) -> Result<Option<String>, ApiError> {
    let Some(id) = consent_id else {
        return match caller.environment {
            Environment::Sandbox => Ok(None),
            Environment::Live => Err(ApiError::new(
                "consent_required",
                "Live analyses need the `consentId` of a granted consent (POST /v1/consents, then \
                 /grant)",
            )),
        };
    };
    let record = load(state, &caller.owner(), id).await?;
    let status = effective_status(&record, now_ms());
    if status != ConsentStatus::Granted {
        return Err(ApiError::new(
            "consent_not_granted",
            format!("consent {id} is {}, not granted", status_word(status)),
        )
        .with("consentStatus", status_word(status)));
    }
    if !record.scopes.iter().any(|s| s == SCOPE_ANALYSIS) {
        return Err(ApiError::new(
            "consent_not_granted",
            format!("consent {id} does not include the `{SCOPE_ANALYSIS}` scope"),
        ));
    }
    Ok(Some(record.id))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(status: &str, expires_at: i64) -> ConsentRecord {
        ConsentRecord {
            id: "cns_x".into(),
            owner: Owner {
                partner_id: "ptn_x".into(),
                environment: Environment::Sandbox,
            },
            customer_reference: "r".into(),
            customer_name: None,
            customer_phone: None,
            purpose: PURPOSE.into(),
            scopes: vec![SCOPE_ANALYSIS.into()],
            notice_version: NOTICE_VERSION.into(),
            notice_text: "t".into(),
            notice_sha256: sha256_hex("t"),
            status: status.into(),
            expires_at,
            created_at: 0,
            granted_at: None,
            grant_method: None,
            grant_evidence: None,
            revoked_at: None,
            revoke_reason: None,
            erased_at: None,
            customer_fingerprint: None,
        }
    }

    #[test]
    fn expiry_is_derived_and_revocation_wins() {
        assert_eq!(
            effective_status(&record("pending", 10), 5),
            ConsentStatus::Pending
        );
        assert_eq!(
            effective_status(&record("granted", 10), 5),
            ConsentStatus::Granted
        );
        assert_eq!(
            effective_status(&record("granted", 10), 10),
            ConsentStatus::Expired
        );
        assert_eq!(
            effective_status(&record("pending", 10), 11),
            ConsentStatus::Expired
        );
        assert_eq!(
            effective_status(&record("revoked", 10), 11),
            ConsentStatus::Revoked
        );
    }
}
