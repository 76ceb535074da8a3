//! Failed portal sign-ins by subject (`pair:…`, `email:…` or `addr:…`), shared by the replicas
//! of one database; the throttle that reads them is the portal's (`portal::throttle`). The
//! table holds only the current window.

use sqlx::Row;

use super::{Result, Storage};

impl Storage {
    /// Records a failed sign-in against `subject`, first forgetting failures from before
    /// `forget_before`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn record_signin_failure(
        &self,
        subject: &str,
        now: i64,
        forget_before: i64,
    ) -> Result<()> {
        sqlx::query("DELETE FROM portal_signin_failures WHERE created_at < $1")
            .bind(forget_before)
            .execute(&self.pool)
            .await?;
        sqlx::query("INSERT INTO portal_signin_failures (subject, created_at) VALUES ($1, $2)")
            .bind(subject)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Failed sign-ins against `subject` since `since`: how many, and the time of the last one
    /// (milliseconds since the epoch).
    ///
    /// # Errors
    /// Database errors.
    pub async fn signin_failure_stats(
        &self,
        subject: &str,
        since: i64,
    ) -> Result<(i64, Option<i64>)> {
        let row = sqlx::query(
            "SELECT COUNT(*), MAX(created_at) FROM portal_signin_failures \
             WHERE subject = $1 AND created_at >= $2",
        )
        .bind(subject)
        .bind(since)
        .fetch_one(&self.pool)
        .await?;
        Ok((row.try_get(0)?, row.try_get(1)?))
    }

    /// Forgets the failed sign-in of `subject` recorded at `at` (an attempt that turned out
    /// right).
    ///
    /// # Errors
    /// Database errors.
    pub async fn forget_signin_failure(&self, subject: &str, at: i64) -> Result<()> {
        sqlx::query("DELETE FROM portal_signin_failures WHERE subject = $1 AND created_at = $2")
            .bind(subject)
            .bind(at)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Forgets the failed sign-ins of `subject` (after a successful one).
    ///
    /// # Errors
    /// Database errors.
    pub async fn clear_signin_failures(&self, subject: &str) -> Result<()> {
        sqlx::query("DELETE FROM portal_signin_failures WHERE subject = $1")
            .bind(subject)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
