//! Characters with their positions, as the own [`reader`](super::reader) places them, grouped
//! into lines by baseline.
//!
//! Coordinates are PDF points with the origin at the top-left of the page: `x` grows to the
//! right, `y` (the baseline) grows downwards. For each character the reader computes the text
//! rendering matrix `Trm`; its translation is the glyph origin (`x = m31`,
//! `y = page height − m32`), and the glyph advance is the font width times the rendered size.

use crate::error::{Error, ErrorKind};

/// Most characters kept on one page (a real statement page has about 4,500).
pub(crate) const MAX_GLYPHS_PER_PAGE: usize = 100_000;

/// Most characters kept in one document: 12 million (a real 2,000-page statement has about 9
/// million), about 240 MB of [`Glyph`]s.
pub(super) const MAX_GLYPHS_TOTAL: usize = 12_000_000;

/// Two characters whose baselines differ by at most this many points are on the same line.
/// (The 2023+ header prints labels 1 pt lower than their values; table lines are 6 pt apart.)
const BASELINE_TOLERANCE: f32 = 2.0;

/// One character as drawn.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Glyph {
    /// Left edge (glyph origin), points from the left of the page.
    pub x: f32,
    /// Right edge: `x` plus the advance width, points.
    pub right: f32,
    /// Baseline, points from the top of the page.
    pub y: f32,
    /// Rendered font size, points.
    pub size: f32,
    /// The character, as the font's encoding or `ToUnicode` map decodes it. (A glyph that
    /// decodes to several characters, such as a ligature, becomes several glyphs sharing its
    /// advance.)
    pub ch: char,
}

/// One line of text: characters sharing a baseline, left to right.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Line {
    /// Baseline of the line's first character, points from the top.
    pub y: f32,
    /// The characters, sorted by `x`.
    pub glyphs: Vec<Glyph>,
    /// The line's text, words separated by single spaces (see [`join`]); computed with the
    /// line, on the page's thread.
    text: String,
}

impl Line {
    /// The line's text, words separated by single spaces (see [`join`]).
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// One page: its lines, top to bottom.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Page {
    /// 1-based page number.
    pub number: u32,
    /// Lines sorted by baseline.
    pub lines: Vec<Line>,
    /// Text-showing strings of a two-byte (`Identity-H`) font that draw more than one glyph
    /// (Airtel Uganda's writer draws one glyph per string: see
    /// `crate::statement::PdfStructure::joined_glyph_strings`).
    pub joined_glyph_strings: u32,
    /// Text placements Qt 4.8 does not make (see
    /// `crate::statement::PdfStructure::placed_otherwise`).
    pub placed_otherwise: u32,
    /// The glyphs of two-byte fonts shown alone (the document's font index, glyph id) in the
    /// order the page first draws them, each once (see
    /// `crate::statement::PdfStructure::glyphs_numbered_otherwise`).
    pub first_drawn: Vec<(usize, u32)>,
}

/// Joins characters (sorted by `x`) into text, with a single space wherever the font drew a
/// space or left a gap wider than 15% of the font size.
pub(crate) fn join<'a>(glyphs: impl Iterator<Item = &'a Glyph>) -> String {
    let mut out = String::new();
    let mut last_right: Option<f32> = None;
    let mut space = false;
    for g in glyphs {
        if g.ch.is_whitespace() || g.ch.is_control() {
            space = true;
            continue;
        }
        if let Some(right) = last_right
            && (space || g.x - right > 0.15 * g.size)
            && !out.is_empty()
        {
            out.push(' ');
        }
        out.push(g.ch);
        last_right = Some(g.right);
        space = false;
    }
    out
}

/// A page already holds [`MAX_GLYPHS_PER_PAGE`] characters.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct PageFull;

/// Adds the characters `text` of one glyph drawn with the text rendering matrix `trm`
/// (`[m11 m12 m21 m22 m31 m32]`), advance `width` (text space units, ÷ 1000 already) and
/// `font_size`, on a page `height` points tall: the glyph origin is `(m31, height − m32)`, its advance `width ×
/// font_size × scale`, shared evenly by the characters of a ligature. Rotated or skewed
/// glyphs and non-finite positions are skipped.
///
/// # Errors
/// [`PageFull`] when the characters would pass [`MAX_GLYPHS_PER_PAGE`].
pub(super) fn place(
    glyphs: &mut Vec<Glyph>,
    height: f64,
    trm: [f64; 6],
    width: f64,
    font_size: f64,
    text: impl Iterator<Item = char> + Clone,
) -> Result<(), PageFull> {
    let [m11, m12, m21, m22, m31, m32] = trm;
    // Rotated or skewed text (watermarks) is not part of the statement table.
    let scale = (m11 * m22 - m12 * m21).abs().sqrt();
    if m12.abs() > 0.01 * scale || m21.abs() > 0.01 * scale || m11 <= 0.0 {
        return Ok(());
    }
    let size = font_size * scale;
    let x = m31;
    let y = height - m32;
    let right = x + width * size;
    if !(x.is_finite() && y.is_finite() && right.is_finite() && size.is_finite()) {
        return Ok(());
    }
    let count = text.clone().count();
    if glyphs.len() + count > MAX_GLYPHS_PER_PAGE {
        return Err(PageFull);
    }
    let share = (right - x) / count.max(1) as f64;
    for (i, ch) in text.enumerate() {
        let left = x + share * i as f64;
        glyphs.push(Glyph {
            x: left as f32,
            right: (left + share) as f32,
            y: y as f32,
            size: size as f32,
            ch,
        });
    }
    Ok(())
}

/// `TooLarge`: `what` (a page, the PDF) draws more than `limit` characters.
pub(super) fn too_many_glyphs(what: &str, limit: usize) -> Error {
    let limit = limit as u64;
    Error::new(
        ErrorKind::TooLarge { limit },
        format!("{what} draws more than {limit} characters"),
    )
}

/// Groups characters into lines: sorted by baseline, a new line starts when the baseline moves
/// more than [`BASELINE_TOLERANCE`] below the line's first character. Within a line, characters
/// are sorted by `x`, and a character drawn twice at the same place (fake bold) is kept once.
///
/// Each line's characters are copied out at their exact count, so the pages a statement holds
/// until its rows are read carry no growth slack (a `push`ed vector's capacity runs up to twice
/// its length: 6 of the 24 MB of heap the 117-page statement peaked at).
pub(crate) fn group_lines(mut glyphs: Vec<Glyph>) -> Vec<Line> {
    glyphs.sort_by(|a, b| a.y.total_cmp(&b.y).then(a.x.total_cmp(&b.x)));
    let mut lines: Vec<Line> = Vec::new();
    let mut rest = glyphs.as_slice();
    while let Some(first) = rest.first() {
        let y = first.y;
        // The first character always opens its line (even with a NaN baseline).
        let count = 1 + rest[1..]
            .iter()
            .take_while(|g| g.y - y <= BASELINE_TOLERANCE)
            .count();
        let (line, after) = rest.split_at(count);
        rest = after;
        let mut glyphs = line.to_vec();
        glyphs.sort_by(|a, b| a.x.total_cmp(&b.x));
        glyphs.dedup_by(|b, a| {
            a.ch == b.ch && (a.x - b.x).abs() < 0.1 * a.size.max(1.0) && (a.y - b.y).abs() < 0.01
        });
        glyphs.shrink_to_fit();
        let text = join(glyphs.iter());
        lines.push(Line { y, glyphs, text });
    }
    lines.shrink_to_fit();
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn glyphs(y: f32, x0: f32, text: &str) -> Vec<Glyph> {
        text.chars()
            .enumerate()
            .map(|(i, c)| Glyph {
                x: x0 + 3.0 * i as f32,
                right: x0 + 3.0 * i as f32 + 3.0,
                y,
                size: 6.0,
                ch: c,
            })
            .collect()
    }

    #[test]
    fn groups_by_baseline_and_joins_words() {
        let mut all = glyphs(106.5, 38.0, "Name:");
        all.extend(glyphs(105.5, 100.0, "AB"));
        all.extend(glyphs(112.0, 38.0, "next"));
        let lines = group_lines(all);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].text(), "Name: AB");
        assert_eq!(lines[1].text(), "next");
    }

    #[test]
    fn space_glyphs_and_duplicates() {
        let mut all = glyphs(10.0, 0.0, "a b");
        all.extend(glyphs(10.0, 0.0, "a"));
        let lines = group_lines(all);
        assert_eq!(lines[0].text(), "a b");
    }
}
