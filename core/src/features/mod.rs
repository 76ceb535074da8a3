//! Derived figures of a statement: the inputs of the [scorecard](crate::scorecard) and of the
//! [insights](crate::insights).
//!
//! Rules (documented once here, referred to by the scorecard and `docs/scorecard.md`):
//!
//! - **Only `Completed` rows count.** Cancelled and failed rows moved no money.
//! - **Each row once.** A row printed twice (alike in every field, see
//!   [`crate::check::duplicates`]) is read once; the integrity check names the copies.
//! - **Order-invariant.** Rows are read from a copy sorted by completion time, then receipt,
//!   Details and amounts; every figure is a sum, an order statistic or a first-in first-out
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

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use crate::amount::{Amount, Arithmetic, Cents};
use crate::categorise::{Category, categorise};
use crate::statement::{Statement, Transaction};

pub mod balance;
pub mod bills;
pub mod catalogue;
pub mod credit;
pub mod netting;
pub mod thresholds;

pub use thresholds::Thresholds;

/// Days in one statement month for per-month rates (`x × 30 / days`).
pub const WINDOW_DAYS: i64 = 30;

/// Full calendar months needed before regularity can be measured (the thin-file rule).
pub const MIN_FULL_MONTHS: u32 = 2;

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

/// Figures of one calendar month, oldest first in [`Features::monthly`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MonthFigures {
    /// First covered day of the month.
    pub start: NaiveDate,
    /// Last covered day of the month.
    pub end: NaiveDate,
    /// Covered days, 1–31.
    pub days: u32,
    /// Whether the statement covers the whole month.
    pub full: bool,
    /// Completed rows in the month.
    pub transactions: u32,
    /// Income (earned income + recurrent bank funding), KES.
    pub income: Decimal,
    /// Earned income, KES.
    pub earned_income: Decimal,
    /// Salary and B2C business payments, KES.
    pub salary_income: Decimal,
    /// Money in from banks, KES.
    pub bank_in: Decimal,
    /// Money out to banks, KES.
    pub bank_out: Decimal,
    /// Spending (estimated credit fees included), KES.
    pub spending: Decimal,
    /// Fuliza drawn, KES.
    pub fuliza_drawn: Decimal,
    /// Utility and bill payments (count, any size).
    pub bill_payments: u32,
}

impl MonthFigures {
    /// `income - spending`, KES.
    pub fn net_cash_flow(&self) -> Decimal {
        self.income.saturating_sub(self.spending)
    }

    /// Whether the statement covers the whole month.
    pub fn is_full(&self) -> bool {
        self.full
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
    /// Days the statement covers, inclusive (see the module rules: the first to the last
    /// completed row, widened to the header period); 0 without rows.
    pub statement_days: u32,
    /// Number of completed rows.
    pub transaction_count: u32,
    /// Completed rows not counted as activity (see [`Features::transactions_per_month`]).
    pub uncounted_rows: u32,
    /// Money moved in round trips (each direction counted once), KES.
    pub round_trip_amount: Decimal,
    /// Calendar months touched by the covered days.
    pub months_covered: u32,
    /// Full calendar months.
    pub full_months: u32,
    /// Per-month figures, oldest first.
    pub monthly: Vec<MonthFigures>,
    /// Activity: completed rows of at least [`Thresholds::min_activity_amount`] that are neither
    /// betting nor round trips nor undone by a mirror (see [`netting`]), per 30 days:
    /// `rows × 30 / max(30, days)` in one exact division (a statement
    /// shorter than a month is not extrapolated).
    pub transactions_per_month: Decimal,

    // --- income ---
    /// Total income (see the module rules), KES.
    pub total_income: Decimal,
    /// Earned income, KES.
    pub earned_income: Decimal,
    /// Bank funding counted as income (0 unless recurrent), KES.
    pub net_bank_funding: Decimal,
    /// Whether bank funding is recurrent (see the module rules).
    pub bank_funding_recurrent: bool,
    /// Income per 30 days over the whole statement: `total_income × 30 / max(30, days)`,
    /// KES/month.
    pub average_monthly_income: Decimal,
    /// Typical monthly income: the median over full months; with none, `average_monthly_income`.
    /// KES/month.
    pub typical_monthly_income: Decimal,
    /// Income floor: the 20th percentile (nearest rank, rounding down) of full-month income,
    /// KES/month; `None` below [`MIN_FULL_MONTHS`] full months.
    pub income_floor: Option<Decimal>,
    /// Months (any) with income of at least [`Thresholds::material_monthly_income`].
    pub months_with_income: u32,
    /// Share of full months with income of at least [`Thresholds::material_monthly_income`]; `None` below
    /// [`MIN_FULL_MONTHS`] full months.
    pub income_month_share: Option<Decimal>,
    /// Coefficient of variation of full-month income (informational: the scorecard does not
    /// use it, because it punishes windfalls); `None` below [`MIN_FULL_MONTHS`] full months.
    pub income_cv: Option<Decimal>,
    /// Income from salary and B2C business payments, KES.
    pub salary_income: Decimal,
    /// `(salary_income + net_bank_funding) / total_income`; `None` without income.
    pub salary_share: Option<Decimal>,
    /// Share of full months with salary, B2C or recurrent bank income of at least
    /// [`Thresholds::material_monthly_income`]; `None` below [`MIN_FULL_MONTHS`] full months.
    pub salary_month_share: Option<Decimal>,
    /// Income received from people and cash deposited at agents, KES.
    pub received_income: Decimal,

    // --- cash flow ---
    /// Total spending (estimated credit fees included), KES.
    pub total_spending: Decimal,
    /// Net cash flow per month: over the full months when there is one, else
    /// `(income − spending) × 30 / max(30, days)`, KES/month.
    pub average_monthly_net_cash_flow: Decimal,
    /// `(income − spending) / income` over the full months (the whole statement when none is
    /// full); `-1` for spending without income, `0` for neither; `None` for a statement
    /// shorter than 30 days.
    pub net_cash_flow_ratio: Option<Decimal>,
    /// Affordable monthly instalment, KES/month: `max(0, min(typical income / 3 − mobile and
    /// digital loans drawn per month, 50 % × monthly net cash flow))` (see `insights`).
    pub affordable_instalment: Decimal,

    // --- balance ---
    /// Average printed end-of-day balance, KES; `None` without printed balances.
    pub average_daily_balance: Option<Decimal>,
    /// Average net end-of-day balance (printed minus owed), KES; `None` without balances.
    pub average_net_balance: Option<Decimal>,
    /// Lowest net end-of-day balance, KES; `None` without printed balances.
    pub minimum_daily_balance: Option<Decimal>,
    /// Days whose net end-of-day balance is below [`Thresholds::near_zero_balance`].
    pub days_near_zero: u32,
    /// `days_near_zero / statement_days`; `None` without printed balances.
    pub near_zero_share: Option<Decimal>,
    /// Average net balance ÷ average daily spending, 0 when the net balance is negative, capped
    /// at [`MAX_BUFFER_DAYS`]; `None` without printed balances.
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
    /// Months (calendar) with at least one Fuliza draw.
    pub fuliza_months: u32,
    /// Share of months with a Fuliza draw, over full months (all months when none is full).
    pub fuliza_month_share: Option<Decimal>,
    /// `fuliza_drawn / total_income`; `Some(0)` without draws; [`Decimal::MAX`] with draws but
    /// no income (the worst reading, not a missing one).
    pub fuliza_reliance: Option<Decimal>,

    // --- loans ---
    /// Mobile bank loans received (count).
    pub mobile_loan_count: u32,
    /// Mobile bank loans received, KES.
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
    /// The credit ledgers (see [`credit`]).
    pub credit: credit::Credit,
    /// Share of the amount due repaid within the term of each draw; `None` without borrowing.
    pub on_time_repayment_share: Option<Decimal>,
    /// Credit repaid against debt ÷ debt (principal + estimated fees) of every draw; `None`
    /// without borrowing.
    pub repayment_coverage: Option<Decimal>,
    /// Mobile and digital loans received ÷ income; `Some(0)` without loans; [`Decimal::MAX`]
    /// with loans but no income.
    pub loan_intensity: Option<Decimal>,
    /// Mobile and digital loans drawn per 30 days, KES/month (the debt-service proxy of the
    /// affordable instalment: what is drawn each month is, for a rolling borrower, what falls
    /// due the next).
    pub average_monthly_loans_drawn: Decimal,
    /// Mobile and digital loan repayments per 30 days, KES/month.
    pub average_monthly_loan_repayments: Decimal,

    // --- bills ---
    /// Material payments to recurring billers (count of rows).
    pub bill_payment_count: u32,
    /// Months (any) with a material payment to a recurring biller.
    pub bill_payment_months: u32,
    /// Share of full months with a material payment to a recurring biller; `None` below
    /// [`MIN_FULL_MONTHS`] full months.
    pub bill_month_share: Option<Decimal>,

    // --- spending behaviour ---
    /// Money out to betting firms (gross stakes), KES.
    pub betting_spent: Decimal,
    /// `betting_spent / mix`, where the mix is `total_spending` without the rows below
    /// [`Thresholds::min_activity_amount`] that are neither betting nor cash withdrawals (0 without such
    /// spending): a token payment cannot dilute the share.
    pub betting_share: Decimal,
    /// Cash withdrawn at agents and ATMs, KES.
    pub cash_out: Decimal,
    /// `cash_out / mix` (see [`Features::betting_share`]).
    pub cash_out_share: Decimal,
    /// `(cash_out + betting_spent) / mix` (see [`Features::betting_share`]): spending that cannot
    /// be verified or is gambled. Moving money from cash withdrawals to betting leaves it
    /// unchanged, so the betting share alone decides such a move.
    pub cash_and_betting_share: Decimal,

    // --- movements excluded from income and spending ---
    /// Money moved into savings, KES.
    pub savings_deposited: Decimal,
    /// Money moved back from savings, KES.
    pub savings_withdrawn: Decimal,
    /// Money in from banks, KES.
    pub own_account_in: Decimal,
    /// Money out to banks, KES.
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

fn sum(values: impl IntoIterator<Item = Decimal>) -> Decimal {
    values
        .into_iter()
        .fold(Decimal::ZERO, Decimal::saturating_add)
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

/// Coefficient of variation of a series (population standard deviation ÷ mean), computed on
/// the series divided by its mean so that large amounts cannot overflow.
fn coefficient_of_variation(values: &[Decimal]) -> Option<Decimal> {
    let n = Decimal::from(values.len());
    let mean = ratio(sum(values.iter().copied()), n)?;
    if mean <= Decimal::ZERO {
        return None;
    }
    let variance = values.iter().try_fold(Decimal::ZERO, |acc, v| {
        let d = ratio(*v, mean)? - Decimal::ONE;
        Some(acc.saturating_add(d.saturating_mul(d)))
    })?;
    Some(sqrt(ratio(variance, n)?))
}

/// The median of a non-empty series (the mean of the two middle values for an even count).
fn median(values: &[Decimal]) -> Option<Decimal> {
    let mut v = values.to_vec();
    v.sort_unstable();
    let n = v.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => v.get(n / 2).copied(),
        _ => Some(v[n / 2 - 1].saturating_add(v[n / 2]) / Decimal::TWO),
    }
}

/// The 20th percentile by nearest rank, rounding down: the `⌊(n − 1) / 5⌋`-th smallest value.
fn floor_percentile(values: &[Decimal]) -> Option<Decimal> {
    let mut v = values.to_vec();
    v.sort_unstable();
    v.get(v.len().checked_sub(1)? / 5).copied()
}

/// `x × 30 / max(30, days)` in one division, so that bin edges are exact.
fn per_month(x: Decimal, days: i64) -> Decimal {
    let d = Decimal::from(days.max(WINDOW_DAYS));
    ratio(x.saturating_mul(Decimal::from(WINDOW_DAYS)), d).unwrap_or(x)
}

/// The days a statement covers (see the module rules).
fn coverage(statement: &Statement, first: NaiveDate, last: NaiveDate) -> (NaiveDate, NaiveDate) {
    let slack = Duration::days(31);
    match statement.period {
        Some(p)
            if p.start <= first
                && p.start >= first - slack
                && p.end >= last
                && p.end <= last + slack =>
        {
            (p.start, p.end)
        }
        _ => (first, last),
    }
}

/// Empty calendar months covering `start..=end`, oldest first.
fn empty_months(start: NaiveDate, end: NaiveDate) -> Vec<MonthFigures> {
    let mut months = Vec::new();
    let mut first_of = start.with_day(1).unwrap_or(start);
    while first_of <= end {
        let next = first_of
            .checked_add_months(chrono::Months::new(1))
            .unwrap_or(NaiveDate::MAX);
        let last_of = next.pred_opt().unwrap_or(first_of);
        let (s, e) = (first_of.max(start), last_of.min(end));
        months.push(MonthFigures {
            start: s,
            end: e,
            days: u32::try_from((e - s).num_days() + 1).unwrap_or(0),
            full: s == first_of && e == last_of,
            transactions: 0,
            income: Decimal::ZERO,
            earned_income: Decimal::ZERO,
            salary_income: Decimal::ZERO,
            bank_in: Decimal::ZERO,
            bank_out: Decimal::ZERO,
            spending: Decimal::ZERO,
            fuliza_drawn: Decimal::ZERO,
            bill_payments: 0,
        });
        if next == NaiveDate::MAX {
            break;
        }
        first_of = next;
    }
    months
}

/// Index of the month that holds `day` in months starting at `start`.
fn month_index(day: NaiveDate, start: NaiveDate) -> usize {
    let months =
        (day.year() - start.year()) * 12 + day.month().cast_signed() - start.month().cast_signed();
    usize::try_from(months).unwrap_or(usize::MAX)
}

/// Statement-wide sums and counts of the non-ratio figures, in the arithmetic `A`.
#[derive(Default)]
struct Sums<A> {
    income: A,
    salary: A,
    received: A,
    spending: A,
    fuliza_drawn: A,
    fuliza_draws: u32,
    fuliza_repaid: A,
    fuliza_repayments: u32,
    mobile_in: A,
    mobile_in_count: u32,
    mobile_out: A,
    mobile_out_count: u32,
    digital_in: A,
    digital_in_count: u32,
    digital_out: A,
    digital_out_count: u32,
    betting: A,
    cash_out: A,
    savings_in: A,
    savings_out: A,
    own_in: A,
    own_out: A,
    counted_rows: u32,
    /// Spending in rows below [`Thresholds::min_activity_amount`] other than betting and cash withdrawals:
    /// left out of the spending mix.
    token_spending: A,
}

/// The sums of one month that the rows add to, in the arithmetic `A` (the rest of
/// [`MonthFigures`] is derived from them).
#[derive(Default)]
struct MonthSums<A> {
    transactions: u32,
    earned_income: A,
    salary_income: A,
    bank_in: A,
    bank_out: A,
    spending: A,
    fuliza_drawn: A,
    bill_payments: u32,
}

impl<A: Amount> MonthSums<A> {
    /// Writes these sums into `month`'s figures.
    fn write_into(&self, month: &mut MonthFigures) {
        month.transactions = self.transactions;
        month.earned_income = self.earned_income.decimal();
        month.salary_income = self.salary_income.decimal();
        month.bank_in = self.bank_in.decimal();
        month.bank_out = self.bank_out.decimal();
        month.spending = self.spending.decimal();
        month.fuliza_drawn = self.fuliza_drawn.decimal();
        month.bill_payments = self.bill_payments;
    }
}

fn tally<A: Amount>(sum: &mut A, n: &mut u32, v: A) {
    *sum = sum.plus(v);
    *n = n.saturating_add(1);
}

impl<A: Amount> Sums<A> {
    /// Adds one row; `netted` is the part of it that is a round trip, `free` the part that
    /// moved no money net (see [`netting::mirrored_in`]), `activity` is
    /// [`Thresholds::min_activity_amount`].
    fn add(
        &mut self,
        t: &Transaction,
        category: Category,
        (netted, free): (A, A),
        month: &mut MonthSums<A>,
        activity: A,
    ) {
        let pin = A::of(t.paid_in).minus(netted).at_least_zero();
        let wout = A::of(t.withdrawn).minus(netted).at_least_zero();
        let counted = |v: Decimal| A::of(v).minus(free).at_least_zero() >= activity;
        if (counted(t.paid_in) || counted(t.withdrawn)) && category != Category::Betting {
            self.counted_rows = self.counted_rows.saturating_add(1);
        }
        if pin.is_positive() && !NOT_INCOME.contains(&category) {
            self.income = self.income.plus(pin);
            month.earned_income = month.earned_income.plus(pin);
            if category == Category::SalaryAndBusinessPayments {
                self.salary = self.salary.plus(pin);
                month.salary_income = month.salary_income.plus(pin);
            }
            if RECEIVED.contains(&category) {
                self.received = self.received.plus(pin);
            }
        }
        if wout.is_positive() && !NOT_SPENDING.contains(&category) {
            self.spending = self.spending.plus(wout);
            month.spending = month.spending.plus(wout);
            if wout < activity && !MIX_ALWAYS.contains(&category) {
                self.token_spending = self.token_spending.plus(wout);
            }
        }
        let mut unused = 0;
        match category {
            Category::FulizaDraw => {
                tally(&mut self.fuliza_drawn, &mut self.fuliza_draws, pin);
                month.fuliza_drawn = month.fuliza_drawn.plus(pin);
            }
            Category::FulizaRepayment => {
                tally(&mut self.fuliza_repaid, &mut self.fuliza_repayments, wout);
            }
            Category::MobileLoanDisbursement => {
                tally(&mut self.mobile_in, &mut self.mobile_in_count, pin);
            }
            Category::MobileLoanRepayment => {
                tally(&mut self.mobile_out, &mut self.mobile_out_count, wout);
            }
            Category::DigitalLoanDisbursement => {
                tally(&mut self.digital_in, &mut self.digital_in_count, pin);
            }
            Category::DigitalLoanRepayment => {
                tally(&mut self.digital_out, &mut self.digital_out_count, wout);
            }
            Category::Utilities if wout.is_positive() => {
                month.bill_payments = month.bill_payments.saturating_add(1);
            }
            Category::Betting => tally(&mut self.betting, &mut unused, wout),
            Category::AgentWithdrawal => tally(&mut self.cash_out, &mut unused, wout),
            Category::SavingsDeposit => tally(&mut self.savings_in, &mut unused, wout),
            Category::SavingsWithdrawal => tally(&mut self.savings_out, &mut unused, pin),
            Category::OwnAccountTransfer => {
                tally(&mut self.own_in, &mut unused, pin);
                tally(&mut self.own_out, &mut unused, wout);
                month.bank_in = month.bank_in.plus(pin);
                month.bank_out = month.bank_out.plus(wout);
            }
            _ => {}
        }
    }

    /// These sums as `Decimal`s.
    fn decimal(&self) -> Sums<Decimal> {
        Sums {
            income: self.income.decimal(),
            salary: self.salary.decimal(),
            received: self.received.decimal(),
            spending: self.spending.decimal(),
            fuliza_drawn: self.fuliza_drawn.decimal(),
            fuliza_draws: self.fuliza_draws,
            fuliza_repaid: self.fuliza_repaid.decimal(),
            fuliza_repayments: self.fuliza_repayments,
            mobile_in: self.mobile_in.decimal(),
            mobile_in_count: self.mobile_in_count,
            mobile_out: self.mobile_out.decimal(),
            mobile_out_count: self.mobile_out_count,
            digital_in: self.digital_in.decimal(),
            digital_in_count: self.digital_in_count,
            digital_out: self.digital_out.decimal(),
            digital_out_count: self.digital_out_count,
            betting: self.betting.decimal(),
            cash_out: self.cash_out.decimal(),
            savings_in: self.savings_in.decimal(),
            savings_out: self.savings_out.decimal(),
            own_in: self.own_in.decimal(),
            own_out: self.own_out.decimal(),
            counted_rows: self.counted_rows,
            token_spending: self.token_spending.decimal(),
        }
    }
}

/// The order the features (and a report) read rows in: completion time, then receipt number,
/// Details, Paid In, Withdrawn and Balance. Completed rows that tie are alike in all the
/// features read (a prepared row's category follows from its Details and amounts), so the
/// features do not depend on the order a statement lists its rows in.
pub fn sort_key(t: &Transaction) -> (NaiveDateTime, &str, &str, Decimal, Decimal, Option<Decimal>) {
    (
        t.completed_at,
        &t.receipt_no,
        &t.details,
        t.paid_in,
        t.withdrawn,
        t.balance,
    )
}

/// `rows` (each with its index in the statement) in the order they are read in: by
/// [`sort_key`], then by index. Made as a stable sort of completion times as integers (cheap to
/// compare; rows listed in either time order are sorted in one pass, see
/// [`crate::order::sort_stable_by_key`]), then a sort by the whole key and index of the few
/// rows that share a time.
pub(crate) fn reading_order<'a>(
    rows: impl Iterator<Item = (usize, &'a Transaction)>,
) -> Vec<(usize, &'a Transaction)> {
    let mut keyed: Vec<(i64, u32, usize, &Transaction)> = rows
        .map(|(i, t)| {
            let at = t.completed_at.and_utc();
            (at.timestamp(), at.timestamp_subsec_nanos(), i, t)
        })
        .collect();
    crate::order::sort_stable_by_key(&mut keyed, |k| (k.0, k.1));
    for same_time in keyed.chunk_by_mut(|a, b| (a.0, a.1) == (b.0, b.1)) {
        if same_time.len() > 1 {
            same_time.sort_by(|a, b| (sort_key(a.3), a.2).cmp(&(sort_key(b.3), b.2)));
        }
    }
    keyed.into_iter().map(|k| (k.2, k.3)).collect()
}

/// Share of `months` for which `pred` holds; `None` when there are fewer than `min` of them.
fn share_of(
    months: &[&MonthFigures],
    min: u32,
    pred: impl Fn(&MonthFigures) -> bool,
) -> Option<Decimal> {
    if count(months.len()) < min.max(1) {
        return None;
    }
    ratio(
        Decimal::from(months.iter().filter(|m| pred(m)).count()),
        Decimal::from(months.len()),
    )
}

/// Balance figures; every field `None` (and 0 days) without printed balances.
struct Balances {
    average: Option<Decimal>,
    average_net: Option<Decimal>,
    minimum_net: Option<Decimal>,
    days_near_zero: u32,
    near_zero_share: Option<Decimal>,
    buffer_days: Option<Decimal>,
}

fn balance_figures<A: Amount>(
    rows: &[&Transaction],
    first: NaiveDate,
    last: NaiveDate,
    spending: Decimal,
    owed: &credit::Credit,
    near_zero_balance: Decimal,
) -> Balances {
    let printed = balance::daily_balances_in::<A>(rows, first, last).unwrap_or_default();
    let owed = balance::daily_owed_in::<A>(&owed.owed_change_by_day, first, last);
    let net: Vec<A> = printed
        .iter()
        .zip(owed.iter().chain(std::iter::repeat(&A::ZERO)))
        .map(|(b, o)| b.minus(*o))
        .collect();
    let days = Decimal::from(printed.len());
    let total = |values: &[A]| values.iter().fold(A::ZERO, |s, v| s.plus(*v)).decimal();
    let average = ratio(total(&printed), days);
    let average_net = ratio(total(&net), days);
    let near_zero = A::of(near_zero_balance);
    let days_near_zero = count(net.iter().filter(|v| **v < near_zero).count());
    let buffer_days = average_net.map(|avg| match ratio(spending, days) {
        _ if avg <= Decimal::ZERO => Decimal::ZERO,
        Some(daily) if daily > Decimal::ZERO => ratio(avg, daily)
            .unwrap_or(MAX_BUFFER_DAYS)
            .min(MAX_BUFFER_DAYS),
        _ => MAX_BUFFER_DAYS,
    });
    Balances {
        average,
        average_net,
        minimum_net: net.iter().min().map(|v| v.decimal()),
        days_near_zero,
        near_zero_share: ratio(Decimal::from(days_near_zero), days),
        buffer_days,
    }
}

/// What one pass over the rows in reading order adds up.
struct RowSums<'a> {
    sums: Sums<Decimal>,
    /// Money moved in round trips, each direction counted once.
    round_trip_amount: Decimal,
    /// `(month index, Details, Withdrawn)` of every utility or bill payment.
    bill_rows: Vec<(usize, &'a str, Decimal)>,
}

/// Adds up `rows` (completed, in reading order, with their categories) in the arithmetic `A`
/// (see [`crate::amount`]): the statement's sums, and each month's into `months`, which start
/// at `cover_start`.
fn row_sums<'a, A: Amount>(
    rows: &[&'a Transaction],
    categories: &[Category],
    cover_start: NaiveDate,
    months: &mut [MonthFigures],
    min_activity_amount: Decimal,
) -> RowSums<'a> {
    let netted = netting::round_trips_in::<A>(rows, categories);
    let free = netting::mirrored_in::<A>(rows, categories, &netted);
    let mut month_sums: Vec<MonthSums<A>> = Vec::with_capacity(months.len());
    month_sums.resize_with(months.len(), MonthSums::default);
    let mut sums = Sums::<A>::default();
    let activity = A::of(min_activity_amount);
    let mut bill_rows: Vec<(usize, &str, Decimal)> = Vec::new();
    for (((t, category), net), free) in rows.iter().zip(categories).zip(&netted).zip(&free) {
        let m = month_index(t.completed_at.date(), cover_start);
        let Some(month) = month_sums.get_mut(m) else {
            continue;
        };
        month.transactions = month.transactions.saturating_add(1);
        sums.add(t, *category, (*net, *free), month, activity);
        if *category == Category::Utilities && A::of(t.withdrawn).minus(*net).is_positive() {
            bill_rows.push((m, t.details.as_str(), t.withdrawn));
        }
    }
    for (figures, sums) in months.iter_mut().zip(&month_sums) {
        sums.write_into(figures);
    }
    let round_trips = netted.iter().fold(A::ZERO, |s, v| s.plus(*v));
    RowSums {
        sums: sums.decimal(),
        round_trip_amount: round_trips.decimal() / Decimal::TWO,
        bill_rows,
    }
}

/// `amount / income`: `Some(0)` without the amount, `Decimal::MAX` with it but no income.
fn of_income(amount: Decimal, income: Decimal) -> Option<Decimal> {
    if amount.is_zero() {
        Some(Decimal::ZERO)
    } else if income <= Decimal::ZERO {
        Some(Decimal::MAX)
    } else {
        ratio(amount, income)
    }
}

/// Net cash flow ratio over `months` (see [`Features::net_cash_flow_ratio`]).
fn net_cash_flow_ratio(income: Decimal, spending: Decimal) -> Option<Decimal> {
    if income.is_zero() {
        Some(if spending.is_zero() {
            Decimal::ZERO
        } else {
            Decimal::NEGATIVE_ONE
        })
    } else {
        ratio(income.saturating_sub(spending), income)
    }
}

/// Computes the features of a statement from its completed rows (see the module rules), with
/// the money edges `thresholds` (a scorecard's, in the statement's currency: the caller checks
/// that the currencies agree, as [`crate::score_with`] does). A statement without completed rows
/// gives [`Features::default`].
pub fn compute(statement: &Statement, thresholds: &Thresholds) -> Features {
    compute_in(statement, None, thresholds)
}

/// [`compute`] in `arithmetic` when the caller knows it for every row of the statement (see
/// [`crate::amount`]), else in the arithmetic of its completed rows.
#[allow(clippy::too_many_lines)] // one assignment per figure, in the struct's order
pub(crate) fn compute_in(
    statement: &Statement,
    arithmetic: Option<Arithmetic>,
    thresholds: &Thresholds,
) -> Features {
    // A report's rows are often in reading order already (`score_bytes` moves them into it).
    let mut rows: Vec<&Transaction> = statement
        .transactions
        .iter()
        .filter(|t| t.is_completed())
        .collect();
    // Times first: rows that share one are few (a payment and its charge).
    let in_order = rows.is_sorted_by(|a, b| match a.completed_at.cmp(&b.completed_at) {
        std::cmp::Ordering::Less => true,
        std::cmp::Ordering::Greater => false,
        std::cmp::Ordering::Equal => sort_key(a) <= sort_key(b),
    });
    if !in_order {
        let completed = rows.iter().copied().enumerate();
        rows = reading_order(completed)
            .into_iter()
            .map(|(_, t)| t)
            .collect();
    }
    // Each row once: exact copies (`check::duplicates` names them) are one row printed twice,
    // adjacent in reading order.
    rows.dedup_by(|copy, kept| kept.same_printed_row(copy));
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
    let cents =
        arithmetic.unwrap_or_else(|| Arithmetic::of(rows.iter().copied())) == Arithmetic::Cents;

    let mut months = empty_months(cover_start, cover_end);
    let RowSums {
        mut sums,
        round_trip_amount,
        bill_rows,
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
            first,
            last,
            sums.spending,
            &credit,
            thresholds.near_zero_balance,
        )
    } else {
        balance_figures::<Decimal>(
            &rows,
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
mod tests;
