//! `alama users …`: portal users. `create` makes a user of a partner and prints a one-time
//! sign-in link (single use, 24 h) where the user sets a password; `link` prints a new link
//! for an existing user (a forgotten password); `list` shows users (never hashes).

use std::io::Write;

use clap::Subcommand;

use super::{DatabaseArgs, db_error, partner_name, runtime, write_error};
use crate::ids::now_ms;
use crate::portal::auth;

/// `alama users …`: manage developer-portal users.
#[derive(Debug, Clone, Subcommand)]
pub enum UsersCommand {
    /// Create a portal user of a partner and print a one-time sign-in link (24 h) on standard
    /// output.
    Create {
        /// Partner name (created if new).
        #[arg(long)]
        partner: String,
        /// The user's email address (their sign-in name).
        #[arg(long)]
        email: String,
        /// Public base URL of `alama serve`, used to write the link.
        #[arg(
            long,
            env = "ALAMA_PORTAL_URL",
            default_value = "http://127.0.0.1:8080"
        )]
        portal_url: String,
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// Print a new one-time sign-in link for an existing user (to set a new password).
    Link {
        /// The user's email address.
        #[arg(long)]
        email: String,
        /// Public base URL of `alama serve`, used to write the link.
        #[arg(
            long,
            env = "ALAMA_PORTAL_URL",
            default_value = "http://127.0.0.1:8080"
        )]
        portal_url: String,
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// List portal users.
    List {
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
}

/// Runs `alama users …`, writing results to standard output and notes to standard error.
///
/// # Errors
/// A one-line message (`error[…]: …`).
pub fn run_users(command: &UsersCommand) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    runtime()?.block_on(users_command(command, &mut out, &mut err))
}

fn link(base: &str, token: &str) -> String {
    format!("{}/portal/activate/{token}", base.trim_end_matches('/'))
}

/// A plausible email: one `@`, something on both sides, no spaces, at most 254 bytes.
fn valid_email(email: &str) -> bool {
    let email = email.trim();
    email.len() <= 254
        && !email.contains(char::is_whitespace)
        && email
            .split_once('@')
            .is_some_and(|(a, b)| !a.is_empty() && b.contains('.') && !b.contains('@'))
}

/// [`run_users`] on given writers (for tests).
///
/// # Errors
/// A one-line message (`error[…]: …`).
pub async fn users_command(
    command: &UsersCommand,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), String> {
    let db = match command {
        UsersCommand::Create { db, .. }
        | UsersCommand::Link { db, .. }
        | UsersCommand::List { db } => db,
    };
    let storage = db.open().await?;
    let result = async {
        match command {
            UsersCommand::Create { partner, email, portal_url, .. } => {
                let name = partner_name(partner)?;
                if !valid_email(email) {
                    return Err(format!("error[invalid_request]: {email:?} is not an email address"));
                }
                if storage.portal_user_by_email(email).await.map_err(|e| db_error(&e))?.is_some() {
                    return Err(format!(
                        "error[conflict]: a user {email:?} exists; `alama users link --email` prints a new link"
                    ));
                }
                let partner = storage.ensure_partner(name).await.map_err(|e| db_error(&e))?;
                let user = storage.create_portal_user(&partner, email, now_ms())
                    .await
                    .map_err(|e| db_error(&e))?;
                let token = auth::issue_link(&storage, &user).await.map_err(|e| db_error(&e))?;
                writeln!(out, "{}", link(portal_url, &token)).map_err(write_error)?;
                writeln!(
                    err,
                    "created portal user {} ({}) of partner {:?}: send them the link; it works once, for 24 hours",
                    user.id, user.email, partner.name
                )
                .map_err(write_error)?;
            }
            UsersCommand::Link { email, portal_url, .. } => {
                let user = storage.portal_user_by_email(email)
                    .await
                    .map_err(|e| db_error(&e))?
                    .ok_or_else(|| format!("error[not_found]: no portal user {email:?}"))?;
                let token = auth::issue_link(&storage, &user).await.map_err(|e| db_error(&e))?;
                writeln!(out, "{}", link(portal_url, &token)).map_err(write_error)?;
                writeln!(err, "new sign-in link for {}: it works once, for 24 hours", user.email)
                    .map_err(write_error)?;
            }
            UsersCommand::List { .. } => {
                writeln!(out, "{:<30}  {:<20}  {:<32}  PASSWORD", "ID", "PARTNER", "EMAIL")
                    .map_err(write_error)?;
                for u in storage.portal_users().await.map_err(|e| db_error(&e))? {
                    let set = if u.password_hash.is_some() { "set" } else { "not set" };
                    writeln!(out, "{:<30}  {:<20}  {:<32}  {set}", u.id, u.partner_name, u.email)
                        .map_err(write_error)?;
                }
            }
        }
        Ok(())
    }
    .await;
    storage.close().await;
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn emails_are_checked_loosely() {
        assert!(valid_email("dev@bank.co.ke"));
        assert!(!valid_email("dev@localhost"));
        assert!(!valid_email("dev bank@x.com"));
        assert!(!valid_email("@x.com"));
        assert!(!valid_email("a@b@c.com"));
    }
}
