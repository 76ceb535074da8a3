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

/// A scorecard attribute that lost points through evidence, or `K01` (the knock-out).
#[derive(Debug, Serialize, ToSchema)]
#[schema(as = ReasonCode)]
#[serde(rename_all = "camelCase")]
pub struct ReasonCodeDoc {
    /// Stable reason code of the characteristic, `R01`–`R08`, or `K01` for the knock-out.
    code: String,
    /// Code of the factor (characteristic).
    factor: String,
    /// Code of the attribute, e.g. `on_time_repayment_share` (`overdue_credit` for `K01`).
    attribute: String,
    /// Points this attribute lost (for `K01`, the points the cap removed).
    points_lost: u16,
    /// Adverse-action sentence with the figure behind it.
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
    /// `verified` (original Safaricom PDF, every check passed), `consistent` (every check passed
    /// on a re-saved PDF, CSV or JSON), `warnings` or `failed`.
    status: String,
    /// `pdf_original`, `pdf_resaved`, `csv` or `json`: the kind of source the verdict rests on.
    evidence_level: String,
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

/// Responses every operation may give whatever its own: `400` (an unreadable path or
/// header), `401` (no, bad or revoked key), `408` (a request body that stopped arriving), `429`
/// (the key's rate limit, or too many failed authentications from the address) and `503`
/// (the database or every slot busy; too many connections), each a problem.
struct CommonResponses;

impl Modify for CommonResponses {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::{ContentBuilder, Ref, ResponseBuilder};
        let common = [
            ("400", "Unreadable path, header or body (`invalid_request`)"),
            ("401", "No, bad or revoked key"),
            (
                "408",
                "The request body stopped arriving (`request_timeout`)",
            ),
            (
                "429",
                "Rate limited or too many failed authentications (`Retry-After`)",
            ),
            (
                "503",
                "Temporarily unavailable (`service_unavailable`, `Retry-After`)",
            ),
        ];
        for item in openapi.paths.paths.values_mut() {
            for operation in [
                item.get.as_mut(),
                item.post.as_mut(),
                item.put.as_mut(),
                item.delete.as_mut(),
                item.patch.as_mut(),
            ]
            .into_iter()
            .flatten()
            {
                for (status, description) in common {
                    operation
                        .responses
                        .responses
                        .entry(status.to_owned())
                        .or_insert_with(|| {
                            ResponseBuilder::new()
                                .description(description)
                                .content(
                                    crate::problem::CONTENT_TYPE,
                                    ContentBuilder::new()
                                        .schema(Some(Ref::from_schema_name("Problem")))
                                        .build(),
                                )
                                .build()
                                .into()
                        });
                }
            }
        }
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
        crate::scores::erase,
        crate::pdf::get,
        crate::usage::get,
    ),
    components(schemas(
        AnalyseForm, ScoreReport, FactorDoc, InsightDoc, ReasonCodeDoc, IntegrityDoc, FindingDoc,
        StatementOverviewDoc, MonthlyCashflowDoc, ReportErrorDoc, CreateConsent, GrantConsent,
        RevokeConsent, Consent, ConsentStatus, Notice, Environment, Problem,
    )),
    modifiers(&BearerKeys, &CommonResponses),
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
