//! Partners and API keys (stored as hashes).

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Result, Storage, environment};
use crate::ids::{new_id, now_ms};
use crate::keys::Environment;

/// A partner: the owner of keys and of every resource they create.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Partner {
    /// `ptn_…`.
    pub id: String,
    /// Unique name given at `alama keys create --partner NAME`.
    pub name: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

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

impl Storage {
    /// The partner called `name`, created if it does not exist yet.
    ///
    /// # Errors
    /// Database errors.
    pub async fn ensure_partner(&self, name: &str) -> Result<Partner> {
        sqlx::query(
            "INSERT INTO partners (id, name, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(new_id("ptn"))
        .bind(name)
        .bind(now_ms())
        .execute(&self.pool)
        .await?;
        let row = sqlx::query("SELECT id, name, created_at FROM partners WHERE name = $1")
            .bind(name)
            .fetch_one(&self.pool)
            .await?;
        Ok(Partner {
            id: row.try_get(0)?,
            name: row.try_get(1)?,
            created_at: row.try_get(2)?,
        })
    }

    /// Sets the integrity policy of the partner named `name` (created if new).
    ///
    /// # Errors
    /// Database errors.
    pub async fn set_integrity_policy(
        &self,
        name: &str,
        policy: crate::policy::IntegrityPolicy,
    ) -> Result<Partner> {
        let partner = self.ensure_partner(name).await?;
        sqlx::query("UPDATE partners SET integrity_policy = $2 WHERE id = $1")
            .bind(&partner.id)
            .bind(policy.as_str())
            .execute(&self.pool)
            .await?;
        Ok(partner)
    }

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
}
