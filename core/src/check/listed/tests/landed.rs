//! Money in printed as 0 (Vodacom Lesotho's receipts, deposits and advances printing an amount
//! of 0): where its balance holds its amount and the group's other rows lead on from it, the
//! amount landed and the next group is read to the cent; beside another account's balance, its
//! amount lands later and may be any.

use super::{edited, listed, typed};
use crate::Category::{
    AgentDeposit, AirtimeAndBundles, Charges, MobileLoanRepayment, ReceivedMoney, SendMoney,
};

/// The sample's shape: a deposit of 214.33, a receipt printing 0 beside the balance with its
/// 204.22 (`receipt_balance`), a loan repayment of 181.12 taken from it two seconds later, then a
/// send of 30 paying the recipient's withdrawal charge (1.84) beside its transfer charge (1.16).
fn after_a_receipt_printing_0(receipt_balance: &str) -> Vec<crate::statement::Transaction> {
    listed(&[
        (AgentDeposit, 0, "214.33", "214.33"),
        (ReceivedMoney, 20, "0", receipt_balance),
        (MobileLoanRepayment, 22, "-181.12", "237.43"),
        (SendMoney, 40, "-30", "207.43"),
        (Charges, 40, "-1.84", "205.59"),
        (Charges, 40, "-1.16", "204.43"),
        (AirtimeAndBundles, 59, "-5", "199.43"),
    ])
}

#[test]
fn a_send_after_money_in_printed_as_0_that_landed_is_read_to_the_cent() {
    let rows = after_a_receipt_printing_0("418.55");
    assert!(!edited(rows.clone()));
    for printed in ["-40", "-90", "-31", "-30.50"] {
        assert!(edited(typed(rows.clone(), 3, printed)), "{printed}");
    }
}

#[test]
fn a_send_after_money_in_printed_as_0_beside_another_accounts_balance_is_no_evidence() {
    // The receipt's 204.22 lands after the repayment: the send's balance may hold any part of
    // it, so a send printing more than its balances moved shows nothing.
    let rows = after_a_receipt_printing_0("330772.13");
    assert!(!edited(rows.clone()));
    for printed in ["-40", "-31"] {
        assert!(!edited(typed(rows.clone(), 3, printed)), "{printed}");
    }
}

#[test]
fn a_repayment_taken_from_money_in_printed_as_0_that_landed_is_read_from_its_balance() {
    // Read from the running balance the receipt's amount is unknown; read from the receipt's own
    // balance, which holds it, the repayment moved 181.12.
    let rows = after_a_receipt_printing_0("418.55");
    for printed in ["-281.12", "-981.12", "-191.12"] {
        assert!(edited(typed(rows.clone(), 2, printed)), "{printed}");
    }
    // Beside another account's balance the receipt read from shows nothing of its own.
    let foreign = after_a_receipt_printing_0("330772.13");
    for printed in ["-281.12", "-191.12"] {
        assert!(!edited(typed(foreign.clone(), 2, printed)), "{printed}");
    }
}

#[test]
fn money_in_printed_as_0_beside_the_balance_before_it_has_not_landed() {
    // A receipt printing 0 beside the balance before it leaves its own amount out: it lands on
    // the repayment's balance, so the repayment's step from it is no evidence.
    let rows = listed(&[
        (AgentDeposit, 0, "214.33", "214.33"),
        (ReceivedMoney, 20, "0", "214.33"),
        (MobileLoanRepayment, 22, "-181.12", "237.43"),
        (AirtimeAndBundles, 59, "-5", "232.43"),
    ]);
    assert!(!edited(rows.clone()));
    assert!(!edited(typed(rows, 2, "-281.12")));
}

#[test]
fn a_debit_before_money_in_printed_as_0_is_not_read_from_its_balance() {
    // A review's shape: airtime of 50 whose balance is 0.63 short (one of the wallet's own
    // unexplained breaks), then a receipt of 20 printing 0 beside the balance with it, a second
    // later. The airtime came first: its step from the receipt's balance (20) is read backwards.
    let rows = listed(&[
        (AgentDeposit, 0, "500", "500"),
        (AirtimeAndBundles, 40, "-50", "449.37"),
        (ReceivedMoney, 41, "0", "469.37"),
        (AirtimeAndBundles, 59, "-5", "464.37"),
    ]);
    assert!(!edited(rows));
}
