//! The report id: `rpt_` + 24 hex digits of BLAKE3 over the scorecard, the statement and its
//! rows in a canonical order.
//!
//! Hashing dominated the cost of scoring a long statement while the rows were hashed as their
//! canonical JSON (about 230 bytes a row, written, then sorted as text). Since 2026-11-24 each
//! row is hashed in a compact binary form (about 110 bytes: lengths and bytes of the texts, the
//! completion time as integers, each amount's 16-byte `rust_decimal` form, which keeps its scale)
//! and the rows are taken by completion time, then by that form: the order the engine already
//! reads them in, so putting them in canonical order costs one pass. Every field of every row
//! still counts, and two orderings of the same rows still give the same id.
//!
//! Since 2026-11-26 the hash is BLAKE3 (the `blake3` crate, the reference implementation), not
//! SHA-256: the id is a content address, and BLAKE3 is as collision-resistant for that use while
//! it hashes the 690 KB of a 5,000-row statement's rows in 0.11 ms against SHA-256's 0.38 ms
//! with SHA extensions (2-core AMD EPYC, 2026-11-26). Ids of reports made before each of these
//! dates differ from the ids the same statements get now.

use std::fmt::Write as _;
use std::ops::Range;

mod row;

use crate::statement::{Reading, Transaction};
use row::RowWriter;

/// A stable id: `rpt_` + 24 hex digits of BLAKE3 over the scorecard version, the scorecard's
/// SHA-256, the canonical JSON of the statement without its rows, the number of rows and each
/// row's [`row::RowWriter::write`] form, rows ordered by completion time and then by that form (so row
/// order does not matter).
pub(crate) fn report_id(reading: &Reading<'_>, version: &str, card_sha256: &str) -> String {
    let statement = reading.statement;
    let rows = &statement.transactions;
    // By time (the reading order); rows that share a time are ordered by their bytes below.
    let by_time = &reading.rows;
    // Everything but the rows.
    let without_rows = statement.with_transactions(Vec::new());
    let mut head = Vec::with_capacity(1_024);
    head.extend_from_slice(version.as_bytes());
    head.push(0);
    head.extend_from_slice(card_sha256.as_bytes());
    head.push(0);
    head.extend_from_slice(without_rows.to_json().as_bytes());
    head.push(0);
    head.extend_from_slice(&(rows.len() as u64).to_le_bytes());
    let mut hasher = blake3::Hasher::new();
    hash_time_ordered(&head, by_time, |chunk| {
        hasher.update(chunk);
    });
    let digest = hasher.finalize();
    let hex = digest
        .as_bytes()
        .iter()
        .take(12)
        .fold(String::new(), |mut s, b| {
            let _ = write!(s, "{b:02x}");
            s
        });
    format!("rpt_{hex}")
}

/// The bytes are hashed in chunks of exactly this many bytes, the last one shorter (see
/// [`hash_time_ordered`]). BLAKE3 hashes a whole aligned run of 1 KiB chunks in parallel
/// lanes (16 with AVX-512), but an input that ends inside a chunk leaves the next ones
/// unaligned and hashes them one at a time: unaligned 16 KiB pieces made it 2.5× slower
/// (2026-11-26).
const CHUNK_BYTES: usize = 16 * 1_024;

/// Hands `hash` `head` and then the rows' bytes in the hashed order, in chunks of exactly
/// [`CHUNK_BYTES`] but the last: rows in time order, each as
/// it is written, the rows that share a time ordered by their bytes, through a buffer small
/// enough to stay in the thread's cache. (Writing every row, sorting them all by time and
/// bytes and copying them into order first, ~1.4 MB of fresh memory for 5,000 rows, made the
/// id 2.4× slower inside a report than in a loop: 1.1 against 0.45 ms, 2026-11-24.)
fn hash_time_ordered(head: &[u8], rows: &[&Transaction], mut hash: impl FnMut(&[u8])) {
    let mut writer = RowWriter::default();
    let mut chunk = Vec::with_capacity(2 * CHUNK_BYTES);
    let mut group = Vec::new();
    let mut spans: Vec<Range<usize>> = Vec::new();
    let mut flush = |chunk: &mut Vec<u8>| {
        let whole = chunk.len() - chunk.len() % CHUNK_BYTES;
        if whole > 0 {
            hash(&chunk[..whole]);
            chunk.drain(..whole);
        }
    };
    chunk.extend_from_slice(head);
    flush(&mut chunk);
    for same_time in rows.chunk_by(|a, b| a.completed_at == b.completed_at) {
        if let [row] = same_time {
            writer.write(&mut chunk, row);
        } else {
            group.clear();
            spans.clear();
            for row in same_time {
                let start = group.len();
                writer.write(&mut group, row);
                spans.push(start..group.len());
            }
            spans.sort_by(|a, b| group[a.clone()].cmp(&group[b.clone()]));
            for span in &spans {
                chunk.extend_from_slice(&group[span.clone()]);
            }
        }
        if chunk.len() >= CHUNK_BYTES {
            flush(&mut chunk);
        }
    }
    hash(&chunk);
}

#[cfg(test)]
mod tests {
    use super::row::{category_name, status_code, write_row};
    use super::*;
    use crate::categorise::Category;
    use crate::statement::{Statement, TransactionStatus};
    use chrono::{DateTime, NaiveDateTime, TimeDelta};
    use proptest::prelude::*;
    use rust_decimal::Decimal;

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
                        ..crate::statement::Transaction::empty()
                    }
                },
            )
    }

    fn statement(rows: Vec<Transaction>) -> Statement {
        Statement {
            currency: "KES".to_owned(),
            currency_exponent: None,
            transactions: rows,
            ..Statement::default()
        }
    }

    fn id(rows: Vec<Transaction>) -> String {
        report_id(&statement(rows).reading(), "card", "sha")
    }

    /// One field of `t` changed, chosen by `field`.
    fn edited(mut t: Transaction, field: u8) -> Transaction {
        let one = Decimal::new(1, 2);
        match field % 9 {
            0 => t.receipt_no.push('X'),
            1 => t.completed_at += TimeDelta::seconds(1),
            2 => t.details.push(' '),
            3 => t.status = status(status_code(t.status) + 1),
            4 => t.paid_in += one,
            5 => t.withdrawn += one,
            6 => t.balance = t.balance.map_or(Some(Decimal::ZERO), |_| None),
            7 => {
                // The same value at another scale (`1.5` → `1.50`).
                let mut wider = t.paid_in;
                wider.rescale((t.paid_in.scale() + 1).min(28));
                t.paid_in = if wider.scale() == t.paid_in.scale() {
                    t.paid_in + one
                } else {
                    wider
                };
            }
            _ => {
                let i = Category::ALL
                    .iter()
                    .position(|c| *c == t.category)
                    .unwrap_or(0);
                t.category = Category::ALL[(i + 1) % Category::ALL.len()];
            }
        }
        t
    }

    proptest! {
        /// The writer's seconds since 1970 are chrono's, for times of one day and of others, a
        /// leap second among them.
        #[test]
        fn the_writer_counts_seconds_as_chrono_does(
            times in prop::collection::vec((time(), 0u8..3), 1..12)
        ) {
            let mut writer = RowWriter::default();
            let mut previous: Option<NaiveDateTime> = None;
            for (at, kind) in times {
                let day = previous.map_or(at.date(), |p| p.date());
                let at = match kind {
                    // A leap second.
                    0 => day.and_hms_nano_opt(23, 59, 59, 1_500_000_000).unwrap_or(at),
                    // Another time of the day before.
                    1 => day.and_time(at.time()),
                    _ => at,
                };
                prop_assert_eq!(writer.timestamp(at), at.and_utc().timestamp());
                previous = Some(at);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        /// Row order never matters, rows sharing a completion time included.
        #[test]
        fn the_id_does_not_depend_on_row_order(
            (rows, shuffled) in (proptest::collection::vec(transaction(), 0..12), any::<bool>())
                .prop_map(|(mut rows, same_time)| {
                    if same_time {
                        let at = rows.first().map(|t| t.completed_at).unwrap_or_default();
                        for t in &mut rows {
                            t.completed_at = at;
                        }
                    }
                    rows
                })
                .prop_flat_map(|rows| (Just(rows.clone()), Just(rows).prop_shuffle()))
        ) {
            let (original, shuffled) = (statement(rows), statement(shuffled));
            let id_of = |s: &Statement| report_id(&s.reading(), "card", "sha");
            prop_assert_eq!(id_of(&original), id_of(&shuffled));
        }

        /// Rows in time order are hashed as they come, each run sharing a time sorted by its
        /// bytes: the same bytes as writing every row and sorting them all by time and bytes.
        #[test]
        fn rows_in_time_order_hash_as_the_sorted_rows(
            rows in proptest::collection::vec((transaction(), 0i64..4), 0..24)
        ) {
            let at = DateTime::from_timestamp(1_700_000_000, 0).unwrap_or_default().naive_utc();
            let mut rows: Vec<Transaction> = rows
                .into_iter()
                .map(|(mut t, second)| {
                    t.completed_at = at + TimeDelta::seconds(second);
                    t
                })
                .collect();
            let mut written: Vec<(NaiveDateTime, Vec<u8>)> = rows
                .iter()
                .map(|t| {
                    let mut bytes = Vec::new();
                    write_row(&mut bytes, t);
                    (t.completed_at, bytes)
                })
                .collect();
            written.sort();
            let sorted: Vec<u8> = written.into_iter().flat_map(|(_, bytes)| bytes).collect();
            rows.sort_by_key(|t| t.completed_at);
            let by_time: Vec<&Transaction> = rows.iter().collect();
            let mut streamed = Vec::new();
            let mut sizes = Vec::new();
            hash_time_ordered(b"head", &by_time, |chunk| {
                streamed.extend_from_slice(chunk);
                sizes.push(chunk.len());
            });
            prop_assert_eq!(&streamed[..4], b"head");
            prop_assert_eq!(&streamed[4..], &sorted[..]);
            // Every chunk but the last is whole.
            let (_, whole) = sizes.split_last().unwrap_or((&0, &[]));
            prop_assert!(whole.iter().all(|&size| size % CHUNK_BYTES == 0 && size > 0));
        }

        /// Every field of every row counts, an amount's scale included.
        #[test]
        fn any_edit_of_a_row_changes_the_id(
            rows in proptest::collection::vec(transaction(), 1..8),
            which in any::<usize>(),
            field in any::<u8>(),
        ) {
            let i = which % rows.len();
            let mut changed = rows.clone();
            changed[i] = edited(rows[i].clone(), field);
            prop_assume!(changed[i] != rows[i]);
            prop_assert_ne!(id(rows), id(changed));
        }
    }

    #[test]
    fn texts_cannot_trade_bytes_across_a_field_boundary() {
        let row = |receipt: &str, details: &str| Transaction {
            receipt_no: receipt.to_owned(),
            completed_at: NaiveDateTime::default(),
            details: details.to_owned(),
            status: TransactionStatus::Completed,
            paid_in: Decimal::ZERO,
            withdrawn: Decimal::ZERO,
            balance: None,
            category: Category::ALL[0],
            ..crate::statement::Transaction::empty()
        };
        assert_ne!(id(vec![row("AB", "C")]), id(vec![row("A", "BC")]));
        assert_ne!(id(vec![row("A", "")]), id(vec![row("", "A")]));
        // Two rows are not one row with the same bytes.
        assert_ne!(
            id(vec![row("A", "B")]),
            id(vec![row("A", "B"), row("A", "B")])
        );
    }

    #[test]
    fn the_scorecard_counts() {
        let s = statement(Vec::new());
        assert_ne!(
            report_id(&s.reading(), "a", "sha"),
            report_id(&s.reading(), "b", "sha")
        );
        assert_ne!(
            report_id(&s.reading(), "a", "sha1"),
            report_id(&s.reading(), "a", "sha2")
        );
        assert!(report_id(&s.reading(), "a", "sha").starts_with("rpt_"));
        assert_eq!(report_id(&s.reading(), "a", "sha").len(), 4 + 24);
    }

    /// Every category is hashed as its own JSON name, whatever its place in the enum.
    #[test]
    fn every_category_is_hashed_as_its_json_name() {
        for c in Category::ALL {
            let json = serde_json::to_string(&c).unwrap_or_default();
            assert_eq!(format!("\"{}\"", category_name(c)), json);
        }
    }
}
