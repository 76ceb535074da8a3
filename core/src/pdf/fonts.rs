//! The fonts of a statement, read once per document for [`reader`](super::reader): how each
//! string's bytes split into character codes, each code's advance width and its Unicode text.
//!
//! Only the font kinds that Safaricom's statements use are read here, exactly as `pdf-extract`
//! 0.12 reads them (so both readers place every character at the same point):
//! - **Type0 / `Identity-H`** (2023+ layout, embedded `DejaVu` Sans subsets): two-byte codes,
//!   widths from the descendant font's `/W` (default `/DW`, else 1000), text from `/ToUnicode`
//!   (a code without an entry draws nothing).
//! - **Simple `TrueType` or Type1 with `/WinAnsiEncoding`** and `/FirstChar` … `/Widths`
//!   (2023+ layout's non-embedded `DejaVu` Sans), text from `/ToUnicode` first, else the
//!   encoding (PDF 1.7, Annex D.2, as glyph names map to Unicode).
//! - **Base-14 Helvetica and Helvetica-Bold with `/WinAnsiEncoding`** and no widths (2021
//!   iText 5 layout): widths from Adobe's AFM files for the printable ASCII codes.
//!
//! Anything else (Type3, other encodings, `/Differences`, embedded Type1 programs, a width
//! table that does not match its `/FirstChar`…`/LastChar`, a code outside the base-14 table)
//! is [`Unsupported`], and the document is refused (`UnsupportedWallet`).

use std::collections::HashMap;

use lopdf::{Dictionary, Document, Object};

use super::load::resolve;

/// A font (or a code in it) this reader does not handle; the caller refuses the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Unsupported;

/// Advance widths (1/1000 em) of Helvetica for the `WinAnsiEncoding` codes 32..=126, from
/// Adobe's Core14 AFM files (`Helvetica.afm`), looked up by glyph name as `pdf-extract` does
/// (so code 39 is `quotesingle` and 96 is `grave`).
const HELVETICA: [u16; 95] = [
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556, 1015, 667, 667, 722, 722, 667,
    611, 778, 722, 278, 500, 667, 556, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 278, 278, 278, 469, 556, 333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500,
    222, 833, 556, 556, 556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
];

/// The same for Helvetica-Bold (`Helvetica-Bold.afm`).
const HELVETICA_BOLD: [u16; 95] = [
    278, 333, 474, 556, 556, 889, 722, 238, 333, 333, 389, 584, 278, 333, 278, 278, 556, 556, 556,
    556, 556, 556, 556, 556, 556, 556, 333, 333, 584, 584, 584, 611, 975, 722, 722, 722, 722, 667,
    611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667,
    667, 611, 333, 278, 333, 584, 556, 333, 556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556,
    278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500, 389, 280, 389, 584,
];

/// `WinAnsiEncoding` codes 128..=159 as Unicode (PDF 1.7 Annex D.2; the undefined codes draw
/// `bullet`, as in `pdf-extract`'s table).
const WIN_ANSI_HIGH: [char; 32] = [
    '€', '•', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '•', 'Ž', '•', '•', '‘', '’',
    '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '•', 'ž', 'Ÿ',
];

/// The Unicode character of a `WinAnsiEncoding` code (codes below 32 have no glyph: U+0000).
fn win_ansi(code: u8) -> char {
    match code {
        0..=31 => '\0',
        127 => '•',
        128..=159 => WIN_ANSI_HIGH[usize::from(code - 128)],
        // `space` and `hyphen` by glyph name.
        160 => ' ',
        173 => '-',
        _ => char::from(code),
    }
}

/// The text of each character code.
type CodeText = HashMap<u32, Box<[char]>>;

/// How a font turns a string's bytes into codes, widths and text.
#[derive(Debug)]
pub(crate) enum Font {
    /// One byte per code.
    Simple {
        /// Width per code (1/1000 em).
        widths: Box<[f64; 256]>,
        /// The text of each code.
        text: Box<[Box<[char]>]>,
        /// Codes above this draw with a width this reader does not know (base-14 fonts beyond
        /// ASCII): [`Unsupported`].
        last_known: u8,
    },
    /// Two bytes per code (`Identity-H`): the code is the CID.
    Identity {
        /// Width per CID (1/1000 em), indexed by CID; CIDs past the end have the default.
        widths: Vec<f64>,
        /// Width of a CID without an entry.
        default_width: f64,
        /// The text of each CID (`/ToUnicode`), indexed by CID; empty for none.
        text: Vec<Box<[char]>>,
    },
}

impl Font {
    /// Reads the font dictionary `font`.
    ///
    /// # Errors
    /// [`Unsupported`] for a font outside the kinds listed in the module documentation.
    pub fn load(doc: &Document, font: &Dictionary, max_stream: usize) -> Result<Self, Unsupported> {
        match name(doc, font, b"Subtype") {
            Some(b"Type0") => identity(doc, font, max_stream),
            Some(b"TrueType" | b"Type1") => simple(doc, font, max_stream),
            _ => Err(Unsupported),
        }
    }

    /// The code that draws `ch` alone, when the font has one (the lowest; for the tamper
    /// generator, which writes text back in the font's own codes).
    #[cfg(feature = "testing")]
    pub fn code_of(&self, ch: char) -> Option<u32> {
        let hit = |t: &[char]| t.len() == 1 && t[0] == ch;
        let code = match self {
            Font::Simple { text, .. } => text.iter().position(|t| hit(t)),
            Font::Identity { text, .. } => text.iter().position(|t| hit(t)),
        };
        code.and_then(|c| u32::try_from(c).ok())
    }

    /// Whether its codes are two bytes (`Identity-H`).
    pub fn is_two_byte(&self) -> bool {
        matches!(self, Font::Identity { .. })
    }

    /// Splits `bytes` into `(code, single_byte)` pairs; a trailing odd byte of a two-byte
    /// font is dropped (as `pdf-extract` does).
    pub fn codes<'a>(&self, bytes: &'a [u8]) -> impl Iterator<Item = (u32, bool)> + 'a {
        let two = matches!(self, Font::Identity { .. });
        let step = if two { 2 } else { 1 };
        bytes.chunks_exact(step).map(move |c| match c {
            [a, b] => ((u32::from(*a) << 8) | u32::from(*b), false),
            [a] => (u32::from(*a), true),
            _ => (0, true),
        })
    }

    /// The width (1/1000 em) and text of `code`.
    ///
    /// # Errors
    /// [`Unsupported`] for a base-14 code this reader has no width for.
    pub fn glyph(&self, code: u32) -> Result<(f64, &[char]), Unsupported> {
        match self {
            Font::Simple {
                widths,
                text,
                last_known,
            } => {
                let c = u8::try_from(code).map_err(|_| Unsupported)?;
                if c > *last_known {
                    return Err(Unsupported);
                }
                Ok((widths[usize::from(c)], &text[usize::from(c)]))
            }
            Font::Identity {
                widths,
                default_width,
                text,
            } => {
                let i = usize::try_from(code).unwrap_or(usize::MAX);
                Ok((
                    widths.get(i).copied().unwrap_or(*default_width),
                    text.get(i).map_or(&[][..], |t| &t[..]),
                ))
            }
        }
    }
}

fn get<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a Object> {
    dict.get(key).ok().map(|o| resolve(doc, o))
}

fn name<'a>(doc: &'a Document, dict: &'a Dictionary, key: &[u8]) -> Option<&'a [u8]> {
    get(doc, dict, key).and_then(|o| o.as_name().ok())
}

fn number(o: &Object) -> Option<f64> {
    match o {
        #[allow(clippy::cast_precision_loss)]
        Object::Integer(i) => Some(*i as f64),
        Object::Real(r) => Some(f64::from(*r)),
        _ => None,
    }
}

fn decoded(stream: &lopdf::Stream, max_stream: usize) -> Result<Vec<u8>, Unsupported> {
    if stream.filters().is_ok_and(|f| !f.is_empty()) {
        stream
            .decompressed_content_with_limit(max_stream)
            .map_err(|_| Unsupported)
    } else {
        Ok(stream.content.clone())
    }
}

/// `/ToUnicode`: `None` when absent (or `/Identity-H`), each code's text otherwise.
fn to_unicode(
    doc: &Document,
    font: &Dictionary,
    max_stream: usize,
) -> Result<Option<CodeText>, Unsupported> {
    match get(doc, font, b"ToUnicode") {
        None => Ok(None),
        Some(Object::Name(n)) if n == b"Identity-H" => Ok(None),
        Some(Object::Stream(stream)) => {
            let data = decoded(stream, max_stream)?;
            let map = adobe_cmap_parser::get_unicode_map(&data).map_err(|_| Unsupported)?;
            let mut out = HashMap::with_capacity(map.len());
            for (code, utf16be) in map {
                if utf16be.len() % 2 != 0 {
                    return Err(Unsupported);
                }
                let units: Vec<u16> = utf16be
                    .chunks_exact(2)
                    .map(|p| u16::from_be_bytes([p[0], p[1]]))
                    .collect();
                // A lone surrogate is skipped, as `pdf-extract` does.
                if let [0xd800..=0xdfff] = units.as_slice() {
                    continue;
                }
                let text = String::from_utf16(&units).map_err(|_| Unsupported)?;
                out.insert(code, text.chars().collect());
            }
            Ok(Some(out))
        }
        Some(_) => Err(Unsupported),
    }
}

fn identity(doc: &Document, font: &Dictionary, max_stream: usize) -> Result<Font, Unsupported> {
    if !matches!(
        name(doc, font, b"Encoding"),
        Some(b"Identity-H" | b"Identity-V")
    ) {
        return Err(Unsupported);
    }
    let descendant = get(doc, font, b"DescendantFonts")
        .and_then(|d| d.as_array().ok())
        .and_then(|d| d.first())
        .map(|d| resolve(doc, d))
        .and_then(|d| d.as_dict().ok())
        .ok_or(Unsupported)?;
    if get(doc, descendant, b"FontDescriptor").is_none_or(|d| d.as_dict().is_err()) {
        return Err(Unsupported);
    }
    #[allow(clippy::cast_precision_loss)]
    let default_width = match get(doc, descendant, b"DW") {
        Some(Object::Integer(w)) => *w as f64,
        _ => 1000.0,
    };
    let mut widths = HashMap::new();
    if let Some(w) = get(doc, descendant, b"W") {
        let w = w.as_array().map_err(|_| Unsupported)?;
        let mut i = 0;
        while i < w.len() {
            let Object::Integer(first) = resolve(doc, &w[i]) else {
                return Err(Unsupported);
            };
            match w.get(i + 1).map(|o| resolve(doc, o)) {
                Some(Object::Array(list)) => {
                    for (j, width) in list.iter().enumerate() {
                        let cid = first
                            .checked_add(i64::try_from(j).map_err(|_| Unsupported)?)
                            .and_then(|c| u32::try_from(c).ok())
                            .ok_or(Unsupported)?;
                        widths.insert(cid, number(width).ok_or(Unsupported)?);
                    }
                    i += 2;
                }
                // `first last width` ranges: `pdf-extract` 0.12 reads them wrongly (no width at
                // all); Safaricom's fonts do not use them, so neither reader is asked to agree.
                _ => return Err(Unsupported),
            }
        }
    }
    let text = to_unicode(doc, font, max_stream)?.unwrap_or_default();
    Ok(Font::Identity {
        widths: dense(&widths, default_width),
        default_width,
        text: dense(&text, Box::default()),
    })
}

/// A two-byte code's table as a vector indexed by code (codes above `0xFFFF` cannot occur).
fn dense<T: Clone>(map: &HashMap<u32, T>, default: T) -> Vec<T> {
    let len = map
        .keys()
        .filter(|k| **k <= 0xFFFF)
        .max()
        .map_or(0, |k| *k as usize + 1);
    let mut out = vec![default; len];
    for (k, v) in map {
        if let Some(slot) = out.get_mut(*k as usize) {
            *slot = v.clone();
        }
    }
    out
}

fn simple(doc: &Document, font: &Dictionary, max_stream: usize) -> Result<Font, Unsupported> {
    if let Some(descriptor) = get(doc, font, b"FontDescriptor").and_then(|d| d.as_dict().ok())
        && (get(doc, descriptor, b"FontFile3").is_some()
            || get(doc, descriptor, b"FontFile").is_some())
    {
        return Err(Unsupported);
    }
    let true_type = name(doc, font, b"Subtype") == Some(b"TrueType");
    match get(doc, font, b"Encoding") {
        Some(Object::Name(n)) if n == b"WinAnsiEncoding" => {}
        None if true_type => {}
        _ => return Err(Unsupported),
    }
    let unicode = to_unicode(doc, font, max_stream)?;
    let missing_width = get(doc, font, b"MissingWidth")
        .and_then(number)
        .unwrap_or(0.0);
    let mut widths = Box::new([missing_width; 256]);
    let mut last_known = u8::MAX;
    let first = get(doc, font, b"FirstChar").and_then(|o| o.as_i64().ok());
    let last = get(doc, font, b"LastChar").and_then(|o| o.as_i64().ok());
    let table: Option<Vec<f64>> = get(doc, font, b"Widths")
        .and_then(|o| o.as_array().ok())
        .and_then(|a| a.iter().map(|w| number(resolve(doc, w))).collect());
    if let (Some(first), Some(last), Some(table)) = (first, last, table) {
        if i64::try_from(table.len()).ok() != last.checked_sub(first).map(|n| n + 1) {
            return Err(Unsupported);
        }
        for (i, w) in table.into_iter().enumerate() {
            let code = i64::try_from(i).ok().and_then(|i| first.checked_add(i));
            match code.and_then(|c| u8::try_from(c).ok()) {
                Some(c) => widths[usize::from(c)] = w,
                None => return Err(Unsupported),
            }
        }
    } else {
        let metrics = match name(doc, font, b"BaseFont") {
            Some(b"Helvetica") => &HELVETICA,
            Some(b"Helvetica-Bold") => &HELVETICA_BOLD,
            _ => return Err(Unsupported),
        };
        for (i, w) in metrics.iter().enumerate() {
            widths[32 + i] = f64::from(*w);
        }
        last_known = 126;
    }
    let text = (0..=u8::MAX)
        .map(|code| {
            unicode
                .as_ref()
                .and_then(|m| m.get(&u32::from(code)).cloned())
                .unwrap_or_else(|| Box::new([win_ansi(code)]))
        })
        .collect();
    Ok(Font::Simple {
        widths,
        text,
        last_known,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn win_ansi_follows_the_glyph_names() {
        assert_eq!(win_ansi(b'A'), 'A');
        assert_eq!(win_ansi(39), '\'');
        assert_eq!(win_ansi(0x80), '€');
        assert_eq!(win_ansi(0x81), '•');
        assert_eq!(win_ansi(0x9f), 'Ÿ');
        assert_eq!(win_ansi(0xa0), ' ');
        assert_eq!(win_ansi(0xad), '-');
        assert_eq!(win_ansi(0xe9), 'é');
        assert_eq!(win_ansi(7), '\0');
    }
}
