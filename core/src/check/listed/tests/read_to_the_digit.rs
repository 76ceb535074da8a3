//! Rows of Vodacom Lesotho's shapes (`breaks_are_evidence: false`) read to the cent: a payment's
//! charge row, a two-part payment's total, a row beside a charge row printing 0 that shows its
//! charge; and the genuine shapes beside them that stay no evidence.

use super::{edited, listed, typed};
use crate::Category::{
    AgentDeposit, AgentWithdrawal, AirtimeAndBundles, Charges, FulizaRepayment, Paybill,
    ReceivedMoney, SendMoney,
};

#[test]
fn a_payments_charge_row_typed_over_fails_but_its_payment_row_is_held_back() {
    // The sample's payment of 85 and its charge row of 3.00.
    let rows = listed(&[
        (AgentDeposit, 0, "600", "602.54"),
        (Paybill, 20, "-85", "517.54"),
        (Charges, 20, "-3", "514.54"),
        (AirtimeAndBundles, 40, "-23", "491.54"),
    ]);
    assert!(!edited(rows.clone()));
    for charge in ["-3.05", "-8.00"] {
        assert!(edited(typed(rows.clone(), 2, charge)), "{charge}");
    }
    // The payment's own row printing one amount and moving another is the sample's two-part
    // payment printing 51.00 for a 50.00 step: no evidence.
    assert!(!edited(typed(rows, 1, "-86")));
}

#[test]
fn a_two_part_payments_total_typed_over_fails_to_the_cent() {
    // The sample's total of 103.21 beside its principal of 100.00 on a charge row that does
    // not move the balance.
    let rows = listed(&[
        (AgentDeposit, 0, "200", "368.53"),
        (Paybill, 20, "-103.21", "265.32"),
        (Charges, 20, "-100", "265.32"),
        (AirtimeAndBundles, 40, "-5", "260.32"),
    ]);
    assert!(!edited(rows.clone()));
    for total in ["-103.26", "-108.21"] {
        assert!(edited(typed(rows.clone(), 1, total)), "{total}");
    }
}

/// A withdrawal of 80 and its charge row of 2.78 (the statement prints the charge), money spent
/// to 0, then 60 received beside a charge row printing 0 whose balance is the receipt's plus
/// 2.78 (its sender paid the withdrawal charge, credited), and a repayment taken from both.
fn a_receipt_with_its_charge_credited() -> Vec<crate::statement::Transaction> {
    listed(&[
        (AgentWithdrawal, 0, "-80", "920"),
        (Charges, 0, "-2.78", "917.22"),
        (AirtimeAndBundles, 10, "-917.22", "0"),
        (ReceivedMoney, 20, "60", "60"),
        (Charges, 20, "0", "62.78"),
        (FulizaRepayment, 22, "-22.80", "39.98"),
        (AirtimeAndBundles, 40, "-5", "34.98"),
    ])
}

#[test]
fn beside_a_charge_row_printing_0_that_shows_its_charge_a_row_is_read_to_the_cent() {
    let rows = a_receipt_with_its_charge_credited();
    assert!(!edited(rows.clone()));
    for repaid in ["-22.85", "-27.80"] {
        assert!(edited(typed(rows.clone(), 5, repaid)), "{repaid}");
    }
}

#[test]
fn a_charge_printing_0_beside_another_accounts_balance_may_be_ten_units() {
    // A withdrawal whose charge row prints 0 beside another account's balance, a send in the
    // same group and its charge row printing 0 beside the balance after 3.91 (a charge the
    // statement prints): the group moved 10.00 more than its rows print, the withdrawal's
    // charge. The send then reads 780 for 770 printed, a tens digit, but the unknown charge of
    // its own group may be the whole of it.
    let rows = listed(&[
        (SendMoney, 0, "-100", "3401.66"),
        (Charges, 0, "-3.91", "3397.75"),
        (AgentDeposit, 10, "3.91", "3401.66"),
        (AgentWithdrawal, 20, "-450", "2951.66"),
        (Charges, 21, "0", "23484.80"),
        (SendMoney, 22, "-770", "2171.66"),
        (Charges, 23, "0", "2167.75"),
        (ReceivedMoney, 24, "100", "2267.75"),
        (AirtimeAndBundles, 40, "-5", "2262.75"),
    ]);
    assert!(!edited(rows));
}

#[test]
fn a_balance_the_group_before_passed_through_shows_no_digit() {
    // A deposit, an overdraft draw and a repayment that chain to 3742.22, then 570 received
    // beside a balance 1120 up: read from the deposit's balance it moved 550, a tens digit off,
    // but the group before ended on 3742.22, not there.
    let rows = listed(&[
        (AirtimeAndBundles, 0, "-5", "3612.22"),
        (AgentDeposit, 10, "700", "4312.22"),
        (ReceivedMoney, 11, "130", "4442.22"),
        (FulizaRepayment, 11, "-700", "3742.22"),
        (ReceivedMoney, 30, "570", "4862.22"),
        (AirtimeAndBundles, 50, "-5", "4857.22"),
    ]);
    assert!(!edited(rows));
}
