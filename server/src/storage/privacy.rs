//! Erasure and retention (Kenya Data Protection Act 2019: storage limitation, right to
//! erasure). A report is erased by deleting its content (the engine's report, score, band,
//! error detail, consent link, fingerprint, idempotency key) and keeping a stub without
//! personal data, so usage and billing counts survive; the keyed fingerprints of its statements'
//! rows (statements seen before) are deleted with it. A revoked consent is erased by deleting
//! the customer's name and phone number and keeping its evidence with a keyed fingerprint of
//! them (s. 32(1): proof of consent). Request logs past retention are counted
//! into `api_request_rollup` and deleted in the same transaction; consents ended before the
//! retention cut-off are deleted.
//!
//! Erased content must not stay readable in the database files either
//! ([`Storage::scrub_erased`], run after every erasure): SQLite connections run with
//! `secure_delete = ON` (deleted content and freed pages are zeroed) and the write-ahead log,
//! which still holds the pages as they were before the erasure, is checkpointed and truncated;
//! PostgreSQL's `VACUUM` of the table is started in the background (it frees the dead row
//! versions for reuse, without a guarantee that their bytes are overwritten: see the README's
//! "Erasure on disk" for what remains, e.g. backups, replicas and WAL archives).

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};

use sqlx::{Executor, Row};

use super::fingerprints::Erased;
use super::{Backend, Owner, Result, Storage};

/// PostgreSQL's vacuums after erasures: one runs at a time, and erasures while one waits add no
/// other (it will see their dead rows too).
#[derive(Debug, Default)]
pub(super) struct VacuumQueue {
    /// A vacuum is queued and has not started yet.
    queued: AtomicBool,
    /// Held while a vacuum runs.
    running: tokio::sync::Mutex<()>,
}

/// Columns cleared when a report is erased (`$1` is the erasure time).
const ERASE_SET: &str = "report_json = NULL, score = NULL, band = NULL, error_detail = NULL, \
     consent_id = NULL, request_fingerprint = '', idempotency_key = NULL, erased_at = $1";

/// What one retention pass removed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RetentionOutcome {
    /// Reports erased.
    pub reports: u64,
    /// Consents deleted.
    pub consents: u64,
    /// Request log rows deleted (counted into the rollup first).
    pub requests: u64,
}

impl Storage {
    /// Erases report `id` of `owner` unless it is still `processing`. Returns `None` when
    /// there is no such (unerased) report, else whether it was erased (`false`: processing).
    ///
    /// # Errors
    /// Database errors.
    pub async fn erase_report(&self, owner: &Owner, id: &str, now: i64) -> Result<Option<bool>> {
        let sql = format!(
            "UPDATE reports SET {ERASE_SET} WHERE id = $2 AND partner_id = $3 \
             AND environment = $4 AND erased_at IS NULL AND status <> 'processing'"
        );
        let done = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(now)
            .bind(id)
            .bind(&owner.partner_id)
            .bind(owner.environment.as_str())
            .execute(self.pool())
            .await?;
        if done.rows_affected() == 1 {
            super::fingerprints::forget_erased(self.pool(), Erased::Report(id)).await?;
            self.scrub_erased(&["reports", "statement_fingerprints"])
                .await;
            return Ok(Some(true));
        }
        let exists: Option<i64> = sqlx::query_scalar(
            "SELECT 1 FROM reports WHERE id = $1 AND partner_id = $2 AND environment = $3 \
             AND erased_at IS NULL",
        )
        .bind(id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .fetch_optional(self.pool())
        .await?;
        Ok(exists.map(|_| false))
    }

    /// Erases consent `consent_id` of `owner` on the customer's request, once it is revoked: in
    /// one transaction, every finished report made under it (as [`Storage::erase_report`]
    /// does) and the customer's name and phone number, which `customer_fingerprint` replaces
    /// (the consent's evidence stays: purpose, scopes, notice and its hash, times, grant method
    /// and evidence reference, reason). Then [`Storage::scrub_erased`]. Returns how many
    /// reports were erased; erasing again erases what was made since and keeps the first
    /// fingerprint and time.
    ///
    /// # Errors
    /// Database errors.
    pub async fn erase_consent(
        &self,
        owner: &Owner,
        consent_id: &str,
        customer_fingerprint: Option<&str>,
        now: i64,
    ) -> Result<u64> {
        let mut tx = self.pool().begin().await?;
        let sql = format!(
            "UPDATE reports SET {ERASE_SET} WHERE consent_id = $2 AND partner_id = $3 \
             AND environment = $4 AND erased_at IS NULL AND status <> 'processing'"
        );
        let reports = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(now)
            .bind(consent_id)
            .bind(&owner.partner_id)
            .bind(owner.environment.as_str())
            .execute(&mut *tx)
            .await?
            .rows_affected();
        super::fingerprints::forget_erased(&mut *tx, Erased::Consent(consent_id)).await?;
        sqlx::query(
            "UPDATE consents SET customer_name = NULL, customer_phone = NULL, \
             customer_fingerprint = COALESCE(customer_fingerprint, $4), \
             erased_at = COALESCE(erased_at, $5) \
             WHERE id = $1 AND partner_id = $2 AND environment = $3 AND status = 'revoked'",
        )
        .bind(consent_id)
        .bind(&owner.partner_id)
        .bind(owner.environment.as_str())
        .bind(customer_fingerprint)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        self.scrub_erased(&["reports", "consents", "statement_fingerprints"])
            .await;
        Ok(reports)
    }

    /// Removes what erasures left in the database files, after rows of `tables` were erased or
    /// deleted. SQLite: the write-ahead log still holds the pages as they were before (the
    /// erased JSON included), so it is checkpointed into the database file (where
    /// `secure_delete` has zeroed the erased content) and truncated to zero bytes
    /// (`PRAGMA wal_checkpoint(TRUNCATE)`, which waits up to the busy time-out for readers of
    /// older snapshots; if they do not finish, a warning is logged and the next erasure's
    /// checkpoint truncates it). PostgreSQL: `VACUUM` of `tables` in the background (one at a
    /// time), so that the dead row versions (and their TOAST chunks) are pruned and their space
    /// reused; VACUUM does not zero that space, and the WAL, archives, replicas and backups keep
    /// their copies (README, "Erasure on disk").
    ///
    /// Errors are logged, not returned: the erasure itself is committed, and the next one's
    /// checkpoint or vacuum covers this one's.
    pub async fn scrub_erased(&self, tables: &[&'static str]) {
        match self.backend {
            Backend::Sqlite => {
                let busy = sqlx::query_scalar::<_, i64>("PRAGMA wal_checkpoint(TRUNCATE)")
                    .fetch_one(self.pool())
                    .await;
                match busy {
                    Ok(0) => {}
                    Ok(_) => tracing::warn!(
                        "the write-ahead log could not be truncated after an erasure (readers \
                         busy); the next erasure's checkpoint will"
                    ),
                    Err(e) => tracing::warn!(error = %e, "checkpoint after an erasure failed"),
                }
            }
            Backend::Postgres => {
                if tables.is_empty() || self.vacuum.queued.swap(true, Ordering::SeqCst) {
                    return;
                }
                let this = self.clone();
                let sql = format!("VACUUM {}", tables.join(", "));
                tokio::spawn(async move {
                    let _running = this.vacuum.running.lock().await;
                    this.vacuum.queued.store(false, Ordering::SeqCst);
                    if let Err(e) = this.pool().execute(sqlx::AssertSqlSafe(sql)).await {
                        tracing::warn!(error = %e, "vacuum after an erasure failed");
                    }
                });
            }
        }
    }

    /// One retention pass at `now`: erases finished reports created before `cutoff`, deletes
    /// consents that ended (revoked, expired, or never granted) before `cutoff`, and counts
    /// then deletes request logs older than `cutoff`. Safe to run on several replicas at once.
    ///
    /// # Errors
    /// Database errors.
    pub async fn apply_retention(&self, cutoff: i64, now: i64) -> Result<RetentionOutcome> {
        let sql = format!(
            "UPDATE reports SET {ERASE_SET} WHERE created_at < $2 AND erased_at IS NULL \
             AND status <> 'processing'"
        );
        let reports = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(now)
            .bind(cutoff)
            .execute(self.pool())
            .await?
            .rows_affected();
        // A report's fingerprints are written during its analysis, within the time-out of its
        // claim: an hour past the cut-off covers every report erased here. Swept on every pass,
        // not only when this one erased reports: another replica's pass may have erased them
        // (or a pass may have failed between its two steps), and their fingerprints go all the
        // same. The sweep reads the `created_at` index.
        let written_by = cutoff.saturating_add(3_600_000);
        let forgotten =
            super::fingerprints::forget_erased(self.pool(), Erased::Before(written_by)).await?;

        // Consents that ended before the cut-off: their remaining report stubs lose the link.
        let ended = "SELECT id FROM consents WHERE (status = 'revoked' AND revoked_at < $1) \
             OR expires_at < $1 OR (status = 'pending' AND created_at < $1)";
        let mut tx = self.pool().begin().await?;
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "UPDATE reports SET consent_id = NULL WHERE consent_id IN ({ended})"
        )))
        .bind(cutoff)
        .execute(&mut *tx)
        .await?;
        let consents = sqlx::query(sqlx::AssertSqlSafe(format!(
            "DELETE FROM consents WHERE id IN ({ended})"
        )))
        .bind(cutoff)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        tx.commit().await?;

        let requests = self.roll_up_requests(cutoff).await?;
        if reports > 0 || consents > 0 || forgotten > 0 {
            self.scrub_erased(&["reports", "consents", "statement_fingerprints"])
                .await;
        }
        Ok(RetentionOutcome {
            reports,
            consents,
            requests,
        })
    }

    /// Deletes request logs older than `cutoff`, adding them to `api_request_rollup` in the
    /// same transaction (a replica racing on the same rows deletes none of them twice).
    async fn roll_up_requests(&self, cutoff: i64) -> Result<u64> {
        let mut tx = self.pool().begin().await?;
        let rows = sqlx::query(
            "DELETE FROM api_requests WHERE created_at < $1 RETURNING partner_id, environment, \
             created_at / 86400000, method, route, status / 100",
        )
        .bind(cutoff)
        .fetch_all(&mut *tx)
        .await?;
        let mut counts: HashMap<(String, String, i64, String, String, i64), i64> = HashMap::new();
        for r in &rows {
            let key = (
                r.try_get(0)?,
                r.try_get(1)?,
                r.try_get(2)?,
                r.try_get(3)?,
                r.try_get(4)?,
                r.try_get(5)?,
            );
            *counts.entry(key).or_default() += 1;
        }
        for ((partner, environment, day, method, route, class), n) in counts {
            sqlx::query(
                "INSERT INTO api_request_rollup (partner_id, environment, day, method, route, \
                 status_class, count) VALUES ($1, $2, $3, $4, $5, $6, $7) \
                 ON CONFLICT (partner_id, environment, day, method, route, status_class) \
                 DO UPDATE SET count = api_request_rollup.count + excluded.count",
            )
            .bind(partner)
            .bind(environment)
            .bind(day)
            .bind(method)
            .bind(route)
            .bind(class)
            .bind(n)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(u64::try_from(rows.len()).unwrap_or(u64::MAX))
    }
}
