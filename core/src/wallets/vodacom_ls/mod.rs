//! Vodacom M-Pesa, Lesotho: all the engine knows of it.
//!
//! - **Files**: the statement PDF `M-Pesa Statement` ([`pdf`], written by iText 2.1.7), not
//!   encrypted; no header block (no holder, period or currency printed), no receipt numbers.
//! - **Words**: its rule table ([`rules`]); rows name the other party as M-Pesa does, after the
//!   last `" - "` of the Description (`Customer Transfer to 2665… - JANE DOE`); its overdraft
//!   rows read `Overdraft Payment from 72957 - Redeem Financial Services`.
//! - **Profile**: LSL, South Africa Standard Time; launched in 2013; its genuine chain breaks
//!   for reasons not all explained (two-part payments, amounts printed as 0), so a break is
//!   not evidence on its own.

#[cfg(feature = "testing")]
pub(super) mod generator;
mod pdf;
mod rules;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::statement::PdfBuild;

use super::{Chain, Floor, Ids, Launch, Layouts, PdfLayout, PdfWriter, Profile, Wallet, Writer};

/// Vodacom M-Pesa Lesotho.
pub static WALLET: Wallet = Wallet {
    id: "vodacom-mpesa-ls",
    name: "Vodacom M-Pesa Lesotho",
    operator: "Vodacom Lesotho",
    country: Some("LS"),
    currency: Some("LSL"),
    time_zone: Some("Africa/Maseru"),
    formats: "statement PDF",
    layouts: Layouts {
        pdf: Some(PdfLayout {
            writers: &[b"iText 2.1.7"],
            read: pdf::read,
        }),
        csv: None,
    },
    rules: &rules::TABLE,
    counterparty: super::grammar::mpesa_person,
    overdraft_row: super::grammar::overdraft_category,
    profile: Profile {
        // The first day of the year M-Pesa was established in Lesotho: the exact day is not
        // published in the sources found, so the year's first day bounds it from below.
        launched: Some(Launch {
            date: LAUNCH,
            source: "Lesotho Times, \"M-Pesa celebrates 10 years of changing lives\", 16 August \
                     2023 (established in 2013); VCL Financial Services (since its inception in \
                     2013)",
        }),
        balance_floor: Some(Floor {
            balance: Decimal::ZERO,
            overdraft_may_go_below: true,
        }),
        max_rows_at_one_time: 20,
        chain: Chain::Listed {
            group_seconds: 2,
            settle_seconds: 120,
            breaks_are_evidence: false,
        },
        pdf: Some(PdfWriter {
            writers: &[Writer {
                producer: "itext 2.1.7",
                creator: "",
                // iText's binary comment, as on the genuine sample.
                marker: Some("e2e3cfd3"),
                // Measured on the genuine sample (docs/integrity.md, "Each wallet's writer").
                build: Some(PdfBuild {
                    info_first: false,
                    objects_in_number_order: false,
                    tight_dictionaries: true,
                    trailer_id: true,
                    utf16_info: false,
                }),
                one_glyph_per_string: false,
                glyphs_by_first_use: false,
                // Its amounts are left-aligned: no right edge to keep.
                starts_to_hundredths: false,
            }],
            fonts: &[],
            encrypted: false,
            modified_grace_seconds: 600,
        }),
        overdraft: None,
        summary_completed_only: true,
        // No transaction ids printed.
        ids: Ids::Unordered,
        password_hint: None,
        tariff: None,
        levy: None,
        summary_lines: &[],
    },
    #[cfg(feature = "testing")]
    generator: Some(super::Generator {
        file: generator::vodacom_statement,
        words: generator::words,
        prints: super::Prints {
            balance_before: false,
            fee: false,
            receipt: false,
            seconds: true,
        },
    }),
};

/// 1 January 2013 (see the source above).
const LAUNCH: NaiveDate = match NaiveDate::from_ymd_opt(2013, 1, 1) {
    Some(d) => d,
    None => NaiveDate::MIN,
};
