//! Probes for load balancers and Kubernetes: `GET /livez` (the process answers: `200`) and
//! `GET /readyz` (`200` when the database answers with every migration applied and every
//! background worker this server started is alive; else `503 not_ready`, a problem naming what
//! is not ready). Neither needs a key, and neither says anything about partners.
//!
//! The workers (webhook delivery, retention, the heartbeat sweeper) are registered by
//! [`crate::serve`] with their task's abort handle ([`crate::state::Workers`]); a worker whose task has ended (it panicked,
//! or was stopped) makes the server not ready until it is restarted, i.e. until the process is.

use std::time::Duration;

use axum::Json;
use axum::extract::State;
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};

use crate::error::ApiError;
use crate::state::AppState;

/// How long `/readyz` waits for the database before calling it unreachable.
pub const DATABASE_CHECK_TIMEOUT: Duration = Duration::from_secs(2);

/// `GET /livez`: `200 {"status":"ok"}` while the process answers.
pub async fn livez() -> Response {
    Json(json!({"status": "ok"})).into_response()
}

/// `GET /readyz`: `200 {"status":"ready","checks":{…}}`, or `503 not_ready` whose `checks`
/// member gives each check's state (`ok`, `unreachable`, `migrations_pending`, `stopped`).
pub async fn readyz(State(state): State<AppState>) -> Response {
    let mut checks = Map::new();
    let mut failing = Vec::new();
    let database =
        match tokio::time::timeout(DATABASE_CHECK_TIMEOUT, state.storage.schema_versions()).await {
            Ok(Ok((Some(applied), known))) if applied >= known => ("ok", "ok"),
            Ok(Ok(_)) => ("ok", "migrations_pending"),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "readyz: the database does not answer");
                ("unreachable", "unknown")
            }
            Err(_) => ("unreachable", "unknown"),
        };
    for (name, value) in [("database", database.0), ("migrations", database.1)] {
        if value != "ok" {
            failing.push(format!("{name} {value}"));
        }
        checks.insert(name.to_owned(), Value::from(value));
    }
    for (name, running) in state.workers.states() {
        let value = if running { "ok" } else { "stopped" };
        if !running {
            failing.push(format!("{name} worker stopped"));
        }
        checks.insert(name.to_owned(), Value::from(value));
    }
    if failing.is_empty() {
        return Json(json!({"status": "ready", "checks": checks})).into_response();
    }
    ApiError::new("not_ready", format!("not ready: {}", failing.join(", ")))
        .with("checks", Value::Object(checks))
        .retry_after(5)
        .into_response()
}
