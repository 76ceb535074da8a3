//! Whether the statements of an application are one person's: their holders' names compared
//! accent-, case- and order-insensitively (docs/applications.md).
//!
//! A name is read as the set of its words: decomposed to Unicode NFD with the combining marks
//! removed (`unicode-normalization`, the Rust implementation of UAX #15: `Zoë` → `ZOE`), upper
//! case, split on anything that is not a letter or a digit. Two names **match** when one's
//! words are all among the other's and they share at least two (`JANE W DOE` and `DOE JANE
//! WANJIRU` do not: `W` is not `WANJIRU`; `JANE DOE` and `DOE JANE WANJIRU` do), or when both
//! are a single equal word. Wallets print two or three of a person's names, in either order,
//! so a subset is the same person.
//!
//! Severity, decided: names that share a word but do not match are `info`
//! (`holder_name_variant`: a married name, an initial); names that share no word are a
//! `warning` (`holder_names_differ`: a person should look, it may be someone else's statement).
//! Not critical: a critical finding says the statements do not add up, and names are typed by
//! agents, transliterated and abbreviated differently by each wallet.

use std::collections::BTreeSet;

use unicode_normalization::UnicodeNormalization;
use unicode_normalization::char::is_combining_mark;

use crate::report::{Finding, Severity};

/// The words of a name: accents removed, upper case, sorted, once each.
pub(crate) fn words(name: &str) -> BTreeSet<String> {
    let plain: String = name.nfd().filter(|c| !is_combining_mark(*c)).collect();
    plain
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_uppercase)
        .collect()
}

/// How two names compare.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Likeness {
    /// The same person's name (see the module).
    Same,
    /// At least one word in common.
    Variant,
    /// No word in common.
    Different,
}

/// How the names `a` and `b` compare (see the module).
pub(crate) fn compare(a: &str, b: &str) -> Likeness {
    let (a, b) = (words(a), words(b));
    let common = a.intersection(&b).count();
    let subset = a.is_subset(&b) || b.is_subset(&a);
    if subset && (common >= 2 || (common == 1 && a.len() == 1 && b.len() == 1)) {
        Likeness::Same
    } else if common > 0 {
        Likeness::Variant
    } else {
        Likeness::Different
    }
}

/// The finding about the holders' `names` (one per statement that prints one), if any: the
/// least alike pair decides. The message names no one (reports are shared).
pub(crate) fn finding(names: &[&str]) -> Option<Finding> {
    let worst = names
        .iter()
        .enumerate()
        .flat_map(|(i, a)| names[i + 1..].iter().map(move |b| compare(a, b)))
        .max()?;
    match worst {
        Likeness::Same => None,
        Likeness::Variant => Some(Finding {
            code: "holder_name_variant".to_owned(),
            severity: Severity::Info,
            message: "The statements' holder names share a name but are not the same names \
                      (a married name or an initial?)"
                .to_owned(),
        }),
        Likeness::Different => Some(Finding {
            code: "holder_names_differ".to_owned(),
            severity: Severity::Warning,
            message: "The statements' holder names have no name in common: they may not be \
                      one person's statements"
                .to_owned(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accents_case_order_and_punctuation_do_not_matter() {
        assert_eq!(
            compare("Zoë  Wanjiru-Doe", "DOE WANJIRU ZOE"),
            Likeness::Same
        );
        assert_eq!(compare("JANE DOE", "doe jane wanjiru"), Likeness::Same);
        assert_eq!(compare("Amani", "AMANI"), Likeness::Same);
        assert_eq!(compare("JANE W DOE", "DOE JANE WANJIRU"), Likeness::Variant);
        assert_eq!(compare("JANE", "JANE DOE"), Likeness::Variant);
        assert_eq!(compare("JANE DOE", "JOHN ROE"), Likeness::Different);
    }

    #[test]
    fn the_least_alike_pair_decides_and_one_name_says_nothing() {
        assert_eq!(finding(&["JANE DOE"]), None);
        assert_eq!(finding(&["JANE DOE", "Doe Jane"]), None);
        let f = finding(&["JANE DOE", "DOE JANE", "JOHN ROE"]).expect("a finding");
        assert_eq!(
            (f.code.as_str(), f.severity),
            ("holder_names_differ", Severity::Warning)
        );
        let f = finding(&["JANE WANJIRU DOE", "JANE ACHIENG"]).expect("a finding");
        assert_eq!(f.severity, Severity::Info);
        assert!(!f.message.contains("JANE"));
    }
}
