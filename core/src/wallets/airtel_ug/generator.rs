//! The synthetic Airtel Money Uganda (PDF) statement.

use chrono::Duration;
use rust_decimal::Decimal;

use crate::categorise::Category;
use crate::pdf::writer::{Canvas, document, wrap};
use crate::rng::SplitMix64;
use crate::statement::{
    AccountHolder, Balances, Period, Statement, Summary, SummaryRow, Transaction, TransactionStatus,
};
use crate::wallets::synthetic::{Synthetic, at, day, grouped, money};

const AIRTEL_X: [f64; 8] = [20.0, 90.0, 170.0, 300.0, 390.0, 440.0, 480.0, 525.0];
const AIRTEL_SIZE: f64 = 6.0;
const AIRTEL_BOTTOM: f64 = 760.0;

/// An Airtel Money Uganda statement PDF of `rows` rows (March 2026, oldest first).
#[expect(
    clippy::too_many_lines,
    reason = "one generator: the rows, then the statement they make"
)]
pub fn airtel_statement(seed: u64, rows: usize) -> Synthetic {
    let mut rng = SplitMix64::new(seed);
    let holder = AccountHolder {
        name: Some("TEST HOLDER".to_owned()),
        mobile_number: Some("256700000001".to_owned()),
        email: Some("holder@example.invalid".to_owned()),
    };
    let opening = money(&mut rng, 0, 90_000, true);
    let mut balance = opening;
    let mut time = at(day(2026, 3, 1));
    let mut transactions = Vec::with_capacity(rows);
    for i in 0..rows {
        time += Duration::minutes(i64::try_from(rng.range(1, 40)).unwrap_or(1));
        let amount = Decimal::from(rng.range(1, 500) * 1_000);
        let fee = *rng.pick(&[Decimal::ZERO, Decimal::from(500), Decimal::from(1_000)]);
        let credit = rng.chance(40) || amount + fee > balance;
        let details = if credit {
            let forms = [
                format!(
                    "Received from {} , SC BANK SC BANK",
                    rng.range(1_000_000, 9_999_999)
                ),
                format!(
                    "Received Money from 2567{:08}. Sender TID {}",
                    rng.range(0, 99_999_999),
                    rng.range(1_000_000_000, 9_999_999_999)
                ),
            ];
            rng.pick(&forms).clone()
        } else {
            let forms = [
                format!(
                    "Sent Money to 2567{:08} , JANE DOE",
                    rng.range(0, 99_999_999)
                ),
                format!(
                    "Paid to {} Data bundle Mobile App Data bundle Mobile App",
                    rng.range(1_000_000, 9_999_999)
                ),
                format!(
                    "Paid to {} TEST SERVICES LTD",
                    rng.range(1_000_000, 9_999_999)
                ),
                format!(
                    "Sent Money to . Receiving TID {}",
                    rng.range(1_000_000_000, 9_999_999_999)
                ),
            ];
            rng.pick(&forms).clone()
        };
        let (paid_in, withdrawn, fee) = if credit {
            (amount, Decimal::ZERO, Decimal::ZERO)
        } else {
            (Decimal::ZERO, amount + fee, fee)
        };
        balance += paid_in - withdrawn;
        transactions.push(Transaction {
            receipt_no: format!(
                "{}",
                100_000_000_000 + i as u64 * 7_919 + rng.range(0, 7_000)
            ),
            completed_at: time,
            details,
            status: TransactionStatus::Completed,
            paid_in,
            withdrawn,
            balance: Some(balance),
            fee: Some(fee),
            ..Transaction::empty()
        });
    }
    let credit: Decimal = transactions.iter().map(|t| t.paid_in).sum();
    let debit: Decimal = transactions.iter().map(|t| t.withdrawn).sum();
    let expected = Statement {
        provider: super::WALLET.provider(),
        holder,
        currency: "UGX".to_owned(),
        currency_exponent: None,
        country: Some("UG".to_owned()),
        time_zone: Some("Africa/Kampala".to_owned()),
        period: Some(Period {
            start: day(2026, 3, 1),
            end: day(2026, 3, 31),
        }),
        requested_at: Some(day(2026, 4, 21)),
        summary: Some(Summary {
            rows: Vec::new(),
            total: SummaryRow {
                transaction_type: "TOTAL".to_owned(),
                paid_in: credit,
                paid_out: debit,
            },
        }),
        balances: Some(Balances {
            opening,
            closing: balance,
        }),
        transactions,
        ..Statement::default()
    };
    let bytes = document(
        airtel_pages(&expected, opening),
        "Qt 4.8.7",
        "wkhtmltopdf 0.12.4",
    );
    Synthetic { bytes, expected }
}

/// The title and header block of every Airtel page; returns the next free line.
fn airtel_front(c: &mut Canvas, s: &Statement) -> f64 {
    let size = 7.0;
    c.text(230.0, 50.0, 9.0, super::pdf::TITLE);
    let holder = &s.holder;
    let period = s.period.map_or_else(String::new, |p| {
        format!(
            "{} to {}",
            p.start.format("%d-%b-%y"),
            p.end.format("%d-%b-%y")
        )
    });
    let requested = s
        .requested_at
        .map_or_else(String::new, |d| d.format("%d %b, %Y").to_string());
    let fields = [
        ("Customer Name:", holder.name.clone().unwrap_or_default()),
        (
            "Mobile Number:",
            holder.mobile_number.clone().unwrap_or_default(),
        ),
        ("Email Address:", holder.email.clone().unwrap_or_default()),
        ("Statement Period:", period),
        ("Request Date:", requested),
    ];
    let mut top = 85.0;
    for (label, value) in fields {
        c.text(20.0, top, size, label);
        c.text(140.0, top, size, &value);
        top += 10.0;
    }
    top + 15.0
}

/// The three lines of the table header at `top`; returns the first row's line.
fn airtel_table_header(c: &mut Canvas, top: f64) -> f64 {
    let x = AIRTEL_X;
    let size = AIRTEL_SIZE;
    c.text(x[4], top - 5.0, size, "Transaction");
    c.text(x[5], top - 5.0, size, "Credit");
    for (i, label) in [
        (0, "Transaction ID"),
        (1, "Transaction Date"),
        (2, "Description"),
        (3, "Status"),
        (6, "Fee"),
        (7, "Balance"),
    ] {
        c.text(x[i], top, size, label);
    }
    c.text(x[4], top + 5.0, size, "Amount");
    c.text(x[5], top + 5.0, size, "/Debit");
    top + 20.0
}

fn airtel_footer(c: &mut Canvas, page: usize) {
    c.text(560.0, 788.0, 7.0, &page.to_string());
    c.text(20.0, 797.0, 6.0, "www.airtel.co.ug");
    c.text(
        20.0,
        804.0,
        6.0,
        "Disclaimer: This statement is synthetic test data.",
    );
    c.text(20.0, 811.0, 6.0, "For self-service Dial *185#");
}

fn airtel_pages(s: &Statement, opening: Decimal) -> Vec<Canvas> {
    let mut pages = Vec::new();
    let mut c = Canvas::default();
    let mut top = airtel_front(&mut c, s);
    c.text(260.0, top, 8.0, "SUMMARY");
    top += 20.0;
    let total = s.summary.as_ref().map(|x| x.total.clone());
    let closing = s.balances.map_or(opening, |b| b.closing);
    for (label, value) in [
        ("Opening Balance:", opening),
        ("Closing Balance:", closing),
        (
            "Total Credit:",
            total.as_ref().map_or(Decimal::ZERO, |t| t.paid_in),
        ),
        (
            "Total Debit:",
            total.as_ref().map_or(Decimal::ZERO, |t| t.paid_out),
        ),
    ] {
        c.text(20.0, top, 7.0, label);
        c.text(400.0, top, 7.0, &format!("Ugx {}", grouped(value)));
        top += 18.0;
    }
    c.text(240.0, top + 10.0, 8.0, "DETAILED STATEMENT");
    top = airtel_table_header(&mut c, top + 30.0);
    for t in &s.transactions {
        let lines = wrap(&t.details, 22);
        let height = 8.0 * lines.len() as f64 + 10.0;
        if top + height > AIRTEL_BOTTOM {
            airtel_footer(&mut c, pages.len() + 1);
            pages.push(std::mem::take(&mut c));
            let next = airtel_front(&mut c, s);
            top = airtel_table_header(&mut c, next + 10.0);
        }
        let x = AIRTEL_X;
        let size = AIRTEL_SIZE;
        let credit = t.paid_in > Decimal::ZERO;
        let fee = t.fee.unwrap_or_default();
        let amount = if credit { t.paid_in } else { t.withdrawn - fee };
        c.text(x[0], top, size, &t.receipt_no);
        c.text(
            x[1],
            top,
            size,
            &t.completed_at.format(super::pdf::TIME_FORMAT).to_string(),
        );
        c.text(x[3], top, size, "Transaction Successful");
        c.text(x[4], top, size, &grouped(amount));
        c.text(x[5], top, size, if credit { "Credit" } else { "Debit" });
        c.text(x[6], top, size, &grouped(fee));
        c.text(x[7], top, size, &grouped(t.balance.unwrap_or_default()));
        for (n, line) in lines.iter().enumerate() {
            c.text(x[2], top + 8.0 * n as f64, size, line);
        }
        top += height;
    }
    airtel_footer(&mut c, pages.len() + 1);
    pages.push(c);
    pages
}

/// A row's text in Airtel Money Uganda's words. Airtel has no paybill, salary or savings rows
/// of its own in the table: a bill is `Paid to`, a salary is money received, savings go to a
/// bank; its overdraft-like loan (`Wewole`) is advanced and repaid in its own name.
#[allow(clippy::unnecessary_wraps)] // `Generator::words`'s signature: a wallet that prints fees inside their rows writes a charge as no row
pub(super) fn words(
    category: Category,
    party: &crate::wallets::Party,
) -> Option<crate::wallets::Words> {
    let number = format!("2567{}", party.digits);
    let (details, category) = match category {
        Category::SendMoney | Category::PochiLaBiashara => (
            format!("Sent Money to {number} , {}", party.name),
            Category::SendMoney,
        ),
        Category::ReceivedMoney | Category::SalaryAndBusinessPayments => (
            format!("Received Money from {number}. Sender TID 1{}", party.digits),
            Category::ReceivedMoney,
        ),
        Category::AgentDeposit => (
            "Cash In deposit at agent 1234567 TEST AGENT".to_owned(),
            Category::AgentDeposit,
        ),
        Category::AgentWithdrawal => (
            "Cash Out withdraw at agent 1234567 TEST AGENT".to_owned(),
            Category::AgentWithdrawal,
        ),
        Category::Paybill | Category::BuyGoods => {
            ("Paid to 1234567 TEST SHOP".to_owned(), Category::BuyGoods)
        }
        Category::AirtimeAndBundles => ("Airtime purchase".to_owned(), category),
        Category::FulizaDraw => ("Wewole advance".to_owned(), category),
        Category::MobileLoanDisbursement | Category::DigitalLoanDisbursement => (
            "Loan disbursement from Airtel".to_owned(),
            Category::MobileLoanDisbursement,
        ),
        Category::FulizaRepayment => ("Wewole repayment".to_owned(), category),
        Category::MobileLoanRepayment | Category::DigitalLoanRepayment => (
            "Loan repayment to Airtel".to_owned(),
            Category::MobileLoanRepayment,
        ),
        Category::SavingsDeposit => ("Transfer to savings".to_owned(), category),
        Category::SavingsWithdrawal => ("Transfer from savings".to_owned(), category),
        Category::Betting => ("Paid to 1234567 BETWAY UGANDA".to_owned(), category),
        Category::Utilities => ("Paid to 1234567 UMEME YAKA".to_owned(), category),
        Category::Charges => ("Transaction fee charge".to_owned(), category),
        Category::Reversal => ("Reversal of transaction".to_owned(), category),
        Category::OwnAccountTransfer => (
            "Sent Money to bank TEST BANK".to_owned(),
            Category::OwnAccountTransfer,
        ),
        _ => (String::new(), Category::Other),
    };
    Some(crate::wallets::Words {
        details,
        transaction_type: None,
        category,
    })
}
