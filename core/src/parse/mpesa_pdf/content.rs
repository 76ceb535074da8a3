//! Rewrites content streams down to the operators that place text, with their operands
//! checked, before `pdf-extract` interprets them.
//!
//! `pdf-extract` asserts operand counts and unwraps resource look-ups (`Tm` with five numbers,
//! `Tf` naming a missing font, `Tj` before any `Tf`, `Do` of a missing `XObject`, an odd
//! `ExtGState` …): each such file would otherwise panic inside it. Kept, when well-formed:
//! `BT ET q Q cm Tm Td TD T* Tc Tw Tz TL Ts Tf Tj TJ Do` (`Do` of Form `XObject`s only), with
//! `'` and `"` rewritten as `T*` + `Tj` (which `pdf-extract` does not read itself). Everything
//! else (paths, colours, images, marked content, graphics states) does not move text and is
//! dropped, which also makes interpretation faster. Graphics-state nesting is bounded by
//! [`MAX_STATE_DEPTH`].

use lopdf::content::{Content, Operation};
use lopdf::{Dictionary, Document, Object, ObjectId, Stream};

use crate::error::{Error, Result};
use crate::parallel;

/// Deepest `q` nesting kept (each level copies the graphics state in `pdf-extract`).
const MAX_STATE_DEPTH: usize = 64;

fn is_number(o: &Object) -> bool {
    matches!(o, Object::Integer(_)) || matches!(o, Object::Real(r) if r.is_finite())
}

fn numbers(op: &Operation, n: usize) -> bool {
    op.operands.len() == n && op.operands.iter().all(is_number)
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

/// Which names a content stream may use: `None` when the stream has no resources of its own
/// (a form that inherits its caller's), in which case names are not checked.
struct Names<'a> {
    doc: &'a Document,
    resources: Option<&'a Dictionary>,
}

impl Names<'_> {
    fn font(&self, name: &[u8]) -> bool {
        let Some(resources) = self.resources else {
            return true;
        };
        sub_dict(self.doc, resources, b"Font")
            .and_then(|fonts| fonts.get(name).ok())
            .and_then(|o| self.doc.dereference(o).ok())
            .is_some_and(|(_, o)| o.as_dict().is_ok())
    }

    fn form(&self, name: &[u8]) -> bool {
        let Some(resources) = self.resources else {
            return true;
        };
        sub_dict(self.doc, resources, b"XObject")
            .and_then(|x| x.get(name).ok())
            .and_then(|o| self.doc.dereference(o).ok())
            .and_then(|(_, o)| o.as_stream().ok())
            .is_some_and(|s| super::load::has_subtype(&s.dict, b"Form"))
    }
}

fn op(operator: &str, operands: Vec<Object>) -> Operation {
    Operation::new(operator, operands)
}

/// Keeps the text operators of `ops` whose operands are well-formed (see the module docs).
fn filter(ops: Vec<Operation>, names: &Names<'_>) -> Vec<Operation> {
    let mut out = Vec::with_capacity(ops.len() / 2);
    let mut font_set = false;
    let mut saved: Vec<bool> = Vec::new();
    let mut skipped_saves = 0usize;
    for o in ops {
        match o.operator.as_str() {
            "BT" | "ET" | "T*" => out.push(op(&o.operator, Vec::new())),
            "q" if saved.len() < MAX_STATE_DEPTH => {
                saved.push(font_set);
                out.push(op("q", Vec::new()));
            }
            "q" => skipped_saves += 1,
            "Q" if skipped_saves > 0 => skipped_saves -= 1,
            "Q" => {
                if let Some(previous) = saved.pop() {
                    font_set = previous;
                    out.push(op("Q", Vec::new()));
                }
            }
            "cm" | "Tm" if numbers(&o, 6) => out.push(o),
            "Td" | "TD" if numbers(&o, 2) => out.push(o),
            "Tc" | "Tw" | "Tz" | "TL" | "Ts" if numbers(&o, 1) => out.push(o),
            "Tf" => {
                font_set = matches!(o.operands.as_slice(),
                    [Object::Name(name), size] if is_number(size) && names.font(name));
                if font_set {
                    out.push(o);
                }
            }
            "Tj" if font_set && matches!(o.operands.as_slice(), [Object::String(..)]) => {
                out.push(o);
            }
            "TJ" if font_set => {
                if let [Object::Array(items)] = o.operands.as_slice() {
                    let items: Vec<Object> = items
                        .iter()
                        .filter(|i| matches!(i, Object::String(..)) || is_number(i))
                        .cloned()
                        .collect();
                    out.push(op("TJ", vec![Object::Array(items)]));
                }
            }
            "'" if font_set => {
                if let [text @ Object::String(..)] = o.operands.as_slice() {
                    out.push(op("T*", Vec::new()));
                    out.push(op("Tj", vec![text.clone()]));
                }
            }
            "\"" if font_set => {
                if let [word, char, text @ Object::String(..)] = o.operands.as_slice()
                    && is_number(word)
                    && is_number(char)
                {
                    out.push(op("Tw", vec![word.clone()]));
                    out.push(op("Tc", vec![char.clone()]));
                    out.push(op("T*", Vec::new()));
                    out.push(op("Tj", vec![text.clone()]));
                }
            }
            "Do" => {
                if let [Object::Name(name)] = o.operands.as_slice()
                    && names.form(name)
                {
                    out.push(o);
                }
            }
            _ => {}
        }
    }
    out
}

fn rewrite(data: &[u8], names: &Names<'_>) -> Option<Vec<u8>> {
    let content = Content::decode(data).ok()?;
    Content {
        operations: filter(content.operations, names),
    }
    .encode()
    .ok()
}

/// Rewrites every page's content (into one new stream per page) and every Form `XObject`.
/// Streams must already be decoded (no filters).
///
/// # Errors
/// `ErrorKind::Malformed` naming the page whose content stream cannot be parsed.
pub(super) fn sanitise(doc: &mut Document, page_ids: &[ObjectId]) -> Result<()> {
    let forms: Vec<ObjectId> = doc
        .objects
        .iter()
        .filter(|(_, o)| {
            o.as_stream()
                .is_ok_and(|s| super::load::has_subtype(&s.dict, b"Form"))
        })
        .map(|(id, _)| *id)
        .collect();
    let mut rewritten_forms = Vec::with_capacity(forms.len());
    for id in forms {
        let Ok(stream) = doc.get_object(id).and_then(Object::as_stream) else {
            continue;
        };
        let resources = stream
            .dict
            .get(b"Resources")
            .and_then(|o| doc.dereference(o))
            .and_then(|(_, o)| o.as_dict())
            .ok();
        let names = Names { doc, resources };
        let content = rewrite(&stream.content, &names).unwrap_or_default();
        rewritten_forms.push((id, content));
    }
    for (id, content) in rewritten_forms {
        if let Some(Object::Stream(stream)) = doc.objects.get_mut(&id) {
            stream.set_plain_content(content);
        }
    }

    let numbered: Vec<(u32, ObjectId)> = page_ids
        .iter()
        .enumerate()
        .map(|(index, id)| (u32::try_from(index + 1).unwrap_or(u32::MAX), *id))
        .collect();
    let doc_ref: &Document = doc;
    let rewritten_pages = parallel::map(&numbered, |(number, page_id)| {
        let data = doc_ref.get_page_content(*page_id);
        let resources = doc_ref
            .get_dictionary(*page_id)
            .and_then(|p| p.get(b"Resources"))
            .and_then(|o| doc_ref.dereference(o))
            .and_then(|(_, o)| o.as_dict())
            .ok();
        let names = Names {
            doc: doc_ref,
            resources: Some(resources.unwrap_or(&EMPTY)),
        };
        rewrite(&data, &names)
            .map(|c| (*page_id, c))
            .ok_or_else(|| {
                Error::malformed(
                    *number,
                    0,
                    format!("the content of page {number} cannot be parsed"),
                )
            })
    })
    .into_iter()
    .collect::<Result<Vec<_>>>()?;
    for (page_id, content) in rewritten_pages {
        let stream_id = doc.add_object(Stream::new(Dictionary::new(), content));
        if let Ok(page) = doc.get_dictionary_mut(page_id) {
            page.set("Contents", Object::Reference(stream_id));
        }
    }
    Ok(())
}

static EMPTY: std::sync::LazyLock<Dictionary> = std::sync::LazyLock::new(Dictionary::new);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_well_formed_text_operators_only() {
        let doc = Document::with_version("1.4");
        let names = Names {
            doc: &doc,
            resources: None,
        };
        let data = b"q 1 0 0 1 0 0 cm 0 0 1 rg 10 10 m 20 20 l S BT (early) Tj /F1 6 Tf \
                     1 0 0 1 38 700 Tm (Receipt) Tj 1 0 0 Tm [(A) -20 (B) /X] TJ (next) ' \
                     1 2 (quoted) \" ET Q Q";
        let out = rewrite(data, &names).expect("parses");
        let ops = Content::decode(&out).expect("re-parses").operations;
        let operators: Vec<&str> = ops.iter().map(|o| o.operator.as_str()).collect();
        assert_eq!(
            operators,
            [
                "q", "cm", "BT", "Tf", "Tm", "Tj", "TJ", "T*", "Tj", "Tw", "Tc", "T*", "Tj", "ET",
                "Q"
            ]
        );
    }

    #[test]
    fn missing_fonts_and_forms_are_dropped() {
        let doc = Document::with_version("1.4");
        let resources = Dictionary::new();
        let names = Names {
            doc: &doc,
            resources: Some(&resources),
        };
        let out = rewrite(b"BT /F9 6 Tf (x) Tj ET /Im1 Do", &names).expect("parses");
        let ops = Content::decode(&out).expect("re-parses").operations;
        let operators: Vec<&str> = ops.iter().map(|o| o.operator.as_str()).collect();
        assert_eq!(operators, ["BT", "ET"]);
    }
}
