//! The engine's own PDF text reader, shared by every wallet whose statements are PDFs: open a
//! file once ([`Document::open`]: password, safety limits, metadata and file structure), then
//! read its pages' characters with their positions, grouped into lines by baseline
//! ([`Document::each_page`], [`Document::pages`]). Each wallet's layouts read their tables
//! from these lines (`crate::wallets`).
//!
//! How it is read:
//! 1. [`load`] opens the file with `lopdf` 0.47 (decryption, decompression bounded by
//!    [`Limits::max_decompressed`], page limit) and takes the document metadata and file
//!    structure ([`structure`]).
//! 2. [`reader`] reads each page's content stream once, straight from the opened document,
//!    for the operators that place text, with each font read once per document ([`fonts`]):
//!    every character with its position (x from the left, y from the top of the page, in
//!    points). It covers the fonts and operators the supported wallets' statements use; a
//!    document drawn otherwise (a Type3 font, a Form `XObject`, an inline image…) is refused
//!    as `UnsupportedWallet` (no genuine statement in `../shared/samples` needs more: issue 37
//!    measured it and removed the general `pdf-extract` path that read such documents).
//!    [`glyphs`] then groups characters into lines by baseline; [`pieces()`] splits a line into
//!    runs at its gaps.
//!
//! A reader that panics on a malformed object is contained where the engine dispatches a PDF
//! (`crate::parse`), which answers `malformed_statement`.

mod fonts;
mod glyphs;
mod lexer;
mod load;
mod pieces;
mod placement;
mod reader;
mod structure;
#[cfg(any(test, feature = "testing"))]
// Unit tests without the feature use only `writer::assemble`.
#[cfg_attr(not(feature = "testing"), allow(dead_code))]
pub mod writer;

#[cfg(feature = "testing")]
pub(crate) use fonts::Font;
pub(crate) use glyphs::{Glyph, Line, Page, join};
#[cfg(test)]
pub(crate) use glyphs::{MAX_GLYPHS_PER_PAGE, group_lines};
pub(crate) use pieces::{Piece, pieces};
#[cfg(test)]
pub(crate) use reader::PAGES_PER_BATCH;

use crate::error::{Error, ErrorKind, Result};
use crate::limits::Limits;
use crate::statement::DocumentInfo;

/// A PDF opened once: decrypted, within the limits, its metadata and file structure measured.
pub(crate) struct Document {
    opened: load::Opened,
}

impl Document {
    /// Opens `bytes` with `password` (ignored for a file that is not encrypted) within `limits`.
    ///
    /// # Errors
    /// - `ErrorKind::PasswordRequired` / `WrongPassword` for an encrypted file.
    /// - `ErrorKind::TooLarge`: more pages than `limits.max_pages`, or a stream that
    ///   decompresses beyond `limits.max_decompressed`.
    /// - `ErrorKind::Malformed`: not a readable PDF (corrupt, truncated, no pages).
    pub fn open(bytes: &[u8], password: Option<&str>, limits: &Limits) -> Result<Self> {
        load::open_document(bytes, password, limits).map(|opened| Document { opened })
    }

    /// The document's facts: pages, encryption, `/Producer`, `/Creator`, dates, file structure.
    pub fn info(&self) -> &DocumentInfo {
        &self.opened.info
    }

    /// Hands each page's lines to `each`, in page order, a batch of pages at a time (so a long
    /// statement's characters are never all held at once).
    ///
    /// # Errors
    /// - `ErrorKind::UnsupportedWallet`: the PDF draws its text in a way no supported wallet's
    ///   statement does (a font of another kind, a form, an inline image); `each` may have had
    ///   some pages, which are to be discarded.
    /// - `ErrorKind::TooLarge`: the streams decode beyond their bounds, or the pages draw more
    ///   characters than the reader's limits.
    /// - `ErrorKind::Malformed`: a content stream cannot be decoded.
    pub fn each_page(&self, each: impl FnMut(Page)) -> Result<()> {
        let o = &self.opened;
        if reader::extract(&o.doc, &o.page_ids, o.per_stream, o.total_budget, each)? {
            Ok(())
        } else {
            Err(not_read())
        }
    }

    /// Every page's lines, in page order.
    ///
    /// # Errors
    /// Those of [`Document::each_page`].
    pub fn pages(&self) -> Result<Vec<Page>> {
        let mut pages = Vec::new();
        self.each_page(|page| pages.push(page))?;
        Ok(pages)
    }
}

/// The document's facts ([`Document::info`]) with what its pages' text adds to its structure
/// (strings of several glyphs in a two-byte font, and text placements Qt does not make, summed
/// over `pages`; glyphs numbered otherwise than in the order the pages first draw them: see
/// [`placement`]).
pub(crate) fn info_with_pages(
    document: &Document,
    pages: &[Page],
) -> crate::statement::DocumentInfo {
    let mut info = document.info().clone();
    if let Some(s) = info.structure.as_mut() {
        s.joined_glyph_strings = pages
            .iter()
            .fold(0_u32, |n, p| n.saturating_add(p.joined_glyph_strings));
        s.placed_otherwise = pages
            .iter()
            .fold(0_u32, |n, p| n.saturating_add(p.placed_otherwise));
        s.glyphs_numbered_otherwise =
            placement::numbered_otherwise(pages.iter().map(|p| p.first_drawn.as_slice()));
    }
    info
}

/// `UnsupportedWallet`: the PDF draws its text in a way no supported wallet's statement does,
/// so the reader stepped aside (see the module documentation).
fn not_read() -> Error {
    Error::new(
        ErrorKind::UnsupportedWallet,
        "the PDF draws its text in a way no supported wallet's statement does (a font of \
         another kind, a form or an inline image), so it is not read",
    )
}
