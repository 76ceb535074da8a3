//! `POST /v1/consents/{consentId}/verify-customer`: whether a claimed customer (a name and
//! phone number) is the one the consent was given for, also after the consent was erased.
//!
//! An erasure (revocation with `eraseReports`) deletes the customer's name and phone number and
//! keeps a keyed fingerprint of them ([`crate::privacy::customer_fingerprint`]), so the partner
//! (the controller, who bears the burden of proving consent: Kenya's Data Protection Act 2019,
//! s. 32(1)) can still show that this customer agreed, without the service keeping who they
//! are. The claim is compared by fingerprint, never shown back: the answer is a yes or no, for
//! one consent of the caller's own, so it tells nothing the partner was not told when it
//! created the consent.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::body::{check_len, parse_json};
use super::consents::load;
use crate::auth::Caller;
use crate::error::ApiError;
use crate::problem::Problem;
use crate::state::AppState;

/// Body of `POST /v1/consents/{consentId}/verify-customer`: the identifiers a claim gives, as
/// they were given at `POST /v1/consents` (the name's case and spacing, and anything but the
/// digits of the phone number, do not matter). At least one.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VerifyCustomer {
    /// The customer's name, at most 200 characters.
    pub customer_name: Option<String>,
    /// The customer's phone number, at most 20 characters.
    pub customer_phone: Option<String>,
}

/// The answer of `POST /v1/consents/{consentId}/verify-customer`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerVerification {
    /// `cns_…`.
    pub consent_id: String,
    /// Whether the claimed name and phone number are those given for this consent: both as
    /// given there (a consent given with a name and a number matches only a claim with both).
    pub matches: bool,
    /// Whether the consent's identifiers were erased (compared through the kept fingerprint).
    pub erased: bool,
}

/// Checks a claimed customer against the consent's, by keyed fingerprint.
#[utoipa::path(
    post, path = "/v1/consents/{consentId}/verify-customer", tag = "consents",
    params(("consentId" = String, Path, description = "`cns_…`")),
    request_body = VerifyCustomer,
    responses(
        (status = 200, description = "Whether the claim matches", body = CustomerVerification),
        (status = 400, description = "Invalid body (neither identifier, or one too long)", body = Problem, content_type = "application/problem+json"),
        (status = 404, description = "No such consent for this partner and environment", body = Problem, content_type = "application/problem+json"),
    ),
    security(("apiKey" = []))
)]
pub async fn verify_customer(
    State(state): State<AppState>,
    caller: Caller,
    Path(id): Path<String>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Json<CustomerVerification>, ApiError> {
    let claim: VerifyCustomer = parse_json(body, None)?;
    if claim.customer_name.is_none() && claim.customer_phone.is_none() {
        return Err(ApiError::invalid(
            "give `customerName`, `customerPhone` or both, as given for the consent",
        ));
    }
    if let Some(name) = &claim.customer_name {
        check_len("customerName", name, 1, 200)?;
    }
    if let Some(phone) = &claim.customer_phone {
        check_len("customerPhone", phone, 1, 20)?;
    }
    let record = load(&state, &caller.owner(), &id).await?;
    let key = state.fingerprint_key().await?;
    let claimed = crate::privacy::customer_fingerprint(
        key,
        claim.customer_name.as_deref(),
        claim.customer_phone.as_deref(),
    );
    let erased = record.erased_at.is_some();
    let kept = if erased {
        record.customer_fingerprint
    } else {
        crate::privacy::customer_fingerprint(
            key,
            record.customer_name.as_deref(),
            record.customer_phone.as_deref(),
        )
    };
    Ok(Json(CustomerVerification {
        consent_id: record.id,
        matches: kept.is_some() && kept == claimed,
        erased,
    }))
}
