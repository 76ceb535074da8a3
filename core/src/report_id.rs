//! The report id: `rpt_` + 24 hex digits of SHA-256 over the scorecard, the statement and its
//! rows in a canonical order.
//!
//! Hashing dominates the cost of scoring a long statement, so the rows' canonical JSON is
//! written straight into one buffer instead of through serde (a `String` per row, `Display` for
//! every amount and time). The bytes are `serde_json`'s, to the byte: the id of a statement is
//! the one every earlier version gave it (a property test compares the two writers).

use std::fmt::Write as _;
use std::io::Write as _;

use chrono::{Datelike, NaiveDateTime, Timelike};
use rust_decimal::Decimal;
use sha2::{Digest, Sha256};

use crate::statement::{Statement, Transaction};

/// A stable id: `rpt_` + 24 hex digits of SHA-256 over the scorecard version, the scorecard's
/// SHA-256 and the canonical JSON of the statement with its transactions in a fixed order (so
/// row order does not matter).
pub(crate) fn report_id(statement: &Statement, version: &str, card_sha256: &str) -> String {
    // Every field of every row counts, and the rows are taken in a canonical order (sorted by
    // their own canonical JSON), so two orderings of the same rows give the same id.
    let mut json = Vec::with_capacity(statement.transactions.len() * 200);
    let mut rows = Vec::with_capacity(statement.transactions.len());
    for t in &statement.transactions {
        let start = json.len();
        write_row(&mut json, t);
        rows.push(start..json.len());
    }
    rows.sort_unstable_by(|a, b| json[a.clone()].cmp(&json[b.clone()]));
    // Everything but the rows.
    let without_rows = statement.with_transactions(Vec::new());
    let mut hasher = Sha256::new();
    hasher.update(version.as_bytes());
    hasher.update([0]);
    hasher.update(card_sha256.as_bytes());
    hasher.update([0]);
    hasher.update(without_rows.to_json().as_bytes());
    for row in rows {
        hasher.update([0]);
        hasher.update(&json[row]);
    }
    let digest = hasher.finalize();
    let hex = digest.iter().take(12).fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    });
    format!("rpt_{hex}")
}

/// Appends `serde_json::to_vec(t)` to `out`: the same fields, order and formatting.
fn write_row(out: &mut Vec<u8>, t: &Transaction) {
    out.extend_from_slice(b"{\"receiptNo\":");
    write_str(out, &t.receipt_no);
    out.extend_from_slice(b",\"completedAt\":");
    write_time(out, t.completed_at);
    out.extend_from_slice(b",\"details\":");
    write_str(out, &t.details);
    out.extend_from_slice(b",\"status\":");
    write_serde(out, &t.status);
    out.extend_from_slice(b",\"paidIn\":");
    write_amount(out, t.paid_in);
    out.extend_from_slice(b",\"withdrawn\":");
    write_amount(out, t.withdrawn);
    if let Some(balance) = t.balance {
        out.extend_from_slice(b",\"balance\":");
        write_amount(out, balance);
    }
    out.extend_from_slice(b",\"category\":");
    write_serde(out, &t.category);
    out.push(b'}');
}

/// A value through `serde_json` (enums, and whatever the fast paths below do not cover).
fn write_serde<T: serde::Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) {
    // Writing into a Vec cannot fail, and these types always serialise.
    let _ = serde_json::to_writer(out, value);
}

/// A JSON string: copied as is when nothing in it needs escaping (`serde_json` escapes `"`, `\`
/// and the control characters below U+0020, nothing else).
fn write_str(out: &mut Vec<u8>, s: &str) {
    if s.bytes().any(|b| b < 0x20 || b == b'"' || b == b'\\') {
        write_serde(out, s);
    } else {
        out.push(b'"');
        out.extend_from_slice(s.as_bytes());
        out.push(b'"');
    }
}

/// chrono's serde form, `"YYYY-MM-DDTHH:MM:SS"`, for whole seconds of years 0–9999; chrono
/// itself otherwise (fractions of a second, leap seconds, signed years).
fn write_time(out: &mut Vec<u8>, at: NaiveDateTime) {
    let year = at.year();
    if at.nanosecond() != 0 || !(0..=9999).contains(&year) {
        write_serde(out, &at);
        return;
    }
    let two = |n: u32| [b'0' + (n / 10) as u8, b'0' + (n % 10) as u8];
    let year = year.unsigned_abs();
    out.push(b'"');
    out.extend_from_slice(&two(year / 100));
    out.extend_from_slice(&two(year % 100));
    out.push(b'-');
    out.extend_from_slice(&two(at.month()));
    out.push(b'-');
    out.extend_from_slice(&two(at.day()));
    out.push(b'T');
    out.extend_from_slice(&two(at.hour()));
    out.push(b':');
    out.extend_from_slice(&two(at.minute()));
    out.push(b':');
    out.extend_from_slice(&two(at.second()));
    out.push(b'"');
}

/// An amount as [`crate::money::serde_str`] writes it (`Decimal`'s `Display` in quotes):
/// the mantissa's digits with the point `scale` digits from the right.
fn write_amount(out: &mut Vec<u8>, amount: Decimal) {
    const TEN_TO_19: u128 = 10_000_000_000_000_000_000;
    if amount.is_sign_negative() {
        let _ = write!(out, "\"{amount}\"");
        return;
    }
    let mut digits = [0u8; 40];
    let mantissa = amount.mantissa().unsigned_abs();
    // In u64 arithmetic (u128 division is slow): the mantissa whole when it fits, as every
    // amount a statement prints does, else its last 19 digits and the rest (a 96-bit
    // mantissa has at most 29 digits).
    let at = if let Ok(m) = u64::try_from(mantissa) {
        push_digits(&mut digits, 40, m, 1)
    } else {
        let low = u64::try_from(mantissa % TEN_TO_19).unwrap_or_default();
        let high = u64::try_from(mantissa / TEN_TO_19).unwrap_or_default();
        let at = push_digits(&mut digits, 40, low, 19);
        push_digits(&mut digits, at, high, 1)
    };
    let digits = &digits[at..];
    let scale = amount.scale() as usize;
    out.push(b'"');
    if scale == 0 {
        out.extend_from_slice(digits);
    } else if digits.len() > scale {
        let (whole, fraction) = digits.split_at(digits.len() - scale);
        out.extend_from_slice(whole);
        out.push(b'.');
        out.extend_from_slice(fraction);
    } else {
        out.extend_from_slice(b"0.");
        out.resize(out.len() + scale - digits.len(), b'0');
        out.extend_from_slice(digits);
    }
    out.push(b'"');
}

/// Writes the decimal digits of `n` into `digits` right to left, ending before `at`, at least
/// `min_len` of them (zero-padded); returns where they start.
fn push_digits(digits: &mut [u8; 40], mut at: usize, mut n: u64, min_len: usize) -> usize {
    let end = at;
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 && end - at >= min_len {
            return at;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::categorise::Category;
    use crate::statement::TransactionStatus;
    use chrono::{DateTime, TimeDelta};
    use proptest::prelude::*;

    fn status(i: u8) -> TransactionStatus {
        match i % 4 {
            0 => TransactionStatus::Completed,
            1 => TransactionStatus::Cancelled,
            2 => TransactionStatus::Failed,
            _ => TransactionStatus::Other,
        }
    }

    fn amount() -> impl Strategy<Value = Decimal> {
        (any::<i64>(), 0u32..=28, any::<bool>()).prop_map(|(m, scale, wide)| {
            let m = if wide {
                i128::from(m) * 10_000_000_000
            } else {
                i128::from(m)
            };
            Decimal::try_from_i128_with_scale(m, scale).unwrap_or(Decimal::ZERO)
        })
    }

    fn time() -> impl Strategy<Value = NaiveDateTime> {
        (-80_000_000_000i64..300_000_000_000, 0u32..3, any::<u32>()).prop_map(
            |(secs, kind, nanos)| {
                let base = DateTime::from_timestamp(secs, 0)
                    .unwrap_or_default()
                    .naive_utc();
                match kind {
                    0 => base,
                    1 => base + TimeDelta::nanoseconds(i64::from(nanos % 1_000_000_000)),
                    _ => base + TimeDelta::milliseconds(i64::from(nanos % 1000)),
                }
            },
        )
    }

    fn transaction() -> impl Strategy<Value = Transaction> {
        (
            "[A-Z0-9]{10}|\\PC{0,12}|[\"\\\\\\x00-\\x1f a-z]{0,8}",
            time(),
            "\\PC{0,40}|[ -~\\t\\n\\x7f]{0,30}",
            any::<u8>(),
            amount(),
            amount(),
            proptest::option::of(amount()),
            0usize..Category::ALL.len(),
        )
            .prop_map(
                |(receipt_no, completed_at, details, s, paid_in, withdrawn, balance, c)| {
                    Transaction {
                        receipt_no,
                        completed_at,
                        details,
                        status: status(s),
                        paid_in,
                        withdrawn,
                        balance,
                        category: Category::ALL[c],
                    }
                },
            )
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(4000))]

        /// The direct writer gives serde_json's bytes for any row: report ids never change.
        #[test]
        fn the_row_writer_is_serde_json(t in transaction()) {
            let mut out = Vec::new();
            write_row(&mut out, &t);
            let expected = serde_json::to_vec(&t).expect("serialises");
            prop_assert_eq!(String::from_utf8_lossy(&out), String::from_utf8_lossy(&expected));
        }
    }

    #[test]
    fn amounts_are_written_as_display_writes_them() {
        let widest = Decimal::MAX.mantissa();
        let cases = [
            (0, 0),
            (0, 2),
            (5, 2),
            (5, 1),
            (123, 1),
            (100, 2),
            (7, 28),
            (100_000_000_000_000_000_000, 2), // past u64, last 19 digits all zero
            (widest, 0),
            (widest, 28),
        ];
        for (m, scale) in cases {
            let d = Decimal::from_i128_with_scale(m, scale);
            let mut out = Vec::new();
            write_amount(&mut out, d);
            assert_eq!(String::from_utf8_lossy(&out), format!("\"{d}\""));
        }
    }
}
