//! Optional OpenTelemetry trace export over OTLP/HTTP (protobuf), off unless configured by the
//! standard variables (<https://opentelemetry.io/docs/specs/otel/configuration/sdk-environment-variables/>,
//! <https://opentelemetry.io/docs/specs/otel/protocol/exporter/>):
//!
//! - `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the URL spans are sent to with `POST`, as given) or
//!   `OTEL_EXPORTER_OTLP_ENDPOINT` (a base URL: `/v1/traces` is appended); neither set: no export;
//! - `OTEL_TRACES_EXPORTER=none` or `OTEL_SDK_DISABLED=true`: no export;
//! - `OTEL_SERVICE_NAME` (default `alama`), `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_HEADERS`
//!   and `OTEL_EXPORTER_OTLP_TIMEOUT` as the SDK reads them. Only `http/protobuf` is spoken.
//!
//! The `request` span of each request and the `webhook` span of each delivery are exported with
//! their fields (`request_id`, `trace_id`, the event id) and their log lines as span events,
//! which carry nothing from a statement (see the `logging` module). A request's valid
//! `traceparent` is the parent of its span, so the spans join the caller's trace; a delivery's
//! span is a child of the request span, and its `traceparent` header names it.

use opentelemetry::trace::{
    SpanContext, SpanId, TraceContextExt, TraceFlags, TraceId, TraceState, TracerProvider as _,
};
use opentelemetry_otlp::WithExportConfig;
use opentelemetry_sdk::Resource;
use opentelemetry_sdk::trace::{SdkTracer, SdkTracerProvider};
use tracing_opentelemetry::OpenTelemetrySpanExt;

use crate::trace_context::TraceParent;

/// Where and as what spans are exported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtelSettings {
    /// The full OTLP/HTTP traces URL (e.g. `http://collector:4318/v1/traces`).
    pub endpoint: String,
    /// The `service.name` resource attribute.
    pub service_name: String,
}

impl OtelSettings {
    /// The settings given by the `OTEL_*` variables that `var` reads (`std::env::var(..).ok()`
    /// in `alama serve`), or `None` when export is off (module documentation).
    pub fn from_vars(var: impl Fn(&str) -> Option<String>) -> Option<Self> {
        let set = |name: &str| {
            var(name)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        if set("OTEL_SDK_DISABLED").is_some_and(|v| v.eq_ignore_ascii_case("true")) {
            return None;
        }
        if let Some(exporters) = set("OTEL_TRACES_EXPORTER")
            && !exporters.split(',').any(|e| e.trim() == "otlp")
        {
            return None;
        }
        let endpoint = set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").or_else(|| {
            set("OTEL_EXPORTER_OTLP_ENDPOINT")
                .map(|base| format!("{}/v1/traces", base.trim_end_matches('/')))
        })?;
        Some(Self {
            endpoint,
            service_name: set("OTEL_SERVICE_NAME").unwrap_or_else(|| "alama".to_owned()),
        })
    }

    /// A tracer provider exporting in batches (from the SDK's own thread) to the endpoint.
    /// Call [`shutdown`] before the process ends, so the last spans are sent.
    ///
    /// # Errors
    /// The endpoint is not a URL, or the HTTP client cannot be made.
    pub fn provider(&self) -> Result<SdkTracerProvider, String> {
        let exporter = opentelemetry_otlp::SpanExporter::builder()
            .with_http()
            .with_endpoint(&self.endpoint)
            .build()
            .map_err(|e| format!("OTLP export to {}: {e}", self.endpoint))?;
        Ok(SdkTracerProvider::builder()
            .with_batch_exporter(exporter)
            .with_resource(
                Resource::builder()
                    .with_service_name(self.service_name.clone())
                    .build(),
            )
            .build())
    }
}

/// The tracer of the service's spans.
#[must_use]
pub fn tracer(provider: &SdkTracerProvider) -> SdkTracer {
    provider.tracer("alama-server")
}

/// Sends the spans still buffered and stops the export (blocks up to the exporter's time-out).
pub fn shutdown(provider: &SdkTracerProvider) {
    if let Err(e) = provider.shutdown() {
        tracing::warn!(error = %e, "OpenTelemetry: the last spans could not be exported");
    }
}

/// Makes the remote span `parent` the parent of `span` (not yet entered); nothing when export is
/// off.
pub fn continue_trace(span: &tracing::Span, parent: &TraceParent) {
    let (Ok(trace), Ok(id), Ok(flags)) = (
        TraceId::from_hex(&parent.trace_id),
        SpanId::from_hex(&parent.parent_id),
        u8::from_str_radix(&parent.flags, 16),
    ) else {
        return;
    };
    let remote = SpanContext::new(trace, id, TraceFlags::new(flags), true, TraceState::NONE);
    // (An error means export is off: the span has no OpenTelemetry side.)
    let _ = span.set_parent(opentelemetry::Context::new().with_remote_span_context(remote));
}

/// The `traceparent` naming `span` itself when export is on, else `None`.
#[must_use]
pub fn traceparent_of(span: &tracing::Span) -> Option<TraceParent> {
    let context = span.context();
    let own = context.span().span_context().clone();
    own.is_valid().then(|| TraceParent {
        trace_id: own.trace_id().to_string(),
        parent_id: own.span_id().to_string(),
        flags: format!("{:02x}", own.trace_flags().to_u8()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(vars: &[(&str, &str)]) -> Option<OtelSettings> {
        OtelSettings::from_vars(|name| {
            vars.iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v).to_owned())
        })
    }

    #[test]
    fn export_is_off_unless_an_endpoint_is_set() {
        assert_eq!(of(&[]), None);
        assert_eq!(of(&[("OTEL_SERVICE_NAME", "x")]), None);
        let base = of(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318/")]).expect("on");
        assert_eq!(base.endpoint, "http://c:4318/v1/traces");
        assert_eq!(base.service_name, "alama");
        let traces = of(&[
            ("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"),
            ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://t/spans"),
            ("OTEL_SERVICE_NAME", "scoring"),
        ])
        .expect("on");
        assert_eq!(traces.endpoint, "http://t/spans");
        assert_eq!(traces.service_name, "scoring");
        for off in [
            ("OTEL_TRACES_EXPORTER", "none"),
            ("OTEL_SDK_DISABLED", "true"),
        ] {
            assert_eq!(
                of(&[("OTEL_EXPORTER_OTLP_ENDPOINT", "http://c:4318"), off]),
                None
            );
        }
    }
}
