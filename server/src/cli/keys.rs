//! `alama keys …`: API keys (create, list, revoke) and a partner's policies, the developer
//! portal's key management from the command line.

use std::io::Write;

use clap::Subcommand;

use super::{DatabaseArgs, db_error, partner_name, runtime, write_error};
use crate::ids::rfc3339;
use crate::keys::{self, Environment};

/// `alama keys …`: manage API keys (the developer portal's key management).
#[derive(Debug, Clone, Subcommand)]
pub enum KeysCommand {
    /// Create a key and print it once, alone on a line of standard output.
    Create {
        /// Partner name (created if new).
        #[arg(long)]
        partner: String,
        /// Environment of the key.
        #[arg(long, value_enum)]
        environment: Environment,
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// List keys (ids, partners, environments, hints; never the keys).
    List {
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// Set a partner's policies (created if new): `--integrity accept` (default: reports are
    /// completed whatever their integrity verdict) or `--integrity reject_failed` (a critical
    /// integrity finding ends the report `failed`, code `integrity_failed`, not billable).
    Policy {
        /// Partner name.
        #[arg(long)]
        partner: String,
        /// Integrity policy.
        #[arg(long, value_enum)]
        integrity: crate::policy::IntegrityPolicy,
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// Revoke a key by id (`key_…`); effective on the next request, on every replica.
    Revoke {
        /// The key id shown by `alama keys create` / `alama keys list`.
        id: String,
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
}

/// Runs `alama keys …`, writing results to standard output and notes to standard error.
///
/// # Errors
/// A one-line message (`error[…]: …`).
pub fn run_keys(command: &KeysCommand) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    runtime()?.block_on(keys_command(command, &mut out, &mut err))
}

/// [`run_keys`] on given writers (for tests).
///
/// # Errors
/// A one-line message (`error[…]: …`).
pub async fn keys_command(
    command: &KeysCommand,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), String> {
    match command {
        KeysCommand::Create {
            partner,
            environment,
            db,
        } => {
            let name = partner_name(partner)?;
            let storage = db.open().await?;
            let created = async {
                let partner = storage.ensure_partner(name).await?;
                let key = keys::generate(*environment);
                let record = storage
                    .insert_key(&partner, *environment, &keys::hash(&key), &keys::hint(&key))
                    .await?;
                Ok::<_, crate::storage::StorageError>((partner, key, record))
            }
            .await;
            storage.close().await;
            let (partner, key, record) = created.map_err(|e| db_error(&e))?;
            writeln!(out, "{key}").map_err(write_error)?;
            writeln!(
                err,
                "created {} key {} for partner {:?}: store it now, it is not shown again",
                environment, record.id, partner.name
            )
            .map_err(write_error)?;
        }
        KeysCommand::List { db } => {
            let storage = db.open().await?;
            let keys = storage.list_keys().await;
            storage.close().await;
            let keys = keys.map_err(|e| db_error(&e))?;
            writeln!(
                out,
                "{:<30}  {:<20}  {:<7}  {:<24}  {:<24}  STATUS",
                "ID", "PARTNER", "ENV", "KEY", "CREATED"
            )
            .map_err(write_error)?;
            for k in keys {
                let status = k.revoked_at.map_or_else(
                    || "active".to_owned(),
                    |t| format!("revoked {}", rfc3339(t)),
                );
                writeln!(
                    out,
                    "{:<30}  {:<20}  {:<7}  {:<24}  {:<24}  {status}",
                    k.id,
                    k.partner_name,
                    k.environment.as_str(),
                    k.hint,
                    rfc3339(k.created_at)
                )
                .map_err(write_error)?;
            }
        }
        KeysCommand::Policy {
            partner,
            integrity,
            db,
        } => {
            let name = partner_name(partner)?;
            let storage = db.open().await?;
            let record = storage.set_integrity_policy(name, *integrity).await;
            storage.close().await;
            let record = record.map_err(|e| db_error(&e))?;
            writeln!(
                out,
                "{} ({}): integrity policy {}",
                record.name,
                record.id,
                integrity.as_str()
            )
            .map_err(write_error)?;
        }
        KeysCommand::Revoke { id, db } => {
            let storage = db.open().await?;
            let record = storage.revoke_key(id).await;
            storage.close().await;
            let record = record
                .map_err(|e| db_error(&e))?
                .ok_or_else(|| format!("error[not_found]: no key {id:?}"))?;
            writeln!(
                out,
                "revoked {} ({} {}, {})",
                record.id,
                record.partner_name,
                record.environment.as_str(),
                record.hint
            )
            .map_err(write_error)?;
        }
    }
    Ok(())
}
