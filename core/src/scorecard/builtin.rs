//! The built-in scorecards, one per market ([`BUILTIN_CARDS`]: KES, UGX, GHS, LSL), embedded
//! in the engine, parsed, validated and hashed once per process; and the choice of the card
//! that scores a statement in its own currency ([`choose`]: never another currency's).

use std::sync::OnceLock;

use super::Scorecard;

/// Version of the built-in Kenyan (KES) scorecard; part of every report and of its id. The
/// previous versions, `alama-kes-2027.01` (without income recency; account history read from
/// rows per month), `alama-mpesa-2026.12` (the same points as 2027.01, its money edges then
/// constants of the engine) and `alama-mpesa-2026.11`, are described in the changelog of
/// `docs/scorecard.md`; their files still load with [`Scorecard::from_json`].
pub const VERSION: &str = "alama-kes-2027.03";

/// The built-in Kenyan scorecard's JSON.
pub const BUILTIN_JSON: &str = include_str!("../../scorecards/alama-kes-2027.03.json");

/// The built-in scorecards, one per market, as `(ISO 4217 currency, card JSON)`, in a fixed
/// order. Each card defines its currency and its money thresholds; the non-Kenyan cards carry
/// the Kenyan card's points and money edges over at the purchasing power of private
/// consumption (the World Bank's PA.NUS.PRVT.PP, ICP 2021 round; for Ghana derived from two
/// published anchors), checked against each country's own anchors (`docs/scorecard.md`,
/// "Markets"; each card's `thresholds.rationale`, which also says how far the median persona
/// moves at ±25 % of the factor).
pub const BUILTIN_CARDS: [(&str, &str); 4] = [
    ("KES", BUILTIN_JSON),
    (
        "UGX",
        include_str!("../../scorecards/alama-ugx-2027.03.json"),
    ),
    (
        "GHS",
        include_str!("../../scorecards/alama-ghs-2027.03.json"),
    ),
    (
        "LSL",
        include_str!("../../scorecards/alama-lsl-2027.03.json"),
    ),
];

/// A built-in card and its SHA-256, parsed, validated and hashed once per process.
struct Builtin {
    card: Scorecard,
    sha256: String,
}

/// The built-in cards, in [`BUILTIN_CARDS`] order.
///
/// # Panics
/// Never in a released build: a test parses every built-in card, so an invalid one cannot ship.
#[allow(clippy::expect_used)]
fn loaded() -> &'static [Builtin] {
    static CARDS: OnceLock<Vec<Builtin>> = OnceLock::new();
    CARDS.get_or_init(|| {
        BUILTIN_CARDS
            .iter()
            .map(|(_, json)| {
                let card =
                    Scorecard::from_json(json).expect("the built-in scorecards validate (tested)");
                let sha256 = card.compute_sha256();
                Builtin { card, sha256 }
            })
            .collect()
    })
}

/// The built-in Kenyan (KES) scorecard, parsed and validated once. A statement in another
/// currency is scored with [`builtin_for`]'s card.
#[allow(clippy::indexing_slicing)] // BUILTIN_CARDS is a non-empty constant array
pub fn builtin() -> &'static Scorecard {
    &loaded()[0].card
}

/// Every built-in scorecard, one per currency, in [`BUILTIN_CARDS`] order (KES, UGX, GHS, LSL).
pub fn builtins() -> impl Iterator<Item = &'static Scorecard> {
    loaded().iter().map(|b| &b.card)
}

/// The built-in scorecard for statements in `currency` (ISO 4217, ASCII case-insensitive).
///
/// # Errors
/// `ErrorKind::UnsupportedCurrency` naming the currencies that have a built-in card (a lender
/// can still score such a statement with a card of its own in that currency).
pub fn builtin_for(currency: &str) -> crate::Result<&'static Scorecard> {
    builtins()
        .find(|c| c.currency.eq_ignore_ascii_case(currency.trim()))
        .ok_or_else(|| {
            crate::Error::new(
                crate::ErrorKind::UnsupportedCurrency,
                format!(
                    "no built-in scorecard scores {} statements ({}); bring a scorecard of your own in {}",
                    currency.trim(),
                    builtin_currencies_text(),
                    currency.trim()
                ),
            )
        })
}

/// The card that scores a statement in `currency`: `own` when given (a lender's card, which must
/// be in that currency), else the built-in card of that currency.
///
/// # Errors
/// `ErrorKind::CurrencyMismatch` when `own` is in another currency;
/// `ErrorKind::UnsupportedCurrency` when no card is given and no built-in card is in `currency`.
pub fn choose<'a>(own: Option<&'a Scorecard>, currency: &str) -> crate::Result<&'a Scorecard> {
    match own {
        Some(card) => card.check_currency(currency).map(|()| card),
        None => builtin_for(currency),
    }
}

/// `"built-in cards exist for KES, UGX, GHS and LSL"`, for error messages.
pub(crate) fn builtin_currencies_text() -> String {
    let codes: Vec<&str> = BUILTIN_CARDS.iter().map(|(c, _)| *c).collect();
    match codes.split_last() {
        Some((last, rest)) if !rest.is_empty() => {
            format!("built-in cards exist for {} and {last}", rest.join(", "))
        }
        _ => format!("built-in cards exist for {}", codes.join(", ")),
    }
}

/// The SHA-256 of a built-in card equal to `card` (computed once), `None` for any other card.
pub(crate) fn builtin_sha256_of(card: &Scorecard) -> Option<&'static str> {
    loaded()
        .iter()
        .find(|b| std::ptr::eq(card, std::ptr::from_ref(&b.card)) || *card == b.card)
        .map(|b| b.sha256.as_str())
}
