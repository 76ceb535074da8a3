//! The transaction table's columns, derived from its header row.
//!
//! Both layouts draw a grid whose header labels are centred in their cells, with text cells
//! left-aligned and amounts right-aligned (2 pt padding). The three amount columns have one
//! width, so with the label centres `cP`, `cW`, `cB` (Paid In, Withdrawn, Balance) the cell
//! boundaries are the midpoints `(cP + cW) / 2` and `(cW + cB) / 2`; each further boundary to
//! the left mirrors the previous one around the next label centre
//! (`left = 2·centre − right`). Measured on the real statements (points from the left):
//!
//! | layout | Details starts | Details \| Status | Status \| Paid In | Paid In \| Withdrawn | Withdrawn \| Balance |
//! |---|---|---|---|---|---|
//! | 2021 iText | 192.9 | 349.8 | 402.1 | 454.4 | 506.7 |
//! | 2023+ `OpenPDF` | 175.5 | 280.1 | 349.8 | 419.5 | 489.3 |
//!
//! If the labels do not give increasing boundaries, the midpoints
//! between label centres are used instead.

use crate::pdf::{Glyph, Line, join};

/// A column of the transaction table.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Zone {
    /// Receipt No., Completion Time and Details: everything left of the status column.
    Text,
    /// Transaction Status.
    Status,
    /// Paid In.
    PaidIn,
    /// Withdrawn.
    Withdrawn,
    /// Balance.
    Balance,
}

/// Column boundaries of the transaction table, points from the left of the page.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Columns {
    /// Left edge of the Details cell, when the header gives it (continuation lines start here).
    pub details: Option<f32>,
    /// Details | Transaction Status.
    pub status: f32,
    /// Transaction Status | Paid In.
    pub paid_in: f32,
    /// Paid In | Withdrawn.
    pub withdrawn: f32,
    /// Withdrawn | Balance.
    pub balance: f32,
}

impl Columns {
    /// The zone of a character, by the centre of its advance.
    pub fn zone(&self, glyph: &Glyph) -> Zone {
        let centre = f32::midpoint(glyph.x, glyph.right);
        if centre < self.status {
            Zone::Text
        } else if centre < self.paid_in {
            Zone::Status
        } else if centre < self.withdrawn {
            Zone::PaidIn
        } else if centre < self.balance {
            Zone::Withdrawn
        } else {
            Zone::Balance
        }
    }

    /// The left edge of the first character and the right edge of the last drawn in each
    /// amount zone (Paid In, Withdrawn, Balance), as `(start, end)`, points; `None` for an
    /// empty cell. Amounts are right-aligned, so on a genuine statement every end of one zone
    /// is the same.
    pub fn amount_extents(&self, line: &Line) -> [Option<(f32, f32)>; 3] {
        let extent = |zone: Zone| {
            line.glyphs
                .iter()
                .filter(|g| !g.ch.is_whitespace() && self.zone(g) == zone)
                .map(|g| (g.x, g.right))
                .reduce(|(x, right), (gx, gr)| (x.min(gx), right.max(gr)))
        };
        [
            extent(Zone::PaidIn),
            extent(Zone::Withdrawn),
            extent(Zone::Balance),
        ]
    }

    /// Splits a table line into the text of each zone.
    pub fn cells(&self, line: &Line) -> Cells {
        let pick = |zone: Zone| join(line.glyphs.iter().filter(|g| self.zone(g) == zone));
        Cells {
            text: pick(Zone::Text),
            status: pick(Zone::Status),
            paid_in: pick(Zone::PaidIn),
            withdrawn: pick(Zone::Withdrawn),
            balance: pick(Zone::Balance),
            first_x: line.glyphs.iter().map(|g| g.x).reduce(f32::min),
        }
    }
}

/// The text of one table line, per zone.
#[derive(Debug, Clone, PartialEq, Default)]
pub(super) struct Cells {
    /// Receipt, time and Details (or a Details continuation).
    pub text: String,
    /// Transaction Status.
    pub status: String,
    /// Paid In.
    pub paid_in: String,
    /// Withdrawn (printed with a leading `-`).
    pub withdrawn: String,
    /// Balance.
    pub balance: String,
    /// Left edge of the line's first character.
    pub first_x: Option<f32>,
}

/// Header words of the table (lower case), for recognising header lines.
const HEADER_WORDS: &[&str] = &[
    "receipt",
    "no.",
    "no",
    "completion",
    "time",
    "details",
    "transaction",
    "status",
    "paid",
    "in",
    "withdrawn",
    "balance",
];

/// Whether a line holds nothing but table header words (e.g. the second header line `Status`
/// of the 2021 layout).
pub(super) fn is_header_remainder(line: &Line) -> bool {
    let text = line.text().to_ascii_lowercase();
    !text.is_empty() && text.split(' ').all(|w| HEADER_WORDS.contains(&w))
}

/// A label of the header row (or a cell of the SUMMARY): words closer than 0.6 × font size,
/// joined.
pub(super) struct Label {
    /// The words, lower case.
    pub text: String,
    /// Its first glyph's left edge, points.
    pub start: f32,
    /// The middle of its first glyph's left edge and its last glyph's right edge, points.
    pub centre: f32,
}

/// The labels of `line`, left to right (see [`Label`]).
pub(super) fn labels(line: &Line) -> Vec<Label> {
    let mut out: Vec<Label> = Vec::new();
    let mut group: Vec<&Glyph> = Vec::new();
    let flush = |group: &mut Vec<&Glyph>, out: &mut Vec<Label>| {
        if let (Some(first), Some(last)) = (group.first(), group.last()) {
            let text = join(group.iter().copied());
            if !text.is_empty() {
                out.push(Label {
                    text: text.to_ascii_lowercase(),
                    start: first.x,
                    centre: f32::midpoint(first.x, last.right),
                });
            }
        }
        group.clear();
    };
    for g in &line.glyphs {
        if g.ch.is_whitespace() {
            continue;
        }
        if let Some(prev) = group.last()
            && g.x - prev.right > 0.6 * g.size
        {
            flush(&mut group, &mut out);
        }
        group.push(g);
    }
    flush(&mut group, &mut out);
    out
}

/// Recognises the table header row and derives the columns from it. `None` when `line` (whose
/// text is `text`) is not the header: it must name Receipt, Details, Paid In, Withdrawn and
/// Balance.
pub(super) fn header_columns(line: &Line, text: &str) -> Option<Columns> {
    if !text.contains("Receipt") && !text.contains("RECEIPT") && !text.contains("receipt") {
        return None;
    }
    let text = text.to_ascii_lowercase();
    if !(text.contains("receipt")
        && text.contains("details")
        && text.contains("paid")
        && text.contains("withdrawn")
        && text.contains("balance"))
    {
        return None;
    }
    let labels = labels(line);
    let centre = |word: &str| {
        labels
            .iter()
            .find(|l| l.text.contains(word))
            .map(|l| l.centre)
    };
    let details = centre("details")?;
    let status = centre("status").or_else(|| centre("transaction"))?;
    let paid = centre("paid")?;
    let withdrawn = centre("withdrawn")?;
    let balance = centre("balance")?;

    let b_withdrawn = f32::midpoint(paid, withdrawn);
    let b_balance = f32::midpoint(withdrawn, balance);
    let b_paid = 2.0 * paid - b_withdrawn;
    let b_status = 2.0 * status - b_paid;
    let b_details = 2.0 * details - b_status;
    let ordered = [
        b_details,
        details,
        b_status,
        status,
        b_paid,
        paid,
        b_withdrawn,
        withdrawn,
        b_balance,
        balance,
    ];
    if ordered.windows(2).all(|w| w[0] < w[1]) {
        Some(Columns {
            details: Some(b_details),
            status: b_status,
            paid_in: b_paid,
            withdrawn: b_withdrawn,
            balance: b_balance,
        })
    } else if [details, status, paid, withdrawn, balance]
        .windows(2)
        .all(|w| w[0] < w[1])
    {
        Some(Columns {
            details: None,
            status: f32::midpoint(details, status),
            paid_in: f32::midpoint(status, paid),
            withdrawn: b_withdrawn,
            balance: b_balance,
        })
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdf::group_lines;

    /// Words at the given left edges, 3.5 pt per character (size 7).
    pub(crate) fn line(words: &[(f32, &str)], y: f32) -> Line {
        let mut glyphs = Vec::new();
        for (x0, word) in words {
            for (i, c) in word.chars().enumerate() {
                let x = x0 + 3.5 * i as f32;
                glyphs.push(Glyph {
                    x,
                    right: x + 3.5,
                    y,
                    size: 7.0,
                    ch: c,
                });
            }
        }
        group_lines(glyphs).remove(0)
    }

    #[test]
    fn derives_2023_columns_from_header() {
        // Label spans as measured on the 2023+ layout (scaled to 3.5 pt per character).
        let header = line(
            &[
                (50.7, "Receipt No."),
                (110.8, "Completion Time"),
                (215.7, "Details"),
                (282.2, "Transaction Status"),
                (372.9, "Paid In"),
                (435.5, "Withdrawn"),
                (510.2, "Balance"),
            ],
            69.0,
        );
        let cols = header_columns(&header, header.text()).expect("header");
        assert!(cols.status < 282.0 && cols.status > 250.0, "{cols:?}");
        assert!(cols.withdrawn < cols.balance);
        let amount = line(&[(530.3, "1,709.81")], 79.0);
        assert!(amount.glyphs.iter().all(|g| cols.zone(g) == Zone::Balance));
        assert!(is_header_remainder(&line(&[(366.8, "Status")], 75.0)));
        let summary = line(&[(38.0, "SUMMARY")], 1.0);
        assert!(header_columns(&summary, summary.text()).is_none());
    }
}
