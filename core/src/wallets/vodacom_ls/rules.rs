//! Vodacom M-Pesa Lesotho's words → the common categories (a data table, read top to bottom,
//! the first match wins; texts normalised by [`crate::categorise::normalise`]).
//!
//! Source: the Description shapes of a real Vodacom M-Pesa Lesotho statement (`Overdraft Payment
//! from 72957 - Redeem Financial Services`, `Customer Overdraft Payment to72957 - …`, `M-Pesa
//! Advance Payment from …`, `Withdrawal Charge`, `TwoPartPaybill`, …), studied with names and
//! numbers removed, and Lesotho's public brand names (LEC power, WASCO water, pay TV, betting
//! and lottery firms). No personal data is part of the table.

use crate::categorise::{Category, Match, Rule, Table, rule, rule_in};

/// Betting and lottery brands sold in Lesotho, matched as whole words.
const BETTING: &[&str] = &[
    "betway",
    "lottostar",
    "supabets",
    "playabets",
    "hollywoodbets",
    "lesotho national lottery",
    "lotto",
];

/// Utilities and pay TV in Lesotho, matched as whole words.
const BILLS: &[&str] = &[
    "lec",
    "wasco",
    "dstv",
    "gotv",
    "water",
    "electricity",
    "insurance",
];

/// Vodacom M-Pesa Lesotho's rules.
pub const RULES: &[Rule] = &[
    rule(Match::Empty, Category::Other),
    rule(Match::Contains("reversal"), Category::Reversal),
    // The overdraft (Redeem Financial Services): a draw pays in, a repayment pays out.
    rule_in(
        Match::StartsWith("overdraft payment from"),
        Category::FulizaDraw,
    ),
    rule(
        Match::StartsWith("customer overdraft payment to"),
        Category::FulizaRepayment,
    ),
    // M-Pesa Advance: a loan paid in, repaid out.
    rule_in(
        Match::StartsWith("m-pesa advance payment from"),
        Category::MobileLoanDisbursement,
    ),
    // The same words on a row the holder is on the From side of (amount 0 on the sample).
    rule(
        Match::StartsWith("m-pesa advance payment from"),
        Category::MobileLoanDisbursement,
    ),
    rule(
        Match::StartsWith("customer advance payment to"),
        Category::MobileLoanRepayment,
    ),
    rule(Match::StartsWith("airtime"), Category::AirtimeAndBundles),
    rule(Match::Contains("bundle"), Category::AirtimeAndBundles),
    rule(Match::WordAny(BETTING), Category::Betting),
    rule(Match::WordAny(BILLS), Category::Utilities),
    // A receipt or a send whose sender paid the recipient's withdrawal charge ("Funds received
    // from … - NAME with withdrawal charge", "Customer Transfer with withdrawal charge to …") is
    // money received or sent, not a charge: the charge is a row of its own ("Customer Transfer
    // of Funds with withdrawal Charge"). Before these two rules the words "withdrawal charge"
    // made 13 receipts and 4 sends of the sample charges.
    rule(
        Match::StartsWith("funds received from"),
        Category::ReceivedMoney,
    ),
    rule(
        Match::StartsWith("customer transfer with withdrawal charge to"),
        Category::SendMoney,
    ),
    rule(
        Match::ContainsAny(&[
            "withdrawal charge",
            "pay bill charge",
            "pay merchant charge",
            "customer transfer of funds",
            "charge",
        ]),
        Category::Charges,
    ),
    rule(
        Match::StartsWith("customer withdrawal"),
        Category::AgentWithdrawal,
    ),
    rule(
        Match::StartsWith("deposit of funds"),
        Category::AgentDeposit,
    ),
    rule(
        Match::Contains("national payment switch"),
        Category::OwnAccountTransfer,
    ),
    rule(Match::StartsWith("customer transfer"), Category::SendMoney),
    rule(
        Match::StartsWith("external customer transfer"),
        Category::ReceivedMoney,
    ),
    rule(Match::StartsWith("paymerchant"), Category::BuyGoods),
    rule(Match::StartsWith("twopartpaybill"), Category::Paybill),
    rule(Match::StartsWith("payment to"), Category::Paybill),
    rule(Match::Contains("paybill"), Category::Paybill),
];

/// The table with its matcher.
pub static TABLE: Table = Table::new(RULES);

#[cfg(test)]
mod tests {
    use super::TABLE;
    use crate::categorise::Category;

    /// The sample's words with a made-up party: a receipt or a send whose sender paid the
    /// withdrawal charge is money received or sent; the charge's own rows stay charges.
    #[test]
    fn a_movement_with_the_withdrawal_charge_paid_is_no_charge() {
        let cases = [
            (
                "Funds received from 26650000000 - TEST PERSON with withdrawal charge",
                true,
                Category::ReceivedMoney,
            ),
            (
                "Funds received from 26650000000 - TEST PERSON with withdrawal charge",
                false,
                Category::ReceivedMoney,
            ),
            (
                "Customer Transfer with withdrawal charge to 26650000000 - TEST PERSON",
                false,
                Category::SendMoney,
            ),
            (
                "Customer Transfer of Funds with withdrawal Charge",
                false,
                Category::Charges,
            ),
            (
                "Customer Transfer of Funds Charge",
                false,
                Category::Charges,
            ),
            ("Withdrawal Charge", false, Category::Charges),
            ("Pay Bill Charge", false, Category::Charges),
            (
                "Funds received from 12345 - Lesotho National Lottery with withdrawal charge",
                true,
                Category::Betting,
            ),
        ];
        for (details, paid_in, category) in cases {
            assert_eq!(TABLE.categorise(details, paid_in), category, "{details}");
        }
    }
}
