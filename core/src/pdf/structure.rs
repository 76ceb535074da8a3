//! The file-structure facts of a PDF that the forensic checks read (see
//! [`crate::statement::PdfStructure`]): save markers, cross-reference sections,
//! the writer's binary comment, the fonts each page uses and the page sizes.

use std::collections::BTreeMap;
use std::fmt::Write;

use lopdf::{Document, Object, ObjectId};

use crate::statement::{FontUse, PdfBuild, PdfStructure};

/// Measures `bytes` (the file as received) and `doc` (the same file, opened). `off_grid` and
/// `off_rounding` are filled in later from the glyph positions.
pub(super) fn measure(bytes: &[u8], doc: &Document, page_ids: &[ObjectId]) -> PdfStructure {
    let first_page_section = u32::from(opens_linearized(bytes));
    PdfStructure {
        eof_markers: count(bytes, b"%%EOF").saturating_sub(first_page_section),
        xref_sections: count(bytes, b"startxref").saturating_sub(first_page_section),
        xref_streams: count(bytes, b"/XRef") > 0,
        loose_stream_ends: loose_stream_ends(bytes),
        binary_marker: binary_marker(bytes),
        fonts: fonts(doc, page_ids),
        odd_size_pages: odd_size_pages(doc, page_ids),
        off_grid: Vec::new(),
        off_rounding: Vec::new(),
        build: Some(build(bytes, doc)),
        joined_glyph_strings: 0,
        placed_otherwise: 0,
        glyphs_numbered_otherwise: 0,
    }
}

/// The layout facts of [`PdfBuild`], read from the file's bytes and its cross-reference
/// table (the last section's, as `lopdf` merged them).
fn build(bytes: &[u8], doc: &Document) -> PdfBuild {
    let info = doc.trailer.get(b"Info").and_then(Object::as_reference).ok();
    let mut offsets = doc
        .reference_table
        .entries
        .iter()
        .filter_map(|(number, entry)| match entry {
            lopdf::xref::XrefEntry::Normal { offset, .. } => Some((*number, *offset)),
            _ => None,
        })
        .peekable();
    let mut in_order = offsets.peek().is_some();
    let mut last = None;
    for (_, offset) in offsets {
        if last.is_some_and(|l| offset <= l) {
            in_order = false;
            break;
        }
        last = Some(offset);
    }
    let utf16_info = info
        .and_then(|id| doc.get_dictionary(id).ok())
        .and_then(|d| d.get(b"Producer").ok())
        .and_then(|p| p.as_str().ok())
        .is_some_and(|p| p.starts_with(&[0xFE, 0xFF]));
    PdfBuild {
        info_first: info.is_some_and(|(n, _)| n == 1),
        objects_in_number_order: in_order,
        tight_dictionaries: first_dictionary_is_tight(bytes),
        trailer_id: doc.trailer.has(b"ID"),
        utf16_info,
    }
}

/// Whether the file opens with a linearized ("fast web view") file's first-page section: its
/// first object is a linearization parameter dictionary (`/Linearized`) and its first `%%EOF`
/// comes before the file's second object. A linearizing writer puts the first page's
/// cross-reference section, trailer, `startxref` and `%%EOF` there, in the same save as the
/// rest (ISO 32000-1, Annex F); an update appended later ends with a `%%EOF` of its own, at
/// the end. Tied to where that section sits, a linearization dictionary claimed by an edit
/// cannot excuse a `%%EOF` elsewhere.
fn opens_linearized(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    let Some(first) = memchr::memmem::find(head, b" obj") else {
        return false;
    };
    let rest = &bytes[first + 4..];
    let dictionary = &rest[..memchr::memmem::find(rest, b">>").unwrap_or(0)];
    let linearized = memchr::memmem::find_iter(dictionary, b"/Linearized").any(|at| {
        dictionary
            .get(at + b"/Linearized".len())
            .is_some_and(|b| b.is_ascii_whitespace() || b"/<>[]()".contains(b))
    });
    linearized && {
        let second_object = memchr::memmem::find(rest, b" obj").unwrap_or(rest.len());
        memchr::memmem::find(&rest[..second_object], b"%%EOF").is_some()
    }
}

/// Whether the first object's dictionary opens as `<</Name` (no white space after `<<`).
fn first_dictionary_is_tight(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    memchr::memmem::find(head, b" obj")
        .and_then(|at| {
            let rest = &head[at + 4..];
            let open = memchr::memmem::find(rest, b"<<")?;
            rest.get(open + 2).copied()
        })
        .is_some_and(|b| b == b'/')
}

fn count(haystack: &[u8], needle: &[u8]) -> u32 {
    let n = memchr::memmem::find_iter(haystack, needle).count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn loose_stream_ends(bytes: &[u8]) -> u32 {
    let needle = b"endstream";
    let n = memchr::memmem::find_iter(bytes, needle)
        .filter(|i| {
            bytes
                .get(i + needle.len())
                .is_some_and(|b| !matches!(b, b'\n' | b'\r'))
        })
        .count();
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The comment of non-ASCII bytes that writers put on the line after `%PDF-1.x`.
fn binary_marker(bytes: &[u8]) -> Option<String> {
    let start = bytes.iter().position(|b| *b == b'\n' || *b == b'\r')?;
    let rest = bytes.get(start..)?;
    let rest = &rest[rest.iter().position(|b| *b == b'%')?..];
    let marker: Vec<u8> = rest
        .iter()
        .skip(1)
        .take_while(|b| **b >= 0x80)
        .take(8)
        .copied()
        .collect();
    (!marker.is_empty()).then(|| {
        marker.iter().fold(String::new(), |mut out, b| {
            let _ = write!(out, "{b:02x}");
            out
        })
    })
}

fn resolve<'a>(doc: &'a Document, object: &'a Object) -> Option<&'a Object> {
    doc.dereference(object).ok().map(|(_, o)| o)
}

fn page_resources(doc: &Document, page_id: ObjectId) -> Option<&lopdf::Dictionary> {
    let mut id = page_id;
    for _ in 0..32 {
        let dict = doc.get_dictionary(id).ok()?;
        if let Ok(resources) = dict.get(b"Resources") {
            return resolve(doc, resources)?.as_dict().ok();
        }
        id = dict.get(b"Parent").and_then(Object::as_reference).ok()?;
    }
    None
}

/// `/BaseFont` names per page, subset prefixes (`ABCDEF+`) removed.
fn fonts(doc: &Document, page_ids: &[ObjectId]) -> Vec<FontUse> {
    let mut by_name: BTreeMap<String, Vec<u32>> = BTreeMap::new();
    for (index, page_id) in page_ids.iter().enumerate() {
        let page = u32::try_from(index + 1).unwrap_or(u32::MAX);
        let Some(font_dict) = page_resources(doc, *page_id)
            .and_then(|r| r.get(b"Font").ok())
            .and_then(|f| resolve(doc, f))
            .and_then(|f| f.as_dict().ok())
        else {
            continue;
        };
        for (_, font) in font_dict {
            let Some(name) = resolve(doc, font)
                .and_then(|f| f.as_dict().ok())
                .and_then(|f| f.get(b"BaseFont").ok())
                .and_then(|n| n.as_name().ok())
            else {
                continue;
            };
            let name = String::from_utf8_lossy(name);
            let name = match name.split_once('+') {
                Some((prefix, rest)) if prefix.len() == 6 => rest.to_owned(),
                _ => name.into_owned(),
            };
            let pages = by_name.entry(name).or_default();
            if pages.last() != Some(&page) {
                pages.push(page);
            }
        }
    }
    by_name
        .into_iter()
        .map(|(name, pages)| FontUse { name, pages })
        .collect()
}

fn media_box(doc: &Document, page_id: ObjectId) -> Option<Vec<i64>> {
    let mut id = page_id;
    for _ in 0..32 {
        let dict = doc.get_dictionary(id).ok()?;
        if let Ok(mb) = dict.get(b"MediaBox") {
            let items = resolve(doc, mb)?.as_array().ok()?;
            // Whole points: writers round differently, a real size change is far larger.
            #[allow(clippy::cast_possible_truncation)]
            return Some(
                items
                    .iter()
                    .filter_map(|n| n.as_float().ok())
                    .map(|n| n.round() as i64)
                    .collect(),
            );
        }
        id = dict.get(b"Parent").and_then(Object::as_reference).ok()?;
    }
    None
}

fn odd_size_pages(doc: &Document, page_ids: &[ObjectId]) -> Vec<u32> {
    let sizes: Vec<Option<Vec<i64>>> = page_ids.iter().map(|id| media_box(doc, *id)).collect();
    let Some(first) = sizes.first() else {
        return Vec::new();
    };
    sizes
        .iter()
        .enumerate()
        .filter(|(_, s)| *s != first)
        .map(|(i, _)| u32::try_from(i + 1).unwrap_or(u32::MAX))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_saves_and_reads_the_writer_marker() {
        let bytes =
            b"%PDF-1.5\n%\xf6\xe4\xfc\xdf\n1 0 obj\nstartxref\n9\n%%EOF\nstartxref\n1\n%%EOF\n";
        assert_eq!(count(bytes, b"%%EOF"), 2);
        assert_eq!(binary_marker(bytes).as_deref(), Some("f6e4fcdf"));
        assert_eq!(binary_marker(b"%PDF-1.4\n1 0 obj"), None);
        assert_eq!(
            loose_stream_ends(b"x\nendstream\nendobj\nendstream \nendobj"),
            1
        );
    }

    /// The head of a file `qpdf --linearize` wrote (the linearization dictionary, the first
    /// page's cross-reference section and trailer, its `%%EOF`), then the first page's objects.
    const LINEARIZED: &[u8] = b"%PDF-1.4\n%\xbf\n7 0 obj\n<< /Linearized 1 /L 600 /H [ 863 176 ] \
        /O 10 /N 2 >>\nendobj\nxref\n7 21\ntrailer\n<< /Size 28 /Prev 240 >>\nstartxref\n0\n\
        %%EOF\n10 0 obj\n<< /Type /Page >>\nendobj\n";

    #[test]
    fn a_linearized_files_first_page_section_is_part_of_its_save() {
        assert!(opens_linearized(LINEARIZED));
        // A claim of linearization with no section before the next object (an edit that wrote
        // the dictionary over the first object, its update's `%%EOF` at the end).
        let claimed = b"%PDF-1.4\n1 0 obj\n<< /Linearized 1 /L 99 >>\nendobj\n2 0 obj\n<<>>\n\
            endobj\nstartxref\n9\n%%EOF\n";
        assert!(!opens_linearized(claimed));
        // Not a linearization dictionary: a longer name, or none.
        let other = b"%PDF-1.4\n1 0 obj\n<< /LinearizedX 1 >>\nendobj\n%%EOF\n2 0 obj\n";
        assert!(!opens_linearized(other));
        assert!(!opens_linearized(
            b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\n%%EOF\n"
        ));
        assert!(!opens_linearized(b"%PDF-1.4\n"));
    }
}
