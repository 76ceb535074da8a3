//! Test support: a real server on a loopback port over SQLite (a temp file) or PostgreSQL
//! (`ALAMA_TEST_POSTGRES_URL`), keys, statements and problem assertions.
//!
//! (Just over 400 lines: the one harness every server suite includes; its parts are used
//! together by every test.)
#![allow(dead_code)]

/// Runs each scenario once per backend: `sqlite::name` always, `postgres::name` when
/// `ALAMA_TEST_POSTGRES_URL` is set (otherwise it says so and passes).
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    super::$name(super::Db::sqlite()).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(db) = super::Db::postgres() else {
                        eprintln!("skipped: ALAMA_TEST_POSTGRES_URL is not set (server/ci-postgres.sh starts one)");
                        return;
                    };
                    super::$name(db).await;
                }
            )*
        }
    };
}

use std::path::PathBuf;

use alama_server::storage::Storage;
use alama_server::webhooks::WebhookConfig;
use alama_server::{AppState, Environment, Limits, keys};
use reqwest::multipart::{Form, Part};
use serde_json::Value;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub mod ops;
mod statement;
pub use statement::statement_csv;

/// Log lines written to memory (a `tracing` writer for the log tests).
#[derive(Clone, Default)]
pub struct Capture(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl Capture {
    /// Everything written so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8(self.0.lock().expect("lock").clone()).expect("utf-8")
    }
}

impl std::io::Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().expect("lock").extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Installs the process-wide subscriber writing every event (`trace`, every crate) as JSON
/// lines into the returned capture (one log test per test binary: it can be installed once).
pub fn capture_json_logs() -> Capture {
    let capture = Capture::default();
    let writer = capture.clone();
    assert!(alama_server::logging::init(
        alama_server::logging::LogFormat::Json,
        tracing_subscriber::EnvFilter::new("trace"),
        move || writer.clone(),
        false,
    ));
    capture
}

/// Sends `raw` on a new connection to `server` and reads until the server closes it or `limit`
/// passes: what it answered, and whether it closed.
pub async fn exchange_raw(
    server: &Server,
    raw: &[u8],
    limit: std::time::Duration,
) -> (String, bool) {
    use tokio::io::AsyncWriteExt;
    let addr = server.base.trim_start_matches("http://");
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(raw).await.expect("write");
    read_until_closed(&mut stream, limit).await
}

/// Reads until the peer closes or `limit` passes; returns what was read and whether the peer
/// closed.
pub async fn read_until_closed(
    stream: &mut tokio::net::TcpStream,
    limit: std::time::Duration,
) -> (String, bool) {
    use tokio::io::AsyncReadExt;
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let closed = tokio::time::timeout(limit, async {
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await
    .is_ok();
    (String::from_utf8_lossy(&out).into_owned(), closed)
}

/// Serves `app` on a free loopback port in the background (a webhook endpoint, a collector):
/// its address and the serving task.
pub async fn serve_loopback(app: axum::Router) -> (std::net::SocketAddr, JoinHandle<()>) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let task = tokio::spawn(async move {
        let _ = axum::serve(listener, app).await;
    });
    (addr, task)
}

/// Where a test's data lives.
pub struct Db {
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

impl Db {
    /// A fresh SQLite file.
    pub fn sqlite() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        let url = format!("sqlite://{}", dir.path().join("alama.db").display());
        Self {
            url,
            _dir: Some(dir),
        }
    }

    /// The PostgreSQL database of `ALAMA_TEST_POSTGRES_URL`, if set (tests share it and keep
    /// apart by using partners of their own).
    pub fn postgres() -> Option<Self> {
        let url = std::env::var("ALAMA_TEST_POSTGRES_URL").ok()?;
        Some(Self { url, _dir: None })
    }

    /// A database no other test writes to: the same SQLite file, or a new database `name` on
    /// the PostgreSQL cluster (dropped first if a previous run left it). For a test whose
    /// retention pass, its cut-off in the future, would erase every other test's rows.
    pub async fn own(self, name: &str) -> Self {
        if !self.url.starts_with("postgres") {
            return self;
        }
        let shared = Storage::connect(&self.url).await.expect("connect");
        for sql in [
            format!("DROP DATABASE IF EXISTS {name}"),
            format!("CREATE DATABASE {name}"),
        ] {
            sqlx::Executor::execute(shared.pool(), sqlx::AssertSqlSafe(sql))
                .await
                .expect("a database of the test's own");
        }
        let (cluster, _) = self.url.rsplit_once('/').expect("a database URL");
        Self {
            url: format!("{cluster}/{name}"),
            _dir: None,
        }
    }
}

/// A running server.
pub struct Server {
    pub base: String,
    pub storage: Storage,
    pub client: reqwest::Client,
    stop: Option<oneshot::Sender<()>>,
    task: JoinHandle<()>,
}

impl Server {
    pub async fn start(db: &Db) -> Self {
        Self::start_with(db, Limits::default()).await
    }

    pub async fn start_with(db: &Db, limits: Limits) -> Self {
        Self::start_full(db, limits, WebhookConfig::default()).await
    }

    /// A server with webhook settings `webhooks`.
    pub async fn start_webhooks(db: &Db, webhooks: WebhookConfig) -> Self {
        Self::start_full(db, Limits::default(), webhooks).await
    }

    pub async fn start_full(db: &Db, limits: Limits, webhooks: WebhookConfig) -> Self {
        let storage = Storage::connect(&db.url).await.expect("connect");
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let addr = listener.local_addr().expect("addr");
        let (stop, stopped) = oneshot::channel::<()>();
        let state = AppState::new(storage.clone(), limits).with_webhooks(webhooks);
        let task = tokio::spawn(async move {
            let _ = alama_server::serve(listener, state, async {
                let _ = stopped.await;
            })
            .await;
        });
        Self {
            base: format!("http://{addr}"),
            storage,
            client: reqwest::Client::new(),
            stop: Some(stop),
            task,
        }
    }

    /// Stops the server and closes its database connections.
    pub async fn stop(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        let _ = (&mut self.task).await;
        self.storage.close().await;
    }

    pub fn url(&self, path: &str) -> String {
        format!("{}{path}", self.base)
    }

    /// A new key of a partner of this test's own.
    pub async fn key(&self, partner: &str, environment: Environment) -> String {
        let partner = self.storage.ensure_partner(partner).await.expect("partner");
        let key = keys::generate(environment);
        self.storage
            .insert_key(&partner, environment, &keys::hash(&key), &keys::hint(&key))
            .await
            .expect("key");
        key
    }

    /// The stored record of `key` (its id, partner, revocation).
    pub async fn key_record(&self, key: &str) -> alama_server::storage::KeyRecord {
        self.storage
            .key_by_hash(&keys::hash(key))
            .await
            .expect("db")
            .expect("key")
    }

    pub async fn get(&self, path: &str, key: &str) -> (u16, reqwest::header::HeaderMap, Value) {
        let r = self
            .client
            .get(self.url(path))
            .bearer_auth(key)
            .send()
            .await
            .expect("GET");
        split(r).await
    }

    pub async fn post_json(
        &self,
        path: &str,
        key: &str,
        body: &Value,
    ) -> (u16, reqwest::header::HeaderMap, Value) {
        let r = self
            .client
            .post(self.url(path))
            .bearer_auth(key)
            .json(body)
            .send()
            .await
            .expect("POST");
        split(r).await
    }

    /// POST /v1/scores/analyse with a statement part and optional fields.
    pub async fn analyse(
        &self,
        key: &str,
        statement: Vec<u8>,
        password: Option<&str>,
        consent: Option<&str>,
        idempotency_key: Option<&str>,
    ) -> (u16, reqwest::header::HeaderMap, Value) {
        let mut form = Form::new().part(
            "statement",
            Part::bytes(statement).file_name("statement.bin"),
        );
        if let Some(p) = password {
            form = form.text("password", p.to_owned());
        }
        if let Some(c) = consent {
            form = form.text("consentId", c.to_owned());
        }
        let mut request = self
            .client
            .post(self.url("/v1/scores/analyse"))
            .bearer_auth(key)
            .multipart(form);
        if let Some(k) = idempotency_key {
            request = request.header("Idempotency-Key", k);
        }
        split(request.send().await.expect("POST analyse")).await
    }

    /// POST /v1/scores/analyse of `statement` (a sandbox key: no consent) with a W3C
    /// `traceparent` header.
    pub async fn analyse_traced(
        &self,
        key: &str,
        statement: Vec<u8>,
        traceparent: &str,
    ) -> (u16, reqwest::header::HeaderMap, Value) {
        let form = Form::new().part(
            "statement",
            Part::bytes(statement).file_name("statement.csv"),
        );
        let request = self
            .client
            .post(self.url("/v1/scores/analyse"))
            .bearer_auth(key)
            .header("traceparent", traceparent)
            .multipart(form);
        split(request.send().await.expect("POST analyse")).await
    }

    /// A granted consent of the partner of `key`.
    pub async fn granted_consent(&self, key: &str) -> String {
        let (status, _, consent) = self
            .post_json(
                "/v1/consents",
                key,
                &serde_json::json!({"customerReference": "APP-1", "purpose": "credit_scoring"}),
            )
            .await;
        assert_eq!(status, 201, "{consent}");
        let id = consent["consentId"].as_str().expect("id").to_owned();
        let (status, _, granted) = self
            .post_json(
                &format!("/v1/consents/{id}/grant"),
                key,
                &serde_json::json!({"method": "app", "noticeSha256": consent["notice"]["sha256"]}),
            )
            .await;
        assert_eq!(status, 200, "{granted}");
        id
    }
}

pub async fn split(r: reqwest::Response) -> (u16, reqwest::header::HeaderMap, Value) {
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let text = r.text().await.expect("body");
    let body = if text.is_empty() {
        Value::Null
    } else {
        serde_json::from_str(&text).unwrap_or(Value::String(text))
    };
    (status, headers, body)
}

/// Asserts an RFC 9457 problem with `code` and `status`, the request id in body and header.
pub fn assert_problem(got: &(u16, reqwest::header::HeaderMap, Value), status: u16, code: &str) {
    let (s, headers, body) = got;
    assert_eq!(*s, status, "{body}");
    assert_eq!(
        headers.get("content-type").and_then(|v| v.to_str().ok()),
        Some("application/problem+json"),
        "{body}"
    );
    assert_eq!(body["code"], code, "{body}");
    assert_eq!(body["status"], status, "{body}");
    assert_eq!(body["type"], format!("urn:alama:problem:{code}"));
    assert!(body["title"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(body["detail"].as_str().is_some_and(|t| !t.is_empty()));
    let request_id = headers
        .get("x-request-id")
        .and_then(|v| v.to_str().ok())
        .expect("X-Request-Id");
    assert!(request_id.starts_with("req_"));
    assert_eq!(body["requestId"], request_id);
}

/// A unique partner name for this test.
pub fn partner(label: &str) -> String {
    format!("{label}-{}", alama_server::ids::new_id("t"))
}

/// The real statements folder (`../shared/samples/real/` from the repository root), if present.
pub fn real_sample(name: &str) -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/samples/real")
        .join(name);
    path.exists().then_some(path)
}

/// POST /v1/scores/analyse with `statement` and an optional `scorecard` field.
pub async fn analyse(
    server: &Server,
    key: &str,
    statement: Vec<u8>,
    scorecard: Option<&str>,
) -> (u16, reqwest::header::HeaderMap, Value) {
    let mut form = Form::new().part("statement", Part::bytes(statement).file_name("s.bin"));
    if let Some(s) = scorecard {
        form = form.text("scorecard", s.to_owned());
    }
    let r = server
        .client
        .post(server.url("/v1/scores/analyse"))
        .bearer_auth(key)
        .multipart(form)
        .send()
        .await
        .expect("POST analyse");
    split(r).await
}
