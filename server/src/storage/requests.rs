//! One durable row per authenticated request: the source of the usage figures (request volume
//! by endpoint and status class), so they survive restarts and agree across replicas.

use super::{Owner, Result, Storage};

/// An authenticated request, as recorded after its response was produced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestRecord {
    /// `req_…`, also the `X-Request-Id` header.
    pub request_id: String,
    /// Owner of the key.
    pub owner: Owner,
    /// The key used.
    pub api_key_id: String,
    /// HTTP method.
    pub method: String,
    /// Route template, e.g. `/v1/scores/{reportId}`.
    pub route: String,
    /// HTTP status answered.
    pub status: u16,
    /// Time to produce the response, milliseconds.
    pub duration_ms: i64,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

impl Storage {
    /// Stores `r`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn record_request(&self, r: &RequestRecord) -> Result<()> {
        sqlx::query(
            "INSERT INTO api_requests (request_id, partner_id, environment, api_key_id, method, \
             route, status, duration_ms, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(&r.request_id)
        .bind(&r.owner.partner_id)
        .bind(r.owner.environment.as_str())
        .bind(&r.api_key_id)
        .bind(&r.method)
        .bind(&r.route)
        .bind(i64::from(r.status))
        .bind(r.duration_ms)
        .bind(r.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }
}
