//! `alama scorecards …`: a partner's own scorecards for the service (add, list); which card an
//! analysis runs with is `crate::api::scorecards`'.

use std::io::Write;

use clap::Subcommand;

use super::{DatabaseArgs, db_error, partner_name, runtime, write_error};
use crate::ids::rfc3339;
use crate::keys::Environment;
use crate::storage::{AddOutcome, Owner};

/// `alama scorecards …`: manage a partner's own scorecards.
#[derive(Debug, Clone, Subcommand)]
pub enum ScorecardsCommand {
    /// Validate a scorecard JSON file and store it for a partner and environment; print
    /// `added`/`unchanged`, the version and its SHA-256. A version is immutable: the same
    /// version with other content fails with `scorecard_conflict`.
    Add {
        /// Partner name (created if new).
        #[arg(long)]
        partner: String,
        /// Environment whose analyses may use it.
        #[arg(long, value_enum)]
        environment: Environment,
        /// The scorecard JSON (`alama scorecard validate FILE` checks one).
        #[arg(long, value_name = "FILE")]
        file: std::path::PathBuf,
        /// Also make it the partner's default in this environment for the card's currency
        /// (analyses of statements in that currency without a `scorecard` field use it).
        #[arg(long)]
        default: bool,
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
    /// List a partner's scorecards: environment, version, default, SHA-256, added.
    List {
        /// Partner name.
        #[arg(long)]
        partner: String,
        /// The database.
        #[command(flatten)]
        db: DatabaseArgs,
    },
}

/// What `add --default` tells on standard error: the card is now the partner's default for
/// statements in the card's currency (defaults are kept per currency).
fn default_note(card: &alama_core::Scorecard, environment: Environment, partner: &str) -> String {
    format!(
        "{} is now the default {environment} scorecard of partner {partner:?} for {} statements",
        card.version, card.currency
    )
}

/// Runs `alama scorecards …`, writing results to standard output and notes to standard error.
///
/// # Errors
/// A one-line message (`error[…]: …`).
pub fn run_scorecards(command: &ScorecardsCommand) -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    let mut err = std::io::stderr().lock();
    runtime()?.block_on(scorecards_command(command, &mut out, &mut err))
}

/// [`run_scorecards`] on given writers (for tests).
///
/// # Errors
/// A one-line message: `error[invalid_scorecard]`, `error[scorecard_conflict]`,
/// `error[io_error]`, `error[not_found]` (list: no such partner), `error[database]`.
pub async fn scorecards_command(
    command: &ScorecardsCommand,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), String> {
    match command {
        ScorecardsCommand::Add {
            partner,
            environment,
            file,
            default,
            db,
        } => {
            let name = partner_name(partner)?;
            let text = std::fs::read_to_string(file)
                .map_err(|e| format!("error[io_error]: cannot read {}: {e}", file.display()))?;
            let card = alama_core::Scorecard::from_json(&text)
                .map_err(|e| format!("error[{}]: {}", e.code(), e.message()))?;
            if let Some(builtin) =
                alama_core::scorecard::builtins().find(|b| b.version == card.version)
                && card.sha256() != builtin.sha256()
            {
                return Err(format!(
                    "error[scorecard_conflict]: version {:?} is the built-in scorecard's; give \
                     your card a version of its own",
                    card.version
                ));
            }
            let storage = db.open().await?;
            let added = async {
                let partner = storage.ensure_partner(name).await?;
                let owner = Owner {
                    partner_id: partner.id,
                    environment: *environment,
                };
                storage.add_scorecard(&owner, &card, *default).await
            }
            .await;
            storage.close().await;
            let what = match added.map_err(|e| db_error(&e))? {
                AddOutcome::Added => "added",
                AddOutcome::Unchanged => "unchanged",
                AddOutcome::Conflict { stored_sha256 } => {
                    return Err(format!(
                        "error[scorecard_conflict]: partner {name:?} already has {environment} \
                         scorecard {:?} with other content (SHA-256 {stored_sha256}, this file \
                         {}); versions are immutable: give the new card a new version",
                        card.version,
                        card.sha256()
                    ));
                }
            };
            writeln!(out, "{what} {} {}", card.version, card.sha256()).map_err(write_error)?;
            if *default {
                writeln!(err, "{}", default_note(&card, *environment, name))
                    .map_err(write_error)?;
            }
        }
        ScorecardsCommand::List { partner, db } => {
            let storage = db.open().await?;
            let listed = async {
                match storage.partner_id_by_name(partner.trim()).await? {
                    Some(id) => storage.list_scorecards(&id).await.map(Some),
                    None => Ok(None),
                }
            }
            .await;
            storage.close().await;
            let cards = listed
                .map_err(|e| db_error(&e))?
                .ok_or_else(|| format!("error[not_found]: no partner {:?}", partner.trim()))?;
            writeln!(
                out,
                "{:<7}  {:<32}  {:<7}  {:<64}  ADDED",
                "ENV", "VERSION", "DEFAULT", "SHA256"
            )
            .map_err(write_error)?;
            for c in cards {
                writeln!(
                    out,
                    "{:<7}  {:<32}  {:<7}  {:<64}  {}",
                    c.owner.environment.as_str(),
                    c.version,
                    if c.is_default { "yes" } else { "" },
                    c.sha256,
                    rfc3339(c.created_at)
                )
                .map_err(write_error)?;
            }
        }
    }
    Ok(())
}
