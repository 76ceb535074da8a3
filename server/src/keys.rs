//! API keys: format, checksum, hashing, and the environments they belong to.
//!
//! A key is `alama_sk_<environment>_<32 random base62><6 base62 checksum>`, for example
//! `alama_sk_sandbox_…`. The checksum is the first 32 bits of SHA-256 over everything before it,
//! in base62, so a secret scanner or the server can reject a mistyped key without a lookup.
//! The random part has about 190 bits of entropy; the key is stored only as its SHA-256 (a slow
//! password hash buys nothing for a secret this long) and shown once, at creation.

use std::fmt;

use rand::RngExt;
use rand::distr::Alphanumeric;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// Every key starts with this.
pub const KEY_PREFIX: &str = "alama_sk_";

const RANDOM_LEN: usize = 32;
const CHECKSUM_LEN: usize = 6;
const BASE62: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/// Sandbox or Live. Every resource belongs to exactly one.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    clap::ValueEnum,
    utoipa::ToSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Environment {
    /// Test traffic: free, consent optional, no Live-only endpoints.
    Sandbox,
    /// Production traffic.
    Live,
}

impl Environment {
    /// `"sandbox"` or `"live"`, as stored and as written in keys.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Sandbox => "sandbox",
            Self::Live => "live",
        }
    }

    /// Parses `"sandbox"` / `"live"`.
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "sandbox" => Some(Self::Sandbox),
            "live" => Some(Self::Live),
            _ => None,
        }
    }
}

impl fmt::Display for Environment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a bearer token is not a well-formed key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyFormatError {
    /// No `alama_sk_sandbox_` / `alama_sk_live_` prefix.
    Prefix,
    /// Wrong length or a character outside base62.
    Shape,
    /// The checksum does not match: a typo or a truncated key.
    Checksum,
}

impl fmt::Display for KeyFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Prefix => "the key does not start with alama_sk_sandbox_ or alama_sk_live_",
            Self::Shape => "the key has the wrong length or characters",
            Self::Checksum => "the key's checksum does not match (mistyped or truncated key?)",
        })
    }
}

/// A new random key of `environment` (shown once, then only its [`hash`] is kept).
pub fn generate(environment: Environment) -> String {
    let random: String = rand::rng()
        .sample_iter(Alphanumeric)
        .take(RANDOM_LEN)
        .map(char::from)
        .collect();
    let body = format!("{KEY_PREFIX}{}_{random}", environment.as_str());
    let sum = checksum(&body);
    format!("{body}{sum}")
}

/// The 6-character base62 checksum of `body` (the key without its last 6 characters).
pub fn checksum(body: &str) -> String {
    let digest = Sha256::digest(body.as_bytes());
    let mut n = u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]);
    let mut out = [b'0'; CHECKSUM_LEN];
    for slot in out.iter_mut().rev() {
        *slot = BASE62[(n % 62) as usize];
        n /= 62;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Checks a bearer token's prefix, shape and checksum (no database), returning its environment.
///
/// # Errors
/// [`KeyFormatError`] naming what is wrong.
pub fn parse(token: &str) -> Result<Environment, KeyFormatError> {
    let rest = token
        .strip_prefix(KEY_PREFIX)
        .ok_or(KeyFormatError::Prefix)?;
    let (environment, tail) = rest.split_once('_').ok_or(KeyFormatError::Prefix)?;
    let environment = Environment::parse(environment).ok_or(KeyFormatError::Prefix)?;
    if tail.len() != RANDOM_LEN + CHECKSUM_LEN || !tail.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return Err(KeyFormatError::Shape);
    }
    let (body, sum) = token.split_at(token.len() - CHECKSUM_LEN);
    if checksum(body) != sum {
        return Err(KeyFormatError::Checksum);
    }
    Ok(environment)
}

/// The stored form of a key: lowercase hex SHA-256 of the whole token.
pub fn hash(token: &str) -> String {
    crate::ids::hex(&Sha256::digest(token.as_bytes()))
}

/// What `keys list` shows of a key: its prefix and the first 4 random characters.
pub fn hint(token: &str) -> String {
    let keep = token
        .find('_')
        .and_then(|_| token.rfind('_'))
        .map_or(0, |i| i + 1 + 4);
    format!("{}…", &token[..keep.min(token.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_keys_parse_and_carry_their_environment() {
        for env in [Environment::Sandbox, Environment::Live] {
            let key = generate(env);
            assert!(key.starts_with(&format!("alama_sk_{env}_")));
            assert_eq!(parse(&key), Ok(env));
            assert_eq!(hash(&key).len(), 64);
            assert_ne!(generate(env), key);
        }
    }

    #[test]
    fn typos_fail_the_checksum() {
        let key = generate(Environment::Live);
        let mut chars: Vec<char> = key.chars().collect();
        let i = KEY_PREFIX.len() + 6;
        chars[i] = if chars[i] == 'a' { 'b' } else { 'a' };
        let typo: String = chars.into_iter().collect();
        assert_eq!(parse(&typo), Err(KeyFormatError::Checksum));
        assert_eq!(parse(&key[..key.len() - 1]), Err(KeyFormatError::Shape));
        assert_eq!(parse("sk_live_x"), Err(KeyFormatError::Prefix));
        assert_eq!(
            parse(&key.replace("alama_sk_live_", "alama_sk_test_")),
            Err(KeyFormatError::Prefix)
        );
        assert_eq!(
            parse(&key.replace("alama_sk_live_", "alama_sk_sandbox_")),
            Err(KeyFormatError::Checksum)
        );
    }

    #[test]
    fn hint_shows_prefix_and_four_characters() {
        let key = generate(Environment::Sandbox);
        let hint = hint(&key);
        assert!(hint.starts_with("alama_sk_sandbox_"));
        assert_eq!(hint.chars().count(), "alama_sk_sandbox_".len() + 5);
    }
}
