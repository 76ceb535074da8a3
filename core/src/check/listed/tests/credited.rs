//! A receipt beside the withdrawal charge its sender paid, credited (a charge row printing 0
//! beside the receipt's balance plus a charge the statement prints): a credited charge raises a
//! balance by its amount, never leaves it short (`Shape::charges_credited`).

use super::{edited, listed, typed};
use crate::Category::{
    AgentDeposit, AgentWithdrawal, AirtimeAndBundles, Charges, FulizaRepayment, Paybill,
    ReceivedMoney, SendMoney,
};

#[test]
fn a_receipt_beside_its_credited_charge_raised_by_a_printed_charge_fails() {
    // The sample's receipt of 110 whose sender paid the withdrawal charge: its charge row prints
    // 0 beside the receipt's balance plus 4.22. A credited charge raises a balance by its own
    // amount, never leaves it short, so the receipt typed to 113 (its step of 110 plus the
    // statement's Pay Bill Charge of 3.00, or the group's step of 114.22 less a send's charge of
    // 1.22) is a digit typed over, not a charge.
    let rows = listed(&[
        (AgentDeposit, 0, "500", "500"),
        (AgentWithdrawal, 10, "-200", "300"),
        (Charges, 10, "-4.22", "295.78"),
        (SendMoney, 20, "-20", "275.78"),
        (Charges, 20, "-1.22", "274.56"),
        (Paybill, 30, "-85", "189.56"),
        (Charges, 30, "-3", "186.56"),
        (ReceivedMoney, 40, "110", "296.56"),
        (Charges, 40, "0", "300.78"),
        (ReceivedMoney, 59, "300", "600.78"),
    ]);
    assert!(!edited(rows.clone()));
    for receipt in ["113", "190", "110.30"] {
        assert!(edited(typed(rows.clone(), 7, receipt)), "{receipt}");
    }
}

#[test]
fn a_receipt_beside_its_credited_charge_and_a_repayment_raised_fails() {
    // The sample's December receipt of 60: its sender-paid charge of 2.78 credited (a charge row
    // printing 0 beside 62.78), then a Fuliza repayment of 22.80 taken from both two seconds
    // later. A repayment takes no charge, so nothing left the receipt's balance short: typed to
    // 63 (its step plus the Pay Bill Charge of 3.00) it is a digit typed over. Its tens too: the
    // repayment provably came after it, and the group before chained to the running balance.
    let rows = listed(&[
        (AgentDeposit, 0, "500", "500"),
        (AgentWithdrawal, 10, "-80", "420"),
        (Charges, 10, "-2.78", "417.22"),
        (Paybill, 20, "-85", "332.22"),
        (Charges, 20, "-3", "329.22"),
        (AirtimeAndBundles, 30, "-329.22", "0"),
        (ReceivedMoney, 40, "60", "60"),
        (Charges, 40, "0", "62.78"),
        (FulizaRepayment, 42, "-22.80", "39.98"),
        (ReceivedMoney, 59, "300", "339.98"),
    ]);
    assert!(!edited(rows.clone()));
    for receipt in ["63", "67", "90", "70", "50", "80"] {
        assert!(edited(typed(rows.clone(), 6, receipt)), "{receipt}");
    }
}

#[test]
fn money_in_printed_as_0_alone_beside_the_balance_before_it_leaves_the_next_group_unknown() {
    // A review's shape: a receipt of 10 printed as 0 beside the balance before it, alone in its
    // group; its 10 lands on the next group, the receipt of 60 beside its credited 2.78 and a
    // repayment. The chain goes on from the balance the receipt prints, but its amount is not
    // known there: the next receipt's step of 70 is no digit typed over.
    let rows = listed(&[
        (AgentDeposit, 0, "500", "500"),
        (AgentWithdrawal, 10, "-80", "420"),
        (Charges, 10, "-2.78", "417.22"),
        (ReceivedMoney, 20, "0", "417.22"),
        (ReceivedMoney, 40, "60", "487.22"),
        (Charges, 40, "0", "490.00"),
        (FulizaRepayment, 42, "-22.80", "467.20"),
        (AirtimeAndBundles, 59, "-5", "462.20"),
    ]);
    assert!(!edited(rows));
}
