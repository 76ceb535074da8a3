//! Admitting a request within the [`crate::limits`]: the per-key rate limit (a token bucket,
//! `429 rate_limited` with `Retry-After`) and the statement's type read from its content
//! (`415 unsupported_format`), each refusal an [`ApiError`]. Above the HTTP error; the limits
//! themselves are plain numbers below the storage.

use std::num::NonZeroU32;

use alama_core::Format;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};

use crate::error::ApiError;

/// Per-key token buckets (GCRA) in this process, used with SQLite (one server). With
/// PostgreSQL the bucket is shared by the replicas in the database
/// ([`crate::storage::Storage::take_shared_token`]), so the limit holds across them.
#[derive(Debug)]
pub struct RateLimiter {
    inner: DefaultKeyedRateLimiter<String>,
}

impl RateLimiter {
    /// Buckets of `per_minute` sustained requests and bursts of `burst` (both at least 1).
    pub fn new(per_minute: u32, burst: u32) -> Self {
        let rate = NonZeroU32::new(per_minute).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(burst).unwrap_or(NonZeroU32::MIN);
        Self {
            inner: governor::RateLimiter::keyed(Quota::per_minute(rate).allow_burst(burst)),
        }
    }

    /// Takes one token of `key_id`.
    ///
    /// # Errors
    /// `rate_limited` with `Retry-After` (whole seconds, at least 1) when the bucket is empty.
    pub fn check(&self, key_id: &str) -> Result<(), ApiError> {
        match self.inner.check_key(&key_id.to_owned()) {
            Ok(()) => Ok(()),
            Err(not_until) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                let seconds = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                Err(ApiError::new(
                    "rate_limited",
                    format!("this API key made too many requests; retry in {seconds} s"),
                )
                .retry_after(seconds.max(1)))
            }
        }
    }
}

/// The statement's format from its first bytes (the engine's detection): `%PDF-` → PDF, `{` →
/// JSON, delimited UTF-8 text → CSV.
///
/// # Errors
/// `unsupported_format` (415) for anything else: images, archives, office files, binaries.
pub fn sniff(bytes: &[u8]) -> Result<Format, ApiError> {
    alama_core::parse::detect(bytes).map_err(ApiError::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing_accepts_statements_and_refuses_other_files() {
        assert_eq!(sniff(b"%PDF-1.7\n").ok(), Some(Format::Pdf));
        assert_eq!(
            sniff(b"Receipt No,Completion Time\n").ok(),
            Some(Format::Csv)
        );
        assert_eq!(sniff(b"{\"transactions\":[]}").ok(), Some(Format::Json));
        for bad in [
            &b"\x89PNG\r\n\x1a\n\0\0"[..],
            b"PK\x03\x04zip",
            b"\xff\xd8\xff\xe0jpeg",
            b"",
        ] {
            let e = sniff(bad).unwrap_err();
            assert_eq!(e.code(), "unsupported_format");
            assert_eq!(e.status().as_u16(), 415);
        }
    }

    #[test]
    fn rate_limiter_refuses_after_burst_with_retry_after() {
        let limiter = RateLimiter::new(1, 2);
        assert!(limiter.check("k").is_ok());
        assert!(limiter.check("k").is_ok());
        let e = limiter.check("k").unwrap_err();
        assert_eq!(e.code(), "rate_limited");
        assert_eq!(e.status().as_u16(), 429);
        assert!(limiter.check("other").is_ok());
    }
}
