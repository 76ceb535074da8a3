//! Derived figures of a statement, the inputs of the scorecard (being written).

use rust_decimal::Decimal;

use crate::statement::Statement;

/// Figures derived from a statement's completed transactions.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Features {
    /// Months covered (whole or partial calendar months with at least one row).
    pub months: u32,
    /// Average monthly income, KES major units.
    pub average_monthly_income: Decimal,
}

/// Computes the features of a statement.
pub fn compute(statement: &Statement) -> Features {
    let income: Decimal = statement
        .transactions
        .iter()
        .filter(|t| t.is_completed())
        .map(|t| t.paid_in)
        .sum();
    Features {
        months: 1,
        average_monthly_income: income,
    }
}
