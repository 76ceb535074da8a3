//! A partner's own scorecards (issue 14): stored per partner and environment by
//! `alama scorecards add`, listed by `alama scorecards list`, and chosen on
//! `POST /v1/scores/analyse` by its optional `scorecard` form field.
//!
//! - Versions are immutable: adding a version that exists with other content is refused
//!   (`scorecard_conflict`); adding the same content again changes nothing.
//! - One default per partner, environment and currency (`--default` sets it for the card's own
//!   currency); without one, the engine's built-in card of the statement's currency scores.
//! - On analyse, `scorecard` names a version of the caller's partner and environment, or a
//!   built-in card's version; anything else is `422 unknown_scorecard`. Absent, the default of
//!   the statement's currency. A card of another currency than the statement's is
//!   `422 currency_mismatch`; a currency with neither a default nor a built-in card is
//!   `422 unsupported_currency`.

use std::io::Write;
use std::sync::Arc;

use clap::Subcommand;

use crate::cli_support::{DatabaseArgs, db_error, runtime};
use crate::error::ApiError;
use crate::ids::rfc3339;
use crate::keys::Environment;
use crate::storage::{AddOutcome, Owner, Storage};

/// The scorecard an analysis runs with, before the statement's currency is known.
#[derive(Debug, Clone)]
pub enum CardChoice {
    /// The request's `scorecard`: a version stored for the owner, or a built-in card's version.
    /// A card of another currency than the statement's is refused by the engine with
    /// `currency_mismatch` (422).
    Named(Arc<alama_core::Scorecard>),
    /// No card named: the owner's default cards by currency (ISO 4217 code -> the stored
    /// canonical JSON, parsed only for the statement's currency); a currency without one (all,
    /// when empty) scores with the engine's built-in card of that currency (KES, UGX, GHS,
    /// LSL), else `unsupported_currency` (422).
    ByCurrency(std::collections::BTreeMap<String, String>),
}

impl CardChoice {
    /// The card for a statement in `currency`: the named one whatever the currency (the engine
    /// compares them), the owner's default of that currency, or `None` (the built-in card).
    ///
    /// # Errors
    /// `internal_error` when a stored default no longer validates (an engine upgrade that
    /// tightened the rules).
    pub fn card_for(&self, currency: &str) -> Result<Option<Arc<alama_core::Scorecard>>, ApiError> {
        match self {
            Self::Named(card) => Ok(Some(Arc::clone(card))),
            Self::ByCurrency(defaults) if defaults.is_empty() => Ok(None),
            // Cards' codes are upper case (validated); a statement's may not be (`"kes"`).
            Self::ByCurrency(defaults) => defaults
                .get(&currency.trim().to_ascii_uppercase())
                .map(|json| {
                    alama_core::Scorecard::from_json(json)
                        .map(Arc::new)
                        .map_err(|e| ApiError::internal(&e))
                })
                .transpose(),
        }
    }
}

/// The scorecard choice of an analysis: the request's (`name`: a version stored for the owner,
/// or a built-in card's version), else the owner's per-currency defaults (read only when
/// `has_defaults`, as read with the caller's key: [`crate::auth::Caller::has_default_scorecards`]).
///
/// # Errors
/// `unknown_scorecard` (422) when `name` is neither a version stored for `owner` nor a
/// built-in card's version; `internal_error` when a stored card no longer validates (an engine
/// upgrade that tightened the rules); database errors.
pub async fn resolve(
    storage: &Storage,
    owner: &Owner,
    name: Option<&str>,
    has_defaults: bool,
) -> Result<CardChoice, ApiError> {
    let Some(version) = name else {
        return Ok(CardChoice::ByCurrency(if has_defaults {
            storage.default_scorecards(owner).await?
        } else {
            std::collections::BTreeMap::new()
        }));
    };
    match storage.scorecard(owner, version).await? {
        Some(record) => alama_core::Scorecard::from_json(&record.card_json)
            .map(|card| CardChoice::Named(Arc::new(card)))
            .map_err(|e| ApiError::internal(&e)),
        None => builtin_card(version).map(CardChoice::Named).ok_or_else(|| {
            ApiError::new(
                "unknown_scorecard",
                format!(
                    "no scorecard {version:?} for this partner in {}: add it with \
                     `alama scorecards add`, or omit `scorecard` for the default",
                    owner.environment
                ),
            )
            .with("scorecard", version.to_owned())
        }),
    }
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
                writeln!(err, "{}", default_note(&card, *environment, name))
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
