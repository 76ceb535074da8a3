//! Where the amounts of the transaction table and the SUMMARY sit, against where Safaricom's
//! writers put them.
//!
//! Both writers (iText 5, `OpenPDF` 1.3) right-align every amount of the table in its cell: the
//! text starts at the cell's right edge `R` less the text's width `w` (the font's widths times
//! the size), and the start is written into the content stream to 0.01 pt
//! (`ByteBuffer.formatDouble`, which rounds half up to two decimals above 1). So an amount
//! starts on a hundredth of a point and ends at `round(R − w, 0.01) + w`, within 0.005 pt of
//! `R`: every amount of one column ends within 0.01 pt of every other. The SUMMARY's amounts,
//! centred, start on a hundredth too. Measured on the genuine Safaricom PDFs: every `Tm` and
//! `Td` operand of the three originals (76,890 text moves, decrypted with qpdf) has at most two
//! decimals, and every table amount's start as read is within 0.00003 pt of a hundredth (single
//! precision); on the six that open (both layouts, 30,092 amounts) each column's right edges
//! span at most 0.008 pt (the glyph size is 6 and the widths give even thousandths, so no start
//! is a tie), and amounts whose widths agree modulo 0.01 pt end at the same edge, on every
//! file.
//!
//! Three checks follow ([`off_grid`], [`off_rounding`], [`off_hundredths`]):
//! - an amount changed in length and left where the old one started ends a glyph's width
//!   (points) away from its column; in the SUMMARY, whose amounts are centred, half of it
//!   ([`summary_cells`]);
//! - a longer amount moved left by the width it gained, from its old start (what a careful
//!   forger computes), ends where the old one ended; written as computed, its start is off the
//!   hundredths (a digit is 3.336 pt wide at size 6, a comma 1.668 pt), which no start the
//!   writer writes is ([`off_hundredths`]; but for a gain of two digits and a comma, 8.34 pt);
//!   rounded to 0.01 pt, it keeps the old start's rounding error and adds its own: it may end
//!   0.01 pt from another amount of its column, which no start the writer rounds can give (16
//!   of 24 such forgeries of the two encrypted originals, `written_back_realigned` in
//!   docs/integrity.md; [`off_rounding`]). A forger who takes the column's edge from an amount
//!   whose width agrees modulo 0.01 pt places it exactly as the writer would, and is not seen.
//!   Where the edited amounts are most of a column, the lines named are the genuine ones: the
//!   column is off either way.

use super::layout::{Label, labels};
use crate::pdf::Line;
use crate::statement::PageLine;

/// Where one amount's text sits, points from the left of the page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Placed {
    /// The left edge of its first glyph (the start the writer wrote).
    pub start: f32,
    /// Where its column aligns it: its right edge in the table, its centre in the SUMMARY.
    pub anchor: f32,
}

/// `(page, line, amounts)` of every table line (Paid In, Withdrawn, Balance) or SUMMARY line
/// (Paid In, Paid Out, `None`).
pub(super) type Placements = [(u32, u32, [Option<Placed>; 3])];

/// A start further than this from a hundredth of a point was not written by Safaricom's
/// writers (points). The genuine table starts are within 0.00003 pt (single precision at
/// 600 pt; the writers' text moves all have two decimals at most). At size 6 a comma is
/// 1.668 pt wide and a digit twice that, so a start moved by what `n` of them (counting a
/// digit twice) gained, or half of it, is 0.002 pt or more off, unless `n` is a multiple of 5
/// (two digits and a comma gained).
const HUNDREDTHS_TOLERANCE: f32 = 0.001;

/// An amount whose right edge (or, in the SUMMARY, centre) is further than this from its
/// column's usual one is off the grid (points). No amount on the genuine samples is further
/// off; a digit more moves a right edge by its width (3.3 pt at size 6) and a centre by half
/// of it.
const GRID_TOLERANCE: f32 = 1.0;

/// The widest span of one column's right edges that starts rounded to 0.01 pt can give, with
/// room for the single-precision glyph positions (about 0.0001 pt at 600 pt): starts rounded
/// from one edge end less than 0.01 pt apart (0.008 pt on the genuine samples), and a start
/// rounded otherwise ends a whole 0.01 pt from some of them.
const ROUNDING_SPAN: f32 = 0.0095;

/// Lines whose amount cells end (or are centred) elsewhere than the column's median, by more
/// than [`GRID_TOLERANCE`]: `cells` are the table's or the SUMMARY's ([`summary_cells`]).
pub(super) fn off_grid(cells: &Placements) -> Vec<PageLine> {
    outside(cells, |values| {
        let median = *values.get(values.len() / 2).filter(|_| values.len() >= 3)?;
        Some((median - GRID_TOLERANCE, median + GRID_TOLERANCE))
    })
}

/// Lines with an amount that ends outside the narrowest window holding most of its column's
/// right edges, [`ROUNDING_SPAN`] wide: where the writer's rounding of a start cannot put it
/// (module documentation). Empty on a genuine statement; evidence only on a file its writer
/// wrote (a re-drawing by another program places text by its own rounding), which the
/// integrity check decides.
fn off_rounding(cells: &Placements) -> Vec<PageLine> {
    outside(cells, |values| {
        // The window [values[start], values[start] + span] holding the most edges (the
        // first such, from the left), as `start..end` of `values`.
        let mut best = 0..0;
        let mut end = 0;
        for (start, low) in values.iter().enumerate() {
            while end < values.len() && values[end] - low <= ROUNDING_SPAN {
                end += 1;
            }
            if end - start > best.len() {
                best = start..end;
            }
        }
        (best.len() < values.len()).then(|| (values[best.start], values[best.end - 1]))
    })
}

/// Lines of the table (`table`) or the SUMMARY (`summary`) with an amount where the writer's
/// rounding of a start cannot put it, in page and line order, each once: [`off_hundredths`] of
/// both, [`off_rounding`] of the table (not of the SUMMARY: see [`summary_cells`]).
pub(super) fn off_writers_rounding(table: &Placements, summary: &Placements) -> Vec<PageLine> {
    let mut lines = off_hundredths(summary);
    lines.extend(off_hundredths(table));
    lines.extend(off_rounding(table));
    in_order(lines)
}

/// Lines with an amount (of `cells`, the table's or the SUMMARY's) that starts further than
/// [`HUNDREDTHS_TOLERANCE`] from a hundredth of a point, where the writer writes every start
/// (module documentation). Like [`off_rounding`], evidence only on a file its writer wrote.
fn off_hundredths(cells: &Placements) -> Vec<PageLine> {
    let off = |x: f32| {
        let hundredths = f64::from(x) * 100.0;
        (hundredths - hundredths.round()).abs() > f64::from(HUNDREDTHS_TOLERANCE) * 100.0
    };
    cells
        .iter()
        .filter(|(_, _, amounts)| amounts.iter().flatten().any(|a| off(a.start)))
        .map(page_line)
        .collect()
}

/// The lines with an anchor outside its column's band, in page and line order, each once:
/// per column (zone), `band` gets the column's anchors sorted and gives the band, or `None`
/// to judge none of them.
fn outside(cells: &Placements, band: impl Fn(&[f32]) -> Option<(f32, f32)>) -> Vec<PageLine> {
    let mut out: Vec<PageLine> = Vec::new();
    for zone in 0..3 {
        let anchor = |amounts: &[Option<Placed>; 3]| amounts[zone].map(|a| a.anchor);
        let mut values: Vec<f32> = cells.iter().filter_map(|(_, _, a)| anchor(a)).collect();
        values.sort_by(f32::total_cmp);
        let Some((low, high)) = band(&values) else {
            continue;
        };
        out.extend(
            cells
                .iter()
                .filter(|(_, _, a)| anchor(a).is_some_and(|r| r < low || r > high))
                .map(page_line),
        );
    }
    in_order(out)
}

/// The page and line of one line's cells.
fn page_line((page, line, _): &(u32, u32, [Option<Placed>; 3])) -> PageLine {
    PageLine {
        page: *page,
        line: *line,
    }
}

/// `lines` in page and line order, each once.
fn in_order(mut lines: Vec<PageLine>) -> Vec<PageLine> {
    lines.sort_by_key(|p| (p.page, p.line));
    lines.dedup();
    lines
}

/// A SUMMARY line's last two labels (its Paid In and Paid Out amounts), each anchored at its
/// centre, as `[Paid In, Paid Out, None]` for [`off_grid`] and [`off_hundredths`]. The writers
/// centre the SUMMARY's amounts in their cells: on the genuine samples every centre of a column
/// is within 0.008 pt of the others (402.095 to 402.1025 and 506.695 to 506.704), so a figure
/// whose length changed, left where it started, is half a glyph (0.8 pt or more) off. Not for
/// [`off_rounding`]: centres are rounded from half widths, and 402.095 on every sample may be a
/// start rounded from a tie, which float noise could round the other way on another statement.
/// Cells are split as the header row's labels are ([`labels`]: a gap of 0.6 of the size).
pub(super) fn summary_cells(line: &Line) -> [Option<Placed>; 3] {
    let placed = |label: &Label| {
        Some(Placed {
            start: label.start,
            anchor: label.centre,
        })
    };
    match labels(line).as_slice() {
        [.., paid_in, paid_out] => [placed(paid_in), placed(paid_out), None],
        _ => [None; 3],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An amount ending at `r`, started 20 pt before it (on a hundredth where `r` is).
    fn ends(r: f32) -> Placed {
        Placed {
            start: r - 20.0,
            anchor: r,
        }
    }

    /// Table lines with a Balance ending at each of `edges`, on page 1, lines 1, 2, ….
    fn balances(edges: &[f32]) -> Vec<(u32, u32, [Option<Placed>; 3])> {
        (1..)
            .zip(edges)
            .map(|(line, r)| (1, line, [None, None, Some(ends(*r))]))
            .collect()
    }

    fn lines(found: &[PageLine]) -> Vec<u32> {
        found.iter().map(|p| p.line).collect()
    }

    #[test]
    fn starts_rounded_from_one_edge_are_on_the_grid() {
        // The 2023 layout's Balance column: 556.996, 557.000 and 557.002 (f32 noise too).
        let edges = balances(&[556.996, 557.0, 557.002, 556.9981, 557.002, 556.996]);
        assert!(off_rounding(&edges).is_empty());
        assert!(off_grid(&edges).is_empty());
    }

    #[test]
    fn a_start_rounded_from_another_start_ends_a_hundredth_off() {
        // A balance lengthened and moved left from its old start, whose rounding error it
        // keeps: it ends at 556.992 where the column's edges are 556.996 to 557.002.
        let edges = balances(&[556.996, 557.0, 557.002, 556.992, 557.002, 557.0]);
        assert_eq!(lines(&off_rounding(&edges)), [4]);
        // Far below what the grid of whole glyph widths sees.
        assert!(off_grid(&edges).is_empty());
    }

    #[test]
    fn an_amount_left_where_a_shorter_one_started_is_off_the_grid() {
        let edges = balances(&[557.0, 557.002, 563.36, 556.996]);
        assert_eq!(lines(&off_grid(&edges)), [3]);
        assert_eq!(lines(&off_rounding(&edges)), [3]);
    }

    #[test]
    fn each_column_is_judged_on_its_own() {
        // Paid In ends near 417.53, Balance near 557.0: neither is off its own column.
        let edges = vec![
            (1, 1, [Some(ends(417.530)), None, Some(ends(557.0))]),
            (1, 2, [Some(ends(417.536)), None, Some(ends(557.002))]),
            (2, 1, [None, None, Some(ends(556.996))]),
            (2, 2, [Some(ends(417.532)), None, Some(ends(557.0))]),
            (2, 3, [Some(ends(417.530)), None, Some(ends(557.002))]),
            (2, 4, [Some(ends(417.536)), None, None]),
        ];
        assert!(off_rounding(&edges).is_empty());
        let mut forged = edges.clone();
        forged[3].2[0] = Some(ends(417.526));
        assert_eq!(off_rounding(&forged), [PageLine { page: 2, line: 2 }]);
    }

    /// A SUMMARY line: `label` at 40 pt, then each amount centred on `centres`, 3.336 pt a
    /// character (a digit of size 6).
    fn summary_line(label: &str, amounts: [&str; 2], centres: [f32; 2]) -> Line {
        let mut glyphs = Vec::new();
        let mut word = |x0: f32, text: &str| {
            for (i, ch) in text.chars().enumerate() {
                let x = x0 + 3.336 * i as f32;
                glyphs.push(crate::pdf::Glyph {
                    x,
                    right: x + 3.336,
                    y: 200.0,
                    size: 6.0,
                    ch,
                });
            }
        };
        word(40.0, label);
        for (amount, centre) in amounts.iter().zip(centres) {
            word(centre - 3.336 * amount.len() as f32 / 2.0, amount);
        }
        crate::pdf::group_lines(glyphs).remove(0)
    }

    #[test]
    fn a_summary_total_lengthened_in_place_is_half_a_glyph_off_centre() {
        let mut cells: Vec<(u32, u32, [Option<Placed>; 3])> = [
            ("SEND", ["0.00", "1,250.00"]),
            ("PAYBILL", ["0.00", "980.00"]),
            ("RECEIVED", ["12,400.00", "0.00"]),
            ("AGENT", ["5,000.00", "0.00"]),
        ]
        .iter()
        .zip(1..)
        .map(|((label, amounts), n)| {
            let line = summary_line(label, *amounts, [402.1, 506.7]);
            (1, n, summary_cells(&line))
        })
        .collect();
        let centre = cells[2].2[0].expect("Paid In").anchor;
        assert!((centre - 402.1).abs() < 1e-3, "{centre}");
        assert!(off_grid(&cells).is_empty());
        // TOTAL raised from 17,400.00 to 107,400.00, left where 17,400.00 started.
        let total = summary_line("TOTAL", ["107,400.00", "2,230.00"], [402.1, 506.7]);
        let mut moved = summary_cells(&total);
        moved[0] = moved[0].map(|a| Placed {
            start: a.start + 3.336 / 2.0,
            anchor: a.anchor + 3.336 / 2.0,
        });
        cells.push((1, 5, moved));
        assert_eq!(lines(&off_grid(&cells)), [5]);
    }

    #[test]
    fn starts_are_written_to_hundredths() {
        // The 2022 sample's Withdrawn column: starts 495.02, 500.86, 497.53, as single
        // precision reads them.
        let placed = |start: f32, width: f32| Placed {
            start,
            anchor: start + width,
        };
        let mut cells = vec![
            (1, 1, [None, Some(placed(495.02, 23.352)), None]),
            (1, 2, [None, Some(placed(500.86, 17.514)), None]),
            (1, 3, [None, Some(placed(497.53, 20.85)), None]),
        ];
        assert!(off_hundredths(&cells).is_empty());
        // 6,698.00 raised to 16,698.00 and moved left by the digit it gained, 3.336 pt,
        // unrounded: it ends where the old one did, on its column's edge.
        cells.push((2, 7, [None, Some(placed(495.02 - 3.336, 26.688)), None]));
        assert!(off_rounding(&cells).is_empty());
        assert_eq!(off_hundredths(&cells), [PageLine { page: 2, line: 7 }]);
        // A SUMMARY figure re-centred by half a digit (1.668 pt) is off the hundredths too.
        let half = [Some(placed(402.1 - 1.668, 30.0)), None, None];
        assert_eq!(lines(&off_hundredths(&[(1, 9, half)])), [9]);
    }

    #[test]
    fn row_order_changes_nothing() {
        let mut edges = balances(&[556.996, 557.0, 557.006, 557.002, 556.996, 557.0]);
        let found = off_rounding(&edges);
        assert_eq!(lines(&found), [3]);
        edges.reverse();
        assert_eq!(off_rounding(&edges), found);
    }
}
