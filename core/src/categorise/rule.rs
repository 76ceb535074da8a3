//! The shape of a categorisation rule: what the normalised Details text must look like
//! ([`Match`]), the direction of the row ([`Direction`]), and the category it names. Every
//! wallet's table (`crate::wallets::safaricom_ke::TABLE`, `crate::wallets::airtel_ug::TABLE`,
//! …) is a list of these.

use super::Category;

/// Which way money moved on a row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Money came in (Paid In greater than Withdrawn).
    In,
    /// Money went out (or nothing moved).
    Out,
}

/// How a rule matches the normalised Details text (see [`super::normalise`]). Patterns are lower case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Match {
    /// The Details cell is empty (17 rows of one real 2023 statement are).
    Empty,
    /// The text starts with the pattern.
    StartsWith(&'static str),
    /// The text contains the pattern anywhere.
    Contains(&'static str),
    /// The text contains any of the patterns anywhere.
    ContainsAny(&'static [&'static str]),
    /// The text contains any of the patterns as a whole word or phrase: the characters just
    /// before and after it are not letters or digits. `"tala"` matches `"tala kenya"` but not
    /// `"italaji"`.
    WordAny(&'static [&'static str]),
}

impl Match {
    /// Whether the normalised text matches.
    pub fn matches(&self, text: &str) -> bool {
        match self {
            Match::Empty => text.is_empty(),
            Match::StartsWith(p) => text.starts_with(p),
            Match::Contains(p) => text.contains(p),
            Match::ContainsAny(ps) => ps.iter().any(|p| text.contains(p)),
            Match::WordAny(ps) => ps.iter().any(|p| contains_word(text, p)),
        }
    }
}

/// Whether `text` contains `word` with no letter or digit right before or after it.
fn contains_word(text: &str, word: &str) -> bool {
    if word.is_empty() {
        return false;
    }
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// One row of the categorisation table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rule {
    /// What the normalised Details text must look like.
    pub matcher: Match,
    /// The direction the row must have; `None` for either.
    pub direction: Option<Direction>,
    /// The category of a matching row.
    pub category: Category,
}

pub(crate) const fn rule(matcher: Match, category: Category) -> Rule {
    Rule {
        matcher,
        direction: None,
        category,
    }
}

pub(crate) const fn rule_in(matcher: Match, category: Category) -> Rule {
    Rule {
        matcher,
        direction: Some(Direction::In),
        category,
    }
}

pub(crate) const fn rule_out(matcher: Match, category: Category) -> Rule {
    Rule {
        matcher,
        direction: Some(Direction::Out),
        category,
    }
}
