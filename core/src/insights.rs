//! Typed insights of a report: a stable code, one sentence for a person, and the figure behind
//! it ([`Insight`]).
//!
//! Values are exact decimals, rounded so that the JSON is stable: money to 2 decimal places in
//! the statement's currency (unit `"KES"`, `"UGX/month"`, …), ratios to 4 (`"ratio"`, 0–1), counts and days as integers. Insights
//! appear in a fixed order; the thin-file warning, when present, comes first.
//!
//! Months are calendar months everywhere (see [`crate::features`]).
//!
//! **Affordable monthly instalment** (`affordable_instalment`, the currency a month, computed in
//! [`Features::affordable_instalment`] because the scorecard scores it):
//! `max(0, min(typical monthly income / 3 − mobile and digital loans drawn per month, 50 % ×
//! monthly net cash flow))`. The first term is a debt-service-to-income cap of one third, the
//! common Kenyan bank practice that also matches the Employment Act's rule that deductions leave
//! an employee at least a third of pay; what a rolling borrower draws each month is what falls
//! due the next, so loans drawn stand for existing debt service (repayments themselves are not
//! used, so that repaying can never lower the figure). The second term keeps half of the
//! observed surplus (over full calendar months) as a buffer against income shocks. Fuliza is
//! left out because its draws and repayments already net out inside the cash flow.

use rust_decimal::{Decimal, RoundingStrategy};

use crate::features::{Features, Thresholds};
use crate::money::display;
use crate::report::Insight;
use crate::wallets::Wallet;

/// A statement shorter than this many days gets a thin-file insight.
pub const THIN_FILE_DAYS: u32 = 90;

/// The thresholds of the affordable instalment, defined with the feature that computes it.
pub use crate::features::{DSR_CAP_DIVISOR, SURPLUS_SHARE};

fn money(v: Decimal) -> Decimal {
    let mut r = v.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero);
    r.rescale(2);
    r
}

fn ratio4(v: Decimal) -> Decimal {
    let mut r = v.round_dp_with_strategy(4, RoundingStrategy::MidpointAwayFromZero);
    r.rescale(4);
    r
}

/// `0.1234` → `"12.3%"`.
pub(crate) fn percent(v: Decimal) -> String {
    let p = v
        .saturating_mul(Decimal::ONE_HUNDRED)
        .round_dp_with_strategy(1, RoundingStrategy::MidpointAwayFromZero);
    format!("{p}%")
}

fn insight(code: &str, message: String, value: Decimal, unit: &str) -> Insight {
    Insight {
        code: code.to_owned(),
        message,
        value,
        unit: unit.to_owned(),
    }
}

/// The affordable monthly instalment, the statement's currency a month, unrounded (see the module rule).
pub fn affordable_instalment(f: &Features) -> Decimal {
    f.affordable_instalment
}

/// The insights of a statement's features, in a fixed order (the thin-file warning first).
/// Money is shown and united in `currency` (the statement's, ISO 4217: `"UGX 25,111.80"`, unit
/// `"UGX/month"`), with the scorecard's `thresholds` in that currency. The overdraft is named
/// in the words of the statement's wallet (`wallet`: its overdraft product's name, such as
/// Safaricom's Fuliza, or "overdraft" for a wallet without one of its own; see
/// docs/wallets.md). The codes (`fuliza_reliance`, `fuliza_drawn`) are the same on every
/// wallet.
pub fn insights(
    f: &Features,
    currency: &str,
    thresholds: &Thresholds,
    wallet: &Wallet,
) -> Vec<Insight> {
    let overdraft = Overdraft::of(wallet);
    [
        thin_file(f),
        Some(average_income(f, currency, &overdraft)),
        income_regularity(f),
        salary_share(f),
        Some(net_cash_flow(f, currency)),
        average_balance(f, currency, thresholds.near_zero_balance),
        Some(fuliza(f, currency, &overdraft)),
        mobile_loans(f, currency),
        Some(betting(f, currency)),
        Some(cash_out(f, currency)),
        Some(bills(f)),
        Some(instalment(f, currency)),
    ]
    .into_iter()
    .flatten()
    .collect()
}

fn thin_file(f: &Features) -> Option<Insight> {
    (f.statement_days < THIN_FILE_DAYS).then(|| {
        insight(
            "thin_file",
            format!(
                "The statement covers only {} day(s) with {} completed transaction(s); scores are \
                 more reliable on 6 to 12 months",
                f.statement_days, f.transaction_count
            ),
            Decimal::from(f.statement_days),
            "days",
        )
    })
}

/// How a wallet's insights name its overdraft.
struct Overdraft {
    /// In a list, lower case unless a product name (`"Fuliza"`, `"overdrafts"`).
    listed: &'static str,
    /// At the start of a sentence (`"Fuliza"`, `"Overdraft"`).
    subject: &'static str,
    /// After "No" (`"Fuliza overdraft"`, `"overdraft"`).
    none: String,
}

impl Overdraft {
    fn of(wallet: &Wallet) -> Self {
        match wallet.profile.overdraft {
            Some(product) => Self {
                listed: product,
                subject: product,
                none: format!("{product} overdraft"),
            },
            None => Self {
                listed: "overdrafts",
                subject: "Overdraft",
                none: "overdraft".to_owned(),
            },
        }
    }
}

fn average_income(f: &Features, cur: &str, overdraft: &Overdraft) -> Insight {
    insight(
        "average_monthly_income",
        format!(
            "Average income is {} per 30 days (money in, excluding loans, {}, savings, \
             reversals, betting winnings and round trips; money from banks counted, net of money \
             sent back, when it comes in most months)",
            display(cur, f.average_monthly_income),
            overdraft.listed
        ),
        money(f.average_monthly_income),
        &format!("{cur}/month"),
    )
}

fn income_regularity(f: &Features) -> Option<Insight> {
    let cv = f.income_cv?;
    let reading = if cv <= Decimal::new(25, 2) {
        "steady"
    } else if cv <= Decimal::new(60, 2) {
        "somewhat irregular"
    } else {
        "irregular"
    };
    Some(insight(
        "income_regularity",
        format!(
            "Monthly income is {reading}: it varies by {} of its average (coefficient of \
             variation over {} full calendar months)",
            percent(cv),
            f.full_months
        ),
        ratio4(cv),
        "ratio",
    ))
}

fn salary_share(f: &Features) -> Option<Insight> {
    let share = f.salary_share?;
    Some(insight(
        "salary_share",
        format!(
            "{} of income is paid by employers, businesses and banks (B2C) rather than by people",
            percent(share)
        ),
        ratio4(share),
        "ratio",
    ))
}

fn net_cash_flow(f: &Features, cur: &str) -> Insight {
    insight(
        "net_monthly_cash_flow",
        format!(
            "Income minus spending (credit fees included) averages {} a month",
            display(cur, f.average_monthly_net_cash_flow)
        ),
        money(f.average_monthly_net_cash_flow),
        &format!("{cur}/month"),
    )
}

fn average_balance(f: &Features, cur: &str, near_zero: Decimal) -> Option<Insight> {
    let avg = f.average_daily_balance?;
    Some(insight(
        "average_balance",
        format!(
            "The wallet ends the day with {} on average and below {} on {} of {} days",
            display(cur, avg),
            // An edge of the card, shown as the card writes it: "KES 100", "GHS 3.20".
            display(cur, near_zero)
                .strip_suffix(".00")
                .map_or_else(|| display(cur, near_zero), str::to_owned),
            f.days_near_zero,
            f.statement_days
        ),
        money(avg),
        cur,
    ))
}

fn fuliza(f: &Features, cur: &str, overdraft: &Overdraft) -> Insight {
    match f.fuliza_reliance.filter(|r| *r != Decimal::MAX) {
        Some(r) => insight(
            "fuliza_reliance",
            if f.fuliza_draw_count == 0 {
                format!("No {} was drawn", overdraft.none)
            } else {
                format!(
                    "{} drawn equals {} of income ({} draws totalling {}, in {} of {} months)",
                    overdraft.subject,
                    percent(r),
                    f.fuliza_draw_count,
                    display(cur, f.fuliza_drawn),
                    f.fuliza_months,
                    f.months_covered
                )
            },
            ratio4(r),
            "ratio",
        ),
        None => insight(
            "fuliza_drawn",
            format!(
                "{} was drawn {} times ({}) with no income on the statement",
                overdraft.subject,
                f.fuliza_draw_count,
                display(cur, f.fuliza_drawn)
            ),
            money(f.fuliza_drawn),
            cur,
        ),
    }
}

fn mobile_loans(f: &Features, cur: &str) -> Option<Insight> {
    let count = f.mobile_loan_count.saturating_add(f.digital_loan_count);
    let received = f
        .mobile_loans_received
        .saturating_add(f.digital_loans_received);
    let repaid = f.mobile_loans_repaid.saturating_add(f.digital_loans_repaid);
    (count > 0).then(|| {
        insight(
            "mobile_loans",
            format!(
                "{count} mobile or digital loan(s) received ({}), {} repaid on the statement",
                display(cur, received),
                display(cur, repaid)
            ),
            money(received),
            cur,
        )
    })
}

fn betting(f: &Features, cur: &str) -> Insight {
    insight(
        "betting_share",
        if f.betting_spent.is_zero() {
            "No betting payments were found".to_owned()
        } else {
            format!(
                "{} of spending goes to betting ({})",
                percent(f.betting_share),
                display(cur, f.betting_spent)
            )
        },
        ratio4(f.betting_share),
        "ratio",
    )
}

fn cash_out(f: &Features, cur: &str) -> Insight {
    insight(
        "cash_out_share",
        format!(
            "{} of spending is withdrawn as cash at agents ({})",
            percent(f.cash_out_share),
            display(cur, f.cash_out)
        ),
        ratio4(f.cash_out_share),
        "ratio",
    )
}

fn bills(f: &Features) -> Insight {
    insight(
        "bill_payment_months",
        format!(
            "Utility or bill payments were made in {} of {} months ({} payments)",
            f.bill_payment_months, f.months_covered, f.bill_payment_count
        ),
        Decimal::from(f.bill_payment_months),
        "months",
    )
}

fn instalment(f: &Features, cur: &str) -> Insight {
    let amount = affordable_instalment(f);
    insight(
        "affordable_instalment",
        if amount.is_zero() {
            "No new monthly instalment looks affordable from this statement's cash flow".to_owned()
        } else {
            format!(
                "An instalment of up to {} per month looks affordable (the lower of a third of \
                 income less existing loan repayments, and half the monthly surplus)",
                display(cur, amount)
            )
        },
        money(amount),
        &format!("{cur}/month"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wallet(id: &str) -> &'static Wallet {
        crate::wallets::find(id).expect("registered")
    }
    use rust_decimal_macros::dec;

    fn base() -> Features {
        Features {
            statement_days: 365,
            transaction_count: 900,
            months_covered: 13,
            full_months: 12,
            average_monthly_income: dec!(30000),
            average_monthly_net_cash_flow: dec!(6000),
            income_cv: Some(dec!(0.123456)),
            salary_share: Some(dec!(0.5)),
            fuliza_reliance: Some(dec!(0)),
            affordable_instalment: dec!(3000),
            ..Features::default()
        }
    }

    fn find<'a>(list: &'a [Insight], code: &str) -> Option<&'a Insight> {
        list.iter().find(|i| i.code == code)
    }

    #[test]
    fn affordable_instalment_is_the_features_figure() {
        let f = base();
        assert_eq!(affordable_instalment(&f), dec!(3000));
    }

    #[test]
    fn values_are_rounded_for_stable_json() {
        let list = insights(&base(), "KES", &Thresholds::KES, wallet("mpesa"));
        let cv = find(&list, "income_regularity").map(|i| i.value);
        assert_eq!(cv.map(|v| v.to_string()), Some("0.1235".to_owned()));
        let income = find(&list, "average_monthly_income").map(|i| i.value.to_string());
        assert_eq!(income.as_deref(), Some("30000.00"));
        let instalment = find(&list, "affordable_instalment").map(|i| (i.value, i.unit.clone()));
        assert_eq!(instalment, Some((dec!(3000.00), "KES/month".to_owned())));
        assert!(find(&list, "thin_file").is_none());
        for i in &list {
            assert!(!i.message.is_empty());
            assert!(["KES", "KES/month", "ratio", "months", "days"].contains(&i.unit.as_str()));
        }
    }

    /// Only Safaricom M-Pesa's insights say Fuliza; every other wallet's say "overdraft",
    /// with the same codes and figures.
    #[test]
    fn the_overdraft_is_named_in_the_wallets_words() {
        let drawn = Features {
            fuliza_draw_count: 3,
            fuliza_drawn: dec!(1500),
            fuliza_reliance: Some(dec!(0.05)),
            ..base()
        };
        let none = Features {
            fuliza_draw_count: 0,
            fuliza_reliance: Some(Decimal::ZERO),
            ..base()
        };
        let no_income = Features {
            fuliza_draw_count: 2,
            fuliza_drawn: dec!(300),
            fuliza_reliance: None,
            ..base()
        };
        for f in [&drawn, &none, &no_income] {
            let kenya = insights(f, "KES", &Thresholds::KES, wallet("mpesa"));
            let lesotho = insights(f, "LSL", &Thresholds::KES, wallet("vodacom-mpesa-ls"));
            let says = |list: &[Insight], word: &str| list.iter().any(|i| i.message.contains(word));
            assert!(says(&kenya, "Fuliza"));
            assert!(!says(&lesotho, "Fuliza"), "{lesotho:?}");
            assert!(says(&lesotho, "verdraft"));
            let codes = |list: &[Insight]| {
                list.iter()
                    .map(|i| (i.code.clone(), i.value))
                    .collect::<Vec<_>>()
            };
            assert_eq!(codes(&kenya), codes(&lesotho));
        }
    }

    #[test]
    fn thin_file_comes_first() {
        let f = Features {
            statement_days: 21,
            transaction_count: 6,
            ..Features::default()
        };
        let list = insights(&f, "KES", &Thresholds::KES, wallet("mpesa"));
        assert_eq!(list[0].code, "thin_file");
        assert_eq!(list[0].value, dec!(21));
        assert!(list[0].message.contains("only 21 day(s)"));
        // No regularity insight without two full months.
        assert!(find(&list, "income_regularity").is_none());
    }

    #[test]
    fn formats_money_and_percent() {
        assert_eq!(display("KES", dec!(1234567.891)), "KES 1,234,567.89");
        assert_eq!(display("UGX", dec!(-950)), "-UGX 950.00");
        assert_eq!(display("KES", dec!(0)), "KES 0.00");
        assert_eq!(percent(dec!(0.12345)), "12.3%");
    }
}
