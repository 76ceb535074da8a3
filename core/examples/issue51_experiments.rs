//! The experiments of issues 51 and 49 (item 5) as Markdown: the same household carried across
//! markets at purchasing-power factors, income that stops near the request date, rows a critical
//! finding names, and one income split into many credits on every wallet. Statements that
//! differ in one behaviour, scored, compared.
//!
//! `cargo run -p alama-core --features testing --release --example issue51_experiments`

use alama_core::testing::wallets::{airtel_statement, mtn_statement, vodacom_statement};
use alama_core::testing::{PersonaKind, edits, persona_statement, persona_statement_until};
use alama_core::{ParseOptions, Statement};
use chrono::{Datelike, Duration, NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;

fn report(s: &Statement) -> alama_core::Report {
    alama_core::score(s).unwrap_or_else(|e| panic!("scores: {e}"))
}

fn score(s: &Statement) -> u16 {
    report(s).score
}

/// The score with the previous Kenyan card, `alama-kes-2027.01` (for the "before" column).
fn score_2027_01(s: &Statement) -> u16 {
    let card =
        alama_core::Scorecard::from_json(include_str!("../scorecards/alama-kes-2027.01.json"))
            .unwrap_or_else(|e| panic!("the 2027.01 card loads: {e}"));
    alama_core::score_with(s, &card)
        .unwrap_or_else(|e| panic!("scores: {e}"))
        .score
}

fn d(text: &str) -> Decimal {
    text.parse().unwrap_or_default()
}

fn at(date: NaiveDate, h: u32, m: u32, s: u32) -> NaiveDateTime {
    date.and_hms_opt(h, m, s).unwrap_or_default()
}

/// A holder whose every month is alike: salary `salary` on day `payday`, rent on the 3rd, power
/// on the 5th, shopping weekly, airtime on the 10th; from `start` to `end` (the request date).
fn salaried_on(payday: u32, salary: u64, start: NaiveDate, end: NaiveDate) -> Statement {
    let pct = |p: u64| Decimal::from(salary * p / 100);
    let mut rows = Vec::new();
    let mut day = start;
    while day <= end {
        let t = at(day, 9, 0, 0);
        match day.day() {
            3 => rows.push((t, "Pay Bill to 777777 - HOUSE RENT Acc. 1", -pct(30))),
            5 => rows.push((
                t,
                "Pay Bill Online to 888880 - KPLC PREPAID Acc. 1",
                -pct(4),
            )),
            7 | 14 | 21 | 27 => rows.push((
                t,
                "Merchant Payment to 512345 - UMOJA SUPERMARKET",
                -pct(12),
            )),
            10 => rows.push((t, "Airtime Purchase", -pct(2))),
            _ => {}
        }
        if day.day() == payday {
            rows.push((
                at(day, 8, 0, 0),
                "Salary Payment from 600111 - SAVANNAH LOGISTICS LTD",
                Decimal::from(salary),
            ));
        }
        day += Duration::days(1);
    }
    let empty = Statement {
        currency: "KES".to_owned(),
        period: Some(alama_core::statement::Period { start, end }),
        requested_at: end.succ_opt(),
        ..Statement::default()
    };
    let mut s = edits::insert_rows(&empty, &rows);
    edits::rebalance(&mut s, Decimal::from(salary));
    s
}

fn is_salary(t: &alama_core::Transaction, y: i32, m: u32) -> bool {
    t.details.starts_with("Salary Payment")
        && t.completed_at.year() == y
        && t.completed_at.month() == m
}

#[allow(clippy::print_stdout)]
fn markets() {
    println!("## The same household in every market\n");
    let columns = [
        ("GHS", "0.095"),
        ("GHS", "0.104"),
        ("GHS", "0.1086"),
        ("GHS", "0.112"),
        ("UGX", "30.23"),
        ("LSL", "0.1373"),
    ];
    println!(
        "| persona (12 months, seeds 0-9 / held out 700-709) | KES | {} |",
        columns
            .iter()
            .map(|(c, f)| format!("{c} at {f}"))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    println!("|---|---:|{}", "---:|".repeat(columns.len()));
    for seeds in [0..10u64, 700..710] {
        for kind in PersonaKind::ALL {
            let mut kes_scores = Vec::new();
            let mut moves = vec![Vec::new(); columns.len()];
            for seed in seeds.clone() {
                let kes = persona_statement(kind, seed, 12);
                let base = score(&kes);
                kes_scores.push(i32::from(base));
                for (i, (currency, factor)) in columns.iter().enumerate() {
                    let local = score(&edits::converted(&kes, currency, d(factor)));
                    moves[i].push(i32::from(local) - i32::from(base));
                }
            }
            let range = |v: &[i32], signed: bool| {
                let (lo, hi) = (
                    v.iter().min().copied().unwrap_or(0),
                    v.iter().max().copied().unwrap_or(0),
                );
                if signed {
                    format!("{lo:+}…{hi:+}")
                } else {
                    format!("{lo}…{hi}")
                }
            };
            println!(
                "| {} (seeds {}–{}) | {} | {} |",
                kind.name(),
                seeds.start,
                seeds.end - 1,
                range(&kes_scores, false),
                moves
                    .iter()
                    .map(|m| range(m, true))
                    .collect::<Vec<_>>()
                    .join(" | ")
            );
        }
    }
}

#[allow(clippy::print_stdout)]
fn recency() {
    println!("\n## Income that stops near the request date\n");
    println!(
        "| statement (salary of KES 40,000 on the 1st) | 2027.01 | change | 2027.03 | change |\n|---|---:|---:|---:|---:|"
    );
    let day = |y, m, dd| NaiveDate::from_ymd_opt(y, m, dd).unwrap_or_default();
    for end in [day(2024, 12, 20), day(2024, 12, 31)] {
        let base = salaried_on(1, 40_000, day(2024, 1, 1), end);
        let (old, new) = (score_2027_01(&base), score(&base));
        println!("| requested {end}, every salary paid | {old} | | {new} | |");
        let without = |months: &[u32]| {
            edits::delete_rows(&base, |t| !months.iter().any(|m| is_salary(t, 2024, *m)))
        };
        for (name, months) in [
            ("… the December salary never came", &[12][..]),
            ("… November and December salaries never came", &[11, 12]),
            (
                "… October and November salaries never came (December's did)",
                &[10, 11],
            ),
            ("… January and February salaries never came", &[1, 2]),
            (
                "… September to December salaries never came",
                &[9, 10, 11, 12],
            ),
        ] {
            let s = without(months);
            let (o, n) = (score_2027_01(&s), score(&s));
            println!(
                "| {name} | {o} | {:+} | {n} | {:+} |",
                i32::from(o) - i32::from(old),
                i32::from(n) - i32::from(new)
            );
        }
    }
}

#[allow(clippy::print_stdout)]
fn left_out() {
    println!("\n## Rows a critical finding names\n");
    println!("| statement | verdict | score | change |\n|---|---|---:|---:|");
    for kind in [PersonaKind::Salaried, PersonaKind::FulizaDependent] {
        let s = persona_statement(kind, 2, 12);
        let base = report(&s);
        let row = |name: &str, e: &Statement| {
            let r = report(e);
            println!(
                "| {} {name} | {} | {} | {:+} |",
                kind.name(),
                r.integrity.status,
                r.score,
                i32::from(r.score) - i32::from(base.score)
            );
        };
        row("(base)", &s);
        let second = at(
            NaiveDate::from_ymd_opt(2024, 3, 15).unwrap_or_default(),
            13,
            7,
            5,
        );
        let burst: Vec<(NaiveDateTime, &str, Decimal)> = (0..320)
            .map(|_| {
                (
                    second,
                    "Funds received from 2547******321 - BURST SENDER",
                    Decimal::from(500),
                )
            })
            .collect();
        row(
            "+ 320 receipts of KES 500 in one second",
            &edits::insert_rows(&s, &burst),
        );

        let late: Vec<(NaiveDateTime, &str, Decimal)> = (0..3)
            .map(|k| {
                (
                    at(
                        NaiveDate::from_ymd_opt(2024, 7, 5 + k).unwrap_or_default(),
                        8,
                        0,
                        0,
                    ),
                    "Salary Payment from 600111 - SAVANNAH LOGISTICS LTD",
                    Decimal::from(90_000),
                )
            })
            .collect();
        row(
            "+ 3 salaries after the request date",
            &edits::insert_rows(&s, &late),
        );
        let mut doubled = s.clone();
        doubled.transactions.extend(s.transactions.iter().cloned());
        row("every row printed twice", &doubled);
    }
    // A statement of the year M-Pesa launched (6 March 2007): its rows before the launch are
    // named by `before_wallet_launch`.
    let launch = NaiveDate::from_ymd_opt(2007, 3, 6).unwrap_or_default();
    let early = persona_statement_until(
        PersonaKind::Salaried,
        2,
        12,
        NaiveDate::from_ymd_opt(2007, 12, 31).unwrap_or_default(),
    );
    let mut after = edits::delete_rows(&early, |t| t.completed_at.date() >= launch);
    after.period = Some(alama_core::statement::Period {
        start: launch,
        end: NaiveDate::from_ymd_opt(2007, 12, 31).unwrap_or_default(),
    });
    let (a, b) = (report(&early), report(&after));
    println!(
        "| salaried 2007 (Jan–Dec; rows before 6 March 2007) | {} | {} | {:+} vs the same rows from 6 March on ({}, {}) |",
        a.integrity.status,
        a.score,
        i32::from(a.score) - i32::from(b.score),
        b.integrity.status,
        b.score
    );
}

/// `s` with every credit that `income` picks split into 20 credits of the same Details, either
/// seconds apart or one a day from its day on; balances recomputed.
fn split(
    s: &Statement,
    income: impl Fn(&alama_core::Transaction) -> bool,
    over_days: bool,
) -> Statement {
    let mut sorted = s.clone();
    sorted
        .transactions
        .sort_by_key(|t| std::cmp::Reverse(t.completed_at));
    let opening = edits::opening_balance(&sorted);
    let mut out = sorted.clone();
    let mut extra = Vec::new();
    out.transactions.retain(|t| {
        if !income(t) {
            return true;
        }
        let part = (t.paid_in / Decimal::from(20)).round_dp(2);
        for k in 0..20i64 {
            let mut c = t.clone();
            c.receipt_no = format!("{}S{k:02}", t.receipt_no);
            c.paid_in = if k == 19 {
                t.paid_in - part * Decimal::from(19)
            } else {
                part
            };
            c.completed_at = if over_days {
                t.completed_at + Duration::days(k)
            } else {
                t.completed_at + Duration::seconds(k * 7)
            };
            extra.push(c);
        }
        false
    });
    out.transactions.extend(extra);
    out.transactions
        .sort_by_key(|t| std::cmp::Reverse(t.completed_at));
    edits::rebalance(&mut out, opening);
    out
}

#[allow(clippy::print_stdout)]
fn splits() {
    println!("\n## One income split into 20 credits\n");
    println!("| statement | score | split in seconds | split over 20 days |\n|---|---:|---:|---:|");
    let line = |name: &str, s: &Statement, income: &dyn Fn(&alama_core::Transaction) -> bool| {
        let b = score(s);
        let (x, y) = (
            score(&split(s, income, false)),
            score(&split(s, income, true)),
        );
        println!(
            "| {name} | {b} | {:+} | {:+} |",
            i32::from(x) - i32::from(b),
            i32::from(y) - i32::from(b)
        );
    };
    for kind in [
        PersonaKind::Salaried,
        PersonaKind::SeasonalFarmer,
        PersonaKind::Saver,
    ] {
        for (currency, factor) in [
            ("KES", "1"),
            ("UGX", "30.23"),
            ("GHS", "0.1"),
            ("LSL", "0.1373"),
        ] {
            let s = edits::converted(&persona_statement(kind, 3, 12), currency, d(factor));
            let min = d("1000") * d(factor);
            let income = |t: &alama_core::Transaction| {
                t.paid_in >= min
                    && (t.details.starts_with("Salary Payment")
                        || t.details.starts_with("Funds received"))
            };
            line(&format!("{} in {currency}", kind.name()), &s, &income);
        }
    }
    for (name, synthetic) in [
        (
            "Airtel Uganda synthetic (seed 1, 120 rows)",
            airtel_statement(1, 120),
        ),
        (
            "MTN Ghana synthetic (seed 2, 120 rows)",
            mtn_statement(2, 120),
        ),
        (
            "Vodacom Lesotho synthetic (seed 3, 120 rows)",
            vodacom_statement(3, 120),
        ),
    ] {
        let parsed = alama_core::parse(&synthetic.bytes, &ParseOptions::default())
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .into_statement();
        // The largest credits (half the largest or more), whatever their words.
        let largest = parsed
            .transactions
            .iter()
            .map(|t| t.paid_in)
            .max()
            .unwrap_or_default();
        let income = |t: &alama_core::Transaction| {
            t.paid_in * Decimal::TWO >= largest && t.paid_in > Decimal::ZERO
        };
        line(name, &parsed, &income);
    }
}

fn main() {
    markets();
    recency();
    left_out();
    splits();
}
