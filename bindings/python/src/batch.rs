//! `score_many`'s and `features_many`'s batches, run while detached from the interpreter on the
//! engine's batch pool ([`alama_core::batch`]). Each slot gets its own outcome, in input order.
//! A batch's arguments are converted while attached ([`jobs`]: sources, one password per
//! source, threads) and its outcomes turned into the Python list it returns ([`slots`]).

use std::num::NonZeroUsize;

use alama_core::ParseOptions;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::panic::PanicException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::error;
use crate::source::{self, Source};

/// The outcome of one input.
pub(crate) enum Outcome<T> {
    /// Done: the report (or other result).
    Report(Box<T>),
    /// The engine refused it.
    Error(alama_core::Error),
    /// The engine panicked on it (a bug): the message, reported as `pyo3_runtime.PanicException`.
    Panic(String),
}

/// Runs `each` on every source with its options on `workers` threads (at least one). Call it
/// detached.
pub(crate) fn run_all<T: Send>(
    jobs: &[(Source, ParseOptions)],
    workers: usize,
    each: impl Fn(&Source, &ParseOptions) -> alama_core::Result<T> + Sync,
) -> Vec<Outcome<T>> {
    let mut slots: Vec<Option<Outcome<T>>> = jobs.iter().map(|_| None).collect();
    let finished = alama_core::batch::run(
        jobs,
        workers,
        |(source, options)| each(source, options),
        |i, outcome| {
            if let Some(slot) = slots.get_mut(i) {
                *slot = Some(match outcome {
                    Ok(Ok(report)) => Outcome::Report(Box::new(report)),
                    Ok(Err(error)) => Outcome::Error(error),
                    Err(panic) => Outcome::Panic(panic),
                });
            }
            Ok::<(), std::convert::Infallible>(())
        },
    );
    // `done` never fails, so every job was handed over.
    let Ok(()) = finished;
    slots
        .into_iter()
        .map(|slot| slot.unwrap_or_else(|| Outcome::Panic("a scoring thread stopped".to_owned())))
        .collect()
}

/// A batch's Python list: per slot, `done` of its result, or its `AlamaError` (or
/// `PanicException`) as a value, not raised.
pub(crate) fn slots<T>(
    py: Python<'_>,
    outcomes: Vec<Outcome<T>>,
    done: impl Fn(T) -> PyResult<Py<PyAny>>,
) -> PyResult<Vec<Py<PyAny>>> {
    outcomes
        .into_iter()
        .map(|outcome| match outcome {
            Outcome::Report(result) => done(*result),
            Outcome::Error(e) => Ok(error::to_py(py, &e).into_value(py).into_any()),
            Outcome::Panic(message) => {
                Ok(PanicException::new_err(message).into_value(py).into_any())
            }
        })
        .collect()
}

/// The jobs of a batch (each source with its parse options) and the number of threads.
pub(crate) type Jobs = (Vec<(Source, alama_core::ParseOptions)>, usize);

/// Converts a batch's arguments while attached to Python.
pub(crate) fn jobs(
    py: Python<'_>,
    sources: &Bound<'_, PyAny>,
    password: Option<&Bound<'_, PyAny>>,
    format: Option<&str>,
    workers: Option<usize>,
) -> PyResult<Jobs> {
    if sources.is_instance_of::<PyString>() || sources.is_instance_of::<PyBytes>() {
        return Err(PyTypeError::new_err(
            "score_many takes an iterable of sources (e.g. a list of paths), not one source",
        ));
    }
    let sources = sources
        .try_iter()?
        .map(|item| Source::extract(&item?, true))
        .collect::<PyResult<Vec<_>>>()?;
    let passwords = passwords(password, sources.len())?;
    let jobs = sources
        .into_iter()
        .zip(passwords)
        .map(|(s, pw)| Ok((s, source::options(py, pw, format)?)))
        .collect::<PyResult<Vec<_>>>()?;
    let workers = match workers {
        Some(0) => return Err(PyValueError::new_err("workers must be at least 1")),
        Some(n) => n,
        None => std::thread::available_parallelism().map_or(1, NonZeroUsize::get),
    };
    Ok((jobs, workers))
}

/// One password per source from `None`, a `str`, or a sequence of `str | None`.
fn passwords(password: Option<&Bound<'_, PyAny>>, n: usize) -> PyResult<Vec<Option<String>>> {
    let Some(password) = password else {
        return Ok(vec![None; n]);
    };
    if let Ok(one) = password.cast::<PyString>() {
        return Ok(vec![Some(one.to_cow()?.into_owned()); n]);
    }
    let each: Vec<Option<String>> = password.extract().map_err(|_| {
        PyTypeError::new_err("password must be a str, or a sequence of str or None per source")
    })?;
    if each.len() != n {
        return Err(PyValueError::new_err(format!(
            "{} passwords for {n} sources: give one per source",
            each.len()
        )));
    }
    Ok(each)
}
