//! Panics the engine contains on purpose: `pdf-extract` 0.12, which reads the PDFs that are not
//! Safaricom's own layout, unwraps on some malformed fonts and objects instead of returning an
//! error, and the PDF parser catches those panics (the reload of its copy, then page by page)
//! and answers `malformed_statement`. Rust would still print its default panic message (and, with
//! `RUST_BACKTRACE`, a backtrace) to standard error before the unwind reaches the catch: noise
//! for a CLI user, a Python notebook or a service's log, about a file that is simply unreadable.
//!
//! [`catch_quietly`] catches a panic the way [`std::panic::catch_unwind`] does and keeps the
//! process's panic hook quiet for panics raised *on the same thread while it runs*. The first
//! call installs, once per process, a hook that wraps the hook already set (the default one, or
//! one the host installed: a service's logging hook, a fuzzer's aborting hook): panics outside
//! such a region, and panics on other threads, still reach it unchanged. A host that later
//! replaces the hook only gets the default message back.
//!
//! Decisions: only the calls into `pdf-extract` (and the `lopdf` 0.42 it brings) run
//! quietly. The parser's outer `catch_unwind` (the last line of defence around the whole PDF
//! parse: `lopdf` 0.47 and the engine's own reader) stays loud, because a panic there is a
//! defect to report and fix, and the fuzz targets find it through the hook. A library changing
//! the process-wide hook is intrusive, so the wrapper delegates everything it does not contain,
//! and installs itself only when a PDF first reaches `pdf-extract`.

use std::cell::Cell;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

thread_local! {
    /// How many [`catch_quietly`] regions are running on this thread (they may nest).
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

static INSTALL: Once = Once::new();

/// Runs `f` and returns `Ok` with its result, or `Err` with the payload of a panic it raised
/// (as [`std::panic::catch_unwind`]; `f` is treated as unwind-safe: callers discard whatever
/// state a panicking `f` left behind). While `f` runs, a panic on this thread is not reported
/// by the panic hook. Requires `panic = "unwind"` (the default), like any `catch_unwind`.
pub(crate) fn catch_quietly<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    INSTALL.call_once(|| {
        let outer = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            if DEPTH.with(Cell::get) == 0 {
                outer(info);
            }
        }));
    });
    DEPTH.with(|depth| depth.set(depth.get() + 1));
    let outcome = panic::catch_unwind(AssertUnwindSafe(f));
    DEPTH.with(|depth| depth.set(depth.get() - 1));
    outcome
}

#[cfg(test)]
mod tests {
    use super::catch_quietly;

    #[test]
    fn a_panic_is_caught_and_its_payload_kept() {
        let outcome = catch_quietly(|| -> u8 { panic!("unreadable font") });
        let payload = outcome.expect_err("the panic is caught");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"unreadable font"));
        assert_eq!(catch_quietly(|| 7).ok(), Some(7));
    }

    #[test]
    fn regions_nest_and_end() {
        let inner = catch_quietly(|| catch_quietly(|| -> u8 { panic!("inner") }).is_err());
        assert_eq!(inner.ok(), Some(true));
        super::DEPTH.with(|depth| assert_eq!(depth.get(), 0));
    }
}
