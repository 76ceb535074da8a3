//! Per-page work on a few threads (pages are independent), in page order.

use std::num::NonZeroUsize;

/// Most threads used for one document.
const MAX_THREADS: usize = 4;

/// Fewest items worth a second thread.
const MIN_ITEMS_PER_THREAD: usize = 4;

/// Maps `f` over `items` on up to [`MAX_THREADS`] scoped threads and returns the results in
/// the order of `items`. Where a thread cannot be started (a platform without threads), its
/// share runs on the calling thread. A panic in `f` is propagated (callers catch their own).
pub(super) fn map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let threads = std::thread::available_parallelism()
        .map_or(1, NonZeroUsize::get)
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

#[cfg(test)]
mod tests {
    #[test]
    fn keeps_order() {
        let items: Vec<u32> = (0..103).collect();
        let out = super::map(&items, |n| n * 2);
        assert_eq!(out, items.iter().map(|n| n * 2).collect::<Vec<_>>());
        assert!(super::map(&[] as &[u32], |n| *n).is_empty());
    }
}
