//! How rows name the other party, as grammars several wallets share (each wallet's
//! [`Counterparty`](super::Counterparty) picks one or writes its own): the M-Pesa platform's
//! "the text after the last `" - "`" (Safaricom Kenya, Vodacom Lesotho), and "the number, else
//! the name, after a word" (Airtel Uganda's `Sent Money to 2567… , NAME`).

use crate::categorise::normalise_into;
use crate::statement::Transaction;

/// The counterparty of a person-to-person row: the normalised name after the last `" - "`
/// (see [`crate::categorise::normalise`]), written into `buffer`.
pub(super) fn after_last_dash<'b>(t: &Transaction, buffer: &'b mut String) -> Option<&'b str> {
    let details = t.details.as_str();
    let bytes = details.as_bytes();
    // Text of ASCII whose only white space is the space (the Details of every genuine
    // statement): its normal form is its words, split at spaces, lower-cased and joined by
    // one space, so `" - "` in it is a word `-` that is neither the first word nor the last,
    // and the name is the words after it. Only those few words are copied (normalising the
    // whole text took ~600 instructions a row: `callgrind`, 2026-11-27).
    let other_space = bytes.iter().fold(0u8, |odd, b| {
        odd | u8::from(!b.is_ascii()) | u8::from(b.wrapping_sub(b'\t') < 5)
    });
    if other_space == 0 {
        let is_word = |b: &u8| *b != b' ';
        let dash = spaced_dashes(bytes).find(|&dash| {
            bytes[..dash].iter().rev().any(is_word) && bytes[dash + 1..].iter().any(is_word)
        })?;
        buffer.clear();
        for word in details[dash + 1..].split(' ').filter(|w| !w.is_empty()) {
            if !buffer.is_empty() {
                buffer.push(' ');
            }
            buffer.push_str(word);
        }
        buffer.make_ascii_lowercase();
        return Some(buffer.as_str());
    }
    normalise_into(details, buffer);
    let start = after_last_separator(buffer.as_bytes())?;
    buffer.drain(..start);
    let kept = buffer.trim_end().len();
    buffer.truncate(kept);
    let leading = buffer.len() - buffer.trim_start().len();
    buffer.drain(..leading);
    (!buffer.is_empty()).then_some(buffer.as_str())
}

/// The M-Pesa platform's name of the other party of a person-to-person row (Safaricom Kenya,
/// Vodacom Lesotho): the text after the last `" - "` ([`after_last_dash`]) without the phone
/// number Safaricom prints before the name since 2023 (`Customer Transfer to - 2547******678
/// JANE DOE`). The same number is masked two ways on one statement (`2547******678`,
/// `07******678`), and earlier layouts print it before the dash (`to 254712345678 - JANE
/// DOE`), so the name is the key a person keeps on every row (`jane doe`).
pub(super) fn mpesa_person<'b>(t: &Transaction, buffer: &'b mut String) -> Option<&'b str> {
    after_last_dash(t, buffer)?;
    let first = buffer.find(' ').unwrap_or(buffer.len());
    let is_number = first >= 6
        && buffer[..first]
            .bytes()
            .all(|b| b.is_ascii_digit() || b == b'*');
    if is_number && first < buffer.len() {
        buffer.drain(..=first);
    }
    Some(buffer.as_str())
}

/// Where the text after the last `" - "` of `text` starts: what `str::rsplit_once(" - ")`
/// splits at, found from the last `-` with a space on each side (the last such `-` is the
/// last match's, since a match's start is its `-` less one), without building a substring
/// searcher per row (`rsplit_once` was a quarter of the round trips' time, `perf`, 2026-11-27).
fn after_last_separator(text: &[u8]) -> Option<usize> {
    spaced_dashes(text).next().map(|dash| dash + 2)
}

/// The positions of the `-`s of `text` with a space on each side (each the middle of a
/// `" - "`), last first.
fn spaced_dashes(text: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memrchr_iter(b'-', text)
        .filter(|&dash| dash > 0 && text[dash - 1] == b' ' && text.get(dash + 1) == Some(&b' '))
}

/// The other party of a row that names it after `to` or `from`: its number when one follows
/// (digits, at least six; the last nine kept, so `2567…` and `07…` of one phone agree), else
/// the name up to the first `.` or `,`-separated part (`Sent Money to 256700000001 , JANE DOE`
/// → `#700000001`; `Received from 0700 , SC BANK` → `sc bank`).
pub(super) fn number_or_name_after_to_or_from<'b>(
    t: &Transaction,
    buffer: &'b mut String,
) -> Option<&'b str> {
    normalise_into(&t.details, buffer);
    let at = [" to ", " from "]
        .iter()
        .filter_map(|w| buffer.find(w).map(|i| i + w.len()))
        .min()?;
    let rest = buffer[at..].trim_start();
    if rest.starts_with('.') {
        return None;
    }
    let digits: String = rest
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ' ')
        .filter(char::is_ascii_digit)
        .collect();
    let key = if digits.len() >= 6 {
        format!("#{}", &digits[digits.len().saturating_sub(9)..])
    } else {
        let name = rest
            .split(['.', ','])
            .map(str::trim)
            .find(|part| !part.is_empty() && !part.chars().all(|c| c.is_ascii_digit()))?;
        name.to_owned()
    };
    buffer.clear();
    buffer.push_str(&key);
    Some(buffer.as_str())
}

/// Whether a row drew on or repaid the wallet's overdraft, by its category (its wallet's table
/// names the overdraft product).
pub(super) fn overdraft_category(t: &Transaction) -> bool {
    matches!(
        t.category,
        crate::categorise::Category::FulizaDraw | crate::categorise::Category::FulizaRepayment
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(details: &str) -> Option<String> {
        let t = Transaction {
            details: details.to_owned(),
            ..Transaction::empty()
        };
        after_last_dash(&t, &mut String::new()).map(str::to_owned)
    }

    #[test]
    fn a_person_is_one_key_whichever_way_the_number_is_printed() {
        let key = |details: &str| {
            let t = Transaction {
                details: details.to_owned(),
                ..Transaction::empty()
            };
            mpesa_person(&t, &mut String::new()).map(str::to_owned)
        };
        let jane = Some("jane doe".to_owned());
        assert_eq!(key("Customer Transfer to - 2547******678 JANE DOE"), jane);
        assert_eq!(key("Funds received from - 07******678 Jane  Doe"), jane);
        assert_eq!(key("Customer Transfer to 254712345678 - JANE DOE"), jane);
        assert_eq!(
            key("Customer Transfer to - 123456"),
            Some("123456".to_owned())
        );
        assert_eq!(key("Airtime Purchase"), None);
    }

    proptest::proptest! {
        /// The counterparty is the name after the last `" - "` of the normalised text, on texts
        /// of spaces, dashes, letters, other white space and other scripts.
        #[test]
        fn the_counterparty_is_read_from_the_normal_form(
            text in "[ aB-]{0,10}|[ aB\t\u{a0}é-]{0,10}"
        ) {
            let normal = crate::categorise::normalise(&text);
            let expected = normal
                .rsplit_once(" - ")
                .map(|(_, name)| name.trim().to_owned())
                .filter(|name| !name.is_empty());
            proptest::prop_assert_eq!(of(&text), expected);
        }

        /// The split is `rsplit_once`'s, on texts of spaces, dashes and letters.
        #[test]
        fn the_last_separator_is_where_rsplit_once_splits(text in "[ a-]{0,12}") {
            let expected = text.rsplit_once(" - ").map(|(head, _)| head.len() + 3);
            proptest::prop_assert_eq!(after_last_separator(text.as_bytes()), expected);
        }
    }
}
