//! Affordability of a loan's terms: the instalment the terms ask for, against the affordable
//! monthly instalment a report derives (its `affordable_instalment` insight), and the largest
//! principal that fits at these terms. Plain decimal arithmetic, knowing no statement
//! (docs/affordability.md gives the formulas and their sources).
//!
//! - **Instalment, monthly rate `r`** (a fraction a month, `0.035` = 3.5 %): the level annuity
//!   `P · r · g / (g − 1)` with `g = (1 + r)^n` (`P / n` when `r = 0`), plus the fees spread evenly
//!   over the `n` instalments; computed in `Decimal` (28 significant digits, no float), then
//!   rounded **up** to the currency's minor unit (ISO 4217: KES cents, UGX whole shillings), so
//!   that `n` instalments always repay the loan.
//! - **Instalment, total cost `C`** (a flat charge for the principal asked, as Kenyan digital
//!   lenders quote it): `(P + C + fees) / n`, rounded up the same way. For the largest principal
//!   the cost is taken as proportional to the principal (`C / P` a shilling borrowed).
//! - **Largest principal**: the inverse of the instalment at the affordable instalment, rounded
//!   **down** to the minor unit, then lowered a unit at a time while its rounded instalment would
//!   exceed the affordable one (rounding never makes it not fit).

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorKind, Result};

/// The longest tenor accepted, months (30 years).
pub const MAX_TENOR_MONTHS: u32 = 360;

/// How a loan is priced: a monthly interest rate or a flat total cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Pricing {
    /// Interest a month on the balance owed, a fraction (`0.035` = 3.5 % a month), `0..=1`.
    MonthlyRate(#[serde(with = "crate::money::serde_str")] Decimal),
    /// Interest and charges over the whole loan for the principal asked, the statement's
    /// currency, major units, `>= 0`.
    TotalCost(#[serde(with = "crate::money::serde_str")] Decimal),
}

/// The terms of the loan asked for. Money in the statement's currency, major units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Terms {
    /// The amount lent, `> 0`.
    #[serde(with = "crate::money::serde_str")]
    pub principal: Decimal,
    /// Number of monthly instalments, `1..=360`.
    pub tenor_months: u32,
    /// The price of the loan.
    pub pricing: Pricing,
    /// One-off fees added to what is repaid (a facilitation or appraisal fee), spread evenly
    /// over the instalments without interest, `>= 0`.
    #[serde(with = "crate::money::serde_str")]
    pub fees: Decimal,
}

impl Terms {
    /// Terms, checked.
    ///
    /// # Errors
    /// `ErrorKind::InvalidTerms` naming the field, when the principal is not
    /// positive, the tenor is not `1..=360` months, the monthly rate is not `0..=1`, or the
    /// total cost or the fees are negative.
    pub fn new(
        principal: Decimal,
        tenor_months: u32,
        pricing: Pricing,
        fees: Decimal,
    ) -> Result<Terms> {
        let bad = |what: &str| {
            Err(Error::new(
                ErrorKind::InvalidTerms,
                format!("loan terms: {what}"),
            ))
        };
        if principal <= Decimal::ZERO || !crate::money::within_limit(principal) {
            return bad("the principal must be positive and within the amount limit");
        }
        if !(1..=MAX_TENOR_MONTHS).contains(&tenor_months) {
            return bad("the tenor must be 1 to 360 months");
        }
        match pricing {
            Pricing::MonthlyRate(r) if r < Decimal::ZERO || r > Decimal::ONE => {
                return bad("the monthly rate must be a fraction from 0 to 1 (0.035 = 3.5 %)");
            }
            Pricing::TotalCost(c) if c < Decimal::ZERO || !crate::money::within_limit(c) => {
                return bad("the total cost must be zero or more");
            }
            _ => {}
        }
        if fees < Decimal::ZERO || !crate::money::within_limit(fees) {
            return bad("the fees must be zero or more");
        }
        Ok(Terms {
            principal,
            tenor_months,
            pricing,
            fees,
        })
    }
}

impl Terms {
    /// The terms of a surface's optional arguments (CLI flags, Python keywords, a Node object):
    /// `None` when neither a principal nor a tenor is given; the price is the monthly rate, or
    /// the total cost, or else no interest; the fees default to zero.
    ///
    /// # Errors
    /// `ErrorKind::InvalidTerms` naming the problem when only one of principal and tenor is given,
    /// when both a monthly rate and a total cost are, or when [`Terms::new`] refuses them.
    pub fn from_options(
        principal: Option<Decimal>,
        tenor_months: Option<u32>,
        monthly_rate: Option<Decimal>,
        total_cost: Option<Decimal>,
        fees: Option<Decimal>,
    ) -> Result<Option<Terms>> {
        let bad = |what: &str| {
            Err(Error::new(
                ErrorKind::InvalidTerms,
                format!("loan terms: {what}"),
            ))
        };
        let (principal, tenor) = match (principal, tenor_months) {
            (None, None) if monthly_rate.is_none() && total_cost.is_none() && fees.is_none() => {
                return Ok(None);
            }
            (Some(p), Some(n)) => (p, n),
            _ => return bad("give both the principal and the tenor in months"),
        };
        let pricing = match (monthly_rate, total_cost) {
            (Some(_), Some(_)) => return bad("give a monthly rate or a total cost, not both"),
            (Some(r), None) => Pricing::MonthlyRate(r),
            (None, Some(c)) => Pricing::TotalCost(c),
            (None, None) => Pricing::MonthlyRate(Decimal::ZERO),
        };
        Terms::new(principal, tenor, pricing, fees.unwrap_or_default()).map(Some)
    }
}

/// Whether the terms asked fit the affordable instalment. Money in `currency`, major units.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Affordability {
    /// The terms asked.
    pub terms: Terms,
    /// ISO 4217 currency of every amount.
    pub currency: String,
    /// The monthly instalment the terms ask for, rounded up to the minor unit.
    #[serde(with = "crate::money::serde_str")]
    pub instalment: Decimal,
    /// The affordable monthly instalment the report derives (its `affordable_instalment`).
    #[serde(with = "crate::money::serde_str")]
    pub affordable_instalment: Decimal,
    /// `instalment / affordableInstalment`, four decimal places (half to even); `None` when
    /// nothing is affordable.
    #[serde(with = "crate::money::serde_str_opt")]
    pub ratio: Option<Decimal>,
    /// Whether `instalment <= affordableInstalment`.
    pub fits: bool,
    /// The largest principal whose instalment at these terms fits, rounded down to the minor
    /// unit (zero when none does).
    #[serde(with = "crate::money::serde_str")]
    pub largest_principal: Decimal,
}

/// The affordability of `terms` against `affordable` (the affordable monthly instalment, major
/// units of `currency`, ISO 4217; an unknown code rounds to two places).
pub fn assess(terms: &Terms, affordable: Decimal, currency: &str) -> Affordability {
    let places = crate::money::currency_exponent(currency).unwrap_or(2);
    let affordable = affordable.max(Decimal::ZERO);
    let instalment = instalment(terms, terms.principal, places);
    let ratio = (!affordable.is_zero()).then(|| {
        (instalment / affordable).round_dp_with_strategy(4, RoundingStrategy::MidpointNearestEven)
    });
    Affordability {
        terms: *terms,
        currency: currency.to_owned(),
        instalment,
        affordable_instalment: affordable,
        ratio,
        fits: instalment <= affordable,
        largest_principal: largest_principal(terms, affordable, places),
    }
}

/// The instalment of `principal` at `terms`' tenor, pricing and fees, rounded up to `places`.
pub fn instalment(terms: &Terms, principal: Decimal, places: u32) -> Decimal {
    let n = Decimal::from(terms.tenor_months);
    let fees = terms.fees / n;
    let exact = match terms.pricing {
        Pricing::MonthlyRate(r) => principal * annuity_factor(r, terms.tenor_months) + fees,
        Pricing::TotalCost(c) => (principal + cost_for(terms, c, principal) + terms.fees) / n,
    };
    exact.round_dp_with_strategy(places, RoundingStrategy::AwayFromZero)
}

/// The cost of `principal` when `cost` is quoted for the principal asked: proportional.
fn cost_for(terms: &Terms, cost: Decimal, principal: Decimal) -> Decimal {
    if principal == terms.principal {
        cost
    } else {
        cost / terms.principal * principal
    }
}

/// The instalment of one unit of principal over `n` months at `r` a month: `r·g/(g−1)` with
/// `g = (1+r)^n`, `1/n` at `r = 0`, and `r` where `g` is beyond `Decimal`'s range (where
/// `1/(g−1)` is below its precision anyway).
fn annuity_factor(r: Decimal, n: u32) -> Decimal {
    if r.is_zero() {
        return Decimal::ONE / Decimal::from(n);
    }
    match pow(Decimal::ONE + r, n) {
        Some(g) if g > Decimal::ONE => r * g / (g - Decimal::ONE),
        _ => r,
    }
}

/// `base^n` by squaring, `None` on overflow.
fn pow(base: Decimal, mut n: u32) -> Option<Decimal> {
    let (mut acc, mut b) = (Decimal::ONE, base);
    while n > 0 {
        if n & 1 == 1 {
            acc = acc.checked_mul(b)?;
        }
        n >>= 1;
        if n > 0 {
            b = b.checked_mul(b)?;
        }
    }
    Some(acc)
}

/// The largest principal whose rounded instalment is at most `affordable`.
fn largest_principal(terms: &Terms, affordable: Decimal, places: u32) -> Decimal {
    let n = Decimal::from(terms.tenor_months);
    let room = affordable - terms.fees / n;
    if room <= Decimal::ZERO {
        return Decimal::ZERO;
    }
    let estimate = match terms.pricing {
        Pricing::MonthlyRate(r) => room / annuity_factor(r, terms.tenor_months),
        Pricing::TotalCost(c) => room * n / (Decimal::ONE + c / terms.principal),
    };
    let unit = Decimal::new(1, places);
    let mut p = estimate
        .min(Decimal::from(crate::money::MAX_AMOUNT))
        .round_dp_with_strategy(places, RoundingStrategy::ToZero);
    while p > Decimal::ZERO && instalment(terms, p, places) > affordable {
        p -= unit;
    }
    p.max(Decimal::ZERO)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use rust_decimal_macros::dec;

    use super::*;

    fn terms(principal: Decimal, months: u32, rate: Decimal, fees: Decimal) -> Terms {
        Terms::new(principal, months, Pricing::MonthlyRate(rate), fees).expect("valid terms")
    }

    #[test]
    fn the_annuity_matches_the_textbook_figure() {
        // 100,000 over 12 months at 1 % a month: 8,884.88 (any annuity table: 8,884.878…).
        let t = terms(dec!(100000), 12, dec!(0.01), Decimal::ZERO);
        assert_eq!(instalment(&t, t.principal, 2), dec!(8884.88));
        // No interest: the principal in equal parts, rounded up.
        let t = terms(dec!(1000), 3, Decimal::ZERO, Decimal::ZERO);
        assert_eq!(instalment(&t, t.principal, 2), dec!(333.34));
        // UGX rounds to whole shillings.
        let t = terms(dec!(1000), 3, Decimal::ZERO, dec!(30));
        assert_eq!(instalment(&t, t.principal, 0), dec!(344));
    }

    #[test]
    fn a_total_cost_is_spread_flat() {
        let t =
            Terms::new(dec!(10000), 4, Pricing::TotalCost(dec!(1500)), dec!(100)).expect("terms");
        let a = assess(&t, dec!(3000), "KES");
        assert_eq!(a.instalment, dec!(2900.00));
        assert!(a.fits);
        assert_eq!(a.ratio, Some(dec!(0.9667)));
        assert!(instalment(&t, a.largest_principal, 2) <= dec!(3000));
        assert!(instalment(&t, a.largest_principal + dec!(0.01), 2) > dec!(3000));
    }

    #[test]
    fn bad_terms_are_refused_naming_the_field() {
        for (p, n, r, f, word) in [
            (dec!(0), 6, dec!(0.01), dec!(0), "principal"),
            (dec!(100), 0, dec!(0.01), dec!(0), "tenor"),
            (dec!(100), 361, dec!(0.01), dec!(0), "tenor"),
            (dec!(100), 6, dec!(1.5), dec!(0), "rate"),
            (dec!(100), 6, dec!(0.01), dec!(-1), "fees"),
        ] {
            let e = Terms::new(p, n, Pricing::MonthlyRate(r), f).expect_err("refused");
            assert!(e.message().contains(word), "{}", e.message());
        }
    }

    #[test]
    fn nothing_affordable_means_no_ratio_and_no_principal() {
        let a = assess(
            &terms(dec!(5000), 6, dec!(0.02), dec!(0)),
            Decimal::ZERO,
            "KES",
        );
        assert_eq!(
            (a.ratio, a.fits, a.largest_principal),
            (None, false, Decimal::ZERO)
        );
    }

    fn money() -> impl Strategy<Value = Decimal> {
        (0i64..50_000_000).prop_map(|c| Decimal::new(c, 2))
    }

    fn rate() -> impl Strategy<Value = Decimal> {
        (0i64..=2_000).prop_map(|bp| Decimal::new(bp, 4))
    }

    proptest! {
        #[test]
        fn more_income_never_lowers_the_largest_principal(
            a in money(), extra in money(), r in rate(), n in 1u32..=60, fees in money(),
        ) {
            let t = terms(dec!(10000), n, r, fees);
            let low = assess(&t, a, "KES").largest_principal;
            let high = assess(&t, a + extra, "KES").largest_principal;
            prop_assert!(high >= low, "{low} > {high}");
        }

        #[test]
        fn a_higher_rate_never_raises_the_largest_principal(
            a in money(), r in rate(), more in rate(), n in 1u32..=60,
        ) {
            let cheap = assess(&terms(dec!(10000), n, r, Decimal::ZERO), a, "KES").largest_principal;
            let dear = assess(&terms(dec!(10000), n, r + more, Decimal::ZERO), a, "KES").largest_principal;
            prop_assert!(dear <= cheap, "{dear} > {cheap}");
        }

        #[test]
        fn the_largest_principal_fits_and_one_cent_more_does_not(
            a in money(), r in rate(), n in 1u32..=120, fees in money(),
        ) {
            let t = terms(dec!(10000), n, r, fees);
            let p = assess(&t, a, "KES").largest_principal;
            if p > Decimal::ZERO {
                prop_assert!(instalment(&t, p, 2) <= a);
                prop_assert!(instalment(&t, p + dec!(0.01), 2) > a || p + dec!(0.01) > Decimal::from(crate::money::MAX_AMOUNT));
            }
            let fits = assess(&Terms { principal: p.max(dec!(0.01)), ..t }, a, "KES").fits;
            prop_assert_eq!(fits, p > Decimal::ZERO);
        }
    }
}
