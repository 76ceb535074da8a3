//! The wallets the engine knows ([`Provider`]) with their country, currency and time zone,
//! and the ISO 4217 minor-unit exponents of their currencies.

use serde::{Deserialize, Serialize};

/// The wallet that issued a statement.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum Provider {
    /// Safaricom M-Pesa (Kenya). Source: Safaricom "M-PESA full statement" PDF and its exports.
    #[default]
    Mpesa,
    /// MTN Mobile Money of an unnamed country, handed in through the canonical JSON form.
    MtnMomo,
    /// Airtel Money of an unnamed country, handed in through the canonical JSON form.
    AirtelMoney,
    /// Any other wallet, handed in through the canonical JSON form.
    Other,
    /// Vodacom M-Pesa Lesotho (LSL, South Africa Standard Time). Source: the `M-Pesa Statement`
    /// PDF (`iText 2.1.7`), see docs/wallets.md.
    #[serde(rename = "vodacom-mpesa-ls")]
    VodacomMpesaLs,
    /// Airtel Money Uganda (UGX, East Africa Time). Source: the `AIRTEL MONEY STATEMENT` PDF
    /// (`wkhtmltopdf`), see docs/wallets.md.
    #[serde(rename = "airtel-money-ug")]
    AirtelMoneyUg,
    /// MTN MoMo Ghana (GHS, GMT). Source: MTN's statement spreadsheet as CSV (16 columns), see
    /// docs/wallets.md.
    #[serde(rename = "mtn-momo-gh")]
    MtnMomoGh,
}

impl Provider {
    /// Every provider, in declaration order.
    pub const ALL: [Provider; 7] = [
        Provider::Mpesa,
        Provider::MtnMomo,
        Provider::AirtelMoney,
        Provider::Other,
        Provider::VodacomMpesaLs,
        Provider::AirtelMoneyUg,
        Provider::MtnMomoGh,
    ];

    /// The wallet's name for people, e.g. `"Safaricom M-Pesa Kenya"`.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Mpesa => "Safaricom M-Pesa Kenya",
            Provider::MtnMomo => "MTN MoMo",
            Provider::AirtelMoney => "Airtel Money",
            Provider::Other => "another wallet",
            Provider::VodacomMpesaLs => "Vodacom M-Pesa Lesotho",
            Provider::AirtelMoneyUg => "Airtel Money Uganda",
            Provider::MtnMomoGh => "MTN MoMo Ghana",
        }
    }

    /// The wallet's country, ISO 3166-1 alpha-2 (`"KE"`), when the provider names one.
    pub fn country(self) -> Option<&'static str> {
        match self {
            Provider::Mpesa => Some("KE"),
            Provider::VodacomMpesaLs => Some("LS"),
            Provider::AirtelMoneyUg => Some("UG"),
            Provider::MtnMomoGh => Some("GH"),
            Provider::MtnMomo | Provider::AirtelMoney | Provider::Other => None,
        }
    }

    /// The ISO 4217 code of the wallet's currency (`"KES"`), when the provider names a country.
    pub fn currency(self) -> Option<&'static str> {
        match self {
            Provider::Mpesa => Some("KES"),
            Provider::VodacomMpesaLs => Some("LSL"),
            Provider::AirtelMoneyUg => Some("UGX"),
            Provider::MtnMomoGh => Some("GHS"),
            Provider::MtnMomo | Provider::AirtelMoney | Provider::Other => None,
        }
    }

    /// The IANA time zone of the wallet's country, in which its statements print times
    /// (`"Africa/Nairobi"`: East Africa Time; `"Africa/Kampala"`: East Africa Time;
    /// `"Africa/Accra"`: GMT; `"Africa/Maseru"`: South Africa Standard Time; none of them has
    /// daylight saving).
    pub fn time_zone(self) -> Option<&'static str> {
        match self {
            Provider::Mpesa => Some("Africa/Nairobi"),
            Provider::VodacomMpesaLs => Some("Africa/Maseru"),
            Provider::AirtelMoneyUg => Some("Africa/Kampala"),
            Provider::MtnMomoGh => Some("Africa/Accra"),
            Provider::MtnMomo | Provider::AirtelMoney | Provider::Other => None,
        }
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

    /// The JSON names of the providers: the older ones still read and written as they were.
    #[test]
    fn provider_names_keep_the_old_values_and_add_the_wallets() {
        let names: Vec<String> = Provider::ALL
            .iter()
            .map(|p| {
                serde_json::to_value(p)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
            })
            .map(Option::unwrap_or_default)
            .collect();
        assert_eq!(
            names,
            [
                "mpesa",
                "mtn-momo",
                "airtel-money",
                "other",
                "vodacom-mpesa-ls",
                "airtel-money-ug",
                "mtn-momo-gh"
            ]
        );
        for p in Provider::ALL {
            if let Some(code) = p.currency() {
                assert!(currency_exponent(code).is_some(), "{code}");
                assert!(p.country().is_some() && p.time_zone().is_some());
            }
        }
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
