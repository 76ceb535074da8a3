//! The service's logs (`alama serve --log-format text|json`), on standard error by default.
//! Every line written while a request is handled carries its `request_id` (the `X-Request-Id`
//! header): in text as the `request{request_id=…}` prefix, in JSON in the `span` object.
//! Nothing from a statement, a password, a holder's name or phone number is ever logged.
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
    use tracing_subscriber::util::SubscriberInitExt;
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
    tracing_subscriber::registry()
        .with(filter)
        .with(text)
        .with(json)
        .with(export)
        .try_init()
        .is_ok()
}
