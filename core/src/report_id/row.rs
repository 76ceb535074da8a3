//! The hashed form of one row: every field, self-delimiting, amounts with their scales.

use crate::categorise::Category;
use crate::statement::{Transaction, TransactionStatus};

/// Appends a row's hashed form to `out` ([`RowWriter::write`]).
#[cfg(test)]
pub(super) fn write_row(out: &mut Vec<u8>, t: &Transaction) {
    RowWriter::default().write(out, t);
}

/// Writes rows in their hashed form (see [`RowWriter::write`]), for many rows: the seconds from 1970 to the start of the last row's day are
/// kept, so that rows of one day (most rows follow a row of their day) do not count the days
/// since 1970 again (a sixth of the instructions of writing a row, `callgrind`, 2026-11-27).
#[derive(Default)]
pub(super) struct RowWriter {
    /// The last day written and the seconds from 1970-01-01T00:00:00 to its start.
    day: Option<(chrono::NaiveDate, i64)>,
}

impl RowWriter {
    /// Appends `t`'s hashed form to `out`; self-delimiting, so the concatenation of rows is
    /// unambiguous. Little-endian throughout: receipt number (u32 length, UTF-8 bytes) ·
    /// completion time (i64 seconds since 1970-01-01T00:00:00 of the printed local time, u32
    /// nanoseconds) · Details (u32 length, bytes) · status (u8: completed 0, cancelled 1,
    /// failed 2, other 3) · paid in, withdrawn (16 bytes each, `Decimal::serialize`: sign,
    /// scale and 96-bit mantissa, so `1.0` and `1.00` differ) · balance (u8 0 absent, or 1 and
    /// 16 bytes) · category (u8 length, its JSON name).
    pub(super) fn write(&mut self, out: &mut Vec<u8>, t: &Transaction) {
        let name = category_name(t.category);
        // Texts, their lengths, the time, the status, three amounts, the name and its length.
        out.reserve(t.receipt_no.len() + t.details.len() + name.len() + 4 + 12 + 4 + 1 + 49 + 1);
        write_text(out, &t.receipt_no);
        out.extend_from_slice(&self.timestamp(t.completed_at).to_le_bytes());
        out.extend_from_slice(
            &t.completed_at
                .and_utc()
                .timestamp_subsec_nanos()
                .to_le_bytes(),
        );
        write_text(out, &t.details);
        out.push(status_code(t.status));
        out.extend_from_slice(&t.paid_in.serialize());
        out.extend_from_slice(&t.withdrawn.serialize());
        match t.balance {
            Some(b) => {
                out.push(1);
                out.extend_from_slice(&b.serialize());
            }
            None => out.push(0),
        }
        out.push(u8::try_from(name.len()).unwrap_or(u8::MAX));
        out.extend_from_slice(name.as_bytes());
        write_wallet_fields(out, t);
    }

    /// `at.and_utc().timestamp()`: the seconds from 1970-01-01T00:00:00 to `at`.
    pub(super) fn timestamp(&mut self, at: chrono::NaiveDateTime) -> i64 {
        let day = at.date();
        let start = match self.day {
            Some((known, start)) if known == day => start,
            _ => {
                let start = day.and_time(chrono::NaiveTime::MIN).and_utc().timestamp();
                self.day = Some((day, start));
                start
            }
        };
        start + i64::from(chrono::Timelike::num_seconds_from_midnight(&at))
    }
}

/// The fields only other wallets' rows carry (printed type, fee, tax, balance before), after a
/// marker byte, and only when one is present: a Safaricom row (none of them) hashes as it did
/// before they existed, so Kenyan report ids do not move.
fn write_wallet_fields(out: &mut Vec<u8>, t: &Transaction) {
    if t.transaction_type.is_none()
        && t.fee.is_none()
        && t.tax.is_none()
        && t.balance_before.is_none()
    {
        return;
    }
    out.push(0xFF);
    write_text(out, t.transaction_type.as_deref().unwrap_or(""));
    for amount in [t.fee, t.tax, t.balance_before] {
        match amount {
            Some(a) => {
                out.push(1);
                out.extend_from_slice(&a.serialize());
            }
            None => out.push(0),
        }
    }
}

fn write_text(out: &mut Vec<u8>, s: &str) {
    out.extend_from_slice(&u32::try_from(s.len()).unwrap_or(u32::MAX).to_le_bytes());
    out.extend_from_slice(s.as_bytes());
}

pub(super) fn status_code(status: TransactionStatus) -> u8 {
    match status {
        TransactionStatus::Completed => 0,
        TransactionStatus::Cancelled => 1,
        TransactionStatus::Failed => 2,
        TransactionStatus::Other => 3,
    }
}

/// A category's JSON name (`"send_money"`), from a table made once and indexed by the
/// variant: the hashed form does not depend on the order of the enum's variants, only the
/// table's layout does.
pub(super) fn category_name(category: Category) -> &'static str {
    static NAMES: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let names = NAMES.get_or_init(|| {
        let mut names = vec![String::new(); Category::ALL.len()];
        for c in Category::ALL {
            if let Some(name) = names.get_mut(c as usize) {
                let json = serde_json::to_string(&c).unwrap_or_default();
                json.trim_matches('"').clone_into(name);
            }
        }
        names
    });
    names.get(category as usize).map_or("", String::as_str)
}
