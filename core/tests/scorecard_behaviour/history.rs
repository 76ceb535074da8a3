//! Account history measures history, not row counts (issue 49, item 5): one income split into
//! many credits gains nothing, on the personas in every market and on every wallet's own
//! statements.

use super::*;
use alama_core::testing::wallets::{airtel_statement, mtn_statement, vodacom_statement};

/// `s` with every credit `income` picks split into `parts` credits of the same Details, seven
/// seconds apart (the last takes the rounding); balances recomputed, rows newest first.
///
/// Each part but the last is a multiple of [`exact_step`], so the parts still add up to the
/// credit once carried into the run's market: each row is converted and rounded on its own, and
/// parts that gained a cent each would be new income, not the same income split. A credit
/// smaller than `parts` steps is split into as many parts as it holds steps.
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
        let step = exact_step();
        let parts = parts
            .min(usize::try_from((t.paid_in / step).floor()).unwrap_or(1))
            .max(1);
        let n = Decimal::from(parts);
        // Rounded down, so the last part, which takes the rest, is the largest.
        let part = (t.paid_in / n / step).floor() * step;
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

/// The least KES amount whose every multiple converts exactly into the run's market: the
/// market's factor has `s` decimals and its currency `p`, so multiples of 10^(s − p) KES
/// (100 KES for UGX 30.23, GHS 0.1086 and LSL 0.1373); KES 0.01 at home.
fn exact_step() -> Decimal {
    let Some((wallet, factor)) = market() else {
        return Decimal::new(1, 2);
    };
    let places = wallet
        .currency
        .and_then(alama_core::money::currency_exponent)
        .unwrap_or(2);
    Decimal::from(10u64.pow(factor.scale().saturating_sub(places)))
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
