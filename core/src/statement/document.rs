//! What a statement's source file says about itself: a PDF's document information, encryption,
//! build and text placement ([`DocumentInfo`], [`PdfStructure`]), measured while parsing
//! (`crate::pdf::structure`) and read by the integrity checks (`crate::check::forensics`).

use serde::{Deserialize, Serialize};

/// Facts about a source PDF that tamper checks read (producer, creator, dates, encryption).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct DocumentInfo {
    /// Number of pages.
    pub pages: u32,
    /// Whether the file was password-protected (as Safaricom sends statements).
    pub encrypted: bool,
    /// `/Producer` of the document information dictionary, e.g. `"OpenPDF 1.3.26"`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub producer: Option<String>,
    /// `/Creator`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub creator: Option<String>,
    /// `/Author` (Safaricom's own statements say `"Safaricom Ltd"` or similar).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// `/Title`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// `/CreationDate` as printed in the PDF (`D:YYYYMMDDHHmmSS…`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created: Option<String>,
    /// `/ModDate` as printed in the PDF.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modified: Option<String>,
    /// Page numbers the footer promises ("Page 20 of 21" → 21), when it says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declared_pages: Option<u32>,
    /// How the file itself is built (xref sections, the writer's marker, fonts, page sizes), for
    /// the forensic checks of [`crate::check::forensics`]. `None` when not measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure: Option<PdfStructure>,
}

/// Facts about the bytes of a PDF that tell the program that wrote it, and whether it was
/// appended to afterwards. Source: PDF 1.7 (ISO 32000-1) §7.5 (file structure, incremental
/// updates) and the measured output of Safaricom's writers (see docs/integrity.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PdfStructure {
    /// Number of `%%EOF` markers: one per save; more than one means incremental updates. A
    /// linearized file's first-page section (its first `%%EOF`, before the file's second
    /// object: ISO 32000-1, Annex F) is part of the save and not counted.
    pub eof_markers: u32,
    /// Number of `startxref` keywords (one per cross-reference section), the same way.
    pub xref_sections: u32,
    /// Whether the file uses cross-reference streams (`/Type /XRef`); Safaricom's writers
    /// (iText 5, `OpenPDF`) write classic tables.
    pub xref_streams: bool,
    /// `endstream` keywords not followed by an end of line. Safaricom's writers always end a
    /// stream with `endstream` and a newline; some libraries (`lopdf`) write a space first.
    #[serde(default)]
    pub loose_stream_ends: u32,
    /// The binary comment on the file's second line as lower-case hex (`"f6e4fcdf"` for
    /// `OpenPDF`, `"e2e3cfd3"` for iText 5), when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub binary_marker: Option<String>,
    /// Every font the pages use, `/BaseFont` without a subset prefix (`"DejaVuSans"`), sorted,
    /// with the 1-based pages that use it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fonts: Vec<FontUse>,
    /// 1-based pages whose media box differs from page 1's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub odd_size_pages: Vec<u32>,
    /// Transaction-table lines whose Paid In, Withdrawn or Balance does not end at its
    /// column's right edge, and SUMMARY lines whose Paid In or Paid Out is not centred in its
    /// column (Safaricom right-aligns every amount of the table and centres the SUMMARY's; an
    /// edit that changes an amount's length without moving it breaks the alignment).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub off_grid: Vec<PageLine>,
    /// Transaction-table and SUMMARY lines with an amount that starts off a hundredth of a
    /// point, or (table) ends 0.01 pt or more from other amounts of its column: Safaricom's
    /// writers start a right-aligned amount at its column's edge less its width, written to
    /// 0.01 pt, so every amount starts on a hundredth and every amount of a column ends within
    /// 0.01 pt of every other (0.008 pt at most on the genuine samples). A longer amount moved
    /// left from its old start by the width it gained starts off the hundredths as computed
    /// (a digit is 3.336 pt wide at size 6), or, rounded, keeps the old start's rounding and
    /// may end a hundredth off. Evidence only on a file its wallet's writer wrote: another
    /// program re-drawing the page rounds by its own rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub off_rounding: Vec<PageLine>,
    /// How the file is laid out, as facts that tell one writer from another (see
    /// [`PdfBuild`]); `None` when not measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build: Option<PdfBuild>,
    /// Text-showing strings of a two-byte (`Identity-H`) font that draw more than one glyph.
    /// Airtel Uganda's writer (Qt 4.8) places every glyph with its own `Td` and shows it
    /// alone, so a string of several glyphs was written by another program.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub joined_glyph_strings: u32,
    /// Text placements Qt 4.8 does not make (Airtel Uganda's writer draws every glyph of its
    /// two-byte font with one `Td` and one `Tj` of that glyph alone, the move the previous
    /// glyph's advance in its 26.6 fixed point): a `Td` move right after a glyph shown alone
    /// that is not a whole number of 64ths of a text space unit; after a figure of an amount
    /// (a digit, a comma or a point), a move other than the one every other copy of that
    /// glyph of its font and size on the page makes most often; a text operator Qt never
    /// writes (`TJ`, `'`, `"`, `Tc`, `Tw`, `Tz`, `Ts`, `TL`, `T*`, `TD`); a `Td` right after
    /// a `Td`. The Airtel sample has none (3,988 moves, all whole 64ths, 143 glyphs of its
    /// fonts and sizes with one move each); a glyph placed by a move computed from the font's
    /// `/W` widths (6.31 for a digit Qt moves 6.359375), or a figure placed by another glyph's
    /// move, is counted here.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub placed_otherwise: u32,
    /// Glyphs of two-byte fonts numbered otherwise than in the order the pages first draw
    /// them. Qt 4.8 (Airtel Uganda's writer) numbers its subset font's glyphs 1, 2, 3, … as
    /// it first draws them (`QFontSubset::addGlyph`), so on its files every glyph id from 1 to
    /// the highest is drawn, each first drawn after the id below it: the Airtel sample has
    /// none otherwise (103 glyphs of two fonts over two pages). Counted per font: an id no page
    /// draws (a glyph whose only use was edited away), and an id first drawn before the id
    /// below it (a glyph written in before its first genuine use). Measured on every file, over
    /// the glyphs shown alone (a string of several is already another program's text,
    /// `joined_glyph_strings`); evidence only for a writer that numbers so
    /// (`Writer::glyphs_by_first_use`).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub glyphs_numbered_otherwise: u32,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's `skip_serializing_if` passes a reference
fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// How a PDF file is laid out: facts each writer fixes the same way on every file it writes
/// and that a program re-saving or re-drawing the file sets its own way (measured on the
/// genuine samples; see docs/integrity.md, "Each wallet's writer"). Source: PDF 1.7 (ISO
/// 32000-1) §7.5 (file structure) and §14.3.3 (document information).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
#[allow(clippy::struct_excessive_bools)] // five independent yes/no facts of one file
pub struct PdfBuild {
    /// The document information dictionary (`/Info`) is object 1 (Qt writes it first).
    pub info_first: bool,
    /// The objects sit in the file in the order of their numbers (what `lopdf`, `qpdf` and
    /// other rewriting libraries do; a streaming writer such as Qt or iText writes its catalog
    /// and page tree after the pages, so its offsets are not in number order).
    pub objects_in_number_order: bool,
    /// The first object's dictionary opens without a line break (`<</Type…`: iText, `lopdf`),
    /// not with one (`<<` and a new line: Qt).
    pub tight_dictionaries: bool,
    /// The trailer carries a file identifier (`/ID`).
    pub trailer_id: bool,
    /// `/Producer` is written in UTF-16 (starts with the byte-order mark `FE FF`).
    pub utf16_info: bool,
}

/// A line of a PDF page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct PageLine {
    /// 1-based page.
    pub page: u32,
    /// 1-based line on the page (lines by baseline, top to bottom).
    pub line: u32,
}

/// One font of a PDF and the pages that use it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct FontUse {
    /// `/BaseFont` without a subset prefix, e.g. `"DejaVuSans"`, `"Helvetica-Bold"`.
    pub name: String,
    /// 1-based pages whose resources name it, ascending.
    pub pages: Vec<u32>,
}
