//! Account history measures history, not row counts (issue 49, item 5): one income split into
//! many credits gains nothing, on the personas in every market and on every wallet's own
//! statements.

use super::*;
use alama_core::testing::wallets::{airtel_statement, mtn_statement, vodacom_statement};

/// `s` with every credit `income` picks split into `parts` credits of the same Details, seven
/// seconds apart (the last takes the rounding); balances recomputed, rows newest first.
fn split(
    s: &Statement,
    parts: usize,
    income: impl Fn(&alama_core::Transaction) -> bool,
) -> Statement {
    let mut out = s.clone();
    out.transactions
        .sort_by_key(|t| std::cmp::Reverse(t.completed_at));
    let opening = edits::opening_balance(&out);
    let mut extra = Vec::new();
    out.transactions.retain(|t| {
        if !income(t) {
            return true;
        }
        let n = Decimal::from(parts);
        let part = (t.paid_in / n).round_dp(2);
        for k in 0..parts {
            let mut c = t.clone();
            c.receipt_no = format!("{}S{k:02}", t.receipt_no);
            c.paid_in = if k + 1 == parts {
                t.paid_in - part * (n - Decimal::ONE)
            } else {
                part
            };
            c.completed_at += Duration::seconds(7 * i64::try_from(k).unwrap_or(0));
            extra.push(c);
        }
        false
    });
    out.transactions.extend(extra);
    out.transactions
        .sort_by_key(|t| std::cmp::Reverse(t.completed_at));
    edits::rebalance(&mut out, opening);
    out
}

proptest! {
    #![proptest_config(config())]

    /// Every salary, or every receipt of at least KES 1,000, split into 2 to 30 credits.
    #[test]
    fn one_income_split_into_many_credits_gains_nothing(
        kind in persona(), seed in 0u64..1_000, parts in 2usize..=30, salaries in any::<bool>(),
    ) {
        let s = persona_statement(kind, seed, 12);
        let income = |t: &alama_core::Transaction| if salaries {
            t.details.starts_with("Salary Payment")
        } else {
            t.details.starts_with("Funds received") && t.paid_in >= Decimal::from(1_000)
        };
        prop_assume!(s.transactions.iter().any(income));
        let (base, gamed) = (score(&s), score(&split(&s, parts, income)));
        prop_assert!(gamed <= base, "{gamed} > {base}");
    }
}

/// On each wallet's own statements (in its own words and currency), the largest credits split
/// into 20 gain nothing either.
#[test]
fn split_credits_gain_nothing_on_any_wallet() {
    for seed in 0..4 {
        for (name, synthetic) in [
            ("airtel", airtel_statement(seed, 120)),
            ("mtn", mtn_statement(seed, 120)),
            ("vodacom", vodacom_statement(seed, 120)),
        ] {
            let s = alama_core::parse(&synthetic.bytes, &ParseOptions::default())
                .expect("the wallet's statement parses")
                .into_statement();
            let largest = s
                .transactions
                .iter()
                .map(|t| t.paid_in)
                .max()
                .unwrap_or_default();
            let income = |t: &alama_core::Transaction| {
                t.paid_in > Decimal::ZERO && t.paid_in * Decimal::TWO >= largest
            };
            let own = |s: &Statement| alama_core::score(s).expect("scores").score;
            // Both rebalanced the same way (one part is the statement as it is).
            let (base, gamed) = (own(&split(&s, 1, income)), own(&split(&s, 20, income)));
            assert!(gamed <= base, "{name} seed {seed}: {gamed} > {base}");
        }
    }
}
