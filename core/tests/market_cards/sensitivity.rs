//! Each card's sensitivity: how far the median persona's score moves when the card's factor is
//! 25 % lower or higher, measured with the personas (`core/src/testing/personas.rs`) and
//! written at the end of the card's `thresholds.rationale` when the card is derived.

use alama_core::testing::{PersonaKind, edits, persona_statement};
use alama_core::{Scorecard, Statement};
use rust_decimal::Decimal;
use serde_json::Value;

/// Where a card's rationale starts saying its sensitivity (everything after it is measured).
const SENSITIVITY: &str = " Sensitivity (";

/// Personas and seeds the sensitivity is measured on: six kinds, seeds 0 to 5, 12 months.
const SEEDS: std::ops::Range<u64> = 0..6;

/// How far the median persona's score moves when the factor is 25 % lower or higher, scored
/// with `card` (in `currency`, carried at `factor`): the sentence each rationale ends with.
fn sensitivity(card: &Scorecard, currency: &str, factor: Decimal) -> String {
    let score = |s: &Statement, f: Decimal| {
        alama_core::score_with(&edits::converted(s, currency, f), card)
            .expect("a persona scores")
            .score
    };
    let quarter = Decimal::new(25, 2);
    let (low, high) = (
        factor * (Decimal::ONE - quarter),
        factor * (Decimal::ONE + quarter),
    );
    let mut rows: Vec<(u16, usize, u64, i32, i32)> = Vec::new();
    for (k, kind) in PersonaKind::ALL.iter().enumerate() {
        for seed in SEEDS {
            let s = persona_statement(*kind, seed, 12);
            let at = score(&s, factor);
            let moved = |f| i32::from(score(&s, f)) - i32::from(at);
            rows.push((at, k, seed, moved(low), moved(high)));
        }
    }
    rows.sort_unstable();
    let (at, k, seed, down, up) = rows[(rows.len() - 1) / 2];
    let median = |i: fn(&(u16, usize, u64, i32, i32)) -> i32| {
        let mut v: Vec<i32> = rows.iter().map(i).collect();
        v.sort_unstable();
        (v[(v.len() - 1) / 2], v[0], v[v.len() - 1])
    };
    let (down_median, down_least, _) = median(|r| r.3);
    let (up_median, _, up_most) = median(|r| r.4);
    format!(
        "{SENSITIVITY}the six personas of core/src/testing/personas.rs, seeds {}–{}, 12 months, \
         scored with this card): the median persona ({}, seed {seed}) scores {at} at this factor, \
         {} ({down:+}) at 25 % below it and {} ({up:+}) at 25 % above; over the {} persona \
         statements the median moves are {down_median:+} and {up_median:+} points (at most \
         {down_least:+} and {up_most:+}).",
        SEEDS.start,
        SEEDS.end - 1,
        PersonaKind::ALL[k].name(),
        i32::from(at) + down,
        i32::from(at) + up,
        rows.len(),
    )
}

/// `card` (JSON) with its `thresholds.rationale` ending in its measured [`sensitivity`].
pub fn with_sensitivity(card: &mut Value, currency: &str, factor: Decimal) {
    let text = serde_json::to_string(card).expect("json");
    let parsed = Scorecard::from_json(&text).expect("the card validates");
    let rationale = card["thresholds"]["rationale"]
        .as_str()
        .expect("a rationale")
        .to_owned();
    let kept = rationale
        .split_once(SENSITIVITY)
        .map_or(rationale.as_str(), |(before, _)| before);
    card["thresholds"]["rationale"] =
        Value::String(format!("{kept}{}", sensitivity(&parsed, currency, factor)));
}
