//! The accept loop: hyper's HTTP/1 connections with the limits slow or numerous clients need
//! (see [`crate::limits`]):
//!
//! - a header-read time-out (`header_read_timeout`, also the longest a kept-alive connection
//!   may sit idle between requests): the connection is closed when a request head has not
//!   fully arrived in time;
//! - a body idle time-out (`body_idle_timeout`, [`crate::body_timeout`]);
//! - a cap on open connections (`max_connections`): past it a new connection is answered at
//!   once with a `503` problem and closed, so sockets never exhaust the file descriptors;
//! - a graceful-shutdown deadline (`shutdown_grace`): on shutdown the listener closes,
//!   connections finish their current request, and whatever is still open at the deadline is
//!   dropped;
//! - a lingering close ([`crate::linger`]): a connection ended before its request body was read
//!   drains what the client still sends, briefly, so that the client reads the answer;
//! - problems for what hyper cannot parse ([`crate::parse_errors`]): hyper's own empty `400`,
//!   `414` and `431` answers are replaced by `application/problem+json` ones.
//!
//! Each request carries the peer address as [`axum::extract::ConnectInfo`].

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::task::JoinSet;
use tower::ServiceExt;

use crate::body_timeout::IdleTimeoutBody;
use crate::limits::{Limits, MAX_HEAD_BYTES};
use crate::linger::Lingering;
use crate::parse_errors::ProblemAnswers;

/// The answer to a connection over `max_connections` (no request was read, so no request id).
const OVER_CAPACITY: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\n\
content-type: application/problem+json\r\n\
retry-after: 1\r\n\
connection: close\r\n\
content-length: 171\r\n\
\r\n\
{\"type\":\"urn:alama:problem:service_unavailable\",\"title\":\"The service is temporarily unavailable\",\"status\":503,\"code\":\"service_unavailable\",\"detail\":\"too many connections\"}";

/// Serves `router` on `listener` under `limits` until `shutdown` completes, then drains
/// connections for at most `limits.shutdown_grace`.
///
/// # Errors
/// None today (accept errors such as running out of file descriptors are logged and retried
/// after a pause); kept fallible for the listener's future needs.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let mut builder = hyper::server::conn::http1::Builder::new();
    // The request head's limit: `max_header_size` bounds the head as parsed; `max_buf_size`
    // alone bounded only a head that arrived in pieces (hyper's read buffer may grow past it
    // in one read), so one 100 KiB header was accepted (issue 52).
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_header_size(MAX_HEAD_BYTES)
        .max_buf_size(MAX_HEAD_BYTES);
    let builder = Arc::new(builder);
    let open = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut tasks = JoinSet::new();
    let body_idle = limits.body_idle_timeout;
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let accepted = tokio::select! {
            accepted = listener.accept() => accepted,
            () = &mut shutdown => break,
        };
        // Reap finished connection tasks so the set does not grow.
        while tasks.try_join_next().is_some() {}
        let (stream, peer) = match accepted {
            Ok(pair) => pair,
            Err(e) => {
                // EMFILE and friends: pause rather than spin; connections will close.
                tracing::warn!(error = %e, "accept error");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let Ok(permit) = open.clone().try_acquire_owned() else {
            tasks.spawn(refuse(stream));
            continue;
        };
        let router = router.clone();
        let service = hyper::service::service_fn(move |request: hyper::Request<Incoming>| {
            let router = router.clone();
            async move {
                let mut request =
                    request.map(|body| Body::new(IdleTimeoutBody::new(body, body_idle)));
                request.extensions_mut().insert(ConnectInfo(peer));
                router.oneshot(request).await
            }
        });
        let io = TokioIo::new(Lingering::new(ProblemAnswers::new(stream)));
        let connection = builder.serve_connection(io, service);
        let watched = graceful.watch(connection);
        tasks.spawn(async move {
            let _open = permit;
            if let Err(e) = watched.await {
                tracing::debug!(error = %e, %peer, "connection ended with an error");
            }
        });
    }
    drop(listener);
    tracing::info!(
        connections = graceful.count(),
        "draining connections before shutdown"
    );
    if tokio::time::timeout(limits.shutdown_grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!(
            seconds = limits.shutdown_grace.as_secs(),
            "connections still open at the shutdown deadline are closed"
        );
    }
    tasks.shutdown().await;
    Ok(())
}

/// Answers a connection past the cap with a `503` problem and closes it, spending at most a
/// second on a client that does not read.
async fn refuse(mut stream: TcpStream) {
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(OVER_CAPACITY).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_over_capacity_answer_has_a_correct_length() {
        let text = std::str::from_utf8(OVER_CAPACITY).unwrap_or_default();
        let (head, body) = text.split_once("\r\n\r\n").unwrap_or_default();
        assert!(
            head.contains(&format!("content-length: {}", body.len())),
            "{head}"
        );
        let json: serde_json::Value = serde_json::from_str(body).unwrap_or_default();
        assert_eq!(json["code"], "service_unavailable");
    }
}
