//! The wallet that issued a statement, as the statement model records it ([`Provider`]: the
//! wallet's id, e.g. `"airtel-money-ug"`), and the ISO 4217 minor-unit exponents of currencies.
//! What the engine knows of each wallet (its country, currency, time zone, readers, rules,
//! integrity profile) lives in that wallet's own place, found by this id in the registry
//! (`crate::wallets`).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

/// The wallet that issued a statement: its id as the canonical JSON writes it (`"mpesa"`,
/// `"airtel-money-ug"`, `"vodacom-mpesa-ls"`, `"mtn-momo-gh"`, or one of the generic ids
/// `"mtn-momo"`, `"airtel-money"`, `"other"` of statements handed in through the canonical
/// form). The registry (`crate::wallets::find`) lists the ids the engine knows; reading a
/// statement with another id is an error there, not here.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Provider(Cow<'static, str>);

impl Provider {
    /// The id a statement without one is read with: the canonical form was Safaricom
    /// M-Pesa's before other wallets were read, so its older JSON carries no provider.
    pub const DEFAULT_ID: &'static str = "mpesa";

    /// The provider of id `id` (a wallet's own constant).
    pub const fn new(id: &'static str) -> Self {
        Provider(Cow::Borrowed(id))
    }

    /// The provider of an id read at run time (a binding's argument, a JSON value).
    pub fn from_id(id: impl Into<String>) -> Self {
        Provider(Cow::Owned(id.into()))
    }

    /// The id, e.g. `"mpesa"`.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Default for Provider {
    fn default() -> Self {
        Provider::new(Self::DEFAULT_ID)
    }
}

impl std::fmt::Display for Provider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl PartialEq<str> for Provider {
    fn eq(&self, other: &str) -> bool {
        self.0 == other
    }
}

/// The ISO 4217 minor-unit exponent of a currency code (`"KES"` → 2, `"UGX"` → 0); `None` for a
/// code the engine does not know. The table is a money rule and lives in
/// [`crate::money::currency_exponent`] (the source is named there).
pub fn currency_exponent(code: &str) -> Option<u32> {
    crate::money::currency_exponent(code)
}

#[cfg(test)]
mod wallet_tests {
    use super::*;
    use crate::statement::{Statement, Transaction};

    /// The id is written as the bare string, and a statement without one reads as the default.
    #[test]
    fn the_id_is_the_json_value() {
        let p = Provider::new("airtel-money-ug");
        assert_eq!(
            serde_json::to_string(&p).ok().as_deref(),
            Some("\"airtel-money-ug\"")
        );
        let read: Provider = serde_json::from_str("\"other\"").unwrap_or_default();
        assert_eq!(read, Provider::from_id("other"));
        assert_eq!(Provider::default().as_str(), "mpesa");
        assert_eq!(currency_exponent("UGX"), Some(0));
        assert_eq!(currency_exponent("GHS"), Some(2));
    }

    /// A row without the wallet fields writes no key for them: Kenyan JSON is unchanged.
    #[test]
    fn absent_wallet_fields_are_left_out_of_json() {
        let json = serde_json::to_string(&Transaction::empty()).unwrap_or_default();
        for key in ["transactionType", "fee", "tax", "balanceBefore"] {
            assert!(!json.contains(key), "{json}");
        }
        let statement = serde_json::to_string(&Statement::default()).unwrap_or_default();
        for key in ["country", "timeZone", "balances"] {
            assert!(!statement.contains(key), "{statement}");
        }
    }
}
