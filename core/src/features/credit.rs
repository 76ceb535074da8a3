//! Credit drawn and repaid: Fuliza, mobile bank loans (M-Shwari, KCB M-PESA, Hustler Fund) and
//! other digital lenders, each a separate ledger.
//!
//! Each draw creates a debt of its principal plus the product's fee ([`FULIZA_FEE`],
//! [`MOBILE_LOAN_FEE`], [`DIGITAL_LOAN_FEE`]); repayments settle the oldest open debt first
//! (first in, first out, in the canonical row order). From that ledger come:
//!
//! - **Fees**: the estimated cost of each draw, counted as spending in the month of the draw.
//!   They are estimated from the draws, not read off the repayments, so that deleting or adding
//!   a repayment row cannot change spending: only the credit evidence moves.
//! - **Amount due**: the debt of every draw at least [`REPAYMENT_TERM_DAYS`] old on the last day
//!   of the statement, plus what was already repaid of younger draws (a draw of last week is not
//!   late; what was repaid of it already counts).
//! - **On time**: repaid within [`REPAYMENT_TERM_DAYS`] of its draw.
//! - **Overdue**: what is still owed of draws older than the term: the knock-out evidence.
//! - **Outstanding**: what is owed at the end of each day, subtracted from the wallet balance
//!   (an overdraft is debt, not a buffer).
//! - **Excess**: repayments with no open debt (debt from before the statement, or fees above the
//!   estimate). Neither spending nor credit evidence: a "repayment" without borrowing is not
//!   credit history.

use std::collections::{BTreeMap, VecDeque};

use chrono::{Duration, NaiveDate};
use rust_decimal::Decimal;

use crate::categorise::Category;
use crate::statement::Transaction;

/// Days within which a draw is due: Fuliza, M-Shwari and KCB M-PESA loans are 30-day facilities
/// (Safaricom and the banks' product terms); Hustler Fund and digital lenders are read the same.
pub const REPAYMENT_TERM_DAYS: i64 = 30;

/// Fuliza's access fee, 1 % of each draw (Safaricom's Fuliza tariff; the daily maintenance fee
/// depends on the days outstanding and is not estimated).
pub const FULIZA_FEE: Decimal = Decimal::from_parts(1, 0, 0, false, 2);

/// M-Shwari's 7.5 % facilitation fee per 30-day loan (NCBA's M-Shwari terms), used for every
/// mobile bank loan.
pub const MOBILE_LOAN_FEE: Decimal = Decimal::from_parts(75, 0, 0, false, 3);

/// Assumed cost of a digital-lender loan, 10 % of the principal per term: an assumption in the
/// range of CBK-licensed digital credit providers' published monthly rates, to be refitted.
pub const DIGITAL_LOAN_FEE: Decimal = Decimal::from_parts(10, 0, 0, false, 2);

/// Which ledger a row belongs to, and whether it draws (`true`) or repays.
fn ledger(category: Category) -> Option<(usize, bool, Decimal)> {
    match category {
        Category::FulizaDraw => Some((0, true, FULIZA_FEE)),
        Category::FulizaRepayment => Some((0, false, FULIZA_FEE)),
        Category::MobileLoanDisbursement => Some((1, true, MOBILE_LOAN_FEE)),
        Category::MobileLoanRepayment => Some((1, false, MOBILE_LOAN_FEE)),
        Category::DigitalLoanDisbursement => Some((2, true, DIGITAL_LOAN_FEE)),
        Category::DigitalLoanRepayment => Some((2, false, DIGITAL_LOAN_FEE)),
        _ => None,
    }
}

/// One open debt: the day it was drawn, what is left of it, whether it is due.
struct Debt {
    drawn: NaiveDate,
    left: Decimal,
    due: bool,
}

/// What the credit ledgers show. Money is KES.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Credit {
    /// Principal drawn, all products.
    pub borrowed: Decimal,
    /// Estimated fees of those draws.
    pub fees: Decimal,
    /// Fees per day of the draw (for monthly spending).
    pub fees_by_day: BTreeMap<NaiveDate, Decimal>,
    /// Amount due (see the module rules).
    pub due: Decimal,
    /// Repaid within the term of its draw.
    pub repaid_on_time: Decimal,
    /// Repaid against a debt, whenever.
    pub repaid_against_debt: Decimal,
    /// Repayments with no open debt.
    pub excess_repaid: Decimal,
    /// Still owed to Fuliza and digital lenders of draws older than the term on the last day.
    pub overdue: Decimal,
    /// Still owed to mobile bank loans of draws older than the term on the last day.
    pub overdue_mobile: Decimal,
    /// Change of the amount owed per day (draws plus fees minus repayments against debt).
    pub owed_change_by_day: BTreeMap<NaiveDate, Decimal>,
}

impl Credit {
    /// `repaid_on_time / due`; `None` when nothing was borrowed (no credit history).
    pub fn on_time_share(&self) -> Option<Decimal> {
        if self.borrowed.is_zero() {
            None
        } else if self.due.is_zero() {
            // Everything drawn is younger than its term and none of it repaid yet.
            Some(Decimal::ONE)
        } else {
            self.repaid_on_time.checked_div(self.due)
        }
    }
}

fn add(map: &mut BTreeMap<NaiveDate, Decimal>, day: NaiveDate, v: Decimal) {
    let e = map.entry(day).or_default();
    *e = e.saturating_add(v);
}

/// Builds the ledgers from rows in canonical order with their categories; `last` is the last
/// day of the statement.
pub fn ledgers(rows: &[&Transaction], categories: &[Category], last: NaiveDate) -> Credit {
    let term = Duration::days(REPAYMENT_TERM_DAYS);
    let mut open: [VecDeque<Debt>; 3] = Default::default();
    let mut c = Credit::default();
    for (t, category) in rows.iter().zip(categories) {
        let Some((book, draws, fee_rate)) = ledger(*category) else {
            continue;
        };
        let day = t.completed_at.date();
        if draws {
            if t.paid_in <= Decimal::ZERO {
                continue;
            }
            let fee = crate::money::cents(t.paid_in.saturating_mul(fee_rate));
            let debt = t.paid_in.saturating_add(fee);
            let due = day + term <= last;
            c.borrowed = c.borrowed.saturating_add(t.paid_in);
            c.fees = c.fees.saturating_add(fee);
            add(&mut c.fees_by_day, day, fee);
            add(&mut c.owed_change_by_day, day, debt);
            if due {
                c.due = c.due.saturating_add(debt);
            }
            open[book].push_back(Debt {
                drawn: day,
                left: debt,
                due,
            });
        } else {
            let mut amount = t.withdrawn;
            while amount > Decimal::ZERO {
                let Some(debt) = open[book].front_mut() else {
                    break;
                };
                let m = amount.min(debt.left);
                amount -= m;
                debt.left -= m;
                c.repaid_against_debt = c.repaid_against_debt.saturating_add(m);
                add(&mut c.owed_change_by_day, day, -m);
                if !debt.due {
                    c.due = c.due.saturating_add(m);
                }
                if day - debt.drawn <= term {
                    c.repaid_on_time = c.repaid_on_time.saturating_add(m);
                }
                if debt.left.is_zero() {
                    open[book].pop_front();
                }
            }
            c.excess_repaid = c.excess_repaid.saturating_add(amount);
        }
    }
    let overdue = |book: &VecDeque<Debt>| {
        book.iter()
            .filter(|d| d.due)
            .fold(Decimal::ZERO, |a, d| a.saturating_add(d.left))
    };
    c.overdue = overdue(&open[0]).saturating_add(overdue(&open[2]));
    c.overdue_mobile = overdue(&open[1]);
    c
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statement::TransactionStatus;
    use rust_decimal_macros::dec;

    fn row(day: u32, category: Category, paid_in: Decimal, withdrawn: Decimal) -> Transaction {
        Transaction {
            receipt_no: format!("R{day}"),
            completed_at: NaiveDate::from_ymd_opt(2024, 1, 1)
                .and_then(|d| d.checked_add_days(chrono::Days::new(u64::from(day))))
                .and_then(|d| d.and_hms_opt(9, 0, 0))
                .unwrap_or_default(),
            details: String::new(),
            status: TransactionStatus::Completed,
            paid_in,
            withdrawn,
            balance: None,
            category,
            ..crate::statement::Transaction::empty()
        }
    }

    fn run(rows: &[Transaction], last_day: u32) -> Credit {
        let refs: Vec<&Transaction> = rows.iter().collect();
        let cats: Vec<Category> = rows.iter().map(|t| t.category).collect();
        let last = NaiveDate::from_ymd_opt(2024, 1, 1)
            .and_then(|d| d.checked_add_days(chrono::Days::new(u64::from(last_day))))
            .unwrap_or_default();
        ledgers(&refs, &cats, last)
    }

    #[test]
    fn fifo_on_time_late_overdue_and_excess() {
        let c = run(
            &[
                row(0, Category::FulizaRepayment, dec!(0), dec!(50)), // debt from before
                row(1, Category::FulizaDraw, dec!(1000), dec!(0)),    // owes 1,010
                row(5, Category::FulizaRepayment, dec!(0), dec!(510)),
                row(50, Category::FulizaRepayment, dec!(0), dec!(300)), // late
                row(60, Category::FulizaDraw, dec!(200), dec!(0)),      // owes 202, overdue
                row(99, Category::FulizaDraw, dec!(100), dec!(0)),      // not yet due
            ],
            100,
        );
        assert_eq!(c.borrowed, dec!(1300));
        assert_eq!(c.fees, dec!(13));
        assert_eq!(c.excess_repaid, dec!(50));
        assert_eq!(c.repaid_on_time, dec!(510));
        assert_eq!(c.repaid_against_debt, dec!(810));
        assert_eq!(c.due, dec!(1212));
        assert_eq!(c.overdue, dec!(200) + dec!(202));
        let owed: Decimal = c.owed_change_by_day.values().copied().sum();
        assert_eq!(owed, dec!(1313) - dec!(810));
        assert_eq!(c.on_time_share(), Some(dec!(510) / dec!(1212)));
    }

    #[test]
    fn mobile_bank_loans_are_overdue_apart() {
        let c = run(
            &[row(
                1,
                Category::MobileLoanDisbursement,
                dec!(1000),
                dec!(0),
            )],
            60,
        );
        assert_eq!(c.overdue, dec!(0));
        assert_eq!(c.overdue_mobile, dec!(1075));
        assert_eq!(c.on_time_share(), Some(dec!(0)));
    }

    #[test]
    fn repayments_without_borrowing_are_not_credit_history() {
        let c = run(
            &[row(3, Category::DigitalLoanRepayment, dec!(0), dec!(10))],
            60,
        );
        assert_eq!(c.on_time_share(), None);
        assert_eq!(c.excess_repaid, dec!(10));
        assert_eq!(c.overdue, dec!(0));
    }
}
