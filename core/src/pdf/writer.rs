//! A minimal PDF writer for the synthetic statements of other wallets: text runs in base-14
//! Helvetica (`WinAnsiEncoding`) at top-left coordinates on A4 pages, written with `lopdf`.
//! The document information names the wallet's own writer (`/Producer`, `/Creator`), as the
//! real statements do.

use std::fmt::Write as _;

use lopdf::{Dictionary, Document, Object, Stream};

/// A4 page height, points.
const PAGE_HEIGHT: f64 = 842.0;

/// One page being drawn: its content stream.
#[derive(Debug, Default, Clone)]
pub struct Canvas {
    ops: String,
}

impl Canvas {
    /// Draws `text` (ASCII) with its left edge at `x` and its baseline `top` points below the
    /// top of the page, in Helvetica of `size` points.
    pub fn text(&mut self, x: f64, top: f64, size: f64, text: &str) {
        let escaped = text
            .replace('\\', "\\\\")
            .replace('(', "\\(")
            .replace(')', "\\)");
        let _ = writeln!(
            self.ops,
            "BT /F1 {size} Tf 1 0 0 1 {x:.2} {:.2} Tm ({escaped}) Tj ET",
            PAGE_HEIGHT - top
        );
    }
}

fn name(n: &str) -> Object {
    Object::Name(n.as_bytes().to_vec())
}

/// The PDF bytes of `pages`, with `/Producer` `producer` and `/Creator` `creator` (when not
/// empty). Writing to memory cannot fail; an empty vector is returned if it ever did.
pub fn document(pages: Vec<Canvas>, producer: &str, creator: &str) -> Vec<u8> {
    let mut info = vec![("Producer", producer)];
    if !creator.is_empty() {
        info.push(("Creator", creator));
    }
    let mut doc = assemble(pages.into_iter().map(|p| p.ops).collect(), &info);
    let mut bytes = Vec::new();
    if doc.save_to(&mut bytes).is_err() {
        bytes.clear();
    }
    bytes
}

/// The document (PDF 1.4, A4 pages) of the page content streams `contents`, whose text is in
/// base-14 Helvetica as `/F1`, with the document information entries `info` (`("Producer",
/// "iText 5.1.0")`, …): for tests that draw their own content streams and still need the
/// document object (to encrypt it, say).
pub fn assemble(contents: Vec<String>, info: &[(&str, &str)]) -> Document {
    let mut doc = Document::with_version("1.4");
    let pages_id = doc.new_object_id();
    let mut font = Dictionary::new();
    font.set("Type", name("Font"));
    font.set("Subtype", name("Type1"));
    font.set("BaseFont", name("Helvetica"));
    font.set("Encoding", name("WinAnsiEncoding"));
    let font_id = doc.add_object(Object::Dictionary(font));
    let mut kids = Vec::new();
    for ops in contents {
        let content_id = doc.add_object(Stream::new(Dictionary::new(), ops.into_bytes()));
        let mut dict = Dictionary::new();
        dict.set("Type", name("Page"));
        dict.set("Parent", Object::Reference(pages_id));
        dict.set("Contents", Object::Reference(content_id));
        let mut fonts = Dictionary::new();
        fonts.set("F1", Object::Reference(font_id));
        let mut resources = Dictionary::new();
        resources.set("Font", Object::Dictionary(fonts));
        dict.set("Resources", Object::Dictionary(resources));
        kids.push(Object::Reference(doc.add_object(Object::Dictionary(dict))));
    }
    let mut tree = Dictionary::new();
    tree.set("Type", name("Pages"));
    tree.set(
        "Count",
        Object::Integer(i64::try_from(kids.len()).unwrap_or(0)),
    );
    tree.set("Kids", Object::Array(kids));
    let media: Vec<Object> = [0, 0, 595, 842].into_iter().map(Object::Integer).collect();
    tree.set("MediaBox", Object::Array(media));
    doc.objects.insert(pages_id, Object::Dictionary(tree));
    let mut catalog = Dictionary::new();
    catalog.set("Type", name("Catalog"));
    catalog.set("Pages", Object::Reference(pages_id));
    let catalog_id = doc.add_object(Object::Dictionary(catalog));
    doc.trailer.set("Root", Object::Reference(catalog_id));
    let mut dictionary = Dictionary::new();
    for (key, value) in info {
        dictionary.set(*key, Object::string_literal(*value));
    }
    let info_id = doc.add_object(Object::Dictionary(dictionary));
    doc.trailer.set("Info", Object::Reference(info_id));
    doc
}

/// Splits `text` into lines of at most `width` characters at spaces (a longer word stands on
/// its own line).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split(' ') {
        match lines.last_mut() {
            Some(line) if line.len() + 1 + word.len() <= width => {
                line.push(' ');
                line.push_str(word);
            }
            _ => lines.push(word.to_owned()),
        }
    }
    lines
}
