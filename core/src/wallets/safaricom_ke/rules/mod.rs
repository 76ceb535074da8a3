//! Safaricom M-Pesa Kenya's rule table ([`RULES`], first match wins) and the vocabularies it
//! reads, as data. Every rule looks at the Details text *normalised* by
//! [`normalise`](crate::categorise::normalise) (lower case, runs of
//! white space collapsed to one space, so that a Details cell wrapped over several PDF lines
//! reads the same as its CSV export), optionally at the direction of the row (money in or out),
//! and names a [`Category`]. A Details text that no rule matches is [`Category::Other`].
//!
//! The table is ordered in five blocks, and the order matters:
//!
//! 1. **Fixed Safaricom wording that can never carry a counterparty**: empty Details, charges,
//!    reversals, Fuliza draws and repayments, M-Shwari / KCB M-PESA / Hustler Fund loans and
//!    savings, airtime and bundles, agent cash in and out.
//! 2. **Person-to-person wording** (send money, Pochi la Biashara, money received). These come
//!    before any brand keyword, so that a *person's* name (e.g. one that contains "bet" or
//!    "tala") never turns a transfer into betting or a loan.
//! 3. **Counterparty keywords** of Paybill, till and B2C rows: credit bureaus, betting firms,
//!    digital lenders, SACCOs, utilities and bills, bulk/salary payers. The vocabularies are the
//!    `const` lists below ([`BETTING`], [`DIGITAL_LENDERS`], [`UTILITIES`], …).
//! 4. **Generic transaction types**: any other till (Buy Goods), then Paybill and B2C rows whose
//!    counterparty is a bank ([`BANKS`]: own-account transfers), then any other Paybill and B2C
//!    payment.
//! 5. Nothing matched: [`Category::Other`].
//!
//! Source: the Details strings of real Safaricom statements (full-statement PDFs of the 2021
//! `iText` and 2023+ `OpenPDF` layouts, and a 2019–2021 export), studied as *shapes* with names
//! and numbers removed, plus Safaricom's published product names (Fuliza, M-Shwari, KCB M-PESA,
//! Pochi la Biashara, Hustler Fund) and public brand names of Kenyan betting firms, utilities
//! and CBK-licensed digital credit providers. No personal data is part of the table.
//!
//! Measured coverage (share of rows that end up [`Category::Other`]): see `docs/scorecard.md`.

use crate::categorise::Category;
use crate::categorise::{Match, Rule, Table, rule, rule_in, rule_out};

/// Betting and gaming brands and their operators, matched anywhere (distinctive names).
/// Source: public brand names of Betting Control and Licensing Board licensees.
pub const BETTING: &[&str] = &[
    "sportpesa",
    "pevans",
    "betika",
    "odibets",
    "mozzart",
    "shabiki",
    "betway",
    "1xbet",
    "22bet",
    "sportybet",
    "betlion",
    "kwikbet",
    "dafabet",
    "chezacash",
    "mcheza",
    "helabet",
    "bangbet",
    "betsafe",
    "betyetu",
    "palmsbet",
    "premierbet",
    "gal sport",
    "lucky2u",
];

/// Short betting brand names, matched as whole words only ("betin" must not match a name).
pub const BETTING_WORDS: &[&str] = &["betin", "bet254", "lotto", "casino", "jackpot"];

/// Digital lenders (CBK-licensed digital credit providers, mobile bank lenders other than
/// M-Shwari / KCB M-PESA / Hustler Fund, PAYG asset financiers), matched anywhere. The generic
/// `"credit limited"`-style entries catch lenders named "`<brand>` Credit Limited" and come after
/// the credit-bureau rule.
pub const DIGITAL_LENDERS: &[&str] = &[
    "zenka",
    "okash",
    "timiza",
    "branch international",
    "branch microfinance",
    "mulla pride",
    "ceres tech",
    "m-kopa",
    "mkopa",
    "watu credit",
    "4g capital",
    "letshego",
    "lipa later",
    "pezesha",
    "credit limited",
    "credit ltd",
    "credit kenya",
    "capital limited",
    "capital ltd",
];

/// Short digital-lender names, matched as whole words only.
pub const DIGITAL_LENDER_WORDS: &[&str] = &["tala", "zash", "okolea", "mogo"];

/// Credit reference bureaus: a Paybill to them buys a credit report, it is not a loan.
pub const CREDIT_BUREAUS: &[&str] = &[
    "credit reference bureau",
    "metropol",
    "creditinfo",
    "transunion",
];

/// Utilities and recurring bills, matched anywhere.
pub const UTILITIES: &[&str] = &[
    "kplc",
    "kenya power",
    "nairobi water",
    "water and sewerage",
    "water services",
    "zuku",
    "wananchi",
    "dstv",
    "multichoice",
    "gotv",
    "go tv",
    "startimes",
    "star times",
    "safaricom home",
    "home fibre",
    "safaricom post paid",
    "safaricom postpa",
    "faiba",
    "jamii telecom",
    "nhif",
    "nssf",
    "social health",
    "kenya revenue authority",
    "ecitizen",
    "greenlight planet",
    "sun king",
    "d.light",
    "m-gas",
    "insurance",
    "lipa karo",
];

/// Bills recognised as whole words: water vendors, rent, schools.
pub const UTILITY_WORDS: &[&str] = &[
    "water",
    "waters",
    "rent",
    "school",
    "college",
    "university",
    "academy",
    "kra",
];

/// Banks and bank wallets: a Paybill to them or a B2C from them moves the holder's money
/// between the wallet and a bank account. Matched as whole words.
pub const BANKS: &[&str] = &[
    "bank",
    "kcb",
    "equity",
    "co-op",
    "co-operative",
    "cooperative",
    "absa",
    "barclays",
    "stanbic",
    "standard chartered",
    "ncba",
    "cba",
    "loop",
    "vooma",
    "equitel",
    "i&m",
    "dtb",
    "postbank",
    "sidian",
];

/// The categorisation table, first match wins. See the module documentation for its blocks.
pub const RULES: &[Rule] = &[
    // 1. Fixed Safaricom wording.
    rule(Match::Empty, Category::Other),
    rule(
        Match::ContainsAny(&[
            "customer transfer of funds charge",
            "withdrawal charge",
            "pay bill charge",
            "pay merchant charge",
            "buy goods charge",
        ]),
        Category::Charges,
    ),
    rule(Match::Contains("reversal"), Category::Reversal),
    rule(
        Match::StartsWith("overdraft of credit party"),
        Category::FulizaDraw,
    ),
    rule(
        Match::ContainsAny(&["od loan repayment", "m-pesa overdraw"]),
        Category::FulizaRepayment,
    ),
    rule(
        Match::ContainsAny(&["loan disburs"]),
        Category::MobileLoanDisbursement,
    ),
    rule(
        Match::ContainsAny(&["loan repayment"]),
        Category::MobileLoanRepayment,
    ),
    rule_in(
        Match::WordAny(&["m-shwari", "mshwari", "kcb m-pesa", "kcb mpesa", "ziidi"]),
        Category::SavingsWithdrawal,
    ),
    rule_out(
        Match::WordAny(&["m-shwari", "mshwari", "kcb m-pesa", "kcb mpesa", "ziidi"]),
        Category::SavingsDeposit,
    ),
    rule_in(
        Match::ContainsAny(&["savings to customer", "hfund savings", "h-fund savings"]),
        Category::SavingsWithdrawal,
    ),
    rule_out(
        Match::ContainsAny(&["savings contribution", "hustler fund savings"]),
        Category::SavingsDeposit,
    ),
    rule(
        Match::ContainsAny(&[
            "airtime purchase",
            "buy bundles",
            "bundle purchase",
            "safaricom offers",
            "safaricom data bundles",
        ]),
        Category::AirtimeAndBundles,
    ),
    rule(
        Match::ContainsAny(&[
            "withdrawal at agent till",
            "withdrawal at atm",
            "atm withdrawal",
        ]),
        Category::AgentWithdrawal,
    ),
    rule(
        Match::Contains("deposit of funds at agent"),
        Category::AgentDeposit,
    ),
    // 2. Person-to-person wording (before any brand keyword).
    rule(
        Match::ContainsAny(&[
            "customer payment to small business",
            "send money to micro sme",
        ]),
        Category::PochiLaBiashara,
    ),
    rule(
        Match::Contains("small business payment to customer"),
        Category::ReceivedMoney,
    ),
    rule(
        Match::ContainsAny(&["customer transfer", "customer send money"]),
        Category::SendMoney,
    ),
    rule_in(
        Match::ContainsAny(&[
            "funds received from",
            "receive funds from",
            "international transfer from",
            "offnet",
            "merchant customer payment from",
        ]),
        Category::ReceivedMoney,
    ),
    // 3. Counterparty keywords of Paybill, till and B2C rows.
    rule(Match::ContainsAny(CREDIT_BUREAUS), Category::Paybill),
    rule(Match::ContainsAny(BETTING), Category::Betting),
    rule(Match::WordAny(BETTING_WORDS), Category::Betting),
    rule_in(
        Match::ContainsAny(DIGITAL_LENDERS),
        Category::DigitalLoanDisbursement,
    ),
    rule_out(
        Match::ContainsAny(DIGITAL_LENDERS),
        Category::DigitalLoanRepayment,
    ),
    rule_in(
        Match::WordAny(DIGITAL_LENDER_WORDS),
        Category::DigitalLoanDisbursement,
    ),
    rule_out(
        Match::WordAny(DIGITAL_LENDER_WORDS),
        Category::DigitalLoanRepayment,
    ),
    rule_in(Match::WordAny(&["sacco"]), Category::SavingsWithdrawal),
    rule_out(Match::WordAny(&["sacco"]), Category::SavingsDeposit),
    rule(Match::Contains("m-pesa global"), Category::SendMoney),
    rule_out(Match::ContainsAny(UTILITIES), Category::Utilities),
    rule_out(Match::WordAny(UTILITY_WORDS), Category::Utilities),
    rule_in(
        Match::StartsWith("salary payment"),
        Category::SalaryAndBusinessPayments,
    ),
    rule_in(
        Match::WordAny(&["bulk"]),
        Category::SalaryAndBusinessPayments,
    ),
    rule(Match::Contains("lipa na kcb"), Category::BuyGoods),
    // 4. Generic transaction types. Tills come before the bank keywords: a till that banks
    // with KCB or Co-op ("… VIA COOP BANK") is still a till, not a transfer.
    rule(
        Match::ContainsAny(&["merchant payment", "buy goods"]),
        Category::BuyGoods,
    ),
    rule(Match::WordAny(BANKS), Category::OwnAccountTransfer),
    rule(Match::StartsWith("pay bill"), Category::Paybill),
    rule_in(
        Match::ContainsAny(&["business payment from", "promotion payment"]),
        Category::SalaryAndBusinessPayments,
    ),
];

/// The table with its matcher.
pub static TABLE: Table = Table::new(RULES);

#[cfg(test)]
mod tests;
