//! The versioned scorecard (being written).

use crate::features::Features;
use crate::report::{Factor, ReasonCode};

/// Version of the scorecard; part of every report and of its id.
pub const VERSION: &str = "alama-mpesa-2026.11";

/// Evaluates every characteristic.
pub fn evaluate(_features: &Features) -> Vec<Factor> {
    vec![Factor {
        name: "Income stability".to_owned(),
        score: 0,
        max: 550,
        code: "income_stability".to_owned(),
    }]
}

/// Reason codes for the factors that lost points, largest loss first.
pub fn reason_codes(_factors: &[Factor]) -> Vec<ReasonCode> {
    Vec::new()
}
