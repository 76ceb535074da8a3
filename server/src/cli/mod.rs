//! The service's subcommands of the `alama` CLI (clap types and runners; `src/main.rs` of the
//! `alama` crate dispatches to them), one module per command: [`serve`] (`alama serve`),
//! [`keys`] (`alama keys`), [`webhooks`] (`alama webhooks`), [`scorecards`] (`alama
//! scorecards`), [`users`] (`alama users`, the portal's). Every subcommand that touches storage
//! takes the same `--database URL` (or `ALAMA_DATABASE_URL`, [`DatabaseArgs`]), runs on its own
//! runtime, and fails with one line, `error[<code>]: <message>` (exit status 1).

mod keys;
mod scorecards;
mod serve;
mod users;
mod webhooks;

pub use keys::{KeysCommand, keys_command, run_keys};
pub use scorecards::{ScorecardsCommand, run_scorecards, scorecards_command};
pub use serve::{ServeArgs, run_serve};
pub use users::{UsersCommand, run_users, users_command};
pub use webhooks::{WebhooksCommand, run_webhooks, webhooks_command};

use clap::Args;

use crate::storage::Storage;

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

impl DatabaseArgs {
    /// Connects to the database (migrating it).
    ///
    /// # Errors
    /// `error[database]: …`.
    async fn open(&self) -> Result<Storage, String> {
        Storage::connect(&self.database)
            .await
            .map_err(|e| db_error(&e))
    }
}

/// The longest partner name, in characters.
const MAX_PARTNER_NAME_CHARS: usize = 100;

/// A `--partner` value as stored: trimmed, 1–100 characters (every command that creates a
/// partner checks it here).
///
/// # Errors
/// `error[invalid_request]: …` for an empty or longer name.
fn partner_name(text: &str) -> Result<&str, String> {
    let name = text.trim();
    let n = name.chars().count();
    if n == 0 || n > MAX_PARTNER_NAME_CHARS {
        return Err(format!(
            "error[invalid_request]: --partner must be 1–{MAX_PARTNER_NAME_CHARS} characters"
        ));
    }
    Ok(name)
}

/// A multi-threaded tokio runtime for one command.
///
/// # Errors
/// `error[io_error]: …` when the runtime cannot start.
fn runtime() -> Result<tokio::runtime::Runtime, String> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("error[io_error]: cannot start the async runtime: {e}"))
}

/// `error[database]: <e>`, the line a command prints for a database error.
fn db_error(e: &impl std::fmt::Display) -> String {
    format!("error[database]: {e}")
}

/// `error[io_error]: <e>`, the line a command prints when it cannot write its output.
#[allow(clippy::needless_pass_by_value)] // the shape `map_err` hands it
fn write_error(e: std::io::Error) -> String {
    format!("error[io_error]: {e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partner_names_are_trimmed_and_counted_in_characters() {
        assert_eq!(partner_name("  Acme Loans "), Ok("Acme Loans"));
        assert!(partner_name("   ").is_err());
        // 100 characters of two bytes each: allowed (the old check counted bytes).
        assert!(partner_name(&"ñ".repeat(100)).is_ok());
        let e = partner_name(&"a".repeat(101)).expect_err("too long");
        assert!(e.starts_with("error[invalid_request]: --partner"), "{e}");
    }
}
