//! # alama-server
//!
//! The partner-facing HTTP service of Alama (`alama serve`): API keys per environment
//! (Sandbox/Live), customer consents, statement analysis and score reports, over axum and
//! tokio, stored through one repository layer in SQLite (default, a file) or PostgreSQL.
//!
//! ```no_run
//! # async fn demo() -> Result<(), Box<dyn std::error::Error>> {
//! let storage = alama_server::storage::Storage::connect("alama.db").await?;
//! let state = alama_server::AppState::new(storage, alama_server::Limits::default());
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:8080").await?;
//! alama_server::serve(listener, state, std::future::pending()).await?;
//! # Ok(())
//! # }
//! ```
//!
//! Modules, one per concept: [`keys`] (key format), [`auth`] (bearer keys), [`consents`],
//! [`scores`] (analyse, fetch), [`pdf`] (the shareable PDF), [`usage`], [`analysis`] (running the engine safely), [`limits`],
//! [`error`] (the one code → HTTP table), [`client_ip`] (the client address behind trusted proxies), [`problem`] (RFC 9457 bodies), [`storage`],
//! [`openapi`], [`webhooks`] (`score.completed` events), [`health`] (`/livez`, `/readyz`), [`metrics`] (Prometheus, `--metrics-bind`), [`logging`] (`--log-format`), [`scorecards`] (a partner's own
//! scorecards, `alama scorecards`), [`cli`] (`alama serve`, `alama keys`,
//! `alama webhooks`), [`portal`] (the developer portal under `/portal/`, `alama users`).

#[path = "api/analysis.rs"]
pub mod analysis;
#[path = "router.rs"]
pub mod app;
pub mod auth;
pub mod auth_throttle;
pub mod body_timeout;
pub mod cli;
pub mod client_ip;
pub mod connections;
#[path = "api/consents.rs"]
pub mod consents;
pub mod error;
#[path = "api/health.rs"]
pub mod health;
pub mod ids;
pub mod keys;
pub mod limits;
pub mod linger;
pub mod logging;
pub mod metrics;
pub mod openapi;
pub mod parse_errors;
#[path = "api/pdf.rs"]
pub mod pdf;
pub mod policy;
pub mod portal;
pub mod privacy;
pub mod problem;
#[path = "api/scorecards.rs"]
pub mod scorecards;
#[path = "api/scores.rs"]
pub mod scores;
pub mod storage;
#[path = "api/usage.rs"]
pub mod usage;
pub mod webhooks;

pub use app::{AppState, router, serve};
pub use error::ApiError;
pub use keys::Environment;
pub use limits::Limits;
