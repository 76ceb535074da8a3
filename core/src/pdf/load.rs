//! Opening the PDF with `lopdf` 0.47: password, safety limits (decompression bounded per
//! stream and in total, a page limit), metadata and file structure; and the look-ups the own
//! [`reader`](super::reader) shares (resolved objects, inherited page attributes, the media
//! box, resource sub-dictionaries).

use std::collections::BTreeSet;

use lopdf::{DecompressError, Dictionary, Document, LoadOptions, Object, ObjectId};

use crate::error::{Error, ErrorKind, Result};
use crate::limits::Limits;
use crate::statement::DocumentInfo;

/// The document's streams together may decode to this many times `Limits::max_decompressed`.
const TOTAL_DECOMPRESSED_FACTOR: u64 = 4;

/// Page size used when a page has no usable `/MediaBox` (A4, points).
const A4: [f32; 4] = [0.0, 0.0, 595.0, 842.0];

/// An opened statement PDF.
pub(super) struct Opened {
    /// The document, decrypted.
    pub doc: Document,
    /// Its pages, in order.
    pub page_ids: Vec<ObjectId>,
    /// Metadata and page count (`declared_pages` is filled in later from the footer); the
    /// parser takes it out before the text is read.
    pub info: DocumentInfo,
    /// Bound on each decoded stream, bytes.
    pub per_stream: usize,
    /// Bound on all decoded streams together, bytes.
    pub total_budget: u64,
}

/// Opens `bytes`, checks the password and the limits, and reads the metadata and structure.
pub(super) fn open_document(
    bytes: &[u8],
    password: Option<&str>,
    limits: &Limits,
) -> Result<Opened> {
    let per_stream = usize::try_from(limits.max_decompressed).unwrap_or(usize::MAX);
    let doc = open(bytes, password, per_stream)?;

    let page_ids = page_ids(&doc, limits.max_pages);
    let pages = u32::try_from(page_ids.len()).unwrap_or(u32::MAX);
    if pages > limits.max_pages {
        let limit = u64::from(limits.max_pages);
        return Err(Error::new(
            ErrorKind::TooLarge { limit },
            format!("the PDF has more than {limit} pages, the limit"),
        ));
    }
    if pages == 0 {
        return Err(Error::malformed(0, 0, "the PDF has no pages"));
    }

    let mut info = document_info(&doc, pages);
    info.structure = Some(super::structure::measure(bytes, &doc, &page_ids));
    let total_budget = limits
        .max_decompressed
        .saturating_mul(TOTAL_DECOMPRESSED_FACTOR);
    Ok(Opened {
        doc,
        page_ids,
        info,
        per_stream,
        total_budget,
    })
}

/// The document's pages in order, walked one by one and at most `max_pages + 1` of them (one
/// more than the limit, so the caller can tell it is exceeded).
///
/// Not `Document::get_pages`: lopdf 0.47 sizes that collection from the `/Count` each page-tree
/// node claims (its iterator's `size_hint`), so a file claiming 2×10¹⁶ pages made the
/// allocator abort the process, which no `catch_unwind` contains (found by the `parse_pdf`
/// fuzz target). A `for` loop never asks for the size hint.
fn page_ids(doc: &Document, max_pages: u32) -> Vec<ObjectId> {
    let most = usize::try_from(max_pages)
        .unwrap_or(usize::MAX)
        .saturating_add(1);
    let mut ids = Vec::new();
    for id in doc.page_iter() {
        ids.push(id);
        if ids.len() >= most {
            break;
        }
    }
    ids
}

/// Loads and decrypts. Maps `lopdf`'s errors to the engine's kinds.
fn open(bytes: &[u8], password: Option<&str>, per_stream: usize) -> Result<Document> {
    let password = password.filter(|p| !p.is_empty());
    let mut load_options = match password {
        Some(p) => LoadOptions::with_password(p),
        None => LoadOptions::default(),
    };
    load_options.max_decompressed_size = Some(per_stream);
    let password_error = || match password {
        None => Error::new(
            ErrorKind::PasswordRequired,
            "the PDF is password-protected: give its password",
        ),
        Some(_) => Error::new(
            ErrorKind::WrongPassword,
            "the password does not open this PDF",
        ),
    };
    match Document::load_mem_with_options(bytes, load_options) {
        // lopdf opens an encrypted file without a password (or with an empty user password)
        // but leaves it encrypted when the empty password does not work.
        Ok(doc) if doc.trailer.has(b"Encrypt") && doc.encryption_state.is_none() => {
            Err(inline_encrypt_error(&doc.trailer).unwrap_or_else(password_error))
        }
        Ok(doc) => Ok(doc),
        Err(lopdf::Error::InvalidPassword) => {
            // The trailer, read again without the password, tells an encryption lopdf cannot
            // read from a wrong password.
            let options = LoadOptions {
                max_decompressed_size: Some(per_stream),
                ..LoadOptions::default()
            };
            let inline = Document::load_mem_with_options(bytes, options)
                .ok()
                .and_then(|doc| inline_encrypt_error(&doc.trailer));
            Err(inline.unwrap_or_else(password_error))
        }
        Err(lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { limit })) => {
            Err(too_large_stream(limit))
        }
        Err(e) => Err(Error::malformed(0, 0, format!("not a readable PDF: {e}"))),
    }
}

/// `UnsupportedFormat` when the trailer's `/Encrypt` is a dictionary written in the trailer
/// itself rather than a reference to an object (`MuPDF` writes it so; ISO 32000-1 §7.5.5
/// allows both): lopdf 0.47 finds its security handler only through a reference, so it cannot
/// check any password against it, and "wrong password" would send the user looking for
/// another one.
fn inline_encrypt_error(trailer: &Dictionary) -> Option<Error> {
    matches!(trailer.get(b"Encrypt"), Ok(Object::Dictionary(_))).then(|| {
        Error::new(
            ErrorKind::UnsupportedFormat,
            "the PDF's encryption dictionary is written inside its trailer, which this reader \
             cannot decrypt: save the statement without a password (or ask the wallet for it \
             again) and send that file",
        )
    })
}

/// `TooLarge`: one stream decompresses beyond `limit` bytes.
pub(super) fn too_large_stream(limit: usize) -> Error {
    let limit = limit as u64;
    Error::new(
        ErrorKind::TooLarge { limit },
        format!("a PDF stream decompresses to more than {limit} bytes"),
    )
}

/// Reads the document information dictionary.
fn document_info(doc: &Document, pages: u32) -> DocumentInfo {
    let info = doc
        .trailer
        .get(b"Info")
        .and_then(|o| doc.dereference(o))
        .and_then(|(_, o)| o.as_dict())
        .ok();
    let text = |key: &[u8]| -> Option<String> {
        let value = info?.get(key).and_then(|o| doc.dereference(o)).ok()?.1;
        let s = lopdf::decode_text_string(value).ok().or_else(|| {
            value
                .as_str()
                .ok()
                .map(|b| b.iter().map(|&c| char::from(c)).collect())
        })?;
        let s = s.trim_matches(|c: char| c.is_whitespace() || c == '\0');
        (!s.is_empty()).then(|| s.to_owned())
    };
    DocumentInfo {
        pages,
        encrypted: doc.was_encrypted(),
        producer: text(b"Producer"),
        creator: text(b"Creator"),
        author: text(b"Author"),
        title: text(b"Title"),
        created: text(b"CreationDate"),
        modified: text(b"ModDate"),
        declared_pages: None,
        structure: None,
    }
}

/// Whether a stream dictionary's `/Subtype` is `subtype` (`Image`, `Form`).
pub(super) fn has_subtype(dict: &Dictionary, subtype: &[u8]) -> bool {
    dict.get(b"Subtype")
        .and_then(Object::as_name)
        .is_ok_and(|n| n == subtype)
}

/// `TooLarge`: the document's streams together decompress beyond `total_budget` bytes.
pub(super) fn too_large_total(total_budget: u64) -> Error {
    Error::new(
        ErrorKind::TooLarge {
            limit: total_budget,
        },
        format!("the PDF's streams decompress to more than {total_budget} bytes"),
    )
}

/// `object`, or the object it refers to.
pub(super) fn resolve<'a>(doc: &'a Document, object: &'a Object) -> &'a Object {
    doc.dereference(object).map_or(object, |(_, o)| o)
}

/// Follows `/Parent` links (cycle-safe) for an inheritable page attribute, as written (a
/// reference stays a reference).
pub(super) fn inherited<'a>(
    doc: &'a Document,
    page_id: ObjectId,
    key: &[u8],
) -> Option<&'a Object> {
    let mut seen = BTreeSet::new();
    let mut id = page_id;
    loop {
        if !seen.insert(id) || seen.len() > 64 {
            return None;
        }
        let dict = doc.get_dictionary(id).ok()?;
        if let Ok(value) = dict.get(key) {
            return Some(value);
        }
        id = dict.get(b"Parent").and_then(Object::as_reference).ok()?;
    }
}

/// A page's `/MediaBox` (inherited) as four finite numbers with positive width and height,
/// else A4. The reader takes the page height from it.
pub(super) fn media_box_numbers(doc: &Document, page_id: ObjectId) -> [f32; 4] {
    let numbers: Option<[f32; 4]> = inherited(doc, page_id, b"MediaBox").and_then(|o| {
        let (_, o) = doc.dereference(o).ok()?;
        let items = o.as_array().ok()?;
        let numbers: Vec<f32> = items
            .iter()
            .filter_map(|n| n.as_float().ok())
            .filter(|n| n.is_finite())
            .collect();
        let n: [f32; 4] = numbers.try_into().ok()?;
        (n[2] > n[0] && n[3] > n[1]).then_some(n)
    });
    numbers.unwrap_or(A4)
}

/// A resource sub-dictionary (`/Font`, `/XObject`), resolved.
pub(super) fn sub_dict<'a>(
    doc: &'a Document,
    resources: &'a Dictionary,
    key: &[u8],
) -> Option<&'a Dictionary> {
    resources
        .get(key)
        .and_then(|o| doc.dereference(o))
        .and_then(|(_, o)| o.as_dict())
        .ok()
}
