//! A partner's own scorecards (issue 14): stored per partner and environment by
//! `alama scorecards add`, listed by `alama scorecards list`, and chosen on
//! `POST /v1/scores/analyse` by its optional `scorecard` form field.
//!
//! - Versions are immutable: adding a version that exists with other content is refused
//!   (`scorecard_conflict`); adding the same content again changes nothing.
//! - One default per partner and environment (`--default`); without one, the engine's built-in
//!   scorecard scores.
//! - On analyse, `scorecard` names a version of the caller's partner and environment, or the
//!   built-in card's version; anything else is `422 unknown_scorecard`. Absent, the default.

use std::io::Write;
use std::sync::Arc;

use clap::Subcommand;

use crate::cli::{DatabaseArgs, db_error, runtime};
use crate::error::ApiError;
use crate::ids::rfc3339;
use crate::keys::Environment;
use crate::storage::{AddOutcome, Owner, Storage};

/// The scorecard an analysis runs with: the request's (`name`: a version stored for the owner,
/// or a built-in card's version), the owner's default (`default`, its version as read with the
/// caller's key: [`crate::auth::Caller::default_scorecard`]), or `None`: the engine then scores
/// with the built-in card of the statement's currency (KES, UGX, GHS, LSL), and a card of
/// another currency than the statement's is refused with `currency_mismatch` (422).
///
/// # Errors
/// `unknown_scorecard` (422) when `name` is neither a version stored for `owner` nor a
/// built-in card's version; `internal_error` when a stored card no longer validates (an engine
/// upgrade that tightened the rules); database errors.
pub async fn resolve(
    storage: &Storage,
    owner: &Owner,
    name: Option<&str>,
    default: Option<&str>,
) -> Result<Option<Arc<alama_core::Scorecard>>, ApiError> {
    let record = match name {
        Some(version) => match storage.scorecard(owner, version).await? {
            Some(record) => Some(record),
            None if builtin_card(version).is_some() => return Ok(builtin_card(version)),
            None => {
                return Err(ApiError::new(
                    "unknown_scorecard",
                    format!(
                        "no scorecard {version:?} for this partner in {}: add it with \
                         `alama scorecards add`, or omit `scorecard` for the default",
                        owner.environment
                    ),
                )
                .with("scorecard", version.to_owned()));
            }
        },
        None => match default {
            Some(version) => storage.scorecard(owner, version).await?,
            None => None,
        },
    };
    record
        .map(|record| {
            alama_core::Scorecard::from_json(&record.card_json)
                .map(Arc::new)
                .map_err(|e| ApiError::internal(&e))
        })
        .transpose()
}

/// The built-in scorecard of this version as the `Arc` an analysis takes: one copy per card
/// for the process, not one per analysis.
fn builtin_card(version: &str) -> Option<Arc<alama_core::Scorecard>> {
    static CARDS: std::sync::OnceLock<Vec<Arc<alama_core::Scorecard>>> = std::sync::OnceLock::new();
    CARDS
        .get_or_init(|| {
            alama_core::scorecard::builtins()
                .map(|c| Arc::new(c.clone()))
                .collect()
        })
        .iter()
        .find(|c| c.version == version)
        .cloned()
}

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
        /// Also make it the partner's default in this environment (analyses without a
        /// `scorecard` field use it).
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
    let write_error = |e: std::io::Error| format!("error[io_error]: {e}");
    match command {
        ScorecardsCommand::Add {
            partner,
            environment,
            file,
            default,
            db,
        } => {
            let name = partner.trim();
            if name.is_empty() || name.len() > 100 {
                return Err("error[invalid_request]: --partner must be 1–100 characters".into());
            }
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
            let storage = Storage::connect(&db.database)
                .await
                .map_err(|e| db_error(&e))?;
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
                writeln!(
                    err,
                    "{} is now the default {environment} scorecard of partner {name:?}",
                    card.version
                )
                .map_err(write_error)?;
            }
        }
        ScorecardsCommand::List { partner, db } => {
            let storage = Storage::connect(&db.database)
                .await
                .map_err(|e| db_error(&e))?;
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
