//! What the wallets' seeded generators share (feature `testing`): a synthetic file with the
//! [`Statement`] its reader must give back ([`Synthetic`]: write-then-parse is the identity, a
//! property test in `core/tests`), and the shapes of their invented amounts and dates.

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::rng::SplitMix64;
use crate::statement::Statement;

/// A synthetic file and the statement it holds.
#[derive(Debug, Clone)]
pub struct Synthetic {
    /// The file, as the wallet would send it.
    pub bytes: Vec<u8>,
    /// What [`crate::parse::parse`] must return (before categorising; see
    /// [`Synthetic::expected_prepared`]).
    pub expected: Statement,
}

/// `1,234,567.80`: thousands separated by commas, two decimal places.
pub(super) fn grouped(value: Decimal) -> String {
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
