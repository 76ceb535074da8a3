//! The arithmetic the features share: ratios, sums, square roots, spreads, medians and
//! per-month rates, exact in `Decimal` (see the rules in [`super`]).

use rust_decimal::Decimal;

#[cfg(doc)]
use super::Features;
use super::{MonthFigures, WINDOW_DAYS};

/// `a / b`, or `None` when `b` is zero or the division overflows.
pub(crate) fn ratio(a: Decimal, b: Decimal) -> Option<Decimal> {
    if b.is_zero() { None } else { a.checked_div(b) }
}

pub(super) fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

pub(super) fn sum(values: impl IntoIterator<Item = Decimal>) -> Decimal {
    values
        .into_iter()
        .fold(Decimal::ZERO, Decimal::saturating_add)
}

/// Square root by Newton's method (exact `Decimal` arithmetic, 28 significant digits).
pub(super) fn sqrt(x: Decimal) -> Decimal {
    if x <= Decimal::ZERO {
        return Decimal::ZERO;
    }
    let two = Decimal::TWO;
    let mut guess = if x > Decimal::ONE {
        x / two
    } else {
        Decimal::ONE
    };
    for _ in 0..100 {
        let Some(q) = x.checked_div(guess) else {
            break;
        };
        let next = (guess.saturating_add(q)) / two;
        if next == guess {
            break;
        }
        guess = next;
    }
    guess
}

/// Coefficient of variation of a series (population standard deviation ÷ mean), computed on
/// the series divided by its mean so that large amounts cannot overflow.
pub(super) fn coefficient_of_variation(values: &[Decimal]) -> Option<Decimal> {
    let n = Decimal::from(values.len());
    let mean = ratio(sum(values.iter().copied()), n)?;
    if mean <= Decimal::ZERO {
        return None;
    }
    let variance = values.iter().try_fold(Decimal::ZERO, |acc, v| {
        let d = ratio(*v, mean)? - Decimal::ONE;
        Some(acc.saturating_add(d.saturating_mul(d)))
    })?;
    Some(sqrt(ratio(variance, n)?))
}

/// The median of a non-empty series (the mean of the two middle values for an even count).
pub(super) fn median(values: &[Decimal]) -> Option<Decimal> {
    let mut v = values.to_vec();
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => v.get(n / 2).copied(),
        _ => Some(v[n / 2 - 1].saturating_add(v[n / 2]) / Decimal::TWO),
    }
}

/// The 20th percentile by nearest rank, rounding down: the `⌊(n − 1) / 5⌋`-th smallest value.
pub(super) fn floor_percentile(values: &[Decimal]) -> Option<Decimal> {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.get(v.len().checked_sub(1)? / 5).copied()
}

/// `x × 30 / max(30, days)` in one division, so that bin edges are exact.
pub(super) fn per_month(x: Decimal, days: i64) -> Decimal {
    let d = Decimal::from(days.max(WINDOW_DAYS));
    ratio(x.saturating_mul(Decimal::from(WINDOW_DAYS)), d).unwrap_or(x)
}

/// Share of `months` (oldest first) for which `pred` holds, the latest `recent` of them
/// counting twice; `None` when there are fewer than `min` of them.
pub(super) fn recent_weighted_share_of(
    months: &[&MonthFigures],
    min: u32,
    recent: usize,
    pred: impl Fn(&MonthFigures) -> bool,
) -> Option<Decimal> {
    if count(months.len()) < min.max(1) {
        return None;
    }
    let first_recent = months.len().saturating_sub(recent);
    let weight = |i: usize| if i >= first_recent { 2u64 } else { 1 };
    let (hits, total) = months
        .iter()
        .enumerate()
        .fold((0u64, 0u64), |(h, t), (i, m)| {
            (h + if pred(m) { weight(i) } else { 0 }, t + weight(i))
        });
    ratio(Decimal::from(hits), Decimal::from(total))
}

/// Share of `months` for which `pred` holds; `None` when there are fewer than `min` of them.
pub(super) fn share_of(
    months: &[&MonthFigures],
    min: u32,
    pred: impl Fn(&MonthFigures) -> bool,
) -> Option<Decimal> {
    if count(months.len()) < min.max(1) {
        return None;
    }
    ratio(
        Decimal::from(months.iter().filter(|m| pred(m)).count()),
        Decimal::from(months.len()),
    )
}

/// `amount / income`: `Some(0)` without the amount, `Decimal::MAX` with it but no income.
pub(super) fn of_income(amount: Decimal, income: Decimal) -> Option<Decimal> {
    if amount.is_zero() {
        Some(Decimal::ZERO)
    } else if income <= Decimal::ZERO {
        Some(Decimal::MAX)
    } else {
        ratio(amount, income)
    }
}

/// Net cash flow ratio over `months` (see [`Features::net_cash_flow_ratio`]).
pub(super) fn net_cash_flow_ratio(income: Decimal, spending: Decimal) -> Option<Decimal> {
    if income.is_zero() {
        Some(if spending.is_zero() {
            Decimal::ZERO
        } else {
            Decimal::NEGATIVE_ONE
        })
    } else {
        ratio(income.saturating_sub(spending), income)
    }
}
