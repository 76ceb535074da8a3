//! Categories of other wallets' rows: one rule table per wallet (data, like Kenya's
//! [`super::RULES`]), all naming the common [`Category`] set, and the matcher that reads them.
//!
//! | wallet | table |
//! |---|---|
//! | Safaricom M-Pesa Kenya, and statements handed in as `mtn-momo`, `airtel-money`, `other` | [`super::RULES`] (unchanged) |
//! | Airtel Money Uganda | [`super::airtel_ug::RULES`] |
//! | Vodacom M-Pesa Lesotho | [`super::vodacom_ls::RULES`] |
//! | MTN MoMo Ghana | [`super::mtn_gh::RULES`] |
//!
//! The other wallets' tables are short, so each row's text is tried against its table rule by
//! rule (no automaton); a statement of 1,000 rows is categorised in well under a millisecond.

use super::{Category, Direction, Rule, normalise_into};
use crate::statement::{Provider, Transaction};

/// The rule table of `provider`, or `None` for the Kenyan table ([`super::RULES`]).
pub fn table(provider: Provider) -> Option<&'static [Rule]> {
    match provider {
        Provider::AirtelMoneyUg => Some(super::airtel_ug::RULES),
        Provider::VodacomMpesaLs => Some(super::vodacom_ls::RULES),
        Provider::MtnMomoGh => Some(super::mtn_gh::RULES),
        Provider::Mpesa | Provider::MtnMomo | Provider::AirtelMoney | Provider::Other => None,
    }
}

/// The category the first matching rule of `rules` names for a normalised text and a direction;
/// [`Category::Other`] when none matches.
pub fn categorise_in(rules: &[Rule], text: &str, paid_in: bool) -> Category {
    let direction = if paid_in {
        Direction::In
    } else {
        Direction::Out
    };
    rules
        .iter()
        .find(|r| r.direction.is_none_or(|d| d == direction) && r.matcher.matches(text))
        .map_or(Category::Other, |r| r.category)
}

/// Sets the category of every row from its Details and direction with `provider`'s table (the
/// Kenyan table, and its memo, for Safaricom and the generic providers).
pub fn categorise_all_for(provider: Provider, rows: &mut [Transaction]) {
    let Some(rules) = table(provider) else {
        super::categorise_all(rows);
        return;
    };
    let mut text = String::new();
    for t in rows {
        normalise_into(&t.details, &mut text);
        t.category = categorise_in(rules, &text, t.paid_in > t.withdrawn);
    }
}
