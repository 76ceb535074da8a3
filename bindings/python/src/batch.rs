//! `score_many`'s and `features_many`'s batches, run while detached from the interpreter on the
//! engine's batch pool ([`alama_core::batch`]). Each slot gets its own outcome, in input order.

use alama_core::ParseOptions;

use crate::source::Source;

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
