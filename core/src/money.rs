//! Money helpers: exact decimal amounts in major units, and their serde form.
//!
//! On the wire (canonical JSON, CSV) an amount is a decimal string such as `"1201133.99"`.
//! Integers are accepted on input; JSON floats are refused, because a float has already lost
//! the cents that the statement printed.

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

/// An amount for a person, in `currency` (ISO 4217 code, printed as given), rounded half away
/// from zero to two decimal places with thousands grouped: `display("KES", 12345.6)` is
/// `"KES 12,345.60"`, a negative amount `"-UGX 950.00"`. Two places whatever the ISO exponent of
/// the currency, as the wallets print them (Airtel Money Uganda prints `Ugx 25,111.80` although
/// ISO 4217 gives UGX no minor unit).
pub fn display(currency: &str, value: Decimal) -> String {
    let mut m =
        value.round_dp_with_strategy(2, rust_decimal::RoundingStrategy::MidpointAwayFromZero);
    m.rescale(2);
    let text = m.abs().to_string();
    let (int, frac) = text.split_once('.').unwrap_or((&text, "00"));
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    let sign = if m.is_sign_negative() && !m.is_zero() {
        "-"
    } else {
        ""
    };
    format!("{sign}{currency} {grouped}.{frac}")
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
