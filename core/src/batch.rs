//! One pool for many independent jobs (statements to score, each on its own): the CLI's
//! `alama score DIR` and Python's `score_many`/`features_many` run their jobs here.
//!
//! Scoped threads (started per batch, joined before it returns) take the next job from a shared
//! counter, so a long statement never holds up the others' slot; each outcome is handed to the
//! calling thread as it is done, with its job's index, so the caller can write outcomes in
//! input order as they complete (the CLI) or gather them (Python). A panic in a job (a bug) is
//! caught and reported as that job's outcome, with its message; the others go on.
//!
//! Not the process-wide pool of `crate::parallel`: a batch's jobs each take a core for
//! milliseconds to seconds and block on nothing, so one thread per worker and no work stealing
//! is all they need, and the engine's own split of a long report still has the pool to use.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work` on every job of `jobs` on `workers` threads (at least one, at most one a job),
/// and calls `done` on the calling thread with each job's index and outcome as it finishes
/// (in finishing order): `Ok` with the result, or `Err` with the message of a panic in `work`.
///
/// # Errors
/// The first error `done` returns: the batch then stops taking jobs, waits for the jobs
/// running to end (their outcomes are not handed over), and returns it.
pub fn run<J: Sync, T: Send, E>(
    jobs: &[J],
    workers: usize,
    work: impl Fn(&J) -> T + Sync,
    mut done: impl FnMut(usize, Result<T, String>) -> Result<(), E>,
) -> Result<(), E> {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel::<(usize, Result<T, String>)>();
    std::thread::scope(|scope| {
        for _ in 0..workers.clamp(1, jobs.len().max(1)) {
            let sender = sender.clone();
            let (next, stop, work) = (&next, &stop, &work);
            scope.spawn(move || {
                while !stop.load(Ordering::Relaxed) {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(job) = jobs.get(i) else { break };
                    let outcome = catch_unwind(AssertUnwindSafe(|| work(job)))
                        .map_err(|panic| panic_message(panic.as_ref()));
                    if sender.send((i, outcome)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (i, outcome) in receiver {
            if let Err(error) = done(i, outcome) {
                stop.store(true, Ordering::Relaxed);
                return Err(error);
            }
        }
        Ok(())
    })
}

/// The message of a panic's payload (`&str` or `String`), or a generic one.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "the engine panicked".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_is_done_once_with_its_index_on_any_number_of_workers() {
        let jobs: Vec<u64> = (0..57).collect();
        for workers in [0, 1, 3, 100] {
            let mut seen = vec![None; jobs.len()];
            let run = run(
                &jobs,
                workers,
                |n| n * n,
                |i, outcome| {
                    assert!(seen[i].is_none(), "job {i} handed over twice");
                    seen[i] = Some(outcome);
                    Ok::<(), ()>(())
                },
            );
            assert_eq!(run, Ok(()));
            let expected: Vec<_> = jobs.iter().map(|n| Some(Ok(n * n))).collect();
            assert_eq!(seen, expected, "{workers} workers");
        }
        assert_eq!(run(&[] as &[u8], 4, |_| (), |_, _| Err(())), Ok(()));
    }

    #[test]
    fn a_panicking_job_is_its_own_outcome_and_an_error_of_done_stops_the_batch() {
        let jobs: Vec<u32> = (0..10).collect();
        let mut outcomes = vec![None; jobs.len()];
        let work = |n: &u32| {
            assert!(*n != 3, "job three failed");
            *n
        };
        let _ = run(&jobs, 2, work, |i, outcome| {
            outcomes[i] = Some(outcome);
            Ok::<(), ()>(())
        });
        assert_eq!(outcomes[3], Some(Err("job three failed".to_owned())));
        assert_eq!(outcomes[4], Some(Ok(4)));
        let mut handed = 0;
        let stopped = run(
            &jobs,
            1,
            |n| *n,
            |_, _| {
                handed += 1;
                Err("the output is closed")
            },
        );
        assert_eq!((stopped, handed), (Err("the output is closed"), 1));
    }
}
