//! The portal's own queries (users, links, sessions, failed sign-ins) and the partner-scoped
//! reads the pages need. Every query of a partner's resources takes an [`Owner`] and filters
//! by `partner_id` and `environment` in SQL: a row of another partner is never loaded, so it
//! cannot be shown or changed whatever id a URL names.

use sqlx::Row;
use sqlx::any::AnyRow;

use crate::ids::new_id;
use crate::keys::Environment;
use crate::storage::{KeyRecord, Owner, Partner, Result, Storage, StorageError};

/// A portal user: one person of one partner.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct User {
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

/// A signed-in session.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRecord {
    /// Its user.
    pub user: User,
    /// The CSRF token every form of this session carries.
    pub csrf: String,
    /// The environment the user is looking at.
    pub environment: Environment,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// Last request, milliseconds since the epoch.
    pub last_seen_at: i64,
}

/// A key with when it was last used.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyUse {
    /// The key.
    pub key: KeyRecord,
    /// Last authenticated request with it (milliseconds since the epoch).
    pub last_used_at: Option<i64>,
}

/// An endpoint with its event counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EndpointSummary {
    /// `whe_…`.
    pub id: String,
    /// Where events go.
    pub url: String,
    /// Milliseconds since the epoch.
    pub created_at: i64,
    /// Delivered events.
    pub delivered: i64,
    /// Events given up.
    pub failed: i64,
    /// Events still being tried.
    pub pending: i64,
}

impl EndpointSummary {
    /// `delivered / (delivered + failed)` in percent, one decimal; `None` when neither.
    pub fn delivery_percent(&self) -> Option<f64> {
        let done = self.delivered + self.failed;
        (done > 0).then(|| (self.delivered as f64 * 1000.0 / done as f64).round() / 10.0)
    }
}

/// One row of an endpoint's delivery log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EventRow {
    /// `msg_…`.
    pub id: String,
    /// `pending`, `delivered` or `failed`.
    pub status: String,
    /// Attempts so far.
    pub attempts: i64,
    /// HTTP status of the last attempt.
    pub last_status: Option<i64>,
    /// Next attempt (pending events), milliseconds since the epoch.
    pub next_attempt_at: i64,
    /// Milliseconds since the epoch.
    pub created_at: i64,
}

/// One row of the reports list.
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
}

fn user_from_row(r: &AnyRow) -> Result<User> {
    Ok(User {
        id: r.try_get(0)?,
        partner_id: r.try_get(1)?,
        partner_name: r.try_get(2)?,
        email: r.try_get(3)?,
        password_hash: r.try_get(4)?,
    })
}

const SELECT_USER: &str = "SELECT u.id, u.partner_id, p.name, u.email, u.password_hash \
                           FROM portal_users u JOIN partners p ON p.id = u.partner_id ";

/// Creates user `email` (lowercased) of `partner`.
///
/// # Errors
/// Database errors (an email already taken is one: check [`user_by_email`] first).
pub async fn create_user(
    storage: &Storage,
    partner: &Partner,
    email: &str,
    now: i64,
) -> Result<User> {
    let user = User {
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
    .execute(storage.pool())
    .await?;
    Ok(user)
}

/// The user with `email` (compared lowercased).
///
/// # Errors
/// Database errors.
pub async fn user_by_email(storage: &Storage, email: &str) -> Result<Option<User>> {
    let sql = format!("{SELECT_USER}WHERE u.email = $1");
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(email.trim().to_lowercase())
        .fetch_optional(storage.pool())
        .await?;
    row.as_ref().map(user_from_row).transpose()
}

/// Every user, oldest first.
///
/// # Errors
/// Database errors.
pub async fn list_users(storage: &Storage) -> Result<Vec<User>> {
    let sql = format!("{SELECT_USER}ORDER BY u.created_at, u.id");
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .fetch_all(storage.pool())
        .await?;
    rows.iter().map(user_from_row).collect()
}

/// Stores a sign-in link of `user_id` by the SHA-256 of its token.
///
/// # Errors
/// Database errors.
pub async fn insert_link(
    storage: &Storage,
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
    .execute(storage.pool())
    .await?;
    Ok(())
}

/// The user of an unused, unexpired link, without using it.
///
/// # Errors
/// Database errors.
pub async fn link_user(storage: &Storage, token_hash: &str, now: i64) -> Result<Option<User>> {
    let sql = format!(
        "{SELECT_USER}JOIN portal_links l ON l.user_id = u.id \
         WHERE l.token_hash = $1 AND l.used_at IS NULL AND l.expires_at > $2"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(token_hash)
        .bind(now)
        .fetch_optional(storage.pool())
        .await?;
    row.as_ref().map(user_from_row).transpose()
}

/// Uses a link: marks it used if it was unused and unexpired, and returns its user (`None`
/// when it was not, so a link works once even when two requests race).
///
/// # Errors
/// Database errors.
pub async fn use_link(storage: &Storage, token_hash: &str, now: i64) -> Result<Option<User>> {
    let user = link_user(storage, token_hash, now).await?;
    let done = sqlx::query(
        "UPDATE portal_links SET used_at = $2 \
         WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(token_hash)
    .bind(now)
    .execute(storage.pool())
    .await?;
    Ok(user.filter(|_| done.rows_affected() == 1))
}

/// Sets the password hash of `user_id` and ends all of the user's sessions.
///
/// # Errors
/// Database errors.
pub async fn set_password(storage: &Storage, user_id: &str, hash: &str) -> Result<()> {
    let mut tx = storage.pool().begin().await?;
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

/// Starts a session of `user_id`, first deleting every session idle since before
/// `idle_cutoff` or started before `absolute_cutoff` (abandoned sessions do not pile up).
///
/// # Errors
/// Database errors.
pub async fn insert_session(
    storage: &Storage,
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
        .execute(storage.pool())
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
    .execute(storage.pool())
    .await?;
    Ok(())
}

/// The session whose token hashes to `id_hash`.
///
/// # Errors
/// Database errors; [`StorageError::Corrupt`] for an unknown environment.
pub async fn session(storage: &Storage, id_hash: &str) -> Result<Option<SessionRecord>> {
    let sql = "SELECT u.id, u.partner_id, p.name, u.email, u.password_hash, s.csrf_token, \
               s.environment, s.created_at, s.last_seen_at FROM portal_sessions s \
               JOIN portal_users u ON u.id = s.user_id JOIN partners p ON p.id = u.partner_id \
               WHERE s.id_hash = $1";
    let Some(r) = sqlx::query(sql)
        .bind(id_hash)
        .fetch_optional(storage.pool())
        .await?
    else {
        return Ok(None);
    };
    let env: String = r.try_get(6)?;
    Ok(Some(SessionRecord {
        user: user_from_row(&r)?,
        csrf: r.try_get(5)?,
        environment: Environment::parse(&env)
            .ok_or_else(|| StorageError::Corrupt(format!("environment {env:?}")))?,
        created_at: r.try_get(7)?,
        last_seen_at: r.try_get(8)?,
    }))
}

/// Records activity on a session.
///
/// # Errors
/// Database errors.
pub async fn touch_session(storage: &Storage, id_hash: &str, now: i64) -> Result<()> {
    sqlx::query("UPDATE portal_sessions SET last_seen_at = $2 WHERE id_hash = $1")
        .bind(id_hash)
        .bind(now)
        .execute(storage.pool())
        .await?;
    Ok(())
}

/// Switches a session's environment.
///
/// # Errors
/// Database errors.
pub async fn set_session_environment(
    storage: &Storage,
    id_hash: &str,
    environment: Environment,
) -> Result<()> {
    sqlx::query("UPDATE portal_sessions SET environment = $2 WHERE id_hash = $1")
        .bind(id_hash)
        .bind(environment.as_str())
        .execute(storage.pool())
        .await?;
    Ok(())
}

/// Ends a session.
///
/// # Errors
/// Database errors.
pub async fn delete_session(storage: &Storage, id_hash: &str) -> Result<()> {
    sqlx::query("DELETE FROM portal_sessions WHERE id_hash = $1")
        .bind(id_hash)
        .execute(storage.pool())
        .await?;
    Ok(())
}

/// Records a failed sign-in against `subject` (`pair:…`, `email:…` or `addr:…`), first forgetting
/// failures from before `forget_before` (the table holds only the current window).
///
/// # Errors
/// Database errors.
pub async fn record_failure(
    storage: &Storage,
    subject: &str,
    now: i64,
    forget_before: i64,
) -> Result<()> {
    sqlx::query("DELETE FROM portal_signin_failures WHERE created_at < $1")
        .bind(forget_before)
        .execute(storage.pool())
        .await?;
    sqlx::query("INSERT INTO portal_signin_failures (subject, created_at) VALUES ($1, $2)")
        .bind(subject)
        .bind(now)
        .execute(storage.pool())
        .await?;
    Ok(())
}

/// Failed sign-ins against `subject` since `since`: how many, and the time of the last one
/// (ms since the epoch).
///
/// # Errors
/// Database errors.
pub async fn failure_stats(
    storage: &Storage,
    subject: &str,
    since: i64,
) -> Result<(i64, Option<i64>)> {
    let row = sqlx::query(
        "SELECT COUNT(*), MAX(created_at) FROM portal_signin_failures \
         WHERE subject = $1 AND created_at >= $2",
    )
    .bind(subject)
    .bind(since)
    .fetch_one(storage.pool())
    .await?;
    Ok((row.try_get(0)?, row.try_get(1)?))
}

/// Forgets the failed sign-in of `subject` recorded at `at` (an attempt that turned out right).
///
/// # Errors
/// Database errors.
pub async fn forget_failure(storage: &Storage, subject: &str, at: i64) -> Result<()> {
    sqlx::query("DELETE FROM portal_signin_failures WHERE subject = $1 AND created_at = $2")
        .bind(subject)
        .bind(at)
        .execute(storage.pool())
        .await?;
    Ok(())
}

/// Forgets the failed sign-ins of `subject` (after a successful one).
///
/// # Errors
/// Database errors.
pub async fn clear_failures(storage: &Storage, subject: &str) -> Result<()> {
    sqlx::query("DELETE FROM portal_signin_failures WHERE subject = $1")
        .bind(subject)
        .execute(storage.pool())
        .await?;
    Ok(())
}

/// Partner `id`.
///
/// # Errors
/// Database errors.
pub async fn partner(storage: &Storage, id: &str) -> Result<Option<Partner>> {
    let row = sqlx::query("SELECT id, name, created_at FROM partners WHERE id = $1")
        .bind(id)
        .fetch_optional(storage.pool())
        .await?;
    row.map(|r| {
        Ok(Partner {
            id: r.try_get(0)?,
            name: r.try_get(1)?,
            created_at: r.try_get(2)?,
        })
    })
    .transpose()
}

/// Keys of `owner`, newest first, with when each was last used.
///
/// # Errors
/// Database errors.
pub async fn keys(storage: &Storage, owner: &Owner) -> Result<Vec<KeyUse>> {
    let rows = sqlx::query(
        "SELECT k.id, k.partner_id, p.name, k.environment, k.key_hint, k.created_at, \
         k.revoked_at, (SELECT MAX(r.created_at) FROM api_requests r WHERE r.api_key_id = k.id) \
         FROM api_keys k JOIN partners p ON p.id = k.partner_id \
         WHERE k.partner_id = $1 AND k.environment = $2 ORDER BY k.created_at DESC, k.id DESC",
    )
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .fetch_all(storage.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(KeyUse {
                key: KeyRecord {
                    id: r.try_get(0)?,
                    partner_id: r.try_get(1)?,
                    partner_name: r.try_get(2)?,
                    environment: owner.environment,
                    hint: r.try_get(4)?,
                    created_at: r.try_get(5)?,
                    revoked_at: r.try_get(6)?,
                },
                last_used_at: r.try_get(7)?,
            })
        })
        .collect()
}

/// Key `id` if it belongs to `owner`.
///
/// # Errors
/// Database errors.
pub async fn key(storage: &Storage, owner: &Owner, id: &str) -> Result<Option<KeyUse>> {
    Ok(keys(storage, owner)
        .await?
        .into_iter()
        .find(|k| k.key.id == id))
}

/// Active endpoints of `owner` with their event counts, oldest first.
///
/// # Errors
/// Database errors.
pub async fn endpoints(storage: &Storage, owner: &Owner) -> Result<Vec<EndpointSummary>> {
    let rows = sqlx::query(
        "SELECT e.id, e.url, e.created_at, \
         COUNT(CASE WHEN ev.status = 'delivered' THEN 1 END), \
         COUNT(CASE WHEN ev.status = 'failed' THEN 1 END), \
         COUNT(CASE WHEN ev.status = 'pending' THEN 1 END) \
         FROM webhook_endpoints e LEFT JOIN webhook_events ev ON ev.endpoint_id = e.id \
         WHERE e.partner_id = $1 AND e.environment = $2 AND e.removed_at IS NULL \
         GROUP BY e.id, e.url, e.created_at ORDER BY e.created_at, e.id",
    )
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .fetch_all(storage.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(EndpointSummary {
                id: r.try_get(0)?,
                url: r.try_get(1)?,
                created_at: r.try_get(2)?,
                delivered: r.try_get(3)?,
                failed: r.try_get(4)?,
                pending: r.try_get(5)?,
            })
        })
        .collect()
}

/// Active endpoint `id` if it belongs to `owner`.
///
/// # Errors
/// Database errors.
pub async fn endpoint(
    storage: &Storage,
    owner: &Owner,
    id: &str,
) -> Result<Option<EndpointSummary>> {
    Ok(endpoints(storage, owner)
        .await?
        .into_iter()
        .find(|e| e.id == id))
}

/// Replaces the signing secret of endpoint `id` of `owner`; whether it was changed.
///
/// # Errors
/// Database errors.
pub async fn rotate_secret(
    storage: &Storage,
    owner: &Owner,
    id: &str,
    secret: &str,
) -> Result<bool> {
    let done = sqlx::query(
        "UPDATE webhook_endpoints SET secret = $4 WHERE id = $1 AND partner_id = $2 \
         AND environment = $3 AND removed_at IS NULL",
    )
    .bind(id)
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .bind(secret)
    .execute(storage.pool())
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The latest 100 events of endpoint `endpoint_id` of `owner`, newest first.
///
/// # Errors
/// Database errors.
pub async fn events(storage: &Storage, owner: &Owner, endpoint_id: &str) -> Result<Vec<EventRow>> {
    let rows = sqlx::query(
        "SELECT id, status, attempts, last_status, next_attempt_at, created_at \
         FROM webhook_events WHERE endpoint_id = $1 AND partner_id = $2 AND environment = $3 \
         ORDER BY created_at DESC, id DESC LIMIT 100",
    )
    .bind(endpoint_id)
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .fetch_all(storage.pool())
    .await?;
    rows.iter()
        .map(|r| {
            Ok(EventRow {
                id: r.try_get(0)?,
                status: r.try_get(1)?,
                attempts: r.try_get(2)?,
                last_status: r.try_get(3)?,
                next_attempt_at: r.try_get(4)?,
                created_at: r.try_get(5)?,
            })
        })
        .collect()
}

/// Queues failed event `id` of `owner` for delivery again (a fresh retry schedule); returns the
/// endpoint id when it was failed and is now pending.
///
/// # Errors
/// Database errors.
pub async fn resend_event(
    storage: &Storage,
    owner: &Owner,
    id: &str,
    now: i64,
) -> Result<Option<String>> {
    let done = sqlx::query(
        "UPDATE webhook_events SET status = 'pending', attempts = 0, next_attempt_at = $4, \
         locked_until = NULL WHERE id = $1 AND partner_id = $2 AND environment = $3 \
         AND status = 'failed'",
    )
    .bind(id)
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .bind(now)
    .execute(storage.pool())
    .await?;
    if done.rows_affected() != 1 {
        return Ok(None);
    }
    let row = sqlx::query("SELECT endpoint_id FROM webhook_events WHERE id = $1")
        .bind(id)
        .fetch_one(storage.pool())
        .await?;
    Ok(Some(row.try_get(0)?))
}

/// The latest 100 reports of `owner`, newest first; with `search`, only the report with that id
/// or those analysed under a consent with that customer reference.
///
/// # Errors
/// Database errors.
pub async fn reports(storage: &Storage, owner: &Owner, search: &str) -> Result<Vec<ReportRow>> {
    let rows = sqlx::query(
        "SELECT r.id, r.status, r.score, r.band, c.customer_reference, r.created_at \
         FROM reports r LEFT JOIN consents c ON c.id = r.consent_id \
         WHERE r.partner_id = $1 AND r.environment = $2 \
         AND ($3 = '' OR r.id = $3 OR c.customer_reference = $3) \
         ORDER BY r.created_at DESC, r.id DESC LIMIT 100",
    )
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .bind(search.trim())
    .fetch_all(storage.pool())
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
            })
        })
        .collect()
}

/// The latest 100 consents of `owner`, newest first (read with
/// [`Storage::consent`], as `GET /v1/consents/{id}` does).
///
/// # Errors
/// Database errors.
pub async fn consents(
    storage: &Storage,
    owner: &Owner,
) -> Result<Vec<crate::storage::ConsentRecord>> {
    let rows = sqlx::query(
        "SELECT id FROM consents WHERE partner_id = $1 AND environment = $2 \
         ORDER BY created_at DESC, id DESC LIMIT 100",
    )
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .fetch_all(storage.pool())
    .await?;
    let mut out = Vec::with_capacity(rows.len());
    for r in &rows {
        let id: String = r.try_get(0)?;
        if let Some(c) = storage.consent(owner, &id).await? {
            out.push(c);
        }
    }
    Ok(out)
}

/// Queues a `webhook.test` event for endpoint `endpoint_id` of `owner`, delivered (signed,
/// retried, counted) like any other event. An event row names a report, so the test event
/// names the owner's newest report; `None` when the endpoint is not the owner's or the owner
/// has no report yet. Returns the event id.
///
/// # Errors
/// Database errors.
pub async fn enqueue_test_event(
    storage: &Storage,
    owner: &Owner,
    endpoint_id: &str,
    now: i64,
) -> Result<Option<String>> {
    if endpoint(storage, owner, endpoint_id).await?.is_none() {
        return Ok(None);
    }
    let Some(report) = sqlx::query(
        "SELECT id FROM reports WHERE partner_id = $1 AND environment = $2 \
         ORDER BY created_at DESC, id DESC LIMIT 1",
    )
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .fetch_optional(storage.pool())
    .await?
    else {
        return Ok(None);
    };
    let report_id: String = report.try_get(0)?;
    let id = new_id("msg");
    let payload = serde_json::json!({
        "id": id,
        "type": "webhook.test",
        "createdAt": crate::ids::rfc3339(now),
        "environment": owner.environment.as_str(),
        "data": {"reportId": report_id, "test": true},
    })
    .to_string();
    sqlx::query(
        "INSERT INTO webhook_events (id, partner_id, environment, endpoint_id, report_id, \
         event_type, payload, status, attempts, next_attempt_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, 'webhook.test', $6, 'pending', 0, $7, $7)",
    )
    .bind(&id)
    .bind(&owner.partner_id)
    .bind(owner.environment.as_str())
    .bind(endpoint_id)
    .bind(&report_id)
    .bind(&payload)
    .bind(now)
    .execute(storage.pool())
    .await?;
    Ok(Some(id))
}
