//! The `Scorecard` class: a lender's own scorecard (JSON data), validated once and then passed to
//! `score(x, { scorecard })` / `scoreAsync(x, { scorecard })`.

// napi converts JS strings into owned `String`s; exported functions cannot take `&str`.
#![allow(clippy::needless_pass_by_value)]

use std::sync::Arc;

use napi::bindgen_prelude::{ClassInstance, FromNapiValue, Object, Unknown};
use napi::{Env, ValueType};
use napi_derive::napi;

use crate::error;
use crate::input::JsParseOptions;

/// A validated scorecard: the engine's points table as data (see docs/scorecard.md for the
/// format). Build one with {@link Scorecard.fromJson}, {@link Scorecard.load} or
/// {@link Scorecard.builtin}; it cannot be changed afterwards, so one instance can serve any
/// number of `score` calls (including concurrent `scoreAsync` ones).
///
/// The same statement scored with the same scorecard gives the same report, byte for byte, in
/// every Alama runtime (CLI, Python, Node, Kotlin/Swift, the HTTP service).
///
/// @example
/// ```ts
/// const card = Scorecard.load('cards/lender-2027.01.json')
/// const report = score(readFileSync('statement.pdf'), { password, scorecard: card })
/// console.log(report.scorecardVersion === card.version, report.scorecardSha256 === card.sha256)
/// ```
#[napi(js_name = "Scorecard")]
pub struct JsScorecard {
    inner: Arc<alama_core::Scorecard>,
}

#[napi]
impl JsScorecard {
    /// Parses and validates a scorecard from its JSON text.
    ///
    /// @throws {AlamaError} `invalid_scorecard` with a message naming the problem: JSON that is
    /// not a scorecard, bins with a gap or an overlap, a feature not in the catalogue, points
    /// that are not integers, characteristic maxima that do not add up to 550…
    #[napi(factory, catch_unwind)]
    pub fn from_json(env: Env, json: String) -> napi::Result<Self> {
        alama_core::Scorecard::from_json(&json)
            .map(|card| Self {
                inner: Arc::new(card),
            })
            .map_err(|e| error::to_js(env, &e))
    }

    /// Reads a scorecard JSON file and validates it, as {@link Scorecard.fromJson}.
    ///
    /// @throws {AlamaError} `io_error` when the file cannot be read, `invalid_scorecard` when it
    /// does not validate.
    #[napi(factory, catch_unwind)]
    pub fn load(env: Env, path: String) -> napi::Result<Self> {
        let loaded = std::fs::read_to_string(&path)
            .map_err(|e| error::unreadable_path(&path, &e))
            .and_then(|json| alama_core::Scorecard::from_json(&json));
        loaded
            .map(|card| Self {
                inner: Arc::new(card),
            })
            .map_err(|e| error::to_js(env, &e))
    }

    /// The engine's built-in scorecard (what `score` uses when no scorecard is given).
    #[napi(factory)]
    pub fn builtin() -> Self {
        Self {
            inner: Arc::new(alama_core::scorecard::builtin().clone()),
        }
    }

    /// The scorecard's version id (`"lender-example-2027.01"`), which reports carry as
    /// `scorecardVersion`.
    #[napi(getter)]
    pub fn version(&self) -> String {
        self.inner.version.clone()
    }

    /// Lowercase hex SHA-256 of the canonical JSON ({@link Scorecard.toJson}), which reports
    /// carry as `scorecardSha256`.
    #[napi(getter)]
    pub fn sha256(&self) -> String {
        self.inner.sha256()
    }

    /// The canonical JSON: compact, fields in the format's order. `Scorecard.fromJson(c.toJson())`
    /// gives the same scorecard (same `sha256`).
    #[napi]
    pub fn to_json(&self) -> String {
        self.inner.to_json()
    }

    /// A plain-text description of the scorecard: its characteristics, bins and points.
    #[napi]
    pub fn describe(&self) -> String {
        alama_core::scorecard::describe(&self.inner)
    }
}

/// The options of `score` and `scoreAsync`: those of `parse` and an optional scorecard.
#[derive(Default)]
pub struct ScoreOptions {
    /// How to read the statement.
    pub parse: JsParseOptions,
    /// The scorecard to score with; `None` is the built-in one.
    pub scorecard: Option<Arc<alama_core::Scorecard>>,
}

impl ScoreOptions {
    /// Reads the optional options argument (`undefined`/`null` → defaults).
    ///
    /// # Errors
    /// `InvalidArg` when it is not an object of the documented shape, or when `scorecard` is
    /// given but is not a `Scorecard`.
    pub fn from_js(value: Option<Unknown<'_>>) -> napi::Result<Self> {
        let Some(value) = value else {
            return Ok(Self::default());
        };
        if matches!(value.get_type()?, ValueType::Undefined | ValueType::Null) {
            return Ok(Self::default());
        }
        let scorecard = if value.get_type()? == ValueType::Object {
            let object = Object::from_unknown(value)?;
            match object.get::<Unknown<'_>>("scorecard")? {
                Some(card)
                    if !matches!(card.get_type()?, ValueType::Undefined | ValueType::Null) =>
                {
                    let card = ClassInstance::<JsScorecard>::from_unknown(card)
                        .map_err(|_| error::invalid_arg("options.scorecard must be a Scorecard"))?;
                    Some(Arc::clone(&card.inner))
                }
                _ => None,
            }
        } else {
            None
        };
        Ok(Self {
            parse: JsParseOptions::from_js(Some(value))?,
            scorecard,
        })
    }
}
