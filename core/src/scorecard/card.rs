//! The scorecard format: a scorecard is data (JSON), validated on load.
//!
//! The JSON Schema is `docs/scorecard.schema.json`; the built-in scorecard is
//! `core/scorecards/alama-mpesa-2026.12.json`. Decimal edges are JSON **strings** (`"0.85"`), so
//! that every edge is exact; points are integers.
//!
//! Validation ([`Scorecard::from_json`]) refuses, with [`ErrorKind::InvalidScorecard`] and a
//! message that names the problem: a base score other than 300 or maxima that do not add up to
//! 550 (the bands are defined on 300–850); a characteristic whose `max` is not the sum of its
//! attributes' maxima; an attribute naming a feature that is not in the
//! [`crate::features::catalogue`]; bins that leave a gap or overlap (each bin's upper
//! edge must be the next bin's lower edge, exactly one of the two inclusive, the first open below
//! and the last open above); points that go against the declared direction; a neutral missing
//! policy without points; duplicate codes; a knock-out naming an unknown feature.
//!
//! (Over 400 lines: the card's types and the validation that refuses a bad card are one schema,
//! read side by side; each rule above is a few lines.)

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};
use crate::features::{Thresholds, catalogue};

/// The lowest score of every scorecard (the bands start there).
pub const BASE_SCORE: u16 = 300;

/// The points every scorecard spans (the bands end at 850).
pub const MAX_POINTS: u16 = 550;

/// A scorecard. Field order is the canonical JSON order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Scorecard {
    /// Version id, part of every report and of its id, e.g. `"alama-mpesa-2026.12"`.
    pub version: String,
    /// ISO 4217 currency of every money edge (`"KES"`): the card scores statements in this
    /// currency only ([`Scorecard::check_currency`]); there is no implicit conversion.
    pub currency: String,
    /// The money edges of the features, in [`Self::currency`] (major units), with how they were
    /// set. Absent only on a KES card (cards up to `alama-mpesa-2026.12`), which then uses
    /// [`Thresholds::KES`]; a card in any other currency must define them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thresholds: Option<Thresholds>,
    /// Lowest score, 300.
    pub base_score: u16,
    /// Sum of the characteristics' maxima, 550.
    pub max_points: u16,
    /// A rule that caps the score, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub knockout: Option<Knockout>,
    /// The characteristics, in report order.
    pub characteristics: Vec<Characteristic>,
}

/// A knock-out: when every condition holds, the score is at most `cap`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Knockout {
    /// The highest score when it applies.
    pub cap: u16,
    /// Its reason code, e.g. `"K01"`.
    pub reason_code: String,
    /// The attribute code its reason names, e.g. `"overdue_credit"`.
    pub attribute: String,
    /// The characteristic its reason belongs to.
    pub factor: String,
    /// The reason sentence; `{}` is replaced by the first condition's figure, `{cap}` by the cap.
    pub reason: String,
    /// Conditions, all of which must hold.
    pub when: Vec<Condition>,
}

/// `feature >= atLeast`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Condition {
    /// A catalogue feature.
    pub feature: String,
    /// The inclusive lower edge.
    #[serde(with = "exact")]
    pub at_least: Decimal,
}

/// A characteristic: the unit a report's factor shows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Characteristic {
    /// Stable code, e.g. `"income_stability"`.
    pub code: String,
    /// Display name.
    pub name: String,
    /// Most points: the sum of the attributes' maxima.
    pub max: u16,
    /// Reason code of its attributes, e.g. `"R01"`.
    pub reason_code: String,
    /// Why it predicts repayment and where its edges come from.
    pub rationale: String,
    /// The binned attributes.
    pub attributes: Vec<Attribute>,
}

/// Whether points may rise or fall as the feature rises.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Points never fall as the value rises.
    HigherIsBetter,
    /// Points never rise as the value rises.
    LowerIsBetter,
}

/// What an attribute scores when its feature cannot be measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MissingPolicy {
    /// The feature is always measured (a missing value scores the lowest bin).
    Never,
    /// No evidence either way: `points`, and no reason code.
    Neutral,
    /// Evidence withheld: the lowest bin's points, with a reason code.
    Adverse,
}

/// The missing-value rule of an attribute.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Missing {
    /// The policy.
    pub policy: MissingPolicy,
    /// Points of a neutral missing value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<u16>,
    /// When the feature cannot be measured, for people.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub when: String,
}

/// A binned feature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Attribute {
    /// Stable code, e.g. `"income_floor"`.
    pub code: String,
    /// What is measured, for people.
    pub name: String,
    /// The catalogue feature it bins.
    pub feature: String,
    /// The unit of the feature (as in the catalogue).
    pub unit: String,
    /// The declared monotone direction of its points.
    pub direction: Direction,
    /// The missing-value rule.
    pub missing: Missing,
    /// The reason sentence when points are lost; `{}` is replaced by the figure.
    pub reason: String,
    /// The bins, in ascending order of value, covering every value exactly once.
    pub bins: Vec<Bin>,
}

/// A range of values and its points. `None` edges are unbounded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Bin {
    /// Lower edge; `None` (or absent) = no lower edge.
    #[serde(default, with = "exact_opt")]
    pub min: Option<Decimal>,
    /// Whether the lower edge belongs to the bin.
    #[serde(default)]
    pub min_inclusive: bool,
    /// Upper edge; `None` (or absent) = no upper edge.
    #[serde(default, with = "exact_opt")]
    pub max: Option<Decimal>,
    /// Whether the upper edge belongs to the bin.
    #[serde(default)]
    pub max_inclusive: bool,
    /// Points earned.
    pub points: u16,
}

impl Bin {
    /// Whether `v` falls in this bin.
    pub fn holds(&self, v: Decimal) -> bool {
        let above = match self.min {
            None => true,
            Some(m) => v > m || (self.min_inclusive && v == m),
        };
        let below = match self.max {
            None => true,
            Some(m) => v < m || (self.max_inclusive && v == m),
        };
        above && below
    }

    /// `"[0.85, 1)"`, `"(−∞, 0.05]"`.
    pub fn text(&self) -> String {
        let lo = self.min.map_or_else(|| "−∞".to_owned(), |m| m.to_string());
        let hi = self.max.map_or_else(|| "∞".to_owned(), |m| m.to_string());
        let open = if self.min_inclusive { '[' } else { '(' };
        let close = if self.max_inclusive { ']' } else { ')' };
        format!("{open}{lo}, {hi}{close}")
    }
}

impl Attribute {
    /// The points of a measured value (the lowest points if no bin holds it, which a valid card
    /// never allows).
    pub fn points_of(&self, v: Decimal) -> u16 {
        self.bins
            .iter()
            .find(|b| b.holds(v))
            .map_or_else(|| self.min(), |b| b.points)
    }

    /// The lowest points of the table.
    pub fn min(&self) -> u16 {
        self.bins.iter().map(|b| b.points).min().unwrap_or(0)
    }

    /// The most points of the table.
    pub fn max(&self) -> u16 {
        self.bins.iter().map(|b| b.points).max().unwrap_or(0)
    }

    /// The catalogue value of its feature (`None` for an unknown feature, which a valid card
    /// never has).
    pub fn value(&self, features: &crate::features::Features) -> Option<Decimal> {
        catalogue::find(&self.feature).and_then(|d| (d.value)(features))
    }
}

fn invalid(message: String) -> Error {
    Error::new(ErrorKind::InvalidScorecard, message)
}

impl Scorecard {
    /// Parses and validates a scorecard.
    ///
    /// # Errors
    /// `ErrorKind::InvalidScorecard` naming the problem (see the module documentation), also
    /// for JSON that is not a scorecard.
    pub fn from_json(json: &str) -> Result<Self> {
        let card: Scorecard = serde_json::from_str(json)
            .map_err(|e| invalid(format!("not a scorecard JSON: {e}")))?;
        card.validate()?;
        Ok(card)
    }

    /// The canonical JSON (compact, fields in declaration order): what `scorecardSha256` hashes.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The same JSON, indented.
    pub fn to_json_pretty(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// Lowercase hex SHA-256 of [`Self::to_json`].
    ///
    /// A built-in card's is computed once, and serves that card and any card equal to it (a
    /// copy held by a service or a binding: equal fields serialise to the same JSON); any other
    /// card's is computed at each call, about 20 µs for a card of this size.
    pub fn sha256(&self) -> String {
        super::builtin_sha256_of(self).map_or_else(|| self.compute_sha256(), str::to_owned)
    }

    pub(crate) fn compute_sha256(&self) -> String {
        use sha2::{Digest, Sha256};
        Sha256::digest(self.to_json().as_bytes())
            .iter()
            .fold(String::new(), |mut s, b| {
                use std::fmt::Write as _;
                let _ = write!(s, "{b:02x}");
                s
            })
    }

    /// The money edges the features use with this card: its own [`Self::thresholds`], or
    /// [`Thresholds::KES`] for a KES card without them (validation refuses one in another
    /// currency).
    pub fn thresholds(&self) -> &Thresholds {
        static KES: Thresholds = Thresholds::KES;
        self.thresholds.as_ref().unwrap_or(&KES)
    }

    /// Checks that this card may score a statement in `currency` (ISO 4217, as in
    /// `Statement::currency`): the codes must be equal (ASCII case-insensitive; `"kes"` is
    /// KES). Amounts are never converted between currencies.
    ///
    /// # Errors
    /// `ErrorKind::CurrencyMismatch` naming both currencies.
    pub fn check_currency(&self, currency: &str) -> Result<()> {
        if self.currency.eq_ignore_ascii_case(currency.trim()) {
            Ok(())
        } else {
            Err(Error::new(
                ErrorKind::CurrencyMismatch,
                format!(
                    "scorecard {} scores {} statements, but this statement is in {}; amounts are never converted between currencies: use a {} card ({})",
                    self.version,
                    self.currency,
                    currency.trim(),
                    currency.trim(),
                    super::builtin_currencies_text()
                ),
            ))
        }
    }

    /// Checks the rules of the module documentation.
    ///
    /// # Errors
    /// `ErrorKind::InvalidScorecard` naming the first problem found.
    pub fn validate(&self) -> Result<()> {
        if self.version.trim().is_empty() {
            return Err(invalid("the scorecard has no version".to_owned()));
        }
        let code = self.currency.as_bytes();
        if code.len() != 3 || !code.iter().all(u8::is_ascii_uppercase) {
            return Err(invalid(format!(
                "currency {:?} is not an ISO 4217 code (three capital letters, e.g. \"KES\")",
                self.currency
            )));
        }
        match &self.thresholds {
            Some(t) => t.check().map_err(invalid)?,
            None if self.currency == "KES" => {}
            None => {
                return Err(invalid(format!(
                    "a {} card must define its money thresholds (\"thresholds\": materialMonthlyIncome, minActivityAmount, nearZeroBalance, minMaterialBill, maxMaterialBill, in {}); only a KES card may leave them out",
                    self.currency, self.currency
                )));
            }
        }
        if self.base_score != BASE_SCORE || self.max_points != MAX_POINTS {
            return Err(invalid(format!(
                "baseScore must be {BASE_SCORE} and maxPoints {MAX_POINTS} (the bands span 300–850); got {} and {}",
                self.base_score, self.max_points
            )));
        }
        let total: u32 = self.characteristics.iter().map(|c| u32::from(c.max)).sum();
        if total != u32::from(self.max_points) {
            return Err(invalid(format!(
                "the characteristics' maxima add up to {total}, not maxPoints {}",
                self.max_points
            )));
        }
        let mut codes = std::collections::BTreeSet::new();
        for c in &self.characteristics {
            if !codes.insert(c.code.clone()) {
                return Err(invalid(format!(
                    "characteristic {:?} appears twice",
                    c.code
                )));
            }
            let sum: u32 = c.attributes.iter().map(|a| u32::from(a.max())).sum();
            if sum != u32::from(c.max) || c.attributes.is_empty() {
                return Err(invalid(format!(
                    "characteristic {:?} declares max {} but its attributes' maxima add up to {sum}",
                    c.code, c.max
                )));
            }
            for a in &c.attributes {
                if !codes.insert(a.code.clone()) {
                    return Err(invalid(format!("attribute {:?} appears twice", a.code)));
                }
                validate_attribute(a)?;
            }
        }
        if let Some(k) = &self.knockout {
            if k.cap < self.base_score || k.cap > self.base_score + self.max_points {
                return Err(invalid(format!(
                    "the knock-out cap {} is outside 300–850",
                    k.cap
                )));
            }
            if k.when.is_empty() {
                return Err(invalid("the knock-out has no condition".to_owned()));
            }
            for w in &k.when {
                if catalogue::find(&w.feature).is_none() {
                    return Err(invalid(format!(
                        "the knock-out names feature {:?}, which is not in the feature catalogue",
                        w.feature
                    )));
                }
            }
        }
        Ok(())
    }
}

fn validate_attribute(a: &Attribute) -> Result<()> {
    let name = &a.code;
    if catalogue::find(&a.feature).is_none() {
        return Err(invalid(format!(
            "attribute {name:?} names feature {:?}, which is not in the feature catalogue",
            a.feature
        )));
    }
    let (Some(first), Some(last)) = (a.bins.first(), a.bins.last()) else {
        return Err(invalid(format!("attribute {name:?} has no bins")));
    };
    if first.min.is_some() {
        return Err(invalid(format!(
            "attribute {name:?}: values below {} fall in no bin (the first bin must have no lower edge)",
            first.text()
        )));
    }
    if last.max.is_some() {
        return Err(invalid(format!(
            "attribute {name:?}: values above {} fall in no bin (the last bin must have no upper edge)",
            last.text()
        )));
    }
    for w in a.bins.windows(2) {
        let (lo, hi) = (&w[0], &w[1]);
        match (lo.max, hi.min) {
            (Some(x), Some(y)) if x == y => {
                if lo.max_inclusive == hi.min_inclusive {
                    let what = if lo.max_inclusive {
                        "overlap at"
                    } else {
                        "leave a gap at"
                    };
                    return Err(invalid(format!(
                        "attribute {name:?}: bins {} and {} {what} {x} (exactly one of them must include it)",
                        lo.text(),
                        hi.text()
                    )));
                }
            }
            (Some(x), Some(y)) if x < y => {
                return Err(invalid(format!(
                    "attribute {name:?}: bins {} and {} leave a gap between {x} and {y}",
                    lo.text(),
                    hi.text()
                )));
            }
            _ => {
                return Err(invalid(format!(
                    "attribute {name:?}: bins {} and {} overlap or are out of order",
                    lo.text(),
                    hi.text()
                )));
            }
        }
        let against = match a.direction {
            Direction::HigherIsBetter => hi.points < lo.points,
            Direction::LowerIsBetter => hi.points > lo.points,
        };
        if against {
            return Err(invalid(format!(
                "attribute {name:?}: points {} then {} go against its direction {:?}",
                lo.points, hi.points, a.direction
            )));
        }
    }
    if a.missing.policy == MissingPolicy::Neutral && a.missing.points.is_none() {
        return Err(invalid(format!(
            "attribute {name:?}: a neutral missing policy needs points"
        )));
    }
    if let Some(p) = a.missing.points
        && p > a.max()
    {
        return Err(invalid(format!(
            "attribute {name:?}: missing points {p} exceed its maximum {}",
            a.max()
        )));
    }
    Ok(())
}

/// Exact decimals as JSON strings only (a JSON number could be a binary float).
mod exact {
    use rust_decimal::Decimal;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &Decimal, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&v.to_string())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Decimal, D::Error> {
        let text = String::deserialize(d)?;
        text.parse::<Decimal>()
            .map_err(|e| serde::de::Error::custom(format!("{text:?} is not an exact decimal: {e}")))
    }
}

/// `Option<Decimal>` as a JSON string or `null`.
mod exact_opt {
    use rust_decimal::Decimal;
    use serde::{Deserialize, Deserializer, Serializer};

    #[allow(clippy::ref_option)] // the signature serde's `with` requires
    pub fn serialize<S: Serializer>(v: &Option<Decimal>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(x) => s.serialize_str(&x.to_string()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Decimal>, D::Error> {
        Option::<String>::deserialize(d)?
            .map(|text| {
                text.parse::<Decimal>().map_err(|e| {
                    serde::de::Error::custom(format!("{text:?} is not an exact decimal: {e}"))
                })
            })
            .transpose()
    }
}
