//! Opening the PDF with `lopdf` 0.47: password, safety limits, metadata; and, for documents the
//! own [`reader`](super::reader) does not read, a sanitised copy for `pdf-extract`.
//!
//! `pdf-extract` 0.12 reads documents through its own `lopdf` 0.42, which can decrypt these
//! files but decompresses every stream without a bound (object streams while loading, images
//! and fonts while extracting). So the untrusted bytes only ever meet `lopdf` 0.47 with its
//! decompression limit; what `pdf-extract` gets is a copy this module writes: decrypted, every
//! stream already decoded (so 0.42 decodes nothing), images emptied (Safaricom's 2023+ layout
//! draws a ~1 MB banner on every page, which `pdf-extract` would inflate and then interpret as
//! a content stream), a flat page tree with resources and media box on every page (no
//! `/Parent` walks), and Form `XObject`s nested at most [`MAX_FORM_DEPTH`] deep (no unbounded
//! recursion on a self-referencing form).

use std::collections::{BTreeMap, BTreeSet};

use lopdf::{DecompressError, Dictionary, Document, LoadOptions, Object, ObjectId};

use crate::error::{Error, ErrorKind, Result};
use crate::parse::ParseOptions;
use crate::statement::DocumentInfo;

/// Deepest nesting of Form `XObject`s kept (page → form → form …). Deeper or cyclic forms are
/// emptied.
const MAX_FORM_DEPTH: usize = 8;

/// The whole sanitised document may decode to this many times `Limits::max_decompressed`.
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
pub(super) fn open_document(bytes: &[u8], options: &ParseOptions) -> Result<Opened> {
    let limits = options.limits;
    let per_stream = usize::try_from(limits.max_decompressed).unwrap_or(usize::MAX);
    let doc = open(bytes, options.password.as_deref(), per_stream)?;

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

/// The sanitised, decrypted, uncompressed copy of an opened document for `pdf-extract` (see
/// the module documentation).
///
/// # Errors
/// `ErrorKind::TooLarge` for streams decoding beyond their bounds, `ErrorKind::Malformed` for
/// a content stream that cannot be decoded or parsed, or a copy that cannot be written.
pub(super) fn extraction_copy(opened: Opened) -> Result<Vec<u8>> {
    let Opened {
        mut doc,
        page_ids,
        per_stream,
        total_budget,
        ..
    } = opened;
    decode_streams(&mut doc, &page_ids, per_stream, total_budget)?;
    let page_ids = flatten_pages(&mut doc, &page_ids);
    limit_forms(&mut doc, &page_ids);
    super::content::sanitise(&mut doc, &page_ids)?;

    doc.trailer.remove(b"Encrypt");
    doc.encryption_state = None;
    let mut extract_bytes = Vec::new();
    doc.save_to(&mut extract_bytes)
        .map_err(|e| Error::malformed(0, 0, format!("the PDF could not be re-encoded: {e}")))?;
    Ok(extract_bytes)
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
            "the PDF is password-protected: give its password (Safaricom statements: normally \
             the customer's ID number)",
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
            Err(password_error())
        }
        Ok(doc) => Ok(doc),
        Err(lopdf::Error::InvalidPassword) => Err(password_error()),
        Err(lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { limit })) => {
            Err(too_large_stream(limit))
        }
        Err(e) => Err(Error::malformed(0, 0, format!("not a readable PDF: {e}"))),
    }
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

/// Decodes every stream in place (bounded), empties images, and refuses a document whose
/// decoded streams exceed `total_budget` bytes.
fn decode_streams(
    doc: &mut Document,
    page_ids: &[ObjectId],
    per_stream: usize,
    total_budget: u64,
) -> Result<()> {
    // Content streams, to name the page when one cannot be decoded.
    let mut content_page: BTreeMap<ObjectId, u32> = BTreeMap::new();
    for (index, page_id) in page_ids.iter().enumerate() {
        for id in doc.get_page_contents(*page_id) {
            content_page
                .entry(id)
                .or_insert(u32::try_from(index + 1).unwrap_or(u32::MAX));
        }
    }
    let mut total: u64 = 0;
    for (id, object) in &mut doc.objects {
        let Object::Stream(stream) = object else {
            continue;
        };
        if has_subtype(&stream.dict, b"Image") {
            stream.set_plain_content(Vec::new());
            continue;
        }
        let filtered = stream.filters().is_ok_and(|f| !f.is_empty());
        if filtered {
            match stream.decompressed_content_with_limit(per_stream) {
                Ok(data) => stream.set_plain_content(data),
                Err(lopdf::Error::Decompress(DecompressError::MemoryLimitExceeded { limit })) => {
                    return Err(too_large_stream(limit));
                }
                Err(e) => {
                    if let Some(page) = content_page.get(id) {
                        return Err(Error::malformed(
                            *page,
                            0,
                            format!("a content stream of page {page} cannot be decoded: {e}"),
                        ));
                    }
                    // Fonts, colour profiles, metadata: text extraction does without them.
                    stream.set_plain_content(Vec::new());
                }
            }
        }
        total = total.saturating_add(stream.content.len() as u64);
        if total > total_budget {
            return Err(too_large_total(total_budget));
        }
    }
    Ok(())
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
/// else A4. Both text readers take the page height from it.
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

fn media_box(doc: &Document, page_id: ObjectId) -> Vec<Object> {
    media_box_numbers(doc, page_id)
        .into_iter()
        .map(Object::Real)
        .collect()
}

/// Replaces the page tree by a flat one whose pages carry their own `/Resources` and
/// `/MediaBox`, so that `pdf-extract` never walks `/Parent` links. Returns the new page ids.
fn flatten_pages(doc: &mut Document, page_ids: &[ObjectId]) -> Vec<ObjectId> {
    let root_id = doc.new_object_id();
    let mut kids = Vec::with_capacity(page_ids.len());
    let mut new_ids = Vec::with_capacity(page_ids.len());
    for page_id in page_ids {
        let resources = inherited(doc, *page_id, b"Resources")
            .cloned()
            .unwrap_or_else(|| Object::Dictionary(Dictionary::new()));
        let media_box = media_box(doc, *page_id);
        let mut page = doc.get_dictionary(*page_id).cloned().unwrap_or_default();
        page.set("Type", Object::Name(b"Page".to_vec()));
        page.set("Resources", resources);
        page.set("MediaBox", Object::Array(media_box));
        page.set("Parent", Object::Reference(root_id));
        page.remove(b"ArtBox");
        // A fresh id per page: the same page object listed twice stays two pages.
        let id = doc.add_object(Object::Dictionary(page));
        kids.push(Object::Reference(id));
        new_ids.push(id);
    }
    let mut root = Dictionary::new();
    root.set("Type", Object::Name(b"Pages".to_vec()));
    root.set(
        "Count",
        Object::Integer(i64::try_from(kids.len()).unwrap_or(i64::MAX)),
    );
    root.set("Kids", Object::Array(kids));
    doc.objects.insert(root_id, Object::Dictionary(root));
    let catalog_id = doc.trailer.get(b"Root").and_then(Object::as_reference).ok();
    if let Some(catalog) = catalog_id.and_then(|id| doc.get_dictionary_mut(id).ok()) {
        catalog.set("Pages", Object::Reference(root_id));
    } else {
        let mut catalog = Dictionary::new();
        catalog.set("Type", Object::Name(b"Catalog".to_vec()));
        catalog.set("Pages", Object::Reference(root_id));
        let id = doc.add_object(Object::Dictionary(catalog));
        doc.trailer.set("Root", Object::Reference(id));
    }
    new_ids
}

/// Form `XObject`s a resource dictionary names.
fn forms_in(doc: &Document, resources: &Object, forms: &BTreeSet<ObjectId>) -> Vec<ObjectId> {
    let Ok((_, resources)) = doc.dereference(resources) else {
        return Vec::new();
    };
    let Some(xobjects) = resources
        .as_dict()
        .and_then(|r| r.get(b"XObject"))
        .and_then(|x| doc.dereference(x))
        .and_then(|(_, x)| x.as_dict())
        .ok()
    else {
        return Vec::new();
    };
    xobjects
        .iter()
        .filter_map(|(_, v)| v.as_reference().ok())
        .filter(|id| forms.contains(id))
        .collect()
}

/// Empties every Form `XObject` that can be reached deeper than [`MAX_FORM_DEPTH`] (which
/// includes every form on a cycle), so content-stream interpretation recursion stays bounded.
fn limit_forms(doc: &mut Document, page_ids: &[ObjectId]) {
    let forms: BTreeSet<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, o)| o.as_stream().is_ok_and(|s| has_subtype(&s.dict, b"Form")))
        .map(|(id, _)| *id)
        .collect();
    if forms.is_empty() {
        return;
    }
    // A form without its own /Resources uses its caller's, so it may call any form at all.
    let every_named: Vec<ObjectId> = {
        let mut all = BTreeSet::new();
        for object in doc.objects.values() {
            if let Ok(dict) = object.as_dict()
                && let Ok(resources) = dict.get(b"Resources")
            {
                all.extend(forms_in(doc, resources, &forms));
            }
            if let Ok(stream) = object.as_stream()
                && let Ok(resources) = stream.dict.get(b"Resources")
            {
                all.extend(forms_in(doc, resources, &forms));
            }
        }
        all.into_iter().collect()
    };
    let callees: BTreeMap<ObjectId, Vec<ObjectId>> = forms
        .iter()
        .map(|id| {
            let own = doc
                .get_object(*id)
                .and_then(Object::as_stream)
                .ok()
                .and_then(|s| s.dict.get(b"Resources").ok());
            let called = match own {
                Some(resources) => forms_in(doc, resources, &forms),
                None => every_named.clone(),
            };
            (*id, called)
        })
        .collect();
    let mut level: BTreeSet<ObjectId> = BTreeSet::new();
    for page_id in page_ids {
        if let Some(resources) = inherited(doc, *page_id, b"Resources") {
            level.extend(forms_in(doc, resources, &forms));
        }
    }
    for _ in 1..MAX_FORM_DEPTH {
        level = level
            .iter()
            .filter_map(|id| callees.get(id))
            .flatten()
            .copied()
            .collect();
        if level.is_empty() {
            return;
        }
    }
    // `level` now holds the forms reachable at depth MAX_FORM_DEPTH: empty what they call.
    let too_deep: BTreeSet<ObjectId> = level
        .iter()
        .filter_map(|id| callees.get(id))
        .flatten()
        .copied()
        .collect();
    for id in too_deep {
        if let Some(Object::Stream(stream)) = doc.objects.get_mut(&id) {
            stream.set_plain_content(Vec::new());
        }
    }
}
