//! The thin-file rule: below a minimum of evidence a statement is not scored as if it had some.
//!
//! A characteristic with nothing to measure scores its neutral points, so a statement with one
//! KES 500 row used to add up to a middle band (596, Fair), the same as a statement with one
//! withdrawal. Credit bureaus return no score for a thin file (FICO's minimum scoring criteria:
//! an account open six months and one reported in the last six months). The score is a
//! number on every surface, so the engine does the nearest thing, the same on every surface:
//! a statement below the minimum is **capped at the top of the lowest band** (579, Poor) and
//! carries the reason code [`THIN_FILE_CODE`] (`K02`, a knock-out like `K01`), whose
//! sentence says the statement is too thin to score. A lender reads `K02` as "no score".
//!
//! The minimum (docs/scorecard.md, "Thin files"): at least [`MIN_EVIDENCE_ROWS`] rows of
//! activity (completed rows of at least KES 50 that are not betting, round trips or rows undone
//! at once: [`Features::transactions_per_month`]'s rows), at least [`MIN_EVIDENCE_DAYS`]
//! days covered ([`Features::statement_days`]): two weeks, half of the monthly cycle in which
//! income and bills show, and at least [`MIN_EVIDENCE_USE_DAYS`] days of use
//! ([`Features::use_days`], issue 49): rows can be multiplied by splitting one income into many
//! credits, days on which the holder moved money out cannot. Shorter genuine statements are
//! scored (a 25-day real sample with 201 rows is), and lose Account history points for their
//! length as before.

use crate::features::Features;
use crate::report::ReasonCode;

/// The fewest rows of activity a statement needs to be scored.
pub const MIN_EVIDENCE_ROWS: u32 = 10;

/// The fewest days a statement must cover to be scored.
pub const MIN_EVIDENCE_DAYS: u32 = 14;

/// The fewest days of use ([`Features::use_days`]) a statement needs to be scored: about twice
/// a week over the shortest scorable statement, as many as a month in use has
/// ([`crate::features::USE_DAYS_PER_MONTH`]).
pub const MIN_EVIDENCE_USE_DAYS: u32 = crate::features::USE_DAYS_PER_MONTH;

/// The highest score of a thin file: the top of the lowest band (Poor, 300–579).
pub const THIN_FILE_CAP: u16 = 579;

/// The reason code of a thin file.
pub const THIN_FILE_CODE: &str = "K02";

/// Rows of activity in `features` (completed rows less those not counted as activity).
fn activity_rows(features: &Features) -> u32 {
    features
        .transaction_count
        .saturating_sub(features.uncounted_rows)
}

/// Whether `features` are below the minimum of evidence.
pub fn is_thin(features: &Features) -> bool {
    activity_rows(features) < MIN_EVIDENCE_ROWS
        || features.statement_days < MIN_EVIDENCE_DAYS
        || features.use_days < MIN_EVIDENCE_USE_DAYS
}

/// The points the cap removes from `score`, and the reason code saying so, when `features`
/// are thin; `None` otherwise.
pub(crate) fn cap(features: &Features, score: u16) -> Option<(u16, ReasonCode)> {
    if !is_thin(features) {
        return None;
    }
    let removed = score.saturating_sub(THIN_FILE_CAP);
    Some((
        removed,
        ReasonCode {
            code: THIN_FILE_CODE.to_owned(),
            factor: "account_history".to_owned(),
            attribute: "thin_file".to_owned(),
            points_lost: removed,
            description: format!(
                "The statement is too thin to score: {} rows of activity on {} days of use over \
                 {} days (at least {MIN_EVIDENCE_ROWS} rows on {MIN_EVIDENCE_USE_DAYS} days of \
                 use over {MIN_EVIDENCE_DAYS} days are needed); the score is capped at \
                 {THIN_FILE_CAP}",
                activity_rows(features),
                features.use_days,
                features.statement_days
            ),
        },
    ))
}
