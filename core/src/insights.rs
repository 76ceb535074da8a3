//! Typed insights of a report: a stable code, one sentence for a person, and the figure behind
//! it ([`Insight`]).
//!
//! Values are exact decimals, rounded so that the JSON is stable: money to 2 decimal places in
//! the statement's currency (unit `"KES"`, `"UGX/month"`, …), ratios to 4 (`"ratio"`, 0–1), counts and days as integers. Insights
//! appear in a fixed order; the thin-file warning, when present, comes first.
//!
//! Months are calendar months everywhere (see [`crate::features`]).
//!
//! The sentences: each names its measure (income is an *average per 30 days*, beside the
//! *typical month* the scorecard's `R08` quotes, the median of the full calendar months); counts
//! are in the singular or plural, never "(s)"; no count of months is larger than the statement
//! ("in 2 calendar months of its 41 days", not "of 3 months"); amounts are in the currency's
//! customary form ([`crate::money::display`]: UGX without decimals), while `value` stays exact.
//! A figure alone says little ("0%"): readers print it under its [`title`].
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
//!
//! Why this file is long (about 470 lines of code, over the guide's ~400, then its tests): it
//! is one concept, the sentences of a report, one small function per insight in report order,
//! with the helpers their wording shares (plurals, month counts, titles, figures); split, the
//! wording would no longer read as one voice, and a change of tone would touch several files.

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

/// `count` with its noun, singular or plural: `1 day`, `0 days`, `3 payments`.
pub(crate) fn plural(count: u32, one: &str, many: &str) -> String {
    format!("{count} {}", if count == 1 { one } else { many })
}

/// How many of the statement's months something happened in, never counting more months than
/// the statement covers: `"6 of 6 months"` when every month it touches is a full calendar
/// month, else `"2 calendar months of its 41 days"` (a 41-day statement touches three calendar
/// months, which "of 3 months" would overstate).
fn months_of(months: u32, f: &Features) -> String {
    if f.months_covered > 0 && f.months_covered == f.full_months {
        format!(
            "{months} of {}",
            plural(f.months_covered, "month", "months")
        )
    } else {
        format!(
            "{} of its {}",
            plural(months, "calendar month", "calendar months"),
            plural(f.statement_days, "day", "days")
        )
    }
}

/// An insight's figure for a person, by its unit ([`Insight::unit`]): money in the currency's
/// customary form (`"UGX 4,134,194 / month"`, `"KES 1,234.50"`), ratios as percentages
/// (`"37.5%"`, `"0%"`), counts grouped, months and days with their unit in the singular or
/// plural. Print it under its [`title`]: alone, `"0%"` says nothing.
pub fn figure(value: Decimal, unit: &str, currency: &str) -> String {
    let per_month = unit.strip_suffix("/month");
    // A plain decimal without trailing zeros: `12.50` → `"12.5"`, `3.00` → `"3"`.
    let plain = |v: Decimal| {
        let n = v.normalize();
        crate::money::grouped(n, n.scale().min(2))
    };
    let one = value == Decimal::ONE;
    match unit {
        u if u == currency || u == "money" => display(currency, value),
        _ if per_month.is_some_and(|u| u == currency || u == "money") => {
            format!("{} / month", display(currency, value))
        }
        "ratio" => {
            let pct = crate::money::grouped(value.saturating_mul(Decimal::ONE_HUNDRED), 1);
            format!("{}%", pct.strip_suffix(".0").unwrap_or(&pct))
        }
        "months" if one => "1 month".to_owned(),
        "months" => format!("{} months", plain(value)),
        "days" if one => "1 day".to_owned(),
        "days" => format!("{} days", plain(value)),
        "count" | "" => plain(value),
        other => format!("{} {other}", plain(value)),
    }
}

/// What an insight's figure is, for a headline above it (`"Average income"`), in the words of
/// the statement's wallet (`provider`: `"Fuliza drawn"` on Safaricom M-Pesa, `"Overdraft
/// drawn"` elsewhere); `None` for a code this version does not write. The figure alone
/// (`"0%"`) says nothing; the report's readers (the PDF, the portal) print this title with it.
pub fn title(code: &str, wallet: &Wallet) -> Option<&'static str> {
    let fuliza = Overdraft::of(wallet).subject == "Fuliza";
    Some(match code {
        "thin_file" => "Statement length",
        "average_monthly_income" => "Average income",
        "income_regularity" => "Income variation",
        "salary_share" => "Income paid by employers and businesses",
        "net_monthly_cash_flow" => "Net cash flow",
        "average_balance" => "Average end-of-day balance",
        "fuliza_reliance" if fuliza => "Fuliza drawn, share of income",
        "fuliza_reliance" => "Overdraft drawn, share of income",
        "fuliza_drawn" if fuliza => "Fuliza drawn",
        "fuliza_drawn" => "Overdraft drawn",
        "mobile_loans" => "Loans received",
        "betting_share" => "Betting, share of spending",
        "cash_out_share" => "Cash withdrawn, share of spending",
        "bill_payment_months" => "Months with bill payments",
        "affordable_instalment" => "Affordable monthly instalment",
        _ => return None,
    })
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
                "The statement covers only {} with {}; scores are more reliable on 6 to 12 months",
                plural(f.statement_days, "day", "days"),
                plural(
                    f.transaction_count,
                    "completed transaction",
                    "completed transactions"
                )
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

/// Names both measures of income, so that the insight and the scorecard's reason (`R08`,
/// "Typical monthly income") agree: the average per 30 days over the whole statement, and the
/// typical month, the median of the full calendar months (the average when there is none).
fn average_income(f: &Features, cur: &str, overdraft: &Overdraft) -> Insight {
    let typical = match f.full_months {
        0 => "; with no full calendar month, the typical monthly income is the same figure"
            .to_owned(),
        1 => format!(
            "; its one full calendar month (the typical month) brought {}",
            display(cur, f.typical_monthly_income)
        ),
        n => format!(
            "; the typical month (the median of {n} full calendar months) brought {}",
            display(cur, f.typical_monthly_income)
        ),
    };
    insight(
        "average_monthly_income",
        format!(
            "Average income is {} per 30 days over {}{typical}. Income is money in less loans, \
             {}, savings, reversals, betting winnings, round trips and bank transfers that do \
             not recur",
            display(cur, f.average_monthly_income),
            plural(f.statement_days, "day", "days"),
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
             variation over {})",
            percent(cv),
            plural(f.full_months, "full calendar month", "full calendar months")
        ),
        ratio4(cv),
        "ratio",
    ))
}

fn salary_share(f: &Features) -> Option<Insight> {
    let share = f.salary_share?;
    Some(insight(
        "salary_share",
        if share.is_zero() {
            "No income is paid by employers, businesses or banks (B2C)".to_owned()
        } else {
            format!(
                "{} of income is paid by employers, businesses and banks (B2C) rather than by \
                 people",
                percent(share)
            )
        },
        ratio4(share),
        "ratio",
    ))
}

fn net_cash_flow(f: &Features, cur: &str) -> Insight {
    insight(
        "net_monthly_cash_flow",
        if f.full_months == 0 {
            format!(
                "Income minus spending (credit fees included) comes to {} per 30 days",
                display(cur, f.average_monthly_net_cash_flow)
            )
        } else {
            format!(
                "Income minus spending (credit fees included) averages {} a month over {}",
                display(cur, f.average_monthly_net_cash_flow),
                plural(f.full_months, "full calendar month", "full calendar months")
            )
        },
        money(f.average_monthly_net_cash_flow),
        &format!("{cur}/month"),
    )
}

fn average_balance(f: &Features, cur: &str, near_zero: Decimal) -> Option<Insight> {
    let avg = f.average_daily_balance?;
    // An edge of the card, shown as the card writes it: "KES 100", "GHS 3.20".
    let edge = display(cur, near_zero)
        .strip_suffix(".00")
        .map_or_else(|| display(cur, near_zero), str::to_owned);
    let below = if f.days_near_zero == 0 {
        format!(
            "never below {edge} over {}",
            plural(f.statement_days, "day", "days")
        )
    } else {
        format!(
            "below {edge} on {} of {}",
            f.days_near_zero,
            plural(f.statement_days, "day", "days")
        )
    };
    Some(insight(
        "average_balance",
        format!(
            "The wallet ends the day with {} on average, and {below}",
            display(cur, avg)
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
                    "{} drawn equals {} of income: {} totalling {}, in {}",
                    overdraft.subject,
                    percent(r),
                    plural(f.fuliza_draw_count, "draw", "draws"),
                    display(cur, f.fuliza_drawn),
                    months_of(f.fuliza_months, f)
                )
            },
            ratio4(r),
            "ratio",
        ),
        None => insight(
            "fuliza_drawn",
            format!(
                "{} was drawn {} ({}) with no income on the statement",
                overdraft.subject,
                plural(f.fuliza_draw_count, "time", "times"),
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
                "{} received ({}); {} repaid on the statement",
                plural(count, "mobile or digital loan", "mobile or digital loans"),
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
        if f.cash_out.is_zero() {
            "No cash was withdrawn at agents".to_owned()
        } else {
            format!(
                "{} of spending is withdrawn as cash at agents ({})",
                percent(f.cash_out_share),
                display(cur, f.cash_out)
            )
        },
        ratio4(f.cash_out_share),
        "ratio",
    )
}

fn bills(f: &Features) -> Insight {
    insight(
        "bill_payment_months",
        if f.bill_payment_count == 0 {
            format!(
                "No utility or bill payments over the statement's {}",
                plural(f.statement_days, "day", "days")
            )
        } else {
            format!(
                "Utility or bill payments in {} ({})",
                months_of(f.bill_payment_months, f),
                plural(f.bill_payment_count, "payment", "payments")
            )
        },
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
        assert!(
            list[0]
                .message
                .starts_with("The statement covers only 21 days with 6 completed transactions;"),
            "{}",
            list[0].message
        );
        // No regularity insight without two full months.
        assert!(find(&list, "income_regularity").is_none());
    }

    #[test]
    fn formats_money_and_percent() {
        assert_eq!(display("KES", dec!(1234567.891)), "KES 1,234,567.89");
        assert_eq!(display("UGX", dec!(-950)), "-UGX 950");
        assert_eq!(display("KES", dec!(0)), "KES 0.00");
        assert_eq!(percent(dec!(0.12345)), "12.3%");
    }

    /// The messages speak English: no "(s)", one of a thing in the singular, and no count of
    /// months larger than the statement (a 41-day statement touching three calendar months).
    #[test]
    fn plurals_and_month_counts_fit_the_statement() {
        let short = Features {
            statement_days: 41,
            transaction_count: 1,
            months_covered: 3,
            full_months: 1,
            bill_payment_count: 1,
            bill_payment_months: 1,
            fuliza_draw_count: 1,
            fuliza_drawn: dec!(200),
            fuliza_months: 1,
            fuliza_reliance: Some(dec!(0.01)),
            mobile_loan_count: 1,
            typical_monthly_income: dec!(29000),
            ..base()
        };
        let list = insights(&short, "GHS", &Thresholds::KES, wallet("mtn-momo-gh"));
        let text: Vec<&str> = list.iter().map(|i| i.message.as_str()).collect();
        for t in &text {
            assert!(!t.contains("(s)"), "{t}");
            assert!(!t.contains("of 3 months"), "{t}");
        }
        let message = |code| {
            find(&list, code)
                .map(|i| i.message.clone())
                .unwrap_or_default()
        };
        assert!(message("thin_file").contains("41 days with 1 completed transaction;"));
        assert_eq!(
            message("bill_payment_months"),
            "Utility or bill payments in 1 calendar month of its 41 days (1 payment)"
        );
        assert!(
            message("fuliza_reliance")
                .ends_with(": 1 draw totalling GHS 200.00, in 1 calendar month of its 41 days"),
            "{}",
            message("fuliza_reliance")
        );
        assert!(message("mobile_loans").starts_with("1 mobile or digital loan received"));
        // A statement of whole months counts them.
        let whole = Features {
            bill_payment_count: 13,
            bill_payment_months: 12,
            months_covered: 12,
            full_months: 12,
            ..base()
        };
        let list = insights(&whole, "KES", &Thresholds::KES, wallet("mpesa"));
        assert_eq!(
            find(&list, "bill_payment_months").map(|i| i.message.as_str()),
            Some("Utility or bill payments in 12 of 12 months (13 payments)")
        );
        let none = insights(&base(), "KES", &Thresholds::KES, wallet("mpesa"));
        assert_eq!(
            find(&none, "bill_payment_months").map(|i| i.message.as_str()),
            Some("No utility or bill payments over the statement's 365 days")
        );
    }

    /// The income insight names its measure (an average per 30 days) and the typical month the
    /// scorecard's `typical_monthly_income` reason quotes, with the same figure.
    #[test]
    fn the_income_insight_names_average_and_typical() {
        let f = Features {
            typical_monthly_income: dec!(28500.5),
            ..base()
        };
        let list = insights(&f, "KES", &Thresholds::KES, wallet("mpesa"));
        let m = find(&list, "average_monthly_income")
            .map(|i| i.message.clone())
            .unwrap_or_default();
        assert!(
            m.starts_with("Average income is KES 30,000.00 per 30 days over 365 days;"),
            "{m}"
        );
        assert!(
            m.contains(
                "the typical month (the median of 12 full calendar months) brought KES 28,500.50"
            ),
            "{m}"
        );
        let ugx = insights(&f, "UGX", &Thresholds::KES, wallet("airtel-money-ug"));
        let m = find(&ugx, "average_monthly_income")
            .map(|i| i.message.clone())
            .unwrap_or_default();
        assert!(
            m.contains("UGX 30,000 per 30 days") && m.contains("brought UGX 28,501"),
            "{m}"
        );
        assert!(m.contains("less loans, overdrafts,"), "{m}");
        let none = Features {
            full_months: 0,
            ..f
        };
        let list = insights(&none, "KES", &Thresholds::KES, wallet("mpesa"));
        let m = find(&list, "average_monthly_income")
            .map(|i| i.message.clone())
            .unwrap_or_default();
        assert!(
            m.contains(
                "with no full calendar month, the typical monthly income is the same figure"
            ),
            "{m}"
        );
    }

    /// Every code the engine writes has a title, in the wallet's words.
    #[test]
    fn every_insight_has_a_title() {
        let thin = Features {
            statement_days: 20,
            mobile_loan_count: 1,
            ..base()
        };
        for p in [wallet("mpesa"), wallet("airtel-money-ug")] {
            for i in insights(&thin, "KES", &Thresholds::KES, p) {
                assert!(title(&i.code, p).is_some(), "{}", i.code);
            }
        }
        assert_eq!(
            title("fuliza_reliance", wallet("mpesa")),
            Some("Fuliza drawn, share of income")
        );
        assert_eq!(
            title("fuliza_drawn", wallet("mtn-momo-gh")),
            Some("Overdraft drawn")
        );
        assert_eq!(title("nonsense", wallet("mpesa")), None);
    }
}
