//! Genuine-looking Vodacom Lesotho shapes that the listed chain's readings must not take for a
//! digit typed over (`breaks_are_evidence: false`). Each was built by a review of the readings
//! and flagged by an earlier version of them.

use rust_decimal::Decimal;

use super::{codes, row};
use crate::Category;
use crate::statement::Transaction;

/// One row of a shape: its kind (`'r'` a plain row, `'c'` a charge row, `'p'` a Pay Bill
/// payment, `'w'` an agent withdrawal, `'s'` a send), receipt, second past 09:00, net and printed balance.
type Row = (char, &'static str, u32, &'static str, &'static str);

/// The shapes, each with what it is.
const SHAPES: &[(&str, &[Row])] = &[
    (
        "a withdrawal printed without its charge row (6), which lands on a group of a receipt \
         and a send: the receipt's step from the send's balance is the send's 60, not its 50",
        &[
            ('r', "A", 0, "-270", "1000"),
            ('r', "Q", 30, "50", "1044"),
            ('r', "P", 31, "-60", "984"),
            ('r', "D", 50, "-500", "484"),
            ('r', "W", 58, "-100", "384"),
            ('c', "C", 58, "-6", "378"),
        ],
    ),
    (
        "the same with two receipts: the second's step from before the group holds the first",
        &[
            ('r', "A", 0, "-270", "1000"),
            ('r', "P", 30, "103", "1103"),
            ('r', "Q", 31, "205", "1305"),
            ('r', "D", 50, "-500", "805"),
            ('r', "W", 58, "-100", "705"),
            ('c', "C", 58, "-3", "702"),
        ],
    ),
    (
        "a charge printing 0 beside another balance, credited before the receipt listed with \
         it (the sender paid the withdrawal charge: on the genuine sample each of the 11 such \
         rows beside a receipt is credited, 7 beside their own balance, 4 landing on the next)",
        &[
            ('r', "A", 0, "50", "1000"),
            ('r', "R", 30, "55", "1057"),
            ('c', "Z", 30, "0", "72000"),
            ('r', "D", 50, "-500", "557"),
        ],
    ),
    (
        "the same with a charge of 2.84, the statement printing 1.84 elsewhere",
        &[
            ('r', "A", 0, "50", "1000"),
            ('r', "R", 30, "55", "1057.84"),
            ('c', "Z", 30, "0", "72000"),
            ('r', "D", 50, "-500", "557.84"),
            ('r', "W", 58, "-100", "457.84"),
            ('c', "C", 58, "-1.84", "456.00"),
        ],
    ),
    (
        "a two-part payment whose charge is ten units or more",
        &[
            ('r', "A", 0, "-50", "3000"),
            ('c', "B", 30, "-1500", "1484.50"),
            ('p', "C", 30, "-1515.50", "1484.50"),
            ('r', "D", 50, "-500", "984.50"),
        ],
    ),
    (
        "a withdrawal charge of 3 printing 0 lands on the next receipt; the statement prints 7",
        &[
            ('r', "A", 0, "-300", "1000"),
            ('c', "Z", 0, "0", "72000"),
            ('r', "R", 30, "55", "1052"),
            ('r', "D", 50, "-500", "552"),
            ('r', "W", 58, "-100", "452"),
            ('c', "C", 58, "-7", "445"),
        ],
    ),
    (
        "a two-part payment (100, 103.21) and a deposit printing 0 in one second: the \
         principal, which moves nothing, is not compared with the deposit",
        &[
            ('r', "A", 0, "-50", "1000"),
            ('c', "Y", 0, "-1.84", "998.16"),
            ('c', "B", 30, "-100", "894.95"),
            ('p', "C", 30, "-103.21", "894.95"),
            ('r', "L", 30, "0", "1094.95"),
            ('r', "D", 50, "-500", "594.95"),
        ],
    ),
    (
        "a two-part payment (50, 51.97) and a receipt of 90 with its sender-paid charge \
         printing 0",
        &[
            ('r', "A", 0, "-50", "1000"),
            ('c', "Y", 0, "-1.84", "998.16"),
            ('c', "B", 30, "-50", "946.19"),
            ('p', "C", 30, "-51.97", "946.19"),
            ('r', "R", 30, "90", "1036.19"),
            ('c', "Z", 30, "0", "1038.03"),
            ('r', "D", 50, "-500", "538.03"),
        ],
    ),
    (
        "a withdrawal whose charge of 11.84 prints 0 beside another balance and lands on the \
         next receipt; the statement prints a charge of 1.84",
        &[
            ('r', "A", 0, "-50", "3001.84"),
            ('c', "Y", 0, "-1.84", "3000"),
            ('r', "W", 20, "-1500", "1500"),
            ('c', "Z", 20, "0", "72238.63"),
            ('r', "R", 40, "250", "1738.16"),
            ('r', "D", 55, "-500", "1238.16"),
        ],
    ),
    (
        "a payment of 85 with its charge of 3, then a withdrawal printed as a two-part one \
         (102.78 and its principal 100): it chains once its principal is left out, and is not \
         read again from the payment's other balance",
        &[
            ('r', "A", 0, "-10", "1003"),
            ('p', "P", 20, "-85", "918"),
            ('c', "C", 20, "-3", "915"),
            ('c', "B", 40, "-100", "812.22"),
            ('r', "W", 40, "-102.78", "812.22"),
            ('r', "D", 55, "-500", "312.22"),
        ],
    ),
    (
        "a withdrawal printed without its charge row beside a payment printed with its own: the \
         withdrawal's charge (6, printed elsewhere) lands on the next receipt, 56 moving 50",
        &[
            ('r', "A", 0, "-10", "1089"),
            ('r', "W", 20, "-270", "819"),
            ('p', "P", 20, "-85", "734"),
            ('c', "C", 20, "-3", "731"),
            ('r', "R", 40, "56", "781"),
            ('r', "D", 50, "-500", "281"),
            ('r', "X", 58, "-100", "181"),
            ('c', "Y", 58, "-6", "175"),
        ],
    ),
    (
        "two two-part payments in one second (100 and 103.21, 50 and 51.97) beside a receipt \
         of 90 and its sender-paid charge of 9.56 printing 0: neither principal moves, so \
         neither is compared with the receipt",
        &[
            ('r', "A", 0, "-50", "1000"),
            ('c', "Y", 0, "-9.56", "990.44"),
            ('c', "B", 30, "-100", "887.23"),
            ('p', "C", 30, "-103.21", "887.23"),
            ('c', "E", 30, "-50", "835.26"),
            ('p', "F", 30, "-51.97", "835.26"),
            ('r', "R", 30, "90", "925.26"),
            ('c', "Z", 30, "0", "934.82"),
            ('r', "D", 50, "-500", "434.82"),
        ],
    ),
    (
        "a withdrawal whose charge row is listed first, then an advance printing 0 beside another \
         account's balance and a repayment a second later: from the charge row's balance the \
         repayment of 100 reads as 200 (a review of the quirk draw, 2026-11-29)",
        &[
            ('r', "A", 0, "1040.73", "1040.73"),
            ('c', "C", 20, "-9.56", "1031.17"),
            ('r', "W", 20, "-550", "481.17"),
            ('r', "L", 30, "0", "39616.19"),
            ('r', "P", 31, "-100", "831.17"),
            ('r', "D", 50, "-500", "331.17"),
        ],
    ),
    (
        "a two-part payment and, two seconds later, a receipt printing 0 beside another \
         account's balance, whose 200 lands on the next credit of 730 (same review)",
        &[
            ('r', "A", 0, "40", "1740"),
            ('c', "B", 20, "-650", "1085.99"),
            ('p', "C", 21, "-654.01", "1085.99"),
            ('r', "R", 23, "0", "54165.48"),
            ('r', "L", 50, "730", "2015.99"),
            ('r', "D", 58, "-500", "1515.99"),
        ],
    ),
    (
        "the first group a withdrawal whose charge row prints 0 beside another account's \
         balance, its charge of 10 landing on the next credit (same review)",
        &[
            ('r', "W", 0, "-50", "72.08"),
            ('c', "Z", 1, "0", "67011.90"),
            ('r', "L", 30, "760", "822.08"),
            ('r', "D", 50, "-500", "322.08"),
        ],
    ),
    (
        "a receipt, its sender-paid charge credited on a row printing 0 and a withdrawal without \
         its charge row, one group: the withdrawal's charge of 3 lands on the next receipt \
         (fifth stop: a review batch of 2,000 silent charges, once)",
        &[
            ('r', "A", 0, "-100", "1009.56"),
            ('c', "B", 0, "-9.56", "1000"),
            ('r', "R", 30, "906.41", "1906.41"),
            ('c', "Z", 31, "0", "1915.97"),
            ('w', "W", 33, "-370", "1545.97"),
            ('r', "S", 50, "525", "2067.97"),
            ('r', "D", 58, "-500", "1567.97"),
        ],
    ),
    (
        "two withdrawals and one charge row in a group, then an overdraft draw short by the \
         missing charge of 6.32 (same review, a quarter of the gaps 2 s)",
        &[
            ('r', "A", 0, "-100", "3284.35"),
            ('c', "B", 0, "-9.56", "3274.79"),
            ('w', "W", 30, "-610", "2664.79"),
            ('c', "C", 30, "-9.56", "2655.23"),
            ('w', "X", 32, "-360", "2295.23"),
            ('r', "O", 34, "860", "3148.91"),
            ('r', "D", 50, "-500", "2648.91"),
            ('w', "E", 58, "-100", "2548.91"),
            ('c', "F", 58, "-6.32", "2542.59"),
        ],
    ),
    (
        "a two-part payment, a receipt with its credited charge and a withdrawal without its \
         charge row, one group (each two seconds or less after the last): the withdrawal's 6.32 \
         lands on the next credit (fourth review, its M1: a principal on a charge row is no \
         withdrawal's charge row)",
        &[
            ('r', "A", 0, "480.22", "480.22"),
            ('p', "B", 7, "-175", "305.22"),
            ('c', "C", 8, "-170", "305.22"),
            ('r', "R", 10, "400", "705.22"),
            ('c', "Z", 10, "0", "711.54"),
            ('w', "W", 12, "-300", "411.54"),
            ('r', "O", 30, "300", "705.22"),
            ('w', "D", 50, "-430", "275.22"),
            ('c', "E", 50, "-6.32", "268.90"),
        ],
    ),
    (
        "an advance printed as 0 beside the balance before it, a receipt moving on from that \
         balance, then a two-part payment: the advance's 300 lands on the payment's balance",
        &[
            ('r', "A", 0, "0", "10038.78"),
            ('r', "R", 1, "40", "10078.78"),
            ('p', "P", 30, "-701.47", "9677.31"),
            ('c', "C", 30, "-700", "9677.31"),
        ],
    ),
    (
        "a send, its charge row, and a charge row printing 0 beside the send's balance: that \
         charge (1.84) lands on the next send's balance",
        &[
            ('r', "A", 0, "-10", "192.69"),
            ('s', "S", 20, "-37.13", "155.56"),
            ('c', "T", 21, "-1.16", "154.40"),
            ('c', "Z", 21, "0", "155.56"),
            ('s', "V", 40, "-70", "82.56"),
            ('c', "W", 40, "-1.73", "80.83"),
            ('w', "X", 58, "-30", "50.83"),
            ('c', "Y", 58, "-1.84", "48.99"),
        ],
    ),
    (
        "a send paying its recipient's withdrawal charge (two charge rows), a receipt with its \
         credited charge, and a withdrawal without its charge row, one group: the withdrawal's \
         9.56 lands on the next receipt",
        &[
            ('r', "A", 0, "-10", "342.46"),
            ('s', "S", 20, "-120", "222.46"),
            ('c', "T", 21, "-4.22", "218.24"),
            ('c', "U", 22, "-2.60", "215.64"),
            ('r', "R", 23, "900", "1115.64"),
            ('c', "Z", 24, "0", "1125.20"),
            ('w', "W", 26, "-600", "525.20"),
            ('r', "P", 50, "635", "1150.64"),
            ('w', "X", 58, "-600", "550.64"),
            ('c', "Y", 58, "-9.56", "541.08"),
        ],
    ),
    (
        "a receipt with its credited charge (9.56) and a withdrawal whose equal charge is taken \
         without a row, one group: the two cancel, and the withdrawal's charge lands on the next \
         send, whose charge row falls by more than it prints (a fifth review)",
        &[
            ('r', "A", 0, "456.21", "456.21"),
            ('r', "R", 20, "1090", "1546.21"),
            ('c', "Z", 20, "0", "1555.77"),
            ('w', "W", 20, "-600", "955.77"),
            ('s', "S", 23, "-100", "846.21"),
            ('c', "T", 24, "-2.78", "841.70"),
            ('w', "X", 58, "-830", "11.70"),
            ('c', "Y", 58, "-9.56", "2.14"),
        ],
    ),
];

/// The rows of a shape.
fn rows(shape: &[Row]) -> Vec<Transaction> {
    let d = |s: &str| s.parse::<Decimal>().expect("a decimal");
    shape
        .iter()
        .map(|&(kind, receipt, second, net, balance)| {
            let mut t = Transaction {
                paid_in: d(net).max(Decimal::ZERO),
                withdrawn: (-d(net)).max(Decimal::ZERO),
                balance: Some(d(balance)),
                ..row(receipt, second, 0, 0)
            };
            match kind {
                'c' => t.category = Category::Charges,
                'p' => t.category = Category::Paybill,
                'w' => t.category = Category::AgentWithdrawal,
                's' => t.category = Category::SendMoney,
                _ => {}
            }
            t
        })
        .collect()
}

#[test]
fn genuine_shapes_are_no_digit_typed_over() {
    let flagged: Vec<(&str, Vec<String>)> = SHAPES
        .iter()
        .map(|(what, shape)| (*what, codes(rows(shape), false)))
        .filter(|(_, found)| super::typed_over(found))
        .collect();
    assert!(flagged.is_empty(), "{flagged:#?}");
}
