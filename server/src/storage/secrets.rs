//! Secrets of the service itself (table `server_secrets`), generated once and shared by every
//! replica on the same database.

use super::{Result, Storage, StorageError};
use crate::ids::{hex, now_ms};

impl Storage {
    /// The secret `name`: 32 random bytes generated and stored by the first server that asks
    /// (replicas racing on first start all read the winner's value).
    ///
    /// # Errors
    /// [`StorageError`] on database errors, or `Corrupt` if the stored value is not hex.
    pub async fn server_secret(&self, name: &str) -> Result<Vec<u8>> {
        let mut candidate = [0u8; 32];
        rand::Rng::fill_bytes(&mut rand::rng(), &mut candidate);
        sqlx::query(
            "INSERT INTO server_secrets (name, value, created_at) VALUES ($1, $2, $3) \
             ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(hex(&candidate))
        .bind(now_ms())
        .execute(self.pool())
        .await?;
        let value: String = sqlx::query_scalar("SELECT value FROM server_secrets WHERE name = $1")
            .bind(name)
            .fetch_one(self.pool())
            .await?;
        unhex(&value).ok_or_else(|| StorageError::Corrupt(format!("server secret {name}")))
    }
}

/// Bytes of lowercase or uppercase hex `text`; `None` if it is not hex of whole bytes.
pub(crate) fn unhex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn hex_round_trips() {
        assert_eq!(super::unhex("00ff10").as_deref(), Some(&[0, 255, 16][..]));
        assert_eq!(super::unhex("0"), None);
        assert_eq!(super::unhex("zz"), None);
    }
}
