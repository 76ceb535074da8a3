//! Issue 52, two log lines that said too much:
//! - The request log's `path` carried the portal's one-time sign-in link
//!   (`/portal/activate/<token>`, on GET and POST), so whoever read the logs could set the
//!   password of a user who had opened the link but not finished. Paths are masked in the one
//!   place they are logged (`alama_server::logging::loggable_path`): the test requests every
//!   route of `logging::SECRET_ROUTES` (and checks that every `{token}` route of the source is
//!   listed there), and an API key pasted into a URL, and greps every log line for the secrets.
//! - A warning of lopdf (a `log` record) about a damaged PDF had no request id and showed the
//!   path lopdf was built from. The test uploads such a PDF and reads the warning's line.
//!
//! One test in this binary: the subscriber is process-wide.

#[allow(unused_macros, unused_imports)]
mod support;

use alama_server::Environment::Sandbox;
use alama_server::logging::{MASK, SECRET_ROUTES};
use support::{Db, Server, partner};

/// Every string literal of `server/src` that holds `{token}` (a route with a secret segment),
/// but in `logging.rs`, the masking's own module, whose tests write masked paths.
fn token_routes_in_source() -> Vec<String> {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        for entry in std::fs::read_dir(dir).expect("readable folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs")
                && path.file_name().is_some_and(|n| n != "logging.rs")
            {
                let text = std::fs::read_to_string(&path).expect("readable file");
                for line in text.lines().filter(|l| !l.trim_start().starts_with("//")) {
                    for literal in line.split('"').skip(1).step_by(2) {
                        if literal.contains(MASK) && literal.starts_with('/') {
                            out.push(literal.to_owned());
                        }
                    }
                }
            }
        }
    }
    let mut out = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut out,
    );
    out
}

/// A one-page PDF whose content stream declares 9,999 bytes and holds 47: lopdf recovers the
/// length and warns (`Stream Length is 9999, but …`).
fn pdf_with_a_wrong_stream_length() -> Vec<u8> {
    let content = "BT /F1 12 Tf 72 720 Td (M-PESA STATEMENT) Tj ET";
    let objects = [
        "<< /Type /Catalog /Pages 2 0 R >>".to_owned(),
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_owned(),
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
         /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_owned(),
        format!("<< /Length 9999 >>\nstream\n{content}\nendstream"),
        "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_owned(),
    ];
    let mut out = b"%PDF-1.4\n".to_vec();
    let mut offsets = Vec::new();
    for (i, object) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend_from_slice(format!("{} 0 obj\n{object}\nendobj\n", i + 1).as_bytes());
    }
    let xref = out.len();
    out.extend_from_slice(
        format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).as_bytes(),
    );
    for offset in offsets {
        out.extend_from_slice(format!("{offset:010} 00000 n \n").as_bytes());
    }
    out.extend_from_slice(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .as_bytes(),
    );
    out
}

// One story, since the subscriber is process-wide: the requests, then every line they logged.
#[allow(clippy::too_many_lines)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn log_lines_hold_no_secret_no_build_path_and_their_request_id() {
    // Every route written with a `{token}` segment is one the log masks.
    let in_source = token_routes_in_source();
    assert!(
        in_source.iter().any(|r| r == "/activate/{token}"),
        "the scan finds the portal's link route: {in_source:?}"
    );
    for route in &in_source {
        assert!(
            SECRET_ROUTES.iter().any(|t| t.ends_with(route.as_str())),
            "route {route} carries a {MASK} but is not in logging::SECRET_ROUTES"
        );
    }

    let capture = support::capture_json_logs();
    let db = Db::sqlite();
    let server = Server::start(&db).await;
    let sandbox = partner("log-secrets");
    let key = server.key(&sandbox, Sandbox).await;
    let owner = server
        .storage
        .ensure_partner(&sandbox)
        .await
        .expect("partner");
    let user = server
        .storage
        .create_portal_user(&owner, "secrets@bank.example", alama_server::ids::now_ms())
        .await
        .expect("user");
    let token = alama_server::portal::auth::issue_link(&server.storage, &user)
        .await
        .expect("link");

    let mut requests = 0;
    for template in SECRET_ROUTES {
        let path = template.replace(MASK, &token);
        for variant in [
            path.clone(),
            format!("{path}/"),
            format!("{path}/extra"),
            path.replacen("/portal/", "//portal/", 1),
        ] {
            for method in [reqwest::Method::GET, reqwest::Method::POST] {
                let r = server
                    .client
                    .request(method.clone(), server.url(&variant))
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body("password=correct+horse+battery+staple&csrf=x")
                    .send()
                    .await
                    .expect("request");
                assert!(
                    r.status().as_u16() < 500,
                    "{method} {template}: {}",
                    r.status()
                );
                requests += 1;
            }
        }
    }
    // The link still works (a refused POST does not use it up): it was a live secret.
    let page = server
        .client
        .get(server.url(&format!("/portal/activate/{token}")))
        .send()
        .await
        .expect("GET");
    assert_eq!(page.status(), 200);
    // A key pasted into the path of the API.
    let r = server
        .client
        .get(server.url(&format!("/v1/scores/{key}")))
        .bearer_auth(&key)
        .send()
        .await
        .expect("GET");
    assert_eq!(r.status(), 404);
    // A damaged PDF that lopdf reads with a warning.
    let damaged = server
        .analyse(&key, pdf_with_a_wrong_stream_length(), None, None, None)
        .await;
    assert!(damaged.0 >= 400 && damaged.0 < 500, "{}", damaged.2);
    let damaged_id = damaged
        .1
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .expect("request id")
        .to_owned();
    server.stop().await;

    let text = capture.text();
    let request_lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("\"message\":\"request\""))
        .collect();
    assert!(
        request_lines.len() > requests,
        "{} request lines for {requests} requests",
        request_lines.len()
    );
    for (n, line) in text.lines().enumerate() {
        // (The line itself is not printed: it would be what must not be shown.)
        assert!(
            !line.contains(&token),
            "log line {n} holds the link's token"
        );
        assert!(!line.contains(&key), "log line {n} holds the API key");
    }
    let masked = request_lines
        .iter()
        .filter(|l| l.contains("\"path\":\"/portal/activate/{token}\""))
        .count();
    assert!(
        masked >= 3,
        "{masked} request lines show the masked link path"
    );

    // lopdf's warning: in its request's span, by its target, without a path of the build.
    let warnings: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("\"target\":\"lopdf::"))
        .collect();
    assert!(!warnings.is_empty(), "lopdf warned about the damaged PDF");
    for line in warnings {
        assert!(line.contains(&damaged_id), "no request id: {line}");
        for built in ["log.file", "log.line", ".cargo", "registry/src", ".rs\""] {
            assert!(!line.contains(built), "{built} in {line}");
        }
    }
}
