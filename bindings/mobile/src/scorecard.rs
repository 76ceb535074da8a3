//! `Scorecard`: a lender's own scorecard (JSON data), validated once and passed to
//! `scoreStatement(bytes, password, scorecard)` and the other scoring functions.

use std::sync::Arc;

use crate::AlamaError;

/// A validated scorecard, immutable: one instance can serve any number of calls on any thread.
/// Kotlin: `Scorecard.fromJson(json)`, `card.version()`, `card.sha256()`; Swift:
/// `try Scorecard.fromJson(json: json)`.
///
/// The same statement scored with the same scorecard gives the same report, byte for byte, as
/// the CLI (`alama score FILE --scorecard card.json`), Python, Node and the HTTP service.
#[derive(Debug, uniffi::Object)]
pub struct Scorecard {
    inner: alama_core::Scorecard,
}

#[uniffi::export]
impl Scorecard {
    /// Parses and validates a scorecard JSON (the format of docs/scorecard.md).
    ///
    /// # Errors
    /// `InvalidScorecard` naming the problem: JSON that is not a scorecard, bins with a gap or
    /// an overlap, a feature not in the catalogue, points that are not integers, maxima that do
    /// not add up to 550.
    #[uniffi::constructor]
    pub fn from_json(json: String) -> Result<Arc<Self>, AlamaError> {
        Ok(Arc::new(Self {
            inner: alama_core::Scorecard::from_json(&json)?,
        }))
    }

    /// The engine's built-in scorecard (what scoring uses when no scorecard is given).
    #[uniffi::constructor]
    pub fn builtin() -> Arc<Self> {
        Arc::new(Self {
            inner: alama_core::scorecard::builtin().clone(),
        })
    }

    /// The version id (`"lender-example-2027.01"`), which reports carry as `scorecardVersion`.
    pub fn version(&self) -> String {
        self.inner.version.clone()
    }

    /// Lowercase hex SHA-256 of [`Self::to_json`], which reports carry as `scorecardSha256`.
    pub fn sha256(&self) -> String {
        self.inner.sha256()
    }

    /// The canonical JSON (compact, fields in the format's order).
    pub fn to_json(&self) -> String {
        self.inner.to_json()
    }
}

/// Parses and scores with the given scorecard, or the built-in one
/// ([`alama_core::score_bytes_with`]: the same report as parsing, then [`score_with`]).
pub(crate) fn score_bytes_with(
    bytes: &[u8],
    options: &alama_core::ParseOptions,
    scorecard: Option<&Scorecard>,
) -> alama_core::Result<alama_core::Report> {
    alama_core::score_bytes_with(bytes, options, scorecard.map(|card| &card.inner))
}

/// The engine's card inside a [`Scorecard`].
pub(crate) fn core_card(card: &Scorecard) -> &alama_core::Scorecard {
    &card.inner
}

/// Scores with the given scorecard, or the built-in one.
pub(crate) fn score_with(
    statement: &alama_core::Statement,
    scorecard: Option<&Scorecard>,
) -> alama_core::Result<alama_core::Report> {
    match scorecard {
        Some(card) => alama_core::score_with(statement, &card.inner),
        None => alama_core::score(statement),
    }
}
