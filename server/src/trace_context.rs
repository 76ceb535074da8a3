//! W3C Trace Context: the `traceparent` a caller sends, read and continued
//! (<https://www.w3.org/TR/trace-context/>). A plain type under the logs, the OpenTelemetry
//! export and the webhook deliveries, which all carry the caller's trace.
//!
//! Only `traceparent` is carried: a caller's `tracestate` (vendor-specific entries the
//! recommendation lets a participant pass on) is not stored with webhook events nor sent on
//! deliveries, so nothing a caller puts in it is kept in the database. A decision, not an
//! oversight.

/// A valid W3C Trace Context `traceparent` (version `00`: `00-<32 hex trace id>-<16 hex parent
/// id>-<2 hex flags>`, lowercase, neither id all zeros;
/// <https://www.w3.org/TR/trace-context/#traceparent-header>).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceParent {
    /// 32 lowercase hex digits.
    pub trace_id: String,
    /// 16 lowercase hex digits: the caller's span.
    pub parent_id: String,
    /// 2 lowercase hex digits (`01`: sampled).
    pub flags: String,
}

impl TraceParent {
    /// `value` read as a `traceparent`, or `None` when it is not a valid one (an invalid header
    /// is ignored, as the recommendation asks).
    #[must_use]
    pub fn parse(value: &str) -> Option<Self> {
        let mut parts = value.trim().split('-');
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
        .then(|| Self {
            trace_id: trace.to_owned(),
            parent_id: parent.to_owned(),
            flags: flags.to_owned(),
        })
    }

    /// The `traceparent` header of a request, if valid.
    #[must_use]
    pub fn of(headers: &axum::http::HeaderMap) -> Option<Self> {
        Self::parse(headers.get("traceparent")?.to_str().ok()?)
    }

    /// The same trace and flags under a new, random parent id (a span of ours: a webhook
    /// delivery), as a callee's outgoing request does.
    #[must_use]
    pub fn child(&self) -> Self {
        let mut id: u64 = 0;
        while id == 0 {
            id = rand::random();
        }
        Self {
            parent_id: format!("{id:016x}"),
            ..self.clone()
        }
    }
}

impl std::fmt::Display for TraceParent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "00-{}-{}-{}", self.trace_id, self.parent_id, self.flags)
    }
}

/// The trace id of a valid `traceparent` header ([`TraceParent`]), else `None`.
pub fn trace_id(headers: &axum::http::HeaderMap) -> Option<String> {
    TraceParent::of(headers).map(|t| t.trace_id)
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

    #[test]
    fn a_child_keeps_the_trace_and_flags() {
        let parent = TraceParent::parse("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
            .expect("valid");
        let child = parent.child();
        assert_eq!(child.trace_id, parent.trace_id);
        assert_eq!(child.flags, "01");
        assert_ne!(child.parent_id, parent.parent_id);
        assert_eq!(TraceParent::parse(&child.to_string()), Some(child));
    }
}
