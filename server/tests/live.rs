//! The Live-only endpoints over real HTTP: the shareable PDF report and the usage figures, on
//! SQLite and, when `ALAMA_TEST_POSTGRES_URL` is set, on PostgreSQL.

#[macro_use]
mod support;

use alama_server::Environment::{Live, Sandbox};
use serde_json::json;
use support::{Db, Server, assert_problem, partner, statement_csv};

on_both_backends!(
    pdf_report_of_a_live_analysis,
    usage_counts_a_known_sequence_exactly,
    pdf_report_of_a_live_application,
);

/// Drops all whitespace, so that text split over lines or runs by the extractor compares.
fn squash(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The text of a PDF, read with `lopdf` (the engine's own PDF library).
fn pdf_text(pdf: &[u8]) -> String {
    let doc = lopdf::Document::load_mem(pdf).expect("lopdf opens the report");
    let pages: Vec<u32> = doc.get_pages().keys().copied().collect();
    doc.extract_text(&pages).expect("PDF text")
}

async fn pdf_report_of_a_live_analysis(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("pdf");
    let live = server.key(&name, Live).await;
    let sandbox = server.key(&name, Sandbox).await;
    let consent = server.granted_consent(&live).await;
    let (status, _, report) = server
        .analyse(&live, statement_csv(300), None, Some(&consent), None)
        .await;
    assert_eq!(status, 201, "{report}");
    let id = report["reportId"].as_str().expect("reportId").to_owned();

    let response = server
        .client
        .get(server.url(&format!("/v1/scores/{id}/pdf")))
        .bearer_auth(&live)
        .send()
        .await
        .expect("GET pdf");
    assert_eq!(response.status(), 200);
    let header = |n: &str| {
        response
            .headers()
            .get(n)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    assert_eq!(header("content-type").as_deref(), Some("application/pdf"));
    assert_eq!(
        header("content-disposition"),
        Some(format!("attachment; filename=\"alama-report-{id}.pdf\""))
    );
    assert_eq!(
        header("cache-control").as_deref(),
        Some("private, no-store")
    );
    let bytes = response.bytes().await.expect("body").to_vec();
    assert!(bytes.starts_with(b"%PDF-"), "not a PDF");

    let text = squash(&pdf_text(&bytes));
    let score = report["score"].as_u64().expect("score").to_string();
    assert!(text.contains(&score), "score {score} missing");
    let band = report["band"].as_str().expect("band");
    assert!(text.contains(&squash(band)), "band {band:?} missing");
    // The period with its exact dates ("1 Jan 2024 – 30 Jun 2024"), not the month range.
    for field in ["periodStart", "periodEnd"] {
        let iso = report["statement"][field].as_str().expect(field);
        let date = chrono::NaiveDate::parse_from_str(iso, "%Y-%m-%d").expect("ISO date");
        let shown = date.format("%-d %b %Y").to_string();
        assert!(text.contains(&squash(&shown)), "{field} {shown:?} missing");
    }
    for factor in report["factors"].as_array().expect("factors") {
        let name = factor["name"].as_str().expect("factor name");
        assert!(text.contains(&squash(name)), "factor {name:?} missing");
    }
    assert!(text.contains(&id), "report id missing");

    // The same report gives the same document.
    let again = server
        .client
        .get(server.url(&format!("/v1/scores/{id}/pdf")))
        .bearer_auth(&live)
        .send()
        .await
        .expect("GET pdf");
    assert_eq!(again.bytes().await.expect("body").to_vec(), bytes);

    // A failed report has no PDF: 409 with its status.
    let (status, _, failed) = server
        .analyse(
            &live,
            b"Receipt No,Completion Time\n".to_vec(),
            None,
            Some(&consent),
            None,
        )
        .await;
    assert!(status >= 400, "{failed}");
    let failed_id = failed["reportId"].as_str().expect("reportId");
    let got = server
        .get(&format!("/v1/scores/{failed_id}/pdf"), &live)
        .await;
    assert_problem(&got, 409, "report_not_completed");
    assert_eq!(got.2["reportStatus"], "failed");
    assert_eq!(got.2["reportId"], failed_id);

    // Sandbox keys: 403; the Live report from a Sandbox key or another partner: 404.
    assert_problem(
        &server.get(&format!("/v1/scores/{id}/pdf"), &sandbox).await,
        403,
        "live_mode_required",
    );
    let other = server.key(&partner("pdf-other"), Live).await;
    assert_problem(
        &server.get(&format!("/v1/scores/{id}/pdf"), &other).await,
        404,
        "report_not_found",
    );
    server.stop().await;
}

/// `POST /v1/applications` of two CSV statements under `consent`: the status.
async fn application(server: &Server, key: &str, consent: &str) -> u16 {
    application_with(server, key, consent, &[]).await.0
}

/// [`application`] with the text `fields`: the status and body.
async fn application_with(
    server: &Server,
    key: &str,
    consent: &str,
    fields: &[(&str, &str)],
) -> (u16, serde_json::Value) {
    let mut form = reqwest::multipart::Form::new()
        .part(
            "statement",
            reqwest::multipart::Part::bytes(statement_csv(120)).file_name("a.csv"),
        )
        .part(
            "statement",
            reqwest::multipart::Part::bytes(statement_csv(90)).file_name("b.csv"),
        )
        .text("consentId", consent.to_owned());
    for (name, value) in fields {
        form = form.text((*name).to_owned(), (*value).to_owned());
    }
    let r = server
        .client
        .post(server.url("/v1/applications"))
        .bearer_auth(key)
        .multipart(form)
        .send()
        .await
        .expect("POST applications");
    let (status, _, body) = support::split(r).await;
    (status, body)
}

/// An application's PDF: the combined report with every statement read and the terms asked.
async fn pdf_report_of_a_live_application(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("app-pdf");
    let live = server.key(&name, Live).await;
    let consent = server.granted_consent(&live).await;
    let (status, app) = application_with(
        &server,
        &live,
        &consent,
        &[("principal", "20000"), ("tenorMonths", "6")],
    )
    .await;
    assert_eq!(status, 201, "{app}");
    let id = app["applicationId"].as_str().expect("id");
    let response = server
        .client
        .get(server.url(&format!("/v1/applications/{id}/pdf")))
        .bearer_auth(&live)
        .send()
        .await
        .expect("GET pdf");
    assert_eq!(response.status(), 200);
    let bytes = response.bytes().await.expect("body").to_vec();
    assert!(bytes.starts_with(b"%PDF-"), "not a PDF");
    let text = squash(&pdf_text(&bytes));
    assert!(text.contains(id), "application id missing");
    assert!(text.contains(&app["score"].to_string()), "score missing");
    for statement in app["statements"].as_array().expect("statements") {
        let rid = statement["reportId"].as_str().expect("report id");
        assert!(text.contains(rid), "statement {rid} missing");
    }
    assert!(text.contains("LOAN_TERMS"), "the terms' card missing");
    assert!(
        text.contains("KES20,000.00over6months"),
        "the terms missing"
    );
    // Sandbox keys: 403; an analysis' id on this path: 404.
    let sandbox = server.key(&name, Sandbox).await;
    assert_problem(
        &server
            .get(&format!("/v1/applications/{id}/pdf"), &sandbox)
            .await,
        403,
        "live_mode_required",
    );
    assert_problem(
        &server.get("/v1/applications/rpt_nope/pdf", &live).await,
        404,
        "application_not_found",
    );
    server.stop().await;
}

/// The Live totals of `usage_counts_a_known_sequence_exactly`.
fn expected_usage() -> serde_json::Value {
    json!({
        "requests": {
            "total": 9,
            "byEndpoint": {
                "GET /v1/scores/{reportId}": 2,
                "GET /v1/scores/{reportId}/pdf": 1,
                "POST /v1/applications": 1,
                "POST /v1/consents": 1,
                "POST /v1/consents/{consentId}/grant": 1,
                "POST /v1/scores/analyse": 3,
            },
            "byStatusClass": {"2xx": 7, "4xx": 2, "5xx": 0},
        },
        "analyses": {"submitted": 2, "completed": 1, "failed": 1, "processing": 0, "successRate": 0.5},
        "applications": {"submitted": 1, "completed": 1, "failed": 0, "processing": 0, "successRate": 1.0},
        "billableUnits": 2,
        "webhooks": {"events": 0, "delivered": 0, "failed": 0, "pending": 0, "deliveryRate": null},
    })
}

async fn usage_counts_a_known_sequence_exactly(db: Db) {
    let server = Server::start(&db).await;
    let name = partner("usage");
    let live = server.key(&name, Live).await;
    let sandbox = server.key(&name, Sandbox).await;

    // Live: consent (201) and grant (200).
    let consent = server.granted_consent(&live).await;
    // An analysis (201), its idempotent replay (201, not billed), a failed one (422).
    let csv = statement_csv(120);
    let first = server
        .analyse(&live, csv.clone(), None, Some(&consent), Some("order-1"))
        .await;
    assert_eq!(first.0, 201, "{}", first.2);
    let replay = server
        .analyse(&live, csv, None, Some(&consent), Some("order-1"))
        .await;
    assert_eq!(replay.0, 201);
    let bad = server
        .analyse(
            &live,
            b"Receipt No,Completion Time\n".to_vec(),
            None,
            Some(&consent),
            None,
        )
        .await;
    assert_eq!(bad.0, 422, "{}", bad.2);
    // Fetch it (200), an unknown report (404), its PDF (200).
    let id = first.2["reportId"].as_str().expect("id");
    assert_eq!(server.get(&format!("/v1/scores/{id}"), &live).await.0, 200);
    assert_eq!(server.get("/v1/scores/rpt_unknown", &live).await.0, 404);
    let pdf = server
        .client
        .get(server.url(&format!("/v1/scores/{id}/pdf")))
        .bearer_auth(&live)
        .send()
        .await
        .expect("pdf");
    assert_eq!(pdf.status(), 200);
    // An application of two statements (201): counted apart from analyses, one billable unit.
    assert_eq!(application(&server, &live, &consent).await, 201);
    // Sandbox traffic is not Live usage.
    assert_eq!(
        server
            .analyse(&sandbox, statement_csv(50), None, None, None)
            .await
            .0,
        201
    );
    assert_problem(
        &server.get("/v1/usage", &sandbox).await,
        403,
        "live_mode_required",
    );

    let expected = expected_usage();
    let (status, _, usage) = server.get("/v1/usage", &live).await;
    assert_eq!(status, 200, "{usage}");
    assert_eq!(usage["granularity"], "day");
    assert_eq!(usage["period"]["timeZone"], "UTC");
    let buckets = usage["buckets"].as_array().expect("buckets");
    assert_eq!(buckets.len(), 30);
    assert_eq!(usage["totals"], expected);
    let busy: Vec<_> = buckets
        .iter()
        .filter(|b| b["requests"]["total"].as_i64() > Some(0))
        .collect();
    assert!(!busy.is_empty() && busy.len() <= 2, "{busy:?}");

    // Durable: after a restart the figures are the same, plus the usage request itself.
    server.stop().await;
    let server = Server::start(&db).await;
    let (status, _, usage) = server.get("/v1/usage?granularity=month", &live).await;
    assert_eq!(status, 200, "{usage}");
    assert_eq!(usage["granularity"], "month");
    let mut expected = expected;
    expected["requests"]["total"] = json!(10);
    expected["requests"]["byEndpoint"]["GET /v1/usage"] = json!(1);
    expected["requests"]["byStatusClass"]["2xx"] = json!(8);
    assert_eq!(usage["totals"], expected);

    // Bad queries are problems.
    for q in [
        "from=2026-02-30",
        "from=2026-11-02&to=2026-11-01",
        "granularity=week",
        "colour=red",
    ] {
        assert_problem(
            &server.get(&format!("/v1/usage?{q}"), &live).await,
            400,
            "invalid_request",
        );
    }
    server.stop().await;
}
