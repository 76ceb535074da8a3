//! Webhook endpoints and the durable outbox of their events. An event row is written in the
//! transaction that completes its report ([`Storage::complete_report`]), one per active
//! endpoint of the report's owner; workers claim due rows with a lease (PostgreSQL: `FOR UPDATE
//! SKIP LOCKED`, so each event is sent by one replica at a time), then record the outcome.

use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

use super::{Backend, Owner, Result, Storage, environment};

/// A registered endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointRecord {
    /// `whe_…`.
    pub id: String,
    /// Owner.
    pub owner: Owner,
    /// The partner's name.
    pub partner_name: String,
    /// Where events are sent (HTTP `POST`).
    pub url: String,
    /// `whsec_…` signing secret.
    pub secret: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

/// An event claimed for delivery, with its endpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DueEvent {
    /// `msg_…`, the `webhook-id`.
    pub id: String,
    /// Environment of the event (its retry schedule).
    pub environment: crate::keys::Environment,
    /// The JSON body.
    pub payload: String,
    /// Attempts so far, this one included.
    pub attempts: i64,
    /// The endpoint's URL.
    pub url: String,
    /// The endpoint's secret.
    pub secret: String,
    /// Where the event came from (the request that caused it).
    pub origin: EventOrigin,
}

/// The request that caused an event, kept with it in the outbox (migration 7) so that its
/// deliveries can be told apart in the logs and joined to the caller's trace.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct EventOrigin {
    /// The request's id (`req_…`, its `X-Request-Id`): written as `request_id` on the log lines
    /// of every delivery of the event.
    pub request_id: Option<String>,
    /// The W3C `traceparent` (`00-<trace id>-<parent id>-<flags>`) of the request's trace: the
    /// caller's when it sent a valid one, or, with OTLP export on, the request span's own; `None`
    /// otherwise. Each delivery sends the same trace id and flags with a new parent id.
    pub traceparent: Option<String>,
}

/// Webhook events of one UTC day by status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WebhookCount {
    /// Days since the Unix epoch (UTC) of the event.
    pub day: i64,
    /// `pending`, `delivered` or `failed`.
    pub status: String,
    /// How many.
    pub count: i64,
}

/// The outcome of one delivery attempt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// The endpoint answered 200.
    Delivered,
    /// Try again at this time (milliseconds since the epoch).
    Retry(i64),
    /// The last attempt failed: give up.
    Failed,
}

/// The claim: due, unleased events, leased and counted in one statement.
macro_rules! claim_sql {
    ($lock:literal) => {
        concat!(
            "UPDATE webhook_events SET locked_until = $1, attempts = attempts + 1 ",
            "WHERE id IN (SELECT id FROM webhook_events WHERE status = 'pending' ",
            "AND next_attempt_at <= $2 AND (locked_until IS NULL OR locked_until <= $2) ",
            "ORDER BY next_attempt_at LIMIT $3",
            $lock,
            ") RETURNING id, environment, payload, attempts, endpoint_id, request_id, traceparent"
        )
    };
}

impl Storage {
    /// Registers an endpoint of `owner`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn insert_endpoint(
        &self,
        id: &str,
        owner: &Owner,
        url: &str,
        secret: &str,
        now: i64,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO webhook_endpoints (id, partner_id, environment, url, secret, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(url)
        .bind(secret)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Active endpoints of every partner, oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list_endpoints(&self) -> Result<Vec<EndpointRecord>> {
        let rows = sqlx::query(
            "SELECT e.id, e.partner_id, e.environment, p.name, e.url, e.secret, e.created_at \
             FROM webhook_endpoints e JOIN partners p ON p.id = e.partner_id \
             WHERE e.removed_at IS NULL ORDER BY e.created_at, e.id",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r: &AnyRow| {
                Ok(EndpointRecord {
                    id: r.try_get(0)?,
                    owner: Owner {
                        partner_id: r.try_get(1)?,
                        environment: environment(&r.try_get::<String, _>(2)?)?,
                    },
                    partner_name: r.try_get(3)?,
                    url: r.try_get(4)?,
                    secret: r.try_get(5)?,
                    created_at: r.try_get(6)?,
                })
            })
            .collect()
    }

    /// Events of every endpoint by status: `(endpoint_id, status, count)`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn endpoint_event_counts(&self) -> Result<Vec<(String, String, i64)>> {
        let rows = sqlx::query(
            "SELECT endpoint_id, status, COUNT(*) FROM webhook_events GROUP BY endpoint_id, status",
        )
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?, r.try_get(2)?)))
            .collect()
    }

    /// Removes endpoint `id` (no new events; pending ones are still tried). Returns whether it
    /// was active.
    ///
    /// # Errors
    /// Database errors.
    pub async fn remove_endpoint(&self, id: &str, now: i64) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE webhook_endpoints SET removed_at = $2 WHERE id = $1 AND removed_at IS NULL",
        )
        .bind(id)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Claims up to `limit` due events for `lease_ms`, counting the attempt.
    ///
    /// # Errors
    /// Database errors.
    pub async fn claim_events(&self, now: i64, lease_ms: i64, limit: i64) -> Result<Vec<DueEvent>> {
        let sql = match self.backend {
            Backend::Postgres => claim_sql!(" FOR UPDATE SKIP LOCKED"),
            Backend::Sqlite => claim_sql!(""),
        };
        let rows = sqlx::query(sql)
            .bind(now + lease_ms)
            .bind(now)
            .bind(limit)
            .fetch_all(&self.pool)
            .await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let endpoint_id: String = r.try_get(4)?;
            let ep = sqlx::query("SELECT url, secret FROM webhook_endpoints WHERE id = $1")
                .bind(&endpoint_id)
                .fetch_one(&self.pool)
                .await?;
            out.push(DueEvent {
                id: r.try_get(0)?,
                environment: environment(&r.try_get::<String, _>(1)?)?,
                payload: r.try_get(2)?,
                attempts: r.try_get(3)?,
                url: ep.try_get(0)?,
                secret: ep.try_get(1)?,
                origin: EventOrigin {
                    request_id: r.try_get(5)?,
                    traceparent: r.try_get(6)?,
                },
            });
        }
        Ok(out)
    }

    /// Records the outcome of an attempt on event `id`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn finish_attempt(
        &self,
        id: &str,
        outcome: &Outcome,
        http_status: Option<u16>,
        error: Option<&str>,
        now: i64,
    ) -> Result<()> {
        let (status, next, delivered) = match outcome {
            Outcome::Delivered => ("delivered", now, Some(now)),
            Outcome::Retry(at) => ("pending", *at, None),
            Outcome::Failed => ("failed", now, None),
        };
        sqlx::query(
            "UPDATE webhook_events SET status = $2, next_attempt_at = $3, locked_until = NULL, \
             last_status = $4, last_error = $5, delivered_at = $6 WHERE id = $1",
        )
        .bind(id)
        .bind(status)
        .bind(next)
        .bind(http_status.map(i64::from))
        .bind(error)
        .bind(delivered)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Events of `owner` created in `[from_ms, to_ms)` by day and status.
    ///
    /// # Errors
    /// Database errors.
    pub async fn webhook_counts(
        &self,
        owner: &Owner,
        from_ms: i64,
        to_ms: i64,
    ) -> Result<Vec<WebhookCount>> {
        let rows = self
            .daily_status_counts("webhook_events", owner, from_ms, to_ms)
            .await?;
        Ok(rows
            .into_iter()
            .map(|(day, status, count)| WebhookCount { day, status, count })
            .collect())
    }
}

/// Whether `owner` has an active (not removed) endpoint.
pub(super) async fn has_active_endpoint(pool: &sqlx::AnyPool, owner: &Owner) -> Result<bool> {
    let found = sqlx::query(
        "SELECT 1 FROM webhook_endpoints WHERE partner_id = $1 AND environment = $2 \
         AND removed_at IS NULL LIMIT 1",
    )
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .fetch_optional(pool)
    .await?;
    Ok(found.is_some())
}

/// Writes a `score.completed` event per active endpoint of `owner` within `tx`; its data
/// carries the report's integrity verdict (`{"status": "verified" | "warnings" | "failed"}`),
/// and each row the request `origin` that completed the report.
pub(super) async fn enqueue_completed(
    tx: &mut Transaction<'static, Any>,
    owner: &Owner,
    origin: &EventOrigin,
    report_id: &str,
    integrity: &serde_json::Value,
    now: i64,
) -> Result<()> {
    let endpoints = sqlx::query(
        "SELECT id FROM webhook_endpoints WHERE partner_id = $1 AND environment = $2 \
         AND removed_at IS NULL",
    )
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .fetch_all(&mut **tx)
    .await?;
    for row in &endpoints {
        let endpoint_id: String = row.try_get(0)?;
        let id = crate::ids::new_id("msg");
        let payload = serde_json::json!({
            "id": id,
            "type": "score.completed",
            "createdAt": crate::ids::rfc3339(now),
            "environment": owner.environment.as_str(),
            "data": {"reportId": report_id, "status": "completed", "integrity": integrity},
        })
        .to_string();
        sqlx::query(
            "INSERT INTO webhook_events (id, partner_id, environment, endpoint_id, report_id, \
             event_type, payload, status, attempts, next_attempt_at, created_at, request_id, \
             traceparent) \
             VALUES ($1, $2, $3, $4, $5, 'score.completed', $6, 'pending', 0, $7, $7, $8, $9)",
        )
        .bind(&id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(&endpoint_id)
        .bind(report_id)
        .bind(&payload)
        .bind(now)
        .bind(origin.request_id.as_deref())
        .bind(origin.traceparent.as_deref())
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}
