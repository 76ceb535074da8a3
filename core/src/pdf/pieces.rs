//! Pieces of a PDF line, for the layouts of other wallets: runs of characters split where the
//! page leaves a gap, each with its left and right edge (points from the left of the page).
//!
//! The lines come from the engine's own text reader ([`super::Document`]).

use super::Line;

/// A run of characters of one line, without a gap wider than the run's split width.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// Left edge of the first character, points.
    pub x: f32,
    /// Right edge of the last character, points.
    pub right: f32,
    /// The characters, a drawn space or a small gap read as one space.
    pub text: String,
}

/// Splits `line` into pieces wherever two characters are further apart than `gap` times the
/// font size (a drawn space counts as a gap of its own width). Within a piece, a drawn space or
/// a gap wider than 15 % of the font size (the reader's word gap) becomes one space.
pub fn pieces(line: &Line, gap: f32) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::new();
    let mut last_right: Option<f32> = None;
    let mut space = false;
    for g in &line.glyphs {
        if g.ch.is_whitespace() || g.ch.is_control() {
            space = true;
            continue;
        }
        let split = last_right.is_none_or(|right| g.x - right > gap * g.size);
        match out.last_mut() {
            Some(piece) if !split => {
                let word_gap = last_right.is_some_and(|right| g.x - right > 0.15 * g.size);
                if space || word_gap {
                    piece.text.push(' ');
                }
                piece.text.push(g.ch);
                piece.right = g.right;
            }
            _ => out.push(Piece {
                x: g.x,
                right: g.right,
                text: g.ch.to_string(),
            }),
        }
        last_right = Some(g.right);
        space = false;
    }
    out
}
