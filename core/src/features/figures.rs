//! The figures the features give: [`Features`], statement-wide, and [`MonthFigures`], per
//! calendar month (see the rules in [`super`]).

use chrono::NaiveDate;
use rust_decimal::Decimal;

use super::credit;
#[cfg(doc)]
use super::{
    MAX_BUFFER_DAYS, MIN_FULL_MONTHS, RECENT_FULL_MONTHS, Thresholds, USE_DAYS_PER_MONTH, netting,
    recency,
};

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
    /// Days of use in the month: days with a row of money out that is activity (see
    /// [`Features::use_days`]).
    pub use_days: u32,
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
    /// Days of use: days with at least one row of money out (a payment, transfer, withdrawal,
    /// deposit to savings or repayment the holder made) of at least
    /// [`Thresholds::min_activity_amount`] once what a mirror undid is taken off, betting
    /// excepted. Money in does not count: others send it, and one income split into many
    /// credits is the same income (issue 49).
    pub use_days: u32,
    /// Share of full months in which the wallet was used on at least [`USE_DAYS_PER_MONTH`]
    /// days; `None` below [`MIN_FULL_MONTHS`] full months.
    pub use_month_share: Option<Decimal>,
    /// The longest run of covered days without a day of use, the days before the first and
    /// after the last day of use included (all covered days without any), days.
    pub longest_idle_days: u32,

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
    /// [`Features::income_month_share`] with the latest [`RECENT_FULL_MONTHS`] full months
    /// counting twice (issue 51: a month without income just before the request says more
    /// than one a year before); `None` below [`MIN_FULL_MONTHS`] full months.
    pub recent_income_month_share: Option<Decimal>,
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
    /// The holder's pay cycle: the median number of days between income days, at least a week
    /// (see [`recency`]); `None` with fewer than [`recency::MIN_INCOME_DAYS`] income days.
    pub pay_cycle_days: Option<Decimal>,
    /// The last income day (see [`recency`]); `None` without one.
    pub last_income_event: Option<NaiveDate>,
    /// Pay cycles since the last income: days from the last income day to the last day the
    /// statement covers ÷ [`Features::pay_cycle_days`]; `None` when the cycle is not measured.
    /// Up to 1.5 the next income is not yet due (half a cycle of grace); above it, an expected
    /// income has not arrived by the request date.
    pub cycles_since_income: Option<Decimal>,

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
