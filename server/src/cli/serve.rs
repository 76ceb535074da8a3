//! `alama serve`: the HTTP service (the partner API under `/v1`, the portal under `/portal`,
//! metrics on their own listener), its flags and its process (logs, panics, signals).
//! (Just over 400 lines: one command, its flags each with its help text, its run and their
//! tests.)

use clap::Args;

use super::{DatabaseArgs, db_error, runtime};
use crate::limits::{Limits, MIB};
use crate::router::serve;
use crate::state::AppState;
use crate::storage::Storage;
use crate::webhooks::WebhookConfig;

/// `alama serve`: run the HTTP service.
#[derive(Debug, Clone, Args)]
pub struct ServeArgs {
    /// Address to listen on (port 0 picks a free port; the address is printed).
    #[arg(long, default_value = "127.0.0.1:8080", value_name = "HOST:PORT")]
    pub bind: String,
    /// The database.
    #[command(flatten)]
    pub db: DatabaseArgs,
    /// Sustained requests a minute allowed per API key.
    #[arg(long, default_value_t = 600, value_name = "N")]
    pub rate_limit_per_minute: u32,
    /// Requests a key may make at once before the per-minute rate applies.
    #[arg(long, default_value_t = 60, value_name = "N")]
    pub rate_limit_burst: u32,
    /// Failed authentications a minute per client address before its further failures get
    /// `429` for the rest of the minute (requests with a valid key still pass; 0: no limit).
    #[arg(long, default_value_t = 30, value_name = "N")]
    pub auth_failures_per_minute: u32,
    /// A reverse proxy in front of the service (an address or CIDR block; repeat the flag or
    /// separate with commas): only from these peers is `--client-ip-header` believed, so that
    /// the throttles count the real client instead of the proxy.
    #[arg(
        long = "trusted-proxy",
        env = "ALAMA_TRUSTED_PROXIES",
        value_delimiter = ',',
        value_parser = crate::client_ip::parse_proxy,
        value_name = "ADDR[/BITS]"
    )]
    pub trusted_proxies: Vec<ipnet::IpNet>,
    /// The header the trusted proxies write the client's address into, read from the right,
    /// skipping trusted hops: `X-Forwarded-For` (default), `Forwarded` (RFC 7239), or another
    /// comma-separated address header such as `X-Real-IP`. No other header is read.
    #[arg(
        long = "client-ip-header",
        env = "ALAMA_CLIENT_IP_HEADER",
        default_value = "X-Forwarded-For",
        value_parser = crate::client_ip::ClientIpHeader::parse,
        value_name = "NAME"
    )]
    pub client_ip_header: crate::client_ip::ClientIpHeader,
    /// Days reports, consents and request logs are kept (0: keep them); a background job
    /// erases and deletes older ones hourly, keeping usage counts.
    #[arg(long, default_value_t = 90, value_name = "DAYS")]
    pub retention_days: u64,
    /// Largest statement upload, MiB.
    #[arg(long, default_value_t = 10, value_name = "MIB")]
    pub max_upload_mib: usize,
    /// Longest analysis, seconds.
    #[arg(long, default_value_t = 30, value_name = "SECONDS")]
    pub analysis_timeout_secs: u64,
    /// Analyse requests holding an upload at once (read, queued or analysed); others wait
    /// unread. Default: twice the analyses run at once (the CPU cores), at least 4.
    #[arg(long, value_name = "N")]
    pub max_uploads_in_flight: Option<usize>,
    /// Longest wait for an upload slot before `503` with `Retry-After`, seconds.
    #[arg(long, default_value_t = 5, value_name = "SECONDS")]
    pub upload_queue_wait_secs: u64,
    /// Longest time for a request head to arrive (also the idle limit of kept-alive
    /// connections), seconds.
    #[arg(long, default_value_t = 10, value_name = "SECONDS")]
    pub header_read_timeout_secs: u64,
    /// Longest pause while a request body arrives, seconds (`408` past it).
    #[arg(long, default_value_t = 15, value_name = "SECONDS")]
    pub body_idle_timeout_secs: u64,
    /// Connections open at once (`503` and close past it).
    #[arg(long, default_value_t = 512, value_name = "N")]
    pub max_connections: usize,
    /// On shutdown (SIGTERM, Ctrl-C), how long open connections may finish, seconds.
    #[arg(long, default_value_t = 10, value_name = "SECONDS")]
    pub shutdown_grace_secs: u64,
    /// The HMAC key of stored request fingerprints (any string of 32 or more characters);
    /// by default one is generated on first start and kept in the database.
    #[arg(
        long,
        env = "ALAMA_FINGERPRINT_SECRET",
        hide_env_values = true,
        value_name = "SECRET"
    )]
    pub fingerprint_secret: Option<String>,
    /// Deliver webhooks to loopback, private and link-local addresses (for tests and local
    /// development only).
    #[arg(long)]
    pub allow_private_webhook_urls: bool,
    /// Serve Prometheus metrics at `http://ADDR/metrics` on a listener of their own (no key:
    /// bind it where only the scraper reaches). Off by default.
    #[arg(long, env = "ALAMA_METRICS_BIND", value_name = "HOST:PORT")]
    pub metrics_bind: Option<String>,
    /// Log lines as `text` or `json` (one object a line, the request id in every line of a
    /// request).
    #[arg(long, value_enum, default_value_t = crate::logging::LogFormat::Text, env = "ALAMA_LOG_FORMAT")]
    pub log_format: crate::logging::LogFormat,
}

impl ServeArgs {
    /// The limits these flags ask for (the rest default).
    pub fn limits(&self) -> Limits {
        let mut limits = Limits {
            rate_per_minute: self.rate_limit_per_minute,
            rate_burst: self.rate_limit_burst,
            auth_failures_per_minute: self.auth_failures_per_minute,
            trusted_proxies: self.trusted_proxies.clone(),
            client_ip_header: self.client_ip_header.clone(),
            retention: (self.retention_days > 0)
                .then(|| std::time::Duration::from_hours(24 * self.retention_days)),
            analysis_timeout: std::time::Duration::from_secs(self.analysis_timeout_secs.max(1)),
            max_statement_bytes: self.max_upload_mib.clamp(1, 1024) * MIB,
            upload_queue_wait: std::time::Duration::from_secs(self.upload_queue_wait_secs),
            header_read_timeout: std::time::Duration::from_secs(
                self.header_read_timeout_secs.max(1),
            ),
            body_idle_timeout: std::time::Duration::from_secs(self.body_idle_timeout_secs.max(1)),
            max_connections: self.max_connections.max(1),
            shutdown_grace: std::time::Duration::from_secs(self.shutdown_grace_secs),
            ..Limits::default()
        };
        if let Some(n) = self.max_uploads_in_flight {
            limits.max_uploads_in_flight = n.max(1);
        }
        limits.engine.max_bytes = limits.max_statement_bytes as u64;
        limits
    }
}

/// A database URL with its password hidden, for logs.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    match rest.split_once('@') {
        Some((userinfo, host)) if userinfo.contains(':') => {
            let user = userinfo.split(':').next().unwrap_or_default();
            format!("{scheme}://{user}:***@{host}")
        }
        _ => url.to_owned(),
    }
}

/// Runs `alama serve` until Ctrl-C or SIGTERM. Logs go to standard error (`ALAMA_LOG` sets
/// the filter, default `info`).
///
/// # Errors
/// A one-line message (`error[…]: …`) when the database or the address cannot be used.
pub fn run_serve(args: &ServeArgs) -> Result<(), String> {
    let filter = tracing_subscriber::EnvFilter::try_from_env("ALAMA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    let export = match crate::otel::OtelSettings::from_vars(|name| std::env::var(name).ok()) {
        Some(settings) => Some(
            settings
                .provider()
                .map_err(|e| format!("error[invalid_argument]: {e}"))?,
        ),
        None => None,
    };
    crate::logging::init_with_export(
        args.log_format,
        filter,
        std::io::stderr,
        std::io::IsTerminal::is_terminal(&std::io::stderr()),
        export.as_ref(),
    );
    // Panics become one log line with their location instead of Rust's default message and
    // backtrace note (in the span of the request whose work panicked, when there is one).
    std::panic::set_hook(Box::new(|info| {
        let file = info
            .location()
            .map(std::panic::Location::file)
            .unwrap_or_default();
        let location = info
            .location()
            .map(|l| format!("{}:{}", source_path(l.file()), l.line()))
            .unwrap_or_default();
        // The message of a panic outside the service's own code (the engine's parsers and
        // their dependencies, which read statements: the PDF reader's panics are caught and
        // answered `malformed_statement`) may quote the statement: only its location is logged.
        let message = if file.starts_with("server/") {
            info.payload()
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default()
        } else {
            "(not logged: outside the service's code)".to_owned()
        };
        tracing::error!(location, message, "panic");
    }));
    let runtime = runtime()?;
    let result = runtime.block_on(async {
        let storage = Storage::connect(&args.db.database)
            .await
            .map_err(|e| db_error(&e))?;
        let listener = tokio::net::TcpListener::bind(&args.bind)
            .await
            .map_err(|e| format!("error[io_error]: cannot listen on {}: {e}", args.bind))?;
        let addr = listener
            .local_addr()
            .map_err(|e| format!("error[io_error]: {e}"))?;
        tracing::info!(
            "alama serve: listening on http://{addr}/v1 (database {})",
            redact(&args.db.database)
        );
        let mut state =
            AppState::new(storage.clone(), args.limits()).with_webhooks(WebhookConfig {
                allow_private: args.allow_private_webhook_urls,
                ..WebhookConfig::default()
            });
        if let Some(secret) = &args.fingerprint_secret {
            if secret.len() < 32 {
                return Err(
                    "error[invalid_argument]: --fingerprint-secret must be at least 32 characters"
                        .to_owned(),
                );
            }
            state = state.with_fingerprint_key(secret.as_bytes().to_vec());
        }
        let metrics = match &args.metrics_bind {
            Some(bind) => {
                let listener = tokio::net::TcpListener::bind(bind)
                    .await
                    .map_err(|e| format!("error[io_error]: cannot listen on {bind}: {e}"))?;
                if let Ok(addr) = listener.local_addr() {
                    tracing::info!("alama serve: metrics on http://{addr}/metrics");
                }
                Some(crate::metrics::serve(listener, state.clone()))
            }
            None => None,
        };
        let served = serve(listener, state, shutdown_signal()).await;
        if let Some(metrics) = metrics {
            metrics.abort();
        }
        served.map_err(|e| format!("error[io_error]: {e}"))?;
        storage.close().await;
        Ok(())
    });
    // An analysis still running on the blocking pool cannot be cancelled: do not wait for it
    // (its report is ended `analysis_interrupted` by the next server).
    runtime.shutdown_timeout(std::time::Duration::from_secs(1));
    // The spans still buffered (the last requests and deliveries) are sent before exiting.
    if let Some(provider) = &export {
        crate::otel::shutdown(provider);
    }
    result
}

/// `file` as a log line shows it: relative to the crate that holds it, never the path it was
/// built from (a dependency's file is absolute: `/root/.cargo/registry/src/index…/lopdf-0.47.0/
/// src/parser/mod.rs` is written `lopdf-0.47.0/src/parser/mod.rs`); a workspace file is
/// relative already (`core/src/parse/mod.rs`).
fn source_path(file: &str) -> &str {
    if !file.starts_with('/') && !file.contains(":\\") {
        return file;
    }
    // The crate's folder is the one above its last `src/`.
    let normal = file.rfind("/src/").or_else(|| file.rfind("\\src\\"));
    let Some(src) = normal else {
        return file.rsplit(['/', '\\']).next().unwrap_or(file);
    };
    let start = file[..src].rfind(['/', '\\']).map_or(0, |i| i + 1);
    &file[start..]
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = terminate => {}
    }
    tracing::info!("alama serve: shutting down");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_paths_are_relative_to_their_crate() {
        assert_eq!(
            source_path(
                "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lopdf-0.47.0/src/parser/mod.rs"
            ),
            "lopdf-0.47.0/src/parser/mod.rs"
        );
        assert_eq!(
            source_path("/build/alama/server/src/router.rs"),
            "server/src/router.rs"
        );
        assert_eq!(
            source_path("core/src/parse/mod.rs"),
            "core/src/parse/mod.rs"
        );
        assert_eq!(source_path("/opt/build.rs"), "build.rs");
    }

    #[test]
    fn passwords_are_hidden() {
        assert_eq!(
            redact("postgres://alama:s3cret@127.0.0.1:5432/alama"),
            "postgres://alama:***@127.0.0.1:5432/alama"
        );
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("alama.db"), "alama.db");
    }

    #[derive(Debug, clap::Parser)]
    struct Serve {
        #[command(flatten)]
        args: ServeArgs,
    }

    #[test]
    fn metrics_are_off_and_logs_text_unless_asked() {
        use clap::Parser;
        let plain = Serve::try_parse_from(["serve"]).map(|s| s.args);
        assert!(plain.as_ref().is_ok_and(
            |a| a.metrics_bind.is_none() && a.log_format == crate::logging::LogFormat::Text
        ));
        let asked = Serve::try_parse_from([
            "serve",
            "--metrics-bind",
            "127.0.0.1:9464",
            "--log-format",
            "json",
        ])
        .map(|s| s.args);
        assert!(
            asked
                .as_ref()
                .is_ok_and(|a| a.metrics_bind.as_deref() == Some("127.0.0.1:9464")
                    && a.log_format == crate::logging::LogFormat::Json)
        );
        assert!(Serve::try_parse_from(["serve", "--log-format", "xml"]).is_err());
    }

    #[test]
    fn trusted_proxies_are_listed_repeated_or_comma_separated() {
        use clap::Parser;
        let parsed = Serve::try_parse_from([
            "serve",
            "--trusted-proxy",
            "10.0.0.0/8,192.0.2.1",
            "--trusted-proxy",
            "::1",
        ])
        .map(|s| s.args.limits().trusted_proxies);
        let proxies = parsed.unwrap_or_default();
        assert_eq!(proxies.len(), 3, "{proxies:?}");
        assert!(
            proxies[1].contains(
                &"192.0.2.1"
                    .parse::<std::net::IpAddr>()
                    .unwrap_or(std::net::IpAddr::from([0, 0, 0, 0]))
            )
        );
        let header = Serve::try_parse_from(["serve", "--client-ip-header", "X-Real-IP"])
            .map(|s| s.args.limits().client_ip_header);
        assert_eq!(
            header
                .as_ref()
                .ok()
                .map(crate::client_ip::ClientIpHeader::name),
            Some("x-real-ip")
        );
        let default = Serve::try_parse_from(["serve"]).map(|s| s.args.limits().client_ip_header);
        assert_eq!(
            default
                .as_ref()
                .ok()
                .map(crate::client_ip::ClientIpHeader::name),
            Some("x-forwarded-for")
        );
        assert!(Serve::try_parse_from(["serve", "--client-ip-header", "two words"]).is_err());
        let e = Serve::try_parse_from(["serve", "--trusted-proxy", "proxy.local"])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(e.contains("not an IP address or CIDR block"), "{e}");
    }
}
