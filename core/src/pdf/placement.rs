//! How the page's text was placed, glyph by glyph, against the way Qt 4.8 places it (Airtel
//! Uganda's writer, wkhtmltopdf 0.12.4). Qt's PDF engine (`QPdfBaseEnginePrivate::
//! drawTextItem`, `src/gui/painting/qpdf.cpp`) writes a text object as `BT`, `Tf`, `Tm`, then
//! for every glyph of its two-byte (`Identity-H`) font one `Td` and one `Tj` of that glyph
//! alone (`BDC`/`EMC` around a synthetic bold pass), and `ET`. The `Td` move is the previous
//! glyph's position less this one's, in Qt's 26.6 fixed point (`QFixed`): whole 64ths of a text
//! space unit, the same for every copy of a glyph of one font and size where nothing spaces
//! the text out. Measured on the Airtel sample: 4,278 glyphs, each in a string of its own;
//! 3,988 moves after a glyph, all whole 64ths, one move per glyph of its fonts and sizes (143
//! such glyphs; its 119 pairs of a digit and what follows it all move 6.359375); no operator in
//! a text object but those above. A forger who writes text back into such a page as a string
//! of several glyphs, by a `TJ` or with spacing operators, or places glyphs by moves computed
//! from the font's `/W` widths (6.31 for a digit Qt moves 6.359375), or a figure by another
//! glyph's move, shows here (`off_grid_text`, see `crate::check::forensics`). One who copies
//! Qt's own move for every glyph does not.
//!
//! Qt also numbers a font's glyphs as it first draws them: its subset font
//! (`QFontSubset::addGlyph`, `src/gui/text/qfontsubset.cpp`) holds glyph 0, then each glyph
//! the document draws, appended when first drawn, and the content stream shows the glyph's
//! index in that list. So the glyph ids of a Qt font, in the order the pages first draw them,
//! are 1, 2, 3, … with none left out (the Airtel sample: 70 and 33 glyphs of its two fonts).
//! An edit written back that draws a glyph before its first genuine use (a closing balance
//! raised to 93,201.80 where the statement first draws a 9 further on), or that removes a
//! glyph's only use, breaks the numbering ([`numbered_otherwise`]).
//!
//! The reader ([`super::reader`]) tells a [`Placement`] of every operator it reads and every
//! string it shows; the counts go to the page ([`super::glyphs::Page`]).

use std::collections::HashMap;

/// A glyph of a page: its font (index into the document's fonts), its character code and its
/// font size (`f64` bits).
type GlyphKey = (usize, u32, u64);

/// Whether `operator` is a text operator Qt 4.8 never writes: showing by `TJ`, `'` or `"`,
/// spacing (`Tc`, `Tw`, `Tz`, `Ts`) and line moves (`TL`, `T*`, `TD`).
fn not_qt(operator: &[u8]) -> bool {
    matches!(
        operator,
        b"TJ" | b"'" | b"\"" | b"Tc" | b"Tw" | b"Tz" | b"Ts" | b"TL" | b"T*" | b"TD"
    )
}

/// One page's placement of its glyphs (see the module documentation).
#[derive(Default)]
pub(super) struct Placement {
    /// Strings of a two-byte font that show more than one glyph.
    joined: u32,
    /// The glyph the last operator showed alone (a string of one code of a two-byte font),
    /// and whether it draws a figure of an amount (a digit, a comma or a point); `None` after
    /// any other operator.
    alone: Option<(GlyphKey, bool)>,
    /// Whether the last operator was a `Td` (Qt writes one before each glyph, never two).
    after_td: bool,
    /// The `Td` moves right after each figure shown alone, in whole 64ths, and how many times
    /// each was made.
    moves: HashMap<GlyphKey, HashMap<i64, u32>>,
    /// Placements Qt does not make, counted as read: moves right after a glyph shown alone
    /// that are not whole 64ths, operators [`not_qt`], and a `Td` right after a `Td`.
    otherwise: u32,
    /// The glyphs of two-byte fonts shown alone (font index, glyph id) in the order the page
    /// first draws them, each once; `drawn` holds the same set, a bit per two-byte code of each font
    /// index (a hash set cost the 117-page Safaricom statement 15 % of its time).
    first_drawn: Vec<(usize, u32)>,
    drawn: Vec<Vec<u64>>,
}

impl Placement {
    /// An operator read (before it is carried out); `td` is its `tx` and `ty` where it is a
    /// `Td` with two numbers. A `Td` right after a glyph shown alone is that glyph's move.
    pub(super) fn operator(&mut self, operator: &[u8], td: Option<(f64, f64)>) {
        let alone = self.alone.take();
        let after_td = std::mem::replace(&mut self.after_td, td.is_some());
        if not_qt(operator) || (after_td && td.is_some()) {
            self.otherwise = self.otherwise.saturating_add(1);
        }
        let (Some((glyph, figure)), Some((tx, 0.0))) = (alone, td) else {
            return;
        };
        let sixty_fourths = tx * 64.0;
        // Reals are read as `f32` (`super::lexer`): a 64th is exact in either; allow for a
        // writer's last digit.
        if (sixty_fourths - sixty_fourths.round()).abs() > 1e-3 {
            self.otherwise = self.otherwise.saturating_add(1);
            return;
        }
        // Only the figures of amounts are compared copy with copy: the text around them (a
        // name, a wrapped description) could be spaced out on a genuine line.
        if figure {
            #[allow(clippy::cast_possible_truncation)] // a move on a page: far inside i64
            let key = sixty_fourths.round() as i64;
            let count = self.moves.entry(glyph).or_default().entry(key).or_default();
            *count = count.saturating_add(1);
        }
    }

    /// A string of `codes` character codes shown in a two-byte font or not (`two_byte`):
    /// `last` is the last one (its font index, code and font size) and `text` what it draws.
    /// Call after [`Placement::operator`] for the operator that shows it.
    pub(super) fn shown(
        &mut self,
        two_byte: bool,
        codes: usize,
        (font, last, size): (usize, u32, f64),
        text: &[char],
    ) {
        if !two_byte {
            return;
        }
        if codes > 1 {
            self.joined = self.joined.saturating_add(1);
        } else if codes == 1 {
            // A figure of an amount (a glyph without text is none).
            let figure = !text.is_empty()
                && text
                    .iter()
                    .all(|c| c.is_ascii_digit() || matches!(c, ',' | '.'));
            self.alone = Some(((font, last, size.to_bits()), figure));
        }
    }

    /// A glyph `code` of the two-byte font `font` shown alone (as Qt shows every glyph; a
    /// string of several glyphs is already another program's text, see [`Placement::joined`]).
    pub(super) fn drawn(&mut self, font: usize, code: u32) {
        if self.drawn.len() <= font {
            self.drawn.resize_with(font + 1, Vec::new);
        }
        let bits = &mut self.drawn[font];
        if bits.is_empty() {
            // One bit per code of a two-byte font: 65,536 bits.
            bits.resize(1024, 0);
        }
        let (word, bit) = ((code as usize >> 6) & 1023, 1_u64 << (code & 63));
        if bits[word] & bit == 0 {
            bits[word] |= bit;
            self.first_drawn.push((font, code));
        }
    }

    /// The glyphs of two-byte fonts in the order the page first drew them (see
    /// [`numbered_otherwise`]).
    pub(super) fn first_drawn(&mut self) -> Vec<(usize, u32)> {
        std::mem::take(&mut self.first_drawn)
    }

    /// Strings of a two-byte font that showed more than one glyph.
    pub(super) fn joined(&self) -> u32 {
        self.joined
    }

    /// Placements Qt does not make: moves off the grid of 64ths, text operators it never
    /// writes, a `Td` right after a `Td`, and figures moved unlike the move their other copies
    /// on the page make most often.
    pub(super) fn otherwise(&self) -> u32 {
        let unlike = self
            .moves
            .values()
            .map(|counts| {
                let all = counts.values().fold(0_u32, |n, c| n.saturating_add(*c));
                all - counts.values().copied().max().unwrap_or(0)
            })
            .fold(0_u32, u32::saturating_add);
        self.otherwise.saturating_add(unlike)
    }
}

/// How many glyphs of the document's two-byte fonts are numbered otherwise than Qt numbers
/// them (see the module documentation), given each page's glyphs in the order it first drew
/// them (`pages`, in page order): per font, each glyph id from 1 to the highest drawn that no
/// page draws, and each drawn first before the id one below it. 0 on a file Qt wrote; on
/// other writers' files (whose fonts keep the font program's own glyph ids) a count with no
/// meaning.
pub(super) fn numbered_otherwise<'a>(pages: impl IntoIterator<Item = &'a [(usize, u32)]>) -> u32 {
    // Per font: glyph id → when the document first drew it.
    let mut first: HashMap<usize, HashMap<u32, usize>> = HashMap::new();
    let mut when = 0_usize;
    for &(font, id) in pages.into_iter().flatten() {
        when += 1;
        first.entry(font).or_default().entry(id).or_insert(when);
    }
    let mut count = 0_u32;
    for ids in first.values() {
        let mut sorted: Vec<(u32, usize)> = ids
            .iter()
            .filter(|(id, _)| **id > 0)
            .map(|(id, w)| (*id, *w))
            .collect();
        sorted.sort_unstable();
        let mut below: Option<(u32, usize)> = None;
        for &(id, w) in &sorted {
            let expected = below.map_or(1, |(b, _)| b.saturating_add(1));
            // Ids left out below this one: glyphs of the subset no page draws.
            count = count.saturating_add(id.saturating_sub(expected));
            if below.is_some_and(|(b, bw)| b.saturating_add(1) == id && bw > w) {
                count = count.saturating_add(1);
            }
            below = Some((id, w));
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn qt_numbers_glyphs_as_it_first_draws_them() {
        // Two pages of one font (0) and a bold font (1), as the Airtel sample draws them.
        let genuine: [&[(usize, u32)]; 2] = [&[(0, 1), (0, 2), (1, 1), (0, 3)], &[(0, 4), (1, 2)]];
        assert_eq!(numbered_otherwise(genuine), 0);
        // A 9 (id 4) written into the first page before the glyph numbered 3.
        let early: [&[(usize, u32)]; 2] = [&[(0, 1), (0, 4), (0, 2), (1, 1), (0, 3)], &[(1, 2)]];
        assert_eq!(numbered_otherwise(early), 1);
        // The only use of glyph 2 edited away: the subset holds a glyph no page draws.
        let removed: [&[(usize, u32)]; 2] = [&[(0, 1), (1, 1), (0, 3)], &[(0, 4), (1, 2)]];
        assert_eq!(numbered_otherwise(removed), 1);
        // Glyph 0 (.notdef) is the subset's own first glyph, drawn or not.
        let notdef: [&[(usize, u32)]; 1] = [&[(0, 0), (0, 1), (0, 2)]];
        assert_eq!(numbered_otherwise(notdef), 0);
    }

    #[test]
    fn a_page_records_each_glyph_once_in_the_order_first_drawn() {
        let mut p = Placement::default();
        for (font, code) in [(0, 1), (0, 2), (0, 1), (1, 1), (0, 3), (0, 2)] {
            p.drawn(font, code);
        }
        assert_eq!(p.first_drawn(), vec![(0, 1), (0, 2), (1, 1), (0, 3)]);
    }

    const DIGIT: (usize, u32, f64) = (0, 0x12, 10.0);
    const COMMA: (usize, u32, f64) = (0, 0x0f, 10.0);
    const LETTER: (usize, u32, f64) = (0, 0x40, 10.0);

    /// `Tj` of one glyph, then its `Td` move.
    fn place(p: &mut Placement, glyph: (usize, u32, f64), figure: bool, tx: f64) {
        p.operator(b"Tj", None);
        p.shown(true, 1, glyph, if figure { &['7'] } else { &['a'] });
        p.operator(b"Td", Some((tx, 0.0)));
    }

    #[test]
    fn qt_moves_are_whole_sixty_fourths_and_moves_from_the_widths_are_not() {
        // A digit of the Airtel sample's DejaVuSans at 10 pt: Qt moves 6.35937500 (407/64);
        // its /W width, 631, gives 6.31.
        let mut p = Placement::default();
        p.operator(b"BT", None);
        place(&mut p, DIGIT, true, 6.359_375);
        place(&mut p, DIGIT, true, 6.359_375);
        place(&mut p, LETTER, false, 2.765_625);
        place(&mut p, LETTER, false, f64::from(6.359_375_f32));
        assert_eq!(p.otherwise(), 0);
        place(&mut p, LETTER, false, 6.31);
        assert_eq!(p.otherwise(), 1);
        place(&mut p, DIGIT, true, 6.362_3);
        assert_eq!(p.otherwise(), 2);
    }

    #[test]
    fn a_figure_moved_unlike_its_other_copies_is_counted() {
        let mut p = Placement::default();
        for _ in 0..40 {
            place(&mut p, DIGIT, true, 6.359_375);
        }
        for _ in 0..12 {
            place(&mut p, COMMA, true, 3.171_875);
        }
        assert_eq!(p.otherwise(), 0, "each glyph one move: Qt's pages");
        // A comma placed by a digit's move (a forger copying the wrong glyph's Td).
        place(&mut p, COMMA, true, 6.359_375);
        assert_eq!(p.otherwise(), 1);
        // Text that is not a figure is left to the grid.
        place(&mut p, LETTER, false, 7.0);
        place(&mut p, LETTER, false, 8.0);
        assert_eq!(p.otherwise(), 1);
    }

    #[test]
    fn operators_qt_never_writes_are_counted() {
        let mut p = Placement::default();
        for op in [&b"BT"[..], b"Tf", b"Tm", b"BDC", b"EMC", b"Tj", b"ET"] {
            p.operator(op, None);
        }
        assert_eq!(p.otherwise(), 0);
        p.operator(b"TJ", None);
        p.operator(b"Tc", None);
        assert_eq!(p.otherwise(), 2);
        // A move split in two (6 then 0.359375): Qt writes one Td per glyph.
        p.operator(b"Tj", None);
        p.shown(true, 1, DIGIT, &['7']);
        p.operator(b"Td", Some((6.0, 0.0)));
        p.operator(b"Td", Some((0.359_375, 0.0)));
        assert_eq!(p.otherwise(), 3);
    }

    #[test]
    fn only_a_move_right_after_a_glyph_shown_alone_is_measured() {
        let mut p = Placement::default();
        // A string of several glyphs, then a move: joined, not a move.
        p.operator(b"Tj", None);
        p.shown(true, 3, DIGIT, &['7']);
        p.operator(b"Td", Some((6.31, 0.0)));
        // A glyph, another operator, then a move: the move is not the glyph's.
        p.operator(b"Tj", None);
        p.shown(true, 1, DIGIT, &['7']);
        p.operator(b"EMC", None);
        p.operator(b"Td", Some((6.31, 0.0)));
        // A move to another line.
        p.operator(b"Tj", None);
        p.shown(true, 1, DIGIT, &['7']);
        p.operator(b"Td", Some((6.31, -12.0)));
        // One-byte fonts are not Qt's.
        p.operator(b"Tj", None);
        p.shown(false, 1, DIGIT, &['7']);
        p.operator(b"Td", Some((6.31, 0.0)));
        assert_eq!((p.joined(), p.otherwise()), (1, 0));
    }
}
