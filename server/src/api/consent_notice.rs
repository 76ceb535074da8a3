//! The consent notice: the exact text a customer is shown before agreeing to a consent
//! (`POST /v1/consents` stores it with its SHA-256), worded for the statement's wallet and its
//! country's data protection law ([`Law`]), in general terms without a wallet.

use sha2::{Digest, Sha256};

use super::consents::SCOPE_SHARING;
use crate::ids::rfc3339;

/// A country's data protection law and the authority a customer may complain to, as the
/// consent notice names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Law {
    /// The law (`"Data Protection Act, 2019"`).
    pub act: &'static str,
    /// The authority (`"the Office of the Data Protection Commissioner"`).
    pub authority: &'static str,
}

/// The data protection law of a country (ISO 3166-1 alpha-2) whose wallet the engine reads.
/// Sources: Kenya, Data Protection Act No. 24 of 2019 (Office of the Data Protection
/// Commissioner); Uganda, Data Protection and Privacy Act, 2019 (Personal Data Protection
/// Office, NITA-U); Ghana, Data Protection Act, 2012 (Act 843) (Data Protection Commission);
/// Lesotho, Data Protection Act, 2011 (Data Protection Commission).
pub fn law(country: &str) -> Option<Law> {
    let (act, authority) = match country {
        "KE" => (
            "Data Protection Act, 2019",
            "the Office of the Data Protection Commissioner",
        ),
        "UG" => (
            "Data Protection and Privacy Act, 2019",
            "the Personal Data Protection Office",
        ),
        "GH" => (
            "Data Protection Act, 2012 (Act 843)",
            "the Data Protection Commission",
        ),
        "LS" => (
            "Data Protection Act, 2011",
            "the Data Protection Commission",
        ),
        _ => return None,
    };
    Some(Law { act, authority })
}

/// The notice text for a consent of `partner` with `scopes`, valid until `expires_at`
/// (milliseconds UTC, printed as a UTC date), for a statement of `wallet` (its name and its
/// country's [`law`]; general words without one).
pub fn notice_text(
    partner: &str,
    reference: &str,
    scopes: &[String],
    expires_at: i64,
    wallet: Option<&alama_core::Wallet>,
) -> String {
    let until = rfc3339(expires_at);
    let until = until.get(..10).unwrap_or(&until);
    let sharing = if scopes.iter().any(|s| s == SCOPE_SHARING) {
        format!(
            " The report may be shared, as a PDF, with the people at {partner} who decide on \
             your application."
        )
    } else {
        String::new()
    };
    let statement = wallet.and_then(|w| w.country.map(|_| w.name)).map_or_else(
        || "your mobile-money statement".to_owned(),
        |name| format!("your {name} statement"),
    );
    let law = wallet.and_then(|w| w.country).and_then(law);
    let rights = law.map_or_else(
        || "Your rights (data protection law)".to_owned(),
        |l| format!("Your rights ({})", l.act),
    );
    let authority = law.map_or("the data protection authority", |l| l.authority);
    format!(
        "{partner} asks for your consent to use {statement} to assess your application \
         for credit (reference {reference}). What happens: {partner} sends the statement you \
         provide to Alama, its data processor, which reads your transactions and computes a \
         credit score report: a score, a band, the factors behind them (such as income \
         regularity and borrowing) and your monthly money in and out. The statement file itself \
         is not kept; the report is kept for {partner}.{sharing} Why: only to decide on your \
         application for credit with {partner}; not for marketing, and not sold. {rights}: \
         giving consent is your choice; you may withdraw it at any time through {partner}, \
         which stops further use but does not undo what was done before; you may ask {partner} \
         to access, correct or delete your data, and complain to {authority}. This consent ends \
         on {until} (UTC)."
    )
}

/// Hex SHA-256 of a notice's text: what `grant` must echo as `noticeSha256`.
pub(super) fn sha256_hex(text: &str) -> String {
    crate::ids::hex(&Sha256::digest(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::consents::SCOPE_ANALYSIS;

    #[test]
    fn notice_names_partner_purpose_rights_and_end_date() {
        let text = notice_text(
            "Acme Loans",
            "APP-1",
            &[SCOPE_ANALYSIS.into()],
            0,
            alama_core::wallets::find("mpesa"),
        );
        for needle in [
            "Acme Loans",
            "APP-1",
            "credit",
            "withdraw",
            "your Safaricom M-Pesa Kenya statement",
            "Data Protection Act, 2019",
            "Office of the Data Protection Commissioner",
            "1970-01-01 (UTC)",
        ] {
            assert!(text.contains(needle), "{needle}");
        }
        assert!(!text.contains("PDF"));
        let shared = notice_text(
            "A",
            "R",
            &[SCOPE_ANALYSIS.into(), SCOPE_SHARING.into()],
            0,
            None,
        );
        assert!(shared.contains("PDF"));
        assert_eq!(sha256_hex("abc").len(), 64);
    }

    /// Each wallet's notice names the wallet and its country's law; none says M-Pesa or Kenya's
    /// Act for another wallet, and without a wallet none names a law.
    #[test]
    fn the_notice_is_in_each_wallets_terms() {
        let wallet = |id: &str| alama_core::wallets::find(id).expect("registered");
        let scopes = [SCOPE_ANALYSIS.to_owned()];
        let cases = [
            (
                wallet("airtel-money-ug"),
                "your Airtel Money Uganda statement",
                "Data Protection and Privacy Act, 2019",
                "Personal Data Protection Office",
            ),
            (
                wallet("mtn-momo-gh"),
                "your MTN MoMo Ghana statement",
                "Data Protection Act, 2012 (Act 843)",
                "the Data Protection Commission",
            ),
            (
                wallet("vodacom-mpesa-ls"),
                "your Vodacom M-Pesa Lesotho statement",
                "Data Protection Act, 2011",
                "the Data Protection Commission",
            ),
        ];
        for (wallet, statement, act, authority) in cases {
            let text = notice_text("Acme Loans", "APP-1", &scopes, 0, Some(wallet));
            assert!(
                text.contains(statement) && text.contains(act) && text.contains(authority),
                "{text}"
            );
            assert!(
                !text.contains("Commissioner") && !text.contains("Kenya"),
                "{text}"
            );
        }
        for wallet in [None, Some(wallet("other")), Some(wallet("mtn-momo"))] {
            let text = notice_text("Acme Loans", "APP-1", &scopes, 0, wallet);
            assert!(text.contains("your mobile-money statement"), "{text}");
            assert!(!text.contains("M-Pesa") && !text.contains("Act"), "{text}");
            assert!(
                text.contains("complain to the data protection authority"),
                "{text}"
            );
        }
    }
}
