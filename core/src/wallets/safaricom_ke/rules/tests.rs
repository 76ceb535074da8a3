//! Safaricom's words, each read into its category: one test per block of the table.

use super::*;
use crate::categorise::normalise;

fn out(details: &str) -> Category {
    TABLE.categorise(details, false)
}

fn inn(details: &str) -> Category {
    TABLE.categorise(details, true)
}

#[test]
fn send_money_and_received_money() {
    assert_eq!(
        out("Customer Transfer to 0712******78 - JANE DOE"),
        Category::SendMoney
    );
    assert_eq!(
        out("Customer Transfer Fuliza MPesa to - 0712******78 JOHN DOE"),
        Category::SendMoney
    );
    assert_eq!(
        inn("Funds received from - 0712******78 JANE DOE"),
        Category::ReceivedMoney
    );
    assert_eq!(
        inn("Receive International Transfer From 123 - REMIT LTD"),
        Category::ReceivedMoney
    );
    assert_eq!(
        inn("Offnet BNC Transfer by NAIRTEL MONEY via API to - 0733 JANE"),
        Category::ReceivedMoney
    );
    assert_eq!(
        out("Pay Bill Online to 100000 - M-PESA GLOBAL. Acc. 1"),
        Category::SendMoney
    );
}

#[test]
fn names_never_trigger_brand_rules() {
    // Names containing "bet", "tala" or "bank" in a person-to-person transfer.
    assert_eq!(
        out("Customer Transfer to 0712 - JOHN KIBET"),
        Category::SendMoney
    );
    assert_eq!(
        inn("Funds received from - 0712 MARY ITALAJI"),
        Category::ReceivedMoney
    );
    assert_eq!(
        out("Customer Transfer to 0712 - TALA BANK"),
        Category::SendMoney
    );
    // Whole-word matching: "betin" inside a longer word is not Betin.
    assert_eq!(
        out("Merchant Payment to 123 - ALPHABETINC STORES"),
        Category::BuyGoods
    );
}

#[test]
fn agents_and_pochi() {
    assert_eq!(
        inn("Deposit of Funds at Agent Till 12345 - SHOP AGENT"),
        Category::AgentDeposit
    );
    assert_eq!(
        out("Customer Withdrawal At Agent Till 12345 - SHOP AGENT"),
        Category::AgentWithdrawal
    );
    assert_eq!(
        out("Customer Withdrawal at Agent Till with Fuliza to 12345 - SHOP"),
        Category::AgentWithdrawal
    );
    assert_eq!(
        out("Customer Payment to Small Business to - 0712******78 SELLER"),
        Category::PochiLaBiashara
    );
    assert_eq!(
        out("Customer Send Money to Micro SME Business with Fuliza MPesa to - 07 X"),
        Category::PochiLaBiashara
    );
    assert_eq!(
        inn("Small Business Payment to Customer via API from - 07 SELLER"),
        Category::ReceivedMoney
    );
}

#[test]
fn paybill_buy_goods_airtime() {
    assert_eq!(
        out("Pay Bill to 123456 - ACME TRADERS Acc. 42"),
        Category::Paybill
    );
    assert_eq!(
        out("Pay Bill Online Fuliza M-Pesa to 123456 - ACME Acc. 1"),
        Category::Paybill
    );
    assert_eq!(
        out("Merchant Payment to 123456 - CORNER SHOP"),
        Category::BuyGoods
    );
    assert_eq!(
        out("Merchant Payment Fuliza M-Pesa Online to 1 - CORNER SHOP"),
        Category::BuyGoods
    );
    assert_eq!(
        out("Pay Bill to 522522 - Lipa na KCB Acc. SHOP"),
        Category::BuyGoods
    );
    assert_eq!(
        out("Merchant Payment Online to 1 - EXAMPLE CLINIC VIA COOP BANK"),
        Category::BuyGoods
    );
    assert_eq!(
        out("Merchant Payment to 1 - EXAMPLE STORE - KCB"),
        Category::BuyGoods
    );
    assert_eq!(out("Airtime Purchase"), Category::AirtimeAndBundles);
    assert_eq!(
        out("Airtime Purchase For Other with Fuliza"),
        Category::AirtimeAndBundles
    );
    assert_eq!(out("Buy Bundles"), Category::AirtimeAndBundles);
    assert_eq!(
        out("Pay Bill Online to 1 - Safaricom Offers Acc. 1"),
        Category::AirtimeAndBundles
    );
}

#[test]
fn fuliza_and_mobile_loans() {
    assert_eq!(inn("OverDraft of Credit Party"), Category::FulizaDraw);
    assert_eq!(
        out("OD Loan Repayment to 232323 - M-PESA Overdraw"),
        Category::FulizaRepayment
    );
    assert_eq!(
        inn("M-Shwari Loan Disburse"),
        Category::MobileLoanDisbursement
    );
    assert_eq!(
        inn("Term Loan Disbursement for H- Fund"),
        Category::MobileLoanDisbursement
    );
    assert_eq!(
        out("M-Shwari Loan Repayment"),
        Category::MobileLoanRepayment
    );
    assert_eq!(
        out("Term Loan Repayment for H- Fund"),
        Category::MobileLoanRepayment
    );
}

#[test]
fn savings() {
    assert_eq!(out("M-Shwari Deposit"), Category::SavingsDeposit);
    assert_eq!(out("M-Shwari Lock Deposit"), Category::SavingsDeposit);
    assert_eq!(inn("M-Shwari Withdraw"), Category::SavingsWithdrawal);
    assert_eq!(out("KCB M-PESA Deposit"), Category::SavingsDeposit);
    assert_eq!(inn("KCB M-PESA Withdraw"), Category::SavingsWithdrawal);
    assert_eq!(
        inn("Business Payment from 1 - KCB M-PESA ACCOUNT via API"),
        Category::SavingsWithdrawal
    );
    assert_eq!(out("Savings Contribution"), Category::SavingsDeposit);
    assert_eq!(
        inn("HFund Savings to Customer via API to 1 - X"),
        Category::SavingsWithdrawal
    );
    assert_eq!(
        out("Pay Bill Online to 1 - EXAMPLE SACCO Society Limited Acc. 9"),
        Category::SavingsDeposit
    );
}

#[test]
fn digital_lenders() {
    assert_eq!(
        inn("Business Payment from 1 - TALA KENYA via API"),
        Category::DigitalLoanDisbursement
    );
    assert_eq!(
        out("Pay Bill to 1 - Tala Acc. 0712"),
        Category::DigitalLoanRepayment
    );
    assert_eq!(
        inn("Business Payment from 1 - BRANCH INTERNATIONAL via API"),
        Category::DigitalLoanDisbursement
    );
    assert_eq!(
        out("Pay Bill Online to 1 - ZENKA DIGITAL LIMITED Acc. 1"),
        Category::DigitalLoanRepayment
    );
    assert_eq!(
        inn("Business Payment from 1 - TIMIZA. via API"),
        Category::DigitalLoanDisbursement
    );
    assert_eq!(
        out("Pay Bill to 1 - OKASH Acc. 1"),
        Category::DigitalLoanRepayment
    );
    assert_eq!(
        inn("Business Payment from 1 - EXAMPLE CREDIT LIMITED BNC via API"),
        Category::DigitalLoanDisbursement
    );
    // A "branch" of a shop is not Branch the lender.
    assert_eq!(
        out("Merchant Payment to 1 - SUPERSTORE TOWN BRANCH"),
        Category::BuyGoods
    );
    // A credit bureau report is not a loan.
    assert_eq!(
        out("Pay Bill to 1 - Metropol Credit Reference Bureau Ltd Acc. 1"),
        Category::Paybill
    );
}

#[test]
fn betting() {
    for brand in [
        "SportPesa",
        "Betika",
        "ODIBETS",
        "Mozzartbet",
        "Betin",
        "Shabiki",
        "Betway",
    ] {
        assert_eq!(
            out(&format!("Pay Bill to 1 - {brand} Acc. 0712")),
            Category::Betting,
            "{brand}"
        );
    }
    assert_eq!(
        inn("Business Payment from 1 - BETIKA via API"),
        Category::Betting
    );
}

#[test]
fn utilities() {
    for name in [
        "KPLC PREPAID",
        "Kenya Power",
        "NAIROBI WATER",
        "ZUKU",
        "DSTV",
        "GOtv",
        "GO TV",
        "Safaricom Home",
        "Safaricom Post Paid",
        "SAFARICOM POSTPAID BUNDLES",
        "NHIF",
        "EXAMPLE GIRLS SECONDARY SCHOOL",
        "Family Bank Rent Payment",
        "Lipa Karo KCB Account",
    ] {
        assert_eq!(
            out(&format!("Pay Bill Online to 1 - {name} Acc. 1")),
            Category::Utilities,
            "{name}"
        );
    }
}

#[test]
fn salary_b2c_and_banks() {
    assert_eq!(
        inn("Salary Payment from 1 - EXAMPLE EMPLOYER LTD via API"),
        Category::SalaryAndBusinessPayments
    );
    assert_eq!(
        inn("Business Payment from 1 - EXAMPLE TRADING LTD via API"),
        Category::SalaryAndBusinessPayments
    );
    assert_eq!(
        inn("Business Payment from 1 - Equity Bulk Account via API"),
        Category::SalaryAndBusinessPayments
    );
    assert_eq!(
        inn("Promotion Payment from 1 - M-PESA Cashback"),
        Category::SalaryAndBusinessPayments
    );
    assert_eq!(
        inn("Merchant Customer Payment from 1 - SHOP"),
        Category::ReceivedMoney
    );
    assert_eq!(
        inn("Business Payment from 1 - STANDARD CHARTERED BANK via API"),
        Category::OwnAccountTransfer
    );
    assert_eq!(
        inn("Business Payment from 1 - KCB 1 via API. Original conversation ID is 1."),
        Category::OwnAccountTransfer
    );
    assert_eq!(
        out("Pay Bill to 1 - Equity Paybill Account Acc. 1"),
        Category::OwnAccountTransfer
    );
    assert_eq!(
        out("Pay Bill Online to 1 - Co-operative Bank Money Transfer Acc. 1"),
        Category::OwnAccountTransfer
    );
}

#[test]
fn charges_reversals_other() {
    assert_eq!(out("Customer Transfer of Funds Charge"), Category::Charges);
    assert_eq!(out("Withdrawal Charge"), Category::Charges);
    assert_eq!(out("Pay Bill Charge"), Category::Charges);
    assert_eq!(out("Pay Merchant Charge"), Category::Charges);
    assert_eq!(
        inn("Send Money Reversal via API from - 0712 X"),
        Category::Reversal
    );
    assert_eq!(
        inn("Pay Utility Reversal by SAFARICOM POSTPAID BUNDLES"),
        Category::Reversal
    );
    assert_eq!(out(""), Category::Other);
    assert_eq!(out("   "), Category::Other);
    assert_eq!(out("Something new from Safaricom"), Category::Other);
}

#[test]
fn wrapped_details_read_like_one_line() {
    assert_eq!(
        out("Customer   Withdrawal\nAt Agent Till 1 - X"),
        Category::AgentWithdrawal
    );
    assert_eq!(normalise("  A\tB \n C "), "a b c");
}

#[test]
fn direction_matters_only_where_the_table_says() {
    assert_eq!(inn("M-Shwari Deposit"), Category::SavingsWithdrawal);
    assert_eq!(out("Pay Bill to 1 - TALA"), Category::DigitalLoanRepayment);
    assert_eq!(
        inn("Pay Bill to 1 - TALA"),
        Category::DigitalLoanDisbursement
    );
}

#[test]
fn every_rule_is_reachable_and_categories_are_used() {
    // Every real category except Uncategorised is produced by some rule.
    for c in Category::ALL {
        if matches!(c, Category::Uncategorised) {
            continue;
        }
        assert!(RULES.iter().any(|r| r.category == c), "{c:?} has no rule");
    }
}
