//! The scorer on arbitrary statements: a synthetic statement (one of 64 seeds and 32 sizes of
//! up to 125 rows, from the first two bytes) edited by the rest of the input, eight bytes per
//! edit (amounts, balances, times, statuses, details, removed rows).
//!
//! The base statements are built once per process and cloned: building one (several months of
//! generated history) cost more than scoring it, and held the target to about 50 executions a
//! second when each input built a statement of up to 1,021 rows. What is fuzzed is the edits.

#![no_main]

use std::cell::RefCell;
use std::collections::HashMap;

use alama_core::{Statement, TransactionStatus};
use chrono::TimeDelta;
use libfuzzer_sys::fuzz_target;
use rust_decimal::Decimal;

thread_local! {
    static BASES: RefCell<HashMap<(u8, u8), Statement>> = RefCell::new(HashMap::new());
}

/// The base statement of `seed` (0–63) and `size` (0–31): `size * 4 + 1` rows.
fn base(seed: u8, size: u8) -> Statement {
    BASES.with(|bases| {
        bases
            .borrow_mut()
            .entry((seed, size))
            .or_insert_with(|| {
                alama_core::testing::synthetic_statement_with_rows(
                    u64::from(seed),
                    usize::from(size) * 4 + 1,
                )
            })
            .clone()
    })
}

const DETAILS: [&str; 6] = [
    "Salary Payment from ACME LIMITED",
    "OverDraft of Credit Party",
    "Customer Transfer to 0712***678 - JANE DOE",
    "Pay Bill Online to 888880 - KPLC PREPAID Acc. 123",
    "Customer Withdrawal At Agent Till 123456",
    "",
];

fuzz_target!(|data: &[u8]| {
    let Some((head, edits)) = data.split_first_chunk::<2>() else {
        return;
    };
    let mut statement = base(head[0] % 64, head[1] % 32);
    for edit in edits.chunks_exact(8) {
        let n = statement.transactions.len();
        if n == 0 {
            break;
        }
        let i = usize::from(u16::from_le_bytes([edit[1], edit[2]])) % n;
        let v = i64::from(i32::from_le_bytes([edit[3], edit[4], edit[5], edit[6]]));
        let t = &mut statement.transactions[i];
        match edit[0] % 7 {
            0 => t.paid_in = Decimal::new(v.abs(), 2),
            1 => t.withdrawn = Decimal::new(v.abs(), 2),
            2 => t.balance = (edit[7] & 1 == 1).then(|| Decimal::new(v, 2)),
            3 => {
                t.completed_at = t
                    .completed_at
                    .checked_add_signed(TimeDelta::seconds(v * 60))
                    .unwrap_or(t.completed_at);
            }
            4 => {
                t.status = match edit[7] % 4 {
                    0 => TransactionStatus::Completed,
                    1 => TransactionStatus::Cancelled,
                    2 => TransactionStatus::Failed,
                    _ => TransactionStatus::Other,
                };
            }
            5 => t.details = DETAILS[usize::from(edit[7]) % DETAILS.len()].to_owned(),
            _ => {
                statement.transactions.remove(i);
            }
        }
    }
    alama_core::parse::prepare(&mut statement);
    let _ = alama_core::score(&statement);
});
