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

use std::cell::Cell;
use std::sync::OnceLock;

/// Fewest items worth splitting off to another thread.
const MIN_ITEMS_PER_THREAD: usize = 4;

/// The id of the process that first used the pool (see the module doc on `fork`).
static POOL_PROCESS: OnceLock<u32> = OnceLock::new();

thread_local! {
    /// Set by [`on_calling_thread`] for the duration of its closure.
    static CALLING_THREAD_ONLY: Cell<bool> = const { Cell::new(false) };
}

/// Whether this process may use the pool: it is the one that first used it (or the first to),
/// and the calling thread has not asked to keep its work (see [`on_calling_thread`]).
pub(crate) fn pool_usable() -> bool {
    if CALLING_THREAD_ONLY.get() {
        return false;
    }
    let me = std::process::id();
    *POOL_PROCESS.get_or_init(|| me) == me
}

/// Runs `f` with all of the engine's work of this thread kept on this thread: a long report's
/// two halves one after the other, a PDF's pages in order, nothing handed to the pool. The
/// result is the same byte for byte; only the time differs.
///
/// For a caller that already runs one analysis per core (a service): there the pool's threads
/// are busy with other analyses, and handing them half of each report only adds thread
/// wake-ups and switches. Under `server/bench.sh` (5,000-row CSV, c=8, 2 cores, 2026-11-25)
/// that was 11 % of the server's CPU profile. A one-off caller (the CLI, a notebook) leaves the
/// split on: it halves a long report's wall time when a core is free.
pub fn on_calling_thread<R>(f: impl FnOnce() -> R) -> R {
    /// Restores the previous setting, also when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            CALLING_THREAD_ONLY.set(self.0);
        }
    }
    let _restore = Restore(CALLING_THREAD_ONLY.replace(true));
    f()
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
/// which runs both on the pool, a 5,000-row report took 16 % longer). In a forked child, or in
/// [`on_calling_thread`], `a` then `b` on the calling thread. A panic in either is propagated.
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

/// Whether work over `rows` rows whose two halves cost more than the whole (each half builds
/// its own categorisation memo) should be split: from [`MIN_ROWS`] rows, and only where the
/// second half can go to the pool (not in [`on_calling_thread`], where the halves would run one
/// after the other).
pub(crate) fn worth_halving(rows: usize) -> bool {
    rows >= MIN_ROWS && pool_usable()
}

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
    fn on_calling_thread_keeps_the_work_here_and_then_restores_the_pool() {
        let here = std::thread::current().id();
        let items: Vec<u32> = (0..64).collect();
        let threads = super::on_calling_thread(|| {
            let (a, b) = super::join(
                || std::thread::current().id(),
                || std::thread::current().id(),
            );
            let mapped = super::map(&items, |_| std::thread::current().id());
            (a, b, mapped)
        });
        assert_eq!((threads.0, threads.1), (here, here));
        assert!(threads.2.iter().all(|t| *t == here));
        // Afterwards the second job goes to the pool again.
        let ((), b) = super::join(|| (), || std::thread::current().id());
        assert_ne!(b, here);
    }

    #[test]
    #[should_panic(expected = "second job failed")]
    fn join_propagates_a_panic_of_the_second_job() {
        let _ = super::join(|| 1, || -> u32 { panic!("second job failed") });
    }
}
