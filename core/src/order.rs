//! A stable sort for rows that a statement lists in time order, oldest or newest first.

/// Sorts `items` by `key`, stably (items with equal keys keep the order they had), in one pass
/// when `items` are already in ascending or descending order of `key` apart from ties.
///
/// The standard stable sort takes an ascending run in one pass, but a descending listing with
/// ties (a parsed M-Pesa statement lists its rows newest first, and a payment and its charge
/// share a completion time) is no single run for it, and it sorts that in full: a quarter of the
/// features' time, and a large share of the report id's and the balance check's, on 5,000 rows
/// (`stage_times`, 2026-11-25). So a listing whose first key is greater than its last is
/// reversed (ascending now, in one pass), sorted, and each run of equal keys reversed back into
/// the order it had: exactly what the stable sort of the listing gives.
pub(crate) fn sort_stable_by_key<T, K: Ord>(items: &mut [T], key: impl Fn(&T) -> K) {
    let descending = matches!(
        (items.first(), items.last()),
        (Some(first), Some(last)) if key(first) > key(last)
    );
    if !descending {
        items.sort_by_key(&key);
        return;
    }
    items.reverse();
    items.sort_by_key(&key);
    for same_key in items.chunk_by_mut(|a, b| key(a) == key(b)) {
        same_key.reverse();
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// Keys from a few values, listed in any order, ascending or descending: the result is
        /// the standard stable sort's, ties in their listed order.
        #[test]
        fn the_one_pass_sort_is_the_stable_sort(
            keys in proptest::collection::vec(0u8..5, 0..40), listing in 0u8..3
        ) {
            let mut keys = keys;
            match listing {
                0 => keys.sort_unstable(),
                1 => keys.sort_unstable_by(|a, b| b.cmp(a)),
                _ => {}
            }
            let listed: Vec<(u8, usize)> = keys.into_iter().zip(0..).collect();
            let mut stable = listed.clone();
            stable.sort_by_key(|(key, _)| *key);
            let mut one_pass = listed;
            sort_stable_by_key(&mut one_pass, |(key, _)| *key);
            prop_assert_eq!(one_pass, stable);
        }
    }
}
