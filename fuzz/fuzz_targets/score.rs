//! The scorer on arbitrary statements: a synthetic statement (seed and size from the first
//! bytes) edited by the rest of the input, eight bytes per edit (amounts, balances, times,
//! statuses, details, removed rows).

#![no_main]

use alama_core::TransactionStatus;
use chrono::TimeDelta;
use libfuzzer_sys::fuzz_target;
use rust_decimal::Decimal;

const DETAILS: [&str; 6] = [
    "Salary Payment from ACME LIMITED",
    "OverDraft of Credit Party",
    "Customer Transfer to 0712***678 - JANE DOE",
    "Pay Bill Online to 888880 - KPLC PREPAID Acc. 123",
    "Customer Withdrawal At Agent Till 123456",
    "",
];

fuzz_target!(|data: &[u8]| {
    let Some((head, edits)) = data.split_first_chunk::<9>() else {
        return;
    };
    let seed = u64::from_le_bytes([
        head[0], head[1], head[2], head[3], head[4], head[5], head[6], head[7],
    ]);
    let rows = usize::from(head[8]) * 4 + 1;
    let mut statement = alama_core::testing::synthetic_statement_with_rows(seed, rows);
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
