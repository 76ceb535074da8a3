//! Consent sessions. Status changes are conditional `UPDATE`s, so two concurrent requests (on
//! any replica) cannot both move the same consent.

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Owner, Result, Storage, StorageError, environment};

/// A stored consent session. `status` is the stored one (`pending`, `granted`, `revoked`);
/// `expired` is derived from `expires_at` when it is shown or used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsentRecord {
    /// `cns_…`.
    pub id: String,
    /// Owner.
    pub owner: Owner,
    /// The partner's reference for the customer.
    pub customer_reference: String,
    /// Customer's name, optional.
    pub customer_name: Option<String>,
    /// Customer's phone number, optional.
    pub customer_phone: Option<String>,
    /// `credit_scoring`.
    pub purpose: String,
    /// Scopes agreed to.
    pub scopes: Vec<String>,
    /// Version of the notice template.
    pub notice_version: String,
    /// The notice text the customer is shown.
    pub notice_text: String,
    /// Hex SHA-256 of `notice_text`.
    pub notice_sha256: String,
    /// `pending`, `granted` or `revoked`.
    pub status: String,
    /// Milliseconds since the epoch.
    pub expires_at: i64,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// When granted.
    pub granted_at: Option<i64>,
    /// How the customer agreed (`ussd`, `app`, …).
    pub grant_method: Option<String>,
    /// The partner's evidence reference for the agreement.
    pub grant_evidence: Option<String>,
    /// When revoked.
    pub revoked_at: Option<i64>,
    /// Why, when the partner gave a reason.
    pub revoke_reason: Option<String>,
    /// When the customer's identifiers were erased (a revocation with erasure), milliseconds
    /// since the epoch; `customer_name` and `customer_phone` are `None` from then on.
    pub erased_at: Option<i64>,
    /// What an erasure keeps of the name and phone number: `v1:` + hex HMAC-SHA256 under the
    /// server's fingerprint key (`crate::privacy::customer_fingerprint`); `None` before an
    /// erasure, or when neither was given.
    pub customer_fingerprint: Option<String>,
}

macro_rules! select_consent {
    ($tail:literal) => {
        concat!(
            "SELECT id, partner_id, environment, customer_reference, customer_name, ",
            "customer_phone, purpose, scopes, notice_version, notice_text, notice_sha256, status, ",
            "expires_at, created_at, granted_at, grant_method, grant_evidence, revoked_at, ",
            "revoke_reason, erased_at, customer_fingerprint FROM consents ",
            $tail
        )
    };
}

fn consent_from_row(row: &AnyRow) -> Result<ConsentRecord> {
    let scopes: String = row.try_get(7)?;
    Ok(ConsentRecord {
        id: row.try_get(0)?,
        owner: Owner {
            partner_id: row.try_get(1)?,
            environment: environment(&row.try_get::<String, _>(2)?)?,
        },
        customer_reference: row.try_get(3)?,
        customer_name: row.try_get(4)?,
        customer_phone: row.try_get(5)?,
        purpose: row.try_get(6)?,
        scopes: serde_json::from_str(&scopes)
            .map_err(|e| StorageError::Corrupt(format!("consent scopes: {e}")))?,
        notice_version: row.try_get(8)?,
        notice_text: row.try_get(9)?,
        notice_sha256: row.try_get(10)?,
        status: row.try_get(11)?,
        expires_at: row.try_get(12)?,
        created_at: row.try_get(13)?,
        granted_at: row.try_get(14)?,
        grant_method: row.try_get(15)?,
        grant_evidence: row.try_get(16)?,
        revoked_at: row.try_get(17)?,
        revoke_reason: row.try_get(18)?,
        erased_at: row.try_get(19)?,
        customer_fingerprint: row.try_get(20)?,
    })
}

impl Storage {
    /// Stores a new consent.
    ///
    /// # Errors
    /// Database errors.
    pub async fn insert_consent(&self, c: &ConsentRecord) -> Result<()> {
        let scopes = serde_json::to_string(&c.scopes)
            .map_err(|e| StorageError::Corrupt(format!("consent scopes: {e}")))?;
        sqlx::query(
            "INSERT INTO consents (id, partner_id, environment, customer_reference, customer_name, \
             customer_phone, purpose, scopes, notice_version, notice_text, notice_sha256, status, \
             expires_at, created_at) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
        )
        .bind(&c.id)
        .bind(&c.owner.partner_id)
        .bind(c.owner.environment.as_str())
        .bind(&c.customer_reference)
        .bind(c.customer_name.as_deref())
        .bind(c.customer_phone.as_deref())
        .bind(&c.purpose)
        .bind(scopes)
        .bind(&c.notice_version)
        .bind(&c.notice_text)
        .bind(&c.notice_sha256)
        .bind(&c.status)
        .bind(c.expires_at)
        .bind(c.created_at)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Consent `id` if it belongs to `owner`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn consent(&self, owner: &Owner, id: &str) -> Result<Option<ConsentRecord>> {
        let row = sqlx::query(select_consent!(
            "WHERE id = $1 AND partner_id = $2 AND environment = $3"
        ))
        .bind(id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(consent_from_row).transpose()
    }

    /// Moves consent `id` from `pending` to `granted` if it has not expired at `now`. Returns
    /// whether it moved.
    ///
    /// # Errors
    /// Database errors.
    pub async fn grant_consent(
        &self,
        owner: &Owner,
        id: &str,
        now: i64,
        method: &str,
        evidence: Option<&str>,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE consents SET status = 'granted', granted_at = $4, grant_method = $5, \
             grant_evidence = $6 WHERE id = $1 AND partner_id = $2 AND environment = $3 \
             AND status = 'pending' AND expires_at > $4",
        )
        .bind(id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(now)
        .bind(method)
        .bind(evidence)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// Moves consent `id` to `revoked` from any other state. Returns whether it moved.
    ///
    /// # Errors
    /// Database errors.
    pub async fn revoke_consent(
        &self,
        owner: &Owner,
        id: &str,
        now: i64,
        reason: Option<&str>,
    ) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE consents SET status = 'revoked', revoked_at = $4, revoke_reason = $5 \
             WHERE id = $1 AND partner_id = $2 AND environment = $3 AND status <> 'revoked'",
        )
        .bind(id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(now)
        .bind(reason)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The latest 100 consents of `owner`, newest first.
    ///
    /// # Errors
    /// Database errors.
    pub async fn recent_consents(&self, owner: &Owner) -> Result<Vec<ConsentRecord>> {
        let rows = sqlx::query(select_consent!(
            "WHERE partner_id = $1 AND environment = $2 \
             ORDER BY created_at DESC, id DESC LIMIT 100"
        ))
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter().map(consent_from_row).collect()
    }
}
