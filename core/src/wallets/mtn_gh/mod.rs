//! MTN MoMo, Ghana: all the engine knows of it.
//!
//! - **Files**: the statement spreadsheet, as MTN sends it (`.xlsx`) or saved as CSV ([`csv`]:
//!   MTN's 16 columns, read by their names).
//! - **Words**: its rule table ([`rules`]); a row's Details are `TYPE | to/from NAME | REF |
//!   OVA`, so a person-to-person row names the other party after `to`/`from` in its second
//!   part.
//! - **Profile**: GHS, GMT; launched on 21 July 2009 (first transaction 25 September 2008);
//!   balances before and after every row; every movement listed (an unexplained break is
//!   evidence); E-LEVY since May 2022. A CSV's origin cannot be checked.

mod csv;
#[cfg(feature = "testing")]
pub(super) mod generator;
mod levy;
mod rules;

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::{Chain, CsvLayout, Floor, Ids, Launch, Layouts, Levy, Profile, Wallet};

/// MTN MoMo Ghana.
pub static WALLET: Wallet = Wallet {
    id: "mtn-momo-gh",
    name: "MTN MoMo Ghana",
    operator: "MTN Ghana",
    country: Some("GH"),
    currency: Some("GHS"),
    time_zone: Some("Africa/Accra"),
    formats: "statement spreadsheet, or its CSV",
    layouts: Layouts {
        pdf: None,
        csv: Some(CsvLayout {
            recognise: csv::recognise,
            read: csv::read,
        }),
    },
    rules: &rules::TABLE,
    counterparty,
    overdraft_row: super::grammar::overdraft_category,
    profile: Profile {
        // The first transaction on MTN's platform in Ghana, before the launch of 21 July 2009.
        launched: Some(Launch {
            date: LAUNCH,
            source: "MTN Ghana, MoMo's 10th anniversary (Daily Guide, 6 June 2019): first \
                     successful transaction 25 September 2008, official launch 21 July 2009",
        }),
        balance_floor: Some(Floor {
            balance: Decimal::ZERO,
            overdraft_may_go_below: false,
        }),
        max_rows_at_one_time: 20,
        chain: Chain::Listed {
            group_seconds: 2,
            settle_seconds: 120,
            breaks_are_evidence: true,
        },
        pdf: None,
        overdraft: None,
        summary_completed_only: true,
        // F_ID rises with time: 105 rows of the genuine 2025 export, no exception.
        ids: Ids::RiseWithTime,
        password_hint: None,
        tariff: None,
        levy: Some(Levy {
            most: levy::most,
            source: levy::SOURCE,
        }),
        summary_lines: &[],
    },
    #[cfg(feature = "testing")]
    generator: Some(super::Generator {
        file: generator::mtn_statement,
        words: generator::words,
        prints: super::Prints {
            balance_before: true,
            fee: true,
            receipt: true,
            seconds: true,
        },
    }),
};

/// 25 September 2008 (see the source above).
const LAUNCH: NaiveDate = match NaiveDate::from_ymd_opt(2008, 9, 25) {
    Some(d) => d,
    None => NaiveDate::MIN,
};

/// The other party of a row: the name after `to ` or `from ` in the second `" | "` part of its
/// Details (`TRANSFER | to JANE DOE | Rent | Internal` → `jane doe`), normalised.
fn counterparty<'b>(t: &crate::statement::Transaction, buffer: &'b mut String) -> Option<&'b str> {
    let party = t.details.split(" | ").nth(1)?;
    let name = party
        .strip_prefix("to ")
        .or_else(|| party.strip_prefix("from "))?;
    crate::categorise::normalise_into(name, buffer);
    (!buffer.is_empty()).then_some(buffer.as_str())
}
