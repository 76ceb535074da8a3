//! M-Pesa receipt numbers carry their day.
//!
//! A Safaricom receipt (`RIP5XXXXXX`) is ten upper-case letters and digits whose first three
//! characters are the day the transaction was made, in East Africa Time:
//! - the year as a letter: `A` + (year − 2006), so `N` 2019, `O` 2020 … `S` 2024, `T` 2025;
//! - the month as a letter: `A` January … `L` December;
//! - the day of the month as one character: `1`–`9`, then `A` = 10 … `V` = 31.
//!
//! The scheme is public (a receipt beginning `RIP` on 25 September 2023 made it known) and
//! measured on the seven shared Kenyan samples (2019–2024, PDF and CSV): 18,830 of 18,831
//! receipts carry their row's completion day. The other is a reversal completed the morning
//! after its receipt's day: a reversal may complete on a later day than its receipt's.

#[cfg(any(test, feature = "testing"))]
use chrono::Datelike;
use chrono::NaiveDate;

/// The first year letter's year (`A`).
const FIRST_YEAR: i32 = 2006;

/// The day `receipt` carries (its first three characters), or `None` when they are not a
/// date in the scheme (a receipt of another scheme, or a made-up one such as `TST0000001`).
pub(crate) fn day_of(receipt: &str) -> Option<NaiveDate> {
    let mut chars = receipt.chars();
    let (y, m, d) = (chars.next()?, chars.next()?, chars.next()?);
    let year = FIRST_YEAR + i32::try_from(letter(y)?).ok()?;
    let month = letter(m)? + 1;
    let day = match d {
        '1'..='9' => d.to_digit(10)?,
        _ => letter(d)? + 10,
    };
    NaiveDate::from_ymd_opt(year, month, day)
}

/// The three characters of `day`'s receipts (`2023-09-25` → `"RIP"`), for the synthetic
/// statements; `None` outside 2006–2031 (26 year letters).
#[cfg(any(test, feature = "testing"))]
pub(crate) fn day_code(day: NaiveDate) -> Option<String> {
    let year = u32::try_from(day.year() - FIRST_YEAR)
        .ok()
        .filter(|y| *y < 26)?;
    let of = |n: u32| char::from_u32(u32::from(b'A') + n);
    let d = day.day();
    let day_char = if d < 10 {
        char::from_digit(d, 10)?
    } else {
        of(d - 10)?
    };
    Some(
        [of(year)?, of(day.month0())?, day_char]
            .into_iter()
            .collect(),
    )
}

/// A receipt of Safaricom's form made at `at` (its day's code), its last seven characters
/// `tail`, for rows a test adds by hand: (2023-09-25 10:00, `"ZED0001"`) → `RIPZED0001`; `ZZZ`
/// for a day outside 2006–2031.
#[cfg(feature = "testing")]
pub fn receipt_at(at: chrono::NaiveDateTime, tail: &str) -> String {
    day_code(at.date()).unwrap_or_else(|| "ZZZ".to_owned()) + tail
}

/// `A` = 0 … `Z` = 25.
fn letter(c: char) -> Option<u32> {
    c.is_ascii_uppercase()
        .then(|| u32::from(c) - u32::from(b'A'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).expect("a date")
    }

    #[test]
    fn the_public_example_reads_as_its_day() {
        assert_eq!(day_of("RIP5XXXXXX"), Some(date(2023, 9, 25)));
        assert_eq!(day_code(date(2023, 9, 25)).as_deref(), Some("RIP"));
        assert_eq!(day_of("NA1AAAAAAA"), Some(date(2019, 1, 1)));
        assert_eq!(day_of("SLVAAAAAAA"), Some(date(2024, 12, 31)));
    }

    #[test]
    fn every_day_reads_back() {
        let mut day = date(2006, 1, 1);
        while day < date(2032, 1, 1) {
            let code = day_code(day).expect("a code");
            assert_eq!(day_of(&format!("{code}0000000")), Some(day), "{code}");
            day = day.succ_opt().expect("a next day");
        }
        assert_eq!(day_code(date(2032, 1, 1)), None);
    }

    #[test]
    fn receipts_of_no_date_read_as_none() {
        // month letter past L, day 0, day letter past the month, lower case, too short
        for receipt in [
            "TST0000001",
            "SMD0000001",
            "SB0AAAAAAA",
            "SBUAAAAAAA",
            "sja1",
            "SJ",
        ] {
            assert_eq!(day_of(receipt), None, "{receipt}");
        }
    }
}
