use chrono::{Datelike, Duration, NaiveDate};

use super::stats::sqrt;
use super::*;
use crate::statement::{Period, Statement, TransactionStatus};

/// The features with the Kenyan card's money edges (these tests are in KES).
/// The features of `statement` prepared as the engine prepares every statement (its rows
/// categorised and their counterparties read in its wallet's words).
fn compute(statement: &Statement) -> Features {
    let mut prepared = statement.clone();
    crate::parse::prepare(&mut prepared);
    super::compute(&prepared.reading(), &Thresholds::KES)
}
use proptest::prelude::*;
use rust_decimal_macros::dec;

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

fn row(
    day: NaiveDate,
    hour: u32,
    details: &str,
    paid_in: Decimal,
    withdrawn: Decimal,
    balance: Option<Decimal>,
) -> Transaction {
    Transaction {
        receipt_no: format!("R{}{hour:02}{}", day.ordinal(), details.len()),
        completed_at: day.and_hms_opt(hour, 0, 0).unwrap_or_default(),
        details: details.to_owned(),
        status: TransactionStatus::Completed,
        paid_in,
        withdrawn,
        balance,
        category: Category::Uncategorised,
        ..crate::statement::Transaction::empty()
    }
}

fn statement(rows: Vec<Transaction>, period: Option<(NaiveDate, NaiveDate)>) -> Statement {
    Statement {
        transactions: rows,
        period: period.map(|(start, end)| Period { start, end }),
        ..Statement::default()
    }
}

const SALARY: &str = "Salary Payment from 1 - EXAMPLE EMPLOYER LTD via API";
const SHOP: &str = "Merchant Payment to 1 - CORNER SHOP";
const KPLC: &str = "Pay Bill to 888880 - KPLC PREPAID Acc. 1";
const FULIZA: &str = "OverDraft of Credit Party";
const FULIZA_REPAY: &str = "OD Loan Repayment to 232323 - M-PESA Overdraw";
const BANK_IN: &str = "Business Payment from 1 - EXAMPLE BANK via API";
const SEND: &str = "Customer Transfer to 0712***678 - PAL ONE";
const RECEIVE: &str = "Funds received from 2547***678 - PAL ONE";
const AGENT_OUT: &str = "Customer Withdrawal At Agent Till 1 - SHOP AGENT";
const BET: &str = "Pay Bill to 1 - SPORTPESA Acc. 1";

/// Six calendar months (Jan–Jun 2024): salary on the 28th, power on the 5th, a shop on the
/// 10th, cash on the 12th; the balance follows.
fn half_year(first_day: NaiveDate, last_day: NaiveDate) -> Statement {
    let mut rows = Vec::new();
    let mut balance = dec!(1000);
    let mut d = first_day;
    while d <= last_day {
        let mut push = |details: &str, amount: Decimal| {
            balance += amount;
            let (i, o) = if amount > Decimal::ZERO {
                (amount, Decimal::ZERO)
            } else {
                (Decimal::ZERO, -amount)
            };
            rows.push(row(d, 9, details, i, o, Some(balance)));
        };
        match d.day() {
            28 => push(SALARY, dec!(30000)),
            5 => push(KPLC, dec!(-1000)),
            10 => push(SHOP, dec!(-20000)),
            12 => push(AGENT_OUT, dec!(-3000)),
            _ => push(SHOP, dec!(-10)),
        }
        d = d.succ_opt().unwrap_or(d);
    }
    statement(rows, Some((first_day, last_day)))
}

#[test]
fn rows_of_kes_50_or_more_are_activity() {
    // Two places (read in cents) and none (read as `Decimal`).
    for (amount, counted) in [(dec!(49.99), false), (dec!(50.00), true), (dec!(50), true)] {
        let s = statement(
            vec![row(date(2024, 1, 1), 9, SHOP, Decimal::ZERO, amount, None)],
            None,
        );
        assert_eq!(compute(&s).uncounted_rows, u32::from(!counted), "{amount}");
    }
}

#[test]
fn an_empty_statement_has_default_features() {
    assert_eq!(compute(&Statement::default()), Features::default());
    let mut s = half_year(date(2024, 1, 1), date(2024, 1, 31));
    for t in &mut s.transactions {
        t.status = TransactionStatus::Failed;
    }
    assert_eq!(compute(&s), Features::default());
}

#[test]
fn calendar_months_income_and_spending() {
    let f = compute(&half_year(date(2024, 1, 1), date(2024, 6, 30)));
    assert_eq!(f.statement_days, 182);
    assert_eq!((f.months_covered, f.full_months), (6, 6));
    assert_eq!(f.total_income, dec!(180000));
    assert_eq!(f.typical_monthly_income, dec!(30000));
    assert_eq!(f.income_floor, Some(dec!(30000)));
    assert_eq!(f.income_month_share, Some(dec!(1)));
    assert_eq!(f.salary_month_share, Some(dec!(1)));
    assert_eq!(f.income_cv, Some(dec!(0)));
    assert_eq!(f.bill_month_share, Some(dec!(1)));
    assert_eq!(f.bill_payment_count, 6);
    assert_eq!(f.monthly[1].start, date(2024, 2, 1));
    assert_eq!(f.monthly[1].end, date(2024, 2, 29));
    // January: 1,000 + 20,000 + 3,000 + 27 × 10.
    assert_eq!(f.monthly[0].spending, dec!(24270));
    assert_eq!(f.cash_out, dec!(18000));
    assert_eq!(f.betting_share, dec!(0));
    assert_eq!(f.on_time_repayment_share, None);
    assert_eq!(f.fuliza_reliance, Some(dec!(0)));
}

#[test]
fn the_day_a_statement_starts_does_not_change_monthly_figures() {
    let a = compute(&half_year(date(2024, 1, 1), date(2024, 6, 30)));
    let b = compute(&half_year(date(2024, 1, 15), date(2024, 7, 14)));
    assert_eq!(b.full_months, 5);
    assert_eq!(a.typical_monthly_income, b.typical_monthly_income);
    assert_eq!(a.income_floor, b.income_floor);
    assert_eq!(a.income_month_share, b.income_month_share);
    assert_eq!(a.bill_month_share, b.bill_month_share);
}

#[test]
fn a_windfall_never_lowers_the_floor_or_the_typical_income() {
    let base = half_year(date(2024, 1, 1), date(2024, 6, 30));
    let mut windfall = base.clone();
    windfall.transactions.push(row(
        date(2024, 3, 20),
        12,
        SALARY,
        dec!(500000),
        dec!(0),
        None,
    ));
    let (a, b) = (compute(&base), compute(&windfall));
    assert!(b.income_floor >= a.income_floor);
    assert!(b.typical_monthly_income >= a.typical_monthly_income);
    assert!(b.net_cash_flow_ratio >= a.net_cash_flow_ratio);
}

#[test]
fn round_trips_are_netted_out() {
    let base = half_year(date(2024, 1, 1), date(2024, 6, 30));
    let mut gamed = base.clone();
    let mut d = date(2024, 1, 1);
    while d <= date(2024, 6, 30) {
        gamed
            .transactions
            .push(row(d, 7, SEND, dec!(0), dec!(100), None));
        gamed
            .transactions
            .push(row(d, 8, RECEIVE, dec!(100), dec!(0), None));
        d = d.succ_opt().unwrap_or(d);
    }
    let (a, b) = (compute(&base), compute(&gamed));
    assert_eq!(b.total_income, a.total_income);
    assert_eq!(b.total_spending, a.total_spending);
    assert_eq!(b.transactions_per_month, a.transactions_per_month);
    assert_eq!(b.uncounted_rows - a.uncounted_rows, 2 * 182);
    assert_eq!(b.round_trip_amount, dec!(18200));
}

#[test]
fn bank_inflows_count_only_when_recurrent() {
    let base = half_year(date(2024, 1, 1), date(2024, 6, 30));
    let mut once = base.clone();
    once.transactions.push(row(
        date(2024, 2, 2),
        9,
        BANK_IN,
        dec!(50000),
        dec!(0),
        None,
    ));
    let f = compute(&once);
    assert!(!f.bank_funding_recurrent);
    assert_eq!(f.total_income, dec!(180000));
    let mut monthly = base;
    for m in 1..=6 {
        monthly
            .transactions
            .push(row(date(2024, m, 2), 9, BANK_IN, dec!(5000), dec!(0), None));
    }
    let f = compute(&monthly);
    assert!(f.bank_funding_recurrent);
    assert_eq!(f.total_income, dec!(210000));
}

#[test]
fn unpaid_fuliza_is_debt_not_balance() {
    let draw = |day: u32| {
        row(
            date(2024, 1, day),
            9,
            FULIZA,
            dec!(5000),
            dec!(0),
            Some(dec!(5000)),
        )
    };
    let repaid = statement(
        vec![
            draw(1),
            row(
                date(2024, 1, 2),
                9,
                FULIZA_REPAY,
                dec!(0),
                dec!(5050),
                Some(dec!(-50)),
            ),
            row(
                date(2024, 2, 29),
                9,
                SHOP,
                dec!(0),
                dec!(1),
                Some(dec!(-51)),
            ),
        ],
        None,
    );
    let unpaid = statement(
        vec![
            draw(1),
            row(
                date(2024, 2, 29),
                9,
                SHOP,
                dec!(0),
                dec!(1),
                Some(dec!(4999)),
            ),
        ],
        None,
    );
    let (a, b) = (compute(&repaid), compute(&unpaid));
    assert_eq!(a.on_time_repayment_share, Some(dec!(1)));
    assert_eq!(b.on_time_repayment_share, Some(dec!(0)));
    assert_eq!(b.credit.overdue, dec!(5050));
    // The unpaid wallet holds 4,999 but owes 5,050: its net balance is below zero.
    assert_eq!(b.minimum_daily_balance, Some(dec!(-51)));
    assert!(b.average_net_balance <= a.average_net_balance);
    // The 1 % access fee is spending either way.
    assert_eq!(a.total_spending, b.total_spending);
}

#[test]
fn bin_edges_are_exact_per_month_rates() {
    // 14 rows in 7 days is 14 a month (not extrapolated); 90 rows in 45 days is exactly 60.
    let rows = |n: u32, days: u32| {
        (0..n)
            .map(|i| {
                let d = date(2024, 1, 1) + Duration::days(i64::from(i * (days - 1) / (n - 1)));
                // Hours apart: rows within the hour at one shop are one payment in parts.
                row(d, 8 + 2 * (i % 7), SHOP, dec!(0), dec!(100), None)
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(
        compute(&statement(rows(14, 7), None)).transactions_per_month,
        dec!(14)
    );
    assert_eq!(
        compute(&statement(rows(90, 45), None)).transactions_per_month,
        dec!(60)
    );
    assert_eq!(
        compute(&statement(rows(58, 29), None)).transactions_per_month,
        dec!(58)
    );
}

#[test]
fn betting_replacing_cash_leaves_the_combined_share() {
    let base = half_year(date(2024, 1, 1), date(2024, 6, 30));
    let mut bets = base.clone();
    for t in &mut bets.transactions {
        if t.details == AGENT_OUT {
            t.details = BET.to_owned();
        }
    }
    let (a, b) = (compute(&base), compute(&bets));
    assert_eq!(a.cash_and_betting_share, b.cash_and_betting_share);
    assert!(b.betting_share > a.betting_share);
}

#[test]
fn median_and_floor_percentile() {
    assert_eq!(median(&[dec!(3), dec!(1), dec!(2)]), Some(dec!(2)));
    assert_eq!(median(&[dec!(4), dec!(1)]), Some(dec!(2.5)));
    assert_eq!(median(&[]), None);
    let v: Vec<Decimal> = (1..=12).map(Decimal::from).collect();
    assert_eq!(floor_percentile(&v), Some(dec!(3)));
    assert_eq!(floor_percentile(&v[..5]), Some(dec!(1)));
    assert_eq!(floor_percentile(&v[..6]), Some(dec!(2)));
    assert_eq!(sqrt(dec!(0.25)), dec!(0.5));
    assert_eq!(
        coefficient_of_variation(&[dec!(50), dec!(150)]).map(|v| v.round_dp(10)),
        Some(dec!(0.5))
    );
}

const DETAILS: &[&str] = &[
    SALARY,
    SEND,
    RECEIVE,
    SHOP,
    KPLC,
    FULIZA,
    FULIZA_REPAY,
    BANK_IN,
    AGENT_OUT,
    BET,
    "Business Payment from 1 - TALA KENYA via API",
    "Customer Transfer of Funds Charge",
    "",
    "Airtime Purchase",
];

prop_compose! {
    fn arb_row()(
        day in 0u32..400,
        hour in 0u32..24,
        details in 0..DETAILS.len(),
        cents in 1i64..10_000_000,
        inflow in any::<bool>(),
        balance in proptest::option::of(-100_000i64..100_000_000),
        status in 0u8..10,
    ) -> Transaction {
        let amount = Decimal::new(cents, 2);
        let mut t = row(
            date(2024, 1, 1) + Duration::days(i64::from(day)),
            hour,
            DETAILS[details],
            if inflow { amount } else { Decimal::ZERO },
            if inflow { Decimal::ZERO } else { amount },
            balance.map(|b| Decimal::new(b, 2)),
        );
        // Shared receipts and completion times happen on real statements.
        t.receipt_no = format!("R{}", day % 7);
        t.status = if status == 0 { TransactionStatus::Cancelled } else { TransactionStatus::Completed };
        t
    }
}

proptest! {
    #[test]
    fn shuffling_rows_does_not_change_features(
        (rows, shuffled) in proptest::collection::vec(arb_row(), 0..60)
            .prop_flat_map(|rows| (Just(rows.clone()), Just(rows).prop_shuffle()))
    ) {
        prop_assert_eq!(compute(&statement(rows, None)), compute(&statement(shuffled, None)));
    }

    #[test]
    fn features_stay_in_their_ranges(rows in proptest::collection::vec(arb_row(), 1..60)) {
        let f = compute(&statement(rows, None));
        let unit = Decimal::ZERO..=Decimal::ONE;
        for share in [f.income_month_share, f.bill_month_share, f.near_zero_share, f.fuliza_month_share, f.salary_share, f.salary_month_share, f.on_time_repayment_share, f.repayment_coverage].into_iter().flatten() {
            prop_assert!(unit.contains(&share), "{share}");
        }
        prop_assert!(unit.contains(&f.betting_share));
        prop_assert!(unit.contains(&f.cash_out_share));
        prop_assert!(unit.contains(&f.cash_and_betting_share));
        prop_assert!(f.income_cv.is_none_or(|v| v >= Decimal::ZERO));
        prop_assert!(f.months_with_income <= f.months_covered);
        prop_assert!(f.full_months <= f.months_covered);
        prop_assert!(f.income_floor.is_none_or(|v| v <= f.typical_monthly_income || f.full_months == 0));
        prop_assert!(f.affordable_instalment >= Decimal::ZERO);
        prop_assert_eq!(f.monthly.len() as u32, f.months_covered);
        prop_assert_eq!(f.monthly.iter().map(|m| m.transactions).sum::<u32>(), f.transaction_count);
        prop_assert_eq!(f.monthly.iter().map(|m| m.income).sum::<Decimal>(), f.total_income);
    }
}
