//! Rows of Vodacom Lesotho's shapes (`breaks_are_evidence: false`) read to the cent: a payment's
//! charge row, a two-part payment's total; and the genuine shapes beside them that stay no
//! evidence.

use super::{edited, edited_on_vodacom, listed, typed};
use crate::Category::{
    AgentDeposit, AgentWithdrawal, AirtimeAndBundles, BuyGoods, Charges, FulizaRepayment, Paybill,
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

#[test]
fn a_principal_above_its_total_fails_to_the_units() {
    // The sample's two-part payment of 100.00 for a total of 103.21: a principal typed over to
    // 105.00 is more than the total that holds it, which no charge explains.
    let rows = listed(&[
        (AgentDeposit, 0, "200", "368.53"),
        (Paybill, 20, "-103.21", "265.32"),
        (Charges, 20, "-100", "265.32"),
        (AirtimeAndBundles, 40, "-5", "260.32"),
    ]);
    assert!(edited(typed(rows.clone(), 2, "-105")));
    assert!(edited(typed(rows.clone(), 2, "-103.91")));
    // Below the total, a units digit is a charge of another size: no evidence without the
    // payment's tariff.
    assert!(!edited(typed(rows, 2, "-101")));
}

#[test]
fn a_two_part_withdrawals_principal_off_the_printed_tariff_fails_to_the_cent() {
    // The sample's withdrawals of 18 and 50 printed beside their charge rows of 1.84, then its
    // two-part withdrawal of 25.00 for a total of 26.84: the charge in it is the tariff's.
    let rows = listed(&[
        (AgentDeposit, 0, "500", "500"),
        (AgentWithdrawal, 10, "-18", "482"),
        (Charges, 10, "-1.84", "480.16"),
        (AgentWithdrawal, 20, "-50", "430.16"),
        (Charges, 20, "-1.84", "428.32"),
        (AgentWithdrawal, 30, "-26.84", "401.48"),
        (Charges, 30, "-25", "401.48"),
        (AirtimeAndBundles, 40, "-5", "396.48"),
    ]);
    assert!(!edited(rows.clone()));
    for principal in ["-25.05", "-24.00", "-20.00"] {
        assert!(edited(typed(rows.clone(), 6, principal)), "{principal}");
    }
    // A payment's charge is not the withdrawal tariff's: its principal is held to no tariff.
    let mut payment = rows;
    payment[5].category = Paybill;
    assert!(!edited(typed(payment, 6, "-25.05")));
}

#[test]
fn a_debit_beside_a_charge_printing_0_never_moved_less_than_it_prints() {
    // The sample's withdrawal of 10 whose charge row prints 0 beside another account's
    // balance; the charge (1.84) lands on the receipt after it.
    let rows = |balance: &str| {
        listed(&[
            (AgentDeposit, 0, "500", "504.16"),
            (AgentWithdrawal, 20, "-10", balance),
            (Charges, 20, "0", "72238.63"),
            (ReceivedMoney, 40, "10", "502.32"),
            (AirtimeAndBundles, 50, "-5", "497.32"),
        ])
    };
    assert!(!edited(rows("494.16")));
    // A charge taken before the withdrawal lengthens its step: no evidence.
    assert!(!edited(rows("492.32")));
    // Printed more than its balances moved: no charge taken shortens a step.
    for printed in ["-15", "-10.05"] {
        assert!(edited(typed(rows("494.16"), 1, printed)), "{printed}");
    }
}

#[test]
fn a_send_printing_both_its_charge_rows_reads_them_to_the_cent() {
    // The sample's send of 30 paying the recipient's withdrawal charge (1.84) beside its
    // transfer charge (1.16), here 300 beside 6.32 and 3.91: a send prints no third charge, so
    // a charge row whose balance fell by more than it prints was typed over.
    let rows = listed(&[
        (AgentDeposit, 0, "600", "600"),
        (SendMoney, 20, "-300", "300"),
        (Charges, 20, "-6.32", "293.68"),
        (Charges, 20, "-3.91", "289.77"),
        (AirtimeAndBundles, 40, "-5", "284.77"),
    ]);
    assert!(!edited(rows.clone()));
    for printed in ["-1.32", "-6.30"] {
        assert!(edited(typed(rows.clone(), 2, printed)), "{printed}");
    }
    // Beside one charge row, the transfer charge may have been taken with it, without a row of
    // its own (the sample's 2.78 row falling by 4.51): no evidence.
    let one = listed(&[
        (AgentDeposit, 0, "600", "600"),
        (SendMoney, 20, "-300", "300"),
        (Charges, 20, "-6.32", "289.77"),
        (AirtimeAndBundles, 40, "-5", "284.77"),
    ]);
    assert!(!edited(one));
}

/// Sends of 60 and 100 printed beside their charge rows of 1.73 (the sample's transfer tariff
/// there), after a deposit of 600: the balance is 436.54.
const TRANSFER_TARIFF: [(crate::Category, u32, &str, &str); 5] = [
    (AgentDeposit, 0, "600", "600"),
    (SendMoney, 10, "-60", "540"),
    (Charges, 10, "-1.73", "538.27"),
    (SendMoney, 20, "-100", "438.27"),
    (Charges, 20, "-1.73", "436.54"),
];

#[test]
fn a_sends_charge_row_fell_by_a_second_charge_the_transfer_tariff_allows() {
    // The sample's send of 94 paying the recipient's withdrawal charge: its 2.78 row fell by
    // 4.51, the transfer charge of 1.73 taken with it, as the tariff prints for 60 to 100.
    // Typed to 2.73 or 2.28, the row fell by 1.78 or 2.23 more: no transfer charge of 94, nor
    // a withdrawal charge of 94 (between the 2.78 printed for 80 and the 4.22 for 140: the row
    // may be the transfer charge's, the withdrawal charge taken without a row).
    let mut spec = TRANSFER_TARIFF.to_vec();
    spec.extend([
        (AgentWithdrawal, 24, "-80", "356.54"),
        (Charges, 24, "-2.78", "353.76"),
        (AgentWithdrawal, 27, "-140", "213.76"),
        (Charges, 27, "-4.22", "209.54"),
        (SendMoney, 30, "-94", "115.54"),
        (Charges, 30, "-2.78", "111.03"),
        (AirtimeAndBundles, 40, "-5", "106.03"),
    ]);
    let rows = listed(&spec);
    assert!(!edited(rows.clone()));
    for printed in ["-2.73", "-2.28"] {
        assert!(edited(typed(rows.clone(), 10, printed)), "{printed}");
    }
}

#[test]
fn a_sends_transfer_charge_row_fell_by_the_recipients_withdrawal_charge() {
    // A review's statement: a send of 50 paying the recipient's withdrawal charge, printing
    // only its transfer charge row (1.19, as the send of 49.99 prints): the row fell by 2.35,
    // the withdrawal charge of 1.16 taken with it. Read off the transfer tariff it moved 1.16,
    // one digit from 1.19: no evidence, since no printed withdrawal tariff bounds the
    // difference (the statement prints no withdrawal).
    let mut rows = listed(&[
        (ReceivedMoney, 0, "90", "462.48"),
        (SendMoney, 0, "-275.37", "187.11"),
        (Charges, 0, "-2.30", "184.81"),
        (SendMoney, 0, "-50", "134.81"),
        (Charges, 0, "-1.19", "132.46"),
        (SendMoney, 0, "-49.99", "82.47"),
        (Charges, 0, "-1.19", "81.28"),
        (AgentDeposit, 0, "432", "513.28"),
        (SendMoney, 0, "-149.82", "363.46"),
        (Charges, 0, "-2.04", "361.42"),
    ]);
    let later = [
        0, 19137, 19139, 31211, 31212, 42134, 42136, 42203, 74082, 74083,
    ];
    for (row, seconds) in rows.iter_mut().zip(later) {
        row.completed_at += chrono::Duration::seconds(seconds);
    }
    assert!(!edited_on_vodacom(rows));
}

#[test]
fn a_charge_row_printing_0_beside_another_rows_balance_leaves_its_charge_unknown() {
    // A review's statement (trimmed, rows of a second in reading order): a withdrawal of 86.73
    // without its charge row, then a send of 50 and its charge of 1.16 beside a charge row
    // printing 0 beside the send's own balance. The withdrawal's charge (2.78) lands on the
    // send; another (1.84) is taken later, with the next send's charge row of 1.73, which falls
    // by 3.57. The row printing 0 shows no charge (it prints another row's balance, as
    // `charge_shown` reads it): what it took is not known.
    let rows = listed(&[
        (crate::Category::MobileLoanDisbursement, 0, "0", "901.02"),
        (Charges, 3, "0", "621.02"),
        (Charges, 3, "-3.91", "617.11"),
        (SendMoney, 3, "-280", "621.02"),
        (AgentWithdrawal, 6, "-86.73", "530.38"),
        (Charges, 10, "0", "477.60"),
        (Charges, 10, "-1.16", "476.44"),
        (SendMoney, 10, "-50", "477.60"),
        (Charges, 20, "-1.73", "472.87"),
        (SendMoney, 20, "-60", "412.87"),
        (Charges, 30, "-3.91", "108.96"),
        (SendMoney, 30, "-300", "112.87"),
        (SendMoney, 40, "-115", "93.94"),
        (Charges, 41, "-2.60", "91.34"),
        (Charges, 43, "0", "208.94"),
    ]);
    assert!(!edited(rows));
}

#[test]
fn a_two_part_payments_total_off_its_principal_fails_where_no_balance_comes_before() {
    // The sample's two-part payment of 100.00 for a total of 103.21, the statement's first
    // group (Vodacom prints no opening balance) or after a receipt printing 0 beside another
    // account's balance (its amount unknown): the chain cannot show an edit there, but a total
    // below its principal, or above it by more than a charge, is no payment as printed.
    let first = listed(&[
        (Paybill, 0, "-103.21", "265.32"),
        (Charges, 0, "-100", "265.32"),
        (AirtimeAndBundles, 40, "-5", "260.32"),
    ]);
    let after_unknown = listed(&[
        (AgentDeposit, 0, "200", "368.53"),
        (ReceivedMoney, 10, "0", "72238.63"),
        (Paybill, 20, "-103.21", "565.32"),
        (Charges, 20, "-100", "565.32"),
        (AirtimeAndBundles, 40, "-5", "560.32"),
    ]);
    for (rows, total) in [(first, 0), (after_unknown, 2)] {
        assert!(!edited(rows.clone()));
        for printed in ["-153.21", "-603.21", "-193.21", "-108.21"] {
            let forged = typed(rows.clone(), total, printed);
            // 108.21 is 8.21 above 100: a charge the payment may have.
            assert_eq!(edited(forged), printed != "-108.21", "{printed}");
        }
        assert!(edited(typed(rows.clone(), total + 1, "-600")));
    }
}

#[test]
fn a_two_part_payment_beside_another_on_one_balance_or_printed_the_other_way_is_no_evidence() {
    // Two payments in one second printing one balance: the principal has its total, and the
    // other debit is no total of it. And a total printed on the charge row, its principal on
    // the payment's (no genuine row shows it; a charge below ten units would explain it).
    let beside = listed(&[
        (AgentDeposit, 0, "500", "500"),
        (Paybill, 10, "-103.21", "396.79"),
        (Charges, 10, "-100", "396.79"),
        (AgentDeposit, 11, "200", "596.79"),
        (BuyGoods, 12, "-200", "396.79"),
        (AirtimeAndBundles, 40, "-5", "391.79"),
    ]);
    assert!(!edited(beside));
    let other_way = listed(&[
        (AgentDeposit, 0, "500", "500"),
        (Charges, 10, "-103.21", "396.79"),
        (Paybill, 10, "-100", "396.79"),
        (AirtimeAndBundles, 40, "-5", "391.79"),
    ]);
    assert!(!edited(other_way));
}

#[test]
fn a_sends_own_row_typed_over_after_a_charge_row_that_fell_by_a_second_charge_fails() {
    // A send of 102.01 paying the recipient's withdrawal charge (4.02) whose transfer charge
    // (3.07) is taken without a row: the charge row falls by 7.09, and lists before the send.
    // The chain goes on from the charge row's balance, the row that broke it, so the next
    // send, typed from 98.86 to 48.86, shows its digit.
    let rows = listed(&[
        (AgentDeposit, 0, "1000", "1022.77"),
        (AgentWithdrawal, 10, "-400", "622.77"),
        (Charges, 10, "-5.33", "617.44"),
        (Charges, 20, "-4.02", "508.34"),
        (SendMoney, 20, "-102.01", "515.43"),
        (Charges, 30, "-1.90", "405.94"),
        (SendMoney, 30, "-98.86", "409.48"),
        (AgentWithdrawal, 40, "-223.34", "182.60"),
        (Charges, 41, "-4.02", "178.58"),
    ]);
    assert!(!edited(rows.clone()));
    assert!(edited(typed(rows, 6, "-48.86")));
}

#[test]
fn a_receipt_raised_by_a_printed_charge_after_a_free_debit_fails() {
    // Airtime, loan repayments and paybills printed without a charge row take no charge: after
    // them, a receipt printing 3.00 more than its balance moved (the sample's Pay Bill Charge) is
    // a digit typed over. After a withdrawal printed without its charge row, the same 3.00 may
    // be that charge taken without a row.
    let free = [
        (AirtimeAndBundles, "-20", "392", "692"),
        (FulizaRepayment, "-20", "392", "692"),
        (Paybill, "-2", "410", "710"),
    ];
    for (category, amount, after, received) in free {
        let rows = listed(&[
            (AgentDeposit, 0, "500", "500"),
            (Paybill, 20, "-85", "415"),
            (Charges, 20, "-3", "412"),
            (category, 40, amount, after),
            (ReceivedMoney, 59, "300", received),
        ]);
        assert!(!edited(rows.clone()), "{category:?}");
        assert!(edited(typed(rows, 4, "303")), "{category:?}");
    }
    let after_a_withdrawal = listed(&[
        (AgentDeposit, 0, "500", "500"),
        (Paybill, 20, "-85", "415"),
        (Charges, 20, "-3", "412"),
        (AgentWithdrawal, 40, "-20", "392"),
        (ReceivedMoney, 59, "303", "692"),
    ]);
    assert!(!edited(after_a_withdrawal));
}

#[test]
fn a_deposit_typed_over_by_a_two_part_principal_after_it_fails() {
    // The sample's rows: a send of 200 and its charge, a deposit of 30, then a two-part payment
    // (total 21.97, principal 20.00 on a charge row, both printing the balance after the total).
    // Typed to 50, the deposit is off by 20.00, the principal's amount: but the principal moves
    // nothing, so the deposit prints no balance after it; the tens digit shows.
    let rows = listed(&[
        (AgentDeposit, 0, "230", "288.59"),
        (SendMoney, 20, "-200", "88.59"),
        (Charges, 20, "-2.60", "85.99"),
        (AgentDeposit, 40, "30", "115.99"),
        (Paybill, 50, "-21.97", "94.02"),
        (Charges, 50, "-20", "94.02"),
        (AirtimeAndBundles, 58, "-4", "90.02"),
    ]);
    assert!(!edited(rows.clone()));
    assert!(edited(typed(rows, 3, "50")));
}
