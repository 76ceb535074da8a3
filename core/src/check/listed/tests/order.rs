//! Where the order of a group's rows shows what moved: a group that prints the running balance
//! plus its net only by chance, rows that provably came after a receipt, and a credited charge
//! the chain went on from (Vodacom Lesotho, `breaks_are_evidence: false`).

use super::{edited, edited_on_vodacom, listed, of};
use crate::Category;

#[test]
fn a_receipt_raised_after_a_group_that_chained_by_chance_fails() {
    // A withdrawal whose charge of 2 is taken without a row (a charge row printing 0 beside
    // another account's balance), then a withdrawal of 50 and its charge row of 2: the
    // withdrawal prints the running balance less both by chance, but the group ends on its
    // charge row's 946. Then 50 received (its sender-paid charge credited on a row printing 0
    // beside another account's balance, landing on the next group).
    let rows = |printed: &str| {
        vec![
            of(Category::AgentWithdrawal, "A", 0, "-50", "1000"),
            of(Category::Charges, "B", 0, "0", "85380"),
            of(Category::AgentWithdrawal, "C", 20, "-50", "948"),
            of(Category::Charges, "D", 20, "-2", "946"),
            of(Category::ReceivedMoney, "E", 40, printed, "996"),
            of(Category::Charges, "F", 40, "0", "436892"),
            of(Category::AgentWithdrawal, "G", 58, "-50", "948"),
            of(Category::Charges, "H", 58, "-2", "946"),
        ]
    };
    assert!(!edited(rows("50")));
    for raised in ["55", "50.05", "50.50"] {
        assert!(edited(rows(raised)), "{raised}");
    }
}

#[test]
fn a_receipt_raised_beside_rows_that_came_after_it_fails_to_the_cent() {
    // 60 received, its sender-paid withdrawal charge of 2.78 credited on a row printing 0 after
    // it, then a Fuliza repayment of 22.80 taken from both, two seconds later (one group); then
    // a deposit of 200. The repayment's balance shows it came after the receipt, the credited
    // charge is in the chain: neither holds the receipt's or the deposit's digits back.
    let rows = |receipt: &str, deposit: &str| {
        vec![
            of(Category::AirtimeAndBundles, "A", 0, "-5", "100"),
            of(Category::ReceivedMoney, "B", 20, receipt, "160"),
            of(Category::Charges, "C", 20, "0", "162.78"),
            of(Category::FulizaRepayment, "D", 22, "-22.80", "139.98"),
            of(Category::AgentDeposit, "E", 40, deposit, "339.98"),
            of(Category::AgentWithdrawal, "F", 58, "-80", "259.98"),
            of(Category::Charges, "G", 58, "-2.78", "257.20"),
        ]
    };
    assert!(!edited(rows("60", "200")));
    for raised in ["65", "60.05", "60.50"] {
        assert!(edited(rows(raised, "200")), "receipt {raised}");
    }
    for raised in ["205", "200.05"] {
        assert!(edited(rows("60", raised)), "deposit {raised}");
    }
}

#[test]
fn rows_read_as_settled_must_each_print_a_balance_an_order_of_them_reaches() {
    // An overdraft draw of 2 and the paybill of 2 it funds eleven seconds later, the statement's
    // last rows (nothing after them to confirm a reading). The draw typed to 4: together they
    // end on the 2 the draw prints, but the paybill's 0 is no balance either order reaches
    // from 0 (4 then 2, or -2 then 2): they did not settle out of order, the draw was typed over.
    let rows = |draw: &str| {
        let mut rows = listed(&[
            (Category::AgentDeposit, 0, "100", "100"),
            (Category::AirtimeAndBundles, 0, "-100", "0"),
            (Category::FulizaDraw, 0, draw, "2"),
            (Category::Paybill, 11, "-2", "0"),
        ]);
        for (row, later) in rows.iter_mut().zip([0, 3000, 6000, 6000]) {
            row.completed_at += chrono::Duration::seconds(later);
        }
        rows
    };
    assert!(!edited_on_vodacom(rows("2")));
    assert!(edited_on_vodacom(rows("4")));
}
