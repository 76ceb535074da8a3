//! What every `alama` subcommand shares, below the commands themselves (the service's, the
//! portal's users, the scorecards): the `--database` argument, the async runtime a command runs
//! on, and the one-line database error.

use clap::Args;

/// `--database URL`.
#[derive(Debug, Clone, Args)]
pub struct DatabaseArgs {
    /// A SQLite file (a path or `sqlite://PATH`; created and migrated on first use) or a
    /// PostgreSQL URL (`postgres://USER:PASSWORD@HOST/DB`).
    #[arg(
        long = "database",
        help = "SQLite file (PATH or sqlite://PATH, created and migrated on first use) \
                or PostgreSQL URL (postgres://USER:PASSWORD@HOST/DB)",
        env = "ALAMA_DATABASE_URL",
        default_value = "sqlite://alama.db",
        value_name = "URL"
    )]
    pub database: String,
}

/// A multi-threaded tokio runtime for one command.
///
/// # Errors
/// `error[io_error]: …` when the runtime cannot start.
pub(crate) fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("error[io_error]: cannot start the async runtime: {e}"))
}

/// `error[database]: <e>`, the line a command prints for a database error.
pub(crate) fn db_error(e: &impl std::fmt::Display) -> String {
    format!("error[database]: {e}")
}
