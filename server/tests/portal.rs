//! The developer portal over real HTTP: one-time links, passwords, sessions, CSRF, throttling,
//! security headers, and partner isolation on every page and action. Each scenario runs on
//! SQLite, and on PostgreSQL when `ALAMA_TEST_POSTGRES_URL` is set.
//!
//! (Over 400 lines: one file per HTTP surface, as the other suites; each scenario is short and
//! they share the sign-in helpers at the top, which a split would repeat or move to `support`.)

// Each scenario reads top to bottom as one user's story; cutting it at 100 lines would hide
// the sequence it checks.
#![allow(clippy::too_many_lines)]

#[macro_use]
mod support;

use std::collections::BTreeMap;

use alama_server::Limits;
use alama_server::cli::{UsersCommand, users_command};
use alama_server::webhooks::WebhookConfig;
use reqwest::header::HeaderMap;
use support::{Db, Server, partner, statement_csv};

on_both_backends!(
    link_password_session_and_headers,
    forms_need_the_csrf_token,
    partners_never_reach_each_other,
    sessions_expire,
    keys_and_webhooks_from_the_portal,
    other_wallets_through_the_api_and_the_report_page,
);

const PASSWORD: &str = "correct horse battery staple";

/// A browser: a cookie jar over a client that does not follow redirects.
struct Browser {
    base: String,
    client: reqwest::Client,
    cookies: BTreeMap<String, String>,
}

/// A response: status, headers, body text.
struct Page {
    status: u16,
    headers: HeaderMap,
    body: String,
}

impl Page {
    fn location(&self) -> &str {
        self.headers
            .get("location")
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
    }

    /// The value of the first `name="csrf"` hidden field.
    fn csrf(&self) -> String {
        let marker = "name=\"csrf\" value=\"";
        let at = self.body.find(marker).expect("csrf field") + marker.len();
        self.body[at..].split('"').next().expect("value").to_owned()
    }
}

fn encode(fields: &[(&str, &str)]) -> String {
    fields
        .iter()
        .map(|(k, v)| {
            let enc: String = v
                .bytes()
                .map(|b| match b {
                    b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                        char::from(b).to_string()
                    }
                    _ => format!("%{b:02X}"),
                })
                .collect();
            format!("{k}={enc}")
        })
        .collect::<Vec<_>>()
        .join("&")
}

impl Browser {
    fn new(server: &Server) -> Self {
        Self::from_address(server, [127, 0, 0, 1])
    }

    /// A browser connecting from loopback address `local` (another client address).
    fn from_address(server: &Server, local: [u8; 4]) -> Self {
        Self {
            base: server.base.clone(),
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .local_address(std::net::IpAddr::from(local))
                .build()
                .expect("client"),
            cookies: BTreeMap::new(),
        }
    }

    fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    async fn finish(&mut self, r: reqwest::Response) -> Page {
        for c in r.headers().get_all("set-cookie") {
            let text = c.to_str().expect("cookie");
            let pair = text.split(';').next().expect("pair");
            let (k, v) = pair.split_once('=').expect("name=value");
            if v.is_empty() {
                self.cookies.remove(k);
            } else {
                self.cookies.insert(k.to_owned(), v.to_owned());
            }
        }
        Page {
            status: r.status().as_u16(),
            headers: r.headers().clone(),
            body: r.text().await.expect("body"),
        }
    }

    async fn get(&mut self, path: &str) -> Page {
        let r = self
            .client
            .get(format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
            .send()
            .await
            .expect("GET");
        self.finish(r).await
    }

    async fn post_with(
        &mut self,
        path: &str,
        fields: &[(&str, &str)],
        origin: Option<&str>,
    ) -> Page {
        let mut request = self
            .client
            .post(format!("{}{path}", self.base))
            .header("cookie", self.cookie_header())
            .header("content-type", "application/x-www-form-urlencoded")
            .body(encode(fields));
        if let Some(o) = origin {
            request = request.header("origin", o);
        }
        let r = request.send().await.expect("POST");
        self.finish(r).await
    }

    /// `POST /portal/try` as a browser's multipart form.
    async fn try_upload(&mut self, csrf: &str, key: &str, statement: &[u8]) -> Page {
        self.try_upload_as(csrf, key, statement, false).await
    }

    /// `POST /portal/try`, sent by htmx (`HX-Request: true`) when `htmx`.
    async fn try_upload_as(&mut self, csrf: &str, key: &str, statement: &[u8], htmx: bool) -> Page {
        let form = reqwest::multipart::Form::new()
            .text("csrf", csrf.to_owned())
            .text("key", key.to_owned())
            .part(
                "statement",
                reqwest::multipart::Part::bytes(statement.to_vec()).file_name("statement.csv"),
            );
        let mut request = self
            .client
            .post(format!("{}/portal/try", self.base))
            .header("cookie", self.cookie_header())
            .header("origin", self.base.clone());
        if htmx {
            request = request.header("hx-request", "true");
        }
        let r = request.multipart(form).send().await.expect("POST try");
        self.finish(r).await
    }

    async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> Page {
        let origin = self.base.clone();
        self.post_with(path, fields, Some(&origin)).await
    }
}

/// `alama users create` for `email` of partner `name`; returns the link's path.
async fn create_user(db: &Db, name: &str, email: &str) -> String {
    let (mut out, mut err) = (Vec::new(), Vec::new());
    users_command(
        &UsersCommand::Create {
            partner: name.to_owned(),
            email: email.to_owned(),
            portal_url: "http://portal.example".to_owned(),
            db: alama_server::cli::DatabaseArgs {
                database: db.url.clone(),
            },
        },
        &mut out,
        &mut err,
    )
    .await
    .expect("users create");
    let link = String::from_utf8(out).expect("utf-8");
    link.trim()
        .strip_prefix("http://portal.example")
        .expect("link on the portal URL")
        .to_owned()
}

/// A signed-in browser of a new user of partner `name`.
async fn signed_in(server: &Server, db: &Db, name: &str) -> (Browser, String) {
    let email = format!("{}@partner.example", alama_server::ids::new_id("u"));
    let link = create_user(db, name, &email).await;
    let mut b = Browser::new(server);
    let form = b.get(&link).await;
    assert_eq!(form.status, 200, "{}", form.body);
    let csrf = form.csrf();
    let done = b
        .post(
            &link,
            &[
                ("csrf", &csrf),
                ("password", PASSWORD),
                ("confirm", PASSWORD),
            ],
        )
        .await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(done.location(), "/portal/overview");
    (b, email)
}

async fn sign_in(b: &mut Browser, email: &str, password: &str) -> Page {
    let form = b.get("/portal/signin").await;
    let csrf = form.csrf();
    b.post(
        "/portal/signin",
        &[("csrf", &csrf), ("email", email), ("password", password)],
    )
    .await
}

async fn start(db: &Db) -> Server {
    Server::start_full(
        db,
        Limits::default(),
        WebhookConfig {
            enabled: false,
            allow_private: true,
            ..WebhookConfig::default()
        },
    )
    .await
}

async fn link_password_session_and_headers(db: Db) {
    let server = start(&db).await;
    let name = partner("portal-link");
    let email = format!("{}@Partner.Example", alama_server::ids::new_id("u"));
    let link = create_user(&db, &name, &email).await;
    let mut b = Browser::new(&server);

    // `/portal/` leads to the overview; signed out, pages send you to sign in.
    let root = b.get("/portal/").await;
    assert_eq!((root.status, root.location()), (303, "/portal/overview"));
    let page = b.get("/portal/keys").await;
    assert_eq!((page.status, page.location()), (303, "/portal/signin"));

    // The link's form; a short or mismatched password is refused and keeps the link.
    let form = b.get(&link).await;
    assert_eq!(form.status, 200);
    assert!(form.body.contains(&email.to_lowercase()), "{}", form.body);
    let csrf = form.csrf();
    let short = b
        .post(
            &link,
            &[("csrf", &csrf), ("password", "short"), ("confirm", "short")],
        )
        .await;
    assert_eq!(short.status, 422, "{}", short.body);
    let done = b
        .post(
            &link,
            &[
                ("csrf", &csrf),
                ("password", PASSWORD),
                ("confirm", PASSWORD),
            ],
        )
        .await;
    assert_eq!((done.status, done.location()), (303, "/portal/overview"));
    let cookie = done
        .headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|c| c.starts_with("alama_portal_session="))
        .expect("session cookie")
        .to_owned();
    for attribute in ["HttpOnly", "SameSite=Lax", "Path=/portal"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain http: {cookie}");

    // The password is stored as Argon2id.
    let stored = server
        .storage
        .portal_user_by_email(&email)
        .await
        .expect("user")
        .expect("exists");
    assert!(
        stored
            .password_hash
            .as_deref()
            .is_some_and(|h| h.starts_with("$argon2id$")),
        "{stored:?}"
    );

    // The link works once.
    assert_eq!(b.get(&link).await.status, 403);

    // Signed in: security headers on every page.
    let overview = b.get("/portal/overview").await;
    assert_eq!(overview.status, 200, "{}", overview.body);
    let header = |p: &Page, name: &str| {
        p.headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned()
    };
    let csp = header(&overview, "content-security-policy");
    assert!(
        csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"),
        "{csp}"
    );
    assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
    assert_eq!(header(&overview, "x-frame-options"), "DENY");
    assert_eq!(header(&overview, "referrer-policy"), "same-origin");
    assert!(!overview.body.contains("<script>"), "no inline script");
    // The vendored htmx is served under its hashed name.
    let htmx = overview
        .body
        .split("src=\"")
        .nth(1)
        .and_then(|s| s.split('"').next())
        .expect("script src")
        .to_owned();
    assert!(htmx.starts_with("/portal/assets/htmx-"), "{htmx}");
    let js = b.get(&htmx).await;
    assert_eq!(js.status, 200);
    assert!(js.body.contains("htmx"));
    assert!(header(&js, "cache-control").contains("immutable"));

    // Sign out ends the session; sign in again with the password (email case-insensitive).
    let csrf = overview.csrf();
    let out = b.post("/portal/signout", &[("csrf", &csrf)]).await;
    assert_eq!((out.status, out.location()), (303, "/portal/signin"));
    assert_eq!(b.get("/portal/overview").await.status, 303);
    let wrong = sign_in(&mut b, &email, "not the password at all").await;
    assert_eq!(wrong.status, 401);
    assert!(wrong.body.contains("email or password is wrong"));
    let ok = sign_in(&mut b, &email.to_uppercase(), PASSWORD).await;
    assert_eq!((ok.status, ok.location()), (303, "/portal/overview"));
    assert_eq!(b.get("/portal/overview").await.status, 200);

    // Password change: the current one is checked; afterwards only the new one works.
    let account = b.get("/portal/account").await;
    let csrf = account.csrf();
    let new = "another long passphrase 42";
    let bad = b
        .post(
            "/portal/account/password",
            &[
                ("csrf", &csrf),
                ("current", "wrong wrong wrong"),
                ("password", new),
                ("confirm", new),
            ],
        )
        .await;
    assert_eq!(bad.status, 422);
    let changed = b
        .post(
            "/portal/account/password",
            &[
                ("csrf", &csrf),
                ("current", PASSWORD),
                ("password", new),
                ("confirm", new),
            ],
        )
        .await;
    assert_eq!(changed.status, 303, "{}", changed.body);
    assert_eq!(b.get("/portal/account").await.status, 200);
    let mut other = Browser::new(&server);
    assert_eq!(sign_in(&mut other, &email, PASSWORD).await.status, 401);
    assert_eq!(sign_in(&mut other, &email, new).await.status, 303);
    server.stop().await;
}

async fn forms_need_the_csrf_token(db: Db) {
    let server = start(&db).await;
    let name = partner("portal-csrf");
    let (mut b, _) = signed_in(&server, &db, &name).await;
    let keys_page = b.get("/portal/keys").await;
    let csrf = keys_page.csrf();
    let count = |s: &Server| {
        let storage = s.storage.clone();
        let name = name.clone();
        async move {
            storage
                .list_keys()
                .await
                .expect("keys")
                .iter()
                .filter(|k| k.partner_name == name)
                .count()
        }
    };

    // Missing, wrong, or right token from another origin: refused, nothing created.
    assert_eq!(b.post("/portal/keys", &[]).await.status, 403);
    assert_eq!(
        b.post("/portal/keys", &[("csrf", "forged")]).await.status,
        403
    );
    let cross = b
        .post_with(
            "/portal/keys",
            &[("csrf", &csrf)],
            Some("https://evil.example"),
        )
        .await;
    assert_eq!(cross.status, 403);
    assert_eq!(count(&server).await, 0);

    // The sign-in form needs its own (double-submit) token too.
    let mut anon = Browser::new(&server);
    let refused = anon
        .post(
            "/portal/signin",
            &[("csrf", "x"), ("email", "a@b.example"), ("password", "p")],
        )
        .await;
    assert_eq!(refused.status, 403);

    // With the token: created.
    let created = b.post("/portal/keys", &[("csrf", &csrf)]).await;
    assert_eq!(created.status, 200, "{}", created.body);
    assert_eq!(count(&server).await, 1);
    server.stop().await;
}

/// The key shown once on the keys page.
fn shown_key(page: &Page) -> String {
    let at = page.body.find("alama_sk_").expect("key shown");
    page.body[at..]
        .split('<')
        .next()
        .expect("key")
        .trim()
        .to_owned()
}

async fn keys_and_webhooks_from_the_portal(db: Db) {
    let server = start(&db).await;
    let name = partner("portal-keys");
    let (mut b, _) = signed_in(&server, &db, &name).await;
    let csrf = b.get("/portal/keys").await.csrf();

    // A Sandbox key, shown once, works with the API; after revoking it answers 401.
    let created = b.post("/portal/keys", &[("csrf", &csrf)]).await;
    let key = shown_key(&created);
    assert!(key.starts_with("alama_sk_sandbox_"), "{key}");
    assert!(
        !b.get("/portal/keys").await.body.contains(&key),
        "shown once only"
    );
    let (status, _, report) = server
        .analyse(&key, statement_csv(200), None, None, None)
        .await;
    assert_eq!(status, 201, "{report}");
    let report_id = report["reportId"].as_str().expect("id").to_owned();

    // The report is listed and searchable, and its page shows the score.
    let reports = b.get("/portal/reports").await;
    assert!(reports.body.contains(&report_id));
    let found = b.get(&format!("/portal/reports?q={report_id}")).await;
    assert!(found.body.contains(&report_id));
    let none = b.get("/portal/reports?q=rpt_nothing").await;
    assert!(!none.body.contains(&report_id));
    let page = b.get(&format!("/portal/reports/{report_id}")).await;
    assert_eq!(page.status, 200);
    let score = report["score"].as_i64().expect("score").to_string();
    assert!(
        page.body.contains(&format!("id=\"score\">{score}<")),
        "{}",
        page.body
    );
    // The PDF is Live-only.
    assert_eq!(
        b.get(&format!("/portal/reports/{report_id}/pdf"))
            .await
            .status,
        403
    );

    // Overview: the figures of /v1/usage for this environment (1 completed analysis).
    let overview = b.get("/portal/overview").await;
    assert!(
        overview.body.contains("id=\"total-billable\">1<"),
        "{}",
        overview.body
    );
    assert!(
        overview.body.contains("id=\"total-success\">100.0%<"),
        "{}",
        overview.body
    );

    // Try it: the upload goes through the API with the pasted Sandbox key; the report opens.
    let try_page = b.get("/portal/try").await;
    assert_eq!(try_page.status, 200);
    let tried = b
        .try_upload(&try_page.csrf(), &key, &statement_csv(120))
        .await;
    assert_eq!(tried.status, 303, "{}", tried.body);
    assert!(
        tried.location().starts_with("/portal/reports/rpt_"),
        "{}",
        tried.location()
    );
    assert_eq!(b.get(tried.location()).await.status, 200);
    // Someone else's or a made-up key is refused before anything is analysed.
    let refused = b
        .try_upload(
            &try_page.csrf(),
            "alama_sk_sandbox_nope",
            &statement_csv(120),
        )
        .await;
    assert_eq!(refused.status, 422);
    assert!(refused.body.contains("Sandbox key of your organisation"));
    // A statement the engine cannot read: the page comes back with the refusal and the key
    // (without JavaScript); for htmx, the refusal alone, swapped in above the untouched form.
    let unreadable = b
        .try_upload(&try_page.csrf(), &key, b"not a statement at all")
        .await;
    assert_eq!(unreadable.status, 422, "{}", unreadable.body);
    assert!(
        unreadable.body.contains("id=\"try-error\""),
        "{}",
        unreadable.body
    );
    assert!(
        unreadable.body.contains(&format!("value=\"{key}\"")),
        "the key is kept"
    );
    let fragment = b
        .try_upload_as(&try_page.csrf(), &key, b"not a statement at all", true)
        .await;
    assert_eq!(fragment.status, 200);
    assert!(
        fragment.body.trim_start().starts_with("<p class=\"error\""),
        "{}",
        fragment.body
    );
    assert!(!fragment.body.contains("<form"), "{}", fragment.body);
    // htmx follows HX-Redirect to the report.
    let by_htmx = b
        .try_upload_as(&try_page.csrf(), &key, &statement_csv(120), true)
        .await;
    assert_eq!(by_htmx.status, 204, "{}", by_htmx.body);
    let redirect = by_htmx
        .headers
        .get("hx-redirect")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    assert!(redirect.starts_with("/portal/reports/rpt_"), "{redirect:?}");
    let overview = b.get("/portal/overview").await;
    assert!(
        overview.body.contains("id=\"total-billable\">3<"),
        "{}",
        overview.body
    );

    // Try it with Live selected: the page says the analysis runs in Sandbox; after it the
    // session is in Sandbox and the report opens there, saying so (it was a bare 404).
    let switched = b
        .post(
            "/portal/environment",
            &[("csrf", &overview.csrf()), ("environment", "live")],
        )
        .await;
    assert_eq!(switched.status, 303);
    let live_try = b.get("/portal/try").await;
    assert!(
        live_try.body.contains("id=\"try-live\""),
        "{}",
        live_try.body
    );
    let tried = b
        .try_upload(&live_try.csrf(), &key, &statement_csv(120))
        .await;
    assert_eq!(tried.status, 303, "{}", tried.body);
    assert!(
        tried.location().ends_with("?from=try"),
        "{}",
        tried.location()
    );
    let opened = b.get(tried.location()).await;
    assert_eq!(opened.status, 200, "{}", opened.body);
    assert!(opened.body.contains("id=\"notice\""), "{}", opened.body);
    assert!(
        opened.body.contains("badge sandbox"),
        "the session is in Sandbox"
    );
    assert!(
        opened.body.contains("id=\"test-data\""),
        "a Sandbox report is test data"
    );

    // Revoke: a confirmation page, then the key stops working.
    let key_id = server
        .storage
        .list_keys()
        .await
        .expect("keys")
        .into_iter()
        .find(|k| k.partner_name == name)
        .expect("key")
        .id;
    let confirm = b.get(&format!("/portal/keys/{key_id}/revoke")).await;
    assert_eq!(confirm.status, 200);
    let revoked = b
        .post(
            &format!("/portal/keys/{key_id}/revoke"),
            &[("csrf", &confirm.csrf())],
        )
        .await;
    assert_eq!(revoked.status, 303);
    let (status, _, _) = server.get(&format!("/v1/scores/{report_id}"), &key).await;
    assert_eq!(status, 401);

    // Webhooks: a refused URL says why; an accepted one shows its secret once.
    let page = b.get("/portal/webhooks").await;
    let bad = b
        .post(
            "/portal/webhooks",
            &[("csrf", &page.csrf()), ("url", "ftp://x.example/")],
        )
        .await;
    assert_eq!(bad.status, 422);
    let added = b
        .post(
            "/portal/webhooks",
            &[("csrf", &page.csrf()), ("url", "http://127.0.0.1:9/hook")],
        )
        .await;
    assert_eq!(added.status, 200, "{}", added.body);
    assert!(added.body.contains("whsec_"));
    let endpoint_id = added
        .body
        .split("Endpoint ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .expect("endpoint id")
        .to_owned();
    assert!(endpoint_id.starts_with("whe_"), "{endpoint_id}");
    assert!(!b.get("/portal/webhooks").await.body.contains("whsec_"));
    let detail = b.get(&format!("/portal/webhooks/{endpoint_id}")).await;
    assert_eq!(detail.status, 200);
    // A test event is queued like any event (the worker is off here: it stays pending).
    let sent = b
        .post(
            &format!("/portal/webhooks/{endpoint_id}/test"),
            &[("csrf", &detail.csrf())],
        )
        .await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    let log = b.get(&format!("/portal/webhooks/{endpoint_id}")).await;
    assert!(log.body.contains("badge wait\">pending<"), "{}", log.body);
    let kind: String = sqlx::Row::get(
        &sqlx::query("SELECT event_type FROM webhook_events WHERE endpoint_id = $1")
            .bind(&endpoint_id)
            .fetch_one(server.storage.pool())
            .await
            .expect("event"),
        0,
    );
    assert_eq!(kind, "webhook.test");
    let rotated = b
        .post(
            &format!("/portal/webhooks/{endpoint_id}/rotate"),
            &[("csrf", &detail.csrf())],
        )
        .await;
    assert!(rotated.body.contains("whsec_"));
    let removed = b
        .post(
            &format!("/portal/webhooks/{endpoint_id}/remove"),
            &[("csrf", &detail.csrf())],
        )
        .await;
    assert_eq!(removed.status, 303);
    assert_eq!(
        b.get(&format!("/portal/webhooks/{endpoint_id}"))
            .await
            .status,
        404
    );
    server.stop().await;
}

async fn partners_never_reach_each_other(db: Db) {
    let server = start(&db).await;
    let (name_a, name_b) = (partner("portal-a"), partner("portal-b"));
    let (mut a, _) = signed_in(&server, &db, &name_a).await;
    let (mut b, _) = signed_in(&server, &db, &name_b).await;

    // B: a key, a report, an endpoint with a failed event.
    let csrf_b = b.get("/portal/keys").await.csrf();
    let key_b = shown_key(&b.post("/portal/keys", &[("csrf", &csrf_b)]).await);
    let added = b
        .post(
            "/portal/webhooks",
            &[("csrf", &csrf_b), ("url", "http://127.0.0.1:9/b-hook")],
        )
        .await;
    assert_eq!(added.status, 200);
    let (status, _, report) = server
        .analyse(&key_b, statement_csv(200), None, None, None)
        .await;
    assert_eq!(status, 201, "{report}");
    let report_b = report["reportId"].as_str().expect("id").to_owned();
    let key_id_b = server
        .storage
        .list_keys()
        .await
        .expect("keys")
        .into_iter()
        .find(|k| k.partner_name == name_b)
        .expect("key")
        .id;
    let endpoint_b = server
        .storage
        .list_endpoints()
        .await
        .expect("endpoints")
        .into_iter()
        .find(|e| e.partner_name == name_b)
        .expect("endpoint")
        .id;
    sqlx::query("UPDATE webhook_events SET status = 'failed' WHERE endpoint_id = $1")
        .bind(&endpoint_b)
        .execute(server.storage.pool())
        .await
        .expect("fail the event");
    let event_b: String = sqlx::Row::get(
        &sqlx::query("SELECT id FROM webhook_events WHERE endpoint_id = $1")
            .bind(&endpoint_b)
            .fetch_one(server.storage.pool())
            .await
            .expect("event"),
        0,
    );

    let consent_b = server.granted_consent(&key_b).await;
    let consents = b.get("/portal/consents").await;
    assert_eq!(consents.status, 200);
    assert!(consents.body.contains(&consent_b), "{}", consents.body);
    assert!(
        consents.body.contains("badge ok\">granted<"),
        "{}",
        consents.body
    );
    // The notice's hash short on the page, whole behind its copy button.
    assert!(
        consents.body.contains("data-copy=\"sha-"),
        "{}",
        consents.body
    );

    // A sees none of it on its pages…
    let csrf_a = a.get("/portal/keys").await.csrf();
    let report_link = format!("href=\"/portal/reports/{report_b}\"");
    for (path, secret) in [
        ("/portal/keys", key_id_b.as_str()),
        ("/portal/webhooks", endpoint_b.as_str()),
        ("/portal/reports", report_b.as_str()),
        ("/portal/consents", consent_b.as_str()),
        (
            &*format!("/portal/reports?q={report_b}"),
            report_link.as_str(),
        ),
    ] {
        let page = a.get(path).await;
        assert_eq!(page.status, 200, "{path}");
        assert!(!page.body.contains(secret), "{path} shows {secret}");
    }
    let overview = a.get("/portal/overview").await;
    assert!(
        overview.body.contains("id=\"total-billable\">0<"),
        "{}",
        overview.body
    );

    // …and reaches none of it by URL: every read and action answers 404 and changes nothing.
    for path in [
        format!("/portal/keys/{key_id_b}/revoke"),
        format!("/portal/webhooks/{endpoint_b}"),
        format!("/portal/webhooks/{endpoint_b}/remove"),
        format!("/portal/reports/{report_b}"),
    ] {
        assert_eq!(a.get(&path).await.status, 404, "GET {path}");
    }
    for path in [
        format!("/portal/keys/{key_id_b}/revoke"),
        format!("/portal/webhooks/{endpoint_b}/test"),
        format!("/portal/webhooks/{endpoint_b}/rotate"),
        format!("/portal/webhooks/{endpoint_b}/remove"),
        format!("/portal/events/{event_b}/resend"),
    ] {
        assert_eq!(
            a.post(&path, &[("csrf", &csrf_a)]).await.status,
            404,
            "POST {path}"
        );
    }
    let events_b = |s: &Server| {
        let pool = s.storage.pool().clone();
        let endpoint = endpoint_b.clone();
        async move {
            let row = sqlx::query("SELECT COUNT(*) FROM webhook_events WHERE endpoint_id = $1")
                .bind(endpoint)
                .fetch_one(&pool)
                .await
                .expect("count");
            sqlx::Row::get::<i64, _>(&row, 0)
        }
    };
    assert_eq!(
        events_b(&server).await,
        1,
        "A's test event did not reach B's endpoint"
    );
    // A test event needs a report of A's own.
    let own = a
        .post(
            "/portal/webhooks",
            &[("csrf", &csrf_a), ("url", "http://127.0.0.1:9/a-hook")],
        )
        .await;
    let endpoint_a = own
        .body
        .split("Endpoint ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .expect("endpoint id")
        .to_owned();
    let no_report = a
        .post(
            &format!("/portal/webhooks/{endpoint_a}/test"),
            &[("csrf", &csrf_a)],
        )
        .await;
    assert_eq!(no_report.status, 403);

    // B's key still works, B's endpoint is still there with its secret, the event still failed.
    let (status, _, _) = server.get(&format!("/v1/scores/{report_b}"), &key_b).await;
    assert_eq!(status, 200);
    let endpoint = server
        .storage
        .list_endpoints()
        .await
        .expect("endpoints")
        .into_iter()
        .find(|e| e.id == endpoint_b)
        .expect("still active");
    assert!(endpoint.secret.starts_with("whsec_"));
    assert!(
        b.get(&format!("/portal/webhooks/{endpoint_b}"))
            .await
            .body
            .contains("Re-send")
    );

    // B's own view in Live does not show its Sandbox things either.
    let csrf_b = b.get("/portal/keys").await.csrf();
    let switched = b
        .post(
            "/portal/environment",
            &[("csrf", &csrf_b), ("environment", "live")],
        )
        .await;
    assert_eq!(switched.status, 303);
    let live_keys = b.get("/portal/keys").await;
    assert!(live_keys.body.contains("Live"));
    assert!(!live_keys.body.contains(&key_id_b));
    assert_eq!(
        b.get(&format!("/portal/reports/{report_b}")).await.status,
        404
    );
    server.stop().await;
}

/// SQLite only: failures are counted per client address, and every test connects from
/// 127.0.0.1, so on the shared PostgreSQL database this test would slow the others down.
/// Issue 41: growing delays per account and address instead of a lock that kept the owner out
/// from everywhere (before: after 5 failures from one address, the right password from another
/// address got 429, with no `Retry-After`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_sign_ins_are_slowed_down_not_locked() {
    use alama_server::portal::throttle::FREE_PER_PAIR;
    let db = Db::sqlite();
    let server = start(&db).await;
    let name = partner("portal-throttle");
    let (_, email) = signed_in(&server, &db, &name).await;
    let mut attacker = Browser::new(&server);
    for _ in 0..FREE_PER_PAIR {
        assert_eq!(
            sign_in(&mut attacker, &email, "wrong password!!")
                .await
                .status,
            401
        );
    }
    // From this address, the account now waits a second, then two, then four...; even the
    // right password is refused before it is checked.
    let held = sign_in(&mut attacker, &email, PASSWORD).await;
    assert_eq!(held.status, 429, "{}", held.body);
    assert_eq!(retry_after(&held), Some(1));
    assert!(held.body.contains("too many failed sign-ins"));
    // The owner, from another address, is not held at all.
    let mut owner = Browser::from_address(&server, [127, 0, 0, 2]);
    let signed = sign_in(&mut owner, &email, PASSWORD).await;
    assert_eq!(signed.status, 303, "{}", signed.body);
    // The delay grows with each further failure.
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    assert_eq!(
        sign_in(&mut attacker, &email, "wrong password!!")
            .await
            .status,
        401
    );
    let held = sign_in(&mut attacker, &email, "wrong password!!").await;
    assert_eq!(held.status, 429);
    assert_eq!(retry_after(&held), Some(2));
    tokio::time::sleep(std::time::Duration::from_millis(2100)).await;
    assert_eq!(sign_in(&mut attacker, &email, PASSWORD).await.status, 303);

    // Per address: 20 failures over many accounts delay that address, not the accounts.
    let (_, other) = signed_in(&server, &db, &name).await;
    let mut c = Browser::from_address(&server, [127, 0, 0, 3]);
    for i in 0..20 {
        let status = sign_in(&mut c, &format!("nobody{i}@x.example"), "whatever")
            .await
            .status;
        assert_eq!(status, 401);
    }
    let held = sign_in(&mut c, &other, PASSWORD).await;
    assert_eq!(held.status, 429);
    assert_eq!(retry_after(&held), Some(1));
    let mut d = Browser::from_address(&server, [127, 0, 0, 4]);
    assert_eq!(sign_in(&mut d, &other, PASSWORD).await.status, 303);

    // A burst of parallel guesses does not slip past the delays while the first are hashed.
    let (_, third) = signed_in(&server, &db, &name).await;
    let mut ready = Vec::new();
    for _ in 0..12 {
        let mut b = Browser::from_address(&server, [127, 0, 0, 5]);
        let csrf = b.get("/portal/signin").await.csrf();
        ready.push((b, csrf));
    }
    let mut burst = tokio::task::JoinSet::new();
    for (mut b, csrf) in ready {
        let email = third.clone();
        burst.spawn(async move {
            let fields = [
                ("csrf", csrf.as_str()),
                ("email", email.as_str()),
                ("password", "wrong password!!"),
            ];
            b.post("/portal/signin", &fields).await.status
        });
    }
    let statuses = burst.join_all().await;
    let checked = statuses.iter().filter(|s| **s == 401).count();
    eprintln!("burst of 12 parallel guesses: {checked} checked, the rest 429");
    assert_eq!(checked + statuses.iter().filter(|s| **s == 429).count(), 12);
    assert!(
        checked <= usize::try_from(FREE_PER_PAIR).unwrap_or(0) + 1,
        "{statuses:?}"
    );
    server.stop().await;
}

fn retry_after(page: &Page) -> Option<u64> {
    page.headers
        .get("retry-after")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok())
}

async fn sessions_expire(db: Db) {
    let server = start(&db).await;
    let (mut b, _) = signed_in(&server, &db, &partner("portal-expiry")).await;
    assert_eq!(b.get("/portal/keys").await.status, 200);
    let token = b
        .cookies
        .get("alama_portal_session")
        .expect("cookie")
        .clone();
    let id_hash = alama_server::portal::session::token_hash(&token);
    let idle = alama_server::ids::now_ms() - alama_server::portal::session::IDLE_MS - 1000;
    sqlx::query("UPDATE portal_sessions SET last_seen_at = $2 WHERE id_hash = $1")
        .bind(&id_hash)
        .bind(idle)
        .execute(server.storage.pool())
        .await
        .expect("age the session");
    let page = b.get("/portal/keys").await;
    assert_eq!((page.status, page.location()), (303, "/portal/signin"));
    // The expired session is gone from the database.
    assert!(
        server
            .storage
            .portal_session(&id_hash)
            .await
            .expect("query")
            .is_none()
    );

    // Absolute expiry: a session older than 12 hours ends even while in use.
    let (mut c, email) = signed_in(&server, &db, &partner("portal-expiry")).await;
    let token = c
        .cookies
        .get("alama_portal_session")
        .expect("cookie")
        .clone();
    let old = alama_server::ids::now_ms() - alama_server::portal::session::ABSOLUTE_MS - 1000;
    sqlx::query("UPDATE portal_sessions SET created_at = $2 WHERE id_hash = $1")
        .bind(alama_server::portal::session::token_hash(&token))
        .bind(old)
        .execute(server.storage.pool())
        .await
        .expect("age the session");
    assert_eq!(c.get("/portal/keys").await.status, 303);

    // Abandoned sessions are deleted when anyone signs in, not only when they come back.
    let (d, _) = signed_in(&server, &db, &partner("portal-expiry")).await;
    let abandoned = alama_server::portal::session::token_hash(
        d.cookies.get("alama_portal_session").expect("cookie"),
    );
    sqlx::query("UPDATE portal_sessions SET last_seen_at = 0 WHERE id_hash = $1")
        .bind(&abandoned)
        .execute(server.storage.pool())
        .await
        .expect("abandon the session");
    let _ = signed_in(&server, &db, &partner("portal-expiry")).await;
    assert!(
        server
            .storage
            .portal_session(&abandoned)
            .await
            .expect("query")
            .is_none()
    );

    // `alama users link` makes a new link; an expired one is refused; `list` shows the user.
    let database = alama_server::cli::DatabaseArgs {
        database: db.url.clone(),
    };
    let (mut out, mut err) = (Vec::new(), Vec::new());
    users_command(
        &UsersCommand::Link {
            email: email.clone(),
            portal_url: "http://portal.example".to_owned(),
            db: database.clone(),
        },
        &mut out,
        &mut err,
    )
    .await
    .expect("users link");
    let link = String::from_utf8(out).expect("utf-8");
    let path = link
        .trim()
        .strip_prefix("http://portal.example")
        .expect("link");
    let token = path.rsplit('/').next().expect("token");
    sqlx::query("UPDATE portal_links SET expires_at = 0 WHERE token_hash = $1")
        .bind(alama_server::portal::session::token_hash(token))
        .execute(server.storage.pool())
        .await
        .expect("expire the link");
    assert_eq!(c.get(path).await.status, 403);
    let (mut out, mut err) = (Vec::new(), Vec::new());
    users_command(&UsersCommand::List { db: database }, &mut out, &mut err)
        .await
        .expect("users list");
    let listing = String::from_utf8(out).expect("utf-8");
    let line = listing
        .lines()
        .find(|l| l.contains(&email))
        .expect("user listed");
    assert!(line.ends_with("  set"), "password set: {line}");
    server.stop().await;
}

/// The other wallets' golden vectors (`tests/vectors/wallet-*`, each made by its wallet's seeded
/// generator): (file, provider, wallet name, currency, built-in card of the currency).
const WALLET_VECTORS: [(&str, &str, &str, &str, &str); 3] = [
    (
        "wallet-airtel-ug-seed1-60rows.pdf",
        "airtel-money-ug",
        "Airtel Money Uganda",
        "UGX",
        "alama-ugx-2027.03",
    ),
    (
        "wallet-mtn-gh-seed2-80rows.csv",
        "mtn-momo-gh",
        "MTN MoMo Ghana",
        "GHS",
        "alama-ghs-2027.03",
    ),
    (
        "wallet-vodacom-ls-seed3-80rows.pdf",
        "vodacom-mpesa-ls",
        "Vodacom M-Pesa Lesotho",
        "LSL",
        "alama-lsl-2027.03",
    ),
];

/// Each other wallet's own file through `POST /v1/scores/analyse`: detected, scored with the
/// built-in card of its currency, the engine's part of the report equal to the vector's; then
/// the portal's report page names the wallet and the currency, and its money is in that currency.
async fn other_wallets_through_the_api_and_the_report_page(db: Db) {
    let server = start(&db).await;
    let name = partner("portal-wallets");
    let (mut b, _) = signed_in(&server, &db, &name).await;
    let csrf = b.get("/portal/keys").await.csrf();
    let key = shown_key(&b.post("/portal/keys", &[("csrf", &csrf)]).await);
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/vectors");
    for (file, provider, wallet, currency, card) in WALLET_VECTORS {
        let bytes = std::fs::read(dir.join(file)).expect("the vector's file");
        let path = dir.join(file).with_extension("json");
        let vector: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(path).expect("vector")).expect("JSON");
        let (status, _, report) = server.analyse(&key, bytes, None, None, None).await;
        assert_eq!(status, 201, "{file}: {report}");
        assert_eq!(report["statement"]["provider"], provider, "{file}");
        assert_eq!(report["statement"]["currency"], currency, "{file}");
        assert_eq!(report["scorecardVersion"], card, "{file}");
        let builtin = alama_core::scorecard::builtin_for(currency).expect("built-in card");
        assert_eq!(report["scorecardSha256"], builtin.sha256(), "{file}");
        for field in [
            "score",
            "band",
            "statementPeriod",
            "factors",
            "insights",
            "reasonCodes",
            "integrity",
        ] {
            assert_eq!(report[field], vector["report"][field], "{file}: {field}");
        }
        // The statement's overview too, but for the holder's name, which the service masks.
        let overview = |v: &serde_json::Value| {
            let mut o = v["statement"].clone();
            o.as_object_mut().map(|m| m.remove("holderName"));
            o
        };
        assert_eq!(overview(&report), overview(&vector["report"]), "{file}");
        assert_ne!(report["statement"]["holderName"], "TEST HOLDER", "masked");

        let id = report["reportId"].as_str().expect("id");
        let page = b.get(&format!("/portal/reports/{id}")).await;
        assert_eq!(page.status, 200, "{file}");
        let body = &page.body;
        for shown in [
            format!("id=\"score\">{}<", report["score"]),
            format!("id=\"wallet\">{wallet}<"),
            format!("id=\"currency\">{currency}<"),
            format!("id=\"scorecard\">{card}<"),
        ] {
            assert!(body.contains(&shown), "{file}: {shown} not on the page");
        }
        // The insights' money is in the statement's currency as the engine writes it, never KES.
        let income = report["insights"]
            .as_array()
            .and_then(|list| list.iter().find(|i| i["code"] == "average_monthly_income"))
            .and_then(|i| i["message"].as_str())
            .and_then(|m| m.split(" per 30 days").next())
            .expect("average income insight");
        assert!(
            income.starts_with(&format!("Average income is {currency} ")),
            "{income}"
        );
        assert!(body.contains(income), "{file}: {income} not on the page");
        assert!(
            !body.contains("KES "),
            "{file}: KES on the page of a {currency} report"
        );
        // In the wallet's terms: its name, never its code; the creation time in its zone,
        // labelled; the shilling without decimals in prose; each reason code once.
        assert!(
            !body.contains(provider),
            "{file}: the code {provider} on the page"
        );
        let zone = match currency {
            "UGX" => "EAT",
            "GHS" => "GMT",
            _ => "SAST",
        };
        let created = body
            .split("id=\"created\">")
            .nth(1)
            .and_then(|rest| rest.split('<').next())
            .unwrap_or_default();
        assert!(
            created.ends_with(&format!(" {zone}")),
            "{file}: created {created:?}"
        );
        let decimals = body.match_indices(&format!("{currency} ")).any(|(at, m)| {
            let amount: String = body[at + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_digit() || *c == ',' || *c == '.')
                .collect();
            amount.trim_end_matches('.').contains('.')
        });
        assert_eq!(
            decimals,
            currency != "UGX",
            "{file}: {currency} amounts' decimals"
        );
        let codes: Vec<&str> = body
            .split("<code class=\"code\">")
            .skip(1)
            .filter_map(|rest| rest.split('<').next())
            .collect();
        let unique: std::collections::BTreeSet<&&str> = codes.iter().collect();
        assert!(
            !codes.is_empty() && unique.len() == codes.len(),
            "{file}: {codes:?}"
        );
    }
    server.stop().await;
}
