//! Developer-portal sessions, keyed by the SHA-256 of the cookie's token (a copy of the database
//! holds no usable session).

use sqlx::Row;

use super::portal_users::{PortalUser, user_from_row};
use super::{Result, Storage, environment};
use crate::keys::Environment;

/// A signed-in session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortalSession {
    /// Its user.
    pub user: PortalUser,
    /// The CSRF token every form of this session carries.
    pub csrf: String,
    /// The environment the user is looking at.
    pub environment: Environment,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// Last request, milliseconds since the epoch.
    pub last_seen_at: i64,
}

impl Storage {
    /// Starts a session of `user_id`, first deleting every session idle since before
    /// `idle_cutoff` or started before `absolute_cutoff` (abandoned sessions do not pile up).
    ///
    /// # Errors
    /// Database errors.
    pub async fn insert_portal_session(
        &self,
        id_hash: &str,
        user_id: &str,
        csrf: &str,
        environment: Environment,
        now: i64,
        (idle_cutoff, absolute_cutoff): (i64, i64),
    ) -> Result<()> {
        sqlx::query("DELETE FROM portal_sessions WHERE last_seen_at < $1 OR created_at < $2")
            .bind(idle_cutoff)
            .bind(absolute_cutoff)
            .execute(&self.pool)
            .await?;
        sqlx::query(
            "INSERT INTO portal_sessions (id_hash, user_id, csrf_token, environment, created_at, \
             last_seen_at) VALUES ($1, $2, $3, $4, $5, $5)",
        )
        .bind(id_hash)
        .bind(user_id)
        .bind(csrf)
        .bind(environment.as_str())
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The session whose token hashes to `id_hash`.
    ///
    /// # Errors
    /// Database errors; [`super::StorageError::Corrupt`] for an unknown environment.
    pub async fn portal_session(&self, id_hash: &str) -> Result<Option<PortalSession>> {
        let sql = "SELECT u.id, u.partner_id, p.name, u.email, u.password_hash, s.csrf_token, \
                   s.environment, s.created_at, s.last_seen_at FROM portal_sessions s \
                   JOIN portal_users u ON u.id = s.user_id JOIN partners p ON p.id = u.partner_id \
                   WHERE s.id_hash = $1";
        let Some(r) = sqlx::query(sql)
            .bind(id_hash)
            .fetch_optional(&self.pool)
            .await?
        else {
            return Ok(None);
        };
        Ok(Some(PortalSession {
            user: user_from_row(&r)?,
            csrf: r.try_get(5)?,
            environment: environment(&r.try_get::<String, _>(6)?)?,
            created_at: r.try_get(7)?,
            last_seen_at: r.try_get(8)?,
        }))
    }

    /// Records activity on a session.
    ///
    /// # Errors
    /// Database errors.
    pub async fn touch_portal_session(&self, id_hash: &str, now: i64) -> Result<()> {
        sqlx::query("UPDATE portal_sessions SET last_seen_at = $2 WHERE id_hash = $1")
            .bind(id_hash)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Switches a session's environment.
    ///
    /// # Errors
    /// Database errors.
    pub async fn set_portal_session_environment(
        &self,
        id_hash: &str,
        environment: Environment,
    ) -> Result<()> {
        sqlx::query("UPDATE portal_sessions SET environment = $2 WHERE id_hash = $1")
            .bind(id_hash)
            .bind(environment.as_str())
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Ends a session.
    ///
    /// # Errors
    /// Database errors.
    pub async fn delete_portal_session(&self, id_hash: &str) -> Result<()> {
        sqlx::query("DELETE FROM portal_sessions WHERE id_hash = $1")
            .bind(id_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }
}
