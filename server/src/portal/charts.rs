//! The portal's charts, drawn as SVG on the server (no script, no inline style: the portal's
//! CSP allows neither; colours come from the stylesheet by class): the overview's bar charts
//! with a scale, and a report's monthly money in and out. Geometry is in SVG user units of a
//! fixed `viewBox`; the SVG scales to its container's width.

use alama_core::report::MonthlyCashflow;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;

/// Width of a report's chart's `viewBox` (beside other content, on a phone too).
pub const W: i64 = 640;
/// Width of the overview's charts' `viewBox` (a whole row each: wider, so their text is not
/// scaled up on a wide screen).
pub const WIDE: i64 = 960;
/// Left margin (the scale's labels).
const LEFT: i64 = 64;
/// Top of the plot.
const TOP: i64 = 12;
/// Height of the plot.
const PLOT_H: i64 = 180;
/// Bottom of the plot (the axis).
pub const AXIS: i64 = TOP + PLOT_H;

/// A horizontal line of the scale with its label.
#[derive(Debug, Clone)]
pub struct Tick {
    /// y of the line.
    pub y: i64,
    /// `"2.5M"`, `"120"`.
    pub label: String,
}

/// A label under the axis.
#[derive(Debug, Clone)]
pub struct XLabel {
    /// Centre.
    pub x: i64,
    /// First line (`"Mar"`, `"11-02"`).
    pub text: String,
    /// Second line (`"2025"`), or empty.
    pub sub: String,
}

/// One bar.
#[derive(Debug, Clone)]
pub struct Bar {
    /// Left edge.
    pub x: i64,
    /// Top edge.
    pub y: i64,
    /// Width.
    pub w: i64,
    /// Height.
    pub h: i64,
    /// CSS class (`bar`, `in`, `out`).
    pub class: &'static str,
    /// The tooltip (`"2025-03: in UGX 1,200,000"`).
    pub tip: String,
    /// The value drawn, as text (for tests and screen readers).
    pub value: String,
}

/// A bar chart with a scale: the overview's.
#[derive(Debug, Clone)]
pub struct Chart {
    /// Title, also the SVG's accessible name.
    pub title: String,
    /// Width of its `viewBox` ([`WIDE`]).
    pub width: i64,
    /// Its accessible description (`"largest 12 on 2026-11-20"`).
    pub summary: String,
    /// Scale lines, bottom first.
    pub ticks: Vec<Tick>,
    /// The bars.
    pub bars: Vec<Bar>,
    /// Labels under the axis.
    pub labels: Vec<XLabel>,
}

/// A report's monthly money in and out.
#[derive(Debug, Clone)]
pub struct CashChart {
    /// Accessible summary.
    pub summary: String,
    /// The scale's unit (`"UGX"`).
    pub unit: String,
    /// Scale lines.
    pub ticks: Vec<Tick>,
    /// Money in and money out bars, month by month.
    pub bars: Vec<Bar>,
    /// Month labels.
    pub labels: Vec<XLabel>,
    /// Months in a table, for reading the exact figures: month, in, out.
    pub rows: Vec<(String, String, String)>,
}

/// Most months charted (the latest), as in the PDF report.
pub const MAX_MONTHS: usize = 36;

/// A round top for a scale reaching `max` (> 0): 1, 2, 2.5 or 5 times a power of ten, at least
/// `max`, with 4 steps.
fn nice_top(max: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 4.0;
    }
    let step = max / 4.0;
    let power = 10f64.powf(step.log10().floor());
    let unit = [1.0, 2.0, 2.5, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|s| s * 4.0 >= max)
        .unwrap_or(10.0 * power);
    unit * 4.0
}

fn ticks(top: f64) -> Vec<Tick> {
    (0..=4)
        .map(|i| Tick {
            y: AXIS - PLOT_H * i / 4,
            label: alama_core::money::compact(top * f64::from(u8::try_from(i).unwrap_or(0)) / 4.0),
        })
        .collect()
}

fn height(value: f64, top: f64) -> i64 {
    if top <= 0.0 {
        return 0;
    }
    // Rounded to whole units; a value above zero stays visible.
    let h = ((value / top) * PLOT_H as f64).round() as i64;
    if value > 0.0 { h.clamp(1, PLOT_H) } else { 0 }
}

/// Every `n`th of `count` slots gets a label, so that at most about 8 fit.
fn label_every(count: usize) -> usize {
    count.div_ceil(8).max(1)
}

impl Chart {
    /// A chart of `values` (bucket's first day `YYYY-MM-DD`, value), with a scale from 0.
    pub fn new(title: &str, values: &[(String, i64)]) -> Self {
        let max = values.iter().map(|(_, v)| *v).max().unwrap_or(0).max(0) as f64;
        let top = nice_top(max.max(4.0));
        let n = i64::try_from(values.len()).unwrap_or(1).max(1);
        let slot = (WIDE - LEFT) / n;
        let every = label_every(values.len());
        let mut bars = Vec::with_capacity(values.len());
        let mut labels = Vec::new();
        for (i, (label, value)) in values.iter().enumerate() {
            let x = LEFT + i64::try_from(i).unwrap_or(0) * slot;
            let h = height(*value as f64, top);
            let w = (slot * 3 / 4).clamp(1, 48);
            bars.push(Bar {
                x: x + (slot - w) / 2,
                y: AXIS - h,
                w,
                h,
                class: "bar",
                tip: format!("{label}: {value}"),
                value: value.to_string(),
            });
            if i % every == 0 {
                labels.push(XLabel {
                    x: x + slot / 2,
                    text: label.get(5..).unwrap_or(label).to_owned(),
                    sub: if i == 0 {
                        label.get(..4).unwrap_or_default().to_owned()
                    } else {
                        String::new()
                    },
                });
            }
        }
        let largest = values.iter().max_by_key(|(_, v)| *v);
        Self {
            title: title.to_owned(),
            width: WIDE,
            summary: largest.map_or_else(
                || "no data".to_owned(),
                |(l, v)| format!("largest {v}, from {l}"),
            ),
            ticks: ticks(top),
            bars,
            labels,
        }
    }
}

/// The monthly money in and out of a report (the latest [`MAX_MONTHS`] months), amounts in
/// `currency`'s customary form; `None` without months.
pub fn cash_chart(months: &[MonthlyCashflow], currency: &str) -> Option<CashChart> {
    if months.is_empty() {
        return None;
    }
    let shown = &months[months.len().saturating_sub(MAX_MONTHS)..];
    let f = |d: Decimal| d.to_f64().unwrap_or(0.0).max(0.0);
    let max = shown
        .iter()
        .map(|m| f(m.paid_in).max(f(m.withdrawn)))
        .fold(0.0, f64::max);
    let top = nice_top(max);
    let n = i64::try_from(shown.len()).unwrap_or(1).max(1);
    let slot = (W - LEFT) / n;
    // Two bars side by side in the middle of the month's slot, never wider than 40 units.
    let bar_w = (slot * 3 / 8).clamp(1, 40);
    let every = label_every(shown.len());
    let money = |d: Decimal| alama_core::money::display(currency, d);
    let mut bars = Vec::with_capacity(shown.len() * 2);
    let mut labels = Vec::new();
    let mut rows = Vec::with_capacity(shown.len());
    for (i, m) in shown.iter().enumerate() {
        let x = LEFT + i64::try_from(i).unwrap_or(0) * slot;
        let date = NaiveDate::parse_from_str(&format!("{}-01", m.month), "%Y-%m-%d").ok();
        let name = date.map_or_else(|| m.month.clone(), |d| d.format("%b %Y").to_string());
        for (k, (class, value, word)) in [("in", m.paid_in, "in"), ("out", m.withdrawn, "out")]
            .into_iter()
            .enumerate()
        {
            let h = height(f(value), top);
            bars.push(Bar {
                x: x + slot / 2 - bar_w + i64::try_from(k).unwrap_or(0) * bar_w,
                y: AXIS - h,
                w: bar_w,
                h,
                class,
                tip: format!("{name}: money {word} {}", money(value)),
                value: value.to_string(),
            });
        }
        if i % every == 0 {
            let first_of_year = date.is_some_and(|d| d.format("%m").to_string() == "01");
            labels.push(XLabel {
                x: x + slot / 2,
                text: date.map_or_else(|| m.month.clone(), |d| d.format("%b").to_string()),
                sub: if i == 0 || first_of_year {
                    date.map(|d| d.format("%Y").to_string()).unwrap_or_default()
                } else {
                    String::new()
                },
            });
        }
        rows.push((name, money(m.paid_in), money(m.withdrawn)));
    }
    let first = rows.first().map(|r| r.0.clone()).unwrap_or_default();
    let last = rows.last().map(|r| r.0.clone()).unwrap_or_default();
    Some(CashChart {
        summary: format!(
            "Money in and money out by month, {first} to {last}, {currency}; the table below \
             gives the figures"
        ),
        unit: currency.to_owned(),
        ticks: ticks(top),
        bars,
        labels,
        rows,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scales_are_round_and_reach_the_largest_value() {
        assert!((nice_top(1.0) - 1.0).abs() < 1e-9);
        assert!((nice_top(4.0) - 4.0).abs() < 1e-9);
        assert!((nice_top(5.0) - 8.0).abs() < 1e-9);
        assert!((nice_top(7.0) - 8.0).abs() < 1e-9);
        assert!((nice_top(130_680.0) - 200_000.0).abs() < 1e-6);
        assert!((nice_top(8_324_000.0) - 10_000_000.0).abs() < 1e-3);
    }

    #[test]
    fn the_cash_chart_draws_two_bars_a_month_in_the_currencys_form() {
        let month = |m: &str, i: i64, o: i64| MonthlyCashflow {
            month: m.to_owned(),
            paid_in: Decimal::new(i, 2),
            withdrawn: Decimal::new(o, 2),
        };
        let chart = cash_chart(
            &[
                month("2025-12", 120_000_055, 0),
                month("2026-01", 50, 10_000),
            ],
            "UGX",
        )
        .expect("a chart");
        assert_eq!(chart.bars.len(), 4);
        assert_eq!(chart.bars[0].h, PLOT_H * 1_200_000 / 2_000_000);
        assert_eq!(chart.bars[1].h, 0);
        assert_eq!(chart.bars[2].h, 1, "a small amount stays visible");
        assert_eq!(chart.rows[0].1, "UGX 1,200,001");
        assert_eq!(chart.labels[1].sub, "2026");
        assert!(cash_chart(&[], "UGX").is_none());
    }

    #[test]
    fn usage_charts_label_a_few_days_and_keep_a_scale() {
        let values: Vec<(String, i64)> = (1..=30)
            .map(|d| (format!("2026-11-{d:02}"), i64::from(d % 3 == 0)))
            .collect();
        let chart = Chart::new("Requests", &values);
        assert_eq!(chart.bars.len(), 30);
        assert!(chart.labels.len() >= 6 && chart.labels.len() <= 8);
        assert_eq!(chart.labels[0].text, "11-01");
        assert_eq!(chart.ticks.len(), 5);
        assert_eq!(chart.ticks[4].label, "4");
    }
}
