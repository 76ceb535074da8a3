//! Webhook endpoints: registered per partner and environment (`alama webhooks add`, the
//! portal), listed with their event counts, their secret rotated, removed. The events sent to
//! them are [`super::webhook_events`]'.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Owner, Result, Storage, environment};

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

/// An active endpoint of one owner with its event counts (the portal's list), never its secret.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointSummary {
    /// `whe_…`.
    pub id: String,
    /// Where events go.
    pub url: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// Delivered events.
    pub delivered: i64,
    /// Events given up.
    pub failed: i64,
    /// Events still being tried.
    pub pending: i64,
}

impl EndpointSummary {
    /// `delivered / (delivered + failed)` in percent, one decimal; `None` when neither.
    pub fn delivery_percent(&self) -> Option<f64> {
        let done = self.delivered + self.failed;
        (done > 0).then(|| (self.delivered as f64 * 1000.0 / done as f64).round() / 10.0)
    }
}

/// `SELECT` of [`EndpointSummary`]s of owner `$1`, `$2` with `$filter` (more conditions on the
/// endpoint `e`, from `$3`).
macro_rules! select_summaries {
    ($filter:literal) => {
        concat!(
            "SELECT e.id, e.url, e.created_at, ",
            "COUNT(CASE WHEN ev.status = 'delivered' THEN 1 END), ",
            "COUNT(CASE WHEN ev.status = 'failed' THEN 1 END), ",
            "COUNT(CASE WHEN ev.status = 'pending' THEN 1 END) ",
            "FROM webhook_endpoints e LEFT JOIN webhook_events ev ON ev.endpoint_id = e.id ",
            "WHERE e.partner_id = $1 AND e.environment = $2 AND e.removed_at IS NULL ",
            $filter,
            " GROUP BY e.id, e.url, e.created_at ORDER BY e.created_at, e.id"
        )
    };
}

fn summary_from_row(r: &AnyRow) -> Result<EndpointSummary> {
    Ok(EndpointSummary {
        id: r.try_get(0)?,
        url: r.try_get(1)?,
        created_at: r.try_get(2)?,
        delivered: r.try_get(3)?,
        failed: r.try_get(4)?,
        pending: r.try_get(5)?,
    })
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

    /// Active endpoints of `owner` with their event counts, oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn owner_endpoints(&self, owner: &Owner) -> Result<Vec<EndpointSummary>> {
        let rows = sqlx::query(select_summaries!(""))
            .bind(&owner.partner_id)
            .bind(owner.environment.as_str())
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(summary_from_row).collect()
    }

    /// Active endpoint `id` with its event counts, if it belongs to `owner`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn owner_endpoint(&self, owner: &Owner, id: &str) -> Result<Option<EndpointSummary>> {
        let row = sqlx::query(select_summaries!("AND e.id = $3"))
            .bind(&owner.partner_id)
            .bind(owner.environment.as_str())
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(summary_from_row).transpose()
    }

    /// Replaces the signing secret of active endpoint `id` of `owner`; whether it was changed.
    ///
    /// # Errors
    /// Database errors.
    pub async fn rotate_endpoint_secret(
        &self,
        owner: &Owner,
        id: &str,
        secret: &str,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE webhook_endpoints SET secret = $4 WHERE id = $1 AND partner_id = $2 \
             AND environment = $3 AND removed_at IS NULL",
        )
        .bind(id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(secret)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
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
