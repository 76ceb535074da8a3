//! A request body that fails when the client sends nothing for a while (the body idle
//! time-out, `Limits::body_idle_timeout`): a slow-body client cannot hold an upload slot or a
//! connection by trickling, or stopping, half way through its upload.

use std::error::Error as StdError;
use std::fmt;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Bytes;
use http_body::{Body, Frame, SizeHint};
use tokio::time::{Instant, Sleep};

/// The error a timed-out body yields (handlers map it to `408 request_timeout`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyIdleTimeout {
    /// The idle time allowed.
    pub limit: Duration,
}

/// The start of a [`BodyIdleTimeout`]'s message, by which it is recognised once an extractor
/// has turned it into text.
pub const TIMEOUT_TEXT: &str = "request body timed out";

impl fmt::Display for BodyIdleTimeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{TIMEOUT_TEXT}: nothing received for {} s",
            self.limit.as_secs_f64()
        )
    }
}

impl StdError for BodyIdleTimeout {}

/// Whether `error` (or one of its sources) is a [`BodyIdleTimeout`], or its message says so
/// (extractors such as multipart flatten the error to text).
pub fn is_body_timeout(error: &(dyn StdError + 'static)) -> bool {
    let mut current = Some(error);
    while let Some(e) = current {
        if e.is::<BodyIdleTimeout>() || e.to_string().contains(TIMEOUT_TEXT) {
            return true;
        }
        current = e.source();
    }
    false
}

/// `inner`, failing with [`BodyIdleTimeout`] when no frame arrives for `limit`.
pub struct IdleTimeoutBody<B> {
    inner: Pin<Box<B>>,
    limit: Duration,
    sleep: Pin<Box<Sleep>>,
    failed: bool,
}

impl<B> IdleTimeoutBody<B> {
    /// Wraps `inner`; the clock starts now and restarts at every frame.
    pub fn new(inner: B, limit: Duration) -> Self {
        Self {
            inner: Box::pin(inner),
            limit,
            sleep: Box::pin(tokio::time::sleep(limit)),
            failed: false,
        }
    }
}

impl<B> Body for IdleTimeoutBody<B>
where
    B: Body<Data = Bytes>,
    B::Error: Into<Box<dyn StdError + Send + Sync>>,
{
    type Data = Bytes;
    type Error = Box<dyn StdError + Send + Sync>;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Self::Error>>> {
        if self.failed {
            return Poll::Ready(None);
        }
        match self.inner.as_mut().poll_frame(cx) {
            Poll::Ready(frame) => {
                let limit = self.limit;
                self.sleep.as_mut().reset(Instant::now() + limit);
                Poll::Ready(frame.map(|f| f.map_err(Into::into)))
            }
            Poll::Pending => {
                if self.sleep.as_mut().poll(cx).is_ready() {
                    self.failed = true;
                    return Poll::Ready(Some(Err(Box::new(BodyIdleTimeout { limit: self.limit }))));
                }
                Poll::Pending
            }
        }
    }

    fn is_end_stream(&self) -> bool {
        self.failed || self.inner.is_end_stream()
    }

    fn size_hint(&self) -> SizeHint {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::body::Body as AxumBody;

    #[tokio::test]
    async fn a_silent_body_fails_after_the_idle_limit() {
        // A body that never yields a frame.
        let (_tx, rx) = tokio::sync::mpsc::channel::<Result<Frame<Bytes>, std::io::Error>>(1);
        let stream = http_body_util_stream(rx);
        let body = AxumBody::new(IdleTimeoutBody::new(stream, Duration::from_millis(50)));
        let started = std::time::Instant::now();
        let got = axum::body::to_bytes(body, 1024).await;
        let error = got.expect_err("times out");
        assert!(is_body_timeout(&error), "{error}");
        assert!(started.elapsed() < Duration::from_secs(5));
    }

    #[tokio::test]
    async fn a_complete_body_passes_unchanged() {
        let body = AxumBody::new(IdleTimeoutBody::new(
            AxumBody::from("hello"),
            Duration::from_millis(50),
        ));
        let got = axum::body::to_bytes(body, 1024).await.expect("body");
        assert_eq!(&got[..], b"hello");
    }

    /// A body over a channel of frames.
    fn http_body_util_stream(
        rx: tokio::sync::mpsc::Receiver<Result<Frame<Bytes>, std::io::Error>>,
    ) -> impl Body<Data = Bytes, Error = std::io::Error> {
        struct Channel(tokio::sync::mpsc::Receiver<Result<Frame<Bytes>, std::io::Error>>);
        impl Body for Channel {
            type Data = Bytes;
            type Error = std::io::Error;
            fn poll_frame(
                mut self: Pin<&mut Self>,
                cx: &mut Context<'_>,
            ) -> Poll<Option<Result<Frame<Bytes>, std::io::Error>>> {
                self.0.poll_recv(cx)
            }
        }
        Channel(rx)
    }
}
