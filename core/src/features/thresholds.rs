//! The money thresholds of the features: the part of a scorecard that defines its market.
//!
//! A feature that compares an amount with a fixed edge ("a month with income", "a row that is
//! activity", "a day that ends near zero", "a bill that is material") needs that edge in the
//! statement's currency. The edges are not constants of the engine: each scorecard carries them
//! ([`crate::scorecard::Scorecard::thresholds`]), in the card's currency, major units, so that a
//! card fully defines its market and a Ugandan statement is never read with Kenyan shillings'
//! edges. [`Thresholds::KES`] are the Kenyan edges every Kenyan card before version 2027.01 used
//! implicitly; the other built-in cards carry them over with the World Bank's PPP conversion
//! factor for private consumption (see `docs/scorecard.md`, "Markets").

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// The money edges of the features, in a card's currency (major units: shillings, cedis, maloti).
///
/// JSON: `{"materialMonthlyIncome": "1000", "minActivityAmount": "50", "nearZeroBalance": "100",
/// "minMaterialBill": "50", "maxMaterialBill": "100", "rationale": "…"}`, amounts as decimal
/// strings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Thresholds {
    /// A month's income below this is "no income" for regularity (`income_month_share`,
    /// `salary_month_share`, `months_with_income`). Kenya: KES 1,000, a few days of the
    /// statutory minimum wage (Regulation of Wages (General) (Amendment) Order 2024): KES 10
    /// from a friend does not make a month "with income".
    #[serde(with = "crate::money::serde_str")]
    pub material_monthly_income: Decimal,
    /// Rows below this amount are not activity (`transactions_per_month`) and are left out of
    /// the spending mix (`betting_share`, `cash_out_share`), betting stakes and cash
    /// withdrawals excepted. Kenya: KES 50, below the cheapest charged Send Money band: a KES 10
    /// token or a KES 1 "rent" payment is not evidence of an economy.
    #[serde(with = "crate::money::serde_str")]
    pub min_activity_amount: Decimal,
    /// An end-of-day net balance below this is "near zero" (`near_zero_balance_share`). Kenya:
    /// KES 100, the price of a small Send Money plus its charge.
    #[serde(with = "crate::money::serde_str")]
    pub near_zero_balance: Decimal,
    /// The smallest monthly payment to one biller that counts as a material bill. Kenya: KES 50.
    #[serde(with = "crate::money::serde_str")]
    pub min_material_bill: Decimal,
    /// A monthly payment to one biller of this much always counts as material. Kenya: KES 100,
    /// what many households on the real statements pay for KPLC prepaid tokens a month.
    #[serde(with = "crate::money::serde_str")]
    pub max_material_bill: Decimal,
    /// How the edges were set, with the editions of the figures used (for people; not read by
    /// the engine, but part of the card's canonical JSON and so of its SHA-256).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rationale: String,
}

impl Thresholds {
    /// The Kenyan edges (KES), as the engine used them as constants up to scorecard
    /// `alama-mpesa-2026.12`; a KES card without a `thresholds` object uses them.
    pub const KES: Thresholds = Thresholds {
        material_monthly_income: Decimal::from_parts(1_000, 0, 0, false, 0),
        min_activity_amount: Decimal::from_parts(50, 0, 0, false, 0),
        near_zero_balance: Decimal::from_parts(100, 0, 0, false, 0),
        min_material_bill: Decimal::from_parts(50, 0, 0, false, 0),
        max_material_bill: Decimal::from_parts(100, 0, 0, false, 0),
        rationale: String::new(),
    };

    /// The edges by name, in declaration order (for validation messages and docs).
    pub fn edges(&self) -> [(&'static str, Decimal); 5] {
        [
            ("materialMonthlyIncome", self.material_monthly_income),
            ("minActivityAmount", self.min_activity_amount),
            ("nearZeroBalance", self.near_zero_balance),
            ("minMaterialBill", self.min_material_bill),
            ("maxMaterialBill", self.max_material_bill),
        ]
    }

    /// Checks that every edge is positive and that the material-bill range is not inverted.
    ///
    /// # Errors
    /// A message naming the first edge that is wrong.
    pub fn check(&self) -> Result<(), String> {
        if let Some((name, v)) = self.edges().into_iter().find(|(_, v)| *v <= Decimal::ZERO) {
            return Err(format!("thresholds.{name} must be positive, got {v}"));
        }
        if self.min_material_bill > self.max_material_bill {
            return Err(format!(
                "thresholds.minMaterialBill ({}) is above thresholds.maxMaterialBill ({})",
                self.min_material_bill, self.max_material_bill
            ));
        }
        Ok(())
    }
}

impl Default for Thresholds {
    fn default() -> Self {
        Self::KES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn kenyan_edges_round_trip_and_check() {
        let json = serde_json::to_string(&Thresholds::KES).expect("serialises");
        assert_eq!(
            json,
            r#"{"materialMonthlyIncome":"1000","minActivityAmount":"50","nearZeroBalance":"100","minMaterialBill":"50","maxMaterialBill":"100"}"#
        );
        let back: Thresholds = serde_json::from_str(&json).expect("parses");
        assert_eq!(back, Thresholds::KES);
        assert_eq!(back.check(), Ok(()));
    }

    #[test]
    fn non_positive_or_inverted_edges_are_refused() {
        let zero = Thresholds {
            near_zero_balance: dec!(0),
            ..Thresholds::KES
        };
        assert!(zero.check().expect_err("zero").contains("nearZeroBalance"));
        let inverted = Thresholds {
            min_material_bill: dec!(200),
            ..Thresholds::KES
        };
        assert!(
            inverted
                .check()
                .expect_err("inverted")
                .contains("minMaterialBill")
        );
        assert!(
            serde_json::from_str::<Thresholds>(r#"{"materialMonthlyIncome":1000.5}"#).is_err(),
            "floats are refused"
        );
    }
}
