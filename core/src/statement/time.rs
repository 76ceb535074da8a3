//! `YYYY-MM-DD HH:MM:SS`, the completion time of Safaricom's statements and exports, read
//! without interpreting a `chrono` format string per row.

use chrono::{NaiveDate, NaiveDateTime};

/// Text [`iso_seconds`] leaves to the general parser.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OtherShape;

/// Reads `text` when it has exactly the shape `YYYY-MM-DD HH:MM:SS` (ASCII digits): `Ok` of
/// what `NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S").ok()` gives (`Ok(None)` for
/// an impossible date or time).
///
/// # Errors
/// [`OtherShape`] when the shape differs, or for a leap second (`:60`), which only the general
/// parser reads: the caller falls back to it.
pub(crate) fn iso_seconds(text: &str) -> Result<Option<NaiveDateTime>, OtherShape> {
    let b = text.as_bytes();
    let shape = b.len() == 19
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b' '
        && b[13] == b':'
        && b[16] == b':'
        && [0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]
            .iter()
            .all(|i| b[*i].is_ascii_digit());
    if !shape {
        return Err(OtherShape);
    }
    let n = |from: usize, to: usize| {
        b[from..to]
            .iter()
            .fold(0u32, |acc, d| acc * 10 + u32::from(d - b'0'))
    };
    let second = n(17, 19);
    if second == 60 {
        return Err(OtherShape);
    }
    let year = i32::try_from(n(0, 4)).map_err(|_| OtherShape)?;
    Ok(NaiveDate::from_ymd_opt(year, n(5, 7), n(8, 10))
        .and_then(|d| d.and_hms_opt(n(11, 13), n(14, 16), second)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn general(text: &str) -> Option<NaiveDateTime> {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%d %H:%M:%S").ok()
    }

    #[test]
    fn reads_what_chrono_reads() {
        for t in [
            "2024-05-23 08:15:00",
            "2024-02-29 23:59:59",
            "2023-02-29 10:00:00",
            "2024-13-01 10:00:00",
            "2024-01-01 24:00:00",
            "0000-01-01 00:00:00",
        ] {
            assert_eq!(iso_seconds(t), Ok(general(t)), "{t}");
        }
        assert_eq!(iso_seconds("2024-01-01 23:59:60"), Err(OtherShape));
        assert_eq!(iso_seconds("2024-1-01 10:00:00"), Err(OtherShape));
        assert_eq!(iso_seconds("2024-01-01T10:00:00"), Err(OtherShape));
    }

    proptest! {
        #[test]
        fn agrees_with_chrono_on_every_shaped_text(
            y in 0u32..10000, mo in 0u32..100, d in 0u32..100,
            h in 0u32..100, mi in 0u32..100, s in 0u32..100,
        ) {
            let t = format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}");
            let fast = iso_seconds(&t);
            prop_assert_eq!(fast.is_err(), s == 60);
            if let Ok(fast) = fast {
                prop_assert_eq!(fast, general(&t));
            }
        }
    }
}
