//! The Kenyan card's words that are Kenya's own (its products, regulators and statutes), and
//! what the other markets' cards say instead: the reasons and names a lender reads in a report
//! speak of the wallet's overdraft and loans, not of Fuliza; the rationales keep the Kenyan
//! sources of the carried-over bins, named as Kenyan. Each Kenyan text must occur in the
//! Kenyan card exactly once, so a change of that card's words fails the derivation instead of
//! leaving a Kenyan phrase behind.
//!
//! `{KES n}` and `{KES a–b}` in a market text keep the Kenyan figure and add its conversion:
//! `KES 15,000 (UGX 450,000)`.

/// `(Kenyan text, the other markets' text)`, applied to every rationale, name and reason.
pub const WORDING: &[(&str, &str)] = &[
    (
        "The income bins are anchored on Kenyan figures: KES 15,000 is about the statutory minimum wage of a general worker in the cities (Regulation of Wages (General) (Amendment) Order 2024: KES 15,201–16,114 a month); KES 30,000–50,000 spans the average formal-sector wage (KNBS Economic Survey 2024: about KES 60,000 a month averaged over all sectors, lower in the sectors M-Pesa borrowers mostly work in); below KES 7,500 is the income of the poorer half of adults in FinAccess 2021 (CBK/KNBS/FSD Kenya).",
        "The income bins are the Kenyan card's, carried over at this card's factor (the thresholds' rationale checks them against this market's own anchors). In Kenya they are anchored on {KES 15,000}, about the statutory minimum wage of a general worker in the cities (Regulation of Wages (General) (Amendment) Order 2024: {KES 15,201–16,114} a month); on {KES 30,000–50,000}, which spans the average formal-sector wage (KNBS Economic Survey 2024: about {KES 60,000} a month averaged over all sectors, lower in the sectors M-Pesa borrowers mostly work in); and on {KES 7,500}, below which is the income of the poorer half of Kenyan adults (FinAccess 2021, CBK/KNBS/FSD Kenya).",
    ),
    (
        "Balances are net of what is owed to Fuliza and lenders that day",
        "Balances are net of what is owed on the wallet's overdraft and to lenders that day",
    ),
    (
        "Every genuine M-Pesa statement prints a balance",
        "Every genuine statement of a supported wallet prints a balance",
    ),
    (
        "The usual balance, net of Fuliza and loans owed,",
        "The usual balance, net of overdraft and loans owed,",
    ),
    (
        "Repaid Fuliza, M-Shwari, KCB M-PESA, Hustler Fund and digital loans are",
        "Repaid overdrafts (the wallet's own; Fuliza in Kenya) and mobile and digital loans are",
    ),
    (
        "(the term of Fuliza and M-Shwari)",
        "(the term of Kenya's Fuliza and M-Shwari, on which the bins were set)",
    ),
    ("Fuliza is read by size", "The overdraft is read by size"),
    (
        "CBK's concern with digital-loan stacking motivates the loan-intensity bins.",
        "the Central Bank of Kenya's concern with digital-loan stacking motivated the Kenyan card's loan-intensity bins, carried over here.",
    ),
    ("Fuliza and loans: {}", "Overdraft and loans: {}"),
    ("Fuliza drawn ÷ income", "Overdraft drawn ÷ income"),
    ("Fuliza drawn came to {}", "Overdraft drawn came to {}"),
    (
        "Share of months with a Fuliza draw",
        "Share of months with an overdraft draw",
    ),
    (
        "Fuliza was drawn in {} of months",
        "The overdraft was drawn in {} of months",
    ),
    (
        "among Kenyan mobile borrowers and a concern of the Betting Control and Licensing Board and CBK;",
        "among mobile borrowers (evidence from Kenya, where the Betting Control and Licensing Board and the Central Bank of Kenya treat it as a concern; the bins are the Kenyan card's);",
    ),
    (
        "Lenders in Kenya commonly ask for 6 to 12 months of M-Pesa statements;",
        "Lenders commonly ask for 6 to 12 months of mobile-money statements (in Kenya, of M-Pesa statements);",
    ),
];

/// Words no name or reason of another market's card may contain: a report's reader sees them.
pub const KENYAN_WORDS: &[&str] = &[
    "Fuliza", "M-Pesa", "M-PESA", "M-Shwari", "KES", "Kenya", "CBK",
];
