//! What the wallets' seeded generators share (feature `testing`): what a wallet's generator is
//! ([`Generator`]: its files and its words, for the conformance suite every registered wallet
//! runs, `core/tests/conformance.rs`), a synthetic file with the [`Statement`] its reader must
//! give back ([`Synthetic`]: write-then-parse is the identity), and the shapes of their invented
//! amounts and dates.

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::categorise::Category;
use crate::rng::SplitMix64;
use crate::statement::Statement;

/// A wallet's seeded generator.
#[derive(Debug)]
pub struct Generator {
    /// A synthetic file of about `rows` rows in the wallet's own layout, seeded, with the
    /// statement its reader must give back.
    pub file: fn(u64, usize) -> Synthetic,
    /// A row's text in the wallet's words for a movement of a category with a party; `None`
    /// when the wallet prints no such row (MTN prints its fees inside the rows they are
    /// charged on). The words may name another category where the wallet has no product of
    /// its own (MTN lends through `XtraCash`, not an overdraft): [`Words::category`] says which.
    pub words: fn(Category, &Party) -> Option<Words>,
    /// What its rows print beside the amounts.
    pub prints: Prints,
}

/// The other party of a row, invented: a name as printed (upper case) and the last eight
/// digits of a phone number, which each wallet's words print in its country's form.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Party {
    /// `"JANE DOE"`.
    pub name: String,
    /// `"00123456"`: eight digits.
    pub digits: String,
}

/// A row's text in a wallet's words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Words {
    /// The Details as the wallet's reader gives them.
    pub details: String,
    /// The wallet's own transaction type (MTN's `TRANS. TYPE`), when it prints one.
    pub transaction_type: Option<String>,
    /// The category the wallet's rule table reads these words as.
    pub category: Category,
}

/// What a wallet's rows print beside the amounts and the balance after.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // independent facts of a layout
pub struct Prints {
    /// The balance before the row (MTN's `BAL BEFORE`).
    pub balance_before: bool,
    /// A fee column (Airtel's `Fee`, MTN's `FEES`).
    pub fee: bool,
    /// A receipt or transaction id per row (Vodacom Lesotho prints none).
    pub receipt: bool,
    /// Times to the second (Airtel Uganda prints minutes).
    pub seconds: bool,
}

/// A synthetic file and the statement it holds.
#[derive(Debug, Clone)]
pub struct Synthetic {
    /// The file, as the wallet would send it.
    pub bytes: Vec<u8>,
    /// What [`crate::parse::parse`] must return (before categorising; see
    /// [`Synthetic::expected_prepared`]).
    pub expected: Statement,
}

/// `1,234,567.80`: thousands separated by commas, two decimal places (also the tamper
/// generator's, `crate::tamper`).
pub(crate) fn grouped(value: Decimal) -> String {
    let text = format!("{:.2}", value.round_dp(2));
    let (whole, cents) = text.split_once('.').unwrap_or((text.as_str(), "00"));
    let digits: Vec<char> = whole.chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*c);
    }
    format!("{out}.{cents}")
}

/// An amount of whole units and cents in `lo..=hi` units.
pub(super) fn money(rng: &mut SplitMix64, lo: u64, hi: u64, cents: bool) -> Decimal {
    let units = rng.range(lo, hi);
    let c = if cents { rng.range(0, 99) } else { 0 };
    Decimal::new(i64::try_from(units * 100 + c).unwrap_or(0), 2)
}

pub(super) fn at(date: NaiveDate) -> NaiveDateTime {
    date.and_hms_opt(8, 0, 0).unwrap_or_default()
}

pub(super) fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}
