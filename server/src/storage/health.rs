//! What the readiness probe and the metrics ask the database: whether it answers with every
//! migration of this binary applied (the webhook outbox's backlog is [`super::webhook_events`]'),
//! and how busy the connection pool is.

use super::{Result, STEPS, Storage};

impl Storage {
    /// The newest schema version applied successfully, and the newest this binary knows:
    /// equal when the migrations are applied. Answers only if the database does.
    ///
    /// # Errors
    /// Database errors (unreachable, pool closed).
    pub async fn schema_versions(&self) -> Result<(Option<i64>, i64)> {
        let applied: Option<i64> =
            sqlx::query_scalar("SELECT MAX(version) FROM _sqlx_migrations WHERE success")
                .fetch_one(self.pool())
                .await?;
        let known = STEPS.iter().map(|s| s.version).max().unwrap_or(0);
        Ok((applied, known))
    }

    /// The connection pool's connections: (in use, idle).
    pub fn pool_connections(&self) -> (u32, u32) {
        let idle = u32::try_from(self.pool.num_idle()).unwrap_or(u32::MAX);
        (self.pool.size().saturating_sub(idle), idle)
    }
}
