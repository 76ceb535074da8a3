//! Money helpers: exact decimal amounts in major units, and their serde form.
//!
//! On the wire (canonical JSON, CSV) an amount is a decimal string such as `"1201133.99"`.
//! Integers are accepted on input; JSON floats are refused, because a float has already lost
//! the cents that the statement printed.
//!
//! (Over 400 lines: an amount's every text form, read, written on the wire and displayed, then
//! the tests of the limits and forms each keeps.)

use rust_decimal::Decimal;

/// The largest amount the engine reads, in KES major units (either sign): one trillion
/// shillings, thousands of times any wallet's limits (M-Pesa's: KES 250,000 per transaction,
/// 500,000 balance). With amounts bounded so, every sum and difference the engine forms over a
/// statement stays far inside `Decimal`'s range (about 7.9 × 10²⁸), so none can overflow
/// (fuzzing found `Decimal` overflow panics on amounts near that range).
pub const MAX_AMOUNT: u64 = 1_000_000_000_000;

/// Whether `value` is within [`MAX_AMOUNT`] of zero.
pub fn within_limit(value: Decimal) -> bool {
    // |value| = |mantissa| / 10^scale ≤ |mantissa|: a mantissa within the limit settles it
    // without `Decimal`'s rescaling comparison (every amount of a real statement).
    value.mantissa().unsigned_abs() <= u128::from(MAX_AMOUNT)
        || value.abs() <= Decimal::from(MAX_AMOUNT)
}

/// Parses an amount as printed on a statement or in an export: optional sign, thousands
/// separators (`1,201,133.99`), optional currency prefix of a supported wallet's currency
/// (`KES`, `Ksh`, `Kshs`, `UGX`/`Ugx`, `GHS`, `GH₵`, `GHC`, `LSL`, any case; the amount is not
/// converted: the statement's currency says what it is). Returns `None` for anything else, and
/// for an amount beyond [`MAX_AMOUNT`]. An empty cell or a lone `-` is `Some(0)`.
pub fn parse_amount(text: &str) -> Option<Decimal> {
    if let Some(plain) = parse_plain(text.as_bytes()) {
        return Some(plain).filter(|v| within_limit(*v));
    }
    let mut t = text.trim();
    // Longest first: `Kshs` before `Ksh`.
    for prefix in ["KSHS", "KSH", "KES", "UGX", "GHS", "GHC", "GH₵", "LSL"] {
        let head = t
            .get(..prefix.len())
            .filter(|h| h.eq_ignore_ascii_case(prefix));
        if head.is_some() {
            t = t[prefix.len()..].trim_start_matches('.').trim();
            break;
        }
    }
    if t.is_empty() || t == "-" {
        return Some(Decimal::ZERO);
    }
    let cleaned: std::borrow::Cow<'_, str> = if t.contains([',', ' ']) {
        t.chars()
            .filter(|c| *c != ',' && *c != ' ')
            .collect::<String>()
            .into()
    } else {
        t.into()
    };
    if !cleaned
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '.' | '-' | '+'))
    {
        return None;
    }
    cleaned.parse::<Decimal>().ok().filter(|v| within_limit(*v))
}

/// The common case of [`parse_amount`] without its general path: an optional sign, digits, and
/// optionally a point followed by digits, at most 18 digits in all (`1201133.99`, `-425.00`),
/// nothing else. `None` for any other text (the general path reads it) and for a negative zero,
/// whose sign `Decimal`'s own parser keeps. The same value and scale as `str::parse::<Decimal>`
/// (a property test compares them).
fn parse_plain(text: &[u8]) -> Option<Decimal> {
    let (negative, digits) = match text.split_first() {
        Some((b'-', rest)) => (true, rest),
        Some((b'+', rest)) => (false, rest),
        _ => (false, text),
    };
    let mut mantissa: u64 = 0;
    let mut count = 0u32;
    let mut scale = None;
    for (i, b) in digits.iter().enumerate() {
        match b {
            b'0'..=b'9' => {
                mantissa = mantissa * 10 + u64::from(b - b'0');
                count += 1;
                if count > 18 {
                    return None;
                }
            }
            // A point with digits on both sides.
            b'.' if scale.is_none() && i > 0 && i + 1 < digits.len() => {
                scale = Some(u32::try_from(digits.len() - i - 1).ok()?);
            }
            _ => return None,
        }
    }
    if count == 0 || (negative && mantissa == 0) {
        return None;
    }
    let signed = i64::try_from(mantissa).ok()?;
    Some(Decimal::new(
        if negative { -signed } else { signed },
        scale.unwrap_or(0),
    ))
}

/// Rounds to two decimal places (cents), half away from zero, and pads the scale to 2,
/// so `425` serialises as `"425.00"`.
pub fn cents(value: Decimal) -> Decimal {
    // Two places already (nearly every amount read): `rescale` would return it unchanged.
    if value.scale() == 2 {
        return value;
    }
    // Already whole cents (every amount a statement prints): nothing to round.
    let mut v = if value.scale() <= 2 {
        value
    } else {
        value.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero)
    };
    v.rescale(2);
    v
}

/// Gives an amount at least two decimal places without changing its value (`425` → `425.00`,
/// `0.125` stays `0.125`), so that `42100` and `"42100.00"` in an input are the same amount
/// with the same text and the same report id.
pub fn normalise(value: Decimal) -> Decimal {
    let mut v = value;
    if v.scale() < 2 {
        v.rescale(2);
    }
    v
}

/// The ISO 4217 minor-unit exponent of a currency code (`"KES"` → 2, `"UGX"` → 0), for the
/// currencies of the wallets the engine reads and their neighbours; `None` for another code.
///
/// Source: ISO 4217 list one (SIX, current edition). The exponent says how amounts are *settled*
/// and how people write them; a statement may still print decimals (Airtel Uganda prints
/// `Ugx 25,111.80`), and the engine keeps every amount as printed (see [`display`]).
pub fn currency_exponent(code: &str) -> Option<u32> {
    match code {
        "KES" | "TZS" | "GHS" | "LSL" | "ZAR" | "ZMW" | "MWK" | "NGN" | "ETB" | "MZN" | "CDF"
        | "USD" | "EUR" => Some(2),
        "UGX" | "RWF" | "XOF" | "XAF" | "BIF" | "GNF" => Some(0),
        _ => None,
    }
}

/// An amount for a person (a sentence, a card, a chart label), in `currency` (ISO 4217 code,
/// printed as given), in the currency's customary form: rounded half away from zero to its
/// [`currency_exponent`] places (two for a code the table does not know), thousands grouped:
/// `display("KES", 12345.6)` is `"KES 12,345.60"`, `display("UGX", 5874193.55)` is
/// `"UGX 5,874,194"` (the shilling has no minor unit in use), a negative amount `"-GHS 59.55"`.
///
/// Prose only: the report's data (insight values, totals, monthly figures) keeps every amount
/// exact, as the statement printed it, with two decimal places.
pub fn display(currency: &str, value: Decimal) -> String {
    display_places(currency, value, currency_exponent(currency).unwrap_or(2))
}

/// [`display`] with `places` decimal places (0–4), whatever the currency's exponent.
pub fn display_places(currency: &str, value: Decimal, places: u32) -> String {
    let text = grouped(value, places);
    match text.strip_prefix('-') {
        Some(abs) => format!("-{currency} {abs}"),
        None => format!("{currency} {text}"),
    }
}

/// A number for a person: rounded half away from zero to `places` decimal places (0–4),
/// thousands grouped with `,`, `-` before a negative (never before a zero): `1234567.891` with
/// 2 places is `"1,234,567.89"`, `-1000.5` with 0 is `"-1,001"`.
pub fn grouped(value: Decimal, places: u32) -> String {
    let places = places.min(4);
    let mut m =
        value.round_dp_with_strategy(places, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    m.rescale(places);
    let text = m.abs().to_string();
    let (int, frac) = text.split_once('.').unwrap_or((&text, ""));
    let mut out = String::with_capacity(int.len() + int.len() / 3 + frac.len() + 2);
    if m.is_sign_negative() && !m.is_zero() {
        out.push('-');
    }
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    if !frac.is_empty() {
        out.push('.');
        out.push_str(frac);
    }
    out
}

/// A short label for an amount on a chart's scale: `0`, `850`, `12k`, `1.5M`, `2B`, `3T` (one
/// decimal at most; floats, since a scale is drawn, never summed).
pub fn compact(value: f64) -> String {
    let abs = value.abs();
    let (scaled, suffix) = if abs >= 1e12 {
        (value / 1e12, "T")
    } else if abs >= 1e9 {
        (value / 1e9, "B")
    } else if abs >= 1e6 {
        (value / 1e6, "M")
    } else if abs >= 1e3 {
        (value / 1e3, "k")
    } else {
        (value, "")
    };
    let text = format!("{scaled:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text}{suffix}")
}

/// serde for required amounts: serialise as a decimal string, deserialise from a string or an
/// integer, refuse floats.
pub mod serde_str {
    use rust_decimal::Decimal;
    use serde::de::{self, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    /// Serialises as a decimal string.
    pub fn serialize<S: Serializer>(value: &Decimal, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(value)
    }

    /// Deserialises from a decimal string or an integer; floats are an error.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        d.deserialize_any(MoneyVisitor)
    }

    pub(super) struct MoneyVisitor;

    /// `value`, or an error naming [`super::MAX_AMOUNT`] when it is beyond it.
    fn bounded<E: de::Error>(value: Decimal) -> Result<Decimal, E> {
        if super::within_limit(value) {
            Ok(value)
        } else {
            Err(E::custom(format!(
                "amount {value} is beyond the engine's limit of {} KES",
                super::MAX_AMOUNT
            )))
        }
    }

    impl Visitor<'_> for MoneyVisitor {
        type Value = Decimal;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("an amount as a decimal string such as \"425.00\"")
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Decimal, E> {
            super::parse_amount(v).ok_or_else(|| E::custom(format!("{v:?} is not an amount")))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Decimal, E> {
            bounded(Decimal::from(v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Decimal, E> {
            bounded(Decimal::from(v))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Decimal, E> {
            Err(E::custom(format!(
                "amount {v} is a JSON float; give money as a decimal string such as \"425.00\""
            )))
        }
    }
}

/// serde for optional amounts (`null` or absent is `None`).
pub mod serde_str_opt {
    use rust_decimal::Decimal;
    use serde::{Deserialize, Deserializer, Serializer};

    /// Serialises `Some` as a decimal string and `None` as `null`.
    pub fn serialize<S: Serializer>(value: &Option<Decimal>, s: S) -> Result<S::Ok, S::Error> {
        match value {
            Some(v) => s.collect_str(v),
            None => s.serialize_none(),
        }
    }

    /// Deserialises `null`, a decimal string or an integer; floats are an error.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Decimal>, D::Error> {
        #[derive(Deserialize)]
        struct Wrap(#[serde(with = "super::serde_str")] Decimal);
        Ok(Option::<Wrap>::deserialize(d)?.map(|w| w.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn amounts_beyond_the_limit_are_not_read() {
        assert_eq!(
            parse_amount("1,000,000,000,000.00"),
            Some(dec!(1000000000000.00))
        );
        assert_eq!(parse_amount("-1000000000000"), Some(dec!(-1000000000000)));
        assert_eq!(parse_amount("1000000000000.01"), None);
        assert_eq!(parse_amount("79228162514264337593543950335"), None);
        let json: Result<Wrapper, _> = serde_json::from_str(r#"{"v": 18446744073709551615}"#);
        assert!(json.is_err_and(|e| e.to_string().contains("beyond the engine's limit")));
    }

    #[derive(serde::Deserialize)]
    struct Wrapper {
        #[serde(with = "serde_str")]
        #[allow(dead_code)]
        v: Decimal,
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(4000))]

        /// The plain-number path reads exactly what `Decimal`'s parser reads: value, scale, sign.
        #[test]
        fn the_plain_path_is_decimals_parser(
            text in "[-+]?[0-9]{0,12}(\\.[0-9]{0,9})?|[-+.0-9]{0,20}|[0-9]{17,20}(\\.[0-9]{1,3})?"
        ) {
            if let Some(fast) = parse_plain(text.as_bytes()) {
                let slow: Decimal = text.parse().expect("Decimal parses what the plain path reads");
                proptest::prop_assert_eq!(fast, slow);
                proptest::prop_assert_eq!(fast.scale(), slow.scale());
                proptest::prop_assert_eq!(fast.is_sign_negative(), slow.is_sign_negative());
            }
        }
    }

    proptest::proptest! {
        /// The mantissa shortcut agrees with the exact comparison: any mantissa at scales
        /// 0–28, and values a few units of the last place around the limit at scales 0–16 (the
        /// most a 96-bit mantissa holds there).
        #[test]
        fn within_limit_is_the_exact_comparison(
            m in proptest::prelude::any::<i64>(),
            near in -3i64..=3,
            scale in 0u32..=28,
        ) {
            let limit = Decimal::from(MAX_AMOUNT);
            for v in [
                Decimal::new(m, scale),
                Decimal::from_i128_with_scale(
                    i128::from(MAX_AMOUNT) * 10i128.pow(scale.min(16)) + i128::from(near),
                    scale.min(16),
                ),
                -Decimal::new(i64::try_from(MAX_AMOUNT).unwrap_or(i64::MAX) + near, scale.min(2)),
            ] {
                proptest::prop_assert_eq!(within_limit(v), v.abs() <= limit, "{}", v);
            }
        }
    }

    proptest::proptest! {
        /// Whole cents skip the rounding and give what rounding gives.
        #[test]
        fn cents_of_whole_cents_is_rounding(m in proptest::prelude::any::<i64>(), scale in 0u32..=4) {
            let v = Decimal::new(m, scale);
            let mut rounded =
                v.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
            rounded.rescale(2);
            let ours = cents(v);
            proptest::prop_assert_eq!(ours, rounded);
            proptest::prop_assert_eq!(ours.scale(), rounded.scale());
        }
    }

    #[test]
    fn plain_numbers_take_the_short_path() {
        assert_eq!(parse_plain(b"1201133.99"), Some(dec!(1201133.99)));
        assert_eq!(parse_plain(b"-425.00").map(|d| d.scale()), Some(2));
        assert_eq!(parse_plain(b"+7"), Some(dec!(7)));
        for general in [
            "", "-", "1,201.00", " 5", "5.", ".5", "1.2.3", "-0.00", "KES 50",
        ] {
            assert_eq!(parse_plain(general.as_bytes()), None, "{general:?}");
        }
    }

    #[test]
    fn parses_statement_amounts() {
        assert_eq!(parse_amount("1,201,133.99"), Some(dec!(1201133.99)));
        assert_eq!(parse_amount("-425.00"), Some(dec!(-425.00)));
        assert_eq!(parse_amount(""), Some(Decimal::ZERO));
        assert_eq!(parse_amount("KES 50"), Some(dec!(50)));
        assert_eq!(parse_amount("Kshs. 1,050.00"), Some(dec!(1050.00)));
        assert_eq!(parse_amount("Ugx 25,111.80"), Some(dec!(25111.80)));
        assert_eq!(parse_amount("GHS 20.00"), Some(dec!(20.00)));
        assert_eq!(parse_amount("GH₵ 20.00"), Some(dec!(20.00)));
        assert_eq!(parse_amount("lsl 7.5"), Some(dec!(7.5)));
        assert_eq!(parse_amount("USD 5"), None);
        assert_eq!(parse_amount("12a"), None);
    }

    #[test]
    fn display_is_the_currencys_customary_form() {
        assert_eq!(display("KES", dec!(1234567.891)), "KES 1,234,567.89");
        assert_eq!(display("KES", dec!(0)), "KES 0.00");
        assert_eq!(display("UGX", dec!(5874193.55)), "UGX 5,874,194");
        assert_eq!(display("UGX", dec!(-950)), "-UGX 950");
        assert_eq!(display("UGX", dec!(0.00)), "UGX 0");
        assert_eq!(display("UGX", dec!(-0.4)), "UGX 0");
        assert_eq!(display("GHS", dec!(-59.555)), "-GHS 59.56");
        assert_eq!(display("XYZ", dec!(7)), "XYZ 7.00");
        assert_eq!(display_places("KES", dec!(1999.5), 0), "KES 2,000");
        assert_eq!(display("UGX", dec!(999.5)), "UGX 1,000");
        assert_eq!(grouped(dec!(-1000.5), 0), "-1,001");
        assert_eq!(grouped(dec!(-0.004), 2), "0.00");
        assert_eq!(grouped(dec!(999), 0), "999");
    }

    #[test]
    fn cents_pads_and_rounds() {
        assert_eq!(cents(dec!(425)).to_string(), "425.00");
        assert_eq!(cents(dec!(0.125)).to_string(), "0.13");
    }

    #[test]
    fn json_floats_are_refused() {
        #[derive(serde::Deserialize)]
        struct T(#[serde(with = "serde_str")] Decimal);
        assert_eq!(
            serde_json::from_str::<T>("\"12.50\"").map(|t| t.0).ok(),
            Some(dec!(12.50))
        );
        assert_eq!(
            serde_json::from_str::<T>("12").map(|t| t.0).ok(),
            Some(dec!(12))
        );
        assert!(serde_json::from_str::<T>("12.5").is_err());
    }
}
