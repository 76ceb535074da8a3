//! Developer-portal users (one person of one partner) and their one-time sign-in links, which
//! are stored only as the SHA-256 of their token.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Partner, Result, Storage};
use crate::ids::new_id;

/// A portal user: one person of one partner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PortalUser {
    /// `usr_…`.
    pub id: String,
    /// The partner the user belongs to (`ptn_…`).
    pub partner_id: String,
    /// The partner's name.
    pub partner_name: String,
    /// Lowercased email address.
    pub email: String,
    /// Argon2id PHC string; `None` until the user sets a password from a sign-in link.
    pub password_hash: Option<String>,
}

/// A [`PortalUser`] from columns 0–4 (`u.id, u.partner_id, p.name, u.email, u.password_hash`).
pub(super) fn user_from_row(r: &AnyRow) -> Result<PortalUser> {
    Ok(PortalUser {
        id: r.try_get(0)?,
        partner_id: r.try_get(1)?,
        partner_name: r.try_get(2)?,
        email: r.try_get(3)?,
        password_hash: r.try_get(4)?,
    })
}

/// `SELECT` of a [`PortalUser`] followed by `$tail`.
macro_rules! select_user {
    ($tail:literal) => {
        concat!(
            "SELECT u.id, u.partner_id, p.name, u.email, u.password_hash ",
            "FROM portal_users u JOIN partners p ON p.id = u.partner_id ",
            $tail
        )
    };
}

impl Storage {
    /// Creates user `email` (lowercased) of `partner`.
    ///
    /// # Errors
    /// Database errors (an email already taken is one: check [`Storage::portal_user_by_email`]
    /// first).
    pub async fn create_portal_user(
        &self,
        partner: &Partner,
        email: &str,
        now: i64,
    ) -> Result<PortalUser> {
        let user = PortalUser {
            id: new_id("usr"),
            partner_id: partner.id.clone(),
            partner_name: partner.name.clone(),
            email: email.trim().to_lowercase(),
            password_hash: None,
        };
        sqlx::query(
            "INSERT INTO portal_users (id, partner_id, email, created_at) VALUES ($1, $2, $3, $4)",
        )
        .bind(&user.id)
        .bind(&user.partner_id)
        .bind(&user.email)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(user)
    }

    /// The user with `email` (compared lowercased).
    ///
    /// # Errors
    /// Database errors.
    pub async fn portal_user_by_email(&self, email: &str) -> Result<Option<PortalUser>> {
        let row = sqlx::query(select_user!("WHERE u.email = $1"))
            .bind(email.trim().to_lowercase())
            .fetch_optional(&self.pool)
            .await?;
        row.as_ref().map(user_from_row).transpose()
    }

    /// Every user, oldest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn portal_users(&self) -> Result<Vec<PortalUser>> {
        let rows = sqlx::query(select_user!("ORDER BY u.created_at, u.id"))
            .fetch_all(&self.pool)
            .await?;
        rows.iter().map(user_from_row).collect()
    }

    /// Sets the password hash of `user_id` and ends all of the user's sessions.
    ///
    /// # Errors
    /// Database errors.
    pub async fn set_portal_password(&self, user_id: &str, hash: &str) -> Result<()> {
        let mut tx = self.pool.begin().await?;
        sqlx::query("UPDATE portal_users SET password_hash = $2 WHERE id = $1")
            .bind(user_id)
            .bind(hash)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM portal_sessions WHERE user_id = $1")
            .bind(user_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Stores a sign-in link of `user_id` by the SHA-256 of its token.
    ///
    /// # Errors
    /// Database errors.
    pub async fn insert_signin_link(
        &self,
        user_id: &str,
        token_hash: &str,
        now: i64,
        expires_at: i64,
    ) -> Result<()> {
        sqlx::query(
            "INSERT INTO portal_links (token_hash, user_id, created_at, expires_at) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(user_id)
        .bind(now)
        .bind(expires_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// The user of an unused, unexpired link, without using it.
    ///
    /// # Errors
    /// Database errors.
    pub async fn signin_link_user(&self, token_hash: &str, now: i64) -> Result<Option<PortalUser>> {
        let row = sqlx::query(select_user!(
            "JOIN portal_links l ON l.user_id = u.id \
             WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > $2"
        ))
        .bind(token_hash)
        .bind(now)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(user_from_row).transpose()
    }

    /// Uses a link: marks it used if it was unused and unexpired, and returns its user (`None`
    /// when it was not, so a link works once even when two requests race).
    ///
    /// # Errors
    /// Database errors.
    pub async fn use_signin_link(&self, token_hash: &str, now: i64) -> Result<Option<PortalUser>> {
        let user = self.signin_link_user(token_hash, now).await?;
        let done = sqlx::query(
            "UPDATE portal_links SET used_at = $2 \
             WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
        )
        .bind(token_hash)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(user.filter(|_| done.rows_affected() == 1))
    }
}
