//! Score reports: claimed as `processing` before the analysis runs (which is also what makes an
//! `Idempotency-Key` exclusive), then completed or failed exactly once.
//! (Over 400 lines: the `reports` table's whole life, from claim to completion or failure, and
//! its reads, one query each.)

use sqlx::Row;
use sqlx::any::AnyRow;

use super::{Owner, Result, Storage, environment};

/// What is known when an analysis starts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReport {
    /// `rpt_…`, assigned by the service.
    pub id: String,
    /// Owner.
    pub owner: Owner,
    /// The key that submitted it.
    pub api_key_id: String,
    /// The consent it was analysed under (optional in Sandbox).
    pub consent_id: Option<String>,
    /// The request's `Idempotency-Key`, if any.
    pub idempotency_key: Option<String>,
    /// `v2:` + hex HMAC-SHA256 under the server's fingerprint key over the statement's digest
    /// and the consent id (never the password).
    pub request_fingerprint: String,
    /// `pdf`, `csv` or `json`.
    pub statement_format: String,
    /// Size of the upload in bytes.
    pub statement_bytes: i64,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

/// What the engine concluded, as [`Storage::complete_report`] stores it beside the JSON.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Completed<'a> {
    /// 300–850.
    pub score: u16,
    /// The band of `score`.
    pub band: &'a str,
    /// The scorecard's version.
    pub scorecard_version: &'a str,
    /// The integrity verdict (`verified`, `consistent`, `warnings`, `failed`).
    pub integrity_status: &'a str,
    /// The report's JSON as stored and answered.
    pub json: &'a str,
}

impl<'a> Completed<'a> {
    /// The figures of an analysis' `report`, stored as `json`.
    pub fn of_report(report: &'a alama_core::Report, json: &'a str) -> Self {
        Self {
            score: report.score,
            band: report.band.as_str(),
            scorecard_version: &report.scorecard_version,
            integrity_status: &report.integrity.status,
            json,
        }
    }

    /// The figures of an application's `report`, stored as `json`.
    pub fn of_application(report: &'a alama_core::ApplicationReport, json: &'a str) -> Self {
        Self {
            score: report.score,
            band: report.band.as_str(),
            scorecard_version: &report.scorecard_version,
            integrity_status: &report.integrity.status,
            json,
        }
    }
}

/// The kind of a report row by its id: `application` for `app_…` (`POST /v1/applications`),
/// else `analysis`.
pub fn kind_of(id: &str) -> &'static str {
    if id.starts_with("app_") {
        "application"
    } else {
        "analysis"
    }
}

/// A stored report.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRecord {
    /// `rpt_…`.
    pub id: String,
    /// Owner.
    pub owner: Owner,
    /// The consent it was analysed under.
    pub consent_id: Option<String>,
    /// `v2:` + hex HMAC-SHA256 under the server's fingerprint key over the statement's digest
    /// and the consent id (never the password).
    pub request_fingerprint: String,
    /// `processing`, `completed` or `failed`.
    pub status: String,
    /// The engine's report JSON with the service's `reportId` (completed reports).
    pub report_json: Option<String>,
    /// Error code (failed reports), a problem `code` (of the service's code table, in the HTTP
    /// layer above).
    pub error_code: Option<String>,
    /// Error detail (failed reports).
    pub error_detail: Option<String>,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// When completed or failed.
    pub completed_at: Option<i64>,
}

/// One row of the portal's reports list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportRow {
    /// `rpt_…`.
    pub id: String,
    /// `processing`, `completed` or `failed`.
    pub status: String,
    /// Score (completed reports).
    pub score: Option<i64>,
    /// Band (completed reports).
    pub band: Option<String>,
    /// The consent's customer reference, if analysed under a consent.
    pub customer_reference: Option<String>,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// `analysis` or `application`.
    pub kind: String,
    /// Whether a statement of it was seen before (its report carries a
    /// `statement_seen_before` finding, `crate::seen_before`).
    pub seen_before: bool,
}

/// The outcome of [`Storage::claim_report`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Claim {
    /// The `processing` row was written: run the analysis.
    Created,
    /// The `Idempotency-Key` was already used: this is the earlier report.
    Existing(Box<ReportRecord>),
}

macro_rules! select_report {
    ($tail:literal) => {
        concat!(
            "SELECT id, partner_id, environment, consent_id, request_fingerprint, status, ",
            "report_json, error_code, error_detail, created_at, completed_at FROM reports ",
            $tail
        )
    };
}

fn report_from_row(row: &AnyRow) -> Result<ReportRecord> {
    Ok(ReportRecord {
        id: row.try_get(0)?,
        owner: Owner {
            partner_id: row.try_get(1)?,
            environment: environment(&row.try_get::<String, _>(2)?)?,
        },
        consent_id: row.try_get(3)?,
        request_fingerprint: row.try_get(4)?,
        status: row.try_get(5)?,
        report_json: row.try_get(6)?,
        error_code: row.try_get(7)?,
        error_detail: row.try_get(8)?,
        created_at: row.try_get(9)?,
        completed_at: row.try_get(10)?,
    })
}

impl Storage {
    /// Writes the `processing` row of `report`, unless its `Idempotency-Key` was used before
    /// by the same owner, in which case the earlier report is returned.
    ///
    /// # Errors
    /// Database errors.
    pub async fn claim_report(&self, report: &NewReport) -> Result<Claim> {
        let done = sqlx::query(
            "INSERT INTO reports (id, partner_id, environment, api_key_id, consent_id, \
             idempotency_key, request_fingerprint, status, statement_format, statement_bytes, \
             created_at, claimed_by, kind) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, 'processing', $8, $9, $10, $11, $12) \
             ON CONFLICT DO NOTHING",
        )
        .bind(&report.id)
        .bind(&report.owner.partner_id)
        .bind(report.owner.environment.as_str())
        .bind(&report.api_key_id)
        .bind(report.consent_id.as_deref())
        .bind(report.idempotency_key.as_deref())
        .bind(&report.request_fingerprint)
        .bind(&report.statement_format)
        .bind(report.statement_bytes)
        .bind(report.created_at)
        .bind(self.instance())
        .bind(kind_of(&report.id))
        .execute(&self.pool)
        .await?;
        if done.rows_affected() == 1 {
            return Ok(Claim::Created);
        }
        let key = report.idempotency_key.as_deref().unwrap_or_default();
        match self.report_by_idempotency_key(&report.owner, key).await? {
            Some(existing) => Ok(Claim::Existing(Box::new(existing))),
            None => Err(super::StorageError::Corrupt(format!(
                "report {} conflicts but no report holds its idempotency key",
                report.id
            ))),
        }
    }

    /// The report submitted by `owner` with `Idempotency-Key` `key`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn report_by_idempotency_key(
        &self,
        owner: &Owner,
        key: &str,
    ) -> Result<Option<ReportRecord>> {
        let row = sqlx::query(select_report!(
            "WHERE partner_id = $1 AND environment = $2 AND idempotency_key = $3"
        ))
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(key)
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(report_from_row).transpose()
    }

    /// Report `id` if it belongs to `owner`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn report(&self, owner: &Owner, id: &str) -> Result<Option<ReportRecord>> {
        let row = sqlx::query(select_report!(
            "WHERE id = $1 AND partner_id = $2 AND environment = $3 AND erased_at IS NULL"
        ))
        .bind(id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .fetch_optional(&self.pool)
        .await?;
        row.as_ref().map(report_from_row).transpose()
    }

    /// Marks report `id` of `owner` completed with the engine's figures and, in the same
    /// transaction, writes its `score.completed` webhook event (`application.completed` for an
    /// application, `app_…`) for each active endpoint of
    /// `owner` (the outbox), with the request `origin` that completed it. Returns whether it did: `false` when the report was no longer
    /// `processing` (failed as interrupted by another replica meanwhile, or erased).
    ///
    /// An owner without an active endpoint (most of them) has nothing to write with it: the
    /// report is completed by one statement, without a transaction (two round trips to the
    /// database instead of four, 2026-11-25). An endpoint added meanwhile receives the events
    /// of the reports completed after it, as if it had been added a moment later.
    ///
    /// # Errors
    /// Database errors.
    pub async fn complete_report(
        &self,
        owner: &Owner,
        id: &str,
        report: Completed<'_>,
        now: i64,
        origin: &super::EventOrigin,
    ) -> Result<bool> {
        if !super::webhook_endpoints::has_active_endpoint(&self.pool, owner).await? {
            let done = completion(id, report, now).execute(&self.pool).await?;
            return Ok(done.rows_affected() == 1);
        }
        let mut tx = self.pool.begin().await?;
        let done = completion(id, report, now).execute(&mut *tx).await?;
        let completed = done.rows_affected() == 1;
        if completed {
            let integrity = serde_json::json!({ "status": report.integrity_status });
            super::webhook_events::enqueue_completed(&mut tx, owner, origin, id, &integrity, now)
                .await?;
        }
        tx.commit().await?;
        Ok(completed)
    }

    /// Marks report `id` failed with `code` although the engine produced `report_json`
    /// (kept so that the report still shows its integrity verdict): the integrity policy
    /// `reject_failed`. The `Idempotency-Key` stays taken: a retry replays the refusal.
    ///
    /// # Errors
    /// Database errors.
    pub async fn reject_report(
        &self,
        id: &str,
        report_json: &str,
        code: &str,
        detail: &str,
        now: i64,
    ) -> Result<()> {
        sqlx::query(
            "UPDATE reports SET status = 'failed', error_code = $2, error_detail = $3, \
             report_json = $4, completed_at = $5 WHERE id = $1 AND status = 'processing'",
        )
        .bind(id)
        .bind(code)
        .bind(detail)
        .bind(report_json)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(())
    }

    /// Marks report `id` failed with an error code and detail. With `release_key` (a failure
    /// of the service, not of the statement) its `Idempotency-Key` is freed, so a retry with
    /// the same key runs the analysis again instead of replaying the failure.
    ///
    /// # Errors
    /// Database errors.
    pub async fn fail_report(
        &self,
        id: &str,
        code: &str,
        detail: &str,
        now: i64,
        release_key: bool,
    ) -> Result<()> {
        let sql = if release_key {
            "UPDATE reports SET status = 'failed', error_code = $2, error_detail = $3, \
             completed_at = $4, idempotency_key = NULL WHERE id = $1 AND status = 'processing'"
        } else {
            "UPDATE reports SET status = 'failed', error_code = $2, error_detail = $3, \
             completed_at = $4 WHERE id = $1 AND status = 'processing'"
        };
        sqlx::query(sql)
            .bind(id)
            .bind(code)
            .bind(detail)
            .bind(now)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Fails report `id` with `analysis_interrupted` if it is still `processing` and was created
    /// before `cutoff` (its server stopped mid-analysis), freeing its `Idempotency-Key`.
    /// Returns whether it changed.
    ///
    /// # Errors
    /// Database errors.
    pub async fn fail_if_stale(&self, id: &str, cutoff: i64, now: i64) -> Result<bool> {
        let done = sqlx::query(
            "UPDATE reports SET status = 'failed', error_code = 'analysis_interrupted', \
             error_detail = 'the server stopped before the analysis finished; submit the \
             statement again', completed_at = $3, idempotency_key = NULL \
             WHERE id = $1 AND status = 'processing' AND created_at < $2",
        )
        .bind(id)
        .bind(cutoff)
        .bind(now)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The latest 100 reports and applications of `owner`, newest first; with `search`, only
    /// the one with that id or those analysed under a consent with that customer reference.
    ///
    /// # Errors
    /// Database errors.
    pub async fn recent_reports(&self, owner: &Owner, search: &str) -> Result<Vec<ReportRow>> {
        let rows = sqlx::query(
            "SELECT r.id, r.status, r.score, r.band, c.customer_reference, r.created_at, \
             r.kind, CASE WHEN r.report_json LIKE '%\"statement_seen_before\"%' \
             THEN 'yes' ELSE 'no' END \
             FROM reports r LEFT JOIN consents c ON c.id = r.consent_id \
             WHERE r.partner_id = $1 AND r.environment = $2 \
             AND ($3 = '' OR r.id = $3 OR c.customer_reference = $3) \
             ORDER BY r.created_at DESC, r.id DESC LIMIT 100",
        )
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(search.trim())
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ReportRow {
                    id: r.try_get(0)?,
                    status: r.try_get(1)?,
                    score: r.try_get(2)?,
                    band: r.try_get(3)?,
                    customer_reference: r.try_get(4)?,
                    created_at: r.try_get(5)?,
                    kind: r.try_get(6)?,
                    seen_before: r.try_get::<String, _>(7)? == "yes",
                })
            })
            .collect()
    }

    /// The id of `owner`'s newest report, erased or not.
    ///
    /// # Errors
    /// Database errors.
    pub async fn newest_report_id(&self, owner: &Owner) -> Result<Option<String>> {
        Ok(sqlx::query_scalar(
            "SELECT id FROM reports WHERE partner_id = $1 AND environment = $2 \
             ORDER BY created_at DESC, id DESC LIMIT 1",
        )
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .fetch_optional(&self.pool)
        .await?)
    }
}

/// The `UPDATE` that completes report `id` if it is still `processing`.
fn completion<'q>(
    id: &'q str,
    report: Completed<'q>,
    now: i64,
) -> sqlx::query::Query<'q, sqlx::Any, sqlx::any::AnyArguments> {
    sqlx::query(
        "UPDATE reports SET status = 'completed', score = $2, band = $3, \
         scorecard_version = $4, report_json = $5, completed_at = $6 \
         WHERE id = $1 AND status = 'processing'",
    )
    .bind(id)
    .bind(i64::from(report.score))
    .bind(report.band)
    .bind(report.scorecard_version)
    .bind(report.json)
    .bind(now)
}
