//! The versioned, points-based scorecard, evaluated from data.
//!
//! A scorecard is a JSON document ([`card::Scorecard`], schema `docs/scorecard.schema.json`):
//! characteristics made of attributes, each binning one feature of the
//! [catalogue](crate::features::catalogue) with exact decimal edges. The built-in scorecard,
//! [`VERSION`], is such a file (`core/scorecards/alama-kes-2027.03.json`; one per market in
//! [`BUILTIN_CARDS`]), embedded and parsed once ([`builtin`], [`builtin_for`]); a lender's own
//! card is loaded with [`card::Scorecard::from_json`] and scored with [`crate::score_with`].
//!
//! `score = 300 + Σ points − knock-out`, 300–850. **Missing evidence** has a policy per
//! attribute ([`card::MissingPolicy`]): *neutral* (a thin file, a never-borrower) scores its
//! documented points and never gives a reason code; *adverse* (a statement without its Balance
//! column) scores like the worst evidence, so leaving data out never pays.
//!
//! **Reason codes** are per attribute: each names the attribute and the figure behind it, only
//! for points lost through evidence, largest loss first. The **knock-out** (when the card has one)
//! caps the score when all its conditions hold; the points removed are its own reason code.
//!
//! The form is the points-based scorecard of Siddiqi (*Credit Risk Scorecards*, 2nd ed. 2017).

use std::fmt::Write as _;

use rust_decimal::Decimal;

use crate::features::Features;
use crate::report::{Factor, ReasonCode};

mod builtin;
pub mod card;
pub mod thin;
pub use builtin::{BUILTIN_CARDS, BUILTIN_JSON, VERSION, builtin, builtin_for, builtins, choose};
pub(crate) use builtin::{builtin_currencies_text, builtin_sha256_of};
pub use card::{BASE_SCORE as BASE, MAX_POINTS, MissingPolicy, Scorecard};

/// The points an attribute earns on `features`.
pub fn attribute_points(a: &card::Attribute, features: &Features) -> u16 {
    points_of_value(a, a.value(features))
}

/// The points an attribute earns on its feature's value (`None`: not measurable, scored by the
/// attribute's missing policy).
pub fn points_of_value(a: &card::Attribute, value: Option<Decimal>) -> u16 {
    match (value, a.missing.policy) {
        (Some(v), _) => a.points_of(v),
        (None, MissingPolicy::Neutral) => a.missing.points.unwrap_or_else(|| a.min()),
        (None, MissingPolicy::Adverse | MissingPolicy::Never) => a.min(),
    }
}

/// Points an attribute lost through evidence on `features` (0 for a neutral missing value).
pub fn attribute_points_lost(a: &card::Attribute, features: &Features) -> u16 {
    match (a.value(features), a.missing.policy) {
        (None, MissingPolicy::Neutral) => 0,
        _ => a.max().saturating_sub(attribute_points(a, features)),
    }
}

/// A card's score on catalogue feature values, without a statement: what [`score_values`]
/// returns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValueScore {
    /// `BASE + Σ points − knockout`, 300–850; the score a report of the same figures shows.
    pub score: u16,
    /// Points per attribute, `(attribute code, points)`, in card order; each within `0..=max`.
    pub points: Vec<(String, u16)>,
    /// Points per characteristic, `(characteristic code, points)`, in card order (the report's
    /// factor scores).
    pub factors: Vec<(String, u16)>,
    /// Points removed by the knock-out (0 without it).
    pub knockout: u16,
}

/// Evaluates `card` on catalogue feature values (`name → value`, `None` for a figure that is not
/// measurable), e.g. one row of a modeller's table of features: the same points and score as
/// [`crate::score_with`] gives a statement with these figures.
///
/// # Errors
/// `ErrorKind::InvalidScorecard` when `values` has no entry for a feature the card bins or its
/// knock-out names (a missing *entry*; an entry holding `None` is a missing *value*).
pub fn score_values(
    card: &Scorecard,
    values: &std::collections::BTreeMap<String, Option<Decimal>>,
) -> crate::Result<ValueScore> {
    let used = card
        .characteristics
        .iter()
        .flat_map(|c| c.attributes.iter().map(|a| &a.feature))
        .chain(
            card.knockout
                .iter()
                .flat_map(|k| k.when.iter().map(|w| &w.feature)),
        );
    for feature in used {
        if !values.contains_key(feature) {
            return Err(crate::Error::new(
                crate::ErrorKind::InvalidScorecard,
                format!("no value for feature {feature:?}, which the scorecard uses"),
            ));
        }
    }
    let t = tally(card, |feature| values.get(feature).copied().flatten());
    let codes = card.characteristics.iter().flat_map(|c| &c.attributes);
    Ok(ValueScore {
        score: t.raw - t.knockout,
        points: codes.map(|a| a.code.clone()).zip(t.attributes).collect(),
        factors: card
            .characteristics
            .iter()
            .map(|c| c.code.clone())
            .zip(t.factors)
            .collect(),
        knockout: t.knockout,
    })
}

/// A card's points on one set of feature values: the score formula, in one place for
/// [`assess`] (values read from a statement's features) and [`score_values`] (values from a
/// modeller's table).
struct Tally {
    /// Points per attribute, in card order.
    attributes: Vec<u16>,
    /// Points per characteristic (its attributes' sum, capped at its max), in card order.
    factors: Vec<u16>,
    /// `base_score + Σ factors`.
    raw: u16,
    /// Points removed by the knock-out (0 when it does not apply).
    knockout: u16,
}

/// Evaluates `card` with `value` reading each feature (`None`: not measurable).
fn tally(card: &Scorecard, value: impl Fn(&str) -> Option<Decimal>) -> Tally {
    let mut attributes = Vec::new();
    let factors: Vec<u16> = card
        .characteristics
        .iter()
        .map(|c| {
            let start = attributes.len();
            attributes.extend(
                c.attributes
                    .iter()
                    .map(|a| points_of_value(a, value(&a.feature))),
            );
            attributes[start..].iter().sum::<u16>().min(c.max)
        })
        .collect();
    let raw = card.base_score.saturating_add(factors.iter().sum::<u16>());
    let applies = card.knockout.as_ref().filter(|k| {
        k.when
            .iter()
            .all(|w| value(&w.feature).is_some_and(|v| v >= w.at_least))
    });
    Tally {
        attributes,
        factors,
        raw,
        knockout: applies.map_or(0, |k| raw.saturating_sub(k.cap)),
    }
}

/// A statement's feature by catalogue name (`None` for an unknown name or a figure that is not
/// measurable).
fn feature_value(features: &Features, name: &str) -> Option<Decimal> {
    crate::features::catalogue::find(name).and_then(|d| (d.value)(features))
}

/// A figure for a reason sentence, in `unit` (a catalogue unit, or the card's currency code in
/// place of `money`: `"KES/month"` on a KES card).
fn figure(unit: &str, value: Option<Decimal>, currency: &str) -> String {
    let Some(v) = value else {
        return "not shown".to_owned();
    };
    let per_month = unit.strip_suffix("/month");
    match unit {
        "ratio" if v == Decimal::MAX => "unmeasurable (no income)".to_owned(),
        "ratio" => crate::insights::percent(v),
        u if u == "money" || u == currency => crate::money::display(currency, v),
        _ if per_month.is_some_and(|u| u == "money" || u == currency) => {
            format!("{} a month", crate::money::display(currency, v))
        }
        "days" => format!("{} days", v.round_dp(1).normalize()),
        "cycles" => format!("{} pay cycles", v.round_dp(1).normalize()),
        "count/month" => format!("{} a month", v.round_dp(1).normalize()),
        _ => v.round_dp(4).normalize().to_string(),
    }
}

/// The scorecard's verdict on a statement's features.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assessment {
    /// One factor per characteristic, in scorecard order.
    pub factors: Vec<Factor>,
    /// Points lost through evidence, largest first (attribute level), and the knock-out's code
    /// when it applies; a thin file's `K02` ([`thin`]) first, whatever it removed.
    pub reason_codes: Vec<ReasonCode>,
    /// Points removed by the knock-outs: the card's (`K01`) and the thin-file cap (`K02`,
    /// [`thin`]); 0 without them.
    pub knockout: u16,
    /// `BASE + Σ factor points − knockout`, 300–850.
    pub score: u16,
}

/// Whether the card's knock-out applies: it has one and every condition holds.
pub fn knocked_out(card: &Scorecard, features: &Features) -> bool {
    card.knockout.as_ref().is_some_and(|k| {
        k.when
            .iter()
            .all(|w| feature_value(features, &w.feature).is_some_and(|v| v >= w.at_least))
    })
}

/// Evaluates every characteristic, in scorecard order. Each factor's `score` is in `0..=max`.
pub fn evaluate(card: &Scorecard, features: &Features) -> Vec<Factor> {
    factors(card, &tally(card, |name| feature_value(features, name)))
}

/// The report's factors of a tally.
fn factors(card: &Scorecard, t: &Tally) -> Vec<Factor> {
    card.characteristics
        .iter()
        .zip(&t.factors)
        .map(|(c, &score)| Factor {
            name: c.name.clone(),
            score,
            max: c.max,
            code: c.code.clone(),
        })
        .collect()
}

/// Scores `features` with `card`: factors, attribute-level reason codes, the knock-out and the
/// score.
pub fn assess(card: &Scorecard, features: &Features) -> Assessment {
    let t = tally(card, |name| feature_value(features, name));
    let (raw, knockout) = (t.raw, t.knockout);
    let factors = factors(card, &t);
    let mut lost: Vec<(u16, usize, ReasonCode)> = Vec::new();
    let mut order = 0;
    for c in &card.characteristics {
        for a in &c.attributes {
            order += 1;
            let points_lost = attribute_points_lost(a, features);
            if points_lost == 0 {
                continue;
            }
            lost.push((
                points_lost,
                order,
                ReasonCode {
                    code: c.reason_code.clone(),
                    factor: c.code.clone(),
                    attribute: a.code.clone(),
                    points_lost,
                    description: a
                        .reason
                        .replace("{}", &figure(&a.unit, a.value(features), &card.currency)),
                },
            ));
        }
    }
    if let (Some(k), true) = (&card.knockout, knockout > 0) {
        let first = k
            .when
            .first()
            .and_then(|w| crate::features::catalogue::find(&w.feature));
        let text = first.map_or_else(String::new, |d| {
            figure(d.unit, (d.value)(features), &card.currency)
        });
        lost.push((
            knockout,
            0,
            ReasonCode {
                code: k.reason_code.clone(),
                factor: k.factor.clone(),
                attribute: k.attribute.clone(),
                points_lost: knockout,
                description: k
                    .reason
                    .replace("{cap}", &k.cap.to_string())
                    .replace("{}", &text),
            },
        ));
    }
    lost.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let mut reason_codes: Vec<ReasonCode> = lost.into_iter().map(|(_, _, r)| r).collect();
    // A thin file is capped in the lowest band, its reason first (see `thin`).
    let mut knockout = knockout;
    if let Some((removed, reason)) = thin::cap(features, raw - knockout) {
        knockout += removed;
        reason_codes.insert(0, reason);
    }
    Assessment {
        score: raw - knockout,
        factors,
        reason_codes,
        knockout,
    }
}

/// A scorecard's tables as Markdown (for the built-in card, the part of `docs/scorecard.md`
/// between its `<!-- scorecard:begin -->` and `<!-- scorecard:end -->` markers).
pub fn describe(card: &Scorecard) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "Scorecard `{}`: score = {} + Σ points (max {})",
        card.version, card.base_score, card.max_points
    );
    if let Some(k) = &card.knockout {
        let _ = write!(
            s,
            ", capped at {} by the knock-out (`{}`) when ",
            k.cap, k.reason_code
        );
        let conditions: Vec<String> = k
            .when
            .iter()
            .map(|w| format!("`{}` ≥ {}", w.feature, w.at_least))
            .collect();
        let _ = write!(s, "{}", conditions.join(" and "));
    }
    let _ = writeln!(s, ".");
    for (i, c) in card.characteristics.iter().enumerate() {
        let _ = writeln!(
            s,
            "\n### {}. {} — max {} points (`{}`, reason {})\n\n{}",
            i + 1,
            c.name,
            c.max,
            c.code,
            c.reason_code,
            c.rationale
        );
        for a in &c.attributes {
            let _ = writeln!(
                s,
                "\n**{}** (`{}`: feature `{}`, {}, {}; max {})\n\nReason when points are lost: \"{}\".\n\n| value | points |\n|---|---:|",
                a.name,
                a.code,
                a.feature,
                a.unit,
                match a.direction {
                    card::Direction::HigherIsBetter => "higher is better",
                    card::Direction::LowerIsBetter => "lower is better",
                },
                a.max(),
                a.reason
            );
            for b in a.bins.iter().rev() {
                let _ = writeln!(s, "| {} | {} |", b.text(), b.points);
            }
            match a.missing.policy {
                MissingPolicy::Never => {}
                MissingPolicy::Neutral => {
                    let _ = writeln!(
                        s,
                        "| not measurable ({}): neutral, no reason code | {} |",
                        a.missing.when,
                        a.missing.points.unwrap_or_else(|| a.min())
                    );
                }
                MissingPolicy::Adverse => {
                    let _ = writeln!(
                        s,
                        "| not measurable ({}): adverse, with a reason code | {} |",
                        a.missing.when,
                        a.min()
                    );
                }
            }
        }
    }
    s
}

#[cfg(test)]
mod tests;
