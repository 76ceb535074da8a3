//! Days of use, months in use, the longest idle run and income recency, on small statements
//! (issues 49 and 51).

use chrono::{Datelike, Duration, NaiveDate};
use rust_decimal_macros::dec;

use super::*;
use crate::statement::{Period, Statement, TransactionStatus};

fn date(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

fn row(
    day: NaiveDate,
    second: u32,
    details: &str,
    paid_in: Decimal,
    withdrawn: Decimal,
) -> Transaction {
    Transaction {
        receipt_no: format!("R{day}{second:02}"),
        completed_at: day.and_hms_opt(9, 0, second).unwrap_or_default(),
        details: details.to_owned(),
        status: TransactionStatus::Completed,
        paid_in,
        withdrawn,
        balance: None,
        category: Category::Uncategorised,
        ..Transaction::empty()
    }
}

const SALARY: &str = "Salary Payment from 1 - EXAMPLE EMPLOYER LTD via API";
const SHOP: &str = "Merchant Payment to 1 - CORNER SHOP";
const BET: &str = "Pay Bill to 1 - SPORTPESA Acc. 1";

/// Salary of KES 40,000 on the 1st and shopping on `shop_days` of every month, January to
/// `end`.
fn holder(shop_days: &[u32], end: NaiveDate) -> Statement {
    let mut rows = Vec::new();
    let mut d = date(2024, 1, 1);
    while d <= end {
        if d.day() == 1 {
            rows.push(row(d, 0, SALARY, dec!(40000), Decimal::ZERO));
        }
        if shop_days.contains(&d.day()) {
            rows.push(row(d, 1, SHOP, Decimal::ZERO, dec!(2000)));
        }
        d += Duration::days(1);
    }
    Statement {
        transactions: rows,
        period: Some(Period {
            start: date(2024, 1, 1),
            end,
        }),
        ..Statement::default()
    }
}

/// The features of `s`, prepared as a report prepares it (categories, counterparties).
fn features(s: &Statement) -> Features {
    let mut s = s.clone();
    crate::parse::prepare(&mut s);
    compute(&s.reading(), &Thresholds::KES)
}

#[test]
fn days_of_use_are_days_with_money_out_and_idle_runs_include_the_edges() {
    let f = features(&holder(&[5, 12, 19, 26], date(2024, 6, 30)));
    assert_eq!(f.use_days, 24);
    assert_eq!(f.use_month_share, Some(Decimal::ONE));
    // The longest run is from a 26th to the next month's 5th (9 days in a month of 31); the
    // days before the first use (1 to 4 January) and after the last (27 to 30 June) count too.
    assert_eq!(f.longest_idle_days, 9);
    assert_eq!(f.monthly.iter().map(|m| m.use_days).sum::<u32>(), 24);
    // Twice a month is not a month in use; the runs between are 13 and 19 days.
    let sparse = features(&holder(&[5, 19], date(2024, 6, 30)));
    assert_eq!(sparse.use_month_share, Some(Decimal::ZERO));
    assert_eq!(sparse.longest_idle_days, 16);
    // Money in only: no day of use, every covered day idle.
    let none = features(&holder(&[], date(2024, 6, 30)));
    assert_eq!((none.use_days, none.longest_idle_days), (0, 182));
}

#[test]
fn one_income_split_into_many_credits_changes_no_use_or_recency_figure() {
    let base = holder(&[5, 12, 19, 26], date(2024, 6, 30));
    let mut split = base.clone();
    split
        .transactions
        .retain(|t| !t.details.starts_with("Salary"));
    let mut d = date(2024, 1, 1);
    while d <= date(2024, 6, 30) {
        if d.day() == 1 {
            for k in 0..20 {
                split
                    .transactions
                    .push(row(d, 10 + k, SALARY, dec!(2000), Decimal::ZERO));
            }
        }
        d += Duration::days(1);
    }
    let (a, b) = (features(&base), features(&split));
    assert_eq!(
        (a.use_days, a.use_month_share, a.longest_idle_days),
        (b.use_days, b.use_month_share, b.longest_idle_days)
    );
    assert_eq!(a.cycles_since_income, b.cycles_since_income);
    assert_eq!(a.pay_cycle_days, b.pay_cycle_days);
    // Nor the activity: the 20 credits within the hour are one payment in parts (issue 49).
    assert_eq!(a.transactions_per_month, b.transactions_per_month);
}

#[test]
fn betting_and_tokens_are_not_use() {
    let mut s = holder(&[], date(2024, 2, 29));
    s.transactions
        .push(row(date(2024, 1, 9), 5, BET, Decimal::ZERO, dec!(500)));
    s.transactions
        .push(row(date(2024, 1, 10), 5, SHOP, Decimal::ZERO, dec!(49)));
    assert_eq!(features(&s).use_days, 0);
}

#[test]
fn recency_reads_the_partial_month_of_the_request() {
    // Requested on 20 June: the 1 June salary came, or it did not.
    let paid = features(&holder(&[5, 12], date(2024, 6, 20)));
    assert_eq!(paid.last_income_event, Some(date(2024, 6, 1)));
    let cycles = paid.cycles_since_income.expect("measured");
    assert!(cycles < dec!(1), "{cycles}");
    let mut missing = holder(&[5, 12], date(2024, 6, 20));
    missing.transactions.retain(|t| {
        !(t.details.starts_with("Salary") && t.completed_at.date() == date(2024, 6, 1))
    });
    let late = features(&missing);
    assert_eq!(late.last_income_event, Some(date(2024, 5, 1)));
    let cycles = late.cycles_since_income.expect("measured");
    assert!(cycles > dec!(1.5) && cycles < dec!(2.5), "{cycles}");
    // The full months see nothing of either.
    assert_eq!(paid.income_month_share, late.income_month_share);
}

#[test]
fn the_latest_three_full_months_count_twice() {
    let year = holder(&[5, 12], date(2024, 12, 31));
    let without = |months: &[u32]| {
        let mut s = year.clone();
        s.transactions.retain(|t| {
            !(t.details.starts_with("Salary") && months.contains(&t.completed_at.month()))
        });
        features(&s)
    };
    let (recent, old) = (without(&[11, 12]), without(&[1, 2]));
    assert_eq!(recent.income_month_share, old.income_month_share);
    // Twelve full months weigh 15: losing two of the latest three costs 4, two of the first 2.
    assert_eq!(
        recent.recent_income_month_share,
        Some(Decimal::from(11) / Decimal::from(15))
    );
    assert_eq!(
        old.recent_income_month_share,
        Some(Decimal::from(13) / Decimal::from(15))
    );
    assert_eq!(
        features(&year).recent_income_month_share,
        Some(Decimal::ONE)
    );
}
