//! Keyed row fingerprints of statements analysed under a consent, for statements seen before
//! (`crate::seen_before` decides what they are and when they match). Only fingerprints, the
//! report and the consent are kept; they are deleted with the report's content when it is
//! erased ([`forget_erased`]).

use sqlx::{Any, Executor, Row};

use super::{Owner, Result, Storage};

/// Most placeholders one `IN (…)` list or one insert takes here (the sketch size, 64, fits).
const MAX_BATCH: usize = 128;

impl Storage {
    /// Earlier statements of `owner` sharing any of `fingerprints`: completed, unerased reports
    /// whose consent names another customer reference than consent `consent_id`'s, each with
    /// how many of `fingerprints` it holds; most shared first, then oldest (at most 5).
    ///
    /// # Errors
    /// Database errors.
    pub async fn earlier_statements(
        &self,
        owner: &Owner,
        consent_id: &str,
        fingerprints: &[String],
    ) -> Result<Vec<(String, i64)>> {
        let fingerprints = &fingerprints[..fingerprints.len().min(MAX_BATCH)];
        if fingerprints.is_empty() {
            return Ok(Vec::new());
        }
        let list: Vec<String> = (0..fingerprints.len())
            .map(|i| format!("${}", i + 4))
            .collect();
        let sql = format!(
            "SELECT f.report_id, COUNT(DISTINCT f.fingerprint) AS shared, MIN(r.created_at) AS at \
             FROM statement_fingerprints f \
             JOIN reports r ON r.id = f.report_id \
             JOIN consents c ON c.id = r.consent_id \
             WHERE f.partner_id = $1 AND f.environment = $2 \
             AND r.status = 'completed' AND r.erased_at IS NULL \
             AND c.customer_reference <> \
                 (SELECT customer_reference FROM consents WHERE id = $3) \
             AND f.fingerprint IN ({}) \
             GROUP BY f.report_id ORDER BY shared DESC, at ASC, f.report_id ASC LIMIT 5",
            list.join(", ")
        );
        // Only numbered placeholders are formatted in; every value is bound.
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(&owner.partner_id)
            .bind(owner.environment.as_str())
            .bind(consent_id);
        for f in fingerprints {
            query = query.bind(f);
        }
        let rows = query.fetch_all(self.pool()).await?;
        rows.iter()
            .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
            .collect()
    }

    /// Keeps `fingerprints` of report `report_id` of `owner`, analysed under `consent_id`.
    ///
    /// # Errors
    /// Database errors.
    pub async fn keep_fingerprints(
        &self,
        owner: &Owner,
        report_id: &str,
        consent_id: &str,
        fingerprints: &[&str],
        now: i64,
    ) -> Result<()> {
        for chunk in fingerprints.chunks(MAX_BATCH) {
            let values: Vec<String> = (0..chunk.len())
                .map(|i| format!("($1, $2, $3, $4, $5, ${})", i + 6))
                .collect();
            let sql = format!(
                "INSERT INTO statement_fingerprints \
                 (partner_id, environment, report_id, consent_id, created_at, fingerprint) \
                 VALUES {}",
                values.join(", ")
            );
            // Only numbered placeholders are formatted in; every value is bound.
            let mut query = sqlx::query(sqlx::AssertSqlSafe(sql))
                .bind(&owner.partner_id)
                .bind(owner.environment.as_str())
                .bind(report_id)
                .bind(consent_id)
                .bind(now);
            for f in chunk {
                query = query.bind(*f);
            }
            query.execute(self.pool()).await?;
        }
        Ok(())
    }
}

/// Which erased reports' fingerprints [`forget_erased`] deletes.
#[derive(Debug, Clone, Copy)]
pub(super) enum Erased<'a> {
    /// Report `id` (`DELETE /v1/scores/{id}`, `DELETE /v1/applications/{id}`).
    Report(&'a str),
    /// The reports of consent `id` (revoked with `eraseReports`).
    Consent(&'a str),
    /// Reports erased by the retention pass, kept since before this cut-off (ms).
    Before(i64),
}

/// Deletes the fingerprints of the erased reports `which` names (run with each erasure, in its
/// transaction where it has one); the fingerprints of a report still kept stay.
///
/// # Errors
/// Database errors.
pub(super) async fn forget_erased<'e, E>(executor: E, which: Erased<'_>) -> Result<u64>
where
    E: Executor<'e, Database = Any>,
{
    const ERASED: &str = "EXISTS (SELECT 1 FROM reports r WHERE r.id = \
         statement_fingerprints.report_id AND r.erased_at IS NOT NULL)";
    let (column, value) = match which {
        Erased::Report(id) => ("report_id = $1", Value::Text(id)),
        Erased::Consent(id) => ("consent_id = $1", Value::Text(id)),
        Erased::Before(cutoff) => ("created_at < $1", Value::Ms(cutoff)),
    };
    let sql = format!("DELETE FROM statement_fingerprints WHERE {column} AND {ERASED}");
    // Only the fixed conditions above are formatted in; the value is bound.
    let query = sqlx::query(sqlx::AssertSqlSafe(sql));
    let query = match value {
        Value::Text(t) => query.bind(t),
        Value::Ms(ms) => query.bind(ms),
    };
    Ok(query.execute(executor).await?.rows_affected())
}

enum Value<'a> {
    Text(&'a str),
    Ms(i64),
}
