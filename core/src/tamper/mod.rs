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

use lopdf::Object;
use rust_decimal::Decimal;

use crate::testing::SplitMix64;

mod editor;
mod forge;
mod incremental;
mod text;

use editor::{Editor, save};
pub use forge::{Forgery, forge};
use incremental::incremental_update;
pub use text::typed_over;
use text::{Row, change_digit, is_money, is_time, money};

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
