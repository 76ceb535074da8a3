//! The canonical JSON statement: the serde form of [`Statement`] (camelCase keys, amounts as
//! decimal strings, times as ISO 8601 local times). This is how bindings and other wallets
//! (`MTN MoMo`, Airtel Money) hand statements in.

use crate::error::{Error, Result};
use crate::statement::Statement;

/// Parses the canonical JSON statement.
///
/// # Errors
/// `ErrorKind::Malformed` (with the JSON line) when the JSON is invalid or not a statement,
/// including amounts given as JSON floats (money must be decimal strings).
pub fn parse(bytes: &[u8]) -> Result<Statement> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    serde_json::from_slice(bytes).map_err(|e| {
        Error::malformed(
            0,
            u32::try_from(e.line()).unwrap_or(u32::MAX),
            format!("not a canonical JSON statement: {e}"),
        )
    })
}

/// Writes the canonical JSON statement (compact).
pub fn write(statement: &Statement) -> String {
    serde_json::to_string(statement).unwrap_or_default()
}
