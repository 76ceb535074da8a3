//! Airtel Money, Uganda: all the engine knows of it.
//!
//! - **Files**: the statement PDF `AIRTEL MONEY STATEMENT` ([`pdf`], written by `wkhtmltopdf`
//!   0.12 on Qt 4.8), not encrypted.
//! - **Words**: its rule table ([`rules`]); a person-to-person row names the other party's
//!   number, else its name, after `to`/`from` (`Sent Money to 2567… , NAME`); `Wewole` is its
//!   overdraft-like loan.
//! - **Profile**: UGX (ISO exponent 0; the statement prints two decimals, kept as printed),
//!   East Africa Time; times to the minute; opening and closing balances and SUMMARY totals;
//!   every movement listed, so an unexplained break of the chain is evidence.

#[cfg(feature = "testing")]
pub(super) mod generator;
mod pdf;
mod rules;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::statement::PdfBuild;

use super::{Chain, Floor, Ids, Launch, Layouts, PdfLayout, PdfWriter, Profile, Wallet, Writer};

/// Airtel Money Uganda.
pub static WALLET: Wallet = Wallet {
    id: "airtel-money-ug",
    name: "Airtel Money Uganda",
    operator: "Airtel Uganda",
    country: Some("UG"),
    currency: Some("UGX"),
    time_zone: Some("Africa/Kampala"),
    formats: "statement PDF",
    layouts: Layouts {
        pdf: Some(PdfLayout {
            writers: &[b"wkhtmltopdf"],
            read: pdf::read,
        }),
        csv: None,
    },
    rules: &rules::TABLE,
    counterparty: super::grammar::number_or_name_after_to_or_from,
    overdraft_row: super::grammar::overdraft_category,
    profile: Profile {
        // Airtel Money continues Zain's Zap, launched in Uganda on 29 June 2009: the
        // earliest day a row of the wallet can carry.
        launched: Some(Launch {
            date: LAUNCH,
            source: "Zain, launch of Zap mobile money in Uganda, 29 June 2009 (Airtel Money \
                     Uganda is its successor after Airtel bought Zain Africa in 2010)",
        }),
        balance_floor: Some(Floor {
            balance: Decimal::ZERO,
            overdraft_may_go_below: false,
        }),
        // Times are printed to the minute, so a busy minute may hold more rows than a second.
        max_rows_at_one_time: 60,
        chain: Chain::Listed {
            group_seconds: 2,
            settle_seconds: 120,
            breaks_are_evidence: true,
        },
        pdf: Some(PdfWriter {
            writers: &[Writer {
                producer: "qt ",
                creator: "wkhtmltopdf",
                marker: None,
                // Measured on the genuine sample (docs/integrity.md, "Each wallet's writer").
                build: Some(PdfBuild {
                    info_first: true,
                    objects_in_number_order: false,
                    tight_dictionaries: false,
                    trailer_id: false,
                    utf16_info: true,
                }),
                one_glyph_per_string: true,
                // Qt's `QFontSubset` (the sample: 70 and 33 glyphs, numbered as first drawn).
                glyphs_by_first_use: true,
                // Qt places glyphs in 64ths of a unit, and the amounts are left-aligned.
                starts_to_hundredths: false,
            }],
            fonts: &[],
            encrypted: false,
            modified_grace_seconds: 600,
        }),
        overdraft: None,
        summary_completed_only: true,
        // Transaction IDs rise with time: 23 rows of the genuine 2026 sample, no exception.
        ids: Ids::RiseWithTime,
        password_hint: None,
        tariff: None,
        levy: None,
        summary_lines: &[],
    },
    #[cfg(feature = "testing")]
    generator: Some(super::Generator {
        file: generator::airtel_statement,
        words: generator::words,
        prints: super::Prints {
            balance_before: false,
            fee: true,
            receipt: true,
            seconds: false,
        },
    }),
};

/// The day Zap, Airtel Money's predecessor, launched in Uganda.
const LAUNCH: NaiveDate = match NaiveDate::from_ymd_opt(2009, 6, 29) {
    Some(d) => d,
    None => NaiveDate::MIN,
};
