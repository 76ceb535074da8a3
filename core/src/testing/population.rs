//! A synthetic population for fitting and validating scorecards: the generator's personas and
//! random holders, each with a repayment outcome drawn from a **known** default model, so that a
//! fitted scorecard can be compared with the truth (`docs/modelling.md`).
//!
//! The true model is logistic in four catalogue features (see [`TRUE_MODEL`]):
//!
//! ```text
//! logit P(default) = −1.2
//!                    − 1.0 × ln(max(average_monthly_income, 1000) ÷ 10000)
//!                    + 1.5 × fuliza_month_share
//!                    + 4.0 × betting_share
//!                    + 1.5 × near_zero_share        (0 when not measurable)
//! ```
//!
//! Each member's outcome is `1` (default) when a uniform draw from the seeded stream falls below
//! that probability. The same `(seed, n)` always gives the same population on every platform.

use rust_decimal::prelude::ToPrimitive;

use super::{PersonaKind, SplitMix64, persona_statement, synthetic_statement};
use crate::features::{self, catalogue};
use crate::statement::Statement;

/// The true default model: `(intercept, [(feature, coefficient, transform)])`, where the
/// transform is `"ln(max(x, 1000) / 10000)"` or `"x"` (a missing value counts as 0).
pub const TRUE_MODEL: (f64, [(&str, f64, &str); 4]) = (
    -1.2,
    [
        ("average_monthly_income", -1.0, "ln(max(x, 1000) / 10000)"),
        ("fuliza_month_share", 1.5, "x"),
        ("betting_share", 4.0, "x"),
        ("near_zero_share", 1.5, "x"),
    ],
);

/// One member of the population.
#[derive(Debug, Clone)]
pub struct Member {
    /// The member's statement (3–12 months ending on 2024-06-30).
    pub statement: Statement,
    /// Which generator made it: a persona's name (`"salaried"`, …) or `"synthetic"`.
    pub kind: &'static str,
    /// The true probability of default, 0–1, from [`TRUE_MODEL`].
    pub probability: f64,
    /// The drawn outcome: `true` = defaulted.
    pub defaulted: bool,
}

/// The true probability of default of a statement (see the module documentation).
pub fn true_probability(statement: &Statement) -> f64 {
    let f = features::compute(
        &statement.reading(),
        crate::scorecard::builtin().thresholds(),
    );
    let value = |name: &str| {
        catalogue::find(name)
            .and_then(|d| (d.value)(&f))
            .and_then(|v| v.to_f64())
            .unwrap_or(0.0)
    };
    let (intercept, terms) = TRUE_MODEL;
    let mut logit = intercept;
    for (name, beta, transform) in terms {
        let x = value(name);
        let x = if transform == "x" {
            x
        } else {
            (x.max(1000.0) / 10000.0).ln()
        };
        logit += beta * x;
    }
    1.0 / (1.0 + (-logit).exp())
}

/// `n` members drawn from `seed`: a persona (each of the six equally likely) or a random holder
/// of the synthetic generator (as likely as one persona), 3–12 months, and an outcome from the
/// true model.
pub fn population(seed: u64, n: usize) -> Vec<Member> {
    let mut rng = SplitMix64::new(seed);
    (0..n)
        .map(|_| {
            let pick = rng.range(0, PersonaKind::ALL.len() as u64);
            let statement_seed = rng.next_u64() >> 16;
            let months = u32::try_from(rng.range(3, 12)).unwrap_or(6);
            let (statement, kind) = match usize::try_from(pick)
                .ok()
                .and_then(|i| PersonaKind::ALL.get(i))
            {
                Some(&k) => (persona_statement(k, statement_seed, months), k.name()),
                None => (synthetic_statement(statement_seed, months), "synthetic"),
            };
            let probability = true_probability(&statement);
            #[allow(clippy::cast_precision_loss)]
            let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            Member {
                statement,
                kind,
                probability,
                defaulted: u < probability,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_population_is_seeded_and_has_a_plausible_default_rate() {
        let a = population(7, 300);
        let b = population(7, 300);
        assert_eq!(a.len(), 300);
        for (x, y) in a.iter().zip(&b) {
            assert_eq!(x.statement, y.statement);
            assert_eq!(x.defaulted, y.defaulted);
        }
        let bad = a.iter().filter(|m| m.defaulted).count();
        assert!((30..=150).contains(&bad), "{bad} defaults in 300");
        assert!(a.iter().all(|m| (0.0..=1.0).contains(&m.probability)));
        // The model separates: the riskier half defaults more often.
        let mut sorted: Vec<&Member> = a.iter().collect();
        sorted.sort_by(|x, y| x.probability.total_cmp(&y.probability));
        let (low, high) = sorted.split_at(150);
        let rate = |s: &[&Member]| s.iter().filter(|m| m.defaulted).count();
        assert!(
            rate(high) > rate(low) * 2,
            "{} vs {}",
            rate(high),
            rate(low)
        );
        let kinds: std::collections::BTreeSet<&str> = a.iter().map(|m| m.kind).collect();
        assert_eq!(kinds.len(), 7);
    }
}
