//! The text of a statement's content streams as the tamper generator reads and writes it:
//! string operands decoded and encoded (`WinAnsi` literals, `OpenPDF`'s two-byte glyph ids),
//! the shapes of a row's cells, and the rows found in drawing order.

use chrono::NaiveDateTime;
use lopdf::Object;
use rust_decimal::Decimal;

use super::Below;
use crate::testing::SplitMix64;

/// How a string operand is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Encoding {
    /// One byte per character (`WinAnsi`).
    Literal,
    /// Two-byte glyph ids, glyph = ASCII − 29 (`OpenPDF`'s `DejaVu` Sans).
    Glyph,
}

/// One text-showing operation (`Tj`) of one page.
#[derive(Debug, Clone)]
pub(super) struct Item {
    pub(super) page: usize,
    pub(super) op: usize,
    pub(super) text: String,
    pub(super) encoding: Encoding,
}

pub(super) fn decode(object: &Object) -> Option<(String, Encoding)> {
    let Object::String(bytes, _) = object else {
        return None;
    };
    // lopdf's content parser does not keep the hex form, so tell by the bytes: WinAnsi text
    // never holds NUL, two-byte glyph ids below 256 always do.
    let glyphs = !bytes.is_empty() && bytes.len() % 2 == 0 && bytes.chunks(2).all(|c| c[0] == 0);
    if glyphs {
        let text = bytes
            .chunks(2)
            .map(|c| char::from(c[1].saturating_add(29)))
            .collect();
        Some((text, Encoding::Glyph))
    } else {
        Some((
            bytes.iter().map(|b| char::from(*b)).collect(),
            Encoding::Literal,
        ))
    }
}

pub(super) fn encode(text: &str, encoding: Encoding) -> Object {
    match encoding {
        Encoding::Literal => Object::String(
            text.chars()
                .map(|c| u8::try_from(c).unwrap_or(b'?'))
                .collect(),
            lopdf::StringFormat::Literal,
        ),
        Encoding::Glyph => Object::String(
            text.chars()
                .flat_map(|c| [0, u8::try_from(c).unwrap_or(b'?').saturating_sub(29)])
                .collect(),
            lopdf::StringFormat::Hexadecimal,
        ),
    }
}

pub(super) fn is_receipt(s: &str) -> bool {
    s.len() == 10
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && s.chars().any(|c| c.is_ascii_uppercase())
}

pub(super) fn is_time(s: &str) -> bool {
    NaiveDateTime::parse_from_str(s.trim(), "%Y-%m-%d %H:%M:%S").is_ok()
}

pub(super) fn is_money(s: &str) -> bool {
    money(s).is_some()
}

pub(super) fn money(s: &str) -> Option<Decimal> {
    let s = s.trim();
    let (_, cents) = s.rsplit_once('.')?;
    if cents.len() != 2 {
        return None;
    }
    s.replace(',', "").parse().ok()
}

pub(super) fn is_status(s: &str) -> bool {
    matches!(s.trim(), "Completed" | "Cancelled" | "Failed" | "Pending")
}

/// A transaction row: indexes into the item list.
#[derive(Debug, Clone)]
pub(super) struct Row {
    pub(super) receipt: usize,
    pub(super) time: usize,
    pub(super) details: Vec<usize>,
    pub(super) status: usize,
    /// The Paid In / Withdrawn amount, then the balance.
    pub(super) money: Vec<usize>,
}

pub(super) fn rows(items: &[Item]) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut i = 0;
    while i + 1 < items.len() {
        if !(is_receipt(&items[i].text) && is_time(&items[i + 1].text)) {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        let mut details = Vec::new();
        while j < items.len() && j < i + 8 && !is_status(&items[j].text) {
            details.push(j);
            j += 1;
        }
        if j >= items.len() || !is_status(&items[j].text) {
            i += 1;
            continue;
        }
        let status = j;
        let mut money = Vec::new();
        let mut k = j + 1;
        while k < items.len() && money.len() < 2 && is_money(&items[k].text) {
            money.push(k);
            k += 1;
        }
        if money.len() == 2 {
            rows.push(Row {
                receipt: i,
                time: i + 1,
                details,
                status,
                money,
            });
        }
        i = k;
    }
    rows
}

/// `amount` with the character at `place` of its two-decimal form, counted from the right (0:
/// the last cents digit, 3: the units digit, 4: the tens digit), moved by five: a digit typed
/// over, the length kept (a leading digit never becomes 0); `None` when the amount has no such
/// digit. The digit sweeps of the integrity tests type every amount over with it.
pub fn typed_over(amount: Decimal, place: usize) -> Option<Decimal> {
    let text = format!("{amount:.2}");
    let at = text.len().checked_sub(place + 1)?;
    let digit = text.as_bytes()[at].checked_sub(b'0').filter(|d| *d < 10)?;
    let mut typed = (digit + 5) % 10;
    if at == 0 && typed == 0 {
        typed = if digit == 1 { 2 } else { 1 };
    }
    format!("{}{typed}{}", &text[..at], &text[at + 1..])
        .parse()
        .ok()
}

/// Replaces one digit of `text` (never making a leading zero); `None` when it has none.
pub(super) fn change_digit(text: &str, rng: &mut SplitMix64) -> Option<String> {
    let positions: Vec<usize> = text
        .char_indices()
        .filter(|(_, c)| c.is_ascii_digit())
        .map(|(i, _)| i)
        .collect();
    if positions.is_empty() {
        return None;
    }
    let at = positions[rng.below(positions.len())];
    let old = text[at..].chars().next()?.to_digit(10)?;
    let leading = positions.first() == Some(&at) && positions.len() > 3;
    let mut new = old;
    while new == old || (leading && new == 0) {
        new = u32::try_from(rng.below(10)).unwrap_or(0);
    }
    let mut out = text.to_owned();
    out.replace_range(at..=at, &new.to_string());
    Some(out)
}

/// `value` (its absolute value) with two decimals, thousands separated by commas when
/// `commas` (`1,234.50`), as the statements print amounts.
pub(super) fn format_money(value: Decimal, commas: bool) -> String {
    let v = value.abs().round_dp(2);
    if commas {
        crate::wallets::synthetic::grouped(v)
    } else {
        format!("{v:.2}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyph_strings_round_trip() {
        let object = encode("-1,234.50", Encoding::Glyph);
        assert_eq!(
            decode(&object),
            Some(("-1,234.50".to_owned(), Encoding::Glyph))
        );
        let object = encode("QAV2EXEL4G", Encoding::Literal);
        assert_eq!(
            decode(&object),
            Some(("QAV2EXEL4G".to_owned(), Encoding::Literal))
        );
    }

    #[test]
    fn a_changed_digit_is_a_different_number() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..50 {
            let new = change_digit("1,234.50", &mut rng).unwrap_or_default();
            assert_ne!(new, "1,234.50");
            assert!(!new.starts_with('0'));
            assert!(money(&new).is_some());
        }
    }
}
