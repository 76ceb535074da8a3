//! One pass over the rows in reading order: which categories count as income, spending and
//! money received, and the statement's and each month's sums in the arithmetic `A` (see
//! [`crate::amount`]).
//!
//! (Over 400 lines: the one pass, the sums and day counts it fills, and the rule for parts of
//! one payment it applies are read together; then the property test of that rule.)

use chrono::NaiveDate;
use rust_decimal::Decimal;

#[cfg(doc)]
use super::Thresholds;
use super::months::month_index;
use super::{MIX_ALWAYS, MonthFigures, netting};
use crate::amount::Amount;
use crate::categorise::Category;
use crate::statement::Transaction;

/// Categories whose money in is not income.
pub(super) const NOT_INCOME: &[Category] = &[
    Category::OwnAccountTransfer,
    Category::Reversal,
    Category::FulizaDraw,
    Category::MobileLoanDisbursement,
    Category::DigitalLoanDisbursement,
    Category::SavingsWithdrawal,
    Category::Betting,
];

/// Categories whose money out is not spending.
pub(super) const NOT_SPENDING: &[Category] = &[
    Category::OwnAccountTransfer,
    Category::SavingsDeposit,
    Category::FulizaRepayment,
    Category::MobileLoanRepayment,
    Category::DigitalLoanRepayment,
    Category::Reversal,
];

/// Categories of money received from people and other wallets.
pub(super) const RECEIVED: &[Category] = &[
    Category::ReceivedMoney,
    Category::SendMoney,
    Category::PochiLaBiashara,
    Category::AgentDeposit,
];

/// The category of a row (prepared statements carry one on every row; a row left
/// uncategorised counts as [`Category::Other`]).
pub(super) fn category_of(t: &Transaction) -> Category {
    if t.category == Category::Uncategorised {
        Category::Other
    } else {
        t.category
    }
}

/// Statement-wide sums and counts of the non-ratio figures, in the arithmetic `A`.
#[derive(Default)]
pub(super) struct Sums<A> {
    pub(super) income: A,
    pub(super) salary: A,
    pub(super) received: A,
    pub(super) spending: A,
    pub(super) fuliza_drawn: A,
    pub(super) fuliza_draws: u32,
    pub(super) fuliza_repaid: A,
    pub(super) fuliza_repayments: u32,
    pub(super) mobile_in: A,
    pub(super) mobile_in_count: u32,
    pub(super) mobile_out: A,
    pub(super) mobile_out_count: u32,
    pub(super) digital_in: A,
    pub(super) digital_in_count: u32,
    pub(super) digital_out: A,
    pub(super) digital_out_count: u32,
    pub(super) betting: A,
    pub(super) cash_out: A,
    pub(super) savings_in: A,
    pub(super) savings_out: A,
    pub(super) own_in: A,
    pub(super) own_out: A,
    pub(super) counted_rows: u32,
    /// Spending in rows below [`Thresholds::min_activity_amount`] other than betting and cash withdrawals:
    /// left out of the spending mix.
    pub(super) token_spending: A,
}

/// The sums of one month that the rows add to, in the arithmetic `A` (the rest of
/// [`MonthFigures`] is derived from them).
#[derive(Default)]
pub(super) struct MonthSums<A> {
    pub(super) transactions: u32,
    pub(super) earned_income: A,
    pub(super) salary_income: A,
    pub(super) bank_in: A,
    pub(super) bank_out: A,
    pub(super) spending: A,
    pub(super) fuliza_drawn: A,
    pub(super) bill_payments: u32,
    pub(super) use_days: u32,
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
        month.use_days = self.use_days;
    }
}

pub(super) fn tally<A: Amount>(sum: &mut A, n: &mut u32, v: A) {
    *sum = sum.plus(v);
    *n = n.saturating_add(1);
}

impl<A: Amount> Sums<A> {
    /// Adds one row; `netted` is the part of it that is a round trip, `free` the part that
    /// moved no money net (see [`netting::mirrored_in`]), `activity` is
    /// [`Thresholds::min_activity_amount`], `part` whether the row is a later part of one
    /// payment (see [`parts_in`]), which is not activity again.
    fn add(
        &mut self,
        t: &Transaction,
        category: Category,
        (netted, free): (A, A),
        month: &mut MonthSums<A>,
        (activity, part): (A, bool),
    ) {
        let pin = A::of(t.paid_in).minus(netted).at_least_zero();
        let wout = A::of(t.withdrawn).minus(netted).at_least_zero();
        let counted = |v: Decimal| A::of(v).minus(free).at_least_zero() >= activity;
        if !part && (counted(t.paid_in) || counted(t.withdrawn)) && category != Category::Betting {
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

/// What one pass over the rows in reading order adds up.
pub(super) struct RowSums<'a> {
    pub(super) sums: Sums<Decimal>,
    /// Money moved in round trips, each direction counted once.
    pub(super) round_trip_amount: Decimal,
    /// `(month index, Details, Withdrawn)` of every utility or bill payment.
    pub(super) bill_rows: Vec<(usize, &'a str, Decimal)>,
    /// The days of use (see [`super::Features::use_days`]).
    pub(super) usage: Usage,
    /// Every arrival of income in reading order: `(day, amount, from a bank)`; earned income
    /// net of round trips, and money in from banks (income only when bank funding is recurrent).
    pub(super) arrivals: Vec<(NaiveDate, Decimal, bool)>,
}

/// The days of use of a statement, counted in reading order (dates never decrease).
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(super) struct Usage {
    /// Days of use.
    pub(super) days: u32,
    /// The first and the last day of use.
    pub(super) first: Option<NaiveDate>,
    pub(super) last: Option<NaiveDate>,
    /// The longest run of days without use between two days of use.
    pub(super) longest_inner_gap: i64,
}

impl Usage {
    /// Records a row of use on `day`; whether `day` is a new day of use.
    fn add(&mut self, day: NaiveDate) -> bool {
        if self.last == Some(day) {
            return false;
        }
        if let Some(last) = self.last {
            self.longest_inner_gap = self.longest_inner_gap.max((day - last).num_days() - 1);
        }
        self.first.get_or_insert(day);
        self.last = Some(day);
        self.days = self.days.saturating_add(1);
        true
    }

    /// The longest run of days from `start` to `end` (inclusive) without a day of use.
    pub(super) fn longest_idle(&self, start: NaiveDate, end: NaiveDate) -> i64 {
        match (self.first, self.last) {
            (Some(first), Some(last)) => self
                .longest_inner_gap
                .max((first - start).num_days())
                .max((end - last).num_days())
                .max(0),
            _ => (end - start).num_days() + 1,
        }
    }
}

/// Minutes within which rows of one category, one direction and one party (the counterparty the
/// wallet names, else the row's text) are parts of one payment: one monthly income paid as 20
/// credits, or a purchase paid in three, is one activity, not twenty or three (issue 49: an
/// income split into 20 credits bought 7 points of Account history on every wallet). Alama's
/// choice, not a wallet's rule: an hour holds a payment made in parts, and no two separate
/// purchases from one shop a day are merged.
pub(super) const PARTS_MINUTES: i64 = 60;

/// Whether each of `rows` (in reading order, so in time order) continues the payment of an
/// earlier row: the same category, direction and party, within [`PARTS_MINUTES`] of the part
/// before it. Rows that moved no money net (`moved` false: round trips, mirrors) are no part of
/// any payment.
///
/// The part before a row is within the hour exactly when some row of its payment is (the last
/// one is the latest), so each row looks back over the rows of the hour before it, which the
/// reading order keeps together: a few rows on a person's statement, where a map of every
/// party's last part cost a third of the features (`callgrind`, 2026-11-28). A till that takes
/// hundreds of payments an hour looks back over each of them; still linear in its rows for any
/// fixed rate.
fn parts_in(rows: &[&Transaction], categories: &[Category], moved: &[bool]) -> Vec<bool> {
    // `(t - previous).num_minutes() <= PARTS_MINUTES` truncates: under one more minute. Times
    // as (seconds, nanoseconds), as the reading order keys them (`statement::reading_order`):
    // chrono's subtraction was a tenth of the features.
    fn instant(t: &Transaction) -> (i64, u32) {
        let at = t.completed_at.and_utc();
        (at.timestamp(), at.timestamp_subsec_nanos())
    }
    fn party(t: &Transaction) -> &str {
        t.counterparty.as_deref().unwrap_or(t.details.as_str())
    }
    let credit = |t: &Transaction| t.paid_in.is_sign_positive() && !t.paid_in.is_zero();
    let mut first_in_hour = 0;
    (0..rows.len())
        .map(|i| {
            if !moved[i] {
                return false;
            }
            let t = rows[i];
            let (seconds, nanos) = instant(t);
            let after = (seconds - (PARTS_MINUTES + 1) * 60, nanos);
            while instant(rows[first_in_hour]) <= after {
                first_in_hour += 1;
            }
            (first_in_hour..i).rev().any(|j| {
                moved[j]
                    && categories[j] == categories[i]
                    && credit(rows[j]) == credit(t)
                    && party(rows[j]) == party(t)
            })
        })
        .collect()
}

/// Adds up `rows` (completed, in reading order, with their categories) in the arithmetic `A`
/// (see [`crate::amount`]): the statement's sums, and each month's into `months`, which start
/// at `cover_start`.
pub(super) fn row_sums<'a, A: Amount>(
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
    let mut usage = Usage::default();
    let mut arrivals = Vec::new();
    let moved: Vec<bool> = netted
        .iter()
        .zip(&free)
        .map(|(n, f)| !n.is_positive() && !f.is_positive())
        .collect();
    let parts = parts_in(rows, categories, &moved);
    for ((((t, category), net), free), part) in rows
        .iter()
        .zip(categories)
        .zip(&netted)
        .zip(&free)
        .zip(&parts)
    {
        let day = t.completed_at.date();
        let m = month_index(day, cover_start);
        let Some(month) = month_sums.get_mut(m) else {
            continue;
        };
        month.transactions = month.transactions.saturating_add(1);
        sums.add(t, *category, (*net, *free), month, (activity, *part));
        if *category == Category::Utilities && A::of(t.withdrawn).minus(*net).is_positive() {
            bill_rows.push((m, t.details.as_str(), t.withdrawn));
        }
        // A day of use: money out the holder moved, of at least the activity amount.
        if *category != Category::Betting
            && A::of(t.withdrawn).minus(*free).at_least_zero() >= activity
            && usage.add(day)
        {
            month.use_days = month.use_days.saturating_add(1);
        }
        let pin = A::of(t.paid_in).minus(*net).at_least_zero();
        if pin.is_positive() {
            if !NOT_INCOME.contains(category) {
                arrivals.push((day, pin.decimal(), false));
            } else if *category == Category::OwnAccountTransfer {
                arrivals.push((day, pin.decimal(), true));
            }
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
        usage,
        arrivals,
    }
}

#[cfg(test)]
mod tests {
    use chrono::{NaiveDate, TimeDelta};

    use super::*;

    proptest::proptest! {
        /// The look back over the hour is the rule as written: a row is a part when the last
        /// earlier moved row of its category, direction and party is under 61 minutes before it.
        #[test]
        fn parts_are_rows_within_the_hour_of_their_payments_last_part(
            rows in proptest::collection::vec((0i64..400, 0u8..3, 0u8..2, 0u8..3, proptest::bool::ANY), 0..60)
        ) {
            let start = NaiveDate::from_ymd_opt(2024, 1, 1).and_then(|d| d.and_hms_opt(8, 0, 0)).unwrap_or_default();
            let mut rows = rows;
            rows.sort_by_key(|r| r.0);
            let mut txs: Vec<Transaction> = rows
                .iter()
                .map(|&(minutes, party, credit, _, _)| Transaction {
                    completed_at: start + TimeDelta::minutes(minutes) + TimeDelta::seconds(i64::from(party) * 7),
                    counterparty: Some(format!("P{party}")),
                    paid_in: Decimal::from(credit),
                    withdrawn: Decimal::from(1 - credit),
                    ..Transaction::empty()
                })
                .collect();
            txs.sort_by_key(|t| t.completed_at);
            let refs: Vec<&Transaction> = txs.iter().collect();
            let categories: Vec<Category> = rows
                .iter()
                .map(|r| if r.3 == 0 { Category::SendMoney } else { Category::ReceivedMoney })
                .collect();
            let moved: Vec<bool> = rows.iter().map(|r| r.4).collect();
            let mut last: std::collections::HashMap<(Category, bool, String), chrono::NaiveDateTime> =
                std::collections::HashMap::new();
            let expected: Vec<bool> = refs
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    if !moved[i] {
                        return false;
                    }
                    let key = (categories[i], t.paid_in > Decimal::ZERO, t.counterparty.clone().unwrap_or_default());
                    last.insert(key, t.completed_at)
                        .is_some_and(|p| (t.completed_at - p).num_minutes() <= PARTS_MINUTES)
                })
                .collect();
            proptest::prop_assert_eq!(parts_in(&refs, &categories, &moved), expected);
        }
    }
}
