//! The OpenAPI 3.1 document at `GET /v1/openapi.json`, generated from the handlers'
//! `#[utoipa::path]` annotations and the request/response types.
//!
//! The engine's report types live in `alama-core`, which knows nothing of HTTP; their schemas
//! are written as `…Doc` mirrors beside the handlers ([`crate::api::report_doc`]), and a test
//! checks every key of a real report against them. This module sits beside the router, above
//! the handlers whose types it reads.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
use utoipa::{Modify, OpenApi};

use crate::api::applications::ApplicationForm;
use crate::api::consent_claims::{CustomerVerification, VerifyCustomer};
use crate::api::consents::{
    Consent, ConsentStatus, CreateConsent, GrantConsent, Notice, RevokeConsent,
};
use crate::api::report_doc::{
    AffordabilityDoc, ApplicationDoc, FactorDoc, FindingDoc, InsightDoc, IntegrityDoc,
    MonthlyCashflowDoc, PricingDoc, ReasonCodeDoc, ReportErrorDoc, ScoreReport,
    StatementOverviewDoc, StatementReadDoc, TermsDoc,
};
use crate::api::scores::AnalyseForm;
use crate::keys::Environment;
use crate::problem::Problem;

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
        description = "Partner-facing API: consents, statement analysis, score reports, applications (several statements of one applicant scored as one). A statement whose rows this partner already had analysed for another customer reference gets the warning finding `statement_seen_before` naming the earlier report. Every error is `application/problem+json` (RFC 9457) with `code` and `requestId`; every response carries `X-Request-Id`."
    ),
    paths(
        crate::api::consents::create,
        crate::api::consents::get,
        crate::api::consents::grant,
        crate::api::consents::revoke,
        crate::api::consent_claims::verify_customer,
        crate::api::scores::analyse,
        crate::api::scores::get,
        crate::api::scores::erase,
        crate::api::pdf::get,
        crate::api::applications::create,
        crate::api::applications::get,
        crate::api::applications::erase,
        crate::api::pdf::get_application,
        crate::api::usage::get,
    ),
    components(schemas(
        AnalyseForm, ScoreReport, FactorDoc, InsightDoc, ReasonCodeDoc, IntegrityDoc, FindingDoc,
        StatementOverviewDoc, MonthlyCashflowDoc, ReportErrorDoc, CreateConsent, GrantConsent,
        RevokeConsent, Consent, ConsentStatus, Notice, VerifyCustomer, CustomerVerification,
        Environment, Problem, ApplicationForm, ApplicationDoc, StatementReadDoc, AffordabilityDoc,
        TermsDoc, PricingDoc,
    )),
    modifiers(&BearerKeys, &CommonResponses),
    tags(
        (name = "consents", description = "Customer consent sessions"),
        (name = "scores", description = "Statement analysis and score reports"),
        (name = "applications", description = "Several statements of one applicant scored as one, with the affordability of the loan terms"),
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
