//! Throttling failed sign-ins with growing delays (OWASP Authentication Cheat Sheet, "Protect
//! against automated attacks": delays that grow with each failure instead of a lock that anyone
//! who knows an email could use to keep its owner out).
//!
//! Failures are recorded in the database (`portal_signin_failures`, so every replica sees them)
//! under three subjects, each with its own allowance of failures without delay in the last
//! [`WINDOW_MS`]:
//!
//! - the account from one client address (`pair:ADDR|EMAIL`, [`FREE_PER_PAIR`]): a guesser
//!   slows down, the owner signing in from elsewhere does not notice;
//! - the client address over all accounts (`addr:ADDR`, [`FREE_PER_ADDRESS`]): password
//!   spraying from one address;
//! - the account over all addresses (`email:EMAIL`, [`FREE_PER_ACCOUNT`]): a guesser spread over
//!   many addresses. One address cannot reach it (its own delays hold it to about a dozen
//!   failures per window), so only an attack from several addresses (IPv6 counted by /64) can
//!   slow the owner down, and then by a delay, not a lock.
//!
//! Past a subject's allowance, the next attempt must wait `1 s × 2^(failures − allowance)`
//! after the last failure, at most [`MAX_DELAY_MS`]; an attempt too early is answered `429`
//! with `Retry-After` before the password is checked (so it adds no failure). An attempt let
//! through is recorded as a failure *before* its password is checked ([`attempt`]; the check and
//! the record under one lock per process) and forgiven when the password is right
//! ([`succeeded`]), so that a burst of parallel attempts cannot all slip through while the
//! first ones are still being hashed (across PostgreSQL replicas, at most one per replica can
//! slip through at a time). Addresses are
//! [`crate::client_ip`]'s (the real client behind trusted proxies).

use super::PortalError;
use crate::storage::Storage;

/// Failed sign-ins are counted over the last 15 minutes.
pub const WINDOW_MS: i64 = 15 * 60 * 1000;
/// Failures of one account from one address before delays start.
pub const FREE_PER_PAIR: i64 = 3;
/// Failures from one address (all accounts) before delays start.
pub const FREE_PER_ADDRESS: i64 = 20;
/// Failures of one account (all addresses) before delays start.
pub const FREE_PER_ACCOUNT: i64 = 100;
/// The first delay; each further failure doubles it.
pub const FIRST_DELAY_MS: i64 = 1000;
/// The longest delay: the window.
pub const MAX_DELAY_MS: i64 = WINDOW_MS;

/// Held while an attempt is checked and recorded: parallel attempts see each other's records.
static BOOKKEEPING: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The wait after the last of `failures` failures with `free` of them allowed without delay.
pub fn delay_ms(failures: i64, free: i64) -> i64 {
    if failures < free {
        return 0;
    }
    let doublings = u32::try_from(failures - free).unwrap_or(u32::MAX).min(20);
    (FIRST_DELAY_MS << doublings).min(MAX_DELAY_MS)
}

/// The subjects of a sign-in of `email` (lowercased) from `addr` (`addr:IP`), with their
/// allowances.
pub fn subjects(email: &str, addr: &str) -> [(String, i64); 3] {
    [
        (format!("pair:{addr}|{email}"), FREE_PER_PAIR),
        (addr.to_owned(), FREE_PER_ADDRESS),
        (format!("email:{email}"), FREE_PER_ACCOUNT),
    ]
}

/// Refuses an attempt at `now` (ms) while any of `subjects` is in its delay.
///
/// # Errors
/// [`PortalError::Throttled`] with the seconds to wait; database errors.
pub async fn check(
    storage: &Storage,
    subjects: &[(String, i64)],
    now: i64,
) -> Result<(), PortalError> {
    let mut wait_ms = 0;
    for (subject, free) in subjects {
        let (failures, last) = storage
            .signin_failure_stats(subject, now - WINDOW_MS)
            .await?;
        if let Some(last) = last {
            wait_ms = wait_ms.max(last + delay_ms(failures, *free) - now);
        }
    }
    if wait_ms > 0 {
        let seconds = u64::try_from(wait_ms).unwrap_or(1).div_ceil(1000).max(1);
        return Err(PortalError::Throttled(seconds));
    }
    Ok(())
}

/// Lets an attempt at `now` through unless one of `subjects` is in its delay, recording it as
/// a failure of each until [`succeeded`] says otherwise.
///
/// # Errors
/// [`PortalError::Throttled`] with the seconds to wait; database errors.
pub async fn attempt(
    storage: &Storage,
    subjects: &[(String, i64)],
    now: i64,
) -> Result<(), PortalError> {
    let _one_at_a_time = BOOKKEEPING.lock().await;
    check(storage, subjects, now).await?;
    for (subject, _) in subjects {
        storage
            .record_signin_failure(subject, now, now - WINDOW_MS)
            .await?;
    }
    Ok(())
}

/// The attempt at `now` had the right password: its failure records go, and the account from
/// this address (the first subject) starts afresh; what other addresses did stays.
///
/// # Errors
/// Database errors.
pub async fn succeeded(
    storage: &Storage,
    subjects: &[(String, i64)],
    now: i64,
) -> Result<(), PortalError> {
    for (i, (subject, _)) in subjects.iter().enumerate() {
        if i == 0 {
            storage.clear_signin_failures(subject).await?;
        } else {
            storage.forget_signin_failure(subject, now).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delays_start_after_the_allowance_and_double_up_to_the_window() {
        assert_eq!(delay_ms(0, 3), 0);
        assert_eq!(delay_ms(2, 3), 0);
        assert_eq!(delay_ms(3, 3), 1000);
        assert_eq!(delay_ms(4, 3), 2000);
        assert_eq!(delay_ms(5, 3), 4000);
        assert_eq!(delay_ms(12, 3), 512_000);
        assert_eq!(delay_ms(13, 3), MAX_DELAY_MS);
        assert_eq!(delay_ms(i64::MAX, 0), MAX_DELAY_MS);
    }
}
