//! Rows of Vodacom Lesotho's shapes (`breaks_are_evidence: false`) read to the cent: a payment's
//! charge row, a two-part payment's total; and the genuine shapes beside them that stay no
//! evidence.

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

#[test]
fn a_charge_printing_0_beside_another_accounts_balance_may_be_ten_units() {
    // A withdrawal whose charge row prints 0 beside another account's balance, then a send of
    // 50 in the same group: the group moved 10.00 more than its rows print, the withdrawal's
    // charge. The send reads 60 for 50 printed, a tens digit, but the unknown charge of its own
    // group may be the whole of it.
    let rows = listed(&[
        (AgentDeposit, 0, "500", "500"),
        (AgentWithdrawal, 20, "-100", "400"),
        (Charges, 21, "0", "29113.79"),
        (SendMoney, 23, "-50", "340"),
        (AirtimeAndBundles, 40, "-5", "335"),
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
