//! Runs blocking engine work on a thread of its own and awaits it, so the `…Async` exports never
//! block the thread that polls them (Kotlin's dispatcher thread, Swift's executor).

use crate::AlamaError;

/// Runs `work` on a new thread; the returned future completes with its result.
///
/// A thread per call is deliberate: scoring is rare (one statement at a time), CPU-bound for
/// up to a few seconds, and needs no runtime in the library.
pub(crate) async fn run<T, F>(work: F) -> Result<T, AlamaError>
where
    T: Send + 'static,
    F: FnOnce() -> Result<T, AlamaError> + Send + 'static,
{
    let (sender, receiver) = futures_channel::oneshot::channel();
    let spawned = std::thread::Builder::new()
        .name("alama-worker".to_owned())
        .spawn(move || {
            // The receiver is gone only when the caller cancelled: nothing to report to.
            let _ = sender.send(work());
        });
    if let Err(e) = spawned {
        return Err(AlamaError::Other {
            code: "internal".to_owned(),
            detail: format!("could not start a worker thread: {e}"),
        });
    }
    receiver.await.unwrap_or_else(|_| {
        Err(AlamaError::Other {
            code: "internal".to_owned(),
            detail: "the worker thread stopped without a result".to_owned(),
        })
    })
}
