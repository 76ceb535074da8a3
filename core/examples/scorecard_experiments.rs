//! Prints the modeller's experiments as Markdown: the personas' scores, then statements that
//! differ from a persona in one behaviour, and the real samples of `../shared/samples/real`
//! when that folder exists (scores only, never personal data).
//!
//! `cargo run -p alama-core --features testing --example scorecard_experiments`

use alama_core::testing::{PersonaKind, edits, persona_statement, persona_statement_until};
use alama_core::{ParseOptions, Statement};
use chrono::{Datelike, Duration, NaiveDate};
use rust_decimal::Decimal;

fn score(s: &Statement) -> u16 {
    alama_core::score(s).map_or(0, |r| r.score)
}

fn day(y: i32, m: u32, d: u32) -> chrono::NaiveDateTime {
    NaiveDate::from_ymd_opt(y, m, d)
        .and_then(|d| d.and_hms_opt(10, 30, 0))
        .unwrap_or_default()
}

/// One row a month on `dom`, for the 12 months ending June 2024.
fn monthly(
    dom: u32,
    details: &'static str,
    amount: Decimal,
) -> Vec<(chrono::NaiveDateTime, &'static str, Decimal)> {
    (0..12)
        .map(|k| {
            let m0 = 6 + k; // July 2023 .. June 2024
            let (y, m) = if m0 >= 12 {
                (2024, m0 - 11)
            } else {
                (2023, m0 + 1)
            };
            (day(y, m, dom), details, amount)
        })
        .collect()
}

#[allow(clippy::print_stdout)]
fn row(name: &str, base: u16, s: &Statement) {
    let v = score(s);
    println!("| {name} | {v} | {:+} |", i32::from(v) - i32::from(base));
}

#[allow(clippy::print_stdout, clippy::too_many_lines)] // one table row per experiment
fn main() {
    println!("| persona (12 months, seed 1) | score |\n|---|---:|");
    for kind in PersonaKind::ALL {
        println!(
            "| {} | {} |",
            kind.name(),
            score(&persona_statement(kind, 1, 12))
        );
    }

    println!("\n| experiment | score | change |\n|---|---:|---:|");
    let salaried = persona_statement(PersonaKind::Salaried, 1, 12);
    let base = score(&salaried);
    println!("| salaried (base) | {base} | |");
    let bonus = |amount: i64| {
        edits::insert_rows(
            &salaried,
            &[(
                day(2024, 3, 20),
                "Salary Payment from 600111 - SAVANNAH LOGISTICS LTD",
                Decimal::from(amount),
            )],
        )
    };
    row("one-off bonus KES 200,000", base, &bonus(200_000));
    row("one-off bonus KES 500,000", base, &bonus(500_000));
    row(
        "agent cash deposit KES 1,000,000",
        base,
        &edits::insert_rows(
            &salaried,
            &[(
                day(2024, 3, 20),
                "Deposit of Funds at Agent Till 777 - OTHER AGENCIES",
                Decimal::from(1_000_000),
            )],
        ),
    );
    for factor in ["0.01", "0.1", "0.5", "2", "100"] {
        let f: Decimal = factor.parse().unwrap_or(Decimal::ONE);
        row(
            &format!("every amount × {factor}"),
            base,
            &edits::scale(&salaried, f),
        );
    }
    row(
        "two KES 100 round trips a day with one person",
        base,
        &edits::insert_rows(&salaried, &round_trips()),
    );
    row(
        "bank loan KES 50,000 paid in once",
        base,
        &edits::insert_rows(
            &salaried,
            &[(
                day(2024, 2, 10),
                "Business Payment from 100100 - EXAMPLE BANK via API",
                Decimal::from(50_000),
            )],
        ),
    );

    let no_bills = edits::delete_rows(&salaried, |t| !t.details.starts_with("Pay Bill"));
    let nb = score(&no_bills);
    println!("| salaried without bills (base) | {nb} | |");
    row(
        "+ a KES 10 KPLC token each month",
        nb,
        &edits::insert_rows(
            &no_bills,
            &monthly(
                5,
                "Pay Bill Online to 888880 - KPLC PREPAID Acc. 1",
                Decimal::from(-10),
            ),
        ),
    );
    row(
        "+ a KES 1 rent Paybill each month",
        nb,
        &edits::insert_rows(
            &no_bills,
            &monthly(
                5,
                "Pay Bill to 777777 - HOUSE RENT Acc. 1",
                Decimal::from(-1),
            ),
        ),
    );
    row(
        "+ a KES 10 'repayment' to Tala each month, no borrowing",
        base,
        &edits::insert_rows(
            &salaried,
            &monthly(9, "Pay Bill to 851900 - TALA Acc. 1", Decimal::from(-10)),
        ),
    );
    let mut no_balance = salaried.clone();
    for t in &mut no_balance.transactions {
        t.balance = None;
    }
    row("balance column removed", base, &no_balance);

    let fuliza = persona_statement(PersonaKind::FulizaDependent, 1, 12);
    let fb = score(&fuliza);
    println!("| fuliza_dependent (base) | {fb} | |");
    row(
        "Fuliza repayment rows deleted",
        fb,
        &edits::delete_rows(&fuliza, |t| !t.details.starts_with("OD Loan Repayment")),
    );
    let cutoff = NaiveDate::from_ymd_opt(2023, 10, 1).unwrap_or_default();
    row(
        "Fuliza repaid for 3 months, then never",
        fb,
        &edits::delete_rows(&fuliza, |t| {
            !(t.details.starts_with("OD Loan Repayment") && t.completed_at.date() >= cutoff)
        }),
    );

    // The day the statement was requested: 12-month windows of a 14-month salaried history.
    let end = NaiveDate::from_ymd_opt(2024, 8, 31).unwrap_or_default();
    let long = persona_statement_until(PersonaKind::Salaried, 1, 15, end);
    let scores: Vec<u16> = (0..30)
        .map(|shift| {
            let last = end - Duration::days(shift);
            let first = last - Duration::days(364);
            score(&edits::window(&long, first, last))
        })
        .collect();
    let (lo, hi) = (
        scores.iter().min().copied().unwrap_or(0),
        scores.iter().max().copied().unwrap_or(0),
    );
    println!(
        "| 12-month window shifted by 0–29 days (salaried) | {lo}–{hi} | {} |",
        hi - lo
    );

    tokens();
    real_samples();
}

/// Token rows added once a month to every persona (seeds 0–99): how many statements gain more
/// than 2 points and the largest gain. A gain left here is a feature that sits near a bin edge.
#[allow(clippy::print_stdout)]
fn tokens() {
    let games = [
        (
            "KES 10 and KES 1 to two billers",
            [
                monthly(
                    3,
                    "Pay Bill Online to 888880 - KPLC PREPAID Acc. 1",
                    Decimal::from(-10),
                ),
                monthly(
                    4,
                    "Pay Bill to 777777 - HOUSE RENT Acc. 1",
                    Decimal::from(-1),
                ),
            ]
            .concat(),
        ),
        (
            "KES 10 of airtime",
            monthly(3, "Airtime Purchase", Decimal::from(-10)),
        ),
        (
            "KES 10 to a till",
            monthly(
                3,
                "Merchant Payment to 512345 - UMOJA SUPERMARKET",
                Decimal::from(-10),
            ),
        ),
        (
            "KES 10 to M-Shwari savings",
            monthly(3, "M-Shwari Deposit", Decimal::from(-10)),
        ),
        (
            "KES 10 repaid to Tala, never borrowed",
            monthly(3, "Pay Bill to 851900 - TALA Acc. 1", Decimal::from(-10)),
        ),
        (
            "KES 10 of Fuliza drawn and repaid",
            [
                monthly(3, "OverDraft of Credit Party", Decimal::from(10)),
                monthly(
                    4,
                    "OD Loan Repayment to 232323 - M-PESA Overdraw",
                    Decimal::from(-10),
                ),
            ]
            .concat(),
        ),
        (
            "KES 10 received from a friend",
            monthly(
                3,
                "Funds received from 2547******999 - A FRIEND",
                Decimal::from(10),
            ),
        ),
        (
            "KES 60 to one biller",
            monthly(
                3,
                "Pay Bill Online to 888880 - KPLC PREPAID Acc. 1",
                Decimal::from(-60),
            ),
        ),
    ];
    println!(
        "\n| once a month, 12 months | statements | gain > 2 points | largest gain |\n|---|---:|---:|---:|"
    );
    for (name, rows) in &games {
        let (mut n, mut over, mut most) = (0, 0, i32::MIN);
        for kind in PersonaKind::ALL {
            for seed in 0..100 {
                let s = persona_statement(kind, seed, 12);
                let gain = i32::from(score(&edits::insert_rows(&s, rows))) - i32::from(score(&s));
                n += 1;
                over += i32::from(gain > 2);
                most = most.max(gain);
            }
        }
        println!("| {name} | {n} | {over} | {most:+} |");
    }
}

fn round_trips() -> Vec<(chrono::NaiveDateTime, &'static str, Decimal)> {
    let mut rows = Vec::new();
    let mut d = NaiveDate::from_ymd_opt(2023, 7, 1).unwrap_or_default();
    let end = NaiveDate::from_ymd_opt(2024, 6, 30).unwrap_or_default();
    while d <= end {
        for hour in [9, 15] {
            let at = d.and_hms_opt(hour, 0, 0).unwrap_or_default();
            rows.push((
                at,
                "Customer Transfer to 2547******555 - PAL ROUNDTRIP",
                Decimal::from(-100),
            ));
            rows.push((
                at + Duration::minutes(30),
                "Funds received from 2547******555 - PAL ROUNDTRIP",
                Decimal::from(100),
            ));
        }
        d += Duration::days(1);
    }
    let _ = end.day();
    rows
}

#[allow(clippy::print_stdout)]
fn real_samples() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples/real");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let mut names: Vec<String> = entries
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .filter(|n| {
            let ext = std::path::Path::new(n)
                .extension()
                .and_then(|e| e.to_str())
                .map(str::to_ascii_lowercase);
            matches!(ext.as_deref(), Some("pdf" | "csv"))
        })
        .collect();
    names.sort();
    println!(
        "\n| real sample | score | band | integrity | largest losses |\n|---|---:|---|---|---|"
    );
    for name in names {
        let password = name
            .split("_pw")
            .nth(1)
            .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
            .filter(|p| !p.is_empty())
            .map(str::to_owned);
        let Ok(bytes) = std::fs::read(dir.join(&name)) else {
            continue;
        };
        let options = ParseOptions {
            password,
            ..ParseOptions::default()
        };
        match alama_core::score_bytes(&bytes, &options) {
            Ok(r) => {
                let losses: Vec<String> = r
                    .reason_codes
                    .iter()
                    .take(4)
                    .map(|c| format!("{} −{}", c.attribute, c.points_lost))
                    .collect();
                println!(
                    "| {name} | {} | {} | {} | {} |",
                    r.score,
                    r.band.as_str(),
                    r.integrity.status,
                    losses.join(", ")
                );
            }
            Err(e) => println!("| {name} | error `{}` | | |", e.kind().code()),
        }
    }
}
