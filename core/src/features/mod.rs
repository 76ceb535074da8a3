//! Derived figures of a statement: the inputs of the [scorecard](crate::scorecard) and of the
//! [insights](crate::insights).
//!
//! Rules (documented once here, referred to by the scorecard and `docs/scorecard.md`):
//!
//! - **Only `Completed` rows count.** Cancelled and failed rows moved no money.
//! - **Each row once.** A row printed twice (alike in every field, see
//!   [`crate::check::duplicates`]) is read once; the integrity check names the copies.
//! - **Order-invariant.** Rows are read in reading order ([`Statement::reading`](crate::statement::Statement::reading): by completion
//!   time, then receipt, Details and amounts); every figure is a sum, an order statistic or a first-in first-out
//!   match in that order, so the order the source lists rows in does not matter.
//! - **Exact money.** Every amount is a [`Decimal`] in the statement's currency, major units;
//!   ratios are `Decimal` too. The money edges (a month with income, a row that is activity, a
//!   day near zero, a material bill) are the scorecard's [`Thresholds`], in its currency. Sums saturate instead of overflowing, so no input can panic.
//! - **Calendar months** (Africa/Nairobi dates as printed). The statement *covers* the days from
//!   its first to its last transaction, widened to the header period when the statement has one
//!   (a period more than 31 days beyond the rows is ignored). A month is **full** when the
//!   statement covers every one of its days. Regularity and level figures use the full months
//!   only, so the day a statement was requested does not decide how many salaries a month
//!   holds; they are `None` below [`MIN_FULL_MONTHS`] full months (the thin-file rule).
//! - **Round trips** (see [`netting`]) are netted out of income and spending.
//! - **Mirrors** (see [`netting`]): rows undone within minutes (the same amount back, an
//!   overdraft drawn and repaid at once, a reversal and its row) are not activity.
//! - **Earned income** = money in, excluding own-account (bank) transfers, reversals, Fuliza
//!   draws, loan disbursements, savings withdrawals and betting winnings.
//! - **Bank funding** = per month, money in from banks minus money out to banks, when positive.
//!   It counts as income only when it is **recurrent**: positive in at least
//!   [`MIN_BANK_FUNDING_MONTHS`] months and in at least half of the months covered. A salary
//!   paid into a bank and topped up to the wallet each month is income; one bank loan is not.
//! - **Income** = earned income + recurrent bank funding.
//! - **Spending** = money out, excluding own-account transfers, savings deposits, loan and Fuliza
//!   repayments and reversals, **plus the estimated fees of credit drawn** (see [`credit`]).
//! - **Spending mix**: the shares of spending (betting, cash) are taken of spending without the
//!   rows below [`Thresholds::min_activity_amount`] other than betting stakes and cash
//!   withdrawals, so KES 10 tokens cannot dilute them (a share is still at most 1, and a small stake still counts).
//! - **Credit** (see [`credit`]): draws and repayments matched first in, first out per product.
//! - **Net balance** = the printed end-of-day balance minus what is owed to Fuliza and lenders
//!   that day: an unpaid overdraft is debt, not a buffer.
//! - **Bills** (see [`bills`]): material payments to a recurring biller.
//! - **Days of use** (issue 49): days with a row of money out that is activity
//!   ([`Features::use_days`]); account history reads months and days of use and the longest
//!   idle run, not row counts, so one income split into many credits adds nothing.
//! - **Income recency** (see [`recency`]): income days, the holder's pay cycle and the pay
//!   cycles since the last income day, the partial month of the request included; and the
//!   share of months with income with the latest [`RECENT_FULL_MONTHS`] counting twice, so a
//!   recent loss weighs more than an old one.
//! - **Rows a critical finding names** (impossible row rates, copies, rows before the wallet
//!   existed or after the request date) are left out before the features are computed
//!   (`assemble`, issue 51), so a `failed` statement never scores above itself without them.

use rust_decimal::Decimal;

use crate::amount::{Amount, Arithmetic, Cents};
use crate::categorise::Category;
use crate::statement::{Reading, Transaction};

pub mod balance;
pub mod bills;
pub mod catalogue;
pub mod credit;
pub mod netting;
pub mod recency;
pub mod thresholds;

mod figures;
mod months;
mod stats;
mod sums;

pub use crate::statement::sort_key;
pub use figures::{Features, MonthFigures};
pub(crate) use stats::ratio;
pub use thresholds::Thresholds;

use balance::balance_figures;
use months::{coverage, empty_months, month_index};
use stats::{
    coefficient_of_variation, count, floor_percentile, median, net_cash_flow_ratio, of_income,
    per_month, recent_weighted_share_of, share_of, sum,
};
use sums::{RowSums, category_of, row_sums};

/// Days in one statement month for per-month rates (`x × 30 / days`).
pub const WINDOW_DAYS: i64 = 30;

/// Full calendar months needed before regularity can be measured (the thin-file rule).
pub const MIN_FULL_MONTHS: u32 = 2;

/// The latest full months that count twice in [`Features::recent_income_month_share`]: a
/// quarter.
pub const RECENT_FULL_MONTHS: usize = 3;

/// Days of use a month needs to count as a month in use ([`Features::use_month_share`]): about
/// one a week, the rhythm of a household that shops and pays weekly.
pub const USE_DAYS_PER_MONTH: u32 = 4;

/// Months with positive net bank funding needed before it counts as income.
pub const MIN_BANK_FUNDING_MONTHS: u32 = 2;

/// Categories whose every row is part of the spending mix, however small: a KES 20 stake is
/// betting, a KES 20 withdrawal is cash (see [`Features::betting_share`]).
const MIX_ALWAYS: [Category; 2] = [Category::Betting, Category::AgentWithdrawal];

/// The most balance-buffer days reported (a wallet that spends nothing would be infinite).
pub const MAX_BUFFER_DAYS: Decimal = Decimal::from_parts(365, 0, 0, false, 0);

/// Debt-service-to-income cap of the affordable instalment: one third of typical monthly
/// income (see [`crate::insights`] for the rule and its source).
pub const DSR_CAP_DIVISOR: u32 = 3;

/// Share of the net monthly surplus offered as an instalment: one half (see
/// [`crate::insights`]).
pub const SURPLUS_SHARE: Decimal = Decimal::from_parts(5, 0, 0, false, 1);

/// The rows the features count, of `rows` in reading order: the completed ones, each once (exact
/// copies, which `check::duplicates` names, are one row printed twice, adjacent in reading
/// order).
pub(super) fn counted<'a>(rows: &[&'a Transaction]) -> Vec<&'a Transaction> {
    let mut counted: Vec<&Transaction> =
        rows.iter().copied().filter(|t| t.is_completed()).collect();
    counted.dedup_by(|copy, kept| kept.same_printed_row(copy));
    counted
}

/// Computes the features of a statement from its completed rows (see the module rules), read
/// in reading order (`reading`, [`Statement::reading`](crate::statement::Statement::reading)), with the money edges `thresholds` (a
/// scorecard's, in the statement's currency: the caller checks that the currencies agree, as
/// [`crate::score_with`] does). A statement without completed rows gives
/// [`Features::default`].
#[allow(clippy::too_many_lines)] // one assignment per figure, in the struct's order
pub fn compute(reading: &Reading<'_>, thresholds: &Thresholds) -> Features {
    let statement = reading.statement;
    let rows = counted(&reading.rows);
    let (Some(first_row), Some(last_row)) = (rows.first(), rows.last()) else {
        return Features::default();
    };
    let first = first_row.completed_at.date();
    let last = last_row.completed_at.date();
    let (cover_start, cover_end) = coverage(statement, first, last);
    let days = (cover_end - cover_start).num_days() + 1;
    let categories: Vec<Category> = rows.iter().map(|t| category_of(t)).collect();
    let credit_rows = netting::without_instant_credit(&rows, &categories);
    let credit = credit::ledgers(&rows, &credit_rows, last);
    let cents = Arithmetic::of(rows.iter().copied()) == Arithmetic::Cents;

    let mut months = empty_months(cover_start, cover_end);
    let RowSums {
        mut sums,
        round_trip_amount,
        bill_rows,
        usage,
        arrivals,
    } = if cents {
        row_sums::<Cents>(
            &rows,
            &categories,
            cover_start,
            &mut months,
            thresholds.min_activity_amount,
        )
    } else {
        row_sums::<Decimal>(
            &rows,
            &categories,
            cover_start,
            &mut months,
            thresholds.min_activity_amount,
        )
    };
    for (day, fee) in &credit.fees_by_day {
        if let Some(month) = months.get_mut(month_index(*day, cover_start)) {
            month.spending = month.spending.saturating_add(*fee);
        }
    }
    sums.spending = sums.spending.saturating_add(credit.fees);

    // Bank funding counts only when recurrent.
    let funding: Vec<Decimal> = months
        .iter()
        .map(|m| m.bank_in.saturating_sub(m.bank_out).max(Decimal::ZERO))
        .collect();
    let funded_months = count(funding.iter().filter(|f| **f > Decimal::ZERO).count());
    let recurrent = funded_months >= MIN_BANK_FUNDING_MONTHS
        && u64::from(funded_months) * 2 >= months.len() as u64;
    let bank_funding = if recurrent {
        sum(funding.iter().copied())
    } else {
        Decimal::ZERO
    };
    for (m, f) in months.iter_mut().zip(&funding) {
        m.income = m
            .earned_income
            .saturating_add(if recurrent { *f } else { Decimal::ZERO });
    }
    let earned_income = sums.income;
    let income = earned_income.saturating_add(bank_funding);

    let full: Vec<&MonthFigures> = months.iter().filter(|m| m.full).collect();
    let full_incomes: Vec<Decimal> = full.iter().map(|m| m.income).collect();
    let average_monthly_income = per_month(income, days);
    let typical = median(&full_incomes).unwrap_or(average_monthly_income);
    let regular = count(full.len()) >= MIN_FULL_MONTHS;
    let material = |v: Decimal| v >= thresholds.material_monthly_income;
    let income_recency = recency::recency(
        &arrivals,
        recurrent,
        thresholds.material_monthly_income,
        cover_end,
    );

    let (full_in, full_out) = full
        .iter()
        .fold((Decimal::ZERO, Decimal::ZERO), |(i, o), m| {
            (i.saturating_add(m.income), o.saturating_add(m.spending))
        });
    let (cash_flow_ratio, monthly_net) = if full.is_empty() {
        (
            (days >= WINDOW_DAYS)
                .then(|| net_cash_flow_ratio(income, sums.spending))
                .flatten(),
            per_month(income.saturating_sub(sums.spending), days),
        )
    } else {
        (
            net_cash_flow_ratio(full_in, full_out),
            ratio(full_in.saturating_sub(full_out), Decimal::from(full.len())).unwrap_or_default(),
        )
    };
    let loans_drawn = per_month(sums.mobile_in.saturating_add(sums.digital_in), days);
    let affordable = (typical / Decimal::from(DSR_CAP_DIVISOR))
        .saturating_sub(loans_drawn)
        .min(monthly_net.saturating_mul(SURPLUS_SHARE))
        .max(Decimal::ZERO);

    let (bill_months, bill_count) = bills::bill_months(
        &bill_rows,
        bills::threshold(typical.max(average_monthly_income), thresholds),
    );
    let balances = if cents {
        balance_figures::<Cents>(
            &rows,
            &reading.accounts,
            first,
            last,
            sums.spending,
            &credit,
            thresholds.near_zero_balance,
        )
    } else {
        balance_figures::<Decimal>(
            &rows,
            &reading.accounts,
            first,
            last,
            sums.spending,
            &credit,
            thresholds.near_zero_balance,
        )
    };
    let fuliza_months = count(
        months
            .iter()
            .filter(|m| m.fuliza_drawn > Decimal::ZERO)
            .count(),
    );
    let fuliza_month_share = if full.is_empty() {
        ratio(Decimal::from(fuliza_months), Decimal::from(months.len()))
    } else {
        share_of(&full, 1, |m| m.fuliza_drawn > Decimal::ZERO)
    };
    let bill_month_share = if regular {
        let hits = months
            .iter()
            .enumerate()
            .filter(|(i, m)| m.full && bill_months.contains(i))
            .count();
        ratio(Decimal::from(hits), Decimal::from(full.len()))
    } else {
        None
    };
    let mix = sums.spending.saturating_sub(sums.token_spending);
    let of_mix = |v: Decimal| ratio(v, mix).unwrap_or(Decimal::ZERO);
    let debt = credit.borrowed.saturating_add(credit.fees);
    let credit_share = |v: Decimal| {
        (!credit.borrowed.is_zero())
            .then(|| ratio(v, debt))
            .flatten()
    };

    Features {
        first_date: Some(first),
        last_date: Some(last),
        statement_days: u32::try_from(days).unwrap_or(u32::MAX),
        transaction_count: count(rows.len()),
        uncounted_rows: count(rows.len()).saturating_sub(sums.counted_rows),
        round_trip_amount,
        months_covered: count(months.len()),
        full_months: count(full.len()),
        transactions_per_month: per_month(Decimal::from(sums.counted_rows), days),
        use_days: usage.days,
        use_month_share: share_of(&full, MIN_FULL_MONTHS, |m| m.use_days >= USE_DAYS_PER_MONTH),
        longest_idle_days: u32::try_from(usage.longest_idle(cover_start, cover_end))
            .unwrap_or(u32::MAX),
        total_income: income,
        earned_income,
        net_bank_funding: bank_funding,
        bank_funding_recurrent: recurrent,
        average_monthly_income,
        typical_monthly_income: typical,
        income_floor: if regular {
            floor_percentile(&full_incomes)
        } else {
            None
        },
        months_with_income: count(months.iter().filter(|m| material(m.income)).count()),
        income_month_share: if regular {
            share_of(&full, MIN_FULL_MONTHS, |m| material(m.income))
        } else {
            None
        },
        recent_income_month_share: recent_weighted_share_of(
            &full,
            MIN_FULL_MONTHS,
            RECENT_FULL_MONTHS,
            |m| material(m.income),
        ),
        income_cv: if regular {
            coefficient_of_variation(&full_incomes)
        } else {
            None
        },
        salary_income: sums.salary,
        salary_share: ratio(sums.salary.saturating_add(bank_funding), income),
        salary_month_share: share_of(&full, MIN_FULL_MONTHS, |m| {
            let bank = if recurrent {
                m.bank_in.saturating_sub(m.bank_out).max(Decimal::ZERO)
            } else {
                Decimal::ZERO
            };
            material(m.salary_income.saturating_add(bank))
        }),
        received_income: sums.received,
        pay_cycle_days: income_recency.cycle,
        last_income_event: income_recency.last_event,
        cycles_since_income: income_recency.cycles_since,
        total_spending: sums.spending,
        average_monthly_net_cash_flow: monthly_net,
        net_cash_flow_ratio: cash_flow_ratio,
        affordable_instalment: affordable,
        average_daily_balance: balances.average,
        average_net_balance: balances.average_net,
        minimum_daily_balance: balances.minimum_net,
        days_near_zero: balances.days_near_zero,
        near_zero_share: balances.near_zero_share,
        balance_buffer_days: balances.buffer_days,
        fuliza_draw_count: sums.fuliza_draws,
        fuliza_drawn: sums.fuliza_drawn,
        fuliza_repayment_count: sums.fuliza_repayments,
        fuliza_repaid: sums.fuliza_repaid,
        fuliza_months,
        fuliza_month_share,
        fuliza_reliance: of_income(sums.fuliza_drawn, income),
        mobile_loan_count: sums.mobile_in_count,
        mobile_loans_received: sums.mobile_in,
        mobile_repayment_count: sums.mobile_out_count,
        mobile_loans_repaid: sums.mobile_out,
        digital_loan_count: sums.digital_in_count,
        digital_loans_received: sums.digital_in,
        digital_repayment_count: sums.digital_out_count,
        digital_loans_repaid: sums.digital_out,
        on_time_repayment_share: credit.on_time_share(),
        repayment_coverage: credit_share(credit.repaid_against_debt),
        credit,
        loan_intensity: of_income(sums.mobile_in.saturating_add(sums.digital_in), income),
        average_monthly_loans_drawn: loans_drawn,
        average_monthly_loan_repayments: per_month(
            sums.mobile_out.saturating_add(sums.digital_out),
            days,
        ),
        bill_payment_count: bill_count,
        bill_payment_months: count(bill_months.len()),
        bill_month_share,
        betting_spent: sums.betting,
        betting_share: of_mix(sums.betting),
        cash_out: sums.cash_out,
        cash_out_share: of_mix(sums.cash_out),
        cash_and_betting_share: of_mix(sums.cash_out.saturating_add(sums.betting)),
        savings_deposited: sums.savings_in,
        savings_withdrawn: sums.savings_out,
        own_account_in: sums.own_in,
        own_account_out: sums.own_out,
        monthly: months,
    }
}

#[cfg(test)]
mod history_tests;
#[cfg(test)]
mod tests;
