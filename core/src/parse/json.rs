//! The canonical JSON statement: the serde form of [`Statement`] (camelCase keys, amounts as
//! decimal strings, times as ISO 8601 local times). This is how bindings and other wallets
//! (`MTN MoMo`, Airtel Money) hand statements in.

use crate::error::{Error, Result};
use crate::statement::Statement;

/// Parses the canonical JSON statement.
///
/// # Errors
/// `ErrorKind::Malformed` (with the JSON line) when the JSON is invalid or not a statement,
/// including amounts given as JSON floats (money must be decimal strings), and a
/// `currencyExponent` other than ISO 4217's for a known currency (`"UGX"` with 2).
pub fn parse(bytes: &[u8]) -> Result<Statement> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let statement: Statement = serde_json::from_slice(bytes).map_err(|e| {
        Error::malformed(
            0,
            u32::try_from(e.line()).unwrap_or(u32::MAX),
            format!("not a canonical JSON statement: {e}"),
        )
    })?;
    let iso = crate::statement::currency_exponent(statement.currency.trim());
    if let (Some(given), Some(iso)) = (statement.currency_exponent, iso)
        && given != iso
    {
        return Err(Error::malformed(
            0,
            0,
            format!(
                "currencyExponent {given} is not {}'s ISO 4217 exponent {iso}",
                statement.currency.trim()
            ),
        ));
    }
    Ok(statement)
}

/// Writes the canonical JSON statement (compact).
pub fn write(statement: &Statement) -> String {
    serde_json::to_string(statement).unwrap_or_default()
}
