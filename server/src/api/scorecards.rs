//! Which scorecard an analysis runs with (issue 14): a partner's own scorecards, stored per
//! partner and environment by `alama scorecards add` (`crate::cli`), are chosen on
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

use std::sync::Arc;

use crate::error::ApiError;
use crate::storage::{Owner, Storage};

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
