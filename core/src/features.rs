//! Derived figures of a statement: the inputs of the [scorecard](crate::scorecard) and of the
//! [insights](crate::insights).
//!
//! Rules (documented once here, referred to by the scorecard):
//!
//! - **Only `Completed` rows count.** Cancelled and failed rows moved no money.
//! - **Order-invariant.** Rows are read from a copy sorted by completion time, then receipt,
//!   Details and amounts, and everything else is a sum, so the source order does not matter.
//! - **Exact money.** Every amount is a [`Decimal`] in KES major units; ratios are `Decimal` too
//!   (division to 28 significant digits). Sums saturate instead of overflowing, so no input can
//!   panic.
//! - **Months are 30-day windows counted back from the last transaction day** (window 0 = the
//!   30 days ending on the last day, window 1 = the 30 days before, …). M-Pesa statements start
//!   and end mid-month, so calendar months would make the first and last month look like
//!   income drops. Only the oldest window can be shorter than 30 days; regularity measures
//!   (income variation, months with income, months with bills) use the *full* windows only and
//!   are `None` with fewer than two of them (the thin-file rule: [`MIN_FULL_MONTHS`]).
//! - **Earned income** = money in, excluding own-account (bank) transfers, reversals, Fuliza
//!   draws, loan disbursements (M-Shwari, KCB M-PESA, Hustler Fund, digital lenders), savings
//!   withdrawals and betting winnings. Borrowed money and one's own savings coming back are not
//!   earnings; winnings are not a dependable income.
//! - **Net bank funding** = per window, money in from banks minus money out to banks, when
//!   positive. The statement cannot see the bank account: for a holder paid into a bank who
//!   tops the wallet up from it, this is the only trace of their salary (two of the four real
//!   samples spend 2–3 times their earned income this way). Netting within each window means
//!   moving money to the bank and back does not inflate it.
//! - **Income** = earned income + net bank funding. Every ratio "÷ income" uses it.
//! - **Spending** = money out, excluding own-account transfers, savings deposits, Fuliza and loan
//!   repayments, and reversals. Spending paid with borrowed money is counted once, when it is
//!   spent; repaying the loan is not counted again. Charges are spending.
//! - **Net cash flow** = income − spending. Over a period in which borrowing and repayment
//!   balance, this is what the wallet keeps (or sends to savings and the bank) after living costs
//!   and debt service.
//! - **End-of-day balance**: the closing balance of the last completion time of each day, carried
//!   over days without rows. Rows that share a completion time are not reliably printed in
//!   order, so a group's closing balance is the printed balance that equals some row's opening
//!   balance (its balance minus its own movement) plus the whole group's movement; if none does,
//!   the group's lowest printed balance (the cautious choice).

use std::collections::BTreeMap;

use chrono::{Duration, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::categorise::{Category, categorise};
use crate::statement::{Statement, Transaction};

/// Days in one statement month (window).
pub const WINDOW_DAYS: i64 = 30;

/// Full 30-day windows needed before regularity can be measured (the thin-file rule).
pub const MIN_FULL_MONTHS: u32 = 2;

/// An end-of-day balance below this is "near zero", KES (the price of a small Send Money plus
/// its charge: a wallet that cannot make one payment without Fuliza).
pub const NEAR_ZERO_BALANCE: Decimal = Decimal::from_parts(100, 0, 0, false, 0);

/// The most balance-buffer days reported (a wallet that spends nothing would be infinite).
pub const MAX_BUFFER_DAYS: Decimal = Decimal::from_parts(365, 0, 0, false, 0);

/// Figures of one 30-day statement month (window), oldest first in [`Features::monthly`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthFigures {
    /// First day of the window (clipped to the first transaction day for the oldest window).
    pub start: NaiveDate,
    /// Last day of the window.
    pub end: NaiveDate,
    /// Days in the window, 1–30 (30 = a full window).
    pub days: u32,
    /// Completed rows in the window.
    pub transactions: u32,
    /// Income (see the module rules): earned income + net bank funding, KES.
    pub income: Decimal,
    /// Earned income (see the module rules), KES.
    pub earned_income: Decimal,
    /// Money in from banks (own-account transfers), KES.
    pub bank_in: Decimal,
    /// Money out to banks (own-account transfers), KES.
    pub bank_out: Decimal,
    /// Spending (see the module rules), KES.
    pub spending: Decimal,
    /// Fuliza drawn, KES.
    pub fuliza_drawn: Decimal,
    /// Utility and bill payments (count).
    pub bill_payments: u32,
}

impl MonthFigures {
    /// `income - spending`, KES.
    pub fn net_cash_flow(&self) -> Decimal {
        self.income.saturating_sub(self.spending)
    }

    /// Whether the window has all 30 days.
    pub fn is_full(&self) -> bool {
        i64::from(self.days) == WINDOW_DAYS
    }
}

/// Figures derived from a statement's completed transactions. Money is KES, major units;
/// ratios are plain fractions (0.25 = 25 %). `None` means "cannot be measured on this statement"
/// and each such field says when.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Features {
    // --- history ---
    /// Date of the first completed row.
    pub first_date: Option<NaiveDate>,
    /// Date of the last completed row.
    pub last_date: Option<NaiveDate>,
    /// Days from the first to the last completed row, inclusive (0 without rows).
    pub statement_days: u32,
    /// Number of completed rows.
    pub transaction_count: u32,
    /// Number of 30-day windows covered (`ceil(statement_days / 30)`).
    pub months_covered: u32,
    /// Number of full 30-day windows.
    pub full_months: u32,
    /// Per-window figures, oldest first.
    pub monthly: Vec<MonthFigures>,
    /// Completed rows per 30 days (`transaction_count / max(1, statement_days / 30)`).
    pub transactions_per_month: Decimal,

    // --- income ---
    /// Total income (see the module rules): `earned_income + net_bank_funding`, KES.
    pub total_income: Decimal,
    /// Earned income (see the module rules), KES.
    pub earned_income: Decimal,
    /// Net bank funding (see the module rules), KES.
    pub net_bank_funding: Decimal,
    /// Income per 30 days: `total_income / max(1, statement_days / 30)`, KES/month. A statement
    /// shorter than a month is not extrapolated.
    pub average_monthly_income: Decimal,
    /// Windows (any length) with income.
    pub months_with_income: u32,
    /// Share of full windows with income; `None` with fewer than [`MIN_FULL_MONTHS`] of them.
    pub income_month_share: Option<Decimal>,
    /// Coefficient of variation (population standard deviation ÷ mean) of income over the full
    /// windows; `None` with fewer than [`MIN_FULL_MONTHS`] full windows or no income in them.
    pub income_cv: Option<Decimal>,
    /// Income from salary and B2C business payments, KES.
    pub salary_income: Decimal,
    /// Share of income paid by institutions: `(salary_income + net_bank_funding) /
    /// total_income` (salary, business and bank B2C payments); `None` without income.
    pub salary_share: Option<Decimal>,
    /// Income received from people (Send Money, Pochi, other wallets, abroad) and cash deposited
    /// at agents, KES.
    pub received_income: Decimal,

    // --- cash flow ---
    /// Total spending (see the module rules), KES.
    pub total_spending: Decimal,
    /// `(total_income - total_spending) / max(1, statement_days / 30)`, KES/month.
    pub average_monthly_net_cash_flow: Decimal,
    /// `(total_income - total_spending) / total_income`; `-1` for spending without any income,
    /// `0` for neither; `None` when the statement is shorter than one 30-day window (a cash flow
    /// needs a whole month).
    pub net_cash_flow_ratio: Option<Decimal>,

    // --- balance ---
    /// Average end-of-day balance over the statement days, KES; `None` without printed balances.
    pub average_daily_balance: Option<Decimal>,
    /// Lowest end-of-day balance, KES; `None` without printed balances.
    pub minimum_daily_balance: Option<Decimal>,
    /// Days whose end-of-day balance is below [`NEAR_ZERO_BALANCE`].
    pub days_near_zero: u32,
    /// `days_near_zero / statement_days`; `None` without printed balances.
    pub near_zero_share: Option<Decimal>,
    /// Average balance ÷ average daily spending: how many days of the usual spending the usual
    /// balance would pay for, capped at [`MAX_BUFFER_DAYS`]; `None` without printed balances.
    pub balance_buffer_days: Option<Decimal>,

    // --- Fuliza ---
    /// Fuliza draws (count).
    pub fuliza_draw_count: u32,
    /// Fuliza drawn, KES.
    pub fuliza_drawn: Decimal,
    /// Fuliza repayments (count).
    pub fuliza_repayment_count: u32,
    /// Fuliza repaid, KES.
    pub fuliza_repaid: Decimal,
    /// Windows with at least one Fuliza draw.
    pub fuliza_months: u32,
    /// `fuliza_months / months_covered`; `None` without rows.
    pub fuliza_month_share: Option<Decimal>,
    /// `fuliza_drawn / total_income`; `Some(0)` without draws; `None` with draws but no income.
    pub fuliza_reliance: Option<Decimal>,

    // --- loans ---
    /// M-Shwari, KCB M-PESA and Hustler Fund loans received (count).
    pub mobile_loan_count: u32,
    /// M-Shwari, KCB M-PESA and Hustler Fund loans received, KES.
    pub mobile_loans_received: Decimal,
    /// Repayments of those loans (count).
    pub mobile_repayment_count: u32,
    /// Repayments of those loans, KES.
    pub mobile_loans_repaid: Decimal,
    /// Loans from other digital lenders received (count).
    pub digital_loan_count: u32,
    /// Loans from other digital lenders received, KES.
    pub digital_loans_received: Decimal,
    /// Repayments to other digital lenders (count).
    pub digital_repayment_count: u32,
    /// Repayments to other digital lenders, KES.
    pub digital_loans_repaid: Decimal,
    /// All credit repaid (Fuliza + mobile + digital) ÷ all credit received; `None` when nothing
    /// was borrowed or repaid, `Some(1)` when debts were repaid but nothing new was borrowed.
    pub repayment_coverage: Option<Decimal>,
    /// Mobile and digital loans received ÷ income (Fuliza excluded: see `fuliza_reliance`);
    /// `Some(0)` without loans; `None` with loans but no income.
    pub loan_intensity: Option<Decimal>,
    /// Mobile and digital loan repayments per 30 days, KES/month (existing debt service).
    pub average_monthly_loan_repayments: Decimal,

    // --- bills ---
    /// Utility and bill payments (count).
    pub bill_payment_count: u32,
    /// Windows (any length) with at least one bill payment.
    pub bill_payment_months: u32,
    /// Share of full windows with a bill payment; `None` with fewer than [`MIN_FULL_MONTHS`]
    /// full windows.
    pub bill_month_share: Option<Decimal>,

    // --- spending behaviour ---
    /// Money out to betting firms, KES.
    pub betting_spent: Decimal,
    /// `betting_spent / total_spending` (0 without spending).
    pub betting_share: Decimal,
    /// Cash withdrawn at agents and ATMs, KES.
    pub cash_out: Decimal,
    /// `cash_out / total_spending` (0 without spending).
    pub cash_out_share: Decimal,

    // --- movements excluded from income and spending ---
    /// Money moved into savings (M-Shwari, KCB M-PESA, Hustler Fund, SACCO), KES.
    pub savings_deposited: Decimal,
    /// Money moved back from savings, KES.
    pub savings_withdrawn: Decimal,
    /// Money in from banks (own-account transfers), KES.
    pub own_account_in: Decimal,
    /// Money out to banks (own-account transfers), KES.
    pub own_account_out: Decimal,
}

/// Categories whose money in is not income.
const NOT_INCOME: &[Category] = &[
    Category::OwnAccountTransfer,
    Category::Reversal,
    Category::FulizaDraw,
    Category::MobileLoanDisbursement,
    Category::DigitalLoanDisbursement,
    Category::SavingsWithdrawal,
    Category::Betting,
];

/// Categories whose money out is not spending.
const NOT_SPENDING: &[Category] = &[
    Category::OwnAccountTransfer,
    Category::SavingsDeposit,
    Category::FulizaRepayment,
    Category::MobileLoanRepayment,
    Category::DigitalLoanRepayment,
    Category::Reversal,
];

/// Categories of money received from people and other wallets.
const RECEIVED: &[Category] = &[
    Category::ReceivedMoney,
    Category::SendMoney,
    Category::PochiLaBiashara,
    Category::AgentDeposit,
];

/// The category of a row, categorising it on the fly when the input left it uncategorised.
fn category_of(t: &Transaction) -> Category {
    if t.category == Category::Uncategorised {
        categorise(&t.details, t.paid_in > t.withdrawn)
    } else {
        t.category
    }
}

/// `a / b`, or `None` when `b` is zero or the division overflows.
pub(crate) fn ratio(a: Decimal, b: Decimal) -> Option<Decimal> {
    if b.is_zero() { None } else { a.checked_div(b) }
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// Square root by Newton's method (exact `Decimal` arithmetic, 28 significant digits).
fn sqrt(x: Decimal) -> Decimal {
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

/// Coefficient of variation of a series (population standard deviation ÷ mean). Computed on
/// the series divided by its mean, so large amounts cannot overflow.
fn coefficient_of_variation(values: &[Decimal]) -> Option<Decimal> {
    let n = Decimal::from(values.len());
    let sum = values
        .iter()
        .fold(Decimal::ZERO, |a, v| a.saturating_add(*v));
    let mean = ratio(sum, n)?;
    if mean <= Decimal::ZERO {
        return None;
    }
    let variance = values.iter().try_fold(Decimal::ZERO, |acc, v| {
        let d = ratio(*v, mean)? - Decimal::ONE;
        Some(acc.saturating_add(d.saturating_mul(d)))
    })?;
    Some(sqrt(ratio(variance, n)?))
}

/// The closing balance of a group of rows that share a completion time (see the module rules).
fn group_closing(rows: &[(Decimal, Decimal)]) -> Option<Decimal> {
    let total = rows
        .iter()
        .fold(Decimal::ZERO, |a, (net, _)| a.saturating_add(*net));
    let lowest = rows.iter().map(|(_, b)| *b).min()?;
    rows.iter()
        .map(|(net, b)| b.saturating_sub(*net).saturating_add(total))
        .filter(|c| rows.iter().any(|(_, b)| b == c))
        .min()
        .or(Some(lowest))
}

/// The group's opening balance: its closing balance minus its movement.
fn group_opening(rows: &[(Decimal, Decimal)]) -> Option<Decimal> {
    let total = rows
        .iter()
        .fold(Decimal::ZERO, |a, (net, _)| a.saturating_add(*net));
    group_closing(rows).map(|c| c.saturating_sub(total))
}

/// End-of-day balances for every day from `first` to `last`, or `None` without balances.
fn daily_balances(
    rows: &[&Transaction],
    first: NaiveDate,
    last: NaiveDate,
) -> Option<Vec<Decimal>> {
    let mut groups: BTreeMap<NaiveDateTime, Vec<(Decimal, Decimal)>> = BTreeMap::new();
    for t in rows {
        if let Some(b) = t.balance {
            groups
                .entry(t.completed_at)
                .or_default()
                .push((t.paid_in.saturating_sub(t.withdrawn), b));
        }
    }
    let mut closing_by_day: BTreeMap<NaiveDate, Decimal> = BTreeMap::new();
    for (at, rows) in &groups {
        if let Some(c) = group_closing(rows) {
            closing_by_day.insert(at.date(), c);
        }
    }
    let opening = groups.values().next().and_then(|g| group_opening(g))?;
    let mut balances = Vec::new();
    let mut current = opening;
    let mut day = first;
    while day <= last {
        if let Some(c) = closing_by_day.get(&day) {
            current = *c;
        }
        balances.push(current);
        match day.succ_opt() {
            Some(next) => day = next,
            None => break,
        }
    }
    Some(balances)
}

/// Index of the 30-day window (0 = newest) that holds `day`.
fn window_of(day: NaiveDate, last: NaiveDate) -> usize {
    let back = (last - day).num_days().max(0);
    usize::try_from(back / WINDOW_DAYS).unwrap_or(usize::MAX)
}

/// Accumulates the statement-wide sums.
#[derive(Default)]
struct Sums {
    income: Decimal,
    salary: Decimal,
    received: Decimal,
    spending: Decimal,
    fuliza_drawn: Decimal,
    fuliza_draws: u32,
    fuliza_repaid: Decimal,
    fuliza_repayments: u32,
    mobile_in: Decimal,
    mobile_in_count: u32,
    mobile_out: Decimal,
    mobile_out_count: u32,
    digital_in: Decimal,
    digital_in_count: u32,
    digital_out: Decimal,
    digital_out_count: u32,
    bills: u32,
    betting: Decimal,
    cash_out: Decimal,
    savings_in: Decimal,
    savings_out: Decimal,
    own_in: Decimal,
    own_out: Decimal,
}

impl Sums {
    fn add(&mut self, t: &Transaction, category: Category, month: &mut MonthFigures) {
        let (pin, wout) = (t.paid_in, t.withdrawn);
        if pin > Decimal::ZERO && !NOT_INCOME.contains(&category) {
            self.income = self.income.saturating_add(pin);
            month.earned_income = month.earned_income.saturating_add(pin);
            if category == Category::SalaryAndBusinessPayments {
                self.salary = self.salary.saturating_add(pin);
            }
            if RECEIVED.contains(&category) {
                self.received = self.received.saturating_add(pin);
            }
        }
        if wout > Decimal::ZERO && !NOT_SPENDING.contains(&category) {
            self.spending = self.spending.saturating_add(wout);
            month.spending = month.spending.saturating_add(wout);
        }
        let add = |sum: &mut Decimal, n: &mut u32, v: Decimal| {
            *sum = sum.saturating_add(v);
            *n = n.saturating_add(1);
        };
        let mut unused = 0;
        match category {
            Category::FulizaDraw => {
                add(&mut self.fuliza_drawn, &mut self.fuliza_draws, pin);
                month.fuliza_drawn = month.fuliza_drawn.saturating_add(pin);
            }
            Category::FulizaRepayment => {
                add(&mut self.fuliza_repaid, &mut self.fuliza_repayments, wout);
            }
            Category::MobileLoanDisbursement => {
                add(&mut self.mobile_in, &mut self.mobile_in_count, pin);
            }
            Category::MobileLoanRepayment => {
                add(&mut self.mobile_out, &mut self.mobile_out_count, wout);
            }
            Category::DigitalLoanDisbursement => {
                add(&mut self.digital_in, &mut self.digital_in_count, pin);
            }
            Category::DigitalLoanRepayment => {
                add(&mut self.digital_out, &mut self.digital_out_count, wout);
            }
            Category::Utilities if wout > Decimal::ZERO => {
                self.bills = self.bills.saturating_add(1);
                month.bill_payments = month.bill_payments.saturating_add(1);
            }
            Category::Betting => add(&mut self.betting, &mut unused, wout),
            Category::AgentWithdrawal => add(&mut self.cash_out, &mut unused, wout),
            Category::SavingsDeposit => add(&mut self.savings_in, &mut unused, wout),
            Category::SavingsWithdrawal => add(&mut self.savings_out, &mut unused, pin),
            Category::OwnAccountTransfer => {
                add(&mut self.own_in, &mut unused, pin);
                add(&mut self.own_out, &mut unused, wout);
                month.bank_in = month.bank_in.saturating_add(pin);
                month.bank_out = month.bank_out.saturating_add(wout);
            }
            _ => {}
        }
    }
}

/// Empty 30-day windows covering `first..=last`, newest first (window 0 ends on `last`).
fn empty_windows(first: NaiveDate, last: NaiveDate, months_covered: u32) -> Vec<MonthFigures> {
    (0..i64::from(months_covered))
        .map(|k| {
            let end = last - Duration::days(k * WINDOW_DAYS);
            let start = (end - Duration::days(WINDOW_DAYS - 1)).max(first);
            MonthFigures {
                start,
                end,
                days: u32::try_from((end - start).num_days() + 1).unwrap_or(0),
                transactions: 0,
                income: Decimal::ZERO,
                earned_income: Decimal::ZERO,
                bank_in: Decimal::ZERO,
                bank_out: Decimal::ZERO,
                spending: Decimal::ZERO,
                fuliza_drawn: Decimal::ZERO,
                bill_payments: 0,
            }
        })
        .collect()
}

/// Regularity over the full windows (the thin-file rule).
struct Regularity {
    full_months: u32,
    income_month_share: Option<Decimal>,
    bill_month_share: Option<Decimal>,
    income_cv: Option<Decimal>,
}

fn regularity(windows: &[MonthFigures]) -> Regularity {
    let full: Vec<&MonthFigures> = windows.iter().filter(|m| m.is_full()).collect();
    let full_months = count(full.len());
    let enough = full_months >= MIN_FULL_MONTHS;
    let share = |pred: &dyn Fn(&MonthFigures) -> bool| {
        if enough {
            ratio(
                Decimal::from(full.iter().filter(|m| pred(m)).count()),
                Decimal::from(full.len()),
            )
        } else {
            None
        }
    };
    Regularity {
        full_months,
        income_month_share: share(&|m| m.income > Decimal::ZERO),
        bill_month_share: share(&|m| m.bill_payments > 0),
        income_cv: if enough {
            coefficient_of_variation(&full.iter().map(|m| m.income).collect::<Vec<_>>())
        } else {
            None
        },
    }
}

/// Balance figures; every field `None` (and 0 days) without printed balances.
struct Balances {
    average: Option<Decimal>,
    minimum: Option<Decimal>,
    days_near_zero: u32,
    near_zero_share: Option<Decimal>,
    buffer_days: Option<Decimal>,
}

fn balance_figures(
    rows: &[&Transaction],
    first: NaiveDate,
    last: NaiveDate,
    spending: Decimal,
) -> Balances {
    let balances = daily_balances(rows, first, last).unwrap_or_default();
    let days = Decimal::from(balances.len());
    let total = balances
        .iter()
        .fold(Decimal::ZERO, |a, v| a.saturating_add(*v));
    let average = ratio(total, days);
    let days_near_zero = count(balances.iter().filter(|v| **v < NEAR_ZERO_BALANCE).count());
    let buffer_days = average.map(|avg| match ratio(spending, days) {
        Some(daily) if daily > Decimal::ZERO => ratio(avg, daily)
            .unwrap_or(MAX_BUFFER_DAYS)
            .min(MAX_BUFFER_DAYS),
        _ => MAX_BUFFER_DAYS,
    });
    Balances {
        average,
        minimum: balances.iter().min().copied(),
        days_near_zero,
        near_zero_share: ratio(Decimal::from(days_near_zero), days),
        buffer_days,
    }
}

/// All credit repaid ÷ all credit received (see [`Features::repayment_coverage`]).
fn repayment_coverage(sums: &Sums) -> Option<Decimal> {
    let borrowed = sums
        .fuliza_drawn
        .saturating_add(sums.mobile_in)
        .saturating_add(sums.digital_in);
    let repaid = sums
        .fuliza_repaid
        .saturating_add(sums.mobile_out)
        .saturating_add(sums.digital_out);
    if borrowed > Decimal::ZERO {
        ratio(repaid, borrowed)
    } else if repaid > Decimal::ZERO {
        Some(Decimal::ONE)
    } else {
        None
    }
}

/// Net cash flow ÷ income (see [`Features::net_cash_flow_ratio`]).
fn net_cash_flow_ratio(days: i64, income: Decimal, spending: Decimal) -> Option<Decimal> {
    if days < WINDOW_DAYS {
        None
    } else if income.is_zero() {
        // Spending with no income at all: the worst ratio the bins know.
        Some(if spending.is_zero() {
            Decimal::ZERO
        } else {
            Decimal::NEGATIVE_ONE
        })
    } else {
        ratio(income.saturating_sub(spending), income)
    }
}

/// Sums the rows into the statement totals and the windows (oldest first), and works out each
/// window's income; returns the windows, the sums (income still earned income only) and the
/// statement's net bank funding.
fn accumulate(
    rows: &[&Transaction],
    first: NaiveDate,
    last: NaiveDate,
    months_covered: u32,
) -> (Vec<MonthFigures>, Sums, Decimal) {
    let mut windows = empty_windows(first, last, months_covered);
    let mut sums = Sums::default();
    for t in rows {
        let Some(month) = windows.get_mut(window_of(t.completed_at.date(), last)) else {
            continue;
        };
        month.transactions = month.transactions.saturating_add(1);
        sums.add(t, category_of(t), month);
    }
    windows.reverse();
    let mut bank_funding = Decimal::ZERO;
    for m in &mut windows {
        let funding = m.bank_in.saturating_sub(m.bank_out).max(Decimal::ZERO);
        bank_funding = bank_funding.saturating_add(funding);
        m.income = m.earned_income.saturating_add(funding);
    }
    (windows, sums, bank_funding)
}

/// The order rows are read in: completion time, then receipt, Details and amounts.
fn sort_key(t: &Transaction) -> (NaiveDateTime, &str, &str, Decimal, Decimal, Option<Decimal>) {
    (
        t.completed_at,
        &t.receipt_no,
        &t.details,
        t.paid_in,
        t.withdrawn,
        t.balance,
    )
}

/// Computes the features of a statement from its completed rows (see the module rules).
/// A statement without completed rows gives [`Features::default`].
pub fn compute(statement: &Statement) -> Features {
    let mut rows: Vec<&Transaction> = statement
        .transactions
        .iter()
        .filter(|t| t.is_completed())
        .collect();
    rows.sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
    let (Some(first_row), Some(last_row)) = (rows.first(), rows.last()) else {
        return Features::default();
    };
    let first = first_row.completed_at.date();
    let last = last_row.completed_at.date();
    let days = (last - first).num_days() + 1;
    let statement_days = u32::try_from(days).unwrap_or(u32::MAX);
    let months_covered = u32::try_from((days + WINDOW_DAYS - 1) / WINDOW_DAYS).unwrap_or(u32::MAX);

    let (windows, mut sums, bank_funding) = accumulate(&rows, first, last, months_covered);
    let earned_income = sums.income;
    let income = earned_income.saturating_add(bank_funding);
    sums.income = income;

    let months_equiv = ratio(Decimal::from(statement_days), Decimal::from(WINDOW_DAYS))
        .unwrap_or(Decimal::ONE)
        .max(Decimal::ONE);
    let per_month = |v: Decimal| ratio(v, months_equiv).unwrap_or(v);
    let of_income = |amount: Decimal| {
        if amount.is_zero() {
            Some(Decimal::ZERO)
        } else {
            ratio(amount, income)
        }
    };
    let of_spending = |v: Decimal| ratio(v, sums.spending).unwrap_or(Decimal::ZERO);
    let months_with =
        |pred: &dyn Fn(&MonthFigures) -> bool| count(windows.iter().filter(|m| pred(m)).count());
    let regular = regularity(&windows);
    let balances = balance_figures(&rows, first, last, sums.spending);
    let fuliza_months = months_with(&|m| m.fuliza_drawn > Decimal::ZERO);

    Features {
        first_date: Some(first),
        last_date: Some(last),
        statement_days,
        transaction_count: count(rows.len()),
        months_covered,
        full_months: regular.full_months,
        transactions_per_month: per_month(Decimal::from(rows.len())),
        total_income: income,
        earned_income,
        net_bank_funding: bank_funding,
        average_monthly_income: per_month(income),
        months_with_income: months_with(&|m| m.income > Decimal::ZERO),
        income_month_share: regular.income_month_share,
        income_cv: regular.income_cv,
        salary_income: sums.salary,
        salary_share: ratio(sums.salary.saturating_add(bank_funding), income),
        received_income: sums.received,
        total_spending: sums.spending,
        average_monthly_net_cash_flow: per_month(income.saturating_sub(sums.spending)),
        net_cash_flow_ratio: net_cash_flow_ratio(days, income, sums.spending),
        average_daily_balance: balances.average,
        minimum_daily_balance: balances.minimum,
        days_near_zero: balances.days_near_zero,
        near_zero_share: balances.near_zero_share,
        balance_buffer_days: balances.buffer_days,
        fuliza_draw_count: sums.fuliza_draws,
        fuliza_drawn: sums.fuliza_drawn,
        fuliza_repayment_count: sums.fuliza_repayments,
        fuliza_repaid: sums.fuliza_repaid,
        fuliza_months,
        fuliza_month_share: ratio(Decimal::from(fuliza_months), Decimal::from(months_covered)),
        fuliza_reliance: of_income(sums.fuliza_drawn),
        mobile_loan_count: sums.mobile_in_count,
        mobile_loans_received: sums.mobile_in,
        mobile_repayment_count: sums.mobile_out_count,
        mobile_loans_repaid: sums.mobile_out,
        digital_loan_count: sums.digital_in_count,
        digital_loans_received: sums.digital_in,
        digital_repayment_count: sums.digital_out_count,
        digital_loans_repaid: sums.digital_out,
        repayment_coverage: repayment_coverage(&sums),
        loan_intensity: of_income(sums.mobile_in.saturating_add(sums.digital_in)),
        average_monthly_loan_repayments: per_month(
            sums.mobile_out.saturating_add(sums.digital_out),
        ),
        bill_payment_count: sums.bills,
        bill_payment_months: months_with(&|m| m.bill_payments > 0),
        bill_month_share: regular.bill_month_share,
        betting_spent: sums.betting,
        betting_share: of_spending(sums.betting),
        cash_out: sums.cash_out,
        cash_out_share: of_spending(sums.cash_out),
        savings_deposited: sums.savings_in,
        savings_withdrawn: sums.savings_out,
        own_account_in: sums.own_in,
        own_account_out: sums.own_out,
        monthly: windows,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::statement::TransactionStatus;
    use proptest::prelude::*;
    use rust_decimal_macros::dec;

    fn at(day: u32, hour: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(2024, 1, 1)
            .and_then(|d| d.checked_add_days(chrono::Days::new(u64::from(day))))
            .and_then(|d| d.and_hms_opt(hour, 0, 0))
            .unwrap_or_default()
    }

    fn row(
        day: u32,
        hour: u32,
        details: &str,
        paid_in: Decimal,
        withdrawn: Decimal,
        balance: Option<Decimal>,
    ) -> Transaction {
        Transaction {
            receipt_no: format!("R{day:03}{hour:02}{}", details.len()),
            completed_at: at(day, hour),
            details: details.to_owned(),
            status: TransactionStatus::Completed,
            paid_in,
            withdrawn,
            balance,
            category: Category::Uncategorised,
        }
    }

    fn statement(rows: Vec<Transaction>) -> Statement {
        Statement {
            transactions: rows,
            ..Statement::default()
        }
    }

    const SALARY: &str = "Salary Payment from 1 - EXAMPLE EMPLOYER LTD via API";
    const RECEIVED: &str = "Funds received from - 0712 JANE DOE";
    const SHOP: &str = "Merchant Payment to 1 - CORNER SHOP";
    const KPLC: &str = "Pay Bill to 888880 - KPLC PREPAID Acc. 1";
    const FULIZA: &str = "OverDraft of Credit Party";
    const FULIZA_REPAY: &str = "OD Loan Repayment to 232323 - M-PESA Overdraw";
    const BANK_IN: &str = "Business Payment from 1 - EXAMPLE BANK via API";
    const BANK_OUT: &str = "Pay Bill to 1 - Equity Paybill Account Acc. 1";
    const AGENT_OUT: &str = "Customer Withdrawal At Agent Till 1 - SHOP AGENT";
    const BET: &str = "Pay Bill to 1 - SPORTPESA Acc. 1";
    const TALA_IN: &str = "Business Payment from 1 - TALA KENYA via API";

    /// 90 days: salary every 30 days, steady spending, one bill a month, a Fuliza draw repaid.
    fn ninety_days() -> Statement {
        let mut rows = Vec::new();
        let mut balance = dec!(1000);
        for month in 0..3u32 {
            let d = month * 30;
            balance += dec!(30000);
            rows.push(row(d, 9, SALARY, dec!(30000), dec!(0), Some(balance)));
            balance -= dec!(1000);
            rows.push(row(d + 1, 9, KPLC, dec!(0), dec!(1000), Some(balance)));
            balance -= dec!(20000);
            rows.push(row(d + 2, 9, SHOP, dec!(0), dec!(20000), Some(balance)));
            balance -= dec!(3000);
            rows.push(row(d + 3, 9, AGENT_OUT, dec!(0), dec!(3000), Some(balance)));
        }
        rows.push(row(
            89,
            8,
            FULIZA,
            dec!(500),
            dec!(0),
            Some(balance + dec!(500)),
        ));
        rows.push(row(89, 9, FULIZA_REPAY, dec!(0), dec!(500), Some(balance)));
        statement(rows)
    }

    #[test]
    fn an_empty_statement_has_default_features() {
        assert_eq!(compute(&Statement::default()), Features::default());
        let mut s = ninety_days();
        for t in &mut s.transactions {
            t.status = TransactionStatus::Failed;
        }
        assert_eq!(compute(&s), Features::default());
    }

    #[test]
    fn income_spending_and_windows() {
        let f = compute(&ninety_days());
        assert_eq!(f.statement_days, 90);
        assert_eq!(f.months_covered, 3);
        assert_eq!(f.full_months, 3);
        assert_eq!(f.transaction_count, 14);
        assert_eq!(f.total_income, dec!(90000));
        assert_eq!(f.earned_income, dec!(90000));
        assert_eq!(f.salary_share, Some(dec!(1)));
        assert_eq!(f.average_monthly_income, dec!(30000));
        // Spending: shop, KPLC and agent cash; Fuliza repayment is not spending.
        assert_eq!(f.total_spending, dec!(72000));
        assert_eq!(f.average_monthly_net_cash_flow, dec!(6000));
        assert_eq!(f.net_cash_flow_ratio, Some(dec!(0.2)));
        assert_eq!(f.months_with_income, 3);
        assert_eq!(f.income_month_share, Some(dec!(1)));
        assert_eq!(f.income_cv, Some(dec!(0)));
        assert_eq!(f.bill_payment_count, 3);
        assert_eq!(f.bill_payment_months, 3);
        assert_eq!(f.bill_month_share, Some(dec!(1)));
        assert_eq!(f.cash_out, dec!(9000));
        assert_eq!(f.cash_out_share, dec!(0.125));
        assert_eq!(f.betting_share, dec!(0));
        assert_eq!(
            (
                f.fuliza_draw_count,
                f.fuliza_drawn,
                f.fuliza_repayment_count,
                f.fuliza_repaid
            ),
            (1, dec!(500), 1, dec!(500))
        );
        assert_eq!(f.fuliza_months, 1);
        assert_eq!(f.repayment_coverage, Some(dec!(1)));
        assert_eq!(f.loan_intensity, Some(dec!(0)));
        let reliance = f.fuliza_reliance.unwrap_or_default();
        assert_eq!(reliance.round_dp(6), dec!(0.005556));
        // Windows are oldest first and 30 days each, ending on the last day.
        assert_eq!(f.monthly.len(), 3);
        assert!(f.monthly.iter().all(MonthFigures::is_full));
        assert_eq!(f.monthly[2].end, at(89, 0).date());
        assert_eq!(f.monthly[0].start, at(0, 0).date());
    }

    #[test]
    fn end_of_day_balances() {
        let f = compute(&ninety_days());
        // The balance is 1,000 + 30,000k - 24,000k after each month: 7,000 / 13,000 / 19,000
        // at the end of each month's fourth day.
        assert_eq!(f.minimum_daily_balance, Some(dec!(7000)));
        assert_eq!(f.days_near_zero, 0);
        assert_eq!(f.near_zero_share, Some(dec!(0)));
        let avg = f.average_daily_balance.unwrap_or_default();
        assert!(avg > dec!(7000) && avg < dec!(31000), "{avg}");
        // Without printed balances nothing about balances can be said.
        let mut s = ninety_days();
        for t in &mut s.transactions {
            t.balance = None;
        }
        let f = compute(&s);
        assert_eq!(f.average_daily_balance, None);
        assert_eq!(f.near_zero_share, None);
        assert_eq!(f.balance_buffer_days, None);
    }

    #[test]
    fn near_zero_days_are_counted_and_carried_over() {
        let s = statement(vec![
            row(0, 9, RECEIVED, dec!(50), dec!(0), Some(dec!(50))),
            row(5, 9, RECEIVED, dec!(1000), dec!(0), Some(dec!(1050))),
            row(9, 9, SHOP, dec!(0), dec!(1000), Some(dec!(50))),
        ]);
        let f = compute(&s);
        assert_eq!(f.statement_days, 10);
        // Days 0-4 end at 50, days 5-8 at 1,050, day 9 at 50.
        assert_eq!(f.days_near_zero, 6);
        assert_eq!(f.near_zero_share, Some(dec!(0.6)));
        assert_eq!(f.minimum_daily_balance, Some(dec!(50)));
        assert_eq!(f.average_daily_balance, Some(dec!(450)));
        // Shorter than a month: no cash-flow ratio, no regularity.
        assert_eq!(f.net_cash_flow_ratio, None);
        assert_eq!(f.income_cv, None);
        assert_eq!(f.income_month_share, None);
        assert_eq!(f.months_covered, 1);
        assert_eq!(f.full_months, 0);
        // Not extrapolated: 1,050 received in 10 days is 1,050 a month.
        assert_eq!(f.average_monthly_income, dec!(1050));
    }

    #[test]
    fn rows_sharing_a_time_close_on_the_consistent_balance() {
        // A payment and its charge at the same second, printed in either order.
        let pay = row(0, 9, SHOP, dec!(0), dec!(100), Some(dec!(900)));
        let charge = row(
            0,
            9,
            "Pay Merchant Charge",
            dec!(0),
            dec!(7),
            Some(dec!(893)),
        );
        assert_eq!(
            group_closing(&[(pay.net(), dec!(900)), (charge.net(), dec!(893))]),
            Some(dec!(893))
        );
        assert_eq!(
            group_closing(&[(charge.net(), dec!(893)), (pay.net(), dec!(900))]),
            Some(dec!(893))
        );
        // Inconsistent printed balances: the cautious lowest.
        assert_eq!(
            group_closing(&[(dec!(-1), dec!(500)), (dec!(-1), dec!(700))]),
            Some(dec!(500))
        );
        // The other order of the same charge: opening 1,000 either way.
        assert_eq!(
            group_opening(&[(dec!(-7), dec!(993)), (dec!(-100), dec!(893))]),
            Some(dec!(1000))
        );
    }

    #[test]
    fn bank_funding_is_netted_per_month() {
        let s = statement(vec![
            row(0, 9, BANK_IN, dec!(10000), dec!(0), None),
            row(1, 9, BANK_OUT, dec!(0), dec!(4000), None),
            row(2, 9, SHOP, dec!(0), dec!(5000), None),
            // The next month: money sent to the bank only (saving), nothing counted.
            row(35, 9, BANK_OUT, dec!(0), dec!(500), None),
            row(59, 9, RECEIVED, dec!(1000), dec!(0), None),
        ]);
        let f = compute(&s);
        assert_eq!(f.own_account_in, dec!(10000));
        assert_eq!(f.own_account_out, dec!(4500));
        assert_eq!(f.net_bank_funding, dec!(6000));
        assert_eq!(f.earned_income, dec!(1000));
        assert_eq!(f.total_income, dec!(7000));
        // Bank transfers are neither spending nor, gross, income.
        assert_eq!(f.total_spending, dec!(5000));
        assert_eq!(f.salary_share, ratio(dec!(6000), dec!(7000)));
    }

    #[test]
    fn loans_betting_and_uncounted_inflows() {
        let s = statement(vec![
            row(0, 9, RECEIVED, dec!(10000), dec!(0), None),
            row(1, 9, TALA_IN, dec!(2000), dec!(0), None),
            row(2, 9, BET, dec!(0), dec!(500), None),
            row(
                3,
                9,
                "Business Payment from 1 - BETIKA via API",
                dec!(900),
                dec!(0),
                None,
            ),
            row(4, 9, "M-Shwari Withdraw", dec!(3000), dec!(0), None),
            row(5, 9, "M-Shwari Deposit", dec!(0), dec!(1000), None),
            row(
                6,
                9,
                "Pay Bill to 1 - Tala Acc. 1",
                dec!(0),
                dec!(1000),
                None,
            ),
            row(7, 9, SHOP, dec!(0), dec!(4500), None),
        ]);
        let f = compute(&s);
        // Only the person-to-person money is income; loans, winnings, savings are not.
        assert_eq!(f.total_income, dec!(10000));
        assert_eq!(f.received_income, dec!(10000));
        assert_eq!(f.digital_loan_count, 1);
        assert_eq!(f.digital_loans_received, dec!(2000));
        assert_eq!(f.digital_loans_repaid, dec!(1000));
        assert_eq!(f.repayment_coverage, Some(dec!(0.5)));
        assert_eq!(f.loan_intensity, Some(dec!(0.2)));
        assert_eq!(f.savings_deposited, dec!(1000));
        assert_eq!(f.savings_withdrawn, dec!(3000));
        assert_eq!(f.total_spending, dec!(5000));
        assert_eq!(f.betting_spent, dec!(500));
        assert_eq!(f.betting_share, dec!(0.1));
        assert_eq!(f.fuliza_reliance, Some(dec!(0)));
    }

    #[test]
    fn fuliza_without_income_cannot_be_measured() {
        let s = statement(vec![
            row(0, 9, FULIZA, dec!(100), dec!(0), Some(dec!(100))),
            row(40, 9, SHOP, dec!(0), dec!(100), Some(dec!(0))),
        ]);
        let f = compute(&s);
        assert_eq!(f.fuliza_reliance, None);
        assert_eq!(f.net_cash_flow_ratio, Some(dec!(-1)));
        assert_eq!(f.fuliza_month_share, Some(dec!(0.5)));
    }

    #[test]
    fn coefficient_of_variation_and_sqrt() {
        assert_eq!(
            coefficient_of_variation(&[dec!(100), dec!(100)]),
            Some(dec!(0))
        );
        assert_eq!(
            coefficient_of_variation(&[dec!(50), dec!(150)]).map(|v| v.round_dp(10)),
            Some(dec!(0.5))
        );
        assert_eq!(coefficient_of_variation(&[dec!(0), dec!(0)]), None);
        assert_eq!(sqrt(dec!(2)).round_dp(10), dec!(1.4142135624));
        assert_eq!(sqrt(dec!(0.25)), dec!(0.5));
        assert_eq!(sqrt(dec!(-1)), dec!(0));
        // Huge amounts do not overflow.
        let big = Decimal::MAX / dec!(4);
        assert!(coefficient_of_variation(&[big, big, big]).is_some());
    }

    const DETAILS: &[&str] = &[
        SALARY,
        RECEIVED,
        SHOP,
        KPLC,
        FULIZA,
        FULIZA_REPAY,
        BANK_IN,
        BANK_OUT,
        AGENT_OUT,
        BET,
        TALA_IN,
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
                day,
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
            prop_assert_eq!(compute(&statement(rows)), compute(&statement(shuffled)));
        }

        #[test]
        fn features_stay_in_their_ranges(rows in proptest::collection::vec(arb_row(), 1..60)) {
            let f = compute(&statement(rows));
            let unit = Decimal::ZERO..=Decimal::ONE;
            for share in [f.income_month_share, f.bill_month_share, f.near_zero_share, f.fuliza_month_share, f.salary_share].into_iter().flatten() {
                prop_assert!(unit.contains(&share), "{share}");
            }
            prop_assert!(unit.contains(&f.betting_share));
            prop_assert!(unit.contains(&f.cash_out_share));
            prop_assert!(f.income_cv.is_none_or(|v| v >= Decimal::ZERO));
            prop_assert!(f.months_with_income <= f.months_covered);
            prop_assert!(f.full_months <= f.months_covered);
            prop_assert_eq!(f.monthly.len() as u32, f.months_covered);
            prop_assert_eq!(f.monthly.iter().map(|m| m.transactions).sum::<u32>(), f.transaction_count);
            prop_assert_eq!(f.monthly.iter().map(|m| u64::from(m.days)).sum::<u64>(), u64::from(f.statement_days));
            prop_assert_eq!(f.monthly.iter().map(|m| m.income).sum::<Decimal>(), f.total_income);
        }
    }
}
