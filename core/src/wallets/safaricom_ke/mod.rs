//! Safaricom M-Pesa, Kenya: all the engine knows of it.
//!
//! - **Files**: the full statement PDF ([`pdf`]: the 2021 iText 5 and 2023+ `OpenPDF` layouts,
//!   encrypted or not) and its CSV export, which is the canonical CSV's own layout
//!   (`crate::parse::csv`).
//! - **Words**: its rule table ([`rules`]); a person-to-person row names the other party after
//!   the last `" - "` of its Details (`super::grammar::mpesa_person`); Fuliza, its overdraft, is named in the
//!   Details of every row it funds.
//! - **Profile**: KES, East Africa Time; launched on 6 March 2007; a balance never below zero
//!   but on a payment Fuliza funded (the 2019 layout printed the overdrawn balance there); the
//!   writers iText 5 and `OpenPDF`, encrypted; a chain that does not list every movement; its
//!   send and agent-withdrawal tariff as data ([`tariff`]).

#[cfg(feature = "testing")]
pub(super) mod generator;
pub(crate) mod pdf;
#[cfg(feature = "testing")]
pub(super) mod personas;
pub(crate) mod receipt;
mod rules;
pub(crate) mod tariff;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::{
    Chain, Floor, Ids, Launch, Layouts, PdfLayout, PdfWriter, Profile, SummaryLine, Tariff, Wallet,
    Writer,
};
use crate::statement::Transaction;

pub(super) use rules::TABLE;

/// Safaricom M-Pesa Kenya.
pub static WALLET: Wallet = Wallet {
    id: "mpesa",
    name: "Safaricom M-Pesa Kenya",
    operator: "Safaricom",
    country: Some("KE"),
    currency: Some("KES"),
    time_zone: Some("Africa/Nairobi"),
    formats: "full statement PDF, CSV export",
    layouts: Layouts {
        pdf: Some(PdfLayout {
            // Safaricom's writers are tried first for any file that names no other wallet's.
            writers: &[],
            read: pdf::read,
        }),
        csv: None,
    },
    rules: &TABLE,
    counterparty: super::grammar::mpesa_person,
    overdraft_row: uses_fuliza,
    profile: Profile {
        launched: Some(Launch {
            date: LAUNCH,
            source: "Safaricom, \"M-PESA: 10 years\" press release; Hughes & Lonie, \"M-PESA: \
                     Mobile Money for the Unbanked\", Innovations 2(1-2), 2007",
        }),
        balance_floor: Some(Floor {
            balance: Decimal::ZERO,
            overdraft_may_go_below: true,
        }),
        max_rows_at_one_time: 20,
        chain: Chain::Unlisted,
        pdf: Some(PdfWriter {
            writers: &[
                Writer {
                    producer: "itext",
                    creator: "",
                    marker: Some("e2e3cfd3"),
                    build: None,
                    one_glyph_per_string: false,
                    glyphs_by_first_use: false,
                    starts_to_hundredths: true,
                },
                Writer {
                    producer: "openpdf",
                    creator: "",
                    marker: Some("f6e4fcdf"),
                    build: None,
                    one_glyph_per_string: false,
                    glyphs_by_first_use: false,
                    starts_to_hundredths: true,
                },
            ],
            fonts: &["DejaVuSans", "FuturaBT", "Helvetica"],
            encrypted: true,
            // Safaricom's service writes a statement and then encrypts it, which stamps a
            // modification time a few seconds after creation (6 s on the 2024 sample).
            modified_grace_seconds: 600,
        }),
        overdraft: Some("Fuliza"),
        summary_completed_only: false,
        // Receipts are letters and digits, not numbered in time order, but their first three
        // characters are the day ([`receipt`]).
        ids: Ids::CarryTheirDay {
            day_of: receipt::day_of,
        },
        password_hint: Some("normally the customer's ID number"),
        tariff: Some(Tariff {
            charge: tariff::charge_of,
            is_charge: tariff::is_charge,
            source: "Safaricom's M-Pesa tariff (sends and agent withdrawals, 1 January 2021 and \
                     29 July 2023 tables)",
        }),
        levy: None,
        // AGENT DEPOSIT's Paid In is the sum of the deposits to the cent on all six genuine
        // PDFs (6,500.00, 159,450.00, 153,500.00 and 5,720.00; 0 on two). The other lines are
        // not: charges are booked under their parent type, and RECEIVED MONEY and OTHERS take
        // business, Pochi and loan rows in proportions not derived (docs/integrity.md).
        summary_lines: &[SummaryLine {
            transaction_type: "AGENT DEPOSIT",
            details: "Deposit of Funds at Agent Till",
        }],
    },
    #[cfg(feature = "testing")]
    generator: Some(super::Generator {
        file: generator::file,
        words: generator::words,
        prints: super::Prints {
            balance_before: false,
            fee: false,
            receipt: true,
            seconds: true,
        },
    }),
};

/// The day M-Pesa launched in Kenya (Safaricom, 6 March 2007).
const LAUNCH: NaiveDate = match NaiveDate::from_ymd_opt(2007, 3, 6) {
    Some(d) => d,
    None => NaiveDate::MIN,
};

/// Whether a row moved money through Fuliza: its Details name it (`Customer Transfer Fuliza
/// MPESA`, `OverDraft of Credit Party`, `OD Loan Repayment`), also when its category is the
/// payment Fuliza funded.
fn uses_fuliza(t: &Transaction) -> bool {
    let d = t.details.to_ascii_lowercase();
    d.contains("fuliza") || d.contains("overdraft") || d.contains("overdraw")
}
