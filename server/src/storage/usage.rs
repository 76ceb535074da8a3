//! The durable counts behind `GET /v1/usage`: requests (`api_requests`) and analyses
//! (`reports`) of one owner, grouped by UTC day. Counted in the database, so the figures
//! survive restarts and agree across replicas.

use sqlx::Row;

use super::{Owner, Result, Storage};

/// Milliseconds in a day.
pub const DAY_MS: i64 = 86_400_000;

/// Requests of one UTC day, endpoint and status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestCount {
    /// Days since the Unix epoch (UTC).
    pub day: i64,
    /// HTTP method.
    pub method: String,
    /// Route template, e.g. `/v1/scores/{reportId}`.
    pub route: String,
    /// HTTP status class: 2 for `2xx`, 4 for `4xx`, …
    pub status_class: i64,
    /// How many.
    pub count: i64,
}

/// Analyses submitted on one UTC day, by their current status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnalysisCount {
    /// Days since the Unix epoch (UTC) of submission.
    pub day: i64,
    /// `processing`, `completed` or `failed`.
    pub status: String,
    /// `analysis` (`POST /v1/scores/analyse`) or `application` (`POST /v1/applications`).
    pub kind: String,
    /// How many.
    pub count: i64,
}

impl Storage {
    /// Requests of `owner` made in `[from_ms, to_ms)`, grouped by day, method, route and
    /// status class, with the counts of request logs already deleted by retention (a group
    /// may appear twice; the usage fold adds them up).
    ///
    /// # Errors
    /// Database errors.
    pub async fn request_counts(
        &self,
        owner: &Owner,
        from_ms: i64,
        to_ms: i64,
    ) -> Result<Vec<RequestCount>> {
        let rows = sqlx::query(
            "SELECT created_at / 86400000 AS day, method, route, status / 100 AS class, \
             COUNT(*) AS n FROM api_requests \
             WHERE partner_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4 \
             GROUP BY created_at / 86400000, method, route, status / 100 \
             UNION ALL \
             SELECT day, method, route, status_class, count FROM api_request_rollup \
             WHERE partner_id = $1 AND environment = $2 AND day * 86400000 >= $3 \
             AND day * 86400000 < $4",
        )
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(from_ms)
        .bind(to_ms)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(RequestCount {
                    day: r.try_get(0)?,
                    method: r.try_get(1)?,
                    route: r.try_get(2)?,
                    status_class: r.try_get(3)?,
                    count: r.try_get(4)?,
                })
            })
            .collect()
    }

    /// Analyses (reports) of `owner` submitted in `[from_ms, to_ms)`, grouped by day and
    /// status. Idempotent replays make no report, so they are not counted.
    ///
    /// # Errors
    /// Database errors.
    pub async fn analysis_counts(
        &self,
        owner: &Owner,
        from_ms: i64,
        to_ms: i64,
    ) -> Result<Vec<AnalysisCount>> {
        let rows = sqlx::query(
            "SELECT created_at / 86400000 AS day, status, kind, COUNT(*) AS n FROM reports \
             WHERE partner_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4 \
             GROUP BY created_at / 86400000, status, kind",
        )
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(from_ms)
        .bind(to_ms)
        .fetch_all(self.pool())
        .await?;
        rows.iter()
            .map(|r| {
                Ok(AnalysisCount {
                    day: r.try_get(0)?,
                    status: r.try_get(1)?,
                    kind: r.try_get(2)?,
                    count: r.try_get(3)?,
                })
            })
            .collect()
    }

    /// Rows of `table` (`reports` or `webhook_events`) of `owner` created in `[from_ms, to_ms)`,
    /// counted per UTC day and status: `(day, status, count)`.
    pub(super) async fn daily_status_counts(
        &self,
        table: &'static str,
        owner: &Owner,
        from_ms: i64,
        to_ms: i64,
    ) -> Result<Vec<(i64, String, i64)>> {
        let sql = format!(
            "SELECT created_at / 86400000 AS day, status, COUNT(*) AS n FROM {table} \
             WHERE partner_id = $1 AND environment = $2 AND created_at >= $3 AND created_at < $4 \
             GROUP BY created_at / 86400000, status"
        );
        // `table` is one of two literal table names from this module, never input.
        let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(&owner.partner_id)
            .bind(owner.environment.as_str())
            .bind(from_ms)
            .bind(to_ms)
            .fetch_all(&self.pool)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
            .collect()
    }
}
