//! Number, money and date formatting for the PDF report (English, thousands separated by `,`).

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::prelude::ToPrimitive;
use rust_decimal::{Decimal, RoundingStrategy};

/// `1234567.891` with `dp = 2` → `"1,234,567.89"` (half away from zero; `-` for negatives).
pub(crate) fn grouped(value: Decimal, dp: u32) -> String {
    let rounded = value.round_dp_with_strategy(dp, RoundingStrategy::MidpointAwayFromZero);
    let negative = rounded.is_sign_negative() && !rounded.is_zero();
    let text = format!("{:.*}", dp as usize, rounded.abs());
    let (int, frac) = text.split_once('.').unwrap_or((text.as_str(), ""));
    let mut out = String::with_capacity(text.len() + text.len() / 3 + 1);
    if negative {
        out.push('-');
    }
    let digits = int.len();
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (digits - i) % 3 == 0 {
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

/// `"KES 45,210.50"`: an amount in major units with two decimals after its currency code.
pub(crate) fn money(value: Decimal, currency: &str) -> String {
    format!("{currency} {}", grouped(value, 2))
}

/// A short axis label for an amount: `0`, `850`, `12k`, `1.5M`, `2B`.
pub(crate) fn compact(value: f64) -> String {
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

/// A plain decimal without trailing zeros: `12.50` → `"12.5"`, `3.00` → `"3"`.
fn plain(value: Decimal) -> String {
    let n = value.normalize();
    if n.scale() == 0 {
        grouped(n, 0)
    } else {
        grouped(n, n.scale().min(2))
    }
}

/// The figure of an insight, by its unit (see [`crate::report::Insight::unit`]): money with its
/// currency, ratios as percentages, counts grouped, durations with their unit.
pub(crate) fn figure(value: Decimal, unit: &str, currency: &str) -> String {
    let one = value == Decimal::ONE;
    let per_month = unit.strip_suffix("/month");
    match unit {
        u if u == currency || u == "money" => money(value, currency),
        _ if per_month.is_some_and(|u| u == currency || u == "money") => {
            format!("{} / month", money(value, currency))
        }
        "ratio" => {
            let pct = grouped(value * Decimal::ONE_HUNDRED, 1);
            format!("{}%", pct.strip_suffix(".0").unwrap_or(&pct))
        }
        "months" if one => "1 month".to_owned(),
        "months" => format!("{} months", plain(value)),
        "days" if one => "1 day".to_owned(),
        "days" => format!("{} days", plain(value)),
        "count" | "" => plain(value),
        other => format!("{} {other}", plain(value)),
    }
}

/// `"2023-07-01"` → `"1 Jul 2023"`; anything that is not an ISO date is returned unchanged.
pub(crate) fn long_date(iso: &str) -> String {
    NaiveDate::parse_from_str(iso, "%Y-%m-%d")
        .map_or_else(|_| iso.to_owned(), |d| d.format("%-d %b %Y").to_string())
}

/// `"24 Nov 2026, 09:30 EAT"`: a generation time, East Africa Time.
pub(crate) fn timestamp(at: NaiveDateTime) -> String {
    at.format("%-d %b %Y, %H:%M EAT").to_string()
}

/// `"2024-06"` → `("Jun", Some("2024"))`; anything else → `(text, None)`.
pub(crate) fn month_parts(month: &str) -> (String, Option<String>) {
    NaiveDate::parse_from_str(&format!("{month}-01"), "%Y-%m-%d").map_or_else(
        |_| (month.to_owned(), None),
        |d| (d.format("%b").to_string(), Some(d.format("%Y").to_string())),
    )
}

/// A decimal as `f64` for drawing (0 when it does not fit).
pub(crate) fn to_f64(value: Decimal) -> f64 {
    value.to_f64().unwrap_or(0.0)
}

/// [`clean`] text with its first letter in upper case, for sentences.
pub(crate) fn sentence(text: &str) -> String {
    let cleaned = clean(text);
    let mut chars = cleaned.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// Text with control characters turned into spaces and runs of spaces collapsed, so a name
/// or message from a statement can never break the layout.
pub(crate) fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last_space = true;
    for c in text.chars() {
        let c = if c.is_control() || c.is_whitespace() {
            ' '
        } else {
            c
        };
        if c == ' ' {
            if !last_space {
                out.push(' ');
            }
            last_space = true;
        } else {
            out.push(c);
            last_space = false;
        }
    }
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn groups_thousands() {
        assert_eq!(grouped(dec!(1234567.891), 2), "1,234,567.89");
        assert_eq!(grouped(dec!(999), 0), "999");
        assert_eq!(grouped(dec!(-1000.5), 0), "-1,001");
        assert_eq!(grouped(dec!(0.004), 2), "0.00");
        assert_eq!(money(dec!(45210.5), "KES"), "KES 45,210.50");
    }

    #[test]
    fn formats_figures_by_unit() {
        assert_eq!(figure(dec!(0.375), "ratio", "KES"), "37.5%");
        assert_eq!(figure(dec!(0), "ratio", "KES"), "0%");
        assert_eq!(figure(dec!(12), "months", "KES"), "12 months");
        assert_eq!(figure(dec!(1), "months", "KES"), "1 month");
        assert_eq!(figure(dec!(1234), "count", "KES"), "1,234");
        assert_eq!(figure(dec!(2.50), "days", "KES"), "2.5 days");
        assert_eq!(figure(dec!(100), "KES/month", "KES"), "KES 100.00 / month");
        assert_eq!(figure(dec!(100), "UGX/month", "UGX"), "UGX 100.00 / month");
        assert_eq!(figure(dec!(5), "GHS", "GHS"), "GHS 5.00");
    }

    #[test]
    fn formats_dates_and_axis_labels() {
        assert_eq!(long_date("2023-07-01"), "1 Jul 2023");
        assert_eq!(long_date("garbage"), "garbage");
        assert_eq!(
            month_parts("2024-06"),
            ("Jun".to_owned(), Some("2024".to_owned()))
        );
        assert_eq!(compact(0.0), "0");
        assert_eq!(compact(12_000.0), "12k");
        assert_eq!(compact(1_500_000.0), "1.5M");
        assert_eq!(clean("A\u{0}B \n\t C  "), "A B C");
        assert_eq!(sentence(" the balance"), "The balance");
        assert_eq!(sentence(""), "");
    }
}
