//! A withdrawal charge taken or credited without a row, bounded by the tariff the statement
//! prints (Vodacom Lesotho, `breaks_are_evidence: false`): a row off by more or less than the
//! bounds allow is read to the cent.

use rust_decimal::Decimal;

use super::{edited, edited_on_vodacom, listed, of, typed};
use crate::Category;
use crate::statement::Transaction;

/// Withdrawals of 30 and 200 printed beside their charge rows (1.84, 4.22: the tariff), a
/// withdrawal of `withdrawn` whose charge row prints 0 beside another account's balance, then
/// `printed` received where the balances moved `moved` (the receipt less the charge taken).
fn after_a_charge_printing_0(
    tariff: [(&str, &str); 2],
    withdrawn: &str,
    printed: &str,
    balance: &str,
) -> Vec<Transaction> {
    let [(a, ca), (b, cb)] = tariff;
    let d = |s: &str| s.parse::<Decimal>().expect("a decimal");
    let after_a = Decimal::from(1000) - d(a);
    let after_b = after_a - d(ca) - d(b);
    let after_w = after_b - d(cb) - d(withdrawn);
    vec![
        of(
            Category::AgentWithdrawal,
            "A",
            0,
            &format!("-{a}"),
            &after_a.to_string(),
        ),
        of(
            Category::Charges,
            "B",
            0,
            &format!("-{ca}"),
            &(after_a - d(ca)).to_string(),
        ),
        of(
            Category::AgentWithdrawal,
            "C",
            10,
            &format!("-{b}"),
            &after_b.to_string(),
        ),
        of(
            Category::Charges,
            "D",
            10,
            &format!("-{cb}"),
            &(after_b - d(cb)).to_string(),
        ),
        of(
            Category::AgentWithdrawal,
            "E",
            20,
            &format!("-{withdrawn}"),
            &after_w.to_string(),
        ),
        of(Category::Charges, "F", 20, "0", "72238.63"),
        of(Category::ReceivedMoney, "G", 30, printed, balance),
        of(
            Category::AirtimeAndBundles,
            "H",
            40,
            "-5",
            &(d(balance) - Decimal::from(5)).to_string(),
        ),
    ]
}

#[test]
fn a_receipt_off_a_withdrawal_charge_the_tariff_bounds_fails_to_the_cent() {
    // The withdrawal of 10 before the receipt costs at most the 1.84 printed for 30: 10
    // received after 1000 - 30 - 1.84 - 200 - 4.22 - 10 = 753.94 moves the balance 8.16.
    let tariff = [("30", "1.84"), ("200", "4.22")];
    assert!(!edited(after_a_charge_printing_0(
        tariff, "10", "10", "762.10"
    )));
    for raised in ["16", "10.05", "10.50"] {
        let rows = after_a_charge_printing_0(tariff, "10", raised, "762.10");
        assert!(edited(rows), "{raised}");
    }
}

#[test]
fn a_receipt_raised_in_the_tens_after_a_charge_the_tariff_bounds_fails() {
    // A withdrawal of 100 printed without its charge row: its charge is between the 1.84
    // printed for 30 and the 4.22 for 200 (4.22 here). 10 received then moves the balance 5.78,
    // which reads 10.00 once the charge is taken off. Printed as 60, or 110 printed as 510, the
    // balance is short of the receipt by a round amount beside the charge: a digit typed over.
    let rows = |printed: &str, balance: &str| {
        listed(&[
            (Category::AgentWithdrawal, 0, "-30", "970"),
            (Category::Charges, 0, "-1.84", "968.16"),
            (Category::AgentWithdrawal, 10, "-200", "768.16"),
            (Category::Charges, 10, "-4.22", "763.94"),
            (Category::AgentWithdrawal, 20, "-100", "663.94"),
            (Category::ReceivedMoney, 30, printed, balance),
            (Category::AirtimeAndBundles, 40, "-5", "600"),
        ])
    };
    assert!(!edited(rows("10", "669.72")));
    assert!(edited(rows("60", "669.72")));
    assert!(!edited(rows("110", "769.72")));
    assert!(edited(rows("510", "769.72")));
}

#[test]
fn a_charge_between_the_printed_bands_is_no_evidence() {
    // The withdrawal of 100 costs 2.78, a band the statement prints nowhere: between the 1.84
    // printed for 30 and the 4.22 for 200, it explains the receipt's balance.
    let tariff = [("30", "1.84"), ("200", "4.22")];
    // 1000 - 30 - 1.84 - 200 - 4.22 - 100 = 663.94; + 60 - 2.78 = 721.16
    assert!(!edited(after_a_charge_printing_0(
        tariff, "100", "60", "721.16"
    )));
}

#[test]
fn a_tariff_that_does_not_rise_with_the_amount_bounds_nothing() {
    // 30 charged 2.78 and 200 charged 1.84: the statement spans two tariffs, or paired a row
    // by chance. The receipt raised to 16 is then held back as before (the charge taken
    // without a row may be up to ten units).
    let tariff = [("30", "2.78"), ("200", "1.84")];
    // 1000 - 30 - 2.78 - 200 - 1.84 - 10 = 755.38; + 10 - 1.84 = 763.54
    assert!(!edited(after_a_charge_printing_0(
        tariff, "10", "10", "763.54"
    )));
    assert!(!edited(after_a_charge_printing_0(
        tariff, "10", "16", "763.54"
    )));
}

#[test]
fn after_a_charge_the_tariff_pins_the_next_groups_rows_are_read_to_the_cent() {
    // Withdrawals of 30 and 50 printed beside 1.84 pin the charge on 40 to 1.84. Taken without
    // a row, it leaves the next group 1.84 short; read from the balance less it, that group's
    // charge row typed over fails.
    let rows = listed(&[
        (Category::AgentWithdrawal, 0, "-30", "970"),
        (Category::Charges, 0, "-1.84", "968.16"),
        (Category::AgentWithdrawal, 10, "-50", "918.16"),
        (Category::Charges, 10, "-1.84", "916.32"),
        (Category::AgentWithdrawal, 20, "-40", "876.32"),
        (Category::Charges, 20, "0", "72238.63"),
        (Category::AgentWithdrawal, 30, "-20", "854.48"),
        (Category::Charges, 30, "-1.84", "852.64"),
        (Category::AirtimeAndBundles, 40, "-5", "847.64"),
    ]);
    assert!(!edited(rows.clone()));
    for charge in ["-1.89", "-6.84"] {
        assert!(edited(typed(rows.clone(), 7, charge)), "{charge}");
    }
}

#[test]
fn a_receipt_risen_beyond_its_sender_paid_charge_the_tariff_bounds_fails_to_the_cent() {
    // 105.50 received, its sender paying the withdrawal charge: the charge row prints 0 beside
    // another account's balance and the charge (2.78, between the 1.84 printed for 30 and the
    // 4.22 for 200) lands on the next balance. Typed to 100.50 or 105.00, the receipt's balance
    // rose beyond it by 5.00 or 0.50: no charge the tariff allows, so no credited charge is the
    // difference.
    let rows = listed(&[
        (Category::AgentWithdrawal, 0, "-30", "970"),
        (Category::Charges, 0, "-1.84", "968.16"),
        (Category::AgentWithdrawal, 10, "-200", "768.16"),
        (Category::Charges, 10, "-4.22", "763.94"),
        (Category::ReceivedMoney, 30, "105.50", "869.44"),
        (Category::Charges, 30, "0", "72238.63"),
        (Category::AirtimeAndBundles, 40, "-5", "867.22"),
    ]);
    assert!(!edited(rows.clone()));
    for printed in ["100.50", "105.00"] {
        assert!(edited(typed(rows.clone(), 4, printed)), "{printed}");
    }
}

#[test]
fn a_receipt_typed_over_in_the_tens_after_a_charge_no_row_prints_fails() {
    // The withdrawal of 100 costs 2.78, a band the statement prints nowhere (between the 1.84
    // printed for 30 and the 4.22 for 200): 60 received moves the balance 57.22. Typed to 90 or
    // 10, the balance is short of it by more than any charge within the bounds, and one such
    // charge (2.78) leaves it one digit off: 60.00.
    let tariff = [("30", "1.84"), ("200", "4.22")];
    // 1000 - 30 - 1.84 - 200 - 4.22 - 100 = 663.94; + 60 - 2.78 = 721.16
    let rows = after_a_charge_printing_0(tariff, "100", "60", "721.16");
    assert!(!edited(rows.clone()));
    for printed in ["90", "10", "30"] {
        assert!(edited(typed(rows.clone(), 6, printed)), "{printed}");
    }
    // Above every withdrawal printed beside its charge row, the charge has no upper bound:
    // any amount may be the difference, so no reading.
    // 1000 - 30 - 1.84 - 200 - 4.22 - 300 = 463.94; + 60 - 6.32 = 517.62
    let rows = after_a_charge_printing_0(tariff, "300", "60", "517.62");
    assert!(!edited(rows.clone()));
    assert!(!edited(typed(rows, 6, "90")));
}

#[test]
fn a_debit_settled_with_a_receipt_after_a_charge_the_tariff_bounds_is_no_evidence() {
    // A withdrawal of 300 printed without its charge row (6.32, between the 1.84 printed for 30
    // and the 9.56 for 600), then a payment of 300 printing the balance after a receipt of 100
    // completed 40 s later, which settled first: together, less the charge, they chain. Read
    // alone, the payment moved 206.32, one tariff charge off 200: no digit typed over.
    let mut rows = listed(&[
        (Category::AgentDeposit, 0, "2000", "2000"),
        (Category::AgentWithdrawal, 2, "-30", "1970"),
        (Category::Charges, 2, "-1.84", "1968.16"),
        (Category::AgentWithdrawal, 6, "-600", "1368.16"),
        (Category::Charges, 6, "-9.56", "1358.60"),
        (Category::AgentWithdrawal, 10, "-300", "1058.60"),
        (Category::BuyGoods, 20, "-300", "852.28"),
        (Category::ReceivedMoney, 20, "100", "852.28"),
        (Category::AirtimeAndBundles, 30, "-5", "847.28"),
    ]);
    for (i, later) in [(6, 3000), (7, 3040), (8, 9000)] {
        rows[i].completed_at += chrono::Duration::seconds(later);
    }
    assert!(!edited_on_vodacom(rows.clone()));
    // The payment typed over stays evidence: settled with the receipt, it is off by 500.
    assert!(edited_on_vodacom(typed(rows, 6, "-800")));
}

#[test]
fn a_withdrawal_typed_over_off_the_tariffs_rise_still_fails() {
    // Withdrawals of 30 and 600 printed beside 1.84 and 9.56, then one of 100 without its
    // charge row (at most the 9.56 printed for 600), then 297.15 beside its 6.32: its balance
    // moved 301.37, the charge on 100 (4.22) taken first. Typed to 797.15 it pairs with 6.32,
    // a charge below the 9.56 printed for 600: the printed pairs no longer rise, but the
    // typed-over withdrawal's balances did not move by it, so the tariff still bounds the
    // charge on 100, and one within the bounds leaves it one digit off: 297.15.
    let rows = listed(&[
        (Category::AgentWithdrawal, 0, "-30", "1970"),
        (Category::Charges, 0, "-1.84", "1968.16"),
        (Category::AgentWithdrawal, 10, "-600", "1368.16"),
        (Category::Charges, 10, "-9.56", "1358.60"),
        (Category::AgentWithdrawal, 20, "-100", "1258.60"),
        (Category::AgentWithdrawal, 30, "-297.15", "957.23"),
        (Category::Charges, 30, "-6.32", "950.91"),
        (Category::AirtimeAndBundles, 40, "-5", "945.91"),
    ]);
    assert!(!edited(rows.clone()));
    assert!(edited(typed(rows, 5, "-797.15")));
}

#[test]
fn a_send_beside_its_own_charge_after_a_charge_without_a_row_is_read_off_the_bounds() {
    // A withdrawal of 100 without its charge row (between the 1.84 printed for 30 and the 4.22
    // for 200: 2.78 here), then a send of 272.95 whose charge row of 3.91 fell from the send's
    // balance by its own amount: no second charge of the send is hidden there, so the send's
    // step (275.73) is off its amount by the withdrawal's charge alone. Typed to 222.95 or
    // 772.95, no charge within the bounds explains it, and one leaves it one digit off.
    let rows = listed(&[
        (Category::AgentWithdrawal, 0, "-30", "1970"),
        (Category::Charges, 0, "-1.84", "1968.16"),
        (Category::AgentWithdrawal, 10, "-200", "1768.16"),
        (Category::Charges, 10, "-4.22", "1763.94"),
        (Category::AgentWithdrawal, 20, "-100", "1663.94"),
        (Category::SendMoney, 30, "-272.95", "1388.21"),
        (Category::Charges, 30, "-3.91", "1384.30"),
        (Category::AirtimeAndBundles, 40, "-5", "1379.30"),
    ]);
    assert!(!edited(rows.clone()));
    for printed in ["-222.95", "-772.95"] {
        assert!(edited(typed(rows.clone(), 5, printed)), "{printed}");
    }
    // Where the charge row fell by more (a second charge of the send taken with it), the
    // send's step may hold that too: no reading.
    let mut fell_by_more = rows.clone();
    fell_by_more[6].balance = Some("1382.57".parse().expect("a decimal"));
    fell_by_more[7].balance = Some("1377.57".parse().expect("a decimal"));
    assert!(!edited(fell_by_more));
}

#[test]
fn a_receipt_settled_first_after_a_charge_without_a_row_is_no_evidence() {
    // A review's statement: a withdrawal of 100 whose 2.78 is taken without a row; an hour
    // later a withdrawal of 260 beside its 6.32, whose balances already hold a receipt of 280
    // completed 99 s later (settled first). The pairs rise, so every one bounds the tariff,
    // the 260's too (its balance moved by 260 less the receipt): the charge on 100 is at most
    // 6.32, and the rows settle off it.
    let mut rows = listed(&[
        (Category::AgentWithdrawal, 0, "-100", "898.16"),
        (Category::AgentWithdrawal, 0, "-260", "915.38"),
        (Category::Charges, 0, "-6.32", "909.06"),
        (Category::ReceivedMoney, 0, "280", "1175.38"),
        (Category::AirtimeAndBundles, 0, "-10", "899.06"),
    ]);
    for (row, later) in rows.iter_mut().zip([0, 3600, 3600, 3699, 5400]) {
        row.completed_at += chrono::Duration::seconds(later);
    }
    assert!(!edited_on_vodacom(rows));
}

#[test]
fn a_send_settled_after_a_receipt_above_every_printed_band_is_no_evidence() {
    // A review's statement: a withdrawal of 1,000 whose 9.56 is taken without a row, above every
    // withdrawal printed beside its charge row (the charge has no upper bound), then a send of
    // 540 beside its 5.20 whose balance already holds a receipt of 300 completed 99 s later.
    // Read off the printed 9.56, the send moved 240.00: not evidence, as nothing settles off an
    // unbounded charge either.
    let mut rows = listed(&[
        (Category::AgentWithdrawal, 0, "-560", "1440.00"),
        (Category::Charges, 0, "-9.56", "1430.44"),
        (Category::AgentWithdrawal, 0, "-1000", "430.44"),
        (Category::SendMoney, 0, "-540", "180.88"),
        (Category::Charges, 0, "-5.20", "175.68"),
        (Category::ReceivedMoney, 0, "300", "720.88"),
        (Category::AirtimeAndBundles, 0, "-10", "165.68"),
    ]);
    for (row, later) in rows.iter_mut().zip([0, 0, 3600, 7200, 7200, 7299, 9000]) {
        row.completed_at += chrono::Duration::seconds(later);
    }
    assert!(!edited_on_vodacom(rows));
}
