//! Categorises every row from its Details text with its wallet's rule table ([`Table`]), into
//! the one category taxonomy every stage reads ([`Category`]).
//!
//! A table is data: a list of [`Rule`]s read top to bottom, the **first** rule that matches
//! wins. Every rule looks at the Details text *normalised* by [`normalise`] (lower case, runs of
//! white space collapsed to one space, so that a Details cell wrapped over several PDF lines
//! reads the same as its CSV export), optionally at the direction of the row (money in or out),
//! and names a [`Category`]. A Details text that no rule matches is [`Category::Other`]. Each
//! wallet's table, its block order and its sources live in the wallet's own place
//! (`crate::wallets`); this module is the matcher they share: every pattern of a table in one
//! Aho-Corasick automaton, and a memo of the Details a statement repeats.

mod rule;
mod text;

pub use rule::{Direction, Match, Rule};
pub(crate) use rule::{rule, rule_in, rule_out};
pub use text::normalise;
pub(crate) use text::normalise_into;

use std::sync::OnceLock;

use crate::statement::Transaction;

pub use crate::statement::Category;

/// How a pattern of a table must occur for its rule to match.
#[derive(Debug, Clone, Copy)]
enum Occurrence {
    Start,
    Anywhere,
    Word,
}

/// Every pattern of a table in one Aho-Corasick automaton: a Details text is scanned once for
/// all of them instead of once per rule.
#[derive(Debug)]
struct Patterns {
    automaton: aho_corasick::AhoCorasick,
    /// Per pattern: its rule (index into the table) and how it must occur.
    rules: Vec<(usize, Occurrence)>,
}

impl Patterns {
    fn of(table: &[Rule]) -> Self {
        let mut patterns: Vec<&'static str> = Vec::new();
        let mut rules = Vec::new();
        for (index, rule) in table.iter().enumerate() {
            let (list, occurrence): (&[&'static str], Occurrence) = match &rule.matcher {
                Match::Empty => (&[], Occurrence::Anywhere),
                Match::StartsWith(p) => (std::slice::from_ref(p), Occurrence::Start),
                Match::Contains(p) => (std::slice::from_ref(p), Occurrence::Anywhere),
                Match::ContainsAny(ps) => (ps, Occurrence::Anywhere),
                Match::WordAny(ps) => (ps, Occurrence::Word),
            };
            for p in list {
                patterns.push(p);
                rules.push((index, occurrence));
            }
        }
        // Standard semantics report every occurrence of every pattern, overlapping ones
        // included. A DFA: the fastest search, and small for tables of this size.
        let automaton = aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::DFA))
            .build(&patterns)
            .unwrap_or_else(|e| unreachable!("a rule table's patterns build an automaton: {e}"));
        Patterns { automaton, rules }
    }
}

/// A wallet's rule table and its automaton (built on first use, once per process).
#[derive(Debug)]
pub struct Table {
    rules: &'static [Rule],
    patterns: OnceLock<Patterns>,
}

impl Table {
    /// The table of `rules` (first match wins).
    pub const fn new(rules: &'static [Rule]) -> Self {
        Table {
            rules,
            patterns: OnceLock::new(),
        }
    }

    /// The rules, in the order they are tried.
    pub fn rules(&self) -> &'static [Rule] {
        self.rules
    }

    fn patterns(&self) -> &Patterns {
        self.patterns.get_or_init(|| Patterns::of(self.rules))
    }

    /// The index in [`Table::rules`] of the first rule that matches, or `None` (the row is
    /// [`Category::Other`]). `paid_in` is the direction of the row (`true` = money in).
    ///
    /// One pass of the automaton over the normalised text finds every rule a pattern
    /// occurrence satisfies (a whole-word rule is confirmed with [`Match::matches`]); the
    /// smallest index among them, and among the [`Match::Empty`] rules when the text is empty,
    /// is exactly the first rule of the table that matches.
    pub fn matching_rule(&self, details: &str, paid_in: bool) -> Option<usize> {
        self.matching_rule_normalised(&normalise(details), paid_in)
    }

    /// [`Table::matching_rule`] of a text already in [`normalise`]'s form.
    fn matching_rule_normalised(&self, text: &str, paid_in: bool) -> Option<usize> {
        let rules = self.rules;
        let direction = if paid_in {
            Direction::In
        } else {
            Direction::Out
        };
        let applies = |index: usize| rules[index].direction.is_none_or(|d| d == direction);
        let mut first = if text.is_empty() {
            (0..rules.len()).find(|i| rules[*i].matcher == Match::Empty && applies(*i))
        } else {
            None
        };
        let patterns = self.patterns();
        for found in patterns.automaton.find_overlapping_iter(text) {
            let (index, occurrence) = patterns.rules[found.pattern().as_usize()];
            if first.is_some_and(|f| f <= index) || !applies(index) {
                continue;
            }
            let satisfied = match occurrence {
                Occurrence::Anywhere => true,
                Occurrence::Start => found.start() == 0,
                Occurrence::Word => rules[index].matcher.matches(text),
            };
            if satisfied {
                first = Some(index);
            }
        }
        first
    }

    /// [`Table::matching_rule`] as the table reads: every rule tried in order (the reference
    /// the automaton is tested against).
    #[cfg(test)]
    fn matching_rule_in_order(&self, details: &str, paid_in: bool) -> Option<usize> {
        let text = normalise(details);
        let direction = if paid_in {
            Direction::In
        } else {
            Direction::Out
        };
        self.rules
            .iter()
            .position(|r| r.direction.is_none_or(|d| d == direction) && r.matcher.matches(&text))
    }

    /// The category of a Details text: that of the first matching rule, [`Category::Other`]
    /// when none matches. `paid_in` is the direction of the row: `true` when money came in
    /// (Paid In greater than Withdrawn).
    pub fn categorise(&self, details: &str, paid_in: bool) -> Category {
        self.category_of_rule(self.matching_rule(details, paid_in))
    }

    /// The category of the matching rule (an index into the table); no rule is
    /// [`Category::Other`].
    fn category_of_rule(&self, rule: Option<usize>) -> Category {
        rule.map_or(Category::Other, |i| self.rules[i].category)
    }

    /// Sets the category of every row from its Details and direction.
    ///
    /// A category given in the input (a CSV `Category` column, the canonical JSON's `category`)
    /// is informational only and is replaced: the score must not depend on labels a person can
    /// edit.
    ///
    /// A statement repeats the same Details many times (Fuliza, the same Paybill, the same
    /// agent), so each distinct Details text and direction is categorised once (a genuine
    /// 4,382-row statement has 1,575 distinct texts). The memo is a `hashbrown::HashTable` of
    /// row indexes, hashed with foldhash, seeded per process so that a file cannot be built to
    /// make its texts collide (std's `SipHash` was 5 % of the CPU time of scoring a 5,000-row
    /// statement; with foldhash, categorising its rows takes 0.54 ms instead of 0.57; with row
    /// indexes instead of texts as keys, 0.49 ms, and the service's analyses 4–11 % more a
    /// second, 2026-11-25).
    pub fn categorise_all(&self, transactions: &mut [Transaction]) {
        use std::hash::BuildHasher as _;
        let state = foldhash::fast::RandomState::default();
        let categories: Vec<Category> = {
            let rows: &[Transaction] = transactions;
            // Per distinct (Details, direction): the first row that has it, its direction and
            // its category (16 bytes an entry, against 32 for a map keyed by the text itself;
            // in the service, where analyses share the cores' caches, the map was 6 % of an
            // analysis).
            let mut seen: hashbrown::HashTable<(usize, bool, Category)> =
                hashbrown::HashTable::with_capacity(rows.len());
            let hash = |details: &str, paid_in: bool| state.hash_one((details, paid_in));
            let mut text = String::new();
            rows.iter()
                .enumerate()
                .map(|(at, t)| {
                    let paid_in = t.paid_in > t.withdrawn;
                    let entry = seen.entry(
                        hash(&t.details, paid_in),
                        |&(first, direction, _)| {
                            direction == paid_in && rows[first].details == t.details
                        },
                        |&(first, direction, _)| hash(&rows[first].details, direction),
                    );
                    entry
                        .or_insert_with(|| {
                            normalise_into(&t.details, &mut text);
                            let rule = self.matching_rule_normalised(&text, paid_in);
                            (at, paid_in, self.category_of_rule(rule))
                        })
                        .get()
                        .2
                })
                .collect()
        };
        for (t, category) in transactions.iter_mut().zip(categories) {
            t.category = category;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Every registered wallet's table (the generic ids share Kenya's).
    fn tables() -> Vec<&'static Table> {
        crate::wallets::ALL.iter().map(|w| w.rules).collect()
    }

    /// Every pattern of `table`, and a few words, for building Details texts that hit many
    /// rules at once.
    fn vocabulary(table: &Table) -> Vec<&'static str> {
        let mut words = vec![
            "Customer",
            "Transfer",
            "to",
            "-",
            "0712***678",
            "JANE",
            "ltd",
            "x",
        ];
        for rule in table.rules() {
            words.extend(patterns(&rule.matcher));
        }
        words
    }

    /// The patterns of a rule's matcher (none for [`Match::Empty`]).
    fn patterns(matcher: &'static Match) -> &'static [&'static str] {
        match matcher {
            Match::Empty => &[],
            Match::StartsWith(p) | Match::Contains(p) => std::slice::from_ref(p),
            Match::ContainsAny(ps) | Match::WordAny(ps) => ps,
        }
    }

    fn row(details: &str, paid_in: bool, category: Category) -> Transaction {
        let (paid, withdrawn) = if paid_in {
            (rust_decimal::Decimal::TEN, rust_decimal::Decimal::ZERO)
        } else {
            (rust_decimal::Decimal::ZERO, rust_decimal::Decimal::TEN)
        };
        Transaction {
            receipt_no: "A".into(),
            details: details.to_owned(),
            paid_in: paid,
            withdrawn,
            category,
            ..Transaction::empty()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]
        /// The one-pass automaton picks exactly the rule the table picks read in order, on
        /// texts glued from the table's own patterns (with and without spaces, upper case), for
        /// every wallet's table.
        #[test]
        fn the_automaton_picks_the_rule_the_table_picks(
            table in 0usize..16,
            parts in prop::collection::vec((0usize..400, 0u8..4), 0..6),
            paid_in in any::<bool>(),
        ) {
            let tables = tables();
            let table = tables[table % tables.len()];
            let words = vocabulary(table);
            let mut text = String::new();
            for (i, glue) in parts {
                let word = words[i % words.len()];
                match glue {
                    0 => text.push(' '),
                    1 => text.push_str("  "),
                    2 => {}
                    _ => text.push('.'),
                }
                if i % 3 == 0 {
                    text.push_str(&word.to_uppercase());
                } else {
                    text.push_str(word);
                }
            }
            prop_assert_eq!(
                table.matching_rule(&text, paid_in),
                table.matching_rule_in_order(&text, paid_in)
            );
        }

        /// The fast paths of [`normalise`] (Details already plain, ASCII Details) equal the
        /// general one: texts of short words (sometimes not ASCII) and runs of white space
        /// of every kind, leading and trailing ones included.
        #[test]
        fn normalise_fast_path_is_the_general_one(
            parts in proptest::collection::vec(("[ -~]{0,5}|[a-zé]{1,3}", "[ \t\n\r\x0b\x0c]{0,3}"), 0..8)
        ) {
            let text: String = parts.iter().flat_map(|(word, space)| [word.as_str(), space.as_str()]).collect();
            let general = text
                .split_whitespace()
                .map(str::to_lowercase)
                .collect::<Vec<_>>()
                .join(" ");
            prop_assert_eq!(normalise(&text), general);
        }

        /// The memo of `categorise_all` changes no category: each row gets what `categorise`
        /// gives its own Details and direction, when texts repeat in both directions, in
        /// every wallet's table.
        #[test]
        fn categorise_all_is_categorise_of_each_row(
            table in 0usize..16,
            rows in prop::collection::vec((0usize..400, any::<bool>()), 0..40),
        ) {
            let tables = tables();
            let table = tables[table % tables.len()];
            // A few texts, so that rows repeat them: patterns of rules that hold in one
            // direction only (the memo must tell the directions apart), and of any rule.
            let mut directed: Vec<&str> = table
                .rules()
                .iter()
                .filter(|r| r.direction.is_some())
                .filter_map(|r| patterns(&r.matcher).first().copied())
                .collect();
            directed.push("x");
            let words = vocabulary(table);
            let texts = [directed[0], directed[directed.len() / 2], words[5], words[words.len() / 2], ""];
            let mut transactions: Vec<Transaction> = rows
                .iter()
                .map(|(word, paid_in)| row(texts[word % texts.len()], *paid_in, Category::Uncategorised))
                .collect();
            table.categorise_all(&mut transactions);
            for t in &transactions {
                prop_assert_eq!(t.category, table.categorise(&t.details, t.paid_in > t.withdrawn));
            }
        }
    }

    /// No rule of any table names `Uncategorised`.
    #[test]
    fn no_rule_leaves_a_row_uncategorised() {
        for table in tables() {
            assert!(
                table
                    .rules()
                    .iter()
                    .all(|r| r.category != Category::Uncategorised)
            );
        }
    }

    #[test]
    fn categorise_all_replaces_given_categories() {
        for table in tables() {
            let mut rows = vec![
                row("Airtime Purchase", false, Category::Uncategorised),
                row("Airtime Purchase", false, Category::Betting),
            ];
            table.categorise_all(&mut rows);
            // An input label is informational only: editing it changes nothing.
            assert_eq!(rows[0].category, rows[1].category);
            assert_eq!(
                rows[0].category,
                table.categorise("Airtime Purchase", false)
            );
        }
    }
}
