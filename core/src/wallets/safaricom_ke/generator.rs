//! Safaricom M-Pesa's seeded synthetic statement (feature `testing`): Details in Safaricom's
//! wording, a consistent running balance, Fuliza draws when the wallet runs dry, charge rows
//! that share the receipt of their payment, a few failed rows, a SUMMARY that totals the
//! completed rows; every person and business invented. The same `(seed, months)` always gives
//! the same statement, on every platform (`crate::rng::SplitMix64`).
//!
//! (Over 400 lines: one builder writes the statement row by row, each row's balance, Fuliza
//! draw and charge row depending on the rows before; split, its halves would share its state.)

use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime, NaiveTime};
use rust_decimal::Decimal;

use super::tariff::Service;
use crate::categorise::Category;
use crate::rng::SplitMix64;
use crate::statement::{
    AccountHolder, Period, Statement, Summary, SummaryRow, Transaction, TransactionStatus,
};

/// The traits of the invented account holder, drawn from the seed.
#[derive(Debug, Clone, Copy)]
#[allow(clippy::struct_excessive_bools)] // independent yes/no traits of a persona
struct Persona {
    salaried: bool,
    monthly_income: u64,
    volatility_percent: u64,
    fuliza_user: bool,
    bettor: bool,
    pays_bills: bool,
    saver: bool,
    daily_spend_rows: u64,
}

pub(super) const FIRST: &[&str] = &[
    "AMANI",
    "WANJIRU",
    "OTIENO",
    "KAMAU",
    "AKINYI",
    "MUTUA",
    "NJERI",
    "KIPROTICH",
];
pub(super) const LAST: &[&str] = &["TESTMAN", "SAMPLEY", "EXEMPLA", "DEMOVA", "FIXTURA"];
pub(super) const SHOPS: &[&str] = &[
    "MAMA MBOGA STORES",
    "UMOJA SUPERMARKET",
    "KIJIJI HARDWARE",
    "RIVERSIDE CHEMIST",
];
pub(super) const EMPLOYERS: &[&str] = &[
    "JUA KALI WORKS LTD",
    "SAVANNAH LOGISTICS LTD",
    "MAZIWA DAIRY COOP",
];

/// Builds a synthetic statement of `months` months (at least 1) ending on 2024-06-30.
///
/// Amounts are KES with two decimal places; transactions are listed newest first, as
/// Safaricom does. The SUMMARY's TOTAL equals the completed rows, so the statement reconciles.
pub fn synthetic_statement(seed: u64, months: u32) -> Statement {
    let mut rng = SplitMix64::new(seed);
    let persona = Persona {
        salaried: rng.chance(55),
        monthly_income: rng.range(8, 120) * 1_000,
        volatility_percent: rng.range(5, 70),
        fuliza_user: rng.chance(50),
        bettor: rng.chance(30),
        pays_bills: rng.chance(70),
        saver: rng.chance(40),
        daily_spend_rows: rng.range(1, 4),
    };
    let months = months.max(1);
    let end = NaiveDate::from_ymd_opt(2024, 6, 30).unwrap_or_default();
    let start = first_of_month_back(end, months - 1);
    let mut b = Builder {
        rng,
        rows: Vec::new(),
        balance: Decimal::from(rng_start_balance(seed)),
        counter: 0,
        auto_repay: false,
        fuliza_owed: Decimal::ZERO,
    };
    let mut day = start;
    while day <= end {
        b.day(day, &persona);
        day += Duration::days(1);
    }
    finish(
        b.rows,
        (seed ^ 0xA1A1, "07000", seed),
        Period { start, end },
    )
}

/// A generated statement around `rows` (oldest first): listed newest first, with an invented
/// holder drawn from `(name_seed, phone_prefix, phone_seed)`, the period, and a SUMMARY that
/// totals the completed rows.
pub(super) fn finish(
    mut transactions: Vec<Transaction>,
    (name_seed, phone_prefix, phone_seed): (u64, &str, u64),
    period: Period,
) -> Statement {
    transactions.reverse();
    let (paid_in, paid_out) = transactions
        .iter()
        .filter(|t| t.is_completed())
        .fold((Decimal::ZERO, Decimal::ZERO), |(i, o), t| {
            (i + t.paid_in, o + t.withdrawn)
        });
    let mut name_rng = SplitMix64::new(name_seed);
    Statement {
        provider: super::WALLET.provider(),
        holder: AccountHolder {
            name: Some(format!("{} {}", name_rng.pick(FIRST), name_rng.pick(LAST))),
            mobile_number: Some(format!("{phone_prefix}{:05}", phone_seed % 100_000)),
            email: None,
        },
        currency: "KES".to_owned(),
        currency_exponent: None,
        period: Some(period),
        requested_at: Some(period.end + Duration::days(1)),
        summary: Some(Summary {
            rows: Vec::new(),
            total: SummaryRow {
                transaction_type: "TOTAL".to_owned(),
                paid_in,
                paid_out,
            },
        }),
        transactions,
        document: None,
        unparsed: Vec::new(),
        source: None,
        country: None,
        time_zone: None,
        balances: None,
    }
}

fn rng_start_balance(seed: u64) -> u64 {
    SplitMix64::new(seed ^ 0x5EED).range(0, 3_000)
}

pub(super) fn first_of_month_back(date: NaiveDate, months_back: u32) -> NaiveDate {
    let total = i64::from(date.year()) * 12 + i64::from(date.month0()) - i64::from(months_back);
    let year = i32::try_from(total.div_euclid(12)).unwrap_or(date.year());
    NaiveDate::from_ymd_opt(year, total.rem_euclid(12) as u32 + 1, 1).unwrap_or(date)
}

pub(super) struct Builder {
    pub(super) rng: SplitMix64,
    pub(super) rows: Vec<Transaction>,
    pub(super) balance: Decimal,
    pub(super) counter: u64,
    /// Repay Fuliza the way Safaricom does: the whole debt, fee included, from the next inflow.
    /// Off for [`synthetic_statement`] (whose output is fixed by the golden vectors).
    pub(super) auto_repay: bool,
    /// Fuliza owed, fee included (only tracked with `auto_repay`).
    pub(super) fuliza_owed: Decimal,
}

impl Builder {
    /// A receipt made at `at`: Safaricom's code of its day (`super::receipt`), then seven
    /// letters and digits.
    pub(super) fn receipt(&mut self, at: NaiveDateTime) -> String {
        const ALNUM: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ0123456789";
        self.counter += 1;
        let mut tail = String::with_capacity(7);
        let mut x = self.rng.next_u64() ^ self.counter;
        for _ in 0..7 {
            tail.push(ALNUM[(x % ALNUM.len() as u64) as usize] as char);
            x /= ALNUM.len() as u64;
        }
        super::receipt::receipt_at(at, &tail)
    }

    pub(super) fn push(
        &mut self,
        receipt: &str,
        at: NaiveDateTime,
        details: String,
        amount: Decimal,
        status: TransactionStatus,
    ) {
        let amount = crate::money::cents(amount);
        let completed = status == TransactionStatus::Completed;
        if completed {
            self.balance += amount;
        }
        self.rows.push(Transaction {
            receipt_no: receipt.to_owned(),
            completed_at: at,
            details,
            status,
            paid_in: if amount > Decimal::ZERO {
                amount
            } else {
                crate::money::cents(Decimal::ZERO)
            },
            withdrawn: if amount < Decimal::ZERO {
                -amount
            } else {
                crate::money::cents(Decimal::ZERO)
            },
            balance: Some(crate::money::cents(self.balance)),
            category: crate::Category::Uncategorised,
            ..crate::statement::Transaction::empty()
        });
    }

    /// An inflow.
    pub(super) fn credit(&mut self, at: NaiveDateTime, details: String, amount: u64) {
        let r = self.receipt(at);
        self.push(
            &r,
            at,
            details,
            Decimal::from(amount),
            TransactionStatus::Completed,
        );
        self.repay_fuliza(at);
    }

    /// With `auto_repay`, repays as much of the Fuliza debt as the balance allows, right after
    /// an inflow (Safaricom deducts it automatically).
    pub(super) fn repay_fuliza(&mut self, at: NaiveDateTime) {
        if !self.auto_repay || self.fuliza_owed <= Decimal::ZERO || self.balance <= Decimal::ZERO {
            return;
        }
        let pay = crate::money::cents(self.fuliza_owed.min(self.balance));
        self.fuliza_owed -= pay;
        let r = self.receipt(at);
        self.push(
            &r,
            at,
            "OD Loan Repayment to 232323 - M-PESA Overdraw".to_owned(),
            -pay,
            TransactionStatus::Completed,
        );
    }

    /// An outflow with an optional charge row on the same receipt; draws Fuliza when short.
    pub(super) fn debit(
        &mut self,
        at: NaiveDateTime,
        details: String,
        amount: u64,
        charge: u64,
        fuliza: bool,
    ) {
        let r = self.receipt(at);
        let need = Decimal::from(amount + charge);
        if self.rng.chance(2) {
            self.push(
                &r,
                at,
                details,
                -Decimal::from(amount),
                TransactionStatus::Failed,
            );
            return;
        }
        if self.balance < need {
            if !fuliza {
                return;
            }
            let draw = need - self.balance;
            if self.auto_repay {
                // Fuliza's 1 % access fee (Safaricom's Fuliza tariff), owed with the draw.
                self.fuliza_owed += crate::money::cents(draw * Decimal::new(101, 2));
            }
            self.push(
                &r,
                at,
                "OverDraft of Credit Party".to_owned(),
                draw,
                TransactionStatus::Completed,
            );
        }
        self.push(
            &r,
            at,
            details.clone(),
            -Decimal::from(amount),
            TransactionStatus::Completed,
        );
        if charge > 0 {
            let label = if details.starts_with("Customer Withdrawal") {
                "Withdrawal Charge"
            } else if details.starts_with("Pay Bill") {
                "Pay Bill Charge"
            } else {
                "Customer Transfer of Funds Charge"
            };
            self.push(
                &r,
                at,
                label.to_owned(),
                -Decimal::from(charge),
                TransactionStatus::Completed,
            );
        }
    }

    pub(super) fn at(&mut self, day: NaiveDate) -> NaiveDateTime {
        let secs = self.rng.range(6 * 3600, 22 * 3600) as u32;
        let t = day
            .and_time(NaiveTime::from_num_seconds_from_midnight_opt(secs, 0).unwrap_or_default());
        if !self.auto_repay {
            return t;
        }
        // Personas take their events in the order they draw them, so their clock only moves on.
        let t = match self.rows.last() {
            Some(r) if r.completed_at >= t => r.completed_at + Duration::minutes(1),
            _ => t,
        };
        t.min(day.and_hms_opt(23, 59, 59).unwrap_or(t))
    }

    fn day(&mut self, day: NaiveDate, p: &Persona) {
        let mut events: Vec<(NaiveDateTime, u8)> = Vec::new();
        if day.day() == 28 {
            events.push((self.at(day), 0)); // salary or business takings
        }
        if !p.salaried && self.rng.chance(25) {
            events.push((self.at(day), 1)); // received money
        }
        for _ in 0..self.rng.range(1, p.daily_spend_rows + 1) {
            events.push((self.at(day), 2)); // everyday spending
        }
        if day.day() == 5 && p.pays_bills {
            events.push((self.at(day), 3)); // utilities
        }
        if p.bettor && self.rng.chance(20) {
            events.push((self.at(day), 4));
        }
        if p.saver && day.day() == 29 {
            events.push((self.at(day), 5));
        }
        if p.fuliza_user && day.day() == 29 {
            events.push((self.at(day), 6)); // Fuliza repayment
        }
        events.sort();
        for (at, kind) in events {
            self.event(at, kind, p);
        }
    }

    fn event(&mut self, at: NaiveDateTime, kind: u8, p: &Persona) {
        let swing = p.monthly_income * p.volatility_percent / 100;
        match kind {
            0 if p.salaried => {
                let employer = *self.rng.pick(EMPLOYERS);
                let amount = p.monthly_income + self.rng.range(0, swing / 4 + 1);
                self.credit(
                    at,
                    format!("Salary Payment from 600{:03} - {employer}", amount % 997),
                    amount,
                );
            }
            0 | 1 => {
                let amount = (p.monthly_income / 8).max(100) + self.rng.range(0, swing / 3 + 1);
                let who = *self.rng.pick(FIRST);
                self.credit(
                    at,
                    format!(
                        "Funds received from 2547******{:03} - {who} {}",
                        amount % 1000,
                        LAST[0]
                    ),
                    amount,
                );
            }
            2 => self.spend(at, p),
            3 => {
                let amount = self.rng.range(500, 2_500);
                let details = if self.rng.chance(50) {
                    format!("Pay Bill Online to 888880 - KPLC PREPAID Acc. 54{amount:07}")
                } else {
                    "Pay Bill to 444400 - NAIROBI WATER Acc. 1001".to_owned()
                };
                self.debit(at, details, amount, 0, p.fuliza_user);
            }
            4 => {
                let amount = self.rng.range(50, 1_000);
                if self.rng.chance(15) {
                    self.credit(
                        at,
                        "Business Payment from 290290 - SportPesa via API".to_owned(),
                        amount * 3,
                    );
                } else {
                    self.debit(
                        at,
                        "Pay Bill Online to 290290 - SportPesa Acc. BET".to_owned(),
                        amount,
                        0,
                        p.fuliza_user,
                    );
                }
            }
            5 => {
                let amount = (p.monthly_income / 10).max(200);
                self.debit(at, "M-Shwari Deposit".to_owned(), amount, 0, false);
            }
            _ => {
                let owed = self.rng.range(100, 2_000);
                self.debit(
                    at,
                    "OD Loan Repayment to 232323 - M-PESA Overdraw".to_owned(),
                    owed,
                    0,
                    false,
                );
            }
        }
    }

    fn spend(&mut self, at: NaiveDateTime, p: &Persona) {
        // About the month's income spent in everyday rows: mean rows a day is (k + 2) / 2.
        let budget = p.monthly_income * 2 / 30 / (p.daily_spend_rows + 2);
        let amount = self.rng.range(20, budget.max(60) * 2);
        match self.rng.range(0, 9) {
            0 | 1 => {
                let shop = *self.rng.pick(SHOPS);
                self.debit(
                    at,
                    format!("Merchant Payment to 5{:05} - {shop}", amount % 99_999),
                    amount,
                    0,
                    p.fuliza_user,
                );
            }
            2 => self.debit(
                at,
                "Customer Payment to Small Business to 2547******123 - MAMA PIMA".to_owned(),
                amount,
                0,
                p.fuliza_user,
            ),
            3 => self.debit(
                at,
                "Airtime Purchase".to_owned(),
                amount.min(500),
                0,
                p.fuliza_user,
            ),
            4 => {
                let amount = amount.max(100).div_ceil(50) * 50;
                self.debit(
                    at,
                    "Customer Withdrawal At Agent Till 12345 - FICTIONAL AGENCIES".to_owned(),
                    amount,
                    tariff_charge(Service::Withdrawal, amount, at),
                    p.fuliza_user,
                );
            }
            5 => {
                let who = *self.rng.pick(FIRST);
                self.debit(
                    at,
                    format!(
                        "Customer Transfer to 2547******{:03} - {who} {}",
                        amount % 1000,
                        LAST[1]
                    ),
                    amount,
                    tariff_charge(Service::Send, amount, at),
                    p.fuliza_user,
                );
            }
            6 if self.rng.chance(30) => {
                self.credit(
                    at,
                    "Deposit of Funds at Agent Till 12345 - FICTIONAL AGENCIES".to_owned(),
                    amount * 4,
                );
            }
            _ => {
                let shop = *self.rng.pick(SHOPS);
                self.debit(
                    at,
                    format!(
                        "Merchant Payment Online to 5{:05} - {shop}",
                        amount % 99_999
                    ),
                    amount,
                    0,
                    p.fuliza_user,
                );
            }
        }
    }
}

/// The charge, whole shillings, Safaricom's tariff ([`super::tariff`]) sets on a `service` of
/// `amount` shillings at `at`; a day before the tariff's first table is charged by that table.
pub(super) fn tariff_charge(service: Service, amount: u64, at: NaiveDateTime) -> u64 {
    let amount = u32::try_from(amount).unwrap_or(u32::MAX);
    super::tariff::charge(service, amount, at.date())
        .or_else(|| super::tariff::charge(service, amount, super::tariff::FROM))
        .map_or(0, u64::from)
}

/// A row's text in Safaricom's words (2023+ layout: the masked number after the dash).
#[allow(clippy::unnecessary_wraps)] // `Generator::words`'s signature: a wallet that prints fees inside their rows writes a charge as no row
pub(super) fn words(
    category: Category,
    party: &crate::wallets::Party,
) -> Option<crate::wallets::Words> {
    let person = format!("2547******{} {}", &party.digits[5..], party.name);
    let details = match category {
        Category::SendMoney => format!("Customer Transfer to - {person}"),
        Category::ReceivedMoney => format!("Funds received from - {person}"),
        Category::PochiLaBiashara => {
            format!("Customer Send Money to Micro SME Business to - {person}")
        }
        Category::AgentDeposit => "Deposit of Funds at Agent Till 12345 - TEST AGENCY".into(),
        Category::AgentWithdrawal => "Customer Withdrawal At Agent Till 12345 - TEST AGENCY".into(),
        Category::Paybill => "Pay Bill Online to 700700 - TEST TRADERS Acc. 1001".into(),
        Category::BuyGoods => "Merchant Payment to 512345 - TEST SHOP".into(),
        Category::AirtimeAndBundles => "Airtime Purchase".into(),
        Category::FulizaDraw => "OverDraft of Credit Party".into(),
        Category::FulizaRepayment => "OD Loan Repayment to 232323 - M-PESA Overdraw".into(),
        Category::MobileLoanDisbursement => "M-Shwari Loan Disburse".into(),
        Category::MobileLoanRepayment => "M-Shwari Loan Repayment".into(),
        Category::DigitalLoanDisbursement => {
            "Business Payment from 123456 - TALA KENYA via API".into()
        }
        Category::DigitalLoanRepayment => "Pay Bill Online to 851900 - TALA KENYA Acc. 1".into(),
        Category::SavingsDeposit => "M-Shwari Deposit".into(),
        Category::SavingsWithdrawal => "M-Shwari Withdraw".into(),
        Category::Betting => "Pay Bill Online to 290290 - SportPesa Acc. 1".into(),
        Category::Utilities => "Pay Bill Online to 888880 - KPLC PREPAID Acc. 1".into(),
        Category::SalaryAndBusinessPayments => {
            "Salary Payment from 600123 - TEST EMPLOYER LTD".into()
        }
        Category::Charges => "Customer Transfer of Funds Charge".into(),
        Category::Reversal => "Reversal of transaction".into(),
        Category::OwnAccountTransfer => "Pay Bill Online to 247247 - Equity Bank Acc. 1".into(),
        _ => String::new(),
    };
    Some(crate::wallets::Words {
        details,
        transaction_type: None,
        category: if category == Category::Uncategorised {
            Category::Other
        } else {
            category
        },
    })
}

/// A synthetic statement with exactly `rows` rows (the newest `rows` of a long enough history),
/// for benchmarks that need a given size, e.g. a 5,000-row CSV.
pub fn synthetic_statement_with_rows(seed: u64, rows: usize) -> Statement {
    let mut months = 1;
    loop {
        let mut s = synthetic_statement(seed, months);
        if s.transactions.len() >= rows || months >= 1200 {
            s.transactions.truncate(rows);
            if let (Some(last), Some(p)) = (s.transactions.last(), s.period.as_mut()) {
                p.start = last.completed_at.date();
            }
            s.summary = None;
            return s;
        }
        months = (months * 2).max(months + 1);
    }
}

/// A Safaricom CSV export of `rows` rows (the canonical CSV: no header, no SUMMARY) and the
/// statement it holds.
pub(super) fn file(seed: u64, rows: usize) -> crate::wallets::synthetic::Synthetic {
    let full = synthetic_statement_with_rows(seed, rows);
    let expected = Statement {
        currency: full.currency.clone(),
        transactions: full.transactions,
        ..Statement::default()
    };
    crate::wallets::synthetic::Synthetic {
        bytes: export(&expected),
        expected,
    }
}

/// Safaricom's CSV export of `statement`'s rows: `Receipt No, Completion Time, Details,
/// Transaction Status, Paid In, Withdrawn, Balance`, newest first as the statement lists them.
fn export(statement: &Statement) -> Vec<u8> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let header = [
        "Receipt No",
        "Completion Time",
        "Details",
        "Transaction Status",
        "Paid In",
        "Withdrawn",
        "Balance",
    ];
    let _ = w.write_record(header);
    for t in &statement.transactions {
        let amount = |d: Decimal| {
            if d.is_zero() {
                String::new()
            } else {
                d.to_string()
            }
        };
        let _ = w.write_record([
            t.receipt_no.clone(),
            t.completed_at.format("%Y-%m-%d %H:%M:%S").to_string(),
            t.details.clone(),
            t.status.as_word().to_owned(),
            amount(t.paid_in),
            amount(t.withdrawn),
            t.balance.map(|b| b.to_string()).unwrap_or_default(),
        ]);
    }
    w.into_inner().unwrap_or_default()
}
