//! The service's logs (`alama serve --log-format text|json`), on standard error by default.
//! Every line written while a request is handled carries its `request_id` (the `X-Request-Id`
//! header): in text as the `request{request_id=…}` prefix, in JSON in the `span` object.
//! Nothing from a statement, a password, a holder's name or phone number is ever logged.
//! A request with a valid W3C `traceparent` header also has its `trace_id` in those lines, so
//! they can be found from the caller's trace.

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
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
    match format {
        LogFormat::Text => builder.with_ansi(ansi).try_init().is_ok(),
        LogFormat::Json => builder
            .json()
            .with_current_span(true)
            .with_span_list(true)
            .try_init()
            .is_ok(),
    }
}

/// The trace id of a valid W3C Trace Context `traceparent` header (version `00`:
/// `00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>`, lowercase, neither id all zeros;
/// <https://www.w3.org/TR/trace-context/#traceparent-header>), else `None` (an invalid header is
/// ignored, as the recommendation asks).
pub fn trace_id(headers: &axum::http::HeaderMap) -> Option<String> {
    let value = headers.get("traceparent")?.to_str().ok()?.trim();
    let mut parts = value.split('-');
    let (version, trace, parent, flags) =
        (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    let hex = |s: &str, len: usize| {
        s.len() == len
            && s.bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    };
    let zero = |s: &str| s.bytes().all(|b| b == b'0');
    (parts.next().is_none()
        && version == "00"
        && hex(trace, 32)
        && hex(parent, 16)
        && hex(flags, 2)
        && !zero(trace)
        && !zero(parent))
    .then(|| trace.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(value: &str) -> Option<String> {
        let mut headers = axum::http::HeaderMap::new();
        headers.insert(
            "traceparent",
            axum::http::HeaderValue::from_str(value).expect("header"),
        );
        trace_id(&headers)
    }

    #[test]
    fn traceparent_is_read_only_when_valid() {
        let trace = "4bf92f3577b34da6a3ce929d0e0e4736";
        assert_eq!(
            of(&format!("00-{trace}-00f067aa0ba902b7-01")).as_deref(),
            Some(trace)
        );
        for bad in [
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
            "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",
            "00-00000000000000000000000000000000-00f067aa0ba902b7-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",
            "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
            "not a traceparent",
        ] {
            assert_eq!(of(bad), None, "{bad}");
        }
    }
}
