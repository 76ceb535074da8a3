//! Genuine Vodacom Lesotho statements, read by the wallet's own chain (rows up to 120 s apart
//! may have settled in the other order), that a review of where the chain goes on after a group
//! that did not chain found flagged as a digit typed over by an earlier version of the walk.

use super::listed;
use crate::Category;
use crate::statement::Transaction;

/// `rows` with each row `i` moved `later` seconds on (groups hours or minutes apart).
fn spaced(mut rows: Vec<Transaction>, later: &[(usize, i64)]) -> Vec<Transaction> {
    for &(i, seconds) in later {
        rows[i].completed_at += chrono::Duration::seconds(seconds);
    }
    rows
}

#[test]
fn a_review_of_where_the_chain_goes_on_found_these_genuine() {
    use Category::*;
    // A receipt of 490 whose sender paid the withdrawal charge (6.32, its row printing 0 beside
    // another account's balance), then a send of 320 paying the recipient's withdrawal charge
    // (6.32, the same band) and its transfer charge (3.91): from the balance with the credited
    // 6.32, the send's group chains in order; it ends on 689.96, not on the send's balance
    // listed last. Then an overdraft draw, a deposit printing the balance after a withdrawal
    // that settled first, and an advance.
    let rows = spaced(
        super::listed(&[
            (AgentDeposit, 0, "500", "523.87"),
            (Charges, 10, "0", "37169.07"),
            (ReceivedMoney, 10, "490", "1013.87"),
            (Charges, 20, "-3.91", "689.96"),
            (Charges, 20, "-6.32", "693.87"),
            (SendMoney, 20, "-320", "700.19"),
            (FulizaDraw, 30, "9.60", "699.56"),
            (AgentDeposit, 31, "800", "800"),
            (AgentWithdrawal, 34, "-690", "9.56"),
            (Charges, 34, "-9.56", "0.00"),
            (AgentDeposit, 50, "126.77", "926.77"),
        ]),
        &[
            (3, 60),
            (4, 60),
            (5, 60),
            (6, 3600),
            (7, 3600),
            (8, 3600),
            (9, 3600),
            (10, 9000),
        ],
    );
    assert!(!super::edited_on_vodacom(rows));
    // A review's statement, from its first row: a withdrawal of 140 printed without its charge
    // row (2.26, as the statement prints for 125: bounded below only), a withdrawal of 69.83
    // whose charge row prints 0 beside another account's balance (1.20), and 17 s later a
    // receipt of 640 whose sender paid its withdrawal charge (5.47, credited, its row printing
    // the balance after it). The charge on 140 has no upper bound, so the rows of 69.83 and 640
    // do not settle off it (any amount would be within it): read as settled on the withdrawal's
    // own balance, the chain went on from a balance 642.26 off, and the withdrawal of 125 and
    // the send of 300 that settled 91 s apart in the other order read as 425 typed to 125.
    let rows = spaced(
        super::listed(&[
            (AgentWithdrawal, 0, "-140", "665.59"),
            (AgentWithdrawal, 0, "-69.83", "593.50"),
            (Charges, 0, "0", "345297.60"),
            (ReceivedMoney, 0, "640", "1232.30"),
            (Charges, 0, "0", "1237.77"),
            (AgentWithdrawal, 0, "-125", "809.58"),
            (Charges, 0, "-2.26", "807.32"),
            (SendMoney, 0, "-300", "937.77"),
            (Charges, 0, "-3.19", "934.58"),
        ]),
        &[
            (1, 31_466),
            (2, 31_466),
            (3, 31_483),
            (4, 31_484),
            (5, 54_473),
            (6, 54_473),
            (7, 54_564),
            (8, 54_565),
        ],
    );
    assert!(!super::edited_on_vodacom(rows));
}

#[test]
fn a_debit_settled_after_a_receipt_after_a_send_whose_charge_prints_0_is_genuine() {
    use Category::*;
    // A review generator's statement: a send of 255.01 whose charge (2.58) prints 0 beside the
    // balance after it, then, hours later, a withdrawal of 100 and its charge of 2.15 printing
    // the balance after a receipt of 200 that completed 9 s later but settled first. From the
    // send's balance the withdrawal neither chains nor settles with the receipt; from the
    // charge row's it settles. The chain went on from the send's, and the receipt read as 100
    // typed to 200.
    let rows = listed(&[
        (AgentDeposit, 0, "460.25", "460.25"),
        (SendMoney, 0, "-255.01", "205.24"),
        (Charges, 0, "0", "202.66"),
        (AgentWithdrawal, 0, "-100", "302.66"),
        (Charges, 1, "-2.15", "300.51"),
        (ReceivedMoney, 9, "200", "402.66"),
        (AirtimeAndBundles, 0, "-10", "290.51"),
    ]);
    let later = [
        (1, 5_810),
        (2, 5_810),
        (3, 29_092),
        (4, 29_092),
        (5, 29_092),
        (6, 40_000),
    ];
    let rows = spaced(rows, &later);
    assert!(!super::edited_on_vodacom(rows.clone()));
    // The receipt typed over in the hundreds settles from no balance, and fails.
    assert!(super::edited_on_vodacom(super::typed(rows, 5, "900")));
}

#[test]
fn the_statements_first_group_ends_where_its_rows_chain_and_a_receipt_may_settle_before_it() {
    use Category::*;
    // The review generator's statements. A withdrawal of 490 and its charge of 5.71 printing the
    // balance after a receipt of 410 completed 87 s later but settled first: the receipt's
    // balance is the one before the withdrawal, which nothing before shows (it read as 490
    // typed to 410).
    let rows = listed(&[
        (AgentWithdrawal, 0, "-490", "1290.22"),
        (Charges, 1, "-5.71", "1284.51"),
        (ReceivedMoney, 28, "410", "1780.22"),
        (SendMoney, 0, "-50.01", "1234.50"),
        (Charges, 0, "-1.26", "1233.24"),
    ]);
    let rows = spaced(rows, &[(2, 59), (3, 3_562), (4, 3_562)]);
    assert!(!super::edited_on_vodacom(rows));
    // A send paying its recipient's withdrawal charge, its charge rows listed in the other order
    // (6.32 after 3.91, though it fell first): the group ends on 832.05, where its rows chain,
    // not on the last row listed. Then a send printing the balance after a receipt that settled
    // first (it read as 125.57 typed to 225.57).
    let rows = listed(&[
        (SendMoney, 0, "-280.28", "842.28"),
        (Charges, 1, "-3.91", "832.05"),
        (Charges, 1, "-6.32", "835.96"),
        (SendMoney, 0, "-225.57", "706.48"),
        (Charges, 1, "-2.60", "703.88"),
        (ReceivedMoney, 5, "100", "932.05"),
        (AgentDeposit, 0, "450", "1153.88"),
    ]);
    let rows = spaced(rows, &[(3, 8_288), (4, 8_288), (5, 8_348), (6, 35_066)]);
    assert!(!super::edited_on_vodacom(rows.clone()));
    // A first group whose send's charge (2.51) prints 0 beside the balance after it, then a
    // withdrawal printing the balance after a receipt that settled first: the next group settles
    // from the charge row's balance, not from the send's, where the first group's rows end.
    // Then the same again: a withdrawal of 410 before a receipt of 480 (it read as 410 typed to
    // 480).
    let first = listed(&[
        (SendMoney, 0, "-51.00", "1417.97"),
        (Charges, 2, "0", "1415.46"),
        (AgentWithdrawal, 0, "-999.99", "915.48"),
        (Charges, 1, "-6.07", "909.41"),
        (ReceivedMoney, 12, "500.01", "1915.47"),
        (AgentWithdrawal, 0, "-410", "979.41"),
        (Charges, 0, "-4.83", "974.58"),
        (ReceivedMoney, 46, "480", "1389.41"),
        (AgentWithdrawal, 0, "-300", "674.58"),
    ]);
    let later = [
        (2, 21_089),
        (3, 21_089),
        (4, 21_089),
        (5, 39_015),
        (6, 39_015),
        (7, 39_015),
        (8, 64_999),
    ];
    let first = spaced(first, &later);
    assert!(!super::edited_on_vodacom(first));
    // The send typed over in the hundreds settles from no balance, and fails.
    assert!(super::edited_on_vodacom(super::typed(rows, 3, "-825.57")));
}

#[test]
fn a_debit_settled_after_a_receipt_after_a_charge_no_printed_band_bounds_is_genuine() {
    use Category::*;
    // A review generator's statement: a withdrawal of 560 whose charge (9.56) prints 0 beside
    // another account's balance, above every withdrawal the statement prints with its charge
    // row (90 with 2.78), then a withdrawal of 90 listed before its charge row, printing the
    // balance after a receipt of 1,000 that settled first. The 9.56 has no printed upper bound,
    // so nothing settled off it; a charge below ten units now does, on the balance the group's
    // rows end on in order (the charge row's, though the withdrawal's is off by one too).
    let rows = listed(&[
        (AgentWithdrawal, 0, "-560", "825.59"),
        (Charges, 2, "0", "645475.32"),
        (AgentWithdrawal, 0, "-90", "1726.03"),
        (Charges, 0, "-2.78", "1723.25"),
        (ReceivedMoney, 43, "1000", "1816.03"),
        (SendMoney, 0, "-251.00", "1482.25"),
        (Charges, 0, "-3.91", "1478.34"),
        (ReceivedMoney, 27, "10", "1733.25"),
        (SendMoney, 0, "-500", "978.34"),
        (Charges, 1, "-3.91", "974.43"),
    ]);
    let later = [
        (2, 5_837),
        (3, 5_837),
        (4, 5_837),
        (5, 31_080),
        (6, 31_080),
        (7, 31_140),
        (8, 58_827),
        (9, 58_827),
    ];
    let rows = spaced(rows, &later);
    assert!(!super::edited_on_vodacom(rows.clone()));
    // The second receipt typed over in the hundreds settles from no balance, and fails.
    assert!(super::edited_on_vodacom(super::typed(rows, 7, "910")));
}

#[test]
fn a_receipt_that_chains_after_the_first_group_is_read_as_it_chains() {
    use Category::*;
    // A review's shape: airtime of 100, then 30 s later a receipt of 100 (a refund), in order.
    // Its balance is also the one before the airtime, the shape of a receipt that settled first,
    // but it chains from the airtime's: it is read, nothing is reported, and the chain goes on
    // from its balance (a digit typed over the next row fails). Typed over itself, the receipt no
    // longer chains and reads as settled first: from the balances alone the two cannot be told
    // apart.
    let rows = listed(&[
        (AirtimeAndBundles, 0, "-100", "400"),
        (ReceivedMoney, 30, "100", "500"),
        (AirtimeAndBundles, 0, "-25", "475"),
    ]);
    let rows = spaced(rows, &[(2, 1_800)]);
    let wallet = crate::wallets::find("vodacom-mpesa-ls").expect("Vodacom Lesotho");
    let codes = super::codes_on(rows.clone(), wallet.profile.chain);
    assert!(codes.is_empty(), "{codes:?}");
    assert!(super::edited_on_vodacom(super::typed(rows, 2, "-35")));
}
