//! The arithmetic of the passes over a statement's rows, on [`Decimal`] or on whole [`Cents`].
//!
//! Every amount a statement prints has two decimal places (KES cents), and the passes over its
//! rows (the features' sums, the end-of-day balances, the round trips, the balance chain of the
//! integrity check, the overview's monthly sums) only add, subtract and compare them. On
//! `Decimal` each of those is a call that unpacks and repacks 16 bytes (a `perf` profile of the
//! features of 5,000 rows, 2026-11-27, put a quarter of `Sums::add` on one store-forwarding
//! stall of such a repack); on [`Cents`] it is an integer instruction or two. So these passes
//! are written once, generic over [`Amount`], and run on `Cents` when [`Arithmetic::of`] finds
//! every amount in their domain (every statement read from a file, and any whose amounts all
//! have two places), on `Decimal` otherwise.
//!
//! `Cents` gives exactly what `Decimal` gives, scale included. `rust_decimal` adds two values
//! of scales 0 and 2 into the larger scale, except that adding zero returns the other operand
//! unchanged (`0 + x` is `x`, `x + 0` is `x`, `0 - x` is `-x`); and `Decimal::ZERO` (scale 0),
//! which the sums start from, is not `0.00`. In the domain, only that zero lacks two places, so
//! a `Cents` keeps whether it has them beside its value and follows the same rules: converting
//! a result back ([`Amount::decimal`]) gives the very `Decimal`, with the same scale and text,
//! as the `Decimal` pass. Property tests compare the two passes' results by their text.
//!
//! (Over 400 lines: the two arithmetics, the domain that chooses between them, and the property
//! tests that hold them equal text for text are one concept and are read together.)

use std::cmp::Ordering;
use std::fmt::Debug;

use rust_decimal::Decimal;

use crate::statement::Transaction;

/// Money as the row passes use it: exact, ordered by value, and cheap to copy. Implemented by
/// [`Decimal`] (any amount) and by [`Cents`] (amounts of two decimal places, see
/// [`Arithmetic::of`]).
pub(crate) trait Amount: Copy + Ord + Debug + Default {
    /// Zero of scale 0, like [`Decimal::ZERO`].
    const ZERO: Self;

    /// The amount of a `Decimal`. For [`Cents`], `value` has two places and a magnitude that
    /// [`Arithmetic::of`] bounds, or is a constant of no places (read with two, see [`Cents`]).
    fn of(value: Decimal) -> Self;

    /// This amount as a `Decimal`, with the scale the `Decimal` arithmetic would have given it.
    fn decimal(self) -> Decimal;

    /// `self + other`, as [`Decimal::saturating_add`] (no statement in the domain comes near
    /// saturation).
    #[must_use]
    fn plus(self, other: Self) -> Self;

    /// `self - other`, as [`Decimal::saturating_sub`].
    #[must_use]
    fn minus(self, other: Self) -> Self;

    /// The scale of the amount's `Decimal` form (decimal places).
    fn scale(self) -> u32;

    /// Whether the amount is zero.
    fn is_zero(self) -> bool;

    /// Whether the amount is above zero.
    fn is_positive(self) -> bool;

    /// `self.max(floor)` as [`Decimal::max`] gives it: `self` unless it is below `floor`.
    /// (`Decimal`'s own `max` returns `self` when the two are equal, `Ord::max` the other: the
    /// same value, but perhaps not the same scale.)
    #[must_use]
    fn at_least(self, floor: Self) -> Self {
        if self < floor { floor } else { self }
    }

    /// `max(self, 0)` exactly as `Ord::max(self, Self::ZERO)` gives it: the zero of scale 0
    /// for any amount that is not above zero.
    #[must_use]
    fn at_least_zero(self) -> Self {
        if self.is_positive() { self } else { Self::ZERO }
    }
}

impl Amount for Decimal {
    const ZERO: Self = Decimal::ZERO;

    fn of(value: Decimal) -> Self {
        value
    }

    fn decimal(self) -> Decimal {
        self
    }

    fn plus(self, other: Self) -> Self {
        self.saturating_add(other)
    }

    fn minus(self, other: Self) -> Self {
        self.saturating_sub(other)
    }

    fn scale(self) -> u32 {
        Decimal::scale(&self)
    }

    fn is_zero(self) -> bool {
        Decimal::is_zero(&self)
    }

    fn is_positive(self) -> bool {
        !Decimal::is_zero(&self) && self.is_sign_positive()
    }
}

/// An amount in whole cents of the currency (KES: 1/100 shilling): an amount of two decimal
/// places (`0.00` among them), or [`Decimal::ZERO`], which has none (see the module). Ordered
/// and compared by value only, as `Decimal` is: `0 == 0.00`.
///
/// Only zero can lack the two places, so an operation needs no more than the value to know
/// its result's scale. A constant of no decimal places other than zero (a threshold such as
/// KES 50) is read with two: it is only ever compared.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Cents {
    cents: i64,
    /// Whether the `Decimal` would have two decimal places; `false` only for
    /// [`Decimal::ZERO`].
    two_places: bool,
}

impl PartialEq for Cents {
    fn eq(&self, other: &Self) -> bool {
        self.cents == other.cents
    }
}

impl Eq for Cents {}

impl PartialOrd for Cents {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Cents {
    fn cmp(&self, other: &Self) -> Ordering {
        self.cents.cmp(&other.cents)
    }
}

impl Amount for Cents {
    const ZERO: Self = Cents {
        cents: 0,
        two_places: false,
    };

    #[inline]
    fn of(value: Decimal) -> Self {
        let parts = value.unpack();
        // In the domain the mantissa is in the low 47 bits.
        let magnitude = (i64::from(parts.mid) << 32) | i64::from(parts.lo);
        let mantissa = if parts.negative {
            -magnitude
        } else {
            magnitude
        };
        match parts.scale {
            2 if parts.hi == 0 => Cents {
                cents: mantissa,
                two_places: true,
            },
            0 if parts.hi == 0 => Cents {
                cents: mantissa.saturating_mul(100),
                two_places: mantissa != 0,
            },
            _ => Cents::outside_the_domain(value),
        }
    }

    fn decimal(self) -> Decimal {
        if self.two_places {
            Decimal::new(self.cents, 2)
        } else {
            Decimal::new(self.cents / 100, 0)
        }
    }

    fn plus(self, other: Self) -> Self {
        Cents {
            cents: self.cents + other.cents,
            two_places: sum_places(self, other),
        }
    }

    fn minus(self, other: Self) -> Self {
        Cents {
            cents: self.cents - other.cents,
            two_places: sum_places(self, other),
        }
    }

    fn scale(self) -> u32 {
        if self.two_places { 2 } else { 0 }
    }

    fn is_zero(self) -> bool {
        self.cents == 0
    }

    fn is_positive(self) -> bool {
        self.cents > 0
    }
}

/// A row's movement, `paid_in - withdrawn` ([`Transaction::net`]), in the arithmetic `A`.
pub(crate) fn net_of<A: Amount>(t: &Transaction) -> A {
    A::of(t.paid_in).minus(A::of(t.withdrawn))
}

/// The arithmetic of a statement's row passes: [`Cents`] when every amount is in its domain
/// (see [`Arithmetic::of`]), else [`Decimal`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arithmetic {
    /// [`Cents`].
    Cents,
    /// [`Decimal`].
    Decimal,
}

impl Arithmetic {
    /// [`Arithmetic::Cents`] when every amount of `rows` (Paid In, Withdrawn, and Balance when
    /// printed) can be read as [`Cents`] with the same results as [`Decimal`]: two decimal
    /// places exactly (every amount `parse` returns: see [`crate::parse::prepare`]), no
    /// negative zero (`-0.00`, whose sign `Decimal` keeps), magnitudes of at most
    /// [`MAX_CENTS`] that add up to at most [`MAX_TOTAL_CENTS`].
    pub(crate) fn of<'a>(rows: impl Iterator<Item = &'a Transaction>) -> Self {
        let mut domain = Domain::default();
        for t in rows {
            domain.read_row(t);
        }
        domain.arithmetic()
    }
}

impl Cents {
    /// [`Amount::of`] for an amount outside the domain (a caller's error, never a statement's):
    /// the nearest cent, saturated.
    #[cold]
    #[inline(never)]
    fn outside_the_domain(value: Decimal) -> Cents {
        let cents = crate::money::cents(value).mantissa();
        Cents {
            cents: i64::try_from(cents).unwrap_or(if cents < 0 { i64::MIN } else { i64::MAX }),
            two_places: true,
        }
    }
}

/// Whether `a + b` (or `a - b`) has two places as a `Decimal`. `rust_decimal` returns the
/// other operand as it is when one is zero (`0 - x` is `x` with its sign turned), and gives any
/// other sum the larger scale: two, since only zero lacks them. So the result has `b`'s scale
/// when `a` is zero, and two places otherwise. (Written without branches: whether an amount
/// is zero is as random as whether a row is money in or money out.)
fn sum_places(a: Cents, b: Cents) -> bool {
    (a.cents != 0) | b.two_places
}

/// The most cents that all of a statement's amounts may add up to, in magnitude, for
/// [`Cents`] to hold them: every sum, difference and balance the passes form stays within a
/// few times this, far inside `i64` (2⁶³ ≈ 9.2 × 10¹⁸). 2⁶⁰ cents is 1.15 × 10¹⁶ KES, thousands
/// of times the money of any statement (M-Pesa's balance limit is KES 500,000).
const MAX_TOTAL_CENTS: u64 = 1 << 60;

/// The largest amount, in cents, that [`Cents`] takes: 2⁴⁷ − 1 cents (1.4 × 10¹² KES, above
/// [`crate::money::MAX_AMOUNT`]), so that its mantissa is in the low 47 bits of a `Decimal`.
/// Bounding each amount keeps the running total in `u64` without a check per addition.
const MAX_CENTS: u64 = (1 << 47) - 1;

/// The magnitude in cents of `a` when it is in the domain of [`Cents`] on its own (two
/// places, at most [`MAX_CENTS`], not a negative zero), read from its parts.
pub(crate) fn cents_magnitude(a: Decimal) -> Option<u64> {
    let parts = a.unpack();
    let magnitude = (u64::from(parts.mid) << 32) | u64::from(parts.lo);
    let fits = parts.scale == 2
        && parts.hi == 0
        && magnitude <= MAX_CENTS
        && !(parts.negative && magnitude == 0);
    fits.then_some(magnitude)
}

/// Amounts read so far for [`Arithmetic::of`].
#[derive(Debug, Default)]
pub(crate) struct Domain {
    total: u64,
    outside: bool,
}

impl Domain {
    /// Reads one amount; returns its magnitude in cents when it is in the domain.
    pub(crate) fn read(&mut self, a: Decimal) -> Option<u64> {
        let magnitude = cents_magnitude(a);
        match magnitude {
            // At most 2⁴⁷ each: the total cannot wrap before it is far beyond the limit.
            Some(m) => self.total = self.total.saturating_add(m),
            None => self.outside = true,
        }
        magnitude
    }

    /// Reads a row's amounts.
    pub(crate) fn read_row(&mut self, t: &Transaction) {
        self.read(t.paid_in);
        self.read(t.withdrawn);
        if let Some(b) = t.balance {
            self.read(b);
        }
    }

    /// The arithmetic of the amounts read.
    pub(crate) fn arithmetic(&self) -> Arithmetic {
        #[cfg(test)]
        if DECIMAL_ONLY.get() {
            return Arithmetic::Decimal;
        }
        if self.outside || self.total > MAX_TOTAL_CENTS {
            Arithmetic::Decimal
        } else {
            Arithmetic::Cents
        }
    }
}

#[cfg(test)]
thread_local! {
    /// Set by [`decimal_only`]: no statement is in the domain of [`Cents`] on this thread.
    static DECIMAL_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// `f()` with every pass on this thread in `Decimal` arithmetic, for tests that compare the
/// two arithmetics.
#[cfg(test)]
pub(crate) fn decimal_only<R>(f: impl FnOnce() -> R) -> R {
    DECIMAL_ONLY.set(true);
    let result = f();
    DECIMAL_ONLY.set(false);
    result
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// Amounts of two places and `Decimal::ZERO` (the domain), zero among them often, either
    /// sign.
    fn amount() -> impl Strategy<Value = Decimal> {
        prop_oneof![
            Just(Decimal::ZERO),
            Just(Decimal::new(0, 2)),
            (-500i64..500).prop_map(|n| Decimal::new(n, 2)),
            (-10_000_000_000_000i64..10_000_000_000_000).prop_map(|n| Decimal::new(n, 2)),
        ]
    }

    /// The text of a `Decimal`, its scale written out (`0` and `0.00` differ).
    fn text(d: Decimal) -> String {
        format!("{d:?}")
    }

    proptest! {
        /// Every operation gives the `Decimal` result, scale and all.
        #[test]
        fn cents_compute_what_decimal_computes(a in amount(), b in amount()) {
            let (ca, cb) = (Cents::of(a), Cents::of(b));
            prop_assert_eq!(text(ca.decimal()), text(a));
            prop_assert_eq!(text(ca.plus(cb).decimal()), text(a.plus(b)));
            prop_assert_eq!(text(ca.minus(cb).decimal()), text(a.minus(b)));
            prop_assert_eq!(text(ca.at_least_zero().decimal()), text(a.at_least_zero()));
            prop_assert_eq!(text(ca.at_least(cb).decimal()), text(a.max(b)));
            prop_assert_eq!(text(Ord::max(ca, cb).decimal()), text(Ord::max(a, b)));
            prop_assert_eq!(text(ca.min(cb).decimal()), text(a.min(b)));
            prop_assert_eq!(ca.cmp(&cb), a.cmp(&b));
            prop_assert_eq!(ca.is_positive(), Amount::is_positive(a));
            prop_assert_eq!(ca.is_zero(), a.is_zero());
            prop_assert_eq!(ca.scale(), a.scale());
        }

        /// A constant of no places compares as its `Decimal` does.
        #[test]
        fn constants_compare_as_decimal_does(a in amount(), constant in -500i64..500) {
            let c = Decimal::new(constant, 0);
            prop_assert_eq!(Cents::of(a).cmp(&Cents::of(c)), a.cmp(&c));
        }

        /// A sum of many, zero among them, keeps the `Decimal` scale.
        #[test]
        fn sums_keep_the_decimal_scale(values in prop::collection::vec(amount(), 0..12)) {
            let decimal = values.iter().fold(Decimal::ZERO, |s, v| s.plus(*v));
            let cents = values.iter().fold(Cents::ZERO, |s, v| s.plus(Cents::of(*v)));
            prop_assert_eq!(text(cents.decimal()), text(decimal));
        }
    }

    fn cents_domain<'a>(rows: impl Iterator<Item = &'a Transaction>) -> bool {
        Arithmetic::of(rows) == Arithmetic::Cents
    }

    #[test]
    fn the_domain_is_two_places_without_negative_zero() {
        let d = |s: &str| s.parse::<Decimal>().unwrap_or_default();
        let row = |amount: Decimal| crate::statement::completed_row(d("1.00"), d("0.00"), amount);
        let domain = |amounts: &[Decimal]| {
            let rows: Vec<Transaction> = amounts.iter().map(|a| row(*a)).collect();
            cents_domain(rows.iter())
        };
        assert!(domain(&[d("1.00"), d("-425.50"), d("0.00")]));
        assert!(!domain(&[d("1.0")]), "one place");
        assert!(!domain(&[d("1")]), "no places");
        assert!(!domain(&[d("0.125")]), "three places");
        let mut negative_zero = d("0.00");
        negative_zero.set_sign_negative(true);
        assert!(!domain(&[negative_zero]), "negative zero");
        assert!(
            !domain(&[Decimal::new(i64::MAX, 2)]),
            "beyond the largest amount"
        );
        let largest = Decimal::from_i128_with_scale(i128::from(MAX_CENTS), 2);
        assert!(domain(&[largest, -largest]));
        assert!(!domain(&[Decimal::from_i128_with_scale(
            i128::from(MAX_CENTS) + 1,
            2
        )]));
        assert!(!domain(&vec![largest; 8_200]), "beyond the total");
        let mut paid_in = row(d("0.00"));
        paid_in.paid_in = d("5");
        assert!(!cents_domain(std::iter::once(&paid_in)), "Paid In is read");
        let mut withdrawn = row(d("0.00"));
        withdrawn.withdrawn = d("5.000");
        assert!(
            !cents_domain(std::iter::once(&withdrawn)),
            "Withdrawn is read"
        );
    }

    /// A synthetic statement with some of its rows edited in ways that meet the corners of
    /// both passes: amounts of zero, rows without a balance, rows that share a completion
    /// time, balances that break the chain, a row paid in and withdrawn the same amount.
    #[cfg(feature = "testing")]
    fn edited_statement() -> impl Strategy<Value = crate::Statement> {
        (
            any::<u64>(),
            1u32..=4,
            prop::collection::vec(
                (any::<prop::sample::Index>(), 0u8..8, -5_000i64..5_000),
                0..40,
            ),
        )
            .prop_map(|(seed, months, edits)| {
                let mut s = crate::testing::synthetic_statement(seed, months);
                let n = s.transactions.len();
                for (at, kind, cents) in edits {
                    let i = at.index(n);
                    let next = s.transactions[(i + 1) % n].clone();
                    let t = &mut s.transactions[i];
                    match kind {
                        0 => t.paid_in = Decimal::new(0, 2),
                        1 => t.withdrawn = Decimal::new(0, 2),
                        2 => t.balance = None,
                        3 => t.completed_at = next.completed_at,
                        4 => t.balance = Some(Decimal::new(cents, 2)),
                        5 => t.balance = Some(Decimal::new(0, 2)),
                        6 => t.paid_in = t.withdrawn,
                        _ => t.balance = next.balance,
                    }
                }
                s
            })
    }

    #[cfg(feature = "testing")]
    proptest! {
        /// The features and the integrity check in cents are those in `Decimal`, every figure
        /// with its scale (compared as their `Debug` text).
        #[test]
        fn the_cents_passes_are_the_decimal_passes(statement in edited_statement()) {
            prop_assert!(cents_domain(statement.transactions.iter()), "read in cents");
            let cents = (
                crate::features::compute(&statement.reading(), &crate::features::Thresholds::KES),
                crate::check::check(&statement.reading(), crate::wallets::GENERIC, None),
            );
            let decimal = decimal_only(|| {
                (crate::features::compute(&statement.reading(), &crate::features::Thresholds::KES), crate::check::check(&statement.reading(), crate::wallets::GENERIC, None))
            });
            prop_assert_eq!(format!("{cents:?}"), format!("{decimal:?}"));
        }
    }
}
