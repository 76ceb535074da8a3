//! Lingering close: when the service ends a connection whose client may still be sending (an
//! upload refused before its body was read: a revoked key, a rate limit, a bad header), it first
//! half-closes its side (the answer is complete and followed by FIN), then reads and drops what
//! the client still sends, for at most [`LINGER_TIME`] and [`LINGER_BYTES`]. Closing a socket
//! with unread data makes the kernel send a reset, and a client still writing its upload then
//! sees `EPIPE`/`ECONNRESET` instead of the `401`/`429` that was sent to it.
//!
//! This is what nginx calls `lingering_close` (its defaults: 30 s in all, 5 s between reads);
//! the service keeps it shorter because the answer is already on the wire and a slow client
//! must not hold a connection slot for long.

use std::future::Future as _;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// Longest time a closing connection keeps reading what its client still sends.
pub const LINGER_TIME: Duration = Duration::from_secs(2);
/// Most bytes a closing connection reads and drops before it closes anyway.
pub const LINGER_BYTES: usize = crate::limits::DRAIN_LIMIT;

/// A stream whose `poll_shutdown` lingers: it sends FIN, then drains the peer's data until the
/// peer closes, an error, [`LINGER_TIME`] or [`LINGER_BYTES`]. Reads and writes pass through.
pub struct Lingering<S> {
    inner: S,
    state: State,
}

enum State {
    Open,
    Draining {
        deadline: Pin<Box<Sleep>>,
        dropped: usize,
    },
    Closed,
}

impl<S> Lingering<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            state: State::Open,
        }
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncRead for Lingering<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncRead + AsyncWrite + Unpin> AsyncWrite for Lingering<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.inner).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        loop {
            match &mut this.state {
                State::Open => {
                    if let Err(e) = ready!(Pin::new(&mut this.inner).poll_shutdown(cx)) {
                        this.state = State::Closed;
                        return Poll::Ready(Err(e));
                    }
                    this.state = State::Draining {
                        deadline: Box::pin(tokio::time::sleep(LINGER_TIME)),
                        dropped: 0,
                    };
                }
                State::Draining { deadline, dropped } => {
                    if deadline.as_mut().poll(cx).is_ready() || *dropped > LINGER_BYTES {
                        this.state = State::Closed;
                        continue;
                    }
                    let mut scratch = [0u8; 8192];
                    let mut buf = ReadBuf::new(&mut scratch);
                    match ready!(Pin::new(&mut this.inner).poll_read(cx, &mut buf)) {
                        Ok(()) if !buf.filled().is_empty() => *dropped += buf.filled().len(),
                        // The peer closed, or the connection broke: nothing more to wait for.
                        Ok(()) | Err(_) => this.state = State::Closed,
                    }
                }
                State::Closed => return Poll::Ready(Ok(())),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    #[tokio::test]
    async fn shutdown_sends_eof_then_drains_until_the_peer_closes() {
        let (server, mut client) = tokio::io::duplex(64);
        let mut server = Lingering::new(server);
        let peer = tokio::spawn(async move {
            // The peer is still sending when the server closes; it must not see an error.
            let sent = client.write_all(&vec![7u8; 100_000]).await;
            let mut answer = Vec::new();
            let read = client.read_to_end(&mut answer).await;
            drop(client);
            (sent.is_ok(), read.is_ok())
        });
        server.write_all(b"answer").await.expect("write");
        server.shutdown().await.expect("shutdown");
        let (sent, read) = peer.await.expect("peer");
        assert!(sent && read);
    }

    #[tokio::test]
    async fn shutdown_gives_up_after_the_linger_time() {
        let (server, _client) = tokio::io::duplex(64);
        let mut server = Lingering::new(server);
        let started = tokio::time::Instant::now();
        server.shutdown().await.expect("shutdown");
        assert!(started.elapsed() >= LINGER_TIME);
    }
}
