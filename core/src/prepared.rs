//! Which statements' rows are already prepared: a memo of the fingerprints of the statements
//! [`crate::parse`] returned last.
//!
//! [`crate::score`] prepares a copy of the rows it is handed ([`crate::parse::prepare`]:
//! categories from Details, amounts to two decimal places), because a statement built or edited
//! in code may carry no categories, or wrong ones. A statement whose rows and SUMMARY are the
//! very ones `parse` returned needs no preparing: preparing is a function of each row's content,
//! and is idempotent. So `parse` remembers the fingerprint of what it returns
//! ([`crate::report_id::fingerprint_of_rows`]: every field of every row, with each amount's
//! scale, and the SUMMARY's amounts), and `score` reads a statement whose fingerprint it finds
//! here in place: it neither copies nor categorises its rows again.
//!
//! `score` does not fingerprint a statement before scoring it. When the statement's
//! [`crate::report_id::quick_key`] (its row count, first and last rows and SUMMARY) is here, it
//! scores the statement in place at once, and the fingerprint is taken in the same pass as the
//! report id, on the id's thread. If the fingerprint is not here after all (a middle row was
//! edited after parsing), that report is dropped and the statement is prepared and scored as
//! any other. A fingerprint before the features cost 0.14 ms of a 0.8 ms `score` of a parsed
//! 5,000-row statement (`stage_times`, 2026-11-26).
//!
//! Only the cost depends on this memo, never the report: a statement edited after parsing has
//! another fingerprint and is prepared as before; a statement built in code with exactly the
//! content of a parsed one is prepared already, and is read in place like it. Two different
//! contents share a 64-bit fingerprint with a chance of about 2⁻⁶⁴ per pair.
//!
//! The memo is a ring of the last [`REMEMBERED`] fingerprints and quick keys, shared by the
//! threads of the process, without a lock: a notebook or a batch that parses statements and
//! then scores them, up to that many at a time, has every one read in place. (Two threads that
//! remember at once may leave a slot with one's key and the other's fingerprint: that costs one
//! `score` a report it drops, never a wrong report.)

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// How many statements the memo keeps (16 bytes each).
pub(crate) const REMEMBERED: usize = 256;

/// `0` marks an empty slot; a value of `0` is remembered as `1`.
static FINGERPRINTS: [AtomicU64; REMEMBERED] = [const { AtomicU64::new(0) }; REMEMBERED];
static QUICK_KEYS: [AtomicU64; REMEMBERED] = [const { AtomicU64::new(0) }; REMEMBERED];
static NEXT: AtomicUsize = AtomicUsize::new(0);

fn slot_value(value: u64) -> u64 {
    value.max(1)
}

/// Remembers that the statement with this fingerprint and quick key is prepared, in place of
/// the oldest.
pub(crate) fn remember(fingerprint: u64, quick_key: u64) {
    let at = NEXT.fetch_add(1, Ordering::Relaxed) % REMEMBERED;
    FINGERPRINTS[at].store(slot_value(fingerprint), Ordering::Relaxed);
    QUICK_KEYS[at].store(slot_value(quick_key), Ordering::Relaxed);
}

fn holds(ring: &[AtomicU64; REMEMBERED], value: u64) -> bool {
    let value = slot_value(value);
    ring.iter()
        .any(|slot| slot.load(Ordering::Relaxed) == value)
}

/// Whether a statement with this fingerprint was remembered as prepared (and not forgotten
/// since).
pub(crate) fn remembered(fingerprint: u64) -> bool {
    holds(&FINGERPRINTS, fingerprint)
}

/// Whether a statement with this quick key was remembered: the statement may be prepared, and
/// only its fingerprint can tell.
pub(crate) fn may_be_remembered(quick_key: u64) -> bool {
    holds(&QUICK_KEYS, quick_key)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memo_keeps_the_last_fingerprints_and_forgets_older_ones() {
        // Fingerprints no other test makes (the memo is shared by the tests of the process).
        let base = 0xfeed_0000_0000_0000_u64;
        let key = |fingerprint: u64| !fingerprint;
        remember(base, key(base));
        assert!(remembered(base) && may_be_remembered(key(base)));
        assert!(!remembered(base + 1) && !may_be_remembered(key(base + 1)));
        assert!(!remembered(key(base)), "a key is not a fingerprint");
        for i in 1..=REMEMBERED as u64 {
            remember(base + i, key(base + i));
        }
        assert!(!remembered(base), "forgotten after {REMEMBERED} newer ones");
        assert!(!may_be_remembered(key(base)));
        assert!(remembered(base + REMEMBERED as u64));
    }
}
