//! Per-partner policies, set with `alama keys policy --partner NAME …`.

use serde_json::{Value, json};

/// What to do with a statement whose integrity verdict is `failed` (a critical finding: rows
/// or pages missing against the statement's SUMMARY or footer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum IntegrityPolicy {
    /// Complete the report (billable); the verdict is in `integrity.status`. The default.
    #[default]
    #[value(name = "accept")]
    Accept,
    /// End the report `failed` with code `integrity_failed` (not billable); the verdict and
    /// findings are still shown on the report.
    #[value(name = "reject_failed")]
    RejectFailed,
}

impl IntegrityPolicy {
    /// The stored and displayed name: `accept` or `reject_failed`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Accept => "accept",
            Self::RejectFailed => "reject_failed",
        }
    }

    /// The policy named `text`; unknown names are `None`.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "accept" => Some(Self::Accept),
            "reject_failed" => Some(Self::RejectFailed),
            _ => None,
        }
    }

    /// Whether `report` must be rejected under this policy.
    pub fn rejects(self, report: &alama_core::Report) -> bool {
        self.rejects_integrity(&report.integrity)
    }

    /// Whether a report (or an application's report) of `integrity` must be rejected.
    pub fn rejects_integrity(self, integrity: &alama_core::report::Integrity) -> bool {
        self == Self::RejectFailed && failed(integrity)
    }
}

/// Whether the engine's verdict is `failed` (or any finding is critical).
pub fn integrity_failed(report: &alama_core::Report) -> bool {
    failed(&report.integrity)
}

fn failed(integrity: &alama_core::report::Integrity) -> bool {
    integrity.status == "failed"
        || integrity
            .findings
            .iter()
            .any(|f| f.severity == alama_core::Severity::Critical)
}

/// `{"status": …, "findings": [{code, severity, …}]}` of `report`, for problems and webhooks.
pub fn verdict(report: &alama_core::Report) -> Value {
    verdict_of(&report.integrity)
}

/// `{"status": …, "findings": […]}` of a report's or an application's `integrity`.
pub fn verdict_of(integrity: &alama_core::report::Integrity) -> Value {
    serde_json::to_value(integrity).unwrap_or_else(|_| json!({"status": integrity.status}))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for p in [IntegrityPolicy::Accept, IntegrityPolicy::RejectFailed] {
            assert_eq!(IntegrityPolicy::parse(p.as_str()), Some(p));
        }
        assert_eq!(IntegrityPolicy::parse("nope"), None);
        assert_eq!(IntegrityPolicy::default(), IntegrityPolicy::Accept);
    }
}
