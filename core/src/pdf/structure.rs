//! The file-structure facts of a PDF that the forensic checks read (see
//! [`crate::statement::PdfStructure`]): save markers, cross-reference sections,
//! the writer's binary comment, the fonts each page uses and the page sizes.

use std::collections::BTreeMap;
use std::fmt::Write;

use lopdf::{Document, Object, ObjectId};

use crate::statement::{FontUse, PdfBuild, PdfStructure};

/// Measures `bytes` (the file as received) and `doc` (the same file, opened). `off_grid` is
/// filled in later from the glyph positions.
pub(super) fn measure(bytes: &[u8], doc: &Document, page_ids: &[ObjectId]) -> PdfStructure {
    let first_page_section = u32::from(linearized_as_written(bytes));
    PdfStructure {
        eof_markers: count(bytes, b"%%EOF").saturating_sub(first_page_section),
        xref_sections: count(bytes, b"startxref").saturating_sub(first_page_section),
        xref_streams: count(bytes, b"/XRef") > 0,
        loose_stream_ends: loose_stream_ends(bytes),
        binary_marker: binary_marker(bytes),
        fonts: fonts(doc, page_ids),
        odd_size_pages: odd_size_pages(doc, page_ids),
        off_grid: Vec::new(),
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

/// Whether the file is linearized ("fast web view") and not changed since: its first object
/// is a linearization parameter dictionary whose `/L` is the file's length. Such a file ends
/// its first page's cross-reference section with a `startxref` and a `%%EOF` of its own in one
/// save; a later incremental update changes the length (ISO 32000-1, Annex F.2.2: `/L` is there
/// to tell whether the file was updated since it was linearized).
fn linearized_as_written(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(1024)];
    let Some(dictionary) = memchr::memmem::find(head, b" obj").and_then(|at| {
        let rest = &head[at + 4..];
        let open = memchr::memmem::find(rest, b"<<")?;
        let close = memchr::memmem::find(&rest[open..], b">>")?;
        Some(&rest[open + 2..open + close])
    }) else {
        return false;
    };
    if memchr::memmem::find(dictionary, b"/Linearized").is_none() {
        return false;
    }
    memchr::memmem::find_iter(dictionary, b"/L")
        .map(|at| &dictionary[at + 2..])
        .find(|after| after.first().is_some_and(|b| !b.is_ascii_alphabetic()))
        .and_then(|after| {
            let digits: Vec<u8> = after
                .iter()
                .skip_while(|b| b.is_ascii_whitespace())
                .take_while(|b| b.is_ascii_digit())
                .copied()
                .collect();
            std::str::from_utf8(&digits).ok()?.parse::<usize>().ok()
        })
        .is_some_and(|length| length == bytes.len())
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

    /// The head of a file `qpdf --linearize` wrote, with its `/L` set to `length`.
    fn linearized(length: usize) -> Vec<u8> {
        let mut bytes = format!(
            "%PDF-1.4\n%\u{bf}\n7 0 obj\n<< /Linearized 1 /L {length} /H [ 863 176 ] /O 10 \
             /E 237221 /N 2 /T 243107 >>\nendobj\nxref\n"
        )
        .into_bytes();
        bytes.resize(length, b' ');
        bytes
    }

    #[test]
    fn a_linearized_file_is_whole_while_its_length_is_the_one_it_declares() {
        assert!(linearized_as_written(&linearized(600)));
        // Bytes appended after linearization (an incremental update) change the length.
        let mut updated = linearized(600);
        updated.extend_from_slice(b"\nxref\n0 1\ntrailer\n<<>>\nstartxref\n600\n%%EOF\n");
        assert!(!linearized_as_written(&updated));
        // Not linearized: `/L…` names of another dictionary are not a length.
        assert!(!linearized_as_written(
            b"%PDF-1.4\n1 0 obj\n<< /Type /Catalog /Lang 42 >>\nendobj\n"
        ));
        assert!(!linearized_as_written(b"%PDF-1.4\n"));
    }
}
