//! Identifiers and timestamps.
//!
//! Ids are a type prefix and a lowercase ULID (`rpt_01j…`, `cns_…`, `key_…`, `ptn_…`, `req_…`):
//! unique across replicas, sortable by creation time, and meaningless to anyone who guesses.
//! Times are stored as milliseconds since the Unix epoch (UTC) and shown as RFC 3339 UTC.

use std::time::{SystemTime, UNIX_EPOCH};

use chrono::{DateTime, SecondsFormat};
use ulid::Ulid;

/// A new id: `prefix` + `_` + a lowercase ULID (26 characters).
pub fn new_id(prefix: &str) -> String {
    format!(
        "{prefix}_{}",
        Ulid::generate().to_string().to_ascii_lowercase()
    )
}

/// Lowercase hex of `bytes` (digests).
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes
        .iter()
        .fold(String::with_capacity(bytes.len() * 2), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        })
}

/// Milliseconds since the Unix epoch, UTC.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// `2026-11-22T10:15:30.123Z` for milliseconds since the epoch.
pub fn rfc3339(ms: i64) -> String {
    DateTime::from_timestamp_millis(ms)
        .map(|t| t.to_rfc3339_opts(SecondsFormat::Millis, true))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_have_prefix_and_ulid() {
        let id = new_id("rpt");
        assert!(id.starts_with("rpt_"));
        assert_eq!(id.len(), 4 + 26);
        assert!(
            id[4..]
                .bytes()
                .all(|b| b.is_ascii_digit() || b.is_ascii_lowercase())
        );
    }

    #[test]
    fn rfc3339_is_utc_with_millis() {
        assert_eq!(rfc3339(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(rfc3339(1_700_000_000_123), "2023-11-14T22:13:20.123Z");
    }
}
