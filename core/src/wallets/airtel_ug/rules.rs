//! Airtel Money Uganda's words → the common categories (a data table, read top to bottom, the
//! first match wins; texts normalised by [`crate::categorise::normalise`]).
//!
//! Source: the Description shapes of a real Airtel Money Uganda statement (`Received from …`,
//! `Received Money from …`, `Sent Money to …`, `Paid to <merchant id> <name>`), studied with
//! names and numbers removed, and Ugandan public brand names (Umeme/Yaka power, NWSC water, pay
//! TV, betting firms, Airtel's `Wewole` loans). No personal data is part of the table.

use crate::categorise::{Category, Match, Rule, Table, rule, rule_in, rule_out};

/// Betting brands sold in Uganda, matched as whole words.
const BETTING: &[&str] = &[
    "betway",
    "sportybet",
    "fortebet",
    "betpawa",
    "gal sport",
    "1xbet",
    "bet254",
    "premier bet",
    "melbet",
];

/// Utilities, pay TV and taxes in Uganda, matched as whole words.
const BILLS: &[&str] = &[
    "umeme",
    "yaka",
    "nwsc",
    "water",
    "dstv",
    "gotv",
    "startimes",
    "azam",
    "ura",
    "nssf",
    "school",
    "fees",
    "insurance",
];

/// Airtel Money Uganda's rules.
pub const RULES: &[Rule] = &[
    rule(Match::Empty, Category::Other),
    rule(Match::Contains("reversal"), Category::Reversal),
    rule(Match::WordAny(&["charge", "fee"]), Category::Charges),
    rule(Match::WordAny(&["tax", "levy"]), Category::Charges),
    // Wewole, Airtel's overdraft-like loan: an advance in, its repayment out (one ledger, so a
    // repayment settles the advance it repays; docs/wallets.md).
    rule_in(Match::Contains("wewole"), Category::FulizaDraw),
    rule_out(Match::Contains("wewole"), Category::FulizaRepayment),
    rule_in(Match::Contains("loan"), Category::MobileLoanDisbursement),
    rule_out(Match::Contains("loan"), Category::MobileLoanRepayment),
    rule_in(
        Match::ContainsAny(&["savings", "save"]),
        Category::SavingsWithdrawal,
    ),
    rule_out(
        Match::ContainsAny(&["savings", "save"]),
        Category::SavingsDeposit,
    ),
    rule(
        Match::ContainsAny(&["airtime", "bundle", "prepaid", "data bundle"]),
        Category::AirtimeAndBundles,
    ),
    rule(Match::WordAny(BETTING), Category::Betting),
    rule(Match::WordAny(BILLS), Category::Utilities),
    rule(
        Match::WordAny(&["bank", "sacco"]),
        Category::OwnAccountTransfer,
    ),
    rule_out(
        Match::ContainsAny(&["withdraw", "cash out"]),
        Category::AgentWithdrawal,
    ),
    rule_in(
        Match::ContainsAny(&["deposit", "cash in"]),
        Category::AgentDeposit,
    ),
    rule_out(Match::StartsWith("sent money to"), Category::SendMoney),
    rule_in(Match::StartsWith("received"), Category::ReceivedMoney),
    rule_out(Match::StartsWith("paid to"), Category::BuyGoods),
];

/// The table with its matcher.
pub static TABLE: Table = Table::new(RULES);
