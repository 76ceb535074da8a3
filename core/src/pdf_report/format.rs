//! Number, money and date formatting for the PDF report (English, thousands separated by `,`).

use chrono::{NaiveDate, NaiveDateTime, Offset, TimeZone};
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

/// `1234567.891` with `dp = 2` → `"1,234,567.89"` (half away from zero; `-` for negatives):
/// [`crate::money::grouped`].
pub(crate) fn grouped(value: Decimal, dp: u32) -> String {
    crate::money::grouped(value, dp)
}

/// `"KES 45,210.50"`, `"UGX 5,874,194"`: an amount in major units after its currency code, in
/// the currency's customary form ([`crate::money::display`]).
pub(crate) fn money(value: Decimal, currency: &str) -> String {
    crate::money::display(currency, value)
}

/// A short axis label for an amount: [`crate::money::compact`].
pub(crate) fn compact(value: f64) -> String {
    crate::money::compact(value)
}

/// The figure of an insight, by its unit: [`crate::insights::figure`].
pub(crate) fn figure(value: Decimal, unit: &str, currency: &str) -> String {
    crate::insights::figure(value, unit, currency)
}

/// `"2023-07-01"` → `"1 Jul 2023"`; anything that is not an ISO date is returned unchanged.
pub(crate) fn long_date(iso: &str) -> String {
    NaiveDate::parse_from_str(iso, "%Y-%m-%d")
        .map_or_else(|_| iso.to_owned(), |d| d.format("%-d %b %Y").to_string())
}

/// A UTC time in the IANA time zone `zone` (the statement's wallet's, [`crate::wallets::Wallet::time_zone`]):
/// the local time, its offset from UTC in seconds and the zone's abbreviation (`"EAT"`,
/// `"GMT"`, `"SAST"`). UTC itself, labelled `"UTC"`, without a zone or for a name the tz
/// database does not know.
pub(crate) fn local(utc: NaiveDateTime, zone: Option<&str>) -> (NaiveDateTime, i32, String) {
    match zone.and_then(|z| z.parse::<chrono_tz::Tz>().ok()) {
        Some(tz) => {
            let at = tz.from_utc_datetime(&utc);
            (
                at.naive_local(),
                at.offset().fix().local_minus_utc(),
                at.format("%Z").to_string(),
            )
        }
        None => (utc, 0, "UTC".to_owned()),
    }
}

/// `"24 Nov 2026, 09:30 EAT"`: a UTC time shown in the zone `zone` (see [`local`]), always
/// labelled with the zone it is in.
pub(crate) fn timestamp(utc: NaiveDateTime, zone: Option<&str>) -> String {
    let (at, _, label) = local(utc, zone);
    format!("{} {label}", at.format("%-d %b %Y, %H:%M"))
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
        assert_eq!(figure(dec!(100), "UGX/month", "UGX"), "UGX 100 / month");
        assert_eq!(money(dec!(5874193.55), "UGX"), "UGX 5,874,194");
        assert_eq!(figure(dec!(5), "GHS", "GHS"), "GHS 5.00");
    }

    /// The generation time is said in the statement's zone, labelled; UTC without one.
    #[test]
    fn times_are_in_the_wallets_zone_and_labelled() {
        let utc = NaiveDate::from_ymd_opt(2026, 11, 24)
            .and_then(|d| d.and_hms_opt(6, 30, 0))
            .unwrap_or_default();
        assert_eq!(
            timestamp(utc, Some("Africa/Nairobi")),
            "24 Nov 2026, 09:30 EAT"
        );
        assert_eq!(
            timestamp(utc, Some("Africa/Kampala")),
            "24 Nov 2026, 09:30 EAT"
        );
        assert_eq!(
            timestamp(utc, Some("Africa/Accra")),
            "24 Nov 2026, 06:30 GMT"
        );
        assert_eq!(
            timestamp(utc, Some("Africa/Maseru")),
            "24 Nov 2026, 08:30 SAST"
        );
        assert_eq!(timestamp(utc, None), "24 Nov 2026, 06:30 UTC");
        assert_eq!(
            timestamp(utc, Some("Nowhere/Atlantis")),
            "24 Nov 2026, 06:30 UTC"
        );
        assert_eq!(local(utc, Some("Africa/Maseru")).1, 7200);
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
