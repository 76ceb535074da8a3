//! Independent work on the threads of one process-wide pool (rayon's global pool): a PDF's
//! pages, the stages of a report. A report never depends on how the work was split (its stages
//! are pure functions of the statement, and pages come back in page order), so it is the same
//! byte for byte on one core or many. (Of two limit errors met on different pages, which one a
//! PDF reports can depend on timing; either is `TooLarge`.)
//!
//! Why a pool and not threads per call: the pool's threads live as long as the process, so
//! their allocator heaps are reused from one statement to the next. With two scoped threads
//! started per PDF, the service's peak RSS under `server/bench.sh` was 159–182 MiB; on the pool,
//! 130–161 MiB, for the same throughput (2026-11-24, four runs each).
//!
//! A pool does not survive `fork` (a Python `multiprocessing` worker forked from a process that
//! scored a statement): the child inherits the pool's queues but not its threads, and would
//! wait forever. So the work runs on the calling thread in any process other than the one that
//! first used the pool. rayon falls back to the calling thread where no thread can be started
//! (`wasm32` without threads); `RAYON_NUM_THREADS` caps the pool.

use std::sync::OnceLock;

/// Fewest items worth splitting off to another thread.
const MIN_ITEMS_PER_THREAD: usize = 4;

/// The id of the process that first used the pool (see the module doc on `fork`).
static POOL_PROCESS: OnceLock<u32> = OnceLock::new();

/// Whether this process may use the pool: it is the one that first used it (or the first to).
fn pool_usable() -> bool {
    let me = std::process::id();
    *POOL_PROCESS.get_or_init(|| me) == me
}

/// Maps `f` over `items` on the pool and returns the results in the order of `items`. A panic
/// in `f` is propagated (callers catch their own).
pub(crate) fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    use rayon::prelude::*;
    if items.len() < 2 * MIN_ITEMS_PER_THREAD || !pool_usable() {
        return items.iter().map(f).collect();
    }
    items
        .par_iter()
        .with_min_len(MIN_ITEMS_PER_THREAD)
        .map(&f)
        .collect()
}

/// Runs `a` on the calling thread and `b` on the pool at the same time, and returns both
/// results (`rayon::in_place_scope`: `a` keeps the caller's warm caches; with `rayon::join`,
/// which runs both on the pool, a 5,000-row report took 16 % longer). In a forked child, `a`
/// then `b` on the calling thread. A panic in either is propagated.
pub(crate) fn join<A, B: Send>(a: impl FnOnce() -> A, b: impl FnOnce() -> B + Send) -> (A, B) {
    if !pool_usable() {
        let first = a();
        return (first, b());
    }
    let mut second = None;
    let first = rayon::in_place_scope(|scope| {
        scope.spawn(|_| second = Some(b()));
        a()
    });
    match second {
        Some(second) => (first, second),
        // The scope returns only after its job ran, and re-raises the job's panic.
        None => unreachable!("the second job ran nowhere"),
    }
}

/// Fewest rows worth a second thread in [`join_for_rows`]: handing a job to the pool costs some
/// microseconds, a whole 60-row report ~120 µs (`cargo bench --bench engine`), a 5,000-row one
/// some milliseconds.
pub(crate) const MIN_ROWS: usize = 1_000;

/// [`join`] for work over `rows` rows: on two threads from [`MIN_ROWS`] rows, else `a` then `b`
/// on the calling thread.
pub(crate) fn join_for_rows<A, B: Send>(
    rows: usize,
    a: impl FnOnce() -> A,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if rows >= MIN_ROWS {
        join(a, b)
    } else {
        let first = a();
        (first, b())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_order() {
        let items: Vec<u32> = (0..103).collect();
        let out = super::map(&items, |n| n * 2);
        assert_eq!(out, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert!(super::map(&[] as &[u32], |n| *n).is_empty());
    }

    #[test]
    fn join_returns_both_results_in_place() {
        let data: Vec<u64> = (1..=1_000).collect();
        let (sum, max) = super::join(|| data.iter().sum::<u64>(), || data.iter().max().copied());
        assert_eq!((sum, max), (500_500, Some(1_000)));
    }

    #[test]
    #[should_panic(expected = "second job failed")]
    fn join_propagates_a_panic_of_the_second_job() {
        let _ = super::join(|| 1, || -> u32 { panic!("second job failed") });
    }
}
