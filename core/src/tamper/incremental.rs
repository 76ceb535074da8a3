//! The incremental update: an edit appended to the original bytes, as a PDF editor saves it.

use lopdf::{Document, LoadOptions, Object};

/// Appends an incremental update that redefines the document information dictionary.
pub(super) fn incremental_update(
    original: &[u8],
    password: Option<&str>,
) -> Result<Vec<u8>, String> {
    let options = match password {
        Some(p) => LoadOptions::with_password(p),
        None => LoadOptions::default(),
    };
    let doc = Document::load_mem_with_options(original, options).map_err(|e| e.to_string())?;
    let startxref = find_last(original, b"startxref").ok_or("no startxref")?;
    let previous: String = original[startxref + 9..]
        .iter()
        .skip_while(|b| b.is_ascii_whitespace())
        .take_while(|b| b.is_ascii_digit())
        .map(|b| char::from(*b))
        .collect();
    let size = doc
        .trailer
        .get(b"Size")
        .and_then(Object::as_i64)
        .map_err(|e| e.to_string())?;
    let reference = |key: &[u8]| -> String {
        doc.trailer
            .get(key)
            .and_then(Object::as_reference)
            .map(|(n, g)| format!("/{} {n} {g} R ", String::from_utf8_lossy(key)))
            .unwrap_or_default()
    };
    // Keep every entry of the last trailer (Root, Info, Encrypt, ID) and add /Prev.
    let trailer = find_last(original, b"trailer")
        .and_then(|at| {
            let rest = &original[at + 7..startxref];
            let open = rest.windows(2).position(|w| w == b"<<")?;
            let close = rest.windows(2).rposition(|w| w == b">>")?;
            Some(String::from_utf8_lossy(&rest[open + 2..close]).into_owned())
        })
        .map_or_else(
            || format!("{}{}", reference(b"Root"), reference(b"Info")),
            |entries| format!("{} ", strip_entry(&entries, "/Size")),
        );
    let mut out = original.to_vec();
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    let object_at = out.len();
    out.extend_from_slice(format!("{size} 0 obj\n<< >>\nendobj\n").as_bytes());
    let xref_at = out.len();
    out.extend_from_slice(
        format!(
            "xref\n0 1\n0000000000 65535 f \n{size} 1\n{object_at:010} 00000 n \ntrailer\n<< {trailer}/Size {} /Prev {previous} >>\nstartxref\n{xref_at}\n%%EOF\n",
            size + 1,
        )
        .as_bytes(),
    );
    Ok(out)
}

/// `entries` without the `key value` pair of an integer-valued key.
pub(super) fn strip_entry(entries: &str, key: &str) -> String {
    let Some(at) = entries.find(key) else {
        return entries.to_owned();
    };
    let rest = &entries[at + key.len()..];
    let value_end = rest
        .char_indices()
        .skip_while(|(_, c)| c.is_whitespace())
        .find(|(_, c)| !c.is_ascii_digit())
        .map_or(rest.len(), |(i, _)| i);
    format!("{}{}", &entries[..at], &rest[value_end..])
}

pub(super) fn find_last(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}
