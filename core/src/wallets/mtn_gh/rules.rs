//! MTN MoMo Ghana's words → the common categories (a data table, read top to bottom, the first
//! match wins). The text is the parser's Details (`TYPE | to NAME | REF | OVA`, see
//! [`super::csv::details_of`]) normalised by [`crate::categorise::normalise`], so a rule can look
//! at MTN's own transaction type (`transfer |`, `cash_out |`, …), the counterparty account
//! (`one4all.sp`, `hubtelpos.sp`, `cis`) and the reference.
//!
//! Source: the shapes of a real MTN MoMo Ghana statement (types `TRANSFER`, `DEBIT`,
//! `PAYMENT_SEND`, `PAYMENT`, `CASH_OUT`, `CASH_IN`, `ADJUSTMENT`, `CUSTOM_PAYMENT`; system accounts `one4all.sp` (an
//! airtime and data vendor), `cis`/`cisnew` (MTN's own bundle purchases, `your Requested`),
//! `HubtelPOS.sp` / `Bills.INV` / `POS.Inv` (Hubtel merchant payments), `gcbpupull.sp` / `GIPS`
//! (bank transfers), `momointerest.sp` (interest MTN pays on the wallet)), studied with names and
//! numbers removed, and Ghana's public brand names. No personal data is part of the table.

use crate::categorise::{Category, Match, Rule, Table, rule, rule_in, rule_out};

/// Betting brands sold in Ghana, matched as whole words.
const BETTING: &[&str] = &[
    "betway",
    "sportybet",
    "soccarbet",
    "betpawa",
    "1xbet",
    "mybet",
    "premier bet",
    "betika",
];

/// Utilities, pay TV and statutory payments in Ghana, matched as whole words.
const BILLS: &[&str] = &[
    "ecg",
    "gwcl",
    "water",
    "electricity",
    "dstv",
    "gotv",
    "startimes",
    "gra",
    "ssnit",
    "nhis",
    "school",
    "fees",
    "insurance",
];

/// MTN MoMo Ghana's rules.
pub const RULES: &[Rule] = &[
    rule(Match::Empty, Category::Other),
    rule(Match::Contains("reversal"), Category::Reversal),
    rule(Match::StartsWith("cash_in"), Category::AgentDeposit),
    rule(Match::StartsWith("cash_out"), Category::AgentWithdrawal),
    rule(
        Match::Contains("momointerest"),
        Category::SalaryAndBusinessPayments,
    ),
    rule_in(
        Match::ContainsAny(&["qwikloan", "xtracash", "loan"]),
        Category::MobileLoanDisbursement,
    ),
    rule_out(
        Match::ContainsAny(&["qwikloan", "xtracash", "loan"]),
        Category::MobileLoanRepayment,
    ),
    rule(
        Match::ContainsAny(&[
            "airtime",
            "one4all",
            "| to cis |",
            "| to cisnew |",
            "bundle",
        ]),
        Category::AirtimeAndBundles,
    ),
    rule(Match::WordAny(BETTING), Category::Betting),
    rule(Match::WordAny(BILLS), Category::Utilities),
    rule(
        Match::ContainsAny(&["hubtelpos", "bills.inv", "pos.inv", "merchant"]),
        Category::BuyGoods,
    ),
    rule(
        Match::ContainsAny(&["gcbpupull", "gips", "mmipull", "bank"]),
        Category::OwnAccountTransfer,
    ),
    rule(Match::StartsWith("transfer | to"), Category::SendMoney),
    rule(Match::StartsWith("payment_send"), Category::SendMoney),
    rule_in(Match::StartsWith("transfer"), Category::ReceivedMoney),
    rule(Match::StartsWith("payment"), Category::BuyGoods),
    rule(Match::StartsWith("custom_payment"), Category::Paybill),
    rule(Match::StartsWith("debit"), Category::Paybill),
    rule(Match::StartsWith("adjustment"), Category::Reversal),
];

/// The table with its matcher.
pub static TABLE: Table = Table::new(RULES);
