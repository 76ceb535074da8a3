//! A partner's own scorecards, per environment: immutable versions and one default per
//! currency (a card's market is its currency; migration `0006_currency_defaults`).

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Owner, Result, Storage, environment};
use crate::ids::now_ms;

/// A stored scorecard (its canonical JSON, validated when it was added).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScorecardRecord {
    /// Owner partner and environment.
    pub owner: Owner,
    /// The card's version id (`"lender-2027.01"`), unique per owner.
    pub version: String,
    /// Lowercase hex SHA-256 of `card_json`, as reports carry it in `scorecardSha256`.
    pub sha256: String,
    /// The canonical JSON (`alama_core::Scorecard::to_json`).
    pub card_json: String,
    /// Whether it is the owner's default for the card's currency.
    pub is_default: bool,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

/// What [`Storage::add_scorecard`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AddOutcome {
    /// A new version was stored.
    Added,
    /// The same version with the same content was already there: nothing changed (except the
    /// default, when asked).
    Unchanged,
    /// The version exists with other content (its SHA-256 given): versions are immutable.
    Conflict {
        /// SHA-256 of the stored content.
        stored_sha256: String,
    },
}

fn record_from_row(row: &AnyRow) -> Result<ScorecardRecord> {
    Ok(ScorecardRecord {
        owner: Owner {
            partner_id: row.try_get(0)?,
            environment: environment(&row.try_get::<String, _>(1)?)?,
        },
        version: row.try_get(2)?,
        sha256: row.try_get(3)?,
        card_json: row.try_get(4)?,
        is_default: row.try_get::<i64, _>(5)? != 0,
        created_at: row.try_get(6)?,
    })
}

/// `SELECT` of a [`ScorecardRecord`] followed by `$tail`.
macro_rules! select_card {
    ($tail:literal) => {
        concat!(
            "SELECT s.partner_id, s.environment, s.version, s.sha256, s.card_json, ",
            "CAST(CASE WHEN d.version IS NULL THEN 0 ELSE 1 END AS BIGINT), s.created_at FROM scorecards s ",
            "LEFT JOIN scorecard_defaults d ON d.partner_id = s.partner_id ",
            "AND d.environment = s.environment AND d.version = s.version ",
            $tail
        )
    };
}

impl Storage {
    /// Stores `card` for `owner` (a validated card: its canonical JSON and SHA-256 are kept),
    /// and makes it the owner's default for the card's currency when `make_default` (also when
    /// it was already stored); defaults of other currencies are left alone.
    /// A version that exists with other content is refused and the default left alone.
    ///
    /// # Errors
    /// Database errors.
    pub async fn add_scorecard(
        &self,
        owner: &Owner,
        card: &alama_core::Scorecard,
        make_default: bool,
    ) -> Result<AddOutcome> {
        let json = card.to_json();
        let sha = card.sha256();
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO scorecards (partner_id, environment, version, sha256, card_json, \
             created_at) VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (partner_id, environment, version) DO NOTHING",
        )
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(&card.version)
        .bind(&sha)
        .bind(&json)
        .bind(now_ms())
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let outcome = if inserted == 1 {
            AddOutcome::Added
        } else {
            let stored: String = sqlx::query_scalar(
                "SELECT sha256 FROM scorecards \
                 WHERE partner_id = $1 AND environment = $2 AND version = $3",
            )
            .bind(&owner.partner_id)
            .bind(owner.environment.as_str())
            .bind(&card.version)
            .fetch_one(&mut *tx)
            .await?;
            if stored == sha {
                AddOutcome::Unchanged
            } else {
                tx.rollback().await?;
                return Ok(AddOutcome::Conflict {
                    stored_sha256: stored,
                });
            }
        };
        if make_default {
            sqlx::query(
                "INSERT INTO scorecard_defaults (partner_id, environment, currency, version, \
                 updated_at) VALUES ($1, $2, $3, $4, $5) \
                 ON CONFLICT (partner_id, environment, currency) \
                 DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at",
            )
            .bind(&owner.partner_id)
            .bind(owner.environment.as_str())
            .bind(&card.currency)
            .bind(&card.version)
            .bind(now_ms())
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(outcome)
    }

    /// The scorecard `version` of `owner`, if stored.
    ///
    /// # Errors
    /// Database errors.
    pub async fn scorecard(&self, owner: &Owner, version: &str) -> Result<Option<ScorecardRecord>> {
        sqlx::query(select_card!(
            "WHERE s.partner_id = $1 AND s.environment = $2 AND s.version = $3"
        ))
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(version)
        .fetch_optional(&self.pool)
        .await?
        .as_ref()
        .map(record_from_row)
        .transpose()
    }

    /// Every scorecard of partner `partner_id` (both environments), by environment then
    /// version.
    ///
    /// # Errors
    /// Database errors.
    pub async fn list_scorecards(&self, partner_id: &str) -> Result<Vec<ScorecardRecord>> {
        sqlx::query(select_card!(
            "WHERE s.partner_id = $1 ORDER BY s.environment, s.version"
        ))
        .bind(partner_id)
        .fetch_all(&self.pool)
        .await?
        .iter()
        .map(record_from_row)
        .collect()
    }

    /// The canonical JSON of `owner`'s default cards, by currency (ISO 4217 code -> card JSON);
    /// empty when the owner has none (the built-in card of each currency then scores).
    ///
    /// # Errors
    /// Database errors.
    pub async fn default_scorecards(
        &self,
        owner: &Owner,
    ) -> Result<std::collections::BTreeMap<String, String>> {
        let rows = sqlx::query(
            "SELECT d.currency, s.card_json FROM scorecard_defaults d JOIN scorecards s \
             ON s.partner_id = d.partner_id AND s.environment = d.environment \
             AND s.version = d.version WHERE d.partner_id = $1 AND d.environment = $2",
        )
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| Ok((row.try_get(0)?, row.try_get(1)?)))
            .collect()
    }
}
