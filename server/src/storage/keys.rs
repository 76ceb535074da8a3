//! API keys (stored as hashes): created, read by a request, listed (all, or a partner's with
//! when each was last used), revoked.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Owner, Partner, Result, Storage, environment};
use crate::ids::{new_id, now_ms};
use crate::keys::Environment;

/// A stored key (never the key itself).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyRecord {
    /// `key_…`.
    pub id: String,
    /// Owner partner id.
    pub partner_id: String,
    /// Owner partner name.
    pub partner_name: String,
    /// The key's environment.
    pub environment: Environment,
    /// Prefix and first characters, e.g. `alama_sk_live_AbCd…`.
    pub hint: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// When revoked, milliseconds since the epoch.
    pub revoked_at: Option<i64>,
}

/// A key as a request reads it: the key, and what an analysis needs of its partner, read in the
/// same query (two queries fewer per analysis; 2–4 % more analyses a second under
/// `server/bench.sh`, 2026-11-25). A policy or default changed while a request runs applies
/// from the next request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RequestKey {
    /// The key.
    pub key: KeyRecord,
    /// The partner's integrity policy (`accept` when unset).
    pub integrity_policy: crate::policy::IntegrityPolicy,
    /// Whether the partner has a default scorecard (of any currency) in the key's environment;
    /// `false`: every analysis without a named card scores with the engine's built-in card of
    /// the statement's currency, and no defaults need reading.
    pub has_default_scorecards: bool,
}

/// A key with when it was last used (the portal's key list).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyUse {
    /// The key.
    pub key: KeyRecord,
    /// Last authenticated request with it (milliseconds since the epoch).
    pub last_used_at: Option<i64>,
}

/// `SELECT` of a [`KeyRecord`] (columns 0–6, read by [`key_from_row`]) followed by `$tail`, as
/// one static string; with `$columns` and `$joins`, more columns after those and more joins.
macro_rules! select_key {
    ($tail:literal) => {
        select_key!("", "", $tail)
    };
    ($columns:literal, $joins:literal, $tail:literal) => {
        concat!(
            "SELECT k.id, k.partner_id, p.name, k.environment, k.key_hint, k.created_at, ",
            "k.revoked_at",
            $columns,
            " FROM api_keys k JOIN partners p ON p.id = k.partner_id ",
            $joins,
            $tail
        )
    };
}

fn key_from_row(row: &AnyRow) -> Result<KeyRecord> {
    Ok(KeyRecord {
        id: row.try_get(0)?,
        partner_id: row.try_get(1)?,
        partner_name: row.try_get(2)?,
        environment: environment(&row.try_get::<String, _>(3)?)?,
        hint: row.try_get(4)?,
        created_at: row.try_get(5)?,
        revoked_at: row.try_get(6)?,
    })
}

/// A [`KeyUse`]: a [`KeyRecord`] (columns 0–6), then its last use (column 7).
fn key_use_from_row(row: &AnyRow) -> Result<KeyUse> {
    Ok(KeyUse {
        key: key_from_row(row)?,
        last_used_at: row.try_get(7)?,
    })
}

impl Storage {
    /// Stores a new key of `partner` by its hash and hint; returns the stored record.
    ///
    /// # Errors
    /// Database errors (a duplicate hash is one, and cannot happen with random keys).
    pub async fn insert_key(
        &self,
        partner: &Partner,
        environment: Environment,
        key_hash: &str,
        hint: &str,
    ) -> Result<KeyRecord> {
        let record = KeyRecord {
            id: new_id("key"),
            partner_id: partner.id.clone(),
            partner_name: partner.name.clone(),
            environment,
            hint: hint.to_owned(),
            created_at: now_ms(),
            revoked_at: None,
        };
        sqlx::query(
            "INSERT INTO api_keys (id, partner_id, environment, key_hash, key_hint, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&record.id)
        .bind(&record.partner_id)
        .bind(environment.as_str())
        .bind(key_hash)
        .bind(hint)
        .bind(record.created_at)
        .execute(&self.pool)
        .await?;
        Ok(record)
    }

    /// The key whose hash is `key_hash`, revoked or not.
    ///
    /// # Errors
    /// Database errors.
    pub async fn key_by_hash(&self, key_hash: &str) -> Result<Option<KeyRecord>> {
        let row = sqlx::query(select_key!("WHERE k.key_hash = $1"))
            .bind(key_hash)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(key_from_row).transpose()
    }

    /// The key whose hash is `key_hash`, revoked or not, with its partner's integrity policy and
    /// default scorecard (see [`RequestKey`]).
    ///
    /// # Errors
    /// Database errors.
    pub async fn request_key(&self, key_hash: &str) -> Result<Option<RequestKey>> {
        let row = sqlx::query(select_key!(
            ", p.integrity_policy, (SELECT COUNT(*) FROM scorecard_defaults d \
             WHERE d.partner_id = k.partner_id AND d.environment = k.environment)",
            "",
            "WHERE k.key_hash = $1"
        ))
        .bind(key_hash)
        .fetch_optional(&self.pool)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let policy: String = row.try_get(7)?;
        Ok(Some(RequestKey {
            key: key_from_row(&row)?,
            integrity_policy: crate::policy::IntegrityPolicy::parse(&policy).unwrap_or_default(),
            has_default_scorecards: row.try_get::<i64, _>(8)? > 0,
        }))
    }

    /// Every key, oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list_keys(&self) -> Result<Vec<KeyRecord>> {
        let rows = sqlx::query(select_key!("ORDER BY k.created_at, k.id"))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(key_from_row).collect()
    }

    /// Revokes key `id` (idempotent: a revoked key keeps its first revocation time). Returns the
    /// record, or `None` when no key has that id.
    ///
    /// # Errors
    /// Database errors.
    pub async fn revoke_key(&self, id: &str) -> Result<Option<KeyRecord>> {
        sqlx::query("UPDATE api_keys SET revoked_at = $2 WHERE id = $1 AND revoked_at IS NULL")
            .bind(id)
            .bind(now_ms())
            .execute(&self.pool)
            .await?;
        let row = sqlx::query(select_key!("WHERE k.id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(key_from_row).transpose()
    }

    /// Keys of `owner`, newest first, with when each was last used (its latest request record).
    ///
    /// # Errors
    /// Database errors.
    pub async fn owner_keys(&self, owner: &Owner) -> Result<Vec<KeyUse>> {
        let rows = sqlx::query(select_key!(
            ", (SELECT MAX(r.created_at) FROM api_requests r WHERE r.api_key_id = k.id)",
            "",
            "WHERE k.partner_id = $1 AND k.environment = $2 ORDER BY k.created_at DESC, k.id DESC"
        ))
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(key_use_from_row).collect()
    }

    /// Key `id` with its last use, if it belongs to `owner` (another partner's answers `None`,
    /// as an unknown id does).
    ///
    /// # Errors
    /// Database errors.
    pub async fn owner_key(&self, owner: &Owner, id: &str) -> Result<Option<KeyUse>> {
        let row = sqlx::query(select_key!(
            ", (SELECT MAX(r.created_at) FROM api_requests r WHERE r.api_key_id = k.id)",
            "",
            "WHERE k.id = $1 AND k.partner_id = $2 AND k.environment = $3"
        ))
        .bind(id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(key_use_from_row).transpose()
    }
}
