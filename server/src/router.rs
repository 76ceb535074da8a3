//! The router (every route of the service, and the portal's), [`serve`], and the middleware every request passes through: a request id
//! (`req_…`, header `X-Request-Id`), the client address ([`crate::client_ip::ClientIp`]),
//! problem bodies completed with `requestId` and `instance`, and one durable usage record per
//! authenticated request.

use std::future::Future;
use std::sync::Arc;
use std::time::Instant;

use axum::Router;
use axum::extract::{DefaultBodyLimit, MatchedPath, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::net::TcpListener;

use crate::api::{applications, consent_claims, consents, health, pdf, scores, usage};
use crate::auth::CallerSlot;
use crate::error::ApiError;
use crate::ids::{new_id, now_ms};
use crate::limits::{DRAIN_LIMIT, Limits};
use crate::problem::REQUEST_ID_HEADER;
use crate::state::AppState;
use crate::storage::{RequestRecord, Storage};
use crate::webhooks::worker;
use crate::{openapi, problem};

/// Every route of the service, under `/v1`.
pub fn router(state: AppState) -> Router {
    // The form's own caps (statement, fields) apply while it is read; this outer limit only
    // bounds how much of a refused upload is drained.
    let upload_limit = DefaultBodyLimit::max(DRAIN_LIMIT.max(state.limits.max_request_bytes()));
    Router::new()
        .route("/livez", get(health::livez))
        .route("/readyz", get(health::readyz))
        .route("/v1/openapi.json", get(openapi::document))
        .route("/v1/consents", post(consents::create))
        .route("/v1/consents/{consentId}", get(consents::get))
        .route("/v1/consents/{consentId}/grant", post(consents::grant))
        .route("/v1/consents/{consentId}/revoke", post(consents::revoke))
        .route(
            "/v1/consents/{consentId}/verify-customer",
            post(consent_claims::verify_customer),
        )
        .route(
            "/v1/scores/analyse",
            post(scores::analyse).layer(upload_limit),
        )
        .route(
            "/v1/scores/{reportId}",
            get(scores::get).delete(scores::erase),
        )
        .route("/v1/scores/{reportId}/pdf", get(pdf::get))
        .route(
            "/v1/applications",
            post(applications::create).layer(upload_limit),
        )
        .route(
            "/v1/applications/{applicationId}",
            get(applications::get).delete(applications::erase),
        )
        .route(
            "/v1/applications/{applicationId}/pdf",
            get(pdf::get_application),
        )
        .route("/v1/usage", get(usage::get))
        .merge(crate::portal::router(router))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            request_context,
        ))
        .with_state(state)
}

async fn not_found() -> ApiError {
    ApiError::new(
        "not_found",
        "no such endpoint; the API is described at /v1/openapi.json",
    )
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        "method_not_allowed",
        "this endpoint does not take this method",
    )
}

/// Request id, problem completion, usage record.
async fn request_context(
    State(state): State<AppState>,
    mut request: Request,
    next: Next,
) -> Response {
    let started = Instant::now();
    let created_at = now_ms();
    let request_id = new_id("req");
    let slot = CallerSlot::default();
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    let route = request.extensions().get::<MatchedPath>().map_or_else(
        || crate::metrics::UNMATCHED_ROUTE.to_owned(),
        |p| p.as_str().to_owned(),
    );
    request.extensions_mut().insert(slot.clone());
    insert_client_ip(&state.limits, &mut request);

    // Every log line of this request carries its id (`--log-format json`: in `span`).
    let span = tracing::info_span!(
        "request",
        request_id = %request_id,
        trace_id = tracing::field::Empty
    );
    let incoming = crate::trace_context::TraceParent::of(request.headers());
    if let Some(parent) = &incoming {
        crate::otel::continue_trace(&span, parent);
    }
    // With OpenTelemetry export on, the request span itself (a child of the caller's, or the
    // root of a new trace); else the caller's context as received.
    let traceparent = crate::otel::traceparent_of(&span).or(incoming);
    if let Some(trace) = &traceparent {
        span.record("trace_id", trace.trace_id.as_str());
    }
    // What a webhook event this request causes keeps of it (its deliveries' logs and trace).
    request
        .extensions_mut()
        .insert(crate::storage::EventOrigin {
            request_id: Some(request_id.clone()),
            traceparent: traceparent.map(|t| t.to_string()),
        });
    let mut response = match unsupported_transfer_coding(request.headers()) {
        // Refused before a handler reads a body it would misread.
        Some(coding) => ApiError::new(
            "not_implemented",
            format!(
                "Transfer-Encoding {coding:?} is not supported: send the body as it is, with \
                 Content-Length or `Transfer-Encoding: chunked` alone"
            ),
        )
        .into_response(),
        None => tracing::Instrument::instrument(next.run(request), span.clone()).await,
    };
    // (Before the problem is completed, which takes the error out of the extensions.)
    if (route == "/v1/scores/analyse" || route == "/v1/applications")
        && response
            .extensions()
            .get::<ApiError>()
            .is_some_and(|e| e.code() == "service_unavailable")
    {
        state.metrics.admission_rejected();
    }
    // The API answers problems; the portal answers its own HTML pages (a 422 form, a 403
    // CSRF page), which stay as they are, but for a body that stopped arriving (408).
    if problem::is_plain_error(&response) {
        response = problem::from_plain(response, path.starts_with("/portal")).await;
    }

    problem::finalize(&mut response, &request_id, &path);
    if let Ok(value) = HeaderValue::from_str(&request_id) {
        response.headers_mut().insert(REQUEST_ID_HEADER, value);
    }
    close_after_unread_body(&mut response);
    let took = started.elapsed();
    state
        .metrics
        .http_request(&method, &route, response.status().as_u16(), took);
    span.in_scope(|| {
        tracing::info!(
            method,
            path = %crate::logging::loggable_path(&path),
            status = response.status().as_u16(),
            ms = took.as_millis(),
            "request"
        );
    });
    if let Some(caller) = slot.get() {
        let record = RequestRecord {
            request_id,
            owner: caller.owner(),
            api_key_id: caller.key_id.clone(),
            method: crate::metrics::method_label(&method).to_owned(),
            route,
            status: response.status().as_u16(),
            duration_ms: i64::try_from(started.elapsed().as_millis()).unwrap_or(i64::MAX),
            created_at,
        };
        if let Err(e) = state.storage.record_request(&record).await {
            span.in_scope(|| tracing::error!(error = %e, "could not record the request for usage"));
        }
    }
    response
}

/// Sets the request's [`crate::client_ip::ClientIp`]: its TCP peer, or the client a trusted
/// proxy names in the configured header.
fn insert_client_ip(limits: &Limits, request: &mut Request) {
    let peer = request
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map(|c| c.0.ip());
    if let Some(peer) = peer {
        let client = crate::client_ip::client_ip(
            peer,
            request.headers(),
            &limits.trusted_proxies,
            &limits.client_ip_header,
        );
        request
            .extensions_mut()
            .insert(crate::client_ip::ClientIp(client));
    }
}

/// A body that stopped arriving (`408`), or that could not be read as sent (`501`), leaves the
/// connection in an unknown state: it is closed after the answer.
fn close_after_unread_body(response: &mut Response) {
    if matches!(
        response.status(),
        StatusCode::REQUEST_TIMEOUT | StatusCode::NOT_IMPLEMENTED
    ) {
        response
            .headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
    }
}

/// The first transfer coding of `headers` other than `chunked`, which hyper takes off: hyper
/// reads the chunks of `Transfer-Encoding: gzip, chunked` and hands the body on still gzipped,
/// as if it were the statement or the JSON. RFC 9112, section 6.1: a coding the server does not
/// understand is answered `501`. `None` when every coding is `chunked` (or there is none).
fn unsupported_transfer_coding(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::TRANSFER_ENCODING)
        .iter()
        .flat_map(|line| {
            line.to_str()
                .unwrap_or("(not text)")
                .split(',')
                .map(|coding| coding.trim().to_ascii_lowercase())
                .collect::<Vec<_>>()
        })
        .find(|coding| !coding.is_empty() && coding != "chunked")
}

/// Serves `state` on `listener` until `shutdown` completes (in-flight requests finish within
/// `limits.shutdown_grace`; see [`crate::connections`] for the connection limits), with
/// the webhook delivery worker running alongside (unless `state.webhooks.enabled` is false).
/// When `shutdown` completes the worker claims no more events, and this returns once its
/// deliveries in flight have recorded their outcome (at most the webhook time-out plus
/// [`worker::DRAIN_MARGIN`], alongside the connections' grace).
///
/// # Errors
/// I/O errors of the listener.
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    // The worker stops claiming when shutdown begins and finishes its deliveries while the
    // connections drain.
    let (stop_worker, worker_stop) = tokio::sync::watch::channel(false);
    let shutdown = async move {
        shutdown.await;
        let _ = stop_worker.send(true);
    };
    let worker = state.webhooks.enabled.then(|| {
        worker::spawn(
            state.storage.clone(),
            state.webhooks.clone(),
            state.metrics.clone(),
            worker_stop,
        )
    });
    let limits = state.limits.clone();
    let retention = limits.retention.map(|keep| {
        crate::privacy::spawn_retention(
            state.storage.clone(),
            state.metrics.clone(),
            keep,
            limits.retention_every,
        )
    });
    let workers = &state.workers;
    if let Some(task) = &worker {
        workers.register("webhooks", task.abort_handle());
    }
    if let Some(task) = &retention {
        workers.register("retention", task.abort_handle());
    }
    // Alive before the first request, so other replicas never take our analyses for dead.
    if let Err(e) = state.storage.heartbeat(now_ms()).await {
        tracing::warn!(error = %e, "could not record the heartbeat");
    }
    let sweeper = spawn_sweeper(state.storage.clone(), limits.clone());
    state.workers.register("sweeper", sweeper.abort_handle());
    let served = crate::connections::serve(listener, router(state), &limits, shutdown).await;
    sweeper.abort();
    let _ = sweeper.await;
    if let Some(retention) = retention {
        retention.abort();
        let _ = retention.await;
    }
    if let Some(worker) = worker {
        let _ = worker.await;
    }
    served
}

/// Every [`crate::limits::HEARTBEAT_EVERY`]: records that this server is alive and fails the
/// analyses interrupted by a stopped server (`analysis_interrupted`, not billable), so usage
/// figures never keep them `processing`.
fn spawn_sweeper(storage: Storage, limits: Arc<Limits>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(crate::limits::HEARTBEAT_EVERY).await;
            let now = now_ms();
            if let Err(e) = storage.heartbeat(now).await {
                tracing::warn!(error = %e, "could not record the heartbeat");
            }
            let (stale, heartbeat) = crate::limits::interrupted_cutoffs(&limits, now);
            match storage.fail_interrupted(stale, heartbeat, now).await {
                Ok(0) => {}
                Ok(n) => tracing::warn!(reports = n, "interrupted analyses failed"),
                Err(e) => tracing::warn!(error = %e, "sweeping interrupted analyses failed"),
            }
        }
    })
}
