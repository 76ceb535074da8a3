//! Personal data in the service: the holder's name is stored masked (as the phone number
//! already is), and a background job applies the retention period (default 90 days): reports
//! are erased, ended consents and old request logs deleted, with usage counts kept (see
//! [`crate::storage::Storage::apply_retention`]). Erasure on request is
//! `DELETE /v1/scores/{reportId}` and `POST /v1/consents/{id}/revoke` with
//! `{"eraseReports": true}`.

use std::time::Duration;

use tokio::task::JoinHandle;

use crate::ids::now_ms;
use crate::storage::Storage;

/// `"JOHN KAMAU DOE"` → `"J*** K**** D**"`: the first letter of each word, then one `*` per
/// further character.
pub fn mask_name(name: &str) -> String {
    name.split_whitespace()
        .map(|word| {
            let mut chars = word.chars();
            chars.next().map_or_else(String::new, |first| {
                std::iter::once(first)
                    .chain(chars.map(|_| '*'))
                    .collect::<String>()
            })
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Masks the holder name of `report` in place.
pub fn mask_report(report: &mut alama_core::Report) {
    if let Some(name) = report.statement.holder_name.take() {
        report.statement.holder_name = Some(mask_name(&name));
    }
}

/// Runs a retention pass now and then every `every`, erasing and deleting what is older than
/// `retention`. Errors are logged and the next pass tries again.
pub fn spawn_retention(
    storage: Storage,
    metrics: std::sync::Arc<crate::metrics::Metrics>,
    retention: Duration,
    every: Duration,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let retention_ms = i64::try_from(retention.as_millis()).unwrap_or(i64::MAX);
        loop {
            let now = now_ms();
            match storage
                .apply_retention(now.saturating_sub(retention_ms), now)
                .await
            {
                Ok(done) => {
                    metrics.retention_deleted("reports", done.reports);
                    metrics.retention_deleted("consents", done.consents);
                    metrics.retention_deleted("requests", done.requests);
                    tracing::info!(
                        reports = done.reports,
                        consents = done.consents,
                        requests = done.requests,
                        "retention pass"
                    );
                }
                Err(e) => tracing::warn!(error = %e, "retention pass failed"),
            }
            tokio::time::sleep(every.max(Duration::from_secs(1))).await;
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_masked_word_by_word() {
        assert_eq!(mask_name("JOHN KAMAU DOE"), "J*** K**** D**");
        assert_eq!(mask_name("  Wanjirũ  "), "W******");
        assert_eq!(mask_name(""), "");
    }
}
