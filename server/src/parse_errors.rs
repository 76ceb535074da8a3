//! Problems for the requests hyper cannot parse. hyper answers those itself, before a request
//! exists for the router to see: a request line or header with bytes HTTP does not allow (raw
//! non-ASCII in the URL or method, a control character in a header: `400`), a URL too long
//! (`414`) or a request head over the buffer (`431`), each with an empty body and
//! `connection: close`, and it offers no hook to change that answer. So the connection's
//! writer ([`ProblemAnswers`], under hyper in [`crate::connections`]) recognises hyper's own
//! answer (one of those statuses, `content-length: 0`, no `content-type`: the service's own
//! errors always have a problem body) and sends an `application/problem+json` one in its
//! place, with a fresh request id (`X-Request-Id`, `requestId`; logged) like every other
//! error.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::error::ApiError;
use crate::problem::{CONTENT_TYPE, Problem};

/// A stream whose writes of hyper's empty error answers are replaced by problems; everything
/// else passes through.
pub struct ProblemAnswers<S> {
    inner: S,
    /// A replacement answer and how much of it is written.
    pending: Option<(Vec<u8>, usize)>,
}

impl<S> ProblemAnswers<S> {
    /// Wraps `inner`.
    pub fn new(inner: S) -> Self {
        Self {
            inner,
            pending: None,
        }
    }
}

/// The code, reason phrase and detail of `head` when it is hyper's own empty error answer
/// (the whole of `head`).
fn hyper_error(head: &[u8]) -> Option<(&'static str, &'static str, &'static str)> {
    let (code, reason, detail) = if head.starts_with(b"HTTP/1.1 400 Bad Request\r\n") {
        (
            "invalid_request",
            "Bad Request",
            "the request is not valid HTTP/1.1: its request line or a header has bytes HTTP \
             does not allow (a URL must be ASCII, non-ASCII characters percent-encoded)",
        )
    } else if head.starts_with(b"HTTP/1.1 431 Request Header Fields Too Large\r\n") {
        (
            "request_head_too_large",
            "Request Header Fields Too Large",
            "the request line and headers exceed 64 KiB",
        )
    } else if head.starts_with(b"HTTP/1.1 414 URI Too Long\r\n") {
        (
            "uri_too_long",
            "URI Too Long",
            "the request URL is too long",
        )
    } else {
        return None;
    };
    let end = head.windows(4).position(|w| w == b"\r\n\r\n")?;
    let lower = head[..end].to_ascii_lowercase();
    let has = |needle: &[u8]| lower.windows(needle.len()).any(|w| w == needle);
    if !has(b"\r\ncontent-length: 0") || has(b"\r\ncontent-type:") || end + 4 != head.len() {
        return None;
    }
    Some((code, reason, detail))
}

/// The problem to send instead of `head`, when `head` is hyper's own empty error answer.
fn replacement(head: &[u8]) -> Option<Vec<u8>> {
    let (code, reason, detail) = hyper_error(head)?;
    let request_id = crate::ids::new_id("req");
    let error = ApiError::new(code, detail);
    tracing::info!(
        request_id,
        status = error.status().as_u16(),
        "unparsable request"
    );
    let body = serde_json::to_vec(&Problem::of(&error, &request_id, "")).ok()?;
    let mut out = format!(
        "HTTP/1.1 {} {reason}\r\ncontent-type: {CONTENT_TYPE}\r\nx-request-id: {request_id}\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n",
        error.status().as_u16(),
        body.len()
    )
    .into_bytes();
    out.extend_from_slice(&body);
    Some(out)
}

impl<S: AsyncWrite + Unpin> ProblemAnswers<S> {
    /// Writes what is left of a replacement answer.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while let Some((bytes, written)) = &mut self.pending {
            if *written >= bytes.len() {
                self.pending = None;
                break;
            }
            let n = ready!(Pin::new(&mut self.inner).poll_write(cx, &bytes[*written..]))?;
            if n == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            *written += n;
        }
        Poll::Ready(Ok(()))
    }

    /// Takes `buf` (all of it) if it is hyper's own error answer, queuing its replacement.
    fn poll_replace(&mut self, cx: &mut Context<'_>, buf: &[u8]) -> Option<io::Result<usize>> {
        let answer = replacement(buf)?;
        self.pending = Some((answer, 0));
        match self.poll_pending(cx) {
            Poll::Ready(Err(e)) => Some(Err(e)),
            // Pending: the rest goes out on the next write, flush or shutdown.
            Poll::Ready(Ok(())) | Poll::Pending => Some(Ok(buf.len())),
        }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for ProblemAnswers<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for ProblemAnswers<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        if let Some(done) = this.poll_replace(cx, buf) {
            return Poll::Ready(done);
        }
        Pin::new(&mut this.inner).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        // hyper's answer may follow what is still queued of the previous response: write up to
        // it, then replace it alone.
        match bufs.iter().position(|b| hyper_error(b).is_some()) {
            Some(0) => {
                if let Some(done) = this.poll_replace(cx, &bufs[0]) {
                    return Poll::Ready(done);
                }
                Pin::new(&mut this.inner).poll_write_vectored(cx, bufs)
            }
            Some(at) => Pin::new(&mut this.inner).poll_write_vectored(cx, &bufs[..at]),
            None => Pin::new(&mut this.inner).poll_write_vectored(cx, bufs),
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = &mut *self;
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_hypers_own_empty_answers_are_replaced() {
        let hyper = b"HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\
                      date: Fri, 27 Nov 2026 10:47:16 GMT\r\n\r\n";
        let answer = replacement(hyper).expect("replaced");
        let text = String::from_utf8(answer).expect("utf-8");
        let (head, body) = text.split_once("\r\n\r\n").expect("head");
        assert!(head.starts_with("HTTP/1.1 400 Bad Request\r\n"), "{head}");
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{head}"
        );
        let problem: serde_json::Value = serde_json::from_str(body).expect("json");
        assert_eq!(problem["code"], "invalid_request");
        assert!(
            head.contains(problem["requestId"].as_str().expect("id")),
            "{head}"
        );
        let too_large =
            b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\n\r\n";
        assert!(replacement(too_large).is_some());
        // The service's own problems, and anything with a body, pass as they are.
        let own = b"HTTP/1.1 400 Bad Request\r\ncontent-type: application/problem+json\r\n\
                    content-length: 0\r\n\r\n";
        assert!(replacement(own).is_none());
        let with_body = b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}";
        assert!(replacement(with_body).is_none());
        assert!(replacement(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n").is_none());
    }
}
