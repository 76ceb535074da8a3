//! `alama.Scorecard`: a validated scorecard (the core's [`Scorecard`]), and the catalogue
//! figures of statements (`features`, `feature_catalogue`, the native half of `features_frame`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use alama_core::features::catalogue;
use alama_core::{Error, ErrorKind, Scorecard};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyFloat};
use rust_decimal::Decimal;

use crate::error;

/// A validated scorecard (immutable). Build one with `Scorecard.load(path)`,
/// `Scorecard.from_json(text)` or `Scorecard.builtin()`.
#[pyclass(name = "Scorecard", module = "alama", frozen, eq)]
#[derive(PartialEq)]
pub struct PyScorecard(pub Arc<Scorecard>);

#[pymethods]
impl PyScorecard {
    /// Parses and validates a scorecard JSON (`str`). Raises `InvalidScorecardError` naming the
    /// problem (gap or overlap in bins, unknown feature, non-integer points, maxima not 550…).
    #[staticmethod]
    fn from_json(py: Python<'_>, text: &str) -> PyResult<Self> {
        error::map(py, Scorecard::from_json(text)).map(|c| Self(Arc::new(c)))
    }

    /// Reads and validates a scorecard file (`str` or `os.PathLike`). Raises `FileReadError`
    /// when it cannot be read and `InvalidScorecardError` when it is not a valid scorecard.
    #[staticmethod]
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts arguments by value
    fn load(py: Python<'_>, path: PathBuf) -> PyResult<Self> {
        let text = std::fs::read_to_string(&path).map_err(|e| {
            error::to_py(
                py,
                &Error::new(
                    ErrorKind::Io,
                    format!("cannot read {}: {e}", path.display()),
                ),
            )
        })?;
        Self::from_json(py, &text)
    }

    /// The engine's built-in scorecard (`SCORECARD_VERSION`).
    #[staticmethod]
    fn builtin() -> Self {
        Self(Arc::new(alama_core::scorecard::builtin().clone()))
    }

    /// Writes the indented JSON (with a final newline) to `path`. Raises `FileReadError` when
    /// the file cannot be written.
    #[allow(clippy::needless_pass_by_value)] // PyO3 extracts arguments by value
    fn save(&self, py: Python<'_>, path: PathBuf) -> PyResult<()> {
        std::fs::write(&path, self.0.to_json_pretty() + "\n").map_err(|e| {
            error::to_py(
                py,
                &Error::new(
                    ErrorKind::Io,
                    format!("cannot write {}: {e}", path.display()),
                ),
            )
        })
    }

    /// The canonical JSON (compact): what `sha256` hashes. `indent=True` indents it.
    #[pyo3(signature = (*, indent = false))]
    fn to_json(&self, indent: bool) -> String {
        if indent {
            self.0.to_json_pretty()
        } else {
            self.0.to_json()
        }
    }

    /// Version id (`str`), carried by every report scored with this card.
    #[getter]
    fn version(&self) -> String {
        self.0.version.clone()
    }

    /// Lowercase hex SHA-256 of the canonical JSON (`str`, 64 characters).
    #[getter]
    fn sha256(&self) -> String {
        self.0.sha256()
    }

    /// The card's tables as Markdown (`str`).
    fn describe(&self) -> String {
        alama_core::scorecard::describe(&self.0)
    }

    /// Scores catalogue figures without a statement: `values` maps every feature the card uses
    /// to a `Decimal`, `int`, `float` (NaN = missing) or `None` (missing). Returns
    /// `(score, points)`: the score (`int`, 300–850) and the points per attribute code
    /// (`dict[str, int]`, card order). Raises `InvalidScorecardError` when a feature the card
    /// uses has no entry.
    fn score_values(
        &self,
        py: Python<'_>,
        values: &Bound<'_, PyDict>,
    ) -> PyResult<(u16, Vec<(String, u16)>)> {
        let mut map = BTreeMap::new();
        for (k, v) in values.iter() {
            let value = if v.is_none() {
                None
            } else if let Ok(f) = v.cast::<PyFloat>() {
                let x = f.value();
                if x.is_nan() {
                    None
                } else {
                    Some(Decimal::try_from(x).map_err(|e| {
                        pyo3::exceptions::PyValueError::new_err(format!("{x}: {e}"))
                    })?)
                }
            } else {
                Some(v.extract::<Decimal>()?)
            };
            map.insert(k.extract::<String>()?, value);
        }
        let s = error::map(py, alama_core::scorecard::score_values(&self.0, &map))?;
        Ok((s.score, s.points))
    }

    fn __repr__(&self) -> String {
        format!("Scorecard(version={:?})", self.0.version)
    }
}

/// The catalogue: one `dict` per feature with `name`, `unit`, `window`, `direction`
/// (`"ascending"`/`"descending"`/`"none"`: the default rate's trend as it rises) and
/// `definition`, in documentation order.
#[pyfunction]
pub(crate) fn feature_catalogue() -> Vec<BTreeMap<&'static str, &'static str>> {
    catalogue::CATALOGUE
        .iter()
        .map(|d| {
            BTreeMap::from([
                ("name", d.name),
                ("unit", d.unit),
                ("window", d.window),
                ("direction", d.direction.name()),
                ("definition", d.definition),
            ])
        })
        .collect()
}

/// The catalogue figures of a parsed statement, in catalogue order, with the money thresholds
/// of the built-in card of its currency.
///
/// # Errors
/// `unsupported_currency` when no built-in card is in the statement's currency.
pub(crate) fn values(
    statement: &alama_core::Statement,
) -> alama_core::Result<Vec<(&'static str, Option<Decimal>)>> {
    alama_core::feature_values(statement, None)
}
