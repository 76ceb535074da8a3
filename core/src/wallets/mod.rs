//! The wallets the engine reads, each one place: its readers and layouts, its rule table, how
//! its rows name a counterparty, its overdraft, its integrity and plausibility profile, its
//! country, currency and time zone ([`Wallet`]), and, with the `testing` feature, its seeded
//! generator. [`ALL`] is the one list; the stages ask a statement's wallet ([`of`]) through
//! [`Wallet`] and never ask which wallet it is.
//!
//! Adding a wallet: a folder here, one line in [`ALL`], a built-in card for a new currency
//! (`crate::scorecard`); see docs/adding-a-wallet.md.

mod airtel_ug;
mod generic;
mod grammar;
mod mtn_gh;
mod safaricom_ke;
#[cfg(feature = "testing")]
pub(crate) mod synthetic;
mod vodacom_ls;
mod wallet;

#[cfg(feature = "testing")]
pub use airtel_ug::generator::airtel_statement;
#[cfg(feature = "testing")]
pub use mtn_gh::generator::mtn_statement;
#[cfg(feature = "testing")]
pub use safaricom_ke::generator::{synthetic_statement, synthetic_statement_with_rows};
#[cfg(feature = "testing")]
pub use safaricom_ke::personas::{PersonaKind, persona_statement, persona_statement_until};
#[cfg(feature = "testing")]
pub use safaricom_ke::receipt::receipt_at as mpesa_receipt_at;
#[cfg(feature = "testing")]
pub use synthetic::{Generator, Party, Prints, Words};
#[cfg(feature = "testing")]
pub use vodacom_ls::generator::vodacom_statement;

pub use wallet::{
    Chain, Counterparty, Floor, Ids, Launch, Levy, PdfWriter, Profile, SummaryLine, Tariff, Wallet,
    Writer,
};
pub(crate) use wallet::{CsvLayout, Layouts, PdfLayout};

use crate::error::{Error, ErrorKind, Result};
use crate::statement::{Provider, Statement};

/// Every wallet the engine knows, in the order a file of no known writer is tried: Safaricom
/// M-Pesa first (nearly every file), then the other wallets, then the generic ids of the
/// canonical form.
pub static ALL: &[&Wallet] = &[
    &safaricom_ke::WALLET,
    &airtel_ug::WALLET,
    &vodacom_ls::WALLET,
    &mtn_gh::WALLET,
    &generic::MTN_MOMO,
    &generic::AIRTEL_MONEY,
    &generic::OTHER,
];

/// The wallet a statement of an unknown provider is read as (built in code; scoring it is an
/// error, see [`of`]): the canonical form's generic `"other"`.
pub static GENERIC: &Wallet = &generic::OTHER;

/// The wallet of id `id`, if the engine knows it.
pub fn find(id: &str) -> Option<&'static Wallet> {
    ALL.iter().copied().find(|w| w.id == id)
}

/// The wallet of a statement's provider.
///
/// # Errors
/// `ErrorKind::UnsupportedWallet` for an id no wallet has (a statement built in code with a
/// made-up provider); the message names the known ids.
pub fn of(provider: &Provider) -> Result<&'static Wallet> {
    find(provider.as_str()).ok_or_else(|| {
        let ids: Vec<&str> = ALL.iter().map(|w| w.id).collect();
        Error::new(
            ErrorKind::UnsupportedWallet,
            format!(
                "unknown provider {:?}: the engine knows {}",
                provider.as_str(),
                ids.join(", ")
            ),
        )
    })
}

/// The country of `statement` (ISO 3166-1 alpha-2): its own when it says, else its wallet's;
/// `None` for a wallet of no country (or a provider no wallet has).
pub fn country_of(statement: &Statement) -> Option<&str> {
    match find(statement.provider.as_str()) {
        Some(wallet) => wallet.country_of(statement),
        None => statement.country.as_deref(),
    }
}

/// The IANA time zone of `statement`'s times: its own when it says, else its wallet's.
pub fn zone_of(statement: &Statement) -> Option<&str> {
    match find(statement.provider.as_str()) {
        Some(wallet) => wallet.zone_of(statement),
        None => statement.time_zone.as_deref(),
    }
}

/// The wallets and formats the engine reads, for messages: `"supported: Safaricom M-Pesa
/// Kenya (full statement PDF, CSV export), …, and the canonical JSON or CSV of any wallet"`.
pub fn supported() -> String {
    let named: Vec<String> = ALL
        .iter()
        .filter(|w| w.country.is_some())
        .map(|w| format!("{} ({})", w.name, w.formats))
        .collect();
    format!(
        "supported: {}, and the canonical JSON or CSV of any wallet",
        named.join(", ")
    )
}

/// `UnsupportedWallet` for `what`, naming the supported wallets and formats.
pub fn unsupported(what: &str) -> Error {
    Error::new(
        ErrorKind::UnsupportedWallet,
        format!(
            "not a statement of a supported wallet ({what}); {}",
            supported()
        ),
    )
}

/// What the wallets that encrypt their statements say of the password, for a password error:
/// `"Safaricom M-Pesa Kenya: normally the customer's ID number"`.
pub fn password_hints() -> Vec<String> {
    ALL.iter()
        .filter_map(|w| w.profile.password_hint.map(|h| format!("{}: {h}", w.name)))
        .collect()
}
