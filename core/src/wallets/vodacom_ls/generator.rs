//! The synthetic Vodacom M-Pesa Lesotho (PDF) statement.

use chrono::Duration;
use rust_decimal::Decimal;

use crate::categorise::Category;
use crate::pdf::writer::{Canvas, document, wrap};
use crate::rng::SplitMix64;
use crate::statement::{AccountHolder, Statement, Transaction};
use crate::wallets::synthetic::{Synthetic, day, money};

const VODACOM_X: [f64; 6] = [32.0, 121.0, 210.0, 299.0, 388.0, 477.0];
const VODACOM_SIZE: f64 = 7.0;
/// The synthetic holder: a number that sorts before every counterparty of the generator.
const VODACOM_HOLDER: &str = "10000000000";

/// A Vodacom M-Pesa Lesotho statement PDF of `rows` rows (from July 2024, newest first).
pub fn vodacom_statement(seed: u64, rows: usize) -> Synthetic {
    let mut rng = SplitMix64::new(seed);
    let mut balance = money(&mut rng, 0, 500, true);
    let mut time = day(2024, 7, 2).and_hms_opt(6, 0, 0).unwrap_or_default();
    // Oldest first while drawing up; (row, From, To).
    let mut drawn: Vec<(Transaction, String, String)> = Vec::with_capacity(rows);
    for _ in 0..rows {
        time += Duration::seconds(i64::try_from(rng.range(60, 20_000)).unwrap_or(60));
        let cents = rng.chance(50);
        let amount = money(&mut rng, 1, 400, cents);
        let incoming = rng.chance(40) || amount > balance;
        let party = format!("2665{:07}", rng.range(0, 9_999_999));
        let till = format!("{}", rng.range(300_000, 999_999));
        let (details, from, to) = if incoming {
            let forms = [
                (
                    format!("Funds received from {party} - JOHN ROE"),
                    party.clone(),
                ),
                (
                    format!("Deposit of Funds at Agent Till {till} - Test Snack Bar"),
                    till.clone(),
                ),
                (
                    "Overdraft Payment from 72957 - Redeem Financial Services".to_owned(),
                    "72957".to_owned(),
                ),
            ];
            let (d, f) = rng.pick(&forms).clone();
            (d, f, VODACOM_HOLDER.to_owned())
        } else {
            let forms = [
                (
                    format!("Customer Withdrawal At Agent Till {till} - Test Shop"),
                    till.clone(),
                ),
                ("Airtime Purchase".to_owned(), String::new()),
                ("TwoPartPaybill".to_owned(), String::new()),
                (
                    format!("Customer Transfer to {party} - JANE DOE"),
                    party.clone(),
                ),
                ("Withdrawal Charge".to_owned(), String::new()),
            ];
            let (d, t) = rng.pick(&forms).clone();
            (d, VODACOM_HOLDER.to_owned(), t)
        };
        let (paid_in, withdrawn) = if incoming {
            (amount, Decimal::ZERO)
        } else {
            (Decimal::ZERO, amount)
        };
        balance += paid_in - withdrawn;
        let row = Transaction {
            completed_at: time,
            details,
            paid_in,
            withdrawn,
            balance: Some(balance),
            ..Transaction::empty()
        };
        drawn.push((row, from, to));
    }
    drawn.reverse();
    let bytes = document(vodacom_pages(&drawn), "iText 2.1.7 by 1T3XT", "");
    let expected = Statement {
        provider: super::WALLET.provider(),
        holder: AccountHolder {
            mobile_number: (!drawn.is_empty()).then(|| VODACOM_HOLDER.to_owned()),
            ..AccountHolder::default()
        },
        currency: "LSL".to_owned(),
        currency_exponent: None,
        country: Some("LS".to_owned()),
        time_zone: Some("Africa/Maseru".to_owned()),
        transactions: drawn.into_iter().map(|(t, _, _)| t).collect(),
        ..Statement::default()
    };
    Synthetic { bytes, expected }
}

fn vodacom_header(c: &mut Canvas, top: f64) {
    let labels = [
        "Transaction Date",
        "From",
        "To",
        "Transaction Amount",
        "Balance",
        "Description",
    ];
    for (x, label) in VODACOM_X.iter().zip(labels) {
        c.text(*x, top, VODACOM_SIZE, label);
    }
}

fn vodacom_footer(c: &mut Canvas, page: usize) {
    c.text(32.0, 820.0, 6.0, "(c) 2021 Vodacom Lesotho");
    c.text(500.0, 828.0, 6.0, &page.to_string());
}

fn vodacom_pages(rows: &[(Transaction, String, String)]) -> Vec<Canvas> {
    let mut pages = Vec::new();
    let mut c = Canvas::default();
    c.text(32.0, 86.0, 10.0, super::pdf::TITLE);
    vodacom_header(&mut c, 130.0);
    let mut top = 147.0;
    for (t, from, to) in rows {
        let lines = wrap(&t.details, 20);
        let height = 10.0 * lines.len().max(2) as f64 + 7.0;
        if top + height > 800.0 {
            vodacom_footer(&mut c, pages.len() + 1);
            pages.push(std::mem::take(&mut c));
            vodacom_header(&mut c, 82.0);
            top = 99.0;
        }
        let x = VODACOM_X;
        let size = VODACOM_SIZE;
        let stamp = t.completed_at.format("%Y-%m-%dT%H:%M:%S").to_string();
        let (date, rest) = stamp.split_at(8);
        c.text(x[0], top, size, date);
        c.text(x[0], top + 10.0, size, rest);
        c.text(x[1], top, size, from);
        c.text(x[2], top, size, to);
        let amount = t.paid_in.max(t.withdrawn).normalize();
        c.text(x[3], top, size, &amount.to_string());
        c.text(
            x[4],
            top,
            size,
            &t.balance.unwrap_or_default().normalize().to_string(),
        );
        for (n, line) in lines.iter().enumerate() {
            c.text(x[5], top + 10.0 * n as f64, size, line);
        }
        top += height;
    }
    vodacom_footer(&mut c, pages.len() + 1);
    pages.push(c);
    pages
}

/// A row's text in Vodacom M-Pesa Lesotho's words (the M-Pesa platform's, as Safaricom's). Its
/// table reads no salary, savings or digital-loan rows of their own: a salary is money
/// received, savings and bank transfers go through the National Payment Switch, a digital
/// loan is an M-Pesa Advance.
#[allow(clippy::unnecessary_wraps)] // `Generator::words`'s signature: a wallet that prints fees inside their rows writes a charge as no row
pub(super) fn words(
    category: Category,
    party: &crate::wallets::Party,
) -> Option<crate::wallets::Words> {
    let person = format!("266{} - {}", party.digits, party.name);
    let (details, category) = match category {
        Category::SendMoney | Category::PochiLaBiashara => (
            format!("Customer Transfer to {person}"),
            Category::SendMoney,
        ),
        Category::ReceivedMoney | Category::SalaryAndBusinessPayments => (
            format!("Funds received from {person}"),
            Category::ReceivedMoney,
        ),
        Category::AgentDeposit => (
            "Deposit of Funds at Agent Till 300123 - Test Snack Bar".to_owned(),
            category,
        ),
        Category::AgentWithdrawal => (
            "Customer Withdrawal At Agent Till 300123 - Test Shop".to_owned(),
            category,
        ),
        Category::Paybill => ("Payment to 12345 - Test Academy".to_owned(), category),
        Category::BuyGoods => ("PayMerchant to 54321 - Test Shop".to_owned(), category),
        Category::AirtimeAndBundles => ("Airtime Purchase".to_owned(), category),
        Category::FulizaDraw => (
            "Overdraft Payment from 72957 - Redeem Financial Services".to_owned(),
            category,
        ),
        Category::FulizaRepayment => (
            "Customer Overdraft Payment to 72957 - Redeem Financial Services".to_owned(),
            category,
        ),
        Category::MobileLoanDisbursement | Category::DigitalLoanDisbursement => (
            "M-Pesa Advance Payment from 12345 - Test Lender".to_owned(),
            Category::MobileLoanDisbursement,
        ),
        Category::MobileLoanRepayment | Category::DigitalLoanRepayment => (
            "Customer Advance Payment to 12345 - Test Lender".to_owned(),
            Category::MobileLoanRepayment,
        ),
        Category::SavingsDeposit | Category::SavingsWithdrawal | Category::OwnAccountTransfer => (
            "National Payment Switch transfer - Test Bank".to_owned(),
            Category::OwnAccountTransfer,
        ),
        Category::Betting => ("Payment to 12345 - Betway".to_owned(), category),
        Category::Utilities => ("Payment to 12345 - LEC prepaid".to_owned(), category),
        Category::Charges => ("Withdrawal Charge".to_owned(), category),
        Category::Reversal => ("Reversal of transaction".to_owned(), category),
        _ => (String::new(), Category::Other),
    };
    Some(crate::wallets::Words {
        details,
        transaction_type: None,
        category,
    })
}
