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

    /// Webhook events still `pending` (of every partner) at `now` (Unix ms): their count, the
    /// `created_at` of the oldest, and the oldest `next_attempt_at` of those due and not leased
    /// by a worker (a delivery waiting for the worker, not for its retry time).
    ///
    /// # Errors
    /// Database errors.
    pub async fn webhook_backlog(&self, now: i64) -> Result<(i64, Option<i64>, Option<i64>)> {
        let row: (i64, Option<i64>, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(*), MIN(created_at), MIN(CASE WHEN next_attempt_at <= $1 \
             AND (locked_until IS NULL OR locked_until <= $1) THEN next_attempt_at END) \
             FROM webhook_events WHERE status = 'pending'",
        )
        .bind(now)
        .fetch_one(self.pool())
        .await?;
        Ok(row)
    }
}
