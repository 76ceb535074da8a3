//! Portal passwords: Argon2id (RFC 9106) with the `argon2` crate's defaults (19 MiB, 2 passes,
//! 1 lane: OWASP's Password Storage Cheat Sheet minimum) and a random 16-byte salt, PHC strings
//! in `portal_users.password_hash`, at least [`MIN_PASSWORD`] characters. Hashing runs on the
//! blocking pool. An unknown email is checked against a dummy hash, so timing does not tell
//! which emails exist.

use std::sync::OnceLock;

use argon2::password_hash::SaltString;
use argon2::{Argon2, PasswordHash, PasswordHasher, PasswordVerifier};

use super::PortalError;

/// Shortest password accepted.
pub const MIN_PASSWORD: usize = 12;
/// Longest password accepted (bounds hashing work).
pub const MAX_PASSWORD: usize = 1024;
/// Hashes `password` with Argon2id and a random salt (a PHC string).
///
/// # Errors
/// [`PortalError::Internal`] if hashing fails (it does not with these parameters).
pub fn hash_password(password: &str) -> Result<String, PortalError> {
    let mut bytes = [0u8; 16];
    rand::Rng::fill_bytes(&mut rand::rng(), &mut bytes);
    let salt = SaltString::encode_b64(&bytes)
        .map_err(|e| PortalError::Internal(format!("password salt: {e}")))?;
    Argon2::default()
        .hash_password(password.as_bytes(), &salt)
        .map(|h| h.to_string())
        .map_err(|e| PortalError::Internal(format!("password hashing failed: {e}")))
}

/// Whether `password` matches the PHC string `hash`.
pub fn verify_password(password: &str, hash: &str) -> bool {
    PasswordHash::new(hash).is_ok_and(|h| {
        Argon2::default()
            .verify_password(password.as_bytes(), &h)
            .is_ok()
    })
}

fn dummy_hash() -> &'static str {
    static DUMMY: OnceLock<String> = OnceLock::new();
    DUMMY.get_or_init(|| hash_password("not a password of anyone").unwrap_or_default())
}

/// [`verify_password`] on the blocking pool; a user without a password is checked against a
/// dummy hash (same work) and fails.
pub(super) async fn verify_blocking(password: String, hash: Option<String>) -> bool {
    tokio::task::spawn_blocking(move || {
        if let Some(h) = hash {
            verify_password(&password, &h)
        } else {
            let _ = verify_password(&password, dummy_hash());
            false
        }
    })
    .await
    .unwrap_or(false)
}

/// [`hash_password`] on the blocking pool.
pub(super) async fn hash_blocking(password: String) -> Result<String, PortalError> {
    tokio::task::spawn_blocking(move || hash_password(&password))
        .await
        .map_err(|e| PortalError::Internal(e.to_string()))?
}

/// Why a new password is refused, if it is.
pub fn password_problem(password: &str, confirm: &str) -> Option<String> {
    let n = password.chars().count();
    if n < MIN_PASSWORD {
        Some(format!(
            "The password needs at least {MIN_PASSWORD} characters."
        ))
    } else if password.len() > MAX_PASSWORD {
        Some(format!(
            "The password can have at most {MAX_PASSWORD} bytes."
        ))
    } else if password != confirm {
        Some("The two passwords differ.".to_owned())
    } else {
        None
    }
}
