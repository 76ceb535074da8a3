//! Named personas for judging the scorecard as a modeller does: statements that differ in one
//! behaviour at a time (docs/scorecard.md, "Personas").
//!
//! Every persona is seeded and deterministic like [`super::generator::synthetic_statement`], lists rows
//! newest first, keeps a consistent running balance, and repays Fuliza the way Safaricom does:
//! the whole debt plus the 1 % access fee, taken from the next inflow.

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use super::generator::{
    Builder, EMPLOYERS, FIRST, LAST, SHOPS, first_of_month_back, tariff_charge,
};
use super::tariff::Service;
use crate::rng::SplitMix64;
use crate::statement::{Period, Statement};

/// A kind of account holder.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PersonaKind {
    /// Paid a salary on the 28th (KES 25,000–60,000), pays power and water every month, spends
    /// at shops, keeps a small balance; never borrows.
    Salaried,
    /// A market trader: customers pay by Send Money and Pochi la Biashara most days, cash is
    /// banked at an agent weekly, stock is bought through Paybill; no salary.
    InformalTrader,
    /// A low salary (KES 12,000–18,000) that does not last the month: Fuliza covers the last
    /// days and is repaid from the next salary.
    FulizaDependent,
    /// A salaried holder who moves a fifth of the salary to M-Shwari each month and keeps a
    /// healthy balance.
    Saver,
    /// A salaried holder who bets most days (a third of spending) and uses Fuliza.
    Gambler,
    /// A farmer paid by a cooperative in two harvest seasons (March–April and August–
    /// September), living on small transfers in between.
    SeasonalFarmer,
}

impl PersonaKind {
    /// Every persona, in documentation order.
    pub const ALL: [PersonaKind; 6] = [
        PersonaKind::Salaried,
        PersonaKind::InformalTrader,
        PersonaKind::FulizaDependent,
        PersonaKind::Saver,
        PersonaKind::Gambler,
        PersonaKind::SeasonalFarmer,
    ];

    /// The persona's name, `snake_case`.
    pub fn name(self) -> &'static str {
        match self {
            PersonaKind::Salaried => "salaried",
            PersonaKind::InformalTrader => "informal_trader",
            PersonaKind::FulizaDependent => "fuliza_dependent",
            PersonaKind::Saver => "saver",
            PersonaKind::Gambler => "gambler",
            PersonaKind::SeasonalFarmer => "seasonal_farmer",
        }
    }
}

/// A persona's statement of `months` calendar months (at least 1) ending on `end` (inclusive),
/// in KES. The same `(kind, seed, months, end)` always gives the same statement.
pub fn persona_statement_until(
    kind: PersonaKind,
    seed: u64,
    months: u32,
    end: NaiveDate,
) -> Statement {
    let mut rng = SplitMix64::new(seed ^ 0x9E45_0A11);
    let income = match kind {
        PersonaKind::FulizaDependent => rng.range(12, 18) * 1_000,
        PersonaKind::InformalTrader | PersonaKind::SeasonalFarmer => rng.range(15, 40) * 1_000,
        _ => rng.range(25, 60) * 1_000,
    };
    let start = first_of_month_back(end, months.max(1) - 1);
    let mut b = Builder {
        rng,
        rows: Vec::new(),
        balance: Decimal::from(500 + seed % 1_500),
        counter: 0,
        auto_repay: true,
        fuliza_owed: Decimal::ZERO,
    };
    let mut day = start;
    while day <= end {
        persona_day(&mut b, kind, income, day);
        day += Duration::days(1);
    }
    super::generator::finish(
        b.rows,
        (seed ^ 0xB2B2, "07001", seed),
        Period { start, end },
    )
}

/// [`persona_statement_until`] ending on 2024-06-30.
pub fn persona_statement(kind: PersonaKind, seed: u64, months: u32) -> Statement {
    let end = NaiveDate::from_ymd_opt(2024, 6, 30).unwrap_or_default();
    persona_statement_until(kind, seed, months, end)
}

fn salary(b: &mut Builder, at: NaiveDateTime, amount: u64) {
    let employer = *b.rng.pick(EMPLOYERS);
    b.credit(
        at,
        format!("Salary Payment from 600{:03} - {employer}", amount % 997),
        amount,
    );
}

fn shop(b: &mut Builder, at: NaiveDateTime, amount: u64, fuliza: bool) {
    let shop = *b.rng.pick(SHOPS);
    b.debit(
        at,
        format!("Merchant Payment to 5{:05} - {shop}", amount % 99_999),
        amount,
        0,
        fuliza,
    );
}

fn bills(b: &mut Builder, day: NaiveDate, fuliza: bool) {
    if day.day() == 5 {
        let at = b.at(day);
        let amount = b.rng.range(800, 2_500);
        b.debit(
            at,
            format!("Pay Bill Online to 888880 - KPLC PREPAID Acc. 54{amount:07}"),
            amount,
            0,
            fuliza,
        );
    }
    if day.day() == 6 {
        let at = b.at(day);
        let amount = b.rng.range(500, 1_200);
        b.debit(
            at,
            "Pay Bill to 444400 - NAIROBI WATER Acc. 1001".to_owned(),
            amount,
            0,
            fuliza,
        );
    }
}

/// Everyday spending of about `monthly` KES a month in one or two rows a day.
fn everyday(b: &mut Builder, day: NaiveDate, monthly: u64, fuliza: bool) {
    let per_day = monthly / 30;
    for _ in 0..b.rng.range(1, 2) {
        let at = b.at(day);
        let amount = b.rng.range(per_day / 3, per_day).max(20);
        match b.rng.range(0, 5) {
            0 => b.debit(
                at,
                "Airtime Purchase".to_owned(),
                amount.min(300),
                0,
                fuliza,
            ),
            1 => {
                let who = *b.rng.pick(FIRST);
                b.debit(
                    at,
                    format!(
                        "Customer Transfer to 2547******{:03} - {who} {}",
                        100 + amount % 900,
                        LAST[1]
                    ),
                    amount,
                    tariff_charge(Service::Send, amount, at),
                    fuliza,
                );
            }
            2 => {
                let amount = amount.max(100).div_ceil(50) * 50;
                b.debit(
                    at,
                    "Customer Withdrawal At Agent Till 12345 - FICTIONAL AGENCIES".to_owned(),
                    amount,
                    tariff_charge(Service::Withdrawal, amount, at),
                    fuliza,
                );
            }
            _ => shop(b, at, amount, fuliza),
        }
    }
}

#[allow(clippy::too_many_lines)] // one arm per persona, read side by side
fn persona_day(b: &mut Builder, kind: PersonaKind, income: u64, day: NaiveDate) {
    match kind {
        PersonaKind::Salaried => {
            if day.day() == 28 {
                let at = b.at(day);
                salary(b, at, income);
            }
            bills(b, day, false);
            everyday(b, day, income * 7 / 10, false);
        }
        PersonaKind::Saver => {
            if day.day() == 28 {
                let at = b.at(day);
                salary(b, at, income);
                let at = at + Duration::hours(1);
                b.debit(at, "M-Shwari Deposit".to_owned(), income / 5, 0, false);
            }
            bills(b, day, false);
            everyday(b, day, income / 2, false);
        }
        PersonaKind::FulizaDependent => {
            if day.day() == 28 {
                let at = b.at(day);
                salary(b, at, income);
            }
            bills(b, day, true);
            everyday(b, day, income * 8 / 10, true);
        }
        PersonaKind::Gambler => {
            if day.day() == 28 {
                let at = b.at(day);
                salary(b, at, income);
            }
            bills(b, day, true);
            everyday(b, day, income * 6 / 10, true);
            if b.rng.chance(70) {
                let at = b.at(day);
                let stake = b.rng.range(income / 200, income / 60).max(50);
                b.debit(
                    at,
                    "Pay Bill Online to 290290 - SportPesa Acc. BET".to_owned(),
                    stake,
                    0,
                    true,
                );
            }
        }
        PersonaKind::InformalTrader => {
            // Takings: customers pay most days, in several small amounts.
            for _ in 0..b.rng.range(0, 3) {
                let at = b.at(day);
                let amount = b.rng.range(income / 90, income / 30).max(50);
                let who = *b.rng.pick(FIRST);
                b.credit(
                    at,
                    format!(
                        "Funds received from 2547******{:03} - {who} {}",
                        100 + amount % 900,
                        LAST[2]
                    ),
                    amount,
                );
            }
            if day.weekday() == chrono::Weekday::Sat {
                let at = b.at(day);
                let amount = b.rng.range(income / 10, income / 5);
                b.credit(
                    at,
                    "Deposit of Funds at Agent Till 12345 - FICTIONAL AGENCIES".to_owned(),
                    amount,
                );
            }
            if day.weekday() == chrono::Weekday::Mon {
                let at = b.at(day);
                let amount = b.rng.range(income / 8, income / 5);
                b.debit(
                    at,
                    "Pay Bill to 522533 - WHOLESALE SUPPLIES Acc. STOCK".to_owned(),
                    amount,
                    0,
                    false,
                );
            }
            bills(b, day, false);
            everyday(b, day, income / 3, false);
        }
        PersonaKind::SeasonalFarmer => {
            let harvest = matches!(day.month(), 3 | 4 | 8 | 9);
            if harvest && day.day() == 15 {
                let at = b.at(day);
                b.credit(
                    at,
                    "Business Payment from 300300 - MAZIWA DAIRY COOP via API".to_owned(),
                    income * 2,
                );
            }
            if b.rng.chance(15) {
                let at = b.at(day);
                let who = *b.rng.pick(FIRST);
                let amount = b.rng.range(200, 1_500);
                b.credit(
                    at,
                    format!(
                        "Funds received from 2547******{:03} - {who} {}",
                        100 + amount % 900,
                        LAST[3]
                    ),
                    amount,
                );
            }
            everyday(b, day, income * 2 / 3, true);
        }
    }
}
