//! Typed insights of a report (being written).

use crate::features::Features;
use crate::report::Insight;

/// The insights of a statement's features.
pub fn insights(_features: &Features) -> Vec<Insight> {
    Vec::new()
}
