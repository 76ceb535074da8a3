//! The repository layer: one [`Storage`] over SQLite (embedded default, a file created and
//! migrated on first start) or PostgreSQL (shared by several stateless replicas).
//!
//! Every SQL statement of the service is here, one repository (a file, `impl Storage`) per
//! concept: partners, keys, consents, reports, request records and usage, scorecards, webhook
//! endpoints and events, portal users, sessions and sign-in failures, liveness, secrets,
//! privacy (erasure, retention), statement fingerprints (statements seen before), health (checked by `server/tests/layers.rs`: no other module
//! names `sqlx` or runs a statement).
//!
//! Queries are plain runtime SQL (`$1` placeholders, which both SQLite and PostgreSQL accept)
//! through sqlx's `Any` driver; no query needs a database at compile time. Migrations are
//! embedded in the binary and applied on connect (under PostgreSQL's advisory lock, so replicas
//! starting together migrate once).

mod consents;
mod fingerprints;
mod health;
mod keys;
mod liveness;
mod partners;
mod portal_sessions;
mod portal_users;
mod privacy;
mod reports;
mod requests;
mod scorecards;
mod secrets;
mod signin_failures;
mod usage;
mod webhook_endpoints;
mod webhook_events;

use std::borrow::Cow;
use std::str::FromStr;
use std::time::Duration;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::{AnyPool, ConnectOptions, Connection, Executor, SqlSafeStr};

pub use consents::ConsentRecord;
pub use keys::{KeyRecord, KeyUse, RequestKey};
pub use partners::Partner;
pub use portal_sessions::PortalSession;
pub use portal_users::PortalUser;
pub use privacy::RetentionOutcome;
pub use reports::{Claim, Completed, NewReport, ReportRecord, ReportRow, kind_of};
pub use requests::RequestRecord;
pub use scorecards::{AddOutcome, ScorecardRecord};
pub use usage::{AnalysisCount, DAY_MS, RequestCount};
pub use webhook_endpoints::{EndpointRecord, EndpointSummary};
pub use webhook_events::{DueEvent, EventOrigin, EventRow, Outcome, WebhookCount};

use crate::keys::Environment;

/// Which database a [`Storage`] talks to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    /// An SQLite file (the default, `sqlite://alama.db`).
    Sqlite,
    /// A PostgreSQL server (`postgres://…`).
    Postgres,
}

/// The isolation key of every partner-owned row: a resource is visible only to requests of the
/// same partner in the same environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// `ptn_…` id of the partner.
    pub partner_id: String,
    /// The environment of the key that made the request.
    pub environment: Environment,
}

/// Errors of the storage layer.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// The `--database` value is not a SQLite path/URL or a PostgreSQL URL.
    #[error("unsupported database URL {0:?}: use a file path, sqlite://PATH or postgres://…")]
    Url(String),
    /// A database error.
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Applying the schema migrations failed.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
    /// A stored value is not what the schema allows.
    #[error("corrupt stored value: {0}")]
    Corrupt(String),
}

impl StorageError {
    /// Whether the database could not be reached (the pool timed out or is closed, an I/O
    /// error): a condition to retry later, unlike a failed query or a corrupt value.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            Self::Database(
                sqlx::Error::PoolTimedOut | sqlx::Error::PoolClosed | sqlx::Error::Io(_)
            )
        )
    }
}

/// Result of the storage layer.
pub type Result<T, E = StorageError> = std::result::Result<T, E>;

/// One schema version, with its SQL per backend (the same text while no difference is needed).
struct Step {
    version: i64,
    description: &'static str,
    sqlite: &'static str,
    postgres: &'static str,
}

const INITIAL: &str = include_str!("../../migrations/0001_initial.sql");
const WEBHOOKS: &str = include_str!("../../migrations/0002_webhooks.sql");
const HARDENING: &str = include_str!("../../migrations/0003_hardening.sql");
const PORTAL: &str = include_str!("../../migrations/0004_portal.sql");
const SCORECARDS: &str = include_str!("../../migrations/0005_scorecards.sql");
const CURRENCY_DEFAULTS_SQLITE: &str = include_str!("../../migrations/0006_currency_defaults.sql");
const CURRENCY_DEFAULTS_POSTGRES: &str =
    include_str!("../../migrations/0006_currency_defaults.postgres.sql");
const WEBHOOK_TRACE: &str = include_str!("../../migrations/0007_webhook_trace.sql");
const CONSENT_ERASURE: &str = include_str!("../../migrations/0008_consent_erasure.sql");
const APPLICATIONS: &str = include_str!("../../migrations/0009_applications.sql");

/// The schema history, oldest first. Never edit a released step: add one.
const STEPS: &[Step] = &[
    Step {
        version: 1,
        description: "initial",
        sqlite: INITIAL,
        postgres: INITIAL,
    },
    Step {
        version: 2,
        description: "webhooks",
        sqlite: WEBHOOKS,
        postgres: WEBHOOKS,
    },
    Step {
        version: 3,
        description: "hardening",
        sqlite: HARDENING,
        postgres: HARDENING,
    },
    Step {
        version: 4,
        description: "portal",
        sqlite: PORTAL,
        postgres: PORTAL,
    },
    Step {
        version: 5,
        description: "scorecards",
        sqlite: SCORECARDS,
        postgres: SCORECARDS,
    },
    Step {
        version: 6,
        description: "currency defaults",
        sqlite: CURRENCY_DEFAULTS_SQLITE,
        postgres: CURRENCY_DEFAULTS_POSTGRES,
    },
    Step {
        version: 7,
        description: "webhook trace",
        sqlite: WEBHOOK_TRACE,
        postgres: WEBHOOK_TRACE,
    },
    Step {
        version: 8,
        description: "consent erasure",
        sqlite: CONSENT_ERASURE,
        postgres: CONSENT_ERASURE,
    },
    Step {
        version: 9,
        description: "applications",
        sqlite: APPLICATIONS,
        postgres: APPLICATIONS,
    },
];

fn migrator(backend: Backend) -> Migrator {
    let migrations = STEPS
        .iter()
        .map(|s| {
            let sql = match backend {
                Backend::Sqlite => s.sqlite,
                Backend::Postgres => s.postgres,
            };
            Migration::new(
                s.version,
                Cow::Borrowed(s.description),
                MigrationType::Simple,
                sql.into_sql_str(),
                false,
            )
        })
        .collect();
    Migrator::with_migrations(migrations)
}

/// Turns a `--database` value into a sqlx URL: `postgres://…`/`postgresql://…` as given,
/// `sqlite:PATH`/`sqlite://PATH` with `mode=rwc` added (create the file if missing), and a bare
/// path as `sqlite://PATH?mode=rwc`.
///
/// # Errors
/// [`StorageError::Url`] for other schemes (`mysql://…`, `http://…`).
pub fn normalise_url(input: &str) -> Result<(Backend, String)> {
    let input = input.trim();
    if input.starts_with("postgres://") || input.starts_with("postgresql://") {
        return Ok((Backend::Postgres, input.to_owned()));
    }
    let path = if let Some(rest) = input.strip_prefix("sqlite://") {
        rest
    } else if let Some(rest) = input.strip_prefix("sqlite:") {
        rest
    } else if input.contains("://") || input.is_empty() {
        return Err(StorageError::Url(input.to_owned()));
    } else {
        input
    };
    let (path, params) = path.split_once('?').unwrap_or((path, ""));
    if path.is_empty() {
        return Err(StorageError::Url(input.to_owned()));
    }
    let path = path.replace('%', "%25").replace('#', "%23");
    let mut url = format!("sqlite://{path}");
    let has_mode = params.split('&').any(|p| p.starts_with("mode="));
    let params = if has_mode || params.is_empty() && path == ":memory:" {
        params.to_owned()
    } else if params.is_empty() {
        "mode=rwc".to_owned()
    } else {
        format!("{params}&mode=rwc")
    };
    if !params.is_empty() {
        url.push('?');
        url.push_str(&params);
    }
    Ok((Backend::Sqlite, url))
}

/// The repository: a connection pool plus the queries of each concept (keys, consents,
/// reports, request records). Cheap to clone.
#[derive(Debug, Clone)]
pub struct Storage {
    pool: AnyPool,
    backend: Backend,
    instance: std::sync::Arc<str>,
    /// PostgreSQL's vacuums after erasures, one at a time (see [`Storage::scrub_erased`]).
    vacuum: std::sync::Arc<privacy::VacuumQueue>,
}

impl Storage {
    /// Connects to `database` (see [`normalise_url`]), creating an SQLite file if needed,
    /// switching SQLite to WAL (with `synchronous = NORMAL` and `secure_delete = ON` on every
    /// connection), and applying
    /// pending migrations.
    ///
    /// # Errors
    /// [`StorageError`] when the URL is unsupported, the database cannot be reached, or a
    /// migration fails.
    pub async fn connect(database: &str) -> Result<Self> {
        sqlx::any::install_default_drivers();
        let (backend, url) = normalise_url(database)?;
        let options = AnyConnectOptions::from_str(&url)?;
        // One connection first: WAL mode (persistent, needs an exclusive lock) and migrations.
        let mut conn = options.connect().await?;
        if backend == Backend::Sqlite {
            conn.execute("PRAGMA journal_mode = WAL").await?;
        }
        migrator(backend).run(&mut conn).await?;
        conn.close().await?;
        let max = match backend {
            Backend::Sqlite => 8,
            Backend::Postgres => 16,
        };
        let mut pool = AnyPoolOptions::new()
            .max_connections(max)
            .acquire_timeout(Duration::from_secs(10));
        if backend == Backend::Sqlite {
            // In WAL mode, `synchronous = NORMAL` keeps the database consistent after a crash
            // or power loss and syncs at checkpoints instead of at every commit; a power loss
            // may lose the last commits, never corrupt (sqlite.org/pragma.html#pragma_synchronous).
            // A file opened in this process cannot drop the way a network connection can, so
            // sqlx's ping before every acquire (a round trip to the connection's worker thread:
            // 2.5 % of the server's CPU profile under `server/bench.sh`) checks nothing here.
            pool = pool.test_before_acquire(false);
            // `secure_delete`: deleted content (an erased report, a deleted consent) is
            // overwritten with zeros in the page, and freed pages are zeroed, instead of lying in
            // free space until reused (sqlite.org/pragma.html#pragma_secure_delete); see
            // [`Storage::scrub_erased`] for the write-ahead log.
            pool = pool.after_connect(|conn, _| {
                Box::pin(async move {
                    conn.execute("PRAGMA synchronous = NORMAL").await?;
                    conn.execute("PRAGMA secure_delete = ON").await?;
                    Ok(())
                })
            });
        }
        let pool = pool.connect_with(options).await?;
        Ok(Self {
            pool,
            backend,
            instance: crate::ids::new_id("srv").into(),
            vacuum: std::sync::Arc::default(),
        })
    }

    /// `srv_…`: this process's id, recorded on the analyses it runs (see
    /// [`Storage::heartbeat`]).
    pub fn instance(&self) -> &str {
        &self.instance
    }

    /// Which database this is (issue 7's outbox worker locks rows differently per backend).
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// The connection pool. Nothing of the service outside this module uses it; the
    /// integration tests read and age rows through it.
    pub fn pool(&self) -> &AnyPool {
        &self.pool
    }

    /// Closes every connection (tests use it to restart the server on the same database).
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

fn environment(text: &str) -> Result<Environment> {
    Environment::parse(text).ok_or_else(|| StorageError::Corrupt(format!("environment {text:?}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_values_become_urls() {
        let sqlite = |s: &str| normalise_url(s).map(|(_, u)| u).ok();
        assert_eq!(
            sqlite("alama.db").as_deref(),
            Some("sqlite://alama.db?mode=rwc")
        );
        assert_eq!(
            sqlite("/tmp/a b.db").as_deref(),
            Some("sqlite:///tmp/a b.db?mode=rwc")
        );
        assert_eq!(
            sqlite("sqlite://x.db?mode=ro").as_deref(),
            Some("sqlite://x.db?mode=ro")
        );
        assert_eq!(
            sqlite("sqlite:x.db").as_deref(),
            Some("sqlite://x.db?mode=rwc")
        );
        assert_eq!(
            normalise_url("postgres://u@localhost/db").ok(),
            Some((Backend::Postgres, "postgres://u@localhost/db".to_owned()))
        );
        assert!(normalise_url("mysql://x").is_err());
        assert!(normalise_url("").is_err());
    }
}
