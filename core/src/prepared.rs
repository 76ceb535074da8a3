//! Which statements' rows are already prepared: a memo of the fingerprints of the statements
//! [`crate::parse`] returned last.
//!
//! [`crate::score`] prepares a copy of the rows it is handed ([`crate::parse::prepare`]:
//! categories from Details, amounts to two decimal places), because a statement built or edited
//! in code may carry no categories, or wrong ones. A statement whose rows and SUMMARY are the
//! very ones `parse` returned needs no preparing: preparing is a function of the content, and
//! is idempotent. So `parse` remembers the fingerprint of what it returns
//! ([`crate::report_id::fingerprint`]: every field of every row in listed order, with each
//! amount's scale, and the SUMMARY's amounts), and `score` reads a statement whose fingerprint
//! it finds here in place. Scoring a parsed 5,000-row statement then neither copies nor
//! categorises its rows again (`stage_times`, 2026-11-25: 1.41–1.52 ms against 2.18–2.23).
//!
//! Only the cost depends on this memo, never the report: a statement edited after parsing has
//! another fingerprint and is prepared as before; a statement built in code with exactly the
//! content of a parsed one is prepared already, and is read in place like it. Two different
//! contents share a 64-bit fingerprint with a chance of about 2⁻⁶⁴ per pair.
//!
//! The memo is a ring of the last [`REMEMBERED`] fingerprints, shared by the threads of the
//! process, without a lock: a notebook or a batch that parses statements and then scores them,
//! up to that many at a time, has every one read in place.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// How many fingerprints the memo keeps (8 bytes each).
pub(crate) const REMEMBERED: usize = 256;

/// `0` marks an empty slot; a fingerprint of `0` is remembered as `1`.
static RING: [AtomicU64; REMEMBERED] = [const { AtomicU64::new(0) }; REMEMBERED];
static NEXT: AtomicUsize = AtomicUsize::new(0);

fn slot_value(fingerprint: u64) -> u64 {
    fingerprint.max(1)
}

/// Remembers that the statement with this fingerprint is prepared, in place of the oldest.
pub(crate) fn remember(fingerprint: u64) {
    let at = NEXT.fetch_add(1, Ordering::Relaxed) % REMEMBERED;
    RING[at].store(slot_value(fingerprint), Ordering::Relaxed);
}

/// Whether a statement with this fingerprint was remembered as prepared (and not forgotten
/// since).
pub(crate) fn remembered(fingerprint: u64) -> bool {
    let value = slot_value(fingerprint);
    RING.iter()
        .any(|slot| slot.load(Ordering::Relaxed) == value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memo_keeps_the_last_fingerprints_and_forgets_older_ones() {
        // Fingerprints no other test makes (the memo is shared by the tests of the process).
        let base = 0xfeed_0000_0000_0000_u64;
        remember(base);
        assert!(remembered(base));
        assert!(!remembered(base + 1));
        for i in 1..=REMEMBERED as u64 {
            remember(base + i);
        }
        assert!(!remembered(base), "forgotten after {REMEMBERED} newer ones");
        assert!(remembered(base + REMEMBERED as u64));
    }
}
