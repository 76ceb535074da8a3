//! Interrupted analyses and the shared rate limit.
//!
//! Every server writes a heartbeat (`server_instances`) every few seconds and records its id
//! on the analyses it claims (`reports.claimed_by`). An analysis is interrupted when it is
//! still `processing` and either older than the stale age (time-out plus a margin) or claimed
//! by a server whose heartbeat stopped: it is then failed `analysis_interrupted` (not
//! billable) and its `Idempotency-Key` freed, by the sweeper or by a retry that finds it.

use super::{Result, Storage};

/// The interrupted-analysis condition over `reports` (`$1` stale cut-off, `$2` heartbeat
/// cut-off).
const INTERRUPTED: &str = "status = 'processing' AND (created_at < $1 OR (claimed_by IS NOT NULL \
     AND NOT EXISTS (SELECT 1 FROM server_instances s WHERE s.id = reports.claimed_by \
     AND s.heartbeat_at >= $2)))";

/// What an interrupted analysis is failed with.
const FAIL_SET: &str = "status = 'failed', error_code = 'analysis_interrupted', \
     error_detail = 'the server stopped before the analysis finished; submit the statement \
     again', completed_at = $3, idempotency_key = NULL";

impl Storage {
    /// Records that this server is alive at `now`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn heartbeat(&self, now: i64) -> Result<()> {
        sqlx::query(
            "INSERT INTO server_instances (id, heartbeat_at) VALUES ($1, $2) \
             ON CONFLICT (id) DO UPDATE SET heartbeat_at = excluded.heartbeat_at",
        )
        .bind(self.instance())
        .bind(now)
        .execute(self.pool())
        .await?;
        // Forget servers silent for a day.
        sqlx::query("DELETE FROM server_instances WHERE heartbeat_at < $1")
            .bind(now - super::DAY_MS)
            .execute(self.pool())
            .await?;
        Ok(())
    }

    /// Fails every interrupted analysis (see the module); returns how many.
    ///
    /// # Errors
    /// Database errors.
    pub async fn fail_interrupted(
        &self,
        stale_cutoff: i64,
        heartbeat_cutoff: i64,
        now: i64,
    ) -> Result<u64> {
        let sql = format!("UPDATE reports SET {FAIL_SET} WHERE {INTERRUPTED}");
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(stale_cutoff)
            .bind(heartbeat_cutoff)
            .bind(now)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected())
    }

    /// Fails report `id` if it is an interrupted analysis; returns whether it did.
    ///
    /// # Errors
    /// Database errors.
    pub async fn fail_if_interrupted(
        &self,
        id: &str,
        stale_cutoff: i64,
        heartbeat_cutoff: i64,
        now: i64,
    ) -> Result<bool> {
        let sql = format!("UPDATE reports SET {FAIL_SET} WHERE id = $4 AND {INTERRUPTED}");
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(stale_cutoff)
            .bind(heartbeat_cutoff)
            .bind(now)
            .bind(id)
            .execute(self.pool())
            .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Takes one request from `key_id`'s shared bucket (GCRA over the database, for replicas
    /// on one PostgreSQL): `interval_ms` per request sustained, bursts of `burst`. Returns
    /// `None` when allowed, else the milliseconds to wait. PostgreSQL only (`GREATEST`).
    ///
    /// # Errors
    /// Database errors.
    pub async fn take_shared_token(
        &self,
        key_id: &str,
        now: i64,
        interval_ms: i64,
        burst: i64,
    ) -> Result<Option<i64>> {
        let tolerance = interval_ms.saturating_mul(burst);
        sqlx::query("INSERT INTO rate_limits (key_id, tat) VALUES ($1, $2) ON CONFLICT DO NOTHING")
            .bind(key_id)
            .bind(now)
            .execute(self.pool())
            .await?;
        let taken: Option<i64> = sqlx::query_scalar(
            "UPDATE rate_limits SET tat = GREATEST(tat, $2) + $3 \
             WHERE key_id = $1 AND GREATEST(tat, $2) + $3 - $2 <= $4 RETURNING tat",
        )
        .bind(key_id)
        .bind(now)
        .bind(interval_ms)
        .bind(tolerance)
        .fetch_optional(self.pool())
        .await?;
        if taken.is_some() {
            return Ok(None);
        }
        let tat: i64 = sqlx::query_scalar("SELECT tat FROM rate_limits WHERE key_id = $1")
            .bind(key_id)
            .fetch_one(self.pool())
            .await?;
        Ok(Some((tat.max(now) + interval_ms - tolerance - now).max(1)))
    }
}
