//! The report's graphics: the brand mark, the score gauge, progress bars and the monthly
//! cash-flow chart, drawn from paths.

// Geometry reads best with its usual one-letter names (x, y, w, h, r).
#![allow(clippy::many_single_char_names)]

use std::f32::consts::PI;

use crate::report::{Band, MonthlyCashflow};

use super::canvas::{Align, Canvas, Pen, Rgb, Shape, Style};
use super::format;
use super::palette::{
    ACCENT, FAINT, INK, MONEY_IN, MONEY_OUT, MUTED, NAVY, RULE, TRACK, WHITE, band_color,
};

/// The brand mark: a small gauge in a rounded square, `size` points wide, top-left at (x, y).
pub(super) fn logo(c: &mut Canvas, x: f32, y: f32, size: f32) {
    c.rect((x, y, size, size), size * 0.22, ACCENT);
    let cx = x + size / 2.0;
    let cy = y + size * 0.68;
    let r = size * 0.3;
    c.stroke(
        Shape::Arc {
            cx,
            cy,
            r,
            start: PI,
            end: 0.0,
        },
        Pen {
            width: size * 0.1,
            color: WHITE,
            round: true,
            dashed: false,
        },
    );
    let a = PI * 0.3;
    c.stroke(
        Shape::Line {
            x1: cx,
            y1: cy,
            x2: cx + r * 0.85 * a.cos(),
            y2: cy - r * 0.85 * a.sin(),
        },
        Pen {
            width: size * 0.08,
            color: WHITE,
            round: true,
            dashed: false,
        },
    );
}

/// Paper angle of a score on the half-circle gauge: 300 at the left (π), 850 at the right (0).
fn score_angle(score: f32) -> f32 {
    PI * (1.0 - ((score - 300.0) / 550.0).clamp(0.0, 1.0))
}

/// Width of the gauge's arc, points.
const GAUGE_WIDTH: f32 = 15.0;

/// The score gauge: five band arcs, a marker at the score, the score and band in the middle.
pub(super) fn gauge(c: &mut Canvas, (cx, cy, r): (f32, f32, f32), score: u16, band: Band) {
    gauge_arcs(c, (cx, cy, r), band);
    gauge_ticks(c, (cx, cy, r));
    gauge_marker(c, (cx, cy, r), score);
    // Centre: score, band, range.
    c.text(
        cx,
        cy - 14.0,
        Align::Center,
        Style::bold(38.0, INK),
        &score.to_string(),
    );
    c.text(
        cx,
        cy + 4.0,
        Align::Center,
        Style::bold(13.0, band_color(band)),
        band.as_str(),
    );
    c.text(
        cx,
        cy + 17.0,
        Align::Center,
        Style::regular(7.5, MUTED),
        "Alama score, 300\u{2013}850",
    );
}

/// One arc per band, the report's band in full colour and the others tinted.
fn gauge_arcs(c: &mut Canvas, (cx, cy, r): (f32, f32, f32), band: Band) {
    let gap = 0.012;
    let ranges = Band::RANGES;
    for (i, (b, lo, _)) in ranges.iter().enumerate() {
        let next = ranges.get(i + 1).map_or(850.0, |n| f32::from(n.1));
        let start = score_angle(f32::from(*lo)) - if i == 0 { 0.0 } else { gap };
        let end = score_angle(next) + if i == ranges.len() - 1 { 0.0 } else { gap };
        let color = if *b == band {
            band_color(*b)
        } else {
            band_color(*b).tint(0.62)
        };
        c.stroke(
            Shape::Arc {
                cx,
                cy,
                r,
                start,
                end,
            },
            Pen::solid(GAUGE_WIDTH, color),
        );
    }
}

/// Labels at the band boundaries, outside the arc.
fn gauge_ticks(c: &mut Canvas, (cx, cy, r): (f32, f32, f32)) {
    for value in [300.0, 580.0, 670.0, 740.0, 800.0, 850.0] {
        let a = score_angle(value);
        let (tx, ty) = (cx + (r + 15.0) * a.cos(), cy - (r + 15.0) * a.sin());
        let align = if a > PI * 0.55 {
            Align::Right
        } else if a < PI * 0.45 {
            Align::Left
        } else {
            Align::Center
        };
        // The end labels sit below the arc's ends; the others beside the arc.
        let dy = if (PI * 0.05..=PI * 0.95).contains(&a) {
            2.5
        } else {
            10.0
        };
        let dx = match align {
            Align::Right => 3.0,
            Align::Left => -3.0,
            Align::Center => 0.0,
        };
        c.text(
            tx + dx,
            ty + dy,
            align,
            Style::regular(6.8, FAINT),
            &format!("{value:.0}"),
        );
    }
}

/// The score's marker: a notch across the arc and a pointer just inside it.
fn gauge_marker(c: &mut Canvas, (cx, cy, r): (f32, f32, f32), score: u16) {
    let width = GAUGE_WIDTH;
    let a = score_angle(f32::from(score));
    let at = |radius: f32, da: f32| (cx + radius * (a + da).cos(), cy - radius * (a + da).sin());
    let (ox, oy) = at(r + width / 2.0 + 2.0, 0.0);
    let (ix, iy) = at(r - width / 2.0 - 1.0, 0.0);
    c.stroke(
        Shape::Line {
            x1: ix,
            y1: iy,
            x2: ox,
            y2: oy,
        },
        Pen {
            width: 4.5,
            color: WHITE,
            round: false,
            dashed: false,
        },
    );
    c.stroke(
        Shape::Line {
            x1: ix,
            y1: iy,
            x2: ox,
            y2: oy,
        },
        Pen::solid(2.0, NAVY),
    );
    let tip = at(r - width / 2.0 - 2.5, 0.0);
    let base = r - width / 2.0 - 13.0;
    c.fill(
        Shape::Polygon(vec![tip, at(base, 0.075), at(base, -0.075)]),
        NAVY,
    );
}

/// A horizontal progress bar: track plus a fill of `ratio` (0–1).
pub(super) fn bar(c: &mut Canvas, (x, y, w): (f32, f32, f32), ratio: f32, color: Rgb) {
    let h = 8.0;
    c.rect((x, y, w, h), h / 2.0, TRACK);
    if ratio > 0.0 {
        c.rect((x, y, (w * ratio).max(h), h), h / 2.0, color);
    }
}

/// Largest "nice" step (1, 2, 2.5 or 5 × 10ⁿ) so that 4 steps cover `max`.
fn nice_step(max: f64) -> f64 {
    if max <= 0.0 || !max.is_finite() {
        return 1.0;
    }
    let raw = max / 4.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * magnitude)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * magnitude)
}

/// Paired monthly bars (money in, money out) with a y axis of 4 steps and month labels.
pub(super) fn chart(
    c: &mut Canvas,
    (x, y, w, h): (f32, f32, f32, f32),
    months: &[MonthlyCashflow],
) {
    let max = months
        .iter()
        .map(|m| format::to_f64(m.paid_in).max(format::to_f64(m.withdrawn)))
        .fold(0.0, f64::max);
    let step = nice_step(max);
    let top = step * 4.0;
    let axis_w = 44.0;
    let (px, pw) = (x + axis_w, w - axis_w);
    for i in 0..=4 {
        let v = step * f64::from(i);
        let gy = y + h - h * (v / top) as f32;
        let pen = if i == 0 {
            Pen::solid(0.8, MUTED.tint(0.4))
        } else {
            Pen {
                dashed: true,
                ..Pen::solid(0.5, RULE)
            }
        };
        c.hline(px, x + w, gy, pen);
        c.text(
            px - 6.0,
            gy + 2.5,
            Align::Right,
            Style::regular(6.8, FAINT),
            &format::compact(v),
        );
    }
    let n = months.len().max(1) as f32;
    let slot = pw / n;
    let bar_w = (slot * 0.32).min(13.0);
    let label_every = (months.len() as f32 / 18.0).ceil().max(1.0) as usize;
    for (i, m) in months.iter().enumerate() {
        let center = px + slot * (i as f32 + 0.5);
        for (value, color, dx) in [
            (m.paid_in, MONEY_IN, -bar_w - 0.6),
            (m.withdrawn, MONEY_OUT, 0.6),
        ] {
            let bh = (h * (format::to_f64(value) / top) as f32).clamp(0.0, h);
            if bh > 0.0 {
                c.rect(
                    (center + dx, y + h - bh, bar_w, bh),
                    1.2_f32.min(bh / 2.0),
                    color,
                );
            }
        }
        let (month, year) = format::month_parts(&m.month);
        if i % label_every == 0 {
            c.text_fit(
                center,
                y + h + 10.0,
                Align::Center,
                Style::regular(6.8, MUTED),
                &month,
                slot * label_every as f32 - 2.0,
            );
            if let (true, Some(year)) = (i == 0 || month == "Jan", year) {
                c.text(
                    center,
                    y + h + 19.0,
                    Align::Center,
                    Style::bold(6.5, FAINT),
                    &year,
                );
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nice_steps_cover_the_maximum() {
        assert!((nice_step(0.0) - 1.0).abs() < 1e-9);
        assert!((nice_step(100_000.0) - 25_000.0).abs() < 1e-6);
        assert!((nice_step(130_000.0) - 50_000.0).abs() < 1e-6);
        for max in [1.0, 7.5, 999.0, 12_345.0, 9_999_999.0] {
            assert!(nice_step(max) * 4.0 >= max);
        }
    }

    #[test]
    fn gauge_angles_run_left_to_right() {
        assert!((score_angle(300.0) - PI).abs() < 1e-6);
        assert!(score_angle(850.0).abs() < 1e-6);
        assert!((score_angle(100.0) - PI).abs() < 1e-6);
        assert!(score_angle(575.0) > score_angle(576.0));
    }
}
