//! The service's logs (`alama serve --log-format text|json`), on standard error by default.
//! Every line written while a request is handled carries its `request_id` (the `X-Request-Id`
//! header): in text as the `request{request_id=…}` prefix, in JSON in the `span` object.
//! Nothing from a statement, a password, a holder's name or phone number is ever logged.

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
