//! Partners: the owners of keys and of every resource those keys create, with their policies.

use sqlx::Row;

use super::{Result, Storage};
use crate::ids::{new_id, now_ms};

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

fn partner_from_row(row: &sqlx::any::AnyRow) -> Result<Partner> {
    Ok(Partner {
        id: row.try_get(0)?,
        name: row.try_get(1)?,
        created_at: row.try_get(2)?,
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
        partner_from_row(&row)
    }

    /// Partner `id`, if it exists.
    ///
    /// # Errors
    /// Database errors.
    pub async fn partner(&self, id: &str) -> Result<Option<Partner>> {
        let row = sqlx::query("SELECT id, name, created_at FROM partners WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(partner_from_row).transpose()
    }

    /// The id of the partner called `name`, if it exists (no partner is created).
    ///
    /// # Errors
    /// Database errors.
    pub async fn partner_id_by_name(&self, name: &str) -> Result<Option<String>> {
        Ok(
            sqlx::query_scalar("SELECT id FROM partners WHERE name = $1")
                .bind(name)
                .fetch_optional(&self.pool)
                .await?,
        )
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
}
