//! The generic ids of the canonical form (`"mtn-momo"`, `"airtel-money"`, `"other"`): a
//! statement of any wallet handed in as canonical JSON or CSV, of no known country. Their
//! Details are read in the canonical form's grammar, which is M-Pesa's (the canonical form was
//! Safaricom's before other wallets were read), so they share Safaricom's table and
//! counterparty grammar; nothing of a country is checked (no launch date, no balance floor,
//! no writer).

use super::{Chain, Ids, Layouts, Profile, Wallet};

/// What the generic wallets share but their id and name.
const fn generic(id: &'static str, name: &'static str) -> Wallet {
    Wallet {
        id,
        name,
        operator: name,
        country: None,
        currency: None,
        time_zone: None,
        formats: "canonical JSON or CSV",
        layouts: Layouts {
            pdf: None,
            csv: None,
        },
        rules: &super::safaricom_ke::TABLE,
        counterparty: super::grammar::mpesa_person,
        overdraft_row: super::grammar::overdraft_category,
        profile: Profile {
            launched: None,
            balance_floor: None,
            max_rows_at_one_time: 20,
            chain: Chain::Unlisted,
            pdf: None,
            overdraft: None,
            summary_completed_only: false,
            ids: Ids::Unordered,
            password_hint: None,
            tariff: None,
            levy: None,
            summary_lines: &[],
        },
        #[cfg(feature = "testing")]
        generator: None,
    }
}

/// MTN Mobile Money of an unnamed country, handed in through the canonical form.
pub static MTN_MOMO: Wallet = generic("mtn-momo", "MTN MoMo");

/// Airtel Money of an unnamed country, handed in through the canonical form.
pub static AIRTEL_MONEY: Wallet = generic("airtel-money", "Airtel Money");

/// Any other wallet, handed in through the canonical form.
pub static OTHER: Wallet = generic("other", "another wallet");
