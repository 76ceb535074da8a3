//! The listed chain's rules on hand-made rows: a digit typed over, the movements a wallet takes
//! without a row, and where the chain goes on after a group that did not chain.
//! (Over 400 lines: one short test per rule of the chain, after the helpers that build their
//! rows; the other groups of tests are in the submodules below.)

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::Category;
use crate::statement::{Statement, Transaction, TransactionStatus};
use crate::wallets::Chain;

/// A completed row at `second` past 09:00 on 2024-03-01: `net` (positive: money in) and the
/// balance it prints.
fn row(receipt: &str, second: u32, net: i64, balance: i64) -> Transaction {
    Transaction {
        receipt_no: receipt.to_owned(),
        completed_at: NaiveDate::from_ymd_opt(2024, 3, 1)
            .and_then(|d| d.and_hms_opt(9, 0, second))
            .expect("a time of day: second below 60"),
        details: "Received".to_owned(),
        status: TransactionStatus::Completed,
        paid_in: Decimal::from(net.max(0)),
        withdrawn: Decimal::from((-net).max(0)),
        balance: Some(Decimal::from(balance)),
        ..Transaction::empty()
    }
}

fn codes(rows: Vec<Transaction>, breaks_are_evidence: bool) -> Vec<String> {
    let chain = Chain::Listed {
        group_seconds: 2,
        settle_seconds: 0,
        breaks_are_evidence,
    };
    codes_on(rows, chain)
}

/// The codes of the findings the listed chain `chain` gives `rows`.
fn codes_on(rows: Vec<Transaction>, chain: Chain) -> Vec<String> {
    let statement = Statement {
        transactions: rows,
        ..Statement::default()
    };
    let reading = statement.reading();
    let mut findings = Vec::new();
    super::check(&statement, &reading.rows, chain, &mut findings);
    findings.into_iter().map(|f| f.code).collect()
}

/// Whether `rows`, read by Vodacom Lesotho's own chain (rows up to 120 s apart may have settled
/// in the other order), are `amount_digit_edited` or `balance_digit_edited`.
fn edited_on_vodacom(rows: Vec<Transaction>) -> bool {
    let wallet = crate::wallets::find("vodacom-mpesa-ls").expect("Vodacom Lesotho");
    typed_over(&codes_on(rows, wallet.profile.chain))
}

/// A completed row of `category` at `second` past 09:00 printing `net` (a decimal) and `balance`.
fn of(category: Category, receipt: &str, second: u32, net: &str, balance: &str) -> Transaction {
    let d = |s: &str| s.parse::<Decimal>().expect("a decimal");
    Transaction {
        category,
        paid_in: d(net).max(Decimal::ZERO),
        withdrawn: (-d(net)).max(Decimal::ZERO),
        balance: Some(d(balance)),
        ..row(receipt, second, 0, 0)
    }
}

/// Rows made by [`of`] from (category, second past 09:00, net, balance), receipts `R0`, `R1`, …
fn listed(spec: &[(Category, u32, &str, &str)]) -> Vec<Transaction> {
    spec.iter()
        .enumerate()
        .map(|(i, &(category, second, net, balance))| {
            of(category, &format!("R{i}"), second, net, balance)
        })
        .collect()
}

/// `rows` with row `index`'s amount printed as `net` (a decimal; its balance left as it was).
fn typed(mut rows: Vec<Transaction>, index: usize, net: &str) -> Vec<Transaction> {
    let d = net.parse::<Decimal>().expect("a decimal");
    rows[index].paid_in = d.max(Decimal::ZERO);
    rows[index].withdrawn = (-d).max(Decimal::ZERO);
    rows
}

fn edited(rows: Vec<Transaction>) -> bool {
    typed_over(&codes(rows, false))
}

/// Whether `codes` hold a digit typed over, of an amount or of a balance (both critical).
fn typed_over(codes: &[String]) -> bool {
    codes
        .iter()
        .any(|c| c == "amount_digit_edited" || c == "balance_digit_edited")
}

#[test]
fn a_digit_typed_over_inside_a_group_is_one_finding_and_the_chain_goes_on() {
    // 900 received, printed as 300, then 100 a second later; the chain goes on after them.
    let rows = vec![
        row("A", 0, 50, 1_000),
        row("B", 30, 300, 1_900),
        row("C", 31, 100, 2_000),
        row("D", 59, -500, 1_500),
    ];
    assert_eq!(codes(rows.clone(), false), ["amount_digit_edited"]);
    assert_eq!(codes(rows, true), ["amount_digit_edited"]);
}

#[test]
fn a_units_digit_typed_over_is_an_edit_where_nothing_silent_can_be_the_difference() {
    let rows = vec![
        row("A", 0, 50, 1_000),
        row("B", 30, 303, 1_300),
        row("C", 59, -500, 800),
    ];
    // 300 received, printed as 303, on a statement that prints no charge of 3.
    assert_eq!(codes(rows.clone(), false), ["amount_digit_edited"]);
    assert_eq!(codes(rows, true), ["amount_digit_edited"]);
}

#[test]
fn a_units_break_a_charge_without_its_row_may_be_is_a_break_where_breaks_are_no_evidence() {
    let charge = |receipt: &str, second: u32, balance: i64| Transaction {
        category: crate::Category::Charges,
        ..row(receipt, second, -3, balance)
    };
    // A debit without its charge row, then 300 received printed as 303: the balance 3.00
    // short may be the debit's charge (the statement prints charges of 3) taken without
    // its row, as Vodacom Lesotho does.
    let rows = vec![
        row("A", 0, -50, 1_000),
        row("B", 30, 303, 1_300),
        row("C", 40, -500, 800),
        charge("D", 41, 797),
    ];
    assert_eq!(codes(rows.clone(), false), ["balance_chain_break"]);
    assert_eq!(codes(rows, true), ["amount_digit_edited"]);
    // After a debit printed with its charge row, nothing was left to take: an edit.
    let rows = vec![
        row("A", 0, -50, 1_003),
        charge("Z", 0, 1_000),
        row("B", 30, 303, 1_300),
        row("C", 40, -500, 800),
    ];
    assert_eq!(codes(rows.clone(), false), ["amount_digit_edited"]);
    assert_eq!(codes(rows, true), ["amount_digit_edited"]);
}

#[test]
fn the_chain_goes_on_from_the_balance_the_next_group_chains_from() {
    // A receipt and a row printing 0 whose balance holds 4 more (a charge the sender paid):
    // the next rows chain from that balance, so the 0 row is the only finding.
    let rows = vec![
        row("A", 0, 50, 1_000),
        row("B", 30, 250, 1_250),
        row("C", 30, 0, 1_254),
        row("D", 50, -2, 1_252),
        row("E", 59, -500, 752),
    ];
    assert_eq!(codes(rows.clone(), false), ["amount_not_printed"]);
    assert_eq!(codes(rows, true), ["amount_not_printed"]);
}

#[test]
fn a_units_digit_typed_over_a_withdrawal_fails_but_not_in_a_payment_with_its_charge_row() {
    let group = |category| {
        vec![
            row("A", 0, 50, 1_000),
            // 200 paid out, printed as 201, and its charge of 3.
            Transaction {
                category,
                ..row("B", 30, -201, 800)
            },
            Transaction {
                category: crate::Category::Charges,
                ..row("C", 31, -3, 797)
            },
            row("D", 59, -500, 297),
        ]
    };
    let withdrawal = group(crate::Category::AgentWithdrawal);
    assert_eq!(codes(withdrawal.clone(), false), ["amount_digit_edited"]);
    assert_eq!(codes(withdrawal, true), ["amount_digit_edited"]);
    // Vodacom Lesotho's two-part payments print a total one unit off what moved.
    let payment = group(crate::Category::Paybill);
    assert_eq!(codes(payment.clone(), false), ["balance_chain_break"]);
    assert_eq!(codes(payment, true), ["amount_digit_edited"]);
}

#[test]
fn a_digit_typed_over_after_a_charge_taken_twice_is_read_from_the_group_s_other_balance() {
    let rows = vec![
        row("A", 0, 50, 1_000),
        // A withdrawal whose printed balance already holds its charge, then the charge again
        // (Vodacom Lesotho's genuine sample does this once): the group ends on 976, not 978.
        row("B", 30, -20, 978),
        Transaction {
            category: crate::Category::Charges,
            ..row("C", 31, -2, 976)
        },
        // 670 received, printed as 673.
        row("D", 50, 673, 1_646),
        row("E", 59, -500, 1_146),
    ];
    // The charge taken twice is a break of its own, read as the chain goes on from 976 (its rows
    // chain in order only from 998), as where the next group chains from 976.
    assert_eq!(
        codes(rows.clone(), false),
        ["amount_digit_edited", "balance_chain_break"]
    );
    assert_eq!(
        codes(rows, true),
        ["amount_digit_edited", "balance_chain_break"]
    );
}

/// Vodacom Lesotho's two-part payment: the principal on a charge row (not moving the balance)
/// and the total, principal plus charge, on the payment row; the statement prints a charge of
/// 3 before it (a withdrawal's).
fn two_part(principal: i64, total: i64) -> Vec<Transaction> {
    let charge = |receipt: &str, second: u32, net: i64, balance: i64| Transaction {
        category: crate::Category::Charges,
        ..row(receipt, second, net, balance)
    };
    vec![
        row("A", 0, -50, 1_003),
        charge("Z", 0, -3, 1_000),
        charge("B", 30, -principal, 897),
        Transaction {
            category: crate::Category::Paybill,
            ..row("C", 30, -total, 897)
        },
        row("D", 59, -500, 397),
    ]
}

#[test]
fn a_two_part_payment_chains_and_its_figures_typed_over_in_the_tens_fail() {
    // 100 paid with a charge of 3: the principal's row does not move the balance.
    assert_eq!(codes(two_part(100, 103), false), ["row_not_moving_balance"]);
    // The principal typed over (150 for 100), or the total (153 for 103).
    assert_eq!(codes(two_part(150, 103), false), ["amount_digit_edited"]);
    assert_eq!(codes(two_part(100, 153), false), ["amount_digit_edited"]);
    // Where every break is evidence, no wallet prints two-part payments: a charge row the group
    // chains without stays a row not moving the balance (Airtel's fee rows are charges too).
    assert_eq!(codes(two_part(150, 103), true), ["row_not_moving_balance"]);
}

#[test]
fn a_receipt_typed_over_beside_its_sender_paid_charge_fails_in_the_tens() {
    // 250 received, printed as 280, with the sender's withdrawal charge of 4 on a row printing
    // 0; the statement prints charges of 4 elsewhere.
    let rows = |printed: i64| {
        vec![
            row("A", 0, 50, 1_000),
            Transaction {
                category: crate::Category::Charges,
                ..row("B", 10, -4, 996)
            },
            row("C", 30, printed, 1_246),
            row("D", 30, 0, 1_250),
            row("E", 59, -500, 750),
        ]
    };
    assert_eq!(codes(rows(250), false), ["amount_not_printed"]);
    assert_eq!(codes(rows(280), false), ["amount_digit_edited"]);
}

#[test]
fn a_principal_typed_over_fails_whatever_charge_the_total_holds() {
    // The total holds a charge of 7, which the statement prints nowhere else.
    let rows = |principal: i64, total: i64| {
        let mut rows = two_part(principal, total);
        rows[3].balance = Some(Decimal::from(893));
        rows[4].balance = Some(Decimal::from(393));
        rows
    };
    assert_eq!(codes(rows(100, 107), false), ["row_not_moving_balance"]);
    assert_eq!(codes(rows(150, 107), false), ["amount_digit_edited"]);
    assert_eq!(codes(rows(900, 107), false), ["amount_digit_edited"]);
}

#[test]
fn a_digit_typed_over_beside_a_charge_taken_twice_shows_in_the_row_s_own_step() {
    let d = |s: &str| s.parse::<Decimal>().ok();
    // A send of 90 and its charge of 2.78, the group ending 1.73 lower (a charge taken twice,
    // as once on Vodacom Lesotho's genuine sample).
    let rows = |printed: i64| {
        vec![
            row("A", 0, 50, 1_000),
            row("B", 30, -printed, 910),
            Transaction {
                category: crate::Category::Charges,
                withdrawn: Decimal::new(278, 2),
                balance: d("905.49"),
                ..row("C", 30, 0, 0)
            },
            Transaction {
                balance: d("405.49"),
                ..row("D", 59, -500, 0)
            },
        ]
    };
    // Genuine: a break (info here), the charge row falling by 4.51. It chains without the
    // charge row, but a charge row below ten units printing a balance of its own moved it: it is
    // no row not moving the balance (a two-part payment's principal prints its total's).
    assert_eq!(codes(rows(90), false), ["balance_chain_break"]);
    // 90 printed as 40: read from the group's end it moved 91.73 or 87.27; only the row's own
    // step (910 from 1,000) shows the digit.
    assert_eq!(codes(rows(40), false), ["amount_digit_edited"]);
}

#[test]
fn a_digit_typed_over_after_a_row_printing_0_is_read_off_by_a_charge_either_way() {
    // A withdrawal of 10 whose charge prints 0 beside another balance and is taken after it
    // (2, a charge the statement prints), then 10 received: the balance moves by 8.
    let rows = |printed: i64| {
        let charge = |receipt: &str, second: u32, net: i64, balance: i64| Transaction {
            category: crate::Category::Charges,
            ..row(receipt, second, net, balance)
        };
        vec![
            row("A", 0, 50, 1_002),
            charge("Z", 0, -2, 1_000),
            row("B", 10, -10, 990),
            charge("C", 10, 0, 72_000),
            row("D", 30, printed, 998),
            row("E", 59, -500, 498),
        ]
    };
    assert!(!codes(rows(10), false).contains(&"amount_digit_edited".to_owned()));
    // 10 printed as 60: 8 moved, and 8 + 2 is one digit off 60.
    assert_eq!(
        codes(rows(60), false)
            .iter()
            .filter(|c| *c == "amount_digit_edited")
            .count(),
        1
    );
}

#[test]
fn a_units_digit_typed_over_a_receipt_beside_its_sender_paid_charge_fails() {
    // 50 received, then its sender-paid withdrawal charge of 2 (a charge the statement prints)
    // credited on a row printing 0, whose balance is after both.
    let rows = |printed: i64| {
        vec![
            row("A", 0, -50, 1_002),
            Transaction {
                category: crate::Category::Charges,
                ..row("B", 0, -2, 1_000)
            },
            row("C", 30, printed, 1_050),
            Transaction {
                category: crate::Category::Charges,
                ..row("D", 30, 0, 1_052)
            },
            row("E", 59, -500, 552),
        ]
    };
    assert_eq!(codes(rows(50), false), ["amount_not_printed"]);
    // 50 printed as 55: the receipt's own step from the group before is 50.
    assert_eq!(codes(rows(55), false), ["amount_digit_edited"]);
}

#[test]
fn a_receipt_raised_beside_a_credited_charge_printing_0_elsewhere_fails_to_the_cent() {
    // 50 received beside its sender-paid withdrawal charge, a row printing 0 beside another
    // account's balance (the charge lands on a later balance): a group of money in only, whose
    // balance may rise by more than it prints, never fall short of it.
    let rows = |printed: &str| {
        let printed: Decimal = printed.parse().expect("a decimal");
        vec![
            row("A", 0, -50, 1_000),
            Transaction {
                paid_in: printed,
                ..row("B", 30, 0, 1_050)
            },
            Transaction {
                category: crate::Category::Charges,
                ..row("C", 30, 0, 436_892)
            },
            row("D", 59, -500, 550),
        ]
    };
    assert!(!codes(rows("50"), false).contains(&"amount_digit_edited".to_owned()));
    for raised in ["55", "50.50", "50.05"] {
        assert_eq!(
            codes(rows(raised), false),
            ["amount_digit_edited"],
            "{raised}"
        );
    }
    // Lowered, the balance is above the printed amount: the credited charge may be the rest.
    assert!(!codes(rows("45"), false).contains(&"amount_digit_edited".to_owned()));
}

mod balances;
mod credited;
mod genuine;
mod landed;
mod mtn;
mod order;
mod read_to_the_digit;
mod tariff;
mod walk_genuine;
