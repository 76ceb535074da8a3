//! The OpenAPI 3.1 document at `GET /v1/openapi.json`, generated from the handlers'
//! `#[utoipa::path]` annotations and the request/response types.
//!
//! The engine's report types live in `alama-core`, which knows nothing of HTTP; their schemas
//! are written here as `…Doc` mirrors, and a test checks every key of a real report against them.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use serde::Serialize;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi, ToSchema};

use crate::consents::{Consent, ConsentStatus, CreateConsent, GrantConsent, Notice, RevokeConsent};
use crate::keys::Environment;
use crate::problem::Problem;
use crate::scores::{AnalyseForm, ScoreReport};

/// One scorecard characteristic: points earned of the maximum.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Factor)]
#[serde(rename_all = "camelCase")]
pub struct FactorDoc {
    /// Display name, e.g. `Income stability`.
    name: String,
    /// Points earned, 0..=max.
    score: u16,
    /// Maximum points.
    max: u16,
    /// Stable code, e.g. `income_stability`.
    code: String,
}

/// A typed insight.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Insight)]
#[serde(rename_all = "camelCase")]
pub struct InsightDoc {
    /// Stable code, e.g. `average_monthly_income`.
    code: String,
    /// One sentence for people.
    message: String,
    /// The figure as an exact decimal string, e.g. `"23500.00"`.
    value: String,
    /// Unit of `value`: `KES`, `KES/month`, `ratio`, `months`, `count`, `days`.
    unit: String,
}

/// A characteristic that cost points.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ReasonCode)]
#[serde(rename_all = "camelCase")]
pub struct ReasonCodeDoc {
    /// Stable reason code, e.g. `R01`.
    code: String,
    /// Code of the factor.
    factor: String,
    /// `max - score` of the factor.
    points_lost: u16,
    /// Adverse-action style sentence.
    description: String,
}

/// An integrity finding.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Finding)]
#[serde(rename_all = "camelCase")]
pub struct FindingDoc {
    /// Stable code, e.g. `summary_mismatch`.
    code: String,
    /// `info`, `warning` or `critical`.
    severity: String,
    /// One sentence with the figures.
    message: String,
}

/// Integrity of the statement.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = Integrity)]
#[serde(rename_all = "camelCase")]
pub struct IntegrityDoc {
    /// `verified`, `warnings` or `failed`.
    status: String,
    /// Whether the rows add up to the statement's SUMMARY; null without one.
    summary_reconciled: Option<bool>,
    /// Findings, most severe first.
    findings: Vec<FindingDoc>,
}

/// Money in and out for one month.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = MonthlyCashflow)]
#[serde(rename_all = "camelCase")]
pub struct MonthlyCashflowDoc {
    /// `YYYY-MM`.
    month: String,
    /// Completed Paid In, KES, decimal string.
    paid_in: String,
    /// Completed Withdrawn, KES, positive decimal string.
    withdrawn: String,
}

/// What the report says about the statement.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = StatementOverview)]
#[serde(rename_all = "camelCase")]
pub struct StatementOverviewDoc {
    /// Wallet, e.g. `mpesa`.
    provider: String,
    /// ISO 4217 currency of every amount.
    currency: String,
    /// Holder name as printed, if any.
    holder_name: Option<String>,
    /// Mobile number with all but the last three digits masked.
    mobile_number_masked: Option<String>,
    /// First day covered, ISO 8601 date.
    period_start: String,
    /// Last day covered, ISO 8601 date.
    period_end: String,
    /// Rows.
    transaction_count: u32,
    /// Completed rows.
    completed_count: u32,
    /// Sum of completed Paid In, KES, decimal string.
    total_paid_in: String,
    /// Sum of completed Withdrawn, KES, decimal string.
    total_withdrawn: String,
    /// Per month, oldest first.
    monthly: Vec<MonthlyCashflowDoc>,
}

/// Why a report failed.
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ReportError)]
pub struct ReportErrorDoc {
    /// The problem code, e.g. `wrong_password`.
    code: String,
    /// For people.
    detail: Option<String>,
}

struct BearerKeys;

impl Modify for BearerKeys {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "apiKey",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "`Authorization: Bearer alama_sk_sandbox_…` or `alama_sk_live_…`: the \
                         key's environment is the request's environment",
                    ))
                    .build(),
            ),
        );
    }
}

/// The API description.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Alama credit scoring API",
        version = "1",
        description = "Partner-facing API: consents, statement analysis, score reports. Every error is `application/problem+json` (RFC 9457) with `code` and `requestId`; every response carries `X-Request-Id`."
    ),
    paths(
        crate::consents::create,
        crate::consents::get,
        crate::consents::grant,
        crate::consents::revoke,
        crate::scores::analyse,
        crate::scores::get,
        crate::pdf::get,
        crate::usage::get,
    ),
    components(schemas(
        AnalyseForm, ScoreReport, FactorDoc, InsightDoc, ReasonCodeDoc, IntegrityDoc, FindingDoc,
        StatementOverviewDoc, MonthlyCashflowDoc, ReportErrorDoc, CreateConsent, GrantConsent,
        RevokeConsent, Consent, ConsentStatus, Notice, Environment, Problem,
    )),
    modifiers(&BearerKeys),
    tags(
        (name = "consents", description = "Customer consent sessions"),
        (name = "scores", description = "Statement analysis and score reports"),
        (name = "usage", description = "Usage figures (Live only)"),
    )
)]
pub struct ApiDoc;

static DOCUMENT: LazyLock<String> =
    LazyLock::new(|| ApiDoc::openapi().to_json().unwrap_or_default());

/// `GET /v1/openapi.json` (no key needed).
pub async fn document() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "application/json")],
        DOCUMENT.as_str(),
    )
}
