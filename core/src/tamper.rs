//! A tamper generator for the integrity benchmark: takes a real M-Pesa statement PDF and makes
//! edited copies the way a forger would, with `lopdf` (feature `testing`; never in a release
//! build of a service).
//!
//! Text is edited inside the page content streams. Safaricom's statements use simple fonts:
//! iText 5 draws Helvetica with literal `WinAnsi` strings (`(425.00)Tj`), `OpenPDF` draws an
//! embedded `DejaVu` Sans with two-byte glyph ids in hex strings, where a glyph id is the ASCII
//! code minus 29 for the characters that matter here (digits, letters, `.`, `,`, `-`, `:`).
//! Rows are found in drawing order: a receipt (10 letters and digits), a completion time, the
//! Details lines, the status word, then the Paid In or Withdrawn amount and the balance.
//!
//! Every edit is deterministic for a seed. Output is saved by `lopdf` (a re-save), and
//! re-encrypted with RC4-128 and the original password when the original was encrypted (what a
//! forger does to hand the file back as "the PDF Safaricom sent"), except the incremental
//! update, which appends to the original bytes.

use chrono::NaiveDateTime;
use lopdf::content::{Content, Operation};
use lopdf::{Document, EncryptionState, EncryptionVersion, LoadOptions, Object, Permissions};
use rust_decimal::Decimal;

use crate::testing::SplitMix64;

/// A uniform index below `n` (0 when `n` is 0).
trait Below {
    fn below(&mut self, n: usize) -> usize;
}

impl Below for SplitMix64 {
    fn below(&mut self, n: usize) -> usize {
        let n = u64::try_from(n.max(1)).unwrap_or(u64::MAX);
        usize::try_from(self.next_u64() % n).unwrap_or(0)
    }
}

/// One kind of edit. Names are the benchmark's row labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edit {
    /// One digit of one row's Paid In / Withdrawn amount.
    AmountDigit,
    /// One digit of one row's balance.
    BalanceDigit,
    /// One digit of one row's completion time (kept a valid date and time).
    DateDigit,
    /// One character of one row's receipt number.
    ReceiptChar,
    /// One row blanked out.
    DeleteRow,
    /// One row overwritten by a copy of its neighbour (the neighbour appears twice).
    DuplicateRow,
    /// One row overwritten by an invented row (new receipt, new amount).
    FabricateRow,
    /// One page other than the first removed.
    DropPage,
    /// `/CreationDate` changed, nothing else.
    Metadata,
    /// An incremental update appended to the original bytes (the Info dictionary redefined).
    IncrementalUpdate,
    /// Opened and saved again, nothing changed.
    Resave,
    /// The careful forger: a Paid In amount raised, every later balance and the SUMMARY TOTAL
    /// raised by the same amount, so that every sum holds.
    CarefulForger,
}

impl Edit {
    /// Every edit kind, in table order.
    pub const ALL: [Edit; 12] = [
        Edit::AmountDigit,
        Edit::BalanceDigit,
        Edit::DateDigit,
        Edit::ReceiptChar,
        Edit::DeleteRow,
        Edit::DuplicateRow,
        Edit::FabricateRow,
        Edit::DropPage,
        Edit::Metadata,
        Edit::IncrementalUpdate,
        Edit::Resave,
        Edit::CarefulForger,
    ];

    /// The label used in the benchmark table (`"amount_digit"`).
    pub fn name(self) -> &'static str {
        match self {
            Edit::AmountDigit => "amount_digit",
            Edit::BalanceDigit => "balance_digit",
            Edit::DateDigit => "date_digit",
            Edit::ReceiptChar => "receipt_char",
            Edit::DeleteRow => "delete_row",
            Edit::DuplicateRow => "duplicate_row",
            Edit::FabricateRow => "fabricate_row",
            Edit::DropPage => "drop_page",
            Edit::Metadata => "metadata",
            Edit::IncrementalUpdate => "incremental_update",
            Edit::Resave => "resave",
            Edit::CarefulForger => "careful_forger",
        }
    }
}

/// How a string operand is encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    /// One byte per character (`WinAnsi`).
    Literal,
    /// Two-byte glyph ids, glyph = ASCII − 29 (`OpenPDF`'s `DejaVu` Sans).
    Glyph,
}

/// One text-showing operation (`Tj`) of one page.
#[derive(Debug, Clone)]
struct Item {
    page: usize,
    op: usize,
    text: String,
    encoding: Encoding,
}

fn decode(object: &Object) -> Option<(String, Encoding)> {
    let Object::String(bytes, _) = object else {
        return None;
    };
    // lopdf's content parser does not keep the hex form, so tell by the bytes: WinAnsi text
    // never holds NUL, two-byte glyph ids below 256 always do.
    let glyphs = !bytes.is_empty() && bytes.len() % 2 == 0 && bytes.chunks(2).all(|c| c[0] == 0);
    if glyphs {
        let text = bytes
            .chunks(2)
            .map(|c| char::from(c[1].saturating_add(29)))
            .collect();
        Some((text, Encoding::Glyph))
    } else {
        Some((
            bytes.iter().map(|b| char::from(*b)).collect(),
            Encoding::Literal,
        ))
    }
}

fn encode(text: &str, encoding: Encoding) -> Object {
    match encoding {
        Encoding::Literal => Object::String(
            text.chars()
                .map(|c| u8::try_from(c).unwrap_or(b'?'))
                .collect(),
            lopdf::StringFormat::Literal,
        ),
        Encoding::Glyph => Object::String(
            text.chars()
                .flat_map(|c| [0, u8::try_from(c).unwrap_or(b'?').saturating_sub(29)])
                .collect(),
            lopdf::StringFormat::Hexadecimal,
        ),
    }
}

fn is_receipt(s: &str) -> bool {
    s.len() == 10
        && s.chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && s.chars().any(|c| c.is_ascii_uppercase())
}

fn is_time(s: &str) -> bool {
    NaiveDateTime::parse_from_str(s.trim(), "%Y-%m-%d %H:%M:%S").is_ok()
}

fn is_money(s: &str) -> bool {
    money(s).is_some()
}

fn money(s: &str) -> Option<Decimal> {
    let s = s.trim();
    let (_, cents) = s.rsplit_once('.')?;
    if cents.len() != 2 {
        return None;
    }
    s.replace(',', "").parse().ok()
}

fn is_status(s: &str) -> bool {
    matches!(s.trim(), "Completed" | "Cancelled" | "Failed" | "Pending")
}

/// A transaction row: indexes into the item list.
#[derive(Debug, Clone)]
struct Row {
    receipt: usize,
    time: usize,
    details: Vec<usize>,
    status: usize,
    /// The Paid In / Withdrawn amount, then the balance.
    money: Vec<usize>,
}

/// An opened statement with its text items, ready to edit.
struct Editor {
    doc: Document,
    pages: Vec<(lopdf::ObjectId, Vec<Operation>)>,
    items: Vec<Item>,
    rows: Vec<Row>,
    password: Option<String>,
    commas: bool,
}

impl Editor {
    fn open(bytes: &[u8], password: Option<&str>) -> Result<Self, String> {
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

    fn set(&mut self, item: usize, text: &str) {
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

    fn text(&self, item: usize) -> &str {
        self.items.get(item).map_or("", |i| i.text.as_str())
    }

    fn format_money(&self, value: Decimal, negative: bool) -> String {
        let v = value.abs().round_dp(2);
        let whole = v.trunc().to_string();
        let cents = format!("{:.2}", v.fract());
        let cents = cents.trim_start_matches('0');
        let whole = if self.commas {
            let digits: Vec<char> = whole.chars().collect();
            let mut out = String::new();
            for (i, c) in digits.iter().enumerate() {
                if i > 0 && (digits.len() - i).is_multiple_of(3) {
                    out.push(',');
                }
                out.push(*c);
            }
            out
        } else {
            whole
        };
        format!("{}{whole}{cents}", if negative { "-" } else { "" })
    }

    /// Saves (re-encrypting like the original), compressing the page contents again.
    fn save(mut self) -> Result<Vec<u8>, String> {
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

fn save(mut doc: Document, password: Option<&str>) -> Result<Vec<u8>, String> {
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

fn rows(items: &[Item]) -> Vec<Row> {
    let mut rows = Vec::new();
    let mut i = 0;
    while i + 1 < items.len() {
        if !(is_receipt(&items[i].text) && is_time(&items[i + 1].text)) {
            i += 1;
            continue;
        }
        let mut j = i + 2;
        let mut details = Vec::new();
        while j < items.len() && j < i + 8 && !is_status(&items[j].text) {
            details.push(j);
            j += 1;
        }
        if j >= items.len() || !is_status(&items[j].text) {
            i += 1;
            continue;
        }
        let status = j;
        let mut money = Vec::new();
        let mut k = j + 1;
        while k < items.len() && money.len() < 2 && is_money(&items[k].text) {
            money.push(k);
            k += 1;
        }
        if money.len() == 2 {
            rows.push(Row {
                receipt: i,
                time: i + 1,
                details,
                status,
                money,
            });
        }
        i = k;
    }
    rows
}

/// Replaces one digit of `text` (never making a leading zero); `None` when it has none.
fn change_digit(text: &str, rng: &mut SplitMix64) -> Option<String> {
    let positions: Vec<usize> = text
        .char_indices()
        .filter(|(_, c)| c.is_ascii_digit())
        .map(|(i, _)| i)
        .collect();
    if positions.is_empty() {
        return None;
    }
    let at = positions[rng.below(positions.len())];
    let old = text[at..].chars().next()?.to_digit(10)?;
    let leading = positions.first() == Some(&at) && positions.len() > 3;
    let mut new = old;
    while new == old || (leading && new == 0) {
        new = u32::try_from(rng.below(10)).unwrap_or(0);
    }
    let mut out = text.to_owned();
    out.replace_range(at..=at, &new.to_string());
    Some(out)
}

/// Makes one edited copy of `original` (a statement PDF; `password` when it is encrypted).
///
/// # Errors
/// A message when the PDF cannot be opened, has no row to edit, or cannot be saved.
pub fn mutate(
    original: &[u8],
    password: Option<&str>,
    edit: Edit,
    seed: u64,
) -> Result<Vec<u8>, String> {
    let mut rng = SplitMix64::new(seed ^ (edit as u64).wrapping_mul(0x9E37_79B9));
    if edit == Edit::IncrementalUpdate {
        return incremental_update(original, password);
    }
    let mut ed = Editor::open(original, password)?;
    let completed: Vec<Row> = ed
        .rows
        .iter()
        .filter(|r| ed.text(r.status).trim() == "Completed")
        .filter(|r| money(ed.text(r.money[0])).is_some_and(|m| !m.is_zero()))
        .cloned()
        .collect();
    if completed.len() < 2 {
        return Err("no completed rows found in the content streams".to_owned());
    }
    let pick = |rng: &mut SplitMix64| completed[rng.below(completed.len() - 1)].clone();
    match edit {
        Edit::AmountDigit | Edit::BalanceDigit | Edit::DateDigit | Edit::ReceiptChar => {
            let row = pick(&mut rng);
            edit_cell(&mut ed, &row, edit, &mut rng)?;
        }
        Edit::DeleteRow => {
            let row = pick(&mut rng);
            let all = [row.receipt, row.time, row.status]
                .into_iter()
                .chain(row.details.iter().copied())
                .chain(row.money.iter().copied());
            for item in all.collect::<Vec<_>>() {
                ed.set(item, "");
            }
        }
        Edit::DuplicateRow | Edit::FabricateRow => {
            let index = rng.below(completed.len() - 1);
            let (source, target) = (completed[index].clone(), completed[index + 1].clone());
            let copy = |ed: &mut Editor, from: usize, to: usize| {
                let t = ed.text(from).to_owned();
                ed.set(to, &t);
            };
            if edit == Edit::DuplicateRow {
                copy(&mut ed, source.receipt, target.receipt);
                copy(&mut ed, source.time, target.time);
                let details: Vec<String> = source
                    .details
                    .iter()
                    .map(|d| ed.text(*d).to_owned())
                    .collect();
                for (n, d) in target.details.iter().enumerate() {
                    let text = if n == 0 {
                        details.join(" ")
                    } else {
                        String::new()
                    };
                    ed.set(*d, &text);
                }
                copy(&mut ed, source.money[0], target.money[0]);
                copy(&mut ed, source.money[1], target.money[1]);
            } else {
                let receipt: String = (0..10)
                    .map(|_| char::from(b"ABCDEFGHJKLMNPQRSTUVWXYZ0123456789"[rng.below(34)]))
                    .collect();
                ed.set(target.receipt, &receipt);
                let old = ed.text(target.money[0]).to_owned();
                let amount = Decimal::from(rng.below(5_000) + 50);
                let negative = old.trim_start().starts_with('-');
                let new = ed.format_money(amount, negative);
                ed.set(target.money[0], &new);
            }
        }
        Edit::DropPage => {
            let pages = ed.doc.get_pages().len();
            if pages < 2 {
                return Err("a one-page statement has no page to drop".to_owned());
            }
            let page = 2 + rng.below(pages - 1);
            let mut doc = ed.doc;
            doc.delete_pages(&[u32::try_from(page).unwrap_or(2)]);
            return save(doc, ed.password.as_deref());
        }
        Edit::Metadata => {
            let info = ed
                .doc
                .trailer
                .get(b"Info")
                .and_then(Object::as_reference)
                .map_err(|e| e.to_string())?;
            let dict = ed.doc.get_dictionary_mut(info).map_err(|e| e.to_string())?;
            dict.set(
                "CreationDate",
                Object::string_literal("D:20240101090000+03'00'"),
            );
        }
        Edit::CarefulForger => careful_forger(&mut ed, &mut rng)?,
        Edit::Resave | Edit::IncrementalUpdate => {}
    }
    ed.save()
}

/// Changes one digit (or receipt character) of one cell of `row`.
fn edit_cell(ed: &mut Editor, row: &Row, edit: Edit, rng: &mut SplitMix64) -> Result<(), String> {
    let item = match edit {
        Edit::AmountDigit => row.money[0],
        Edit::BalanceDigit => row.money[1],
        Edit::DateDigit => row.time,
        _ => row.receipt,
    };
    let old = ed.text(item).to_owned();
    let new = if edit == Edit::ReceiptChar {
        let at = rng.below(old.len());
        let mut s = old.clone();
        let c = if s.as_bytes()[at].is_ascii_digit() {
            "Q"
        } else {
            "7"
        };
        s.replace_range(at..=at, c);
        Some(s)
    } else {
        (0..32)
            .filter_map(|_| change_digit(&old, rng))
            .find(|s| edit != Edit::DateDigit || is_time(s))
    };
    let new = new.ok_or("no digit to change")?;
    ed.set(item, &new);
    Ok(())
}

/// Raises one Paid In amount by a power of ten and every balance printed after it (the rows
/// listed before it: M-Pesa lists newest first) and the SUMMARY TOTAL by as much.
fn careful_forger(ed: &mut Editor, rng: &mut SplitMix64) -> Result<(), String> {
    let paid_in: Vec<Row> = ed
        .rows
        .iter()
        .filter(|r| ed.text(r.status).trim() == "Completed")
        .filter(|r| !ed.text(r.money[0]).trim_start().starts_with('-'))
        .filter(|r| money(ed.text(r.money[0])).is_some_and(|m| !m.is_zero()))
        .cloned()
        .collect();
    if paid_in.is_empty() {
        return Err("no paid-in row".to_owned());
    }
    let row = paid_in[rng.below(paid_in.len())].clone();
    let delta = Decimal::from(10_i64.pow(u32::try_from(rng.below(3) + 1).unwrap_or(1)));
    let amount = money(ed.text(row.money[0])).ok_or("bad amount")?;
    let new = ed.format_money(amount + delta, false);
    ed.set(row.money[0], &new);
    let later: Vec<usize> = ed
        .rows
        .iter()
        .take_while(|r| r.receipt != row.receipt)
        .filter(|r| ed.text(r.status).trim() == "Completed")
        .map(|r| r.money[1])
        .chain(std::iter::once(row.money[1]))
        .collect();
    for item in later {
        if let Some(b) = money(ed.text(item)) {
            let b = b + delta;
            let new = ed.format_money(b, b.is_sign_negative());
            ed.set(item, &new);
        }
    }
    let total = ed
        .items
        .iter()
        .position(|i| {
            i.text
                .trim()
                .trim_end_matches(':')
                .eq_ignore_ascii_case("TOTAL")
        })
        .ok_or("no SUMMARY TOTAL")?;
    let paid_in_total = (total + 1..ed.items.len())
        .find(|i| is_money(ed.text(*i)))
        .ok_or("no SUMMARY TOTAL amount")?;
    let t = money(ed.text(paid_in_total)).ok_or("bad total")?;
    let new = ed.format_money(t + delta, false);
    ed.set(paid_in_total, &new);
    Ok(())
}

/// Appends an incremental update that redefines the document information dictionary.
fn incremental_update(original: &[u8], password: Option<&str>) -> Result<Vec<u8>, String> {
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
fn strip_entry(entries: &str, key: &str) -> String {
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

fn find_last(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).rposition(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glyph_strings_round_trip() {
        let object = encode("-1,234.50", Encoding::Glyph);
        assert_eq!(
            decode(&object),
            Some(("-1,234.50".to_owned(), Encoding::Glyph))
        );
        let object = encode("QAV2EXEL4G", Encoding::Literal);
        assert_eq!(
            decode(&object),
            Some(("QAV2EXEL4G".to_owned(), Encoding::Literal))
        );
    }

    #[test]
    fn a_changed_digit_is_a_different_number() {
        let mut rng = SplitMix64::new(3);
        for _ in 0..50 {
            let new = change_digit("1,234.50", &mut rng).unwrap_or_default();
            assert_ne!(new, "1,234.50");
            assert!(!new.starts_with('0'));
            assert!(money(&new).is_some());
        }
    }
}
