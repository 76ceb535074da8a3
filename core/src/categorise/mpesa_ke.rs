//! Safaricom M-Pesa Kenya's rule table ([`RULES`]) and the vocabularies it reads, as data (see
//! the block order and sources in [`super`]).

use super::Category;
use super::rule::{Match, Rule, rule, rule_in, rule_out};

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
/// `"credit limited"`-style entries catch lenders named "<brand> Credit Limited" and come after
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
