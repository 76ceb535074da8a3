//! `score_many`'s and `features_many`'s worker pool: scoped Rust threads pulling the next input from a shared counter,
//! run while detached from the interpreter. Each slot gets its own outcome, in input order.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

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
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            let Some((source, options)) = jobs.get(i) else {
                return done;
            };
            let outcome = match catch_unwind(AssertUnwindSafe(|| each(source, options))) {
                Ok(Ok(report)) => Outcome::Report(Box::new(report)),
                Ok(Err(error)) => Outcome::Error(error),
                Err(panic) => Outcome::Panic(panic_message(panic.as_ref())),
            };
            done.push((i, outcome));
        }
    };
    let mut slots: Vec<Option<Outcome<T>>> = jobs.iter().map(|_| None).collect();
    let workers = workers.clamp(1, jobs.len().max(1));
    std::thread::scope(|scope| {
        let handles: Vec<_> = (1..workers).map(|_| scope.spawn(work)).collect();
        let mine = work();
        let theirs = handles.into_iter().filter_map(|h| h.join().ok()).flatten();
        for (i, outcome) in mine.into_iter().chain(theirs) {
            slots[i] = Some(outcome);
        }
    });
    slots
        .into_iter()
        .map(|slot| slot.unwrap_or_else(|| Outcome::Panic("a scoring thread stopped".to_owned())))
        .collect()
}

fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the engine panicked".to_owned())
}
