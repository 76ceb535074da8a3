//! The service's limits, decided and documented in the README:
//!
//! - statement upload: 10 MiB (`413 too_large`, refused from `Content-Length` before the body is
//!   read, or as soon as the streamed part passes the limit);
//! - file types by content (magic bytes: `%PDF-`, `{`, or delimited text): others `415`;
//! - per-key rate limit (token bucket, default 600 requests a minute, bursts of 60): `429` with
//!   `Retry-After`;
//! - uploads in flight: at most `max_uploads_in_flight` analyse requests hold a body (read,
//!   queued or analysed) at once; a request's body is read only once it has a slot, and one
//!   that waits `upload_queue_wait` for a slot is answered `503 service_unavailable` with
//!   `Retry-After`, so memory stays bounded whatever the number of concurrent uploads;
//! - connections: request heads within 10 s (also the idle limit of kept-alive connections),
//!   bodies never idle for 15 s (`408`), at most 512 open connections (`503` past it), and 10 s
//!   for open connections to finish on shutdown (see [`crate::connections`]);
//! - analysis: at most N at a time (N = CPU cores), on the blocking pool, with a time-out
//!   (default 30 s, `422 analysis_timeout`), and the engine's own limits on pages, rows and
//!   decompressed PDF stream size.

use std::time::Duration;

use alama_core::Format;

/// One MiB.
pub const MIB: usize = 1024 * 1024;

/// The longest request head (request line and headers, as parsed): past it, `431
/// request_head_too_large` (hyper's answer, made a problem by [`crate::parse_errors`]).
pub const MAX_HEAD_BYTES: usize = 64 * 1024;

/// Room for the form's other fields and multipart framing on top of the statement.
const FORM_OVERHEAD: usize = 64 * 1024;

/// A refused upload is read and dropped up to this many bytes before the `413` is sent, so that
/// clients still sending (those not using `Expect: 100-continue`) read the answer instead of a
/// reset connection; past it the connection is closed. Also the body limit of the upload route.
pub const DRAIN_LIMIT: usize = 32 * MIB;
/// Longest time spent draining a refused upload.
pub const DRAIN_TIME: Duration = Duration::from_secs(10);

/// Longest `password` field, bytes.
pub const MAX_PASSWORD_BYTES: usize = 256;
/// Longest `consentId` field or path id, bytes.
pub const MAX_ID_BYTES: usize = 64;
/// Longest `Idempotency-Key` header, bytes.
pub const MAX_IDEMPOTENCY_KEY_BYTES: usize = 255;
/// Largest JSON request body (consents), bytes.
pub const MAX_JSON_BYTES: usize = 64 * 1024;

/// Limits of one server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Limits {
    /// Largest statement upload, bytes. Default 10 MiB.
    pub max_statement_bytes: usize,
    /// Longest analysis before it fails with `analysis_timeout`. Default 30 s.
    pub analysis_timeout: Duration,
    /// Analyses running at once; more wait their turn. Default: the number of CPU cores.
    pub max_concurrent_analyses: usize,
    /// Analyse requests holding a body at once (being read, waiting for an analysis slot or
    /// analysed): the bound on upload memory, about this many times `max_statement_bytes` plus
    /// the engine's working set. Default: twice `max_concurrent_analyses`, at least 4.
    pub max_uploads_in_flight: usize,
    /// Longest wait for an upload slot before `503 service_unavailable` (the body is not read
    /// while waiting). Default 5 s.
    pub upload_queue_wait: Duration,
    /// Longest time for a request head to arrive, and the longest a kept-alive connection may
    /// sit idle between requests. Default 10 s.
    pub header_read_timeout: Duration,
    /// Longest pause while a request body is being received: `408 request_timeout`. Default
    /// 15 s.
    pub body_idle_timeout: Duration,
    /// Connections open at once; past it a new connection is answered `503` and closed.
    /// Default 512.
    pub max_connections: usize,
    /// On shutdown, how long open connections may finish their request before they are
    /// closed. Default 10 s.
    pub shutdown_grace: Duration,
    /// Sustained requests a minute per API key. Default 600.
    pub rate_per_minute: u32,
    /// Requests a key may make at once before the rate applies. Default 60.
    pub rate_burst: u32,
    /// How long reports, consents and request logs are kept (see [`crate::privacy`]); `None`
    /// keeps them. Default 90 days.
    pub retention: Option<Duration>,
    /// How often the retention job runs. Default hourly.
    pub retention_every: Duration,
    /// Failed authentications a minute allowed per client address before its further
    /// failures are answered `429 auth_throttled` for the rest of the minute (requests with a
    /// valid key still pass; 0: no limit). Default 30.
    pub auth_failures_per_minute: u32,
    /// Reverse proxies whose client header ([`Limits::client_ip_header`]) is believed
    /// (addresses and CIDR blocks; see [`crate::client_ip`]). Default none: the throttles count
    /// the TCP peer.
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// The one header the trusted proxies write the client's address into. Default
    /// `X-Forwarded-For`; `Forwarded` is read only when named here.
    pub client_ip_header: crate::client_ip::ClientIpHeader,
    /// The engine's limits for untrusted input (pages, rows, decompressed stream bytes).
    pub engine: alama_core::Limits,
}

impl Default for Limits {
    fn default() -> Self {
        let max_statement_bytes = 10 * MIB;
        let max_concurrent_analyses = std::thread::available_parallelism().map_or(2, usize::from);
        Self {
            max_statement_bytes,
            analysis_timeout: Duration::from_secs(30),
            max_concurrent_analyses,
            max_uploads_in_flight: (2 * max_concurrent_analyses).max(4),
            upload_queue_wait: Duration::from_secs(5),
            header_read_timeout: Duration::from_secs(10),
            body_idle_timeout: Duration::from_secs(15),
            max_connections: 512,
            shutdown_grace: Duration::from_secs(10),
            rate_per_minute: 600,
            rate_burst: 60,
            auth_failures_per_minute: 30,
            retention: Some(Duration::from_hours(24 * 90)),
            retention_every: Duration::from_hours(1),
            trusted_proxies: Vec::new(),
            client_ip_header: crate::client_ip::ClientIpHeader::default(),
            engine: alama_core::Limits {
                max_bytes: max_statement_bytes as u64,
                max_pages: 1_000,
                max_rows: 200_000,
                max_decompressed: 64 * MIB as u64,
            },
        }
    }
}

impl Limits {
    /// Largest `multipart/form-data` body: the statement plus 64 KiB for the other fields.
    pub fn max_request_bytes(&self) -> usize {
        self.max_statement_bytes + FORM_OVERHEAD
    }

    /// Age after which a report still `processing` is taken for interrupted (its server
    /// stopped): the time-out plus a minute.
    pub fn stale_after(&self) -> Duration {
        self.analysis_timeout + Duration::from_mins(1)
    }
}

/// How often a server records that it is alive and sweeps interrupted analyses.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(5);
/// A server silent this long is taken for stopped: its `processing` analyses were
/// interrupted.
pub const HEARTBEAT_TIMEOUT: Duration = Duration::from_secs(20);

/// `(stale, heartbeat)` cut-offs at `now` (ms): analyses created before `stale`, or claimed
/// by a server not heard from since `heartbeat`, were interrupted.
pub fn interrupted_cutoffs(limits: &Limits, now: i64) -> (i64, i64) {
    let ms = |d: Duration| i64::try_from(d.as_millis()).unwrap_or(i64::MAX);
    (
        now.saturating_sub(ms(limits.stale_after())),
        now.saturating_sub(ms(HEARTBEAT_TIMEOUT)),
    )
}

/// The wire name of a format: `pdf`, `csv`, `json` or `xlsx`.
pub fn format_name(format: Format) -> &'static str {
    match format {
        Format::Pdf => "pdf",
        Format::Csv => "csv",
        Format::Json => "json",
        Format::Xlsx => "xlsx",
    }
}
