//! Throttling failed authentication per client address ([`crate::client_ip`]): after `limit`
//! failed attempts (no, malformed, unknown or revoked key) from one address within a minute,
//! its further failures are answered `429 auth_throttled` with `Retry-After` until the minute
//! is over, instead of `401`. Requests with a valid key are never refused by it (see
//! [`crate::auth`]), and successful requests do not count.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::error::ApiError;

/// The window failures are counted in.
const WINDOW: Duration = Duration::from_mins(1);
/// Addresses tracked before expired windows are swept.
const SWEEP_AT: usize = 10_000;

/// Failed-authentication counters per source address (fixed one-minute windows).
#[derive(Debug)]
pub struct AuthThrottle {
    limit: u32,
    windows: Mutex<HashMap<IpAddr, (Instant, u32)>>,
}

impl AuthThrottle {
    /// At most `limit` failures a minute per address (0 turns throttling off).
    pub fn new(limit: u32) -> Self {
        Self {
            limit,
            windows: Mutex::new(HashMap::new()),
        }
    }

    /// Refuses a failure from `ip` while `ip` is over its failures.
    ///
    /// # Errors
    /// `auth_throttled` (429) with `Retry-After`.
    pub fn check(&self, ip: IpAddr) -> Result<(), ApiError> {
        if self.limit == 0 {
            return Ok(());
        }
        let Ok(windows) = self.windows.lock() else {
            return Ok(());
        };
        match windows.get(&ip) {
            Some((start, count)) if *count >= self.limit && start.elapsed() < WINDOW => {
                let left = WINDOW.saturating_sub(start.elapsed());
                let seconds = left.as_secs() + u64::from(left.subsec_nanos() > 0);
                Err(ApiError::new(
                    "auth_throttled",
                    format!(
                        "too many requests with a missing or invalid API key from this address; \
                         retry in {seconds} s"
                    ),
                )
                .retry_after(seconds.max(1)))
            }
            _ => Ok(()),
        }
    }

    /// Counts a failed authentication from `ip`.
    pub fn failed(&self, ip: IpAddr) {
        if self.limit == 0 {
            return;
        }
        let Ok(mut windows) = self.windows.lock() else {
            return;
        };
        if windows.len() >= SWEEP_AT {
            windows.retain(|_, (start, _)| start.elapsed() < WINDOW);
        }
        let entry = windows.entry(ip).or_insert((Instant::now(), 0));
        if entry.0.elapsed() >= WINDOW {
            *entry = (Instant::now(), 0);
        }
        entry.1 = entry.1.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_address_is_refused_after_its_failures_and_others_are_not() {
        let throttle = AuthThrottle::new(3);
        let a: IpAddr = [10, 0, 0, 1].into();
        let b: IpAddr = [10, 0, 0, 2].into();
        for _ in 0..3 {
            assert!(throttle.check(a).is_ok());
            throttle.failed(a);
        }
        let e = throttle.check(a).unwrap_err();
        assert_eq!(e.code(), "auth_throttled");
        assert_eq!(e.status().as_u16(), 429);
        assert!(throttle.check(b).is_ok());
        assert!(AuthThrottle::new(0).check(a).is_ok());
    }
}
