//! Bill-payment evidence: a utility or bill payment counts only when it is **material** and
//! **recurring to the same biller**.
//!
//! - Material: what a month pays one biller is at least 0.5 % of the monthly income (the larger
//!   of the typical, median full month and the average month, so that a seasonal income whose
//!   median month is small does not make KES 60 material), never less than the card's
//!   [`Thresholds::min_material_bill`] and never more than its
//!   [`Thresholds::max_material_bill`] (so a one-off windfall
//!   cannot make ordinary bills look immaterial). A KES 10 token is not
//!   evidence of meeting obligations; KES 100 of KPLC prepaid tokens a month is what many
//!   households on the real statements buy (50–250 a month on two of them).
//! - Recurring: the same biller (its name after the last `" - "`, without the account number,
//!   so that "Pay Bill", "Pay Bill Online" and "Pay Bill Fuliza M-Pesa" to one biller agree) is
//!   paid a material amount in at least two calendar months.

use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;

use super::Thresholds;
use crate::categorise::normalise;

/// Share of the typical monthly income that makes a bill material: 0.5 %.
pub const MATERIAL_BILL_SHARE: Decimal = Decimal::from_parts(5, 0, 0, false, 3);

/// The biller of a Paybill Details text: the normalised name after the last `" - "`, without
/// the account number (`"kplc prepaid"`); the whole normalised text when there is no `" - "`.
pub fn biller(details: &str) -> String {
    let text = normalise(details);
    let text = text.split(" acc.").next().unwrap_or(&text);
    let text = text.split(" acc ").next().unwrap_or(text);
    let name = text.rsplit_once(" - ").map_or(text, |(_, name)| name);
    name.trim().to_owned()
}

/// The material-bill threshold for a monthly income (the statement's currency a month; the
/// features pass the larger of the typical and the average monthly income), in the same
/// currency, between the card's `thresholds.min_material_bill` and `max_material_bill`.
pub fn threshold(monthly_income: Decimal, thresholds: &Thresholds) -> Decimal {
    monthly_income
        .saturating_mul(MATERIAL_BILL_SHARE)
        .clamp(thresholds.min_material_bill, thresholds.max_material_bill)
}

/// Which months (indices) hold a material payment to a recurring biller, and how many bill rows
/// those are. `payments` are `(month index, details, amount)` of every utility or bill payment.
pub fn bill_months(
    payments: &[(usize, &str, Decimal)],
    threshold: Decimal,
) -> (BTreeSet<usize>, u32) {
    let mut per_biller: BTreeMap<String, BTreeMap<usize, (Decimal, u32)>> = BTreeMap::new();
    for (month, details, amount) in payments {
        let e = per_biller
            .entry(biller(details))
            .or_default()
            .entry(*month)
            .or_default();
        e.0 = e.0.saturating_add(*amount);
        e.1 = e.1.saturating_add(1);
    }
    let mut months = BTreeSet::new();
    let mut rows = 0u32;
    for by_month in per_biller.values() {
        let material: Vec<(&usize, &(Decimal, u32))> = by_month
            .iter()
            .filter(|(_, (sum, _))| *sum >= threshold)
            .collect();
        if material.len() >= 2 {
            for (m, (_, n)) in material {
                months.insert(*m);
                rows = rows.saturating_add(*n);
            }
        }
    }
    (months, rows)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn billers_ignore_the_account_number() {
        assert_eq!(
            biller("Pay Bill Online to 888880 - KPLC PREPAID Acc. 54123"),
            "kplc prepaid"
        );
        assert_eq!(
            biller("Pay Bill Fuliza M-Pesa to 888880 - KPLC PREPAID Acc. 999"),
            "kplc prepaid"
        );
    }

    #[test]
    fn only_material_recurring_bills_count() {
        let t = threshold(dec!(16000), &Thresholds::KES);
        assert_eq!(t, dec!(80));
        assert_eq!(threshold(dec!(1000), &Thresholds::KES), dec!(50));
        assert_eq!(threshold(dec!(10000000), &Thresholds::KES), dec!(100));
        let kplc = "Pay Bill to 888880 - KPLC PREPAID Acc. 1";
        let rent = "Pay Bill to 777 - RENT Acc. 1";
        let once = "Pay Bill to 444 - WATER Acc. 1";
        let (months, rows) = bill_months(
            &[
                (0, kplc, dec!(10)), // a token: not material
                (1, kplc, dec!(10)),
                (0, rent, dec!(40)),
                (0, rent, dec!(40)), // two payments, 80 in the month: material
                (2, rent, dec!(5000)),
                (3, once, dec!(900)), // material, but only once
            ],
            t,
        );
        assert_eq!(months.into_iter().collect::<Vec<_>>(), [0, 2]);
        assert_eq!(rows, 3);
    }
}
