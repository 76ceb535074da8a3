//! The report page's content, read from a stored report ([`alama_core::Report`], the JSON that
//! `GET /v1/scores/{id}` answers) and laid out as the PDF's first page lays it out: the holder
//! (masked), the wallet by its name, the period with exact dates, the score on the band ladder,
//! graded factor bars, reason codes once each with the points they cost, largest first, the
//! integrity verdict with its evidence level in words and what it rules out, the monthly money
//! in and out (an SVG drawn here, [`super::charts`]), the insights under titles that say what
//! their figures are.
//!
//! Amounts are in the currency's customary form ([`alama_core::money::display`]: UGX without
//! decimals), times in the statement's zone with its abbreviation ([`super::views::when_in`]);
//! the exact figures stay in the JSON.
//!
//! Why this file is long (about 430 lines of code, over the guide's ~400): it is one concept,
//! the report page's content, one type and one function per section in page order, as
//! `pdf_report/layout.rs` is for the PDF; its charts live apart ([`super::charts`]).

use alama_core::Wallet;
use alama_core::report::{Band, EvidenceLevel, Report, Severity};
use chrono::NaiveDate;

use super::charts::{CashChart, cash_chart};

/// The CSS class of a band (`"very-good"`).
pub fn band_class(band: Band) -> &'static str {
    match band {
        Band::Poor => "poor",
        Band::Fair => "fair",
        Band::Good => "good",
        Band::VeryGood => "very-good",
        Band::Excellent => "excellent",
    }
}

/// One rung of the band ladder: an SVG 1,000 units wide, five rungs of equal width (so that
/// the HTML labels under them line up at any screen width), the score marked within its rung
/// in proportion to its place in the band.
#[derive(Debug, Clone)]
pub struct Rung {
    /// `"Very Good"`.
    pub name: &'static str,
    /// `"740–799"`.
    pub range: String,
    /// CSS class of its colour.
    pub class: &'static str,
    /// Left edge, 0–1,000.
    pub x: i64,
    /// Width.
    pub w: i64,
    /// Whether the report's score is in it.
    pub current: bool,
}

/// A factor with its bar graded by the share of its points earned.
#[derive(Debug, Clone)]
pub struct FactorView {
    /// Name.
    pub name: String,
    /// Points earned.
    pub score: u16,
    /// Most points.
    pub max: u16,
    /// Bar length, 0–100.
    pub width: i64,
    /// `good` (≥ 75 %), `ok` (≥ 50 %), `weak` (≥ 25 %) or `poor`: the PDF's grading.
    pub grade: &'static str,
}

/// A reason code, once, with every attribute that lost points under it.
#[derive(Debug, Clone)]
pub struct ReasonView {
    /// `"R04"`.
    pub code: String,
    /// Points lost under this code in all.
    pub points: u32,
    /// The factors it belongs to, by name.
    pub factor: String,
    /// The sentences, largest loss first.
    pub lines: Vec<String>,
}

/// An insight: what its figure is, the figure, its sentence.
#[derive(Debug, Clone)]
pub struct InsightView {
    /// `insight-<code>`, for tests and links.
    pub code: String,
    /// `"Average income"`.
    pub title: String,
    /// `"UGX 4,134,194 / month"`.
    pub figure: String,
    /// The engine's sentence.
    pub message: String,
}

/// One integrity finding.
#[derive(Debug, Clone)]
pub struct FindingView {
    /// `info`, `warning` or `critical`.
    pub severity: &'static str,
    /// Stable code.
    pub code: String,
    /// The sentence.
    pub message: String,
}

/// The integrity verdict for a person.
#[derive(Debug, Clone)]
pub struct IntegrityView {
    /// `verified`, `consistent`, `warnings`, `failed`.
    pub status: String,
    /// CSS class: `good`, `info`, `warn`, `bad`.
    pub class: &'static str,
    /// The evidence level in words (`"CSV export"`).
    pub evidence: &'static str,
    /// What the verdict rests on and what it rules out.
    pub meaning: String,
    /// The SUMMARY reconciliation in a sentence.
    pub reconciled: &'static str,
    /// The findings, most severe first.
    pub findings: Vec<FindingView>,
}

/// Everything a completed report shows.
#[derive(Debug, Clone)]
pub struct Completed {
    /// 300–850.
    pub score: u16,
    /// `"Very Good"`.
    pub band: &'static str,
    /// CSS class of the band.
    pub band_class: &'static str,
    /// `"737 = 300 + 437 of 550 scorecard points"`.
    pub composition: String,
    /// The five bands.
    pub ladder: Vec<Rung>,
    /// The score's place on the ladder, 0–1,000 (within its band's rung).
    pub marker: i64,
    /// Holder's name, masked as stored, or `"Not stated"`.
    pub holder: String,
    /// Masked mobile number, or `"Not stated"`.
    pub phone: String,
    /// The wallet's name (`"Airtel Money Uganda"`), never its code.
    pub wallet: String,
    /// ISO 4217 currency of every amount.
    pub currency: String,
    /// `"1 Mar 2025 – 13 Apr 2025"`.
    pub period: String,
    /// `"44 days · 80 transactions, 80 completed"`.
    pub period_note: String,
    /// The statement's time zone in words (`"East Africa Time (Africa/Kampala)"`), the zone
    /// of its rows' times and of the integrity findings.
    pub zone: String,
    /// The statement's IANA time zone (`"Africa/Nairobi"`), when its wallet's is known.
    pub time_zone: Option<&'static str>,
    /// Factors.
    pub factors: Vec<FactorView>,
    /// Reason codes once each, largest loss first (a thin file's `K02` first).
    pub reasons: Vec<ReasonView>,
    /// Insights.
    pub insights: Vec<InsightView>,
    /// Integrity.
    pub integrity: IntegrityView,
    /// Monthly money in and out.
    pub chart: Option<CashChart>,
    /// `"In UGX 8,324,000 · Out UGX 6,267,500 · Net UGX 2,056,500"`.
    pub totals: String,
    /// Scorecard version.
    pub scorecard: String,
}

/// The statement's wallet, from the report's code (`"airtel-money-ug"`) in the engine's
/// registry; `None` for a code this version does not know.
pub fn wallet_of(report: &Report) -> Option<&'static Wallet> {
    alama_core::wallets::find(&report.statement.provider)
}

fn ladder(score: u16) -> (Vec<Rung>, i64) {
    const RUNG: i64 = 200;
    let score = score.clamp(300, 850);
    let mut marker = 0;
    let rungs = Band::RANGES
        .iter()
        .zip(0i64..)
        .map(|(&(band, lo, hi), i)| {
            let current = (lo..=hi).contains(&score);
            if current {
                // The middle of the score's point within its rung.
                let points = i64::from(hi - lo) + 1;
                marker = i * RUNG + (2 * i64::from(score - lo) + 1) * RUNG / (2 * points);
            }
            Rung {
                name: band.as_str(),
                range: format!("{lo}\u{2013}{hi}"),
                class: band_class(band),
                x: i * RUNG,
                w: RUNG,
                current,
            }
        })
        .collect();
    (rungs, marker)
}

fn grade(score: u16, max: u16) -> (i64, &'static str) {
    if max == 0 {
        return (0, "poor");
    }
    let pct = i64::from(score.min(max)) * 100 / i64::from(max);
    let grade = match pct {
        75.. => "good",
        50.. => "ok",
        25.. => "weak",
        _ => "poor",
    };
    (pct, grade)
}

fn reasons(report: &Report) -> Vec<ReasonView> {
    let factor_name = |code: &str| {
        report
            .factors
            .iter()
            .find(|f| f.code == code)
            .map_or_else(|| code.to_owned(), |f| f.name.clone())
    };
    let mut out: Vec<ReasonView> = Vec::new();
    for r in &report.reason_codes {
        let name = factor_name(&r.factor);
        match out.iter_mut().find(|v| v.code == r.code) {
            Some(v) => {
                v.points += u32::from(r.points_lost);
                v.lines.push(r.description.clone());
                if !v.factor.split(", ").any(|f| f == name) {
                    v.factor = format!("{}, {name}", v.factor);
                }
            }
            None => out.push(ReasonView {
                code: r.code.clone(),
                points: u32::from(r.points_lost),
                factor: name,
                lines: vec![r.description.clone()],
            }),
        }
    }
    // Largest loss first; a knock-out or thin-file cap (`K…`) before the rest, as the engine
    // lists it; ties keep the engine's order (the sort is stable).
    out.sort_by_key(|v| (!v.code.starts_with('K'), std::cmp::Reverse(v.points)));
    out
}

/// The evidence level in words and what the verdict rests on, for a lender.
pub(crate) fn evidence(level: EvidenceLevel, wallet: &str) -> (&'static str, String) {
    match level {
        EvidenceLevel::PdfOriginal => (
            "Original PDF",
            format!(
                "The PDF is as {wallet}'s statement service wrote it (one save, its own \
                 writer's structure), so rows added, removed or edited after it was issued \
                 would show in these checks."
            ),
        ),
        EvidenceLevel::PdfResaved => (
            "Re-saved PDF",
            "Another program saved this PDF after the wallet issued it, so its origin cannot be \
             confirmed. The checks rule out rows that do not add up, not a careful edit that \
             keeps the balances; ask for a fresh statement from the wallet."
                .to_owned(),
        ),
        EvidenceLevel::Csv => (
            "CSV export",
            "A CSV cannot be authenticated: anyone can edit it in a spreadsheet. The checks \
             rule out rows that do not add up (running balances, totals), not a careful edit \
             that keeps the balances; where the wallet issues a PDF statement, ask for it."
                .to_owned(),
        ),
        EvidenceLevel::Json => (
            "JSON made by software",
            "The statement was handed in as JSON built by software: nothing about its origin \
             can be checked. The checks rule out only rows that do not add up."
                .to_owned(),
        ),
    }
}

fn integrity(report: &Report, wallet: &str) -> IntegrityView {
    let i = &report.integrity;
    let class = match i.status.as_str() {
        "verified" => "good",
        "consistent" => "info",
        "warnings" => "warn",
        _ => "bad",
    };
    let (words, meaning) = evidence(i.evidence_level, wallet);
    IntegrityView {
        status: i.status.clone(),
        class,
        evidence: words,
        meaning,
        reconciled: match i.summary_reconciled {
            Some(true) => "The rows add up to the statement's own summary.",
            Some(false) => "The rows do not add up to the statement's own summary.",
            None => "The statement has no summary of its own to reconcile against.",
        },
        findings: i
            .findings
            .iter()
            .map(|f| FindingView {
                severity: match f.severity {
                    Severity::Info => "info",
                    Severity::Warning => "warning",
                    Severity::Critical => "critical",
                },
                code: f.code.clone(),
                message: f.message.clone(),
            })
            .collect(),
    }
}

/// `"2025-03-01"` → `"1 Mar 2025"`; the text unchanged when it is not a date.
pub fn long_date(iso: &str) -> String {
    NaiveDate::parse_from_str(iso, "%Y-%m-%d")
        .map_or_else(|_| iso.to_owned(), |d| d.format("%-d %b %Y").to_string())
}

fn plural(n: u64, one: &str, many: &str) -> String {
    let n_text = alama_core::money::grouped(n.into(), 0);
    format!("{n_text} {}", if n == 1 { one } else { many })
}

/// A time zone in words: `"East Africa Time (Africa/Nairobi)"`; UTC without one.
fn zone_words(zone: Option<&str>) -> String {
    match zone {
        Some(z) => {
            let abbreviation = super::views::zone_abbreviation(z);
            let name = match abbreviation.as_str() {
                "EAT" => "East Africa Time",
                "GMT" => "Greenwich Mean Time",
                "SAST" => "South Africa Standard Time",
                _ => "local time",
            };
            format!("{name}, {abbreviation} ({z})")
        }
        None => "UTC (the wallet's zone is not known)".to_owned(),
    }
}

/// The page content of a completed report.
pub fn completed(report: &Report) -> Completed {
    let wallet_of = wallet_of(report);
    let wallet = wallet_of.map_or_else(|| "Mobile money".to_owned(), |w| w.name.to_owned());
    let s = &report.statement;
    let currency = s.currency.clone();
    let (ladder, marker) = ladder(report.score);
    let points: u32 = report.factors.iter().map(|f| u32::from(f.score)).sum();
    let max: u32 = report.factors.iter().map(|f| u32::from(f.max)).sum();
    let days = NaiveDate::parse_from_str(&s.period_start, "%Y-%m-%d")
        .ok()
        .zip(NaiveDate::parse_from_str(&s.period_end, "%Y-%m-%d").ok())
        .map(|(a, b)| (b - a).num_days() + 1);
    let mut note = Vec::new();
    if let Some(d) = days {
        note.push(plural(u64::try_from(d).unwrap_or(0), "day", "days"));
    }
    note.push(format!(
        "{}, {} completed",
        plural(
            u64::from(s.transaction_count),
            "transaction",
            "transactions"
        ),
        alama_core::money::grouped(s.completed_count.into(), 0)
    ));
    let money = |v| alama_core::money::display(&currency, v);
    let net = s.total_paid_in - s.total_withdrawn;
    Completed {
        score: report.score,
        band: report.band.as_str(),
        band_class: band_class(report.band),
        composition: format!(
            "{} = 300 + {} of {} scorecard points",
            report.score, points, max
        ),
        ladder,
        marker,
        holder: s
            .holder_name
            .clone()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| "Not stated".to_owned()),
        phone: s
            .mobile_number_masked
            .clone()
            .filter(|n| !n.trim().is_empty())
            .unwrap_or_else(|| "Not stated".to_owned()),
        period: format!(
            "{} \u{2013} {}",
            long_date(&s.period_start),
            long_date(&s.period_end)
        ),
        period_note: note.join(" · "),
        zone: zone_words(wallet_of.and_then(|w| w.time_zone)),
        time_zone: wallet_of.and_then(|w| w.time_zone),
        factors: report
            .factors
            .iter()
            .map(|f| {
                let (width, grade) = grade(f.score, f.max);
                FactorView {
                    name: f.name.clone(),
                    score: f.score,
                    max: f.max,
                    width,
                    grade,
                }
            })
            .collect(),
        reasons: reasons(report),
        insights: report
            .insights
            .iter()
            .map(|i| InsightView {
                code: format!("insight-{}", i.code),
                title: alama_core::insights::title(
                    &i.code,
                    wallet_of.unwrap_or(alama_core::wallets::GENERIC),
                )
                .map_or_else(|| i.code.replace('_', " "), str::to_owned),
                figure: alama_core::insights::figure(i.value, &i.unit, &currency),
                message: i.message.clone(),
            })
            .collect(),
        integrity: integrity(report, &wallet),
        chart: cash_chart(&s.monthly, &currency),
        totals: format!(
            "In {} · Out {} · Net {}",
            money(s.total_paid_in),
            money(s.total_withdrawn),
            money(net)
        ),
        scorecard: report.scorecard_version.clone(),
        wallet,
        currency,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ladder_spans_300_to_850_and_marks_the_band() {
        let (rungs, marker) = ladder(737);
        assert_eq!(rungs.len(), 5);
        assert_eq!(rungs.first().map(|r| r.x), Some(0));
        assert_eq!(rungs.iter().map(|r| r.w).sum::<i64>(), 1000);
        let current: Vec<&str> = rungs.iter().filter(|r| r.current).map(|r| r.name).collect();
        assert_eq!(current, ["Good"]);
        // 737 is the 68th of Good's 70 points (670–739), Good the third rung.
        assert_eq!(marker, 400 + (2 * 67 + 1) * 200 / 140);
        assert_eq!(ladder(300).1, 200 / 560);
        assert!(ladder(850).1 > 990 && ladder(850).1 < 1000);
    }

    #[test]
    fn factors_are_graded_as_the_pdf_grades_them() {
        assert_eq!(grade(20, 60), (33, "weak"));
        assert_eq!(grade(84, 100), (84, "good"));
        assert_eq!(grade(30, 60), (50, "ok"));
        assert_eq!(grade(0, 40), (0, "poor"));
        assert_eq!(grade(5, 0), (0, "poor"));
    }
}
