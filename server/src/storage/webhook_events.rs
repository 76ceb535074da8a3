//! The durable outbox of webhook events. An event row is written in the transaction that
//! completes its report ([`Storage::complete_report`]), one per active endpoint of the report's
//! owner; workers claim due rows with a lease (PostgreSQL: `FOR UPDATE SKIP LOCKED`, so each
//! event is sent by one replica at a time), then record the outcome. Also: the counts usage,
//! the CLI and the metrics read, the portal's delivery log, re-send and test event.

use sqlx::{Any, Row, Transaction};

use super::{Backend, Owner, Result, Storage, environment};
use crate::ids::new_id;

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

/// One row of an endpoint's delivery log (the portal's).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    /// `msg_…`.
    pub id: String,
    /// `pending`, `delivered` or `failed`.
    pub status: String,
    /// Attempts so far.
    pub attempts: i64,
    /// HTTP status of the last attempt.
    pub last_status: Option<i64>,
    /// Next attempt (pending events), milliseconds since the epoch.
    pub next_attempt_at: i64,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

impl Storage {
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
        .fetch_one(&self.pool)
        .await?;
        Ok(row)
    }

    /// The latest 100 events of endpoint `endpoint_id` of `owner`, newest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn endpoint_events(&self, owner: &Owner, endpoint_id: &str) -> Result<Vec<EventRow>> {
        let rows = sqlx::query(
            "SELECT id, status, attempts, last_status, next_attempt_at, created_at \
             FROM webhook_events WHERE endpoint_id = $1 AND partner_id = $2 AND environment = $3 \
             ORDER BY created_at DESC, id DESC LIMIT 100",
        )
        .bind(endpoint_id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(EventRow {
                    id: r.try_get(0)?,
                    status: r.try_get(1)?,
                    attempts: r.try_get(2)?,
                    last_status: r.try_get(3)?,
                    next_attempt_at: r.try_get(4)?,
                    created_at: r.try_get(5)?,
                })
            })
            .collect()
    }

    /// Queues failed event `id` of `owner` for delivery again (a fresh retry schedule); returns
    /// the endpoint id when it was failed and is now pending.
    ///
    /// # Errors
    /// Database errors.
    pub async fn resend_event(&self, owner: &Owner, id: &str, now: i64) -> Result<Option<String>> {
        let row = sqlx::query(
            "UPDATE webhook_events SET status = 'pending', attempts = 0, next_attempt_at = $4, \
             locked_until = NULL WHERE id = $1 AND partner_id = $2 AND environment = $3 \
             AND status = 'failed' RETURNING endpoint_id",
        )
        .bind(id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.map(|r| Ok(r.try_get(0)?)).transpose()
    }

    /// Queues a `webhook.test` event for endpoint `endpoint_id` of `owner`, delivered (signed,
    /// retried, counted) like any other event. An event row names a report, so the test event
    /// names the owner's newest report; `None` when the endpoint is not an active one of the
    /// owner's or the owner has no report yet. Returns the event id.
    ///
    /// # Errors
    /// Database errors.
    pub async fn enqueue_test_event(
        &self,
        owner: &Owner,
        endpoint_id: &str,
        now: i64,
    ) -> Result<Option<String>> {
        if self.owner_endpoint(owner, endpoint_id).await?.is_none() {
            return Ok(None);
        }
        let Some(report_id) = self.newest_report_id(owner).await? else {
            return Ok(None);
        };
        let id = new_id("msg");
        let payload = serde_json::json!({
            "id": id,
            "type": "webhook.test",
            "createdAt": crate::ids::rfc3339(now),
            "environment": owner.environment.as_str(),
            "data": {"reportId": report_id, "test": true},
        })
        .to_string();
        sqlx::query(
            "INSERT INTO webhook_events (id, partner_id, environment, endpoint_id, report_id, \
             event_type, payload, status, attempts, next_attempt_at, created_at) \
             VALUES ($1, $2, $3, $4, $5, 'webhook.test', $6, 'pending', 0, $7, $7)",
        )
        .bind(&id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(endpoint_id)
        .bind(&report_id)
        .bind(&payload)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(Some(id))
    }
}

/// Writes a `score.completed` event (`application.completed` for an application, its
/// `applicationId` in place of `reportId`) per active endpoint of `owner` within `tx`; its data
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
        let id = new_id("msg");
        let (event_type, id_field) = match super::reports::kind_of(report_id) {
            "application" => ("application.completed", "applicationId"),
            _ => ("score.completed", "reportId"),
        };
        let payload = serde_json::json!({
            "id": id,
            "type": event_type,
            "createdAt": crate::ids::rfc3339(now),
            "environment": owner.environment.as_str(),
            "data": {id_field: report_id, "status": "completed", "integrity": integrity},
        })
        .to_string();
        sqlx::query(
            "INSERT INTO webhook_events (id, partner_id, environment, endpoint_id, report_id, \
             event_type, payload, status, attempts, next_attempt_at, created_at, request_id, \
             traceparent) \
             VALUES ($1, $2, $3, $4, $5, $10, $6, 'pending', 0, $7, $7, $8, $9)",
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
        .bind(event_type)
        .execute(&mut **tx)
        .await?;
    }
    Ok(())
}
