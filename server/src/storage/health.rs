//! What the readiness probe and the metrics ask the database: whether it answers with every
//! migration of this binary applied, and how far behind the webhook outbox is.

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

    /// Webhook events still `pending` (of every partner) and the `created_at` (Unix ms) of the
    /// oldest one.
    ///
    /// # Errors
    /// Database errors.
    pub async fn webhook_backlog(&self) -> Result<(i64, Option<i64>)> {
        let (count, oldest): (i64, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(*), MIN(created_at) FROM webhook_events WHERE status = 'pending'",
        )
        .fetch_one(self.pool())
        .await?;
        Ok((count, oldest))
    }
}
