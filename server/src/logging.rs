//! The service's logs (`alama serve --log-format text|json`), on standard error by default.
//! Every line written while a request is handled carries its `request_id` (the `X-Request-Id`
//! header): in text as the `request{request_id=…}` prefix, in JSON in the `span` object.
//! Nothing from a statement, a password, a holder's name or phone number is ever logged, and a
//! secret in a request's path (the portal's one-time sign-in link, a key pasted into a URL) is
//! masked in the one place paths are logged ([`loggable_path`]).
//! A request with a valid W3C `traceparent` header also has its `trace_id` in those lines, so
//! they can be found from the caller's trace; with OTLP export on (`crate::otel`'s `OTEL_*`
//! variables) every request has one, its own trace's when the caller sent none.

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

/// The shape of log lines.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable lines (colours when standard error is a terminal).
    #[default]
    Text,
    /// One JSON object a line (`timestamp`, `level`, `fields`, `target`, `span`, `spans`), for
    /// log collectors.
    Json,
}

/// Installs the process-wide subscriber: `filter` (e.g. `info`, or `ALAMA_LOG`'s value)
/// in `format` to `writer`. Returns false when one was already installed (it stays).
pub fn init<W>(format: LogFormat, filter: EnvFilter, writer: W, ansi: bool) -> bool
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    init_with_export(format, filter, writer, ansi, None)
}

/// [`init`], also exporting the spans that pass `filter` through `export` (OpenTelemetry,
/// [`crate::otel`]) when given.
pub fn init_with_export<W>(
    format: LogFormat,
    filter: EnvFilter,
    writer: W,
    ansi: bool,
    export: Option<&opentelemetry_sdk::trace::SdkTracerProvider>,
) -> bool
where
    W: for<'a> MakeWriter<'a> + Send + Sync + 'static,
{
    use tracing_subscriber::layer::SubscriberExt;
    let (text, json) = match format {
        LogFormat::Text => (
            Some(
                tracing_subscriber::fmt::layer()
                    .with_writer(writer)
                    .with_ansi(ansi),
            ),
            None,
        ),
        LogFormat::Json => (
            None,
            Some(
                tracing_subscriber::fmt::layer()
                    .json()
                    .with_current_span(true)
                    .with_span_list(true)
                    .with_writer(writer),
            ),
        ),
    };
    let export = export
        .map(|provider| tracing_opentelemetry::layer().with_tracer(crate::otel::tracer(provider)));
    let subscriber = tracing_subscriber::registry()
        .with(filter)
        .with(text)
        .with(json)
        .with(export);
    if tracing::subscriber::set_global_default(subscriber).is_err() {
        return false;
    }
    // Not tracing-subscriber's own bridge (`try_init` installs `tracing_log::LogTracer`): that
    // one writes each record's source file, which for a dependency is the path it was built
    // from (`/root/.cargo/registry/src/…/lopdf-0.47.0/src/parser/mod.rs`, issue 52).
    if log::set_boxed_logger(Box::new(LogBridge)).is_ok() {
        // The filter's most verbose level, as tracing-subscriber's own bridge sets it: below it
        // a dependency's `log` call costs a comparison (sqlx formats a summary of every
        // statement for a `debug` record it is allowed to write).
        log::set_max_level(tracing_log::AsLog::as_log(
            &tracing::level_filters::LevelFilter::current(),
        ));
    }
    true
}

/// The `log` records of dependencies (lopdf's warnings about a damaged PDF) as `tracing`
/// events, filtered by their target like any other (`ALAMA_LOG=lopdf=error`), in the span of
/// the request that caused them, without the source file and line the record carries.
struct LogBridge;

impl log::Log for LogBridge {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        // What the subscriber's filter would let through (`log_enabled!` asks before a
        // dependency builds an expensive record).
        metadata.level() <= log::max_level()
            && tracing::dispatcher::get_default(|dispatch| {
                dispatch.enabled(&tracing_log::AsTrace::as_trace(metadata))
            })
    }

    fn log(&self, record: &log::Record<'_>) {
        let bare = log::Record::builder()
            .args(*record.args())
            .level(record.level())
            .target(record.target())
            .module_path(record.module_path())
            .build();
        // Only fails when the record cannot be dispatched, and there is nowhere to say so.
        let _ = tracing_log::format_trace(&bare);
    }

    fn flush(&self) {}
}

/// The routes whose path carries a secret, as route templates: the portal's one-time sign-in
/// link (`alama users create`), whose token sets the user's password. A path parameter that is
/// a secret is named `{token}` and its route listed here (`server/tests/log_secrets.rs` fails
/// on a `{token}` route missing from the list, and requests every listed one).
pub const SECRET_ROUTES: &[&str] = &["/portal/activate/{token}"];

/// What a masked path segment is written as.
pub const MASK: &str = "{token}";

/// Prefixes of path segments that are secrets whatever the route: an API key
/// (`alama_sk_live_…`, [`crate::keys`]) or a webhook signing secret (`whsec_…`) pasted into a URL.
const SECRET_SEGMENT_PREFIXES: [&str; 2] = ["alama_sk_", "whsec_"];

/// `path` as the request log writes it: the `{token}` segment of a path under a
/// [`SECRET_ROUTES`] template (its segments before the token equal, `%`-escapes decoded and
/// empty segments skipped: also when the rest of the path matches no route, since a mistyped
/// link still holds its token) and every segment starting with an API key's or a webhook
/// secret's prefix are replaced by [`MASK`]. Anything else is returned as it is, without
/// copying.
pub fn loggable_path(path: &str) -> std::borrow::Cow<'_, str> {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut masked = vec![false; segments.len()];
    for template in SECRET_ROUTES {
        let parts: Vec<&str> = template.split('/').filter(|s| !s.is_empty()).collect();
        for (i, part) in parts.iter().enumerate() {
            let Some(segment) = segments.get(i) else {
                break;
            };
            if *part == MASK {
                masked[i] = true;
                break;
            }
            let is_param = part.starts_with('{');
            if !is_param && percent_decoded(segment) != *part {
                break;
            }
        }
    }
    for (i, segment) in segments.iter().enumerate() {
        let lower = percent_decoded(segment).to_ascii_lowercase();
        if SECRET_SEGMENT_PREFIXES.iter().any(|p| lower.starts_with(p)) {
            masked[i] = true;
        }
    }
    if !masked.contains(&true) {
        return std::borrow::Cow::Borrowed(path);
    }
    let mut out = String::with_capacity(path.len());
    for (segment, masked) in segments.iter().zip(masked) {
        out.push('/');
        out.push_str(if masked { MASK } else { segment });
    }
    if path.ends_with('/') {
        out.push('/');
    }
    std::borrow::Cow::Owned(out)
}

/// `segment` with its `%XX` escapes decoded (as bytes, then lossily as UTF-8); a `%` not
/// followed by two hex digits stays as it is.
fn percent_decoded(segment: &str) -> std::borrow::Cow<'_, str> {
    if !segment.contains('%') {
        return std::borrow::Cow::Borrowed(segment);
    }
    let bytes = segment.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| char::from(b).to_digit(16);
        if bytes[i] == b'%'
            && let (Some(Some(hi)), Some(Some(lo))) = (
                bytes.get(i + 1).map(|b| hex(*b)),
                bytes.get(i + 2).map(|b| hex(*b)),
            )
        {
            out.push(u8::try_from(hi * 16 + lo).unwrap_or(b'%'));
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    std::borrow::Cow::Owned(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_in_paths_are_masked_and_other_paths_kept() {
        let token = "Zq8xWm3Kp0aB7cD9eF1gH2iJ4kL5mN6o";
        for (path, logged) in [
            (
                format!("/portal/activate/{token}"),
                "/portal/activate/{token}",
            ),
            (
                format!("/portal/activate/{token}/"),
                "/portal/activate/{token}/",
            ),
            (
                format!("/portal/activate/{token}/more"),
                "/portal/activate/{token}/more",
            ),
            (
                format!("//portal//activate/{token}"),
                "/portal/activate/{token}",
            ),
            (
                format!("/portal/%61ctivate/{token}"),
                "/portal/%61ctivate/{token}",
            ),
            (
                "/v1/scores/alama_sk_live_abc/pdf".to_owned(),
                "/v1/scores/{token}/pdf",
            ),
            ("/x/WHSEC_abc".to_owned(), "/x/{token}"),
        ] {
            assert_eq!(loggable_path(&path), logged, "{path}");
            assert!(!loggable_path(&path).contains(token));
        }
        for kept in [
            "/portal/activate",
            "/portal/keys/key_01/revoke",
            "/v1/scores/rpt_01",
            "/",
        ] {
            assert!(matches!(loggable_path(kept), std::borrow::Cow::Borrowed(p) if p == kept));
        }
    }
}
