//! The report's layout: an A4 page flow of sections (header, subject, score gauge, factors,
//! reason codes, insights, monthly cash flow, integrity, about), with page breaks between rows
//! and a footer on every page.
//!
//! Why this file is long (about 890 lines, over the guide's ~400): it is one concept, the
//! report read top to bottom, one function per section in page order, each placing its text
//! and graphics at the coordinates of the one before it. Split by section, the shared cursor
//! and page-break logic would have to travel between files and a reader would have to jump
//! between them to see one page; the drawing primitives already live apart (`canvas`,
//! `graphics`, `format`, `palette`).

use crate::report::{Band, Report, Severity};
use crate::wallets::Wallet;

use super::RenderOptions;
use super::canvas::{Align, Canvas, PAGE_H, PAGE_W, Pen, Shape, Style, Weight};
use super::format;
use super::graphics::{bar, chart, gauge, logo};
use super::palette::{
    ACCENT, BAD, FAINT, GOOD, INFO, INK, MONEY_IN, MONEY_OUT, MUTED, NAVY, ON_NAVY, PANEL, RULE,
    WARN, WHITE, band_color, ratio_color, severity_color, severity_word,
};

// Page geometry (points).
const LEFT: f32 = 36.0;
const RIGHT: f32 = PAGE_W - 36.0;
const WIDTH: f32 = RIGHT - LEFT;
const HEADER_H: f32 = 72.0;
const CONT_HEADER_H: f32 = 30.0;
const FOOTER_RULE: f32 = PAGE_H - 50.0;
const CONTENT_BOTTOM: f32 = FOOTER_RULE - 12.0;
const SECTION_GAP: f32 = 16.0;
const TITLE_H: f32 = 24.0;
/// Sections up to this height (title included) are never split across pages.
const KEEP_WHOLE: f32 = 240.0;

/// Most findings listed before "and N more".
const MAX_FINDINGS: usize = 40;
/// Most months in the cash-flow chart (the latest ones).
const MAX_MONTHS: usize = 36;
/// Most lines of an insight's sentence on its card: the longest the engine writes (the income
/// insight, about 300 characters) takes 6 at 8.5 pt, so none is cut off.
const MAX_INSIGHT_LINES: usize = 8;

/// An insight card: its title, its figure, its sentence in lines.
type Card = (String, String, Vec<String>);

/// The wallet of a report's statement, from its JSON code (`"airtel-money-ug"`) in the registry;
/// `None` for a code this version does not know.
fn wallet(report: &Report) -> Option<&'static Wallet> {
    crate::wallets::find(&report.statement.provider)
}

/// The wallet's name for people (`"Airtel Money Uganda"`), never its code; `"Mobile money"`
/// for a code this version does not know.
fn provider_name(report: &Report) -> String {
    wallet(report).map_or_else(|| "Mobile money".to_owned(), |w| w.name.to_owned())
}

/// The IANA time zone of the report's wallet, in which the generation time is printed; `None`
/// (UTC) without one.
pub(crate) fn time_zone(report: &Report) -> Option<&'static str> {
    wallet(report).and_then(|w| w.time_zone)
}

/// The page flow: a canvas and the y of the next free line.
struct Flow<'a> {
    c: Canvas,
    y: f32,
    report: &'a Report,
    options: &'a RenderOptions,
}

/// Lays the report out into pages.
pub(crate) fn build(canvas: Canvas, report: &Report, options: &RenderOptions) -> Canvas {
    let mut f = Flow {
        c: canvas,
        y: 0.0,
        report,
        options,
    };
    f.first_header();
    f.subject();
    f.score();
    f.factors();
    f.reason_codes();
    f.insights();
    f.cashflow();
    f.integrity();
    f.about();
    f.footers();
    f.c
}

impl Flow<'_> {
    fn currency(&self) -> String {
        let c = format::clean(&self.report.statement.currency);
        if c.is_empty() { "KES".to_owned() } else { c }
    }

    /// Breaks the page unless `h` points still fit; returns whether it broke.
    fn ensure(&mut self, h: f32) -> bool {
        if self.y + h <= CONTENT_BOTTOM {
            return false;
        }
        self.c.new_page();
        self.continuation_header();
        true
    }

    /// A section title and an optional note at the right. A short section (`total_h` points
    /// of content, up to [`KEEP_WHOLE`]) moves to a new page whole when it does not fit here; a
    /// longer one flows, its title kept with at least the first `first_h` points of content.
    fn section(&mut self, title: &str, note: &str, first_h: f32, total_h: f32) {
        self.y += SECTION_GAP;
        let needed = TITLE_H + total_h;
        let broke = if needed <= KEEP_WHOLE {
            self.ensure(needed)
        } else {
            self.ensure(TITLE_H + first_h)
        };
        if broke {
            self.y += 4.0;
        }
        self.section_title(title, note);
    }

    fn section_title(&mut self, title: &str, note: &str) {
        let base = self.y + 11.0;
        self.c.rect((LEFT, self.y + 1.0, 3.0, 12.0), 0.0, ACCENT);
        let w = self.c.text(
            LEFT + 9.0,
            base,
            Align::Left,
            Style::bold(10.5, NAVY),
            title,
        );
        if !note.is_empty() {
            self.c.text_fit(
                RIGHT,
                base,
                Align::Right,
                Style::regular(7.5, MUTED),
                note,
                WIDTH - w - 30.0,
            );
        }
        self.c
            .hline(LEFT, RIGHT, self.y + 17.0, Pen::solid(0.6, RULE));
        self.y += TITLE_H;
    }

    fn first_header(&mut self) {
        let r = self.report;
        self.c.rect((0.0, 0.0, PAGE_W, HEADER_H), 0.0, NAVY);
        self.c.rect((0.0, HEADER_H, PAGE_W, 3.0), 0.0, ACCENT);
        logo(&mut self.c, LEFT, 20.0, 30.0);
        self.c.text(
            LEFT + 40.0,
            33.0,
            Align::Left,
            Style::bold(19.0, WHITE),
            "ALAMA",
        );
        self.c.text(
            LEFT + 40.0,
            50.0,
            Align::Left,
            Style::regular(9.5, ON_NAVY),
            "Mobile-money credit report",
        );
        let lines = [
            ("Report ID", format::clean(&r.report_id)),
            (
                "Generated",
                format::timestamp(self.options.generated_at, time_zone(r)),
            ),
            ("Scorecard", format::clean(&r.scorecard_version)),
        ];
        for (i, (label, value)) in lines.iter().enumerate() {
            let base = 27.0 + 13.0 * i as f32;
            let w = self.c.text_fit(
                RIGHT,
                base,
                Align::Right,
                Style::bold(8.5, WHITE),
                value,
                200.0,
            );
            self.c.text(
                RIGHT - w - 6.0,
                base,
                Align::Right,
                Style::regular(8.0, ON_NAVY),
                label,
            );
        }
        self.y = HEADER_H + 3.0 + 16.0;
    }

    fn continuation_header(&mut self) {
        self.c.rect((0.0, 0.0, PAGE_W, CONT_HEADER_H), 0.0, NAVY);
        self.c.rect((0.0, CONT_HEADER_H, PAGE_W, 2.0), 0.0, ACCENT);
        logo(&mut self.c, LEFT, 8.0, 15.0);
        let w = self.c.text(
            LEFT + 21.0,
            20.0,
            Align::Left,
            Style::bold(11.0, WHITE),
            "ALAMA",
        );
        self.c.text(
            LEFT + 27.0 + w,
            20.0,
            Align::Left,
            Style::regular(8.5, ON_NAVY),
            "Mobile-money credit report (continued)",
        );
        let id = format::clean(&self.report.report_id);
        self.c.text_fit(
            RIGHT,
            20.0,
            Align::Right,
            Style::regular(8.0, ON_NAVY),
            &id,
            200.0,
        );
        self.y = CONT_HEADER_H + 2.0 + 14.0;
    }

    fn subject(&mut self) {
        let s = &self.report.statement;
        let name = s
            .holder_name
            .as_deref()
            .map(format::clean)
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "Not stated".to_owned());
        let phone = s
            .mobile_number_masked
            .as_deref()
            .map(format::clean)
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "Not stated".to_owned());
        let period = format!(
            "{} \u{2013} {}",
            format::long_date(&s.period_start),
            format::long_date(&s.period_end)
        );
        let days = chrono::NaiveDate::parse_from_str(&s.period_start, "%Y-%m-%d")
            .ok()
            .zip(chrono::NaiveDate::parse_from_str(&s.period_end, "%Y-%m-%d").ok())
            .map(|(a, b)| (b - a).num_days() + 1);
        let days = match days {
            Some(1) => "1 day".to_owned(),
            Some(n) => format!("{} days", format::grouped(n.into(), 0)),
            None => format::clean(&self.report.statement_period),
        };
        let columns = [
            (
                "ACCOUNT HOLDER",
                name,
                format!("{} \u{b7} {}", provider_name(self.report), self.currency()),
                0.32,
            ),
            (
                "MOBILE NUMBER",
                phone,
                "Masked for privacy".to_owned(),
                0.18,
            ),
            ("STATEMENT PERIOD", period, days, 0.30),
            (
                "TRANSACTIONS",
                format::grouped(s.transaction_count.into(), 0),
                format!("{} completed", format::grouped(s.completed_count.into(), 0)),
                0.20,
            ),
        ];
        let h = 56.0;
        self.c.rect((LEFT, self.y, WIDTH, h), 6.0, PANEL);
        let mut x = LEFT + 14.0;
        for (i, (label, value, sub, share)) in columns.iter().enumerate() {
            let w = (WIDTH - 28.0) * share;
            if i > 0 {
                self.c.stroke(
                    Shape::Line {
                        x1: x - 10.0,
                        y1: self.y + 12.0,
                        x2: x - 10.0,
                        y2: self.y + h - 12.0,
                    },
                    Pen::solid(0.6, RULE),
                );
            }
            let max = w - 16.0;
            self.c.text_fit(
                x,
                self.y + 17.0,
                Align::Left,
                Style::bold(6.8, MUTED),
                label,
                max,
            );
            self.c
                .text_shrink((x, self.y + 32.0), Style::bold(10.5, INK), value, max, 8.0);
            self.c.text_fit(
                x,
                self.y + 45.0,
                Align::Left,
                Style::regular(7.5, MUTED),
                sub,
                max,
            );
            x += w;
        }
        self.y += h;
    }

    fn score(&mut self) {
        let r = self.report;
        let top = self.y + 14.0;
        let cx = LEFT + 118.0;
        let radius = 80.0;
        let cy = top + 14.0 + radius;
        gauge(&mut self.c, (cx, cy, radius), r.score, r.band);
        // Right column: bands legend and the score's composition.
        let x0 = LEFT + 262.0;
        self.c.text(
            x0,
            top + 10.0,
            Align::Left,
            Style::bold(8.0, MUTED),
            "SCORE BANDS",
        );
        let mut y = top + 18.0;
        for (band, lo, hi) in Band::RANGES {
            let current = band == r.band;
            if current {
                self.c
                    .rect((x0 - 6.0, y, RIGHT - x0 + 6.0, 16.0), 4.0, PANEL);
            }
            self.c.rect((x0, y + 4.0, 9.0, 9.0), 2.0, band_color(band));
            let style = if current {
                Style::bold(8.5, INK)
            } else {
                Style::regular(8.5, MUTED)
            };
            self.c
                .text(x0 + 16.0, y + 11.5, Align::Left, style, band.as_str());
            self.c.text(
                x0 + 120.0,
                y + 11.5,
                Align::Right,
                style,
                &format!("{lo}\u{2013}{hi}"),
            );
            if current {
                self.c.text(
                    RIGHT - 6.0,
                    y + 11.5,
                    Align::Right,
                    Style::bold(7.5, band_color(band)),
                    "\u{25c0} THIS REPORT",
                );
            }
            y += 17.0;
        }
        let points: u32 = r.factors.iter().map(|f| u32::from(f.score)).sum();
        let max: u32 = r.factors.iter().map(|f| u32::from(f.max)).sum();
        let line = format!(
            "{} = 300 + {} of {} scorecard points",
            r.score,
            format::grouped(points.into(), 0),
            format::grouped(max.into(), 0)
        );
        self.c.text_fit(
            x0,
            y + 14.0,
            Align::Left,
            Style::regular(8.0, MUTED),
            &line,
            RIGHT - x0,
        );
        self.y = cy + 40.0;
    }

    fn factors(&mut self) {
        let r = self.report;
        let row = 19.0;
        let total = row * (r.factors.len() + 1) as f32 + 4.0;
        self.section(
            "Score factors",
            "Points earned of the maximum for each factor",
            row,
            total,
        );
        let name_w = 175.0;
        let bar_x = LEFT + name_w + 8.0;
        let bar_w = WIDTH - name_w - 8.0 - 78.0;
        for f in &r.factors {
            self.ensure(row);
            let ratio = if f.max == 0 {
                0.0
            } else {
                (f32::from(f.score) / f32::from(f.max)).clamp(0.0, 1.0)
            };
            let base = self.y + 12.0;
            self.c.text_fit(
                LEFT,
                base,
                Align::Left,
                Style::regular(9.0, INK),
                &format::clean(&f.name),
                name_w,
            );
            bar(
                &mut self.c,
                (bar_x, self.y + 5.0, bar_w),
                ratio,
                ratio_color(ratio),
            );
            self.points(base, u32::from(f.score), u32::from(f.max));
            self.y += row;
        }
        let points: u32 = r.factors.iter().map(|f| u32::from(f.score)).sum();
        let max: u32 = r.factors.iter().map(|f| u32::from(f.max)).sum();
        self.ensure(row + 4.0);
        self.c
            .hline(LEFT, RIGHT, self.y + 1.0, Pen::solid(0.6, RULE));
        self.y += 4.0;
        let base = self.y + 12.0;
        self.c
            .text(LEFT, base, Align::Left, Style::bold(9.0, INK), "Total");
        let ratio = if max == 0 {
            0.0
        } else {
            points as f32 / max as f32
        };
        bar(&mut self.c, (bar_x, self.y + 5.0, bar_w), ratio, NAVY);
        self.points(base, points, max);
        self.y += row;
    }

    /// `"45 / 80 pts"` right-aligned at the right margin.
    fn points(&mut self, base: f32, score: u32, max: u32) {
        let w = self.c.text(
            RIGHT,
            base,
            Align::Right,
            Style::regular(8.0, MUTED),
            &format!(" / {} pts", format::grouped(max.into(), 0)),
        );
        self.c.text(
            RIGHT - w,
            base,
            Align::Right,
            Style::bold(9.0, INK),
            &format::grouped(score.into(), 0),
        );
    }

    fn reason_codes(&mut self) {
        let r = self.report;
        let desc_x = LEFT + 44.0;
        let desc_w = WIDTH - 44.0 - 70.0;
        let rows: Vec<(Vec<String>, String, String, String)> = r
            .reason_codes
            .iter()
            .map(|rc| {
                let lines = self.c.wrap(
                    &format::sentence(&rc.description),
                    9.0,
                    Weight::Regular,
                    desc_w,
                    3,
                );
                let factor = r
                    .factors
                    .iter()
                    .find(|f| f.code == rc.factor)
                    .map_or_else(|| format::clean(&rc.factor), |f| format::clean(&f.name));
                (
                    lines,
                    format::clean(&rc.code),
                    factor,
                    format!("\u{2212}{} pts", rc.points_lost),
                )
            })
            .collect();
        let row_h = |lines: usize| 12.0 * lines as f32 + 16.0;
        let first = rows.first().map_or(16.0, |r| row_h(r.0.len()));
        let total = rows.iter().map(|r| row_h(r.0.len())).sum::<f32>().max(16.0);
        self.section(
            "Reason codes",
            "What lowered the score, largest effect first",
            first,
            total,
        );
        if rows.is_empty() {
            self.note("No reason codes: every factor earned its maximum points.");
            return;
        }
        for (lines, code, factor, lost) in rows {
            let h = row_h(lines.len());
            self.ensure(h);
            let top = self.y + 2.0;
            self.c.rect((LEFT, top, 34.0, 14.0), 3.0, NAVY.tint(0.88));
            self.c.text_fit(
                LEFT + 17.0,
                top + 10.0,
                Align::Center,
                Style::bold(7.5, NAVY),
                &code,
                32.0,
            );
            for (i, line) in lines.iter().enumerate() {
                self.c.text(
                    desc_x,
                    top + 10.0 + 12.0 * i as f32,
                    Align::Left,
                    Style::regular(9.0, INK),
                    line,
                );
            }
            self.c.text_fit(
                desc_x,
                top + 10.0 + 12.0 * lines.len() as f32,
                Align::Left,
                Style::regular(7.5, FAINT),
                &factor,
                desc_w,
            );
            self.c.text(
                RIGHT,
                top + 10.0,
                Align::Right,
                Style::bold(9.0, BAD),
                &lost,
            );
            self.y += h;
        }
    }

    fn insights(&mut self) {
        let r = self.report;
        let gap = 10.0;
        let card_w = (WIDTH - gap) / 2.0;
        let text_w = card_w - 24.0;
        let wallet = wallet(r).unwrap_or(crate::wallets::GENERIC);
        // Each card: what the figure is (the insight's title), the figure, its sentence whole.
        let cards: Vec<Card> = r
            .insights
            .iter()
            .map(|i| {
                let figure = format::figure(i.value, &format::clean(&i.unit), &self.currency());
                let title = crate::insights::title(&i.code, wallet)
                    .map_or_else(|| format::clean(&i.code), str::to_owned);
                let lines = self.c.wrap(
                    &format::sentence(&i.message),
                    8.5,
                    Weight::Regular,
                    text_w,
                    MAX_INSIGHT_LINES,
                );
                (title.to_uppercase(), figure, lines)
            })
            .collect();
        let card_h = |lines: usize| 46.0 + 11.0 * lines as f32;
        let row_h = |pair: &[Card]| {
            pair.iter()
                .map(|c| card_h(c.2.len()))
                .fold(0.0_f32, f32::max)
        };
        let first = cards.chunks(2).next().map_or(16.0, row_h);
        let total = cards
            .chunks(2)
            .map(|p| row_h(p) + gap)
            .sum::<f32>()
            .max(16.0);
        self.section(
            "Key insights",
            "Figures from the completed transactions",
            first,
            total,
        );
        if cards.is_empty() {
            self.note("No insights for this statement.");
            return;
        }
        for pair in cards.chunks(2) {
            let h = row_h(pair);
            self.ensure(h);
            for (i, (title, figure, lines)) in pair.iter().enumerate() {
                let x = LEFT + (card_w + gap) * i as f32;
                self.c.rect((x, self.y, card_w, h), 6.0, PANEL);
                self.c.rect((x, self.y + 8.0, 3.0, h - 16.0), 0.0, ACCENT);
                self.c.text_fit(
                    x + 14.0,
                    self.y + 15.0,
                    Align::Left,
                    Style::bold(6.8, MUTED),
                    title,
                    text_w,
                );
                self.c.text_fit(
                    x + 14.0,
                    self.y + 31.0,
                    Align::Left,
                    Style::bold(12.5, INK),
                    figure,
                    text_w,
                );
                for (j, line) in lines.iter().enumerate() {
                    self.c.text(
                        x + 14.0,
                        self.y + 45.0 + 11.0 * j as f32,
                        Align::Left,
                        Style::regular(8.5, MUTED),
                        line,
                    );
                }
            }
            self.y += h + gap;
        }
        self.y -= gap;
    }

    fn cashflow(&mut self) {
        let chart_h = 164.0;
        self.section("Monthly cash flow", "", chart_h, chart_h);
        // Legend in the title line.
        let base = self.y - TITLE_H + 11.0;
        let w = self.c.text(
            RIGHT,
            base,
            Align::Right,
            Style::regular(8.0, MUTED),
            "Money out",
        );
        self.c
            .rect((RIGHT - w - 13.0, base - 7.5, 8.0, 8.0), 1.5, MONEY_OUT);
        let x = RIGHT - w - 24.0;
        let w2 = self.c.text(
            x,
            base,
            Align::Right,
            Style::regular(8.0, MUTED),
            "Money in",
        );
        self.c
            .rect((x - w2 - 13.0, base - 7.5, 8.0, 8.0), 1.5, MONEY_IN);
        let months = &self.report.statement.monthly;
        if months.is_empty() {
            self.note("No completed transactions by month.");
            return;
        }
        let shown = &months[months.len().saturating_sub(MAX_MONTHS)..];
        chart(&mut self.c, (LEFT, self.y + 4.0, WIDTH, 118.0), shown);
        self.y += 4.0 + 118.0 + 36.0;
        let s = &self.report.statement;
        let cur = self.currency();
        let net = s.total_paid_in - s.total_withdrawn;
        let mut summary = format!(
            "Total in {}   \u{b7}   Total out {}   \u{b7}   Net {}",
            format::money(s.total_paid_in, &cur),
            format::money(s.total_withdrawn, &cur),
            format::money(net, &cur)
        );
        if shown.len() < months.len() {
            summary = format!("{summary}   \u{b7}   latest {MAX_MONTHS} months shown");
        }
        self.c.text_fit(
            LEFT,
            self.y,
            Align::Left,
            Style::regular(8.0, MUTED),
            &summary,
            WIDTH,
        );
        self.y += 4.0;
    }

    fn integrity(&mut self) {
        let integrity = &self.report.integrity;
        let msg_x = LEFT + 72.0;
        let msg_w = WIDTH - 72.0;
        let rows: Vec<(Severity, Vec<String>, String)> = integrity
            .findings
            .iter()
            .take(MAX_FINDINGS)
            .map(|f| {
                let lines = self.c.wrap(
                    &format::sentence(&f.message),
                    8.5,
                    Weight::Regular,
                    msg_w,
                    4,
                );
                (f.severity, lines, format::clean(&f.code))
            })
            .collect();
        let row_h = |lines: usize| 11.0 * lines as f32 + 19.0;
        let first = rows.first().map_or(16.0, |r| row_h(r.1.len()));
        let total = 22.0 + rows.iter().map(|r| row_h(r.1.len())).sum::<f32>().max(16.0);
        self.section("Integrity checks", "", 22.0 + first, total);
        let (status_color, status_word) = match integrity.status.as_str() {
            "verified" => (GOOD, "VERIFIED".to_owned()),
            // The arithmetic holds but the origin cannot be checked: blue, not green.
            "consistent" => (INFO, "CONSISTENT".to_owned()),
            "failed" => (BAD, "FAILED".to_owned()),
            "warnings" => (WARN, "WARNINGS".to_owned()),
            other => (MUTED, format::clean(other).to_uppercase()),
        };
        let w = self.c.width(&status_word, 7.5, Weight::Bold) + 16.0;
        self.c.rect((LEFT, self.y, w, 15.0), 7.5, status_color);
        self.c.text(
            LEFT + w / 2.0,
            self.y + 10.5,
            Align::Center,
            Style::bold(7.5, WHITE),
            &status_word,
        );
        let reconciled = match integrity.summary_reconciled {
            Some(true) => "The transactions add up to the statement's own summary.",
            Some(false) => "The transactions do not add up to the statement's own summary.",
            None => "The statement has no summary to reconcile against.",
        };
        self.c.text(
            LEFT + w + 8.0,
            self.y + 10.5,
            Align::Left,
            Style::regular(8.5, INK),
            reconciled,
        );
        self.y += 22.0;
        if rows.is_empty() {
            self.note("\u{2713} No findings: every integrity check passed.");
            return;
        }
        for (severity, lines, code) in rows {
            let h = row_h(lines.len());
            self.ensure(h);
            let color = severity_color(severity);
            self.c
                .rect((LEFT, self.y + 1.0, 62.0, 13.0), 3.0, color.tint(0.85));
            self.c.text(
                LEFT + 31.0,
                self.y + 10.0,
                Align::Center,
                Style::bold(6.8, color),
                severity_word(severity),
            );
            for (i, line) in lines.iter().enumerate() {
                self.c.text(
                    msg_x,
                    self.y + 10.0 + 11.0 * i as f32,
                    Align::Left,
                    Style::regular(8.5, INK),
                    line,
                );
            }
            self.c.text_fit(
                msg_x,
                self.y + 10.0 + 11.0 * lines.len() as f32,
                Align::Left,
                Style::regular(7.0, FAINT),
                &code,
                msg_w,
            );
            self.y += h;
        }
        let more = integrity.findings.len().saturating_sub(MAX_FINDINGS);
        if more > 0 {
            self.note(&format!(
                "\u{2026} and {more} more findings, listed in the JSON report."
            ));
        }
    }

    fn about(&mut self) {
        let paragraphs = [
            format!(
                "The Alama score runs from 300 to 850: 300 plus the points the statement earns on \
                 scorecard {}. Bands: Poor 300\u{2013}579, Fair 580\u{2013}669, Good \
                 670\u{2013}739, Very Good 740\u{2013}799, Excellent 800\u{2013}850.",
                format::clean(&self.report.scorecard_version)
            ),
            "Every figure comes from the completed transactions of the statement the applicant \
             supplied. Integrity checks compare its rows with the statement's own summary, its \
             running balance and the document's properties; a critical finding means the \
             statement should not be relied on without a fresh copy from the wallet provider."
                .to_owned(),
        ];
        let lines: Vec<Vec<String>> = paragraphs
            .iter()
            .map(|p| self.c.wrap(p, 7.8, Weight::Regular, WIDTH, 6))
            .collect();
        let h: f32 = lines.iter().map(|l| 10.5 * l.len() as f32 + 4.0).sum();
        // Background only: never worth a page of its own.
        if self.y + SECTION_GAP + TITLE_H + h > CONTENT_BOTTOM {
            return;
        }
        self.section("About this report", "", h, h);
        for para in lines {
            for line in para {
                self.c.text(
                    LEFT,
                    self.y + 8.0,
                    Align::Left,
                    Style::regular(7.8, MUTED),
                    &line,
                );
                self.y += 10.5;
            }
            self.y += 4.0;
        }
    }

    /// A muted one-line note.
    fn note(&mut self, text: &str) {
        self.ensure(16.0);
        self.c.text_fit(
            LEFT,
            self.y + 10.0,
            Align::Left,
            Style::regular(8.5, MUTED),
            text,
            WIDTH,
        );
        self.y += 16.0;
    }

    fn footers(&mut self) {
        let issuer = format::clean(&self.options.issuer);
        let issuer = if issuer.is_empty() {
            "Alama".to_owned()
        } else {
            self.c.ellipsize(&issuer, 6.8, Weight::Regular, 180.0)
        };
        let disclaimer = format!(
            "Prepared by {issuer} from the mobile-money statement the applicant supplied. It \
             assesses that statement only and is not a credit bureau record: confirm the \
             applicant's identity and review the integrity checks before lending."
        );
        let lines = self
            .c
            .wrap(&disclaimer, 6.8, Weight::Regular, WIDTH - 130.0, 3);
        let total = self.c.page_count();
        let id = format::clean(&self.report.report_id);
        for page in 0..total {
            let mut c = PageWriter {
                c: &mut self.c,
                page,
            };
            c.line(FOOTER_RULE, Pen::solid(0.6, RULE));
            for (i, line) in lines.iter().enumerate() {
                c.text(
                    LEFT,
                    FOOTER_RULE + 11.0 + 9.0 * i as f32,
                    Align::Left,
                    Style::regular(6.8, FAINT),
                    line,
                );
            }
            c.text(
                RIGHT,
                FOOTER_RULE + 11.0,
                Align::Right,
                Style::bold(7.5, MUTED),
                &format!("Page {} of {total}", page + 1),
            );
            let short = c.c.ellipsize(&id, 6.8, Weight::Regular, 140.0);
            c.text(
                RIGHT,
                FOOTER_RULE + 20.0,
                Align::Right,
                Style::regular(6.8, FAINT),
                &short,
            );
        }
    }
}

/// Writes footer operations onto an earlier page.
struct PageWriter<'c> {
    c: &'c mut Canvas,
    page: usize,
}

impl PageWriter<'_> {
    fn line(&mut self, y: f32, pen: Pen) {
        self.c.push_to(
            self.page,
            super::canvas::Op::Stroke(
                Shape::Line {
                    x1: LEFT,
                    y1: y,
                    x2: RIGHT,
                    y2: y,
                },
                pen,
            ),
        );
    }

    fn text(&mut self, x: f32, y: f32, align: Align, style: Style, text: &str) {
        let w = self.c.width(text, style.size, style.weight);
        let x = match align {
            Align::Left => x,
            Align::Center => x - w / 2.0,
            Align::Right => x - w,
        };
        self.c.push_to(
            self.page,
            super::canvas::Op::Text {
                x,
                y,
                size: style.size,
                weight: style.weight,
                color: style.color,
                text: text.to_owned(),
            },
        );
    }
}
