//! Seeded synthetic statements in the layouts of other wallets (Airtel Money Uganda PDF,
//! Vodacom M-Pesa Lesotho PDF, MTN MoMo Ghana CSV), each with the [`Statement`] its parser must
//! read back: write-then-parse is the identity (a property test in `core/tests`). Invented
//! holders, numbers and names only; the layouts follow docs/wallets.md, never a real file.

use chrono::{Duration, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

use super::SplitMix64;
use super::wallet_pdf::{Canvas, document, wrap};
use crate::statement::{
    AccountHolder, Balances, Period, Provider, Statement, Summary, SummaryRow, Transaction,
    TransactionStatus,
};

/// A synthetic file and the statement it holds.
#[derive(Debug, Clone)]
pub struct Synthetic {
    /// The file, as the wallet would send it.
    pub bytes: Vec<u8>,
    /// What [`crate::parse::parse`] must return (before categorising; see
    /// [`Synthetic::expected_prepared`]).
    pub expected: Statement,
}

impl Synthetic {
    /// [`Synthetic::expected`] as `parse` returns it: categorised by its wallet's table, with the
    /// source format and the parsed document's facts (`document`, taken from `parsed`).
    pub fn expected_prepared(&self, parsed: &Statement) -> Statement {
        let mut expected = self.expected.clone();
        crate::parse::prepare(&mut expected);
        expected.document.clone_from(&parsed.document);
        expected.source = parsed.source;
        expected
    }
}

/// `1,234,567.80`: thousands separated by commas, two decimal places.
fn grouped(value: Decimal) -> String {
    let text = format!("{:.2}", value.round_dp(2));
    let (whole, cents) = text.split_once('.').unwrap_or((text.as_str(), "00"));
    let digits: Vec<char> = whole.chars().collect();
    let mut out = String::new();
    for (i, c) in digits.iter().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(*c);
    }
    format!("{out}.{cents}")
}

/// An amount of whole units and cents in `lo..=hi` units.
fn money(rng: &mut SplitMix64, lo: u64, hi: u64, cents: bool) -> Decimal {
    let units = rng.range(lo, hi);
    let c = if cents { rng.range(0, 99) } else { 0 };
    Decimal::new(i64::try_from(units * 100 + c).unwrap_or(0), 2)
}

fn at(date: NaiveDate) -> NaiveDateTime {
    date.and_hms_opt(8, 0, 0).unwrap_or_default()
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap_or_default()
}

// ---------------------------------------------------------------------------------------------
// Airtel Money Uganda (PDF)

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
        provider: Provider::AirtelMoneyUg,
        holder,
        currency: "UGX".to_owned(),
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
    c.text(230.0, 50.0, 9.0, crate::parse::airtel_pdf::TITLE);
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
            &t.completed_at
                .format(crate::parse::airtel_pdf::TIME_FORMAT)
                .to_string(),
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

// ---------------------------------------------------------------------------------------------
// Vodacom M-Pesa Lesotho (PDF)

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
        provider: Provider::VodacomMpesaLs,
        holder: AccountHolder {
            mobile_number: (!drawn.is_empty()).then(|| VODACOM_HOLDER.to_owned()),
            ..AccountHolder::default()
        },
        currency: "LSL".to_owned(),
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
    c.text(32.0, 86.0, 10.0, crate::parse::vodacom_pdf::TITLE);
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

// ---------------------------------------------------------------------------------------------
// MTN MoMo Ghana (CSV)

/// An MTN MoMo Ghana CSV of `rows` rows (from March 2025, newest first).
#[expect(
    clippy::too_many_lines,
    reason = "one generator: each record and the row it must read as, side by side"
)]
pub fn mtn_statement(seed: u64, rows: usize) -> Synthetic {
    use crate::parse::mtn_csv::{HEADER, TIME_FORMAT, details_of};
    let mut rng = SplitMix64::new(seed);
    let (acct, name, number) = ("233240000001", "TEST HOLDER", "233240000001");
    let mut balance = money(&mut rng, 5, 300, true);
    let mut time = day(2025, 3, 1).and_hms_opt(7, 0, 0).unwrap_or_default();
    let mut records: Vec<[String; 16]> = Vec::with_capacity(rows);
    let mut transactions = Vec::with_capacity(rows);
    for i in 0..rows {
        time += Duration::seconds(i64::try_from(rng.range(60, 90_000)).unwrap_or(60));
        let cents = rng.chance(50);
        let amount = money(&mut rng, 1, 150, cents);
        let fees = if rng.chance(20) {
            Decimal::new(38, 2)
        } else {
            Decimal::ZERO
        };
        let levy = if rng.chance(10) {
            Decimal::new(10, 2)
        } else {
            Decimal::ZERO
        };
        let out = !rng.chance(30) && amount + fees + levy <= balance;
        let party = format!("2332{:08}", rng.range(0, 99_999_999));
        let (kind, party_name, reference, ova) = if out {
            let forms: [(&str, &str, String, &str); 4] = [
                ("TRANSFER", "JANE DOE", "Rent, March".to_owned(), "Internal"),
                (
                    "DEBIT",
                    "one4all.sp",
                    format!(
                        "One4all Debit SystemIlIELEVYIlI0.00IlI{}IlI0.0",
                        rng.range(1, 999_999)
                    ),
                    "one4all.sp",
                ),
                (
                    "DEBIT",
                    "Bills.INV .",
                    "The Test KitchenIlIELEVYIlI0.00".to_owned(),
                    "HubtelPOS.sp",
                ),
                (
                    "CASH_OUT",
                    "TEST AGENT",
                    "NationalId--".to_owned(),
                    "Internal",
                ),
            ];
            rng.pick(&forms).clone()
        } else {
            let forms: [(&str, &str, String, &str); 3] = [
                ("TRANSFER", "JOHN ROE", "from mum".to_owned(), "Internal"),
                (
                    "CASH_IN",
                    "TEST AGENT",
                    format!("Cashin To-{number}"),
                    "Internal",
                ),
                ("ADJUSTMENT", "momointerest.sp", String::new(), "Internal"),
            ];
            rng.pick(&forms).clone()
        };
        let before = balance;
        let (paid_in, withdrawn) = if out {
            (Decimal::ZERO, amount + fees + levy)
        } else {
            (amount, Decimal::ZERO)
        };
        balance += paid_in - withdrawn;
        let f_id = format!("{}", 50_000_000_000 + i as u64 * 13 + rng.range(0, 12));
        let (from, to) = if out {
            (
                [acct, name, number],
                [party.as_str(), party_name, party.as_str()],
            )
        } else {
            (
                [party.as_str(), party_name, party.as_str()],
                [acct, name, number],
            )
        };
        let text = |d: Decimal| d.normalize().to_string();
        records.push([
            time.format(TIME_FORMAT).to_string(),
            from[0].to_owned(),
            from[1].to_owned(),
            from[2].to_owned(),
            kind.to_owned(),
            text(amount),
            text(if out { fees } else { Decimal::ZERO }),
            text(if out { levy } else { Decimal::ZERO }),
            text(before),
            text(balance),
            to[2].to_owned(),
            to[1].to_owned(),
            to[0].to_owned(),
            f_id.clone(),
            reference.clone(),
            ova.to_owned(),
        ]);
        transactions.push(Transaction {
            receipt_no: f_id,
            completed_at: time,
            details: details_of(kind, out, party_name, &reference, ova),
            paid_in,
            withdrawn,
            balance: Some(balance),
            transaction_type: Some(kind.to_owned()),
            fee: out.then_some(fees),
            tax: out.then_some(levy),
            balance_before: Some(before),
            ..Transaction::empty()
        });
    }
    records.reverse();
    transactions.reverse();
    let mut writer = csv::Writer::from_writer(Vec::new());
    let _ = writer.write_record(HEADER);
    for record in &records {
        let _ = writer.write_record(record);
    }
    let bytes = writer.into_inner().unwrap_or_default();
    let expected = Statement {
        provider: Provider::MtnMomoGh,
        holder: if rows == 0 {
            AccountHolder::default()
        } else {
            AccountHolder {
                name: Some(name.to_owned()),
                mobile_number: Some(number.to_owned()),
                email: None,
            }
        },
        currency: "GHS".to_owned(),
        country: Some("GH".to_owned()),
        time_zone: Some("Africa/Accra".to_owned()),
        transactions,
        ..Statement::default()
    };
    Synthetic { bytes, expected }
}
