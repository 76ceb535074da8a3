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
//! Modules, one per concept, in layers: each names only those below it (checked by
//! `tests/layers.rs`; the map is in `ARCHITECTURE.md`). Bottom first: plain types ([`ids`],
//! [`keys`], [`policy`], [`limits`], [`client_ip`], [`logging`], …); [`storage`] (SQLite and
//! PostgreSQL, its own error, and the only module that runs SQL); [`metrics`], [`webhooks`]
//! (`score.completed` events) and [`privacy`] over it; the HTTP error ([`error`], the one code →
//! HTTP table) and [`problem`] (RFC 9457 bodies), [`admission`] (rate limit, file type), and the
//! connection plumbing ([`connections`]); [`state`] ([`AppState`]); [`auth`] (bearer keys); the
//! handlers ([`api`]: `consents`, `scores`, `pdf`, `usage`, `health`, `scorecards`; [`portal`],
//! the developer portal under `/portal/`); [`router`] and [`openapi`]; the CLI ([`cli`]:
//! `alama serve`, `keys`, `webhooks`, `scorecards`, `users`).
//!
//! At the root: [`AppState`], [`Environment`], [`Limits`] and [`serve`], what a program that
//! runs the service needs.

pub mod admission;
pub mod api;
pub mod auth;
pub mod auth_throttle;
pub mod body_timeout;
pub mod cli;
pub mod client_ip;
pub mod connections;
pub mod error;
pub mod ids;
pub mod keys;
pub mod limits;
pub mod linger;
pub mod logging;
pub mod metrics;
pub mod openapi;
pub mod otel;
pub mod parse_errors;
pub mod policy;
pub mod portal;
pub mod privacy;
pub mod problem;
pub mod router;
pub mod seen_before;
pub mod state;
pub mod storage;
pub mod trace_context;
pub mod webhooks;

pub use keys::Environment;
pub use limits::Limits;
pub use router::serve;
pub use state::AppState;
