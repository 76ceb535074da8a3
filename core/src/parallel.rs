//! Independent work on a few scoped threads: a PDF's pages, the stages of a report. A report
//! never depends on how the work was split (its stages are pure functions of the statement,
//! and pages come back in page order), so it is the same byte for byte on one core or many.
//! (Of two limit errors met on different pages, which one a PDF reports can depend on timing;
//! either is `TooLarge`.) Where a thread cannot be started (a platform without threads), the
//! work runs on the calling thread.

use std::num::NonZeroUsize;

/// Most threads used for one document.
const MAX_THREADS: usize = 4;

/// Fewest items worth a second thread.
const MIN_ITEMS_PER_THREAD: usize = 4;

/// Maps `f` over `items` on up to [`MAX_THREADS`] scoped threads and returns the results in
/// the order of `items`. Where a thread cannot be started (a platform without threads), its
/// share runs on the calling thread. A panic in `f` is propagated (callers catch their own).
pub(crate) fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = cores()
        .min(MAX_THREADS)
        .min(items.len() / MIN_ITEMS_PER_THREAD)
        .max(1);
    if threads == 1 {
        return items.iter().map(&f).collect();
    }
    let chunk = items.len().div_ceil(threads);
    let f = &f;
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(chunk)
            .map(|part| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || part.iter().map(f).collect::<Vec<R>>())
                    .map_err(|_| part)
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|handle| match handle {
                Ok(h) => h
                    .join()
                    .unwrap_or_else(|payload| std::panic::resume_unwind(payload)),
                Err(part) => part.iter().map(f).collect(),
            })
            .collect()
    })
}

/// Runs `a` on the calling thread and `b` on a scoped thread at the same time, and returns
/// both results. `b` runs on the calling thread after `a` when the machine has one core or no
/// thread can be started. A panic in either is propagated.
pub(crate) fn join<A, B>(a: impl FnOnce() -> A, b: impl FnOnce() -> B + Send) -> (A, B)
where
    B: Send,
{
    if cores() < 2 {
        let first = a();
        return (first, b());
    }
    // `b` waits in a slot the spawned thread takes it from, so that a failed spawn (which
    // drops its closure) leaves it for the calling thread.
    let slot = std::sync::Mutex::new(Some(b));
    let take = || slot.lock().ok().and_then(|mut job| job.take());
    std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new().spawn_scoped(scope, || take().map(|job| job()));
        let first = a();
        let second = spawned
            .ok()
            .and_then(|handle| {
                handle
                    .join()
                    .unwrap_or_else(|payload| std::panic::resume_unwind(payload))
            })
            .or_else(|| take().map(|job| job()));
        match second {
            Some(second) => (first, second),
            // The slot is emptied only by the spawned thread (which returned its result) or
            // by the line above.
            None => unreachable!("the second job ran nowhere"),
        }
    })
}

/// Fewest rows worth a second thread in [`join_for_rows`]: starting one costs some tens of
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

/// The cores available to this process (1 when unknown).
fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
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
