//! How the page's text was placed, glyph by glyph, against the way Qt 4.8 places it (Airtel
//! Uganda's writer, wkhtmltopdf 0.12.4): every glyph of a two-byte (`Identity-H`) font shown
//! alone by its own `Tj`, after a `Td` move that is the previous glyph's advance in 26.6 fixed
//! point (`QFixed`: whole 64ths of a text space unit), the same move for every copy of a glyph
//! of one font and size. Measured on the Airtel sample: 4,278 glyphs, each in a string of its
//! own; 3,988 moves after a glyph, all whole 64ths, one move per glyph of its fonts and sizes
//! (143 such glyphs). A forger who writes text back into such a page as a string of several
//! glyphs, or places glyphs by moves computed from the font's `/W` widths (6.31 for a digit
//! Qt moves 6.359375), or by another glyph's move, shows here (`off_grid_text`, see
//! `crate::check::forensics`).
//!
//! The reader ([`super::reader`]) tells a [`Placement`] of every string it shows and every
//! operator it reads; the counts go to the page ([`super::glyphs::Page`]).

use std::collections::HashMap;

/// A glyph of a page: its font (index into the document's fonts), its character code and its
/// font size (`f64` bits).
type GlyphKey = (usize, u32, u64);

/// One page's placement of its glyphs (see the module documentation).
#[derive(Default)]
pub(super) struct Placement {
    /// Strings of a two-byte font that show more than one glyph.
    joined: u32,
    /// The glyph the last operator showed alone (a string of one code of a two-byte font),
    /// and whether it draws a figure of an amount (a digit, a comma or a point); `None` after
    /// any other operator.
    alone: Option<(GlyphKey, bool)>,
    /// The `Td` moves right after each figure shown alone: the move's bits and how many times
    /// it was made.
    moves: HashMap<GlyphKey, HashMap<u64, u32>>,
    /// Moves right after a glyph shown alone that are not a whole number of 64ths of a unit.
    off_grid: u32,
}

impl Placement {
    /// A string of `codes` character codes shown in `font` (index) at `size`, in a two-byte
    /// font or not; `last` is the last code shown and `figure` whether it draws a figure of an
    /// amount. Call after [`Placement::operator`] for the `Tj`, `TJ`, `'` or `"` that shows it.
    pub(super) fn shown(
        &mut self,
        two_byte: bool,
        codes: usize,
        (font, last, size): (usize, u32, f64),
        figure: bool,
    ) {
        if !two_byte {
            return;
        }
        if codes > 1 {
            self.joined = self.joined.saturating_add(1);
        } else if codes == 1 {
            self.alone = Some(((font, last, size.to_bits()), figure));
        }
    }

    /// Any operator read: a `Td` (`td`: its `tx`, `ty`) right after a glyph shown alone is
    /// that glyph's move; every operator ends what the glyph shown alone before it can tell.
    pub(super) fn operator(&mut self, td: Option<(f64, f64)>) {
        let Some((glyph, figure)) = self.alone.take() else {
            return;
        };
        let Some((tx, ty)) = td else {
            return;
        };
        if ty != 0.0 {
            return;
        }
        if !in_sixty_fourths(tx) {
            self.off_grid = self.off_grid.saturating_add(1);
        }
        // Only the figures of amounts are compared copy with copy: the text around them (a
        // name, a wrapped description) could be spaced out on a genuine line.
        if figure {
            let count = self
                .moves
                .entry(glyph)
                .or_default()
                .entry(tx.to_bits())
                .or_default();
            *count = count.saturating_add(1);
        }
    }

    /// Strings of a two-byte font that showed more than one glyph.
    pub(super) fn joined(&self) -> u32 {
        self.joined
    }

    /// Glyphs placed by a move Qt does not make: off the grid of 64ths, or a figure moved
    /// unlike the move its other copies on the page make most often.
    pub(super) fn off_advance(&self) -> u32 {
        let unlike = self
            .moves
            .values()
            .map(|counts| {
                let all = counts.values().fold(0_u32, |n, c| n.saturating_add(*c));
                all - counts.values().copied().max().unwrap_or(0)
            })
            .fold(0_u32, u32::saturating_add);
        self.off_grid.saturating_add(unlike)
    }
}

/// Whether `tx` is a whole number of 64ths (Qt's `QFixed`, 26.6 fixed point), to within the
/// rounding of a decimal operand (Qt writes `6.35937500`).
fn in_sixty_fourths(tx: f64) -> bool {
    let sixty_fourths = tx * 64.0;
    (sixty_fourths - sixty_fourths.round()).abs() <= 1e-6
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIGIT: (usize, u32, f64) = (0, 0x12, 10.0);
    const COMMA: (usize, u32, f64) = (0, 0x0f, 10.0);

    fn place(p: &mut Placement, glyph: (usize, u32, f64), figure: bool, tx: f64) {
        p.operator(None);
        p.shown(true, 1, glyph, figure);
        p.operator(Some((tx, 0.0)));
    }

    #[test]
    fn qt_moves_are_whole_sixty_fourths_and_moves_from_the_widths_are_not() {
        // A digit of the Airtel sample's DejaVuSans at 10 pt: Qt moves 6.35937500 (407/64);
        // its /W width, 631, gives 6.31.
        assert!(in_sixty_fourths(6.359_375));
        assert!(in_sixty_fourths(2.765_625));
        assert!(in_sixty_fourths(456.0));
        assert!(!in_sixty_fourths(6.31));
        assert!(!in_sixty_fourths(6.362_3));
        let mut p = Placement::default();
        place(&mut p, DIGIT, true, 6.359_375);
        place(&mut p, DIGIT, true, 6.359_375);
        assert_eq!(p.off_advance(), 0);
        place(&mut p, (0, 0x40, 10.0), false, 6.31);
        assert_eq!(p.off_advance(), 1);
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
        assert_eq!(p.off_advance(), 0, "each glyph one move: Qt's pages");
        // A comma placed by a digit's move (a forger copying the wrong glyph's Td).
        place(&mut p, COMMA, true, 6.359_375);
        assert_eq!(p.off_advance(), 1);
        // Text that is not a figure is left to the grid.
        place(&mut p, (0, 0x40, 10.0), false, 7.0);
        place(&mut p, (0, 0x40, 10.0), false, 8.0);
        assert_eq!(p.off_advance(), 1);
    }

    #[test]
    fn only_a_move_right_after_a_glyph_shown_alone_counts() {
        let mut p = Placement::default();
        // A string of several glyphs, then a move: joined, not a move.
        p.shown(true, 3, DIGIT, true);
        p.operator(Some((6.31, 0.0)));
        // A glyph, another operator, then a move: the move is not the glyph's.
        p.shown(true, 1, DIGIT, true);
        p.operator(None);
        p.operator(Some((6.31, 0.0)));
        // A move to another line.
        p.shown(true, 1, DIGIT, true);
        p.operator(Some((6.31, -12.0)));
        // One-byte fonts are not Qt's.
        p.shown(false, 1, DIGIT, true);
        p.operator(Some((6.31, 0.0)));
        assert_eq!((p.joined(), p.off_advance()), (1, 0));
    }
}
