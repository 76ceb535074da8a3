//! An opened statement with its text items, edited in place and saved (re-encrypted with the
//! original password when the original was encrypted).

use lopdf::content::{Content, Operation};
use lopdf::{Document, EncryptionState, EncryptionVersion, LoadOptions, Object, Permissions};
use rust_decimal::Decimal;

use super::text::{Item, Row, decode, encode, is_money, rows};

/// An opened statement with its text items, ready to edit.
pub(super) struct Editor {
    pub(super) doc: Document,
    pub(super) pages: Vec<(lopdf::ObjectId, Vec<Operation>)>,
    pub(super) items: Vec<Item>,
    pub(super) rows: Vec<Row>,
    pub(super) password: Option<String>,
    pub(super) commas: bool,
}

impl Editor {
    pub(super) fn open(bytes: &[u8], password: Option<&str>) -> Result<Self, String> {
        let options = match password {
            Some(p) => LoadOptions::with_password(p),
            None => LoadOptions::default(),
        };
        let doc = Document::load_mem_with_options(bytes, options).map_err(|e| e.to_string())?;
        let was_encrypted = doc.was_encrypted();
        let mut pages = Vec::new();
        let mut items = Vec::new();
        for (index, page_id) in doc.get_pages().into_values().enumerate() {
            let content =
                Content::decode(&doc.get_page_content(page_id)).map_err(|e| e.to_string())?;
            for (op, operation) in content.operations.iter().enumerate() {
                if operation.operator == "Tj"
                    && let Some((text, encoding)) = operation.operands.first().and_then(decode)
                {
                    items.push(Item {
                        page: index,
                        op,
                        text,
                        encoding,
                    });
                }
            }
            pages.push((page_id, content.operations));
        }
        let rows = rows(&items);
        let commas = items
            .iter()
            .any(|i| is_money(&i.text) && i.text.contains(','));
        Ok(Self {
            doc,
            pages,
            items,
            rows,
            password: if was_encrypted {
                password.map(str::to_owned)
            } else {
                None
            },
            commas,
        })
    }

    pub(super) fn set(&mut self, item: usize, text: &str) {
        let Some(it) = self.items.get_mut(item) else {
            return;
        };
        text.clone_into(&mut it.text);
        if let Some(op) = self
            .pages
            .get_mut(it.page)
            .and_then(|(_, ops)| ops.get_mut(it.op))
        {
            op.operands = vec![encode(text, it.encoding)];
        }
    }

    pub(super) fn text(&self, item: usize) -> &str {
        self.items.get(item).map_or("", |i| i.text.as_str())
    }

    pub(super) fn format_money(&self, value: Decimal, negative: bool) -> String {
        format!(
            "{}{}",
            if negative { "-" } else { "" },
            super::text::format_money(value, self.commas)
        )
    }

    /// Saves (re-encrypting like the original), compressing the page contents again.
    pub(super) fn save(mut self) -> Result<Vec<u8>, String> {
        for (page_id, operations) in std::mem::take(&mut self.pages) {
            let bytes = Content { operations }.encode().map_err(|e| e.to_string())?;
            self.doc
                .change_page_content(page_id, bytes)
                .map_err(|e| e.to_string())?;
        }
        self.doc.compress();
        save(self.doc, self.password.as_deref())
    }
}

pub(super) fn save(mut doc: Document, password: Option<&str>) -> Result<Vec<u8>, String> {
    if let Ok(id) = doc.trailer.get(b"Encrypt").and_then(Object::as_reference) {
        doc.objects.remove(&id);
    }
    doc.trailer.remove(b"Encrypt");
    doc.encryption_state = None;
    if let Some(password) = password {
        let version = EncryptionVersion::V2 {
            document: &doc,
            owner_password: password,
            user_password: password,
            key_length: 128,
            permissions: Permissions::PRINTABLE,
        };
        let state = EncryptionState::try_from(version).map_err(|e| e.to_string())?;
        doc.encrypt(&state).map_err(|e| e.to_string())?;
    }
    let mut out = Vec::new();
    doc.save_to(&mut out).map_err(|e| e.to_string())?;
    Ok(out)
}
