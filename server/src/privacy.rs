//! Personal data in the service: the holder's name is stored masked (as the phone number
//! already is), and a background job applies the retention period (default 90 days): reports
//! are erased, ended consents and old request logs deleted, with usage counts kept (see
//! [`crate::storage::Storage::apply_retention`]). Erasure on request is
//! `DELETE /v1/scores/{reportId}` and `POST /v1/consents/{id}/revoke` with
//! `{"eraseReports": true}`, which also replaces the customer's name and phone number on the
//! consent by their [`customer_fingerprint`].

use std::time::Duration;

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
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

/// The keyed fingerprint an erased consent keeps of the customer's identifiers given at
/// consent: `v1:` + hex HMAC-SHA256 under `key` (the server's fingerprint key) of the name
/// (words joined by one space, lowercased) and the phone number (its digits only), each marked
/// as given or not; `None` when neither was given (nothing to erase). A claim ("this customer,
/// with this name and number, agreed") is checked by fingerprinting its identifiers the same
/// way (`POST /v1/consents/{consentId}/verify-customer`); without the key the fingerprint
/// tells nothing, not even which of a small set of phone numbers it is (Kenya's Data Protection
/// Act 2019, s. 32(1): the controller and processor bear the burden of proving consent; s. 25:
/// no more personal data than the purpose needs).
pub fn customer_fingerprint(key: &[u8], name: Option<&str>, phone: Option<&str>) -> Option<String> {
    if name.is_none() && phone.is_none() {
        return None;
    }
    // HMAC takes a key of any length.
    let mut mac = Hmac::<Sha256>::new_from_slice(key).ok()?;
    mac.update(b"alama customer fingerprint v1\0");
    if let Some(name) = name {
        let words: Vec<String> = name.split_whitespace().map(str::to_lowercase).collect();
        mac.update(b"name\0");
        mac.update(words.join(" ").as_bytes());
        mac.update(b"\0");
    }
    if let Some(phone) = phone {
        let digits: String = phone.chars().filter(char::is_ascii_digit).collect();
        mac.update(b"phone\0");
        mac.update(digits.as_bytes());
        mac.update(b"\0");
    }
    Some(format!(
        "v1:{}",
        crate::ids::hex(&mac.finalize().into_bytes())
    ))
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
    fn customer_fingerprints_are_keyed_and_read_the_identifiers_loosely() {
        let key = b"0123456789abcdef0123456789abcdef";
        let given = customer_fingerprint(key, Some("Wanjiku  Mwangi"), Some("+254 700 000 123"));
        let claimed = customer_fingerprint(key, Some("wanjiku mwangi "), Some("254700000123"));
        assert!(
            given
                .as_ref()
                .is_some_and(|f| f.starts_with("v1:") && f.len() == 67)
        );
        assert_eq!(given, claimed);
        // Another name or number, the number alone, or another key: another fingerprint.
        for other in [
            customer_fingerprint(key, Some("Wanjiku Mwangi"), Some("+254 700 000 124")),
            customer_fingerprint(key, Some("Wanjiru Mwangi"), Some("+254 700 000 123")),
            customer_fingerprint(key, None, Some("+254 700 000 123")),
            customer_fingerprint(
                b"another key",
                Some("Wanjiku Mwangi"),
                Some("+254 700 000 123"),
            ),
        ] {
            assert!(other.is_some() && other != given);
        }
        // The fingerprint does not hold the identifiers.
        let text = given.unwrap_or_default();
        assert!(!text.contains("254700000123") && !text.to_lowercase().contains("wanjiku"));
        assert_eq!(customer_fingerprint(key, None, None), None);
    }

    #[test]
    fn names_are_masked_word_by_word() {
        assert_eq!(mask_name("JOHN KAMAU DOE"), "J*** K**** D**");
        assert_eq!(mask_name("  Wanjirũ  "), "W******");
        assert_eq!(mask_name(""), "");
    }
}
