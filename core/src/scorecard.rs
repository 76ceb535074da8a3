//! The versioned, points-based scorecard.
//!
//! `score = 300 + Σ points`, 300–850. Seven **characteristics** ([`SCORECARD`]) carry at most
//! 550 points between them. Each characteristic is made of one to three **attributes** — a
//! figure from [`Features`] — and each attribute is a table of **bins** (value ranges → points),
//! read top to bottom, first matching bin wins, the last bin always matches. An attribute that
//! cannot be measured on a statement (a thin file, no printed balances, no income) scores its
//! `missing` points, chosen as the points of a below-average bin: absence of evidence is neither
//! rewarded nor punished as hard as bad evidence.
//!
//! This is the classic points-based scorecard of Siddiqi (*Credit Risk Scorecards*, 2006/2017):
//! every bin's points are visible, add up, and give adverse-action reasons for free. The point
//! values are expert judgement ("judgmental scorecard") until Alama has repayment outcomes to fit
//! a logistic model on; then the bins keep their shape and the points are rescaled so that a
//! fixed number of points doubles the good:bad odds (see `docs/scorecard.md`). Bumping any
//! threshold or point value requires a new [`VERSION`].
//!
//! The full tables, with rationale, are in `docs/scorecard.md`; [`describe`] renders them from
//! this code and a test checks that the document shows exactly these tables.

use std::fmt::Write as _;

use rust_decimal::Decimal;

use crate::features::Features;
use crate::report::{Factor, ReasonCode};

/// Version of the scorecard; part of every report and of its id.
pub const VERSION: &str = "alama-mpesa-2026.11";

/// Lowest score; `score = BASE + Σ points`.
pub const BASE: u16 = 300;

/// Sum of every characteristic's maximum: 850 − 300.
pub const MAX_POINTS: u16 = 550;

/// A bin's range of attribute values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    /// Values `>= x`.
    AtLeast(Decimal),
    /// Values `<= x`.
    AtMost(Decimal),
    /// Every value (the last bin of each table).
    Any,
}

impl Bound {
    fn holds(self, v: Decimal) -> bool {
        match self {
            Bound::AtLeast(x) => v >= x,
            Bound::AtMost(x) => v <= x,
            Bound::Any => true,
        }
    }
}

/// One bin: a range of values and the points it earns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bin {
    /// The values this bin takes (tested in table order).
    pub bound: Bound,
    /// Points earned.
    pub points: u16,
}

/// One measured figure of a characteristic and its bins.
#[derive(Debug, Clone, Copy)]
pub struct Attribute {
    /// Stable code, e.g. `"income_cv"`.
    pub code: &'static str,
    /// What is measured, for people.
    pub name: &'static str,
    /// Unit of the value: `"ratio"`, `"days"`, `"count/month"`.
    pub unit: &'static str,
    /// Reads the value from the features; `None` = cannot be measured.
    pub value: fn(&Features) -> Option<Decimal>,
    /// Points when the value cannot be measured.
    pub missing: u16,
    /// When the value cannot be measured, for people.
    pub missing_when: &'static str,
    /// Bins, first match wins; the last is [`Bound::Any`].
    pub bins: &'static [Bin],
}

impl Attribute {
    /// The points this attribute earns on `features`.
    pub fn points(&self, features: &Features) -> u16 {
        match (self.value)(features) {
            None => self.missing,
            Some(v) => self
                .bins
                .iter()
                .find(|b| b.bound.holds(v))
                .map_or(0, |b| b.points),
        }
    }

    /// The most points this attribute can earn.
    pub fn max(&self) -> u16 {
        self.bins
            .iter()
            .map(|b| b.points)
            .max()
            .unwrap_or(0)
            .max(self.missing)
    }
}

/// A scorecard characteristic: the unit a [`Factor`] and a [`ReasonCode`] report on.
#[derive(Debug, Clone, Copy)]
pub struct Characteristic {
    /// Stable code, e.g. `"income_stability"` ([`Factor::code`]).
    pub code: &'static str,
    /// Display name ([`Factor::name`]).
    pub name: &'static str,
    /// Most points ([`Factor::max`]); equals the sum of its attributes' maxima.
    pub max: u16,
    /// Stable reason code, `"R01"`–`"R07"`.
    pub reason_code: &'static str,
    /// Adverse-action sentence used when the characteristic lost points.
    pub reason: &'static str,
    /// Why it predicts repayment, and where the thresholds come from.
    pub rationale: &'static str,
    /// The measured attributes.
    pub attributes: &'static [Attribute],
}

impl Characteristic {
    /// Points earned on `features`: the sum of the attributes' points, at most [`Self::max`].
    pub fn points(&self, features: &Features) -> u16 {
        self.attributes
            .iter()
            .map(|a| a.points(features))
            .sum::<u16>()
            .min(self.max)
    }
}

/// `num / 10^scale` as a constant.
const fn d(num: u32, scale: u32) -> Decimal {
    Decimal::from_parts(num, 0, 0, false, scale)
}

/// `-num / 10^scale` as a constant.
const fn neg(num: u32, scale: u32) -> Decimal {
    Decimal::from_parts(num, 0, 0, true, scale)
}

const fn at_least(x: Decimal, points: u16) -> Bin {
    Bin {
        bound: Bound::AtLeast(x),
        points,
    }
}

const fn at_most(x: Decimal, points: u16) -> Bin {
    Bin {
        bound: Bound::AtMost(x),
        points,
    }
}

const fn otherwise(points: u16) -> Bin {
    Bin {
        bound: Bound::Any,
        points,
    }
}

/// 1. Income stability (110 points).
pub const INCOME_STABILITY: Characteristic = Characteristic {
    code: "income_stability",
    name: "Income stability",
    max: 110,
    reason_code: "R01",
    reason: "Income is irregular, missing in some months, or not from salary or business payments",
    rationale: "Steady income is the first source of repayment. The coefficient of variation \
        bands follow the usual reading of CV (below 0.25 low, above 1 very high dispersion); \
        salary and B2C payments are verifiable income that lenders weigh more than transfers \
        between people.",
    attributes: &[
        Attribute {
            code: "income_cv",
            name: "Variation of monthly income (coefficient of variation over full 30-day months)",
            unit: "ratio",
            value: |f| f.income_cv,
            missing: 10,
            missing_when: "fewer than two full 30-day months, or no income in them",
            bins: &[
                at_most(d(25, 2), 50),
                at_most(d(40, 2), 40),
                at_most(d(60, 2), 28),
                at_most(d(90, 2), 15),
                at_most(d(130, 2), 6),
                otherwise(0),
            ],
        },
        Attribute {
            code: "income_month_share",
            name: "Share of full 30-day months with income",
            unit: "ratio",
            value: |f| f.income_month_share,
            missing: 8,
            missing_when: "fewer than two full 30-day months",
            bins: &[
                at_least(d(100, 2), 35),
                at_least(d(85, 2), 28),
                at_least(d(70, 2), 18),
                at_least(d(50, 2), 8),
                otherwise(0),
            ],
        },
        Attribute {
            code: "salary_share",
            name: "Share of income paid by employers, businesses and banks (salary, B2C, net bank funding)",
            unit: "ratio",
            value: |f| f.salary_share,
            missing: 0,
            missing_when: "no income",
            bins: &[
                at_least(d(50, 2), 25),
                at_least(d(25, 2), 18),
                at_least(d(10, 2), 10),
                at_least(d(1, 2), 4),
                otherwise(0),
            ],
        },
    ],
};

/// 2. Cash flow (90 points).
pub const CASH_FLOW: Characteristic = Characteristic {
    code: "cash_flow",
    name: "Cash flow",
    max: 90,
    reason_code: "R02",
    reason: "Spending is high relative to income (low or negative net cash flow)",
    rationale: "Net cash flow is the capacity to carry an instalment. A surplus of a fifth of \
        income or more is comfortable; spending beyond income is funded by credit or by money \
        the statement does not show.",
    attributes: &[Attribute {
        code: "net_cash_flow_ratio",
        name: "Net cash flow ÷ income",
        unit: "ratio",
        value: |f| f.net_cash_flow_ratio,
        missing: 20,
        missing_when: "a statement shorter than 30 days",
        bins: &[
            at_least(d(20, 2), 90),
            at_least(d(10, 2), 76),
            at_least(d(5, 2), 66),
            at_least(d(0, 0), 54),
            at_least(neg(10, 2), 38),
            at_least(neg(25, 2), 20),
            at_least(neg(50, 2), 8),
            otherwise(0),
        ],
    }],
};

/// 3. Balance resilience (70 points).
pub const BALANCE_RESILIENCE: Characteristic = Characteristic {
    code: "balance_resilience",
    name: "Balance resilience",
    max: 70,
    reason_code: "R03",
    reason: "The wallet balance is low or often close to zero",
    rationale: "A balance that covers some days of usual spending absorbs a shock without new \
        borrowing; a wallet that ends most days near zero lives hand to mouth (and is where \
        Fuliza steps in).",
    attributes: &[
        Attribute {
            code: "balance_buffer_days",
            name: "Average end-of-day balance ÷ average daily spending",
            unit: "days",
            value: |f| f.balance_buffer_days,
            missing: 12,
            missing_when: "the statement prints no balances",
            bins: &[
                at_least(d(10, 0), 35),
                at_least(d(5, 0), 29),
                at_least(d(2, 0), 22),
                at_least(d(1, 0), 15),
                at_least(d(5, 1), 8),
                at_least(d(2, 1), 3),
                otherwise(0),
            ],
        },
        Attribute {
            code: "near_zero_share",
            name: "Share of days ending with a balance below KES 100",
            unit: "ratio",
            value: |f| f.near_zero_share,
            missing: 12,
            missing_when: "the statement prints no balances",
            bins: &[
                at_most(d(5, 2), 35),
                at_most(d(15, 2), 28),
                at_most(d(30, 2), 20),
                at_most(d(50, 2), 10),
                at_most(d(75, 2), 4),
                otherwise(0),
            ],
        },
    ],
};

/// 4. Credit repayment (100 points).
pub const CREDIT_REPAYMENT: Characteristic = Characteristic {
    code: "credit_repayment",
    name: "Credit repayment",
    max: 100,
    reason_code: "R04",
    reason: "Heavy reliance on Fuliza or mobile loans, or borrowed amounts not repaid",
    rationale: "Repaid Fuliza, M-Shwari, KCB M-PESA, Hustler Fund and digital loans are the only \
        credit history a thin-file borrower has, so repayment earns the most points. Fuliza is \
        read both by size (drawn against income: occasional use is normal, a quarter of income \
        or more signals a structural shortfall) and by habit (an overdraft drawn every month is \
        a standing shortfall, not a bridge). CBK's concern with digital-loan stacking motivates \
        the loan-intensity bins.",
    attributes: &[
        Attribute {
            code: "repayment_coverage",
            name: "Credit repaid ÷ credit received (Fuliza, mobile and digital loans)",
            unit: "ratio",
            value: |f| f.repayment_coverage,
            missing: 30,
            missing_when: "no borrowing or repayment on the statement",
            bins: &[
                at_least(d(98, 2), 40),
                at_least(d(90, 2), 32),
                at_least(d(75, 2), 20),
                at_least(d(50, 2), 8),
                otherwise(0),
            ],
        },
        Attribute {
            code: "fuliza_reliance",
            name: "Fuliza drawn ÷ income",
            unit: "ratio",
            value: |f| f.fuliza_reliance,
            missing: 0,
            missing_when: "Fuliza drawn with no income",
            bins: &[
                at_most(d(2, 2), 20),
                at_most(d(5, 2), 16),
                at_most(d(10, 2), 11),
                at_most(d(25, 2), 5),
                otherwise(0),
            ],
        },
        Attribute {
            code: "fuliza_month_share",
            name: "Share of 30-day months with a Fuliza draw",
            unit: "ratio",
            value: |f| f.fuliza_month_share,
            missing: 0,
            missing_when: "no transactions",
            bins: &[
                at_most(d(0, 0), 20),
                at_most(d(25, 2), 15),
                at_most(d(50, 2), 9),
                at_most(d(75, 2), 4),
                otherwise(0),
            ],
        },
        Attribute {
            code: "loan_intensity",
            name: "Mobile and digital loans received ÷ income",
            unit: "ratio",
            value: |f| f.loan_intensity,
            missing: 0,
            missing_when: "loans received with no income",
            bins: &[
                at_most(d(0, 0), 20),
                at_most(d(5, 2), 15),
                at_most(d(15, 2), 10),
                at_most(d(30, 2), 5),
                otherwise(0),
            ],
        },
    ],
};

/// 5. Bill-payment discipline (50 points).
pub const BILL_PAYMENT: Characteristic = Characteristic {
    code: "bill_payment",
    name: "Bill-payment discipline",
    max: 50,
    reason_code: "R05",
    reason: "Few or irregular utility and bill payments",
    rationale: "Paying power, water, TV, internet, rent or school fees every month is \
        alternative data that credit bureaus and FICO-style alternative scores use as evidence \
        of routine obligations being met.",
    attributes: &[Attribute {
        code: "bill_month_share",
        name: "Share of full 30-day months with a utility or bill payment",
        unit: "ratio",
        value: |f| f.bill_month_share,
        missing: 10,
        missing_when: "fewer than two full 30-day months",
        bins: &[
            at_least(d(90, 2), 50),
            at_least(d(70, 2), 38),
            at_least(d(50, 2), 26),
            at_least(d(25, 2), 14),
            at_least(d(1, 2), 6),
            otherwise(0),
        ],
    }],
};

/// 6. Spending behaviour (60 points).
pub const SPENDING_BEHAVIOUR: Characteristic = Characteristic {
    code: "spending_behaviour",
    name: "Spending behaviour",
    max: 60,
    reason_code: "R06",
    reason: "A high share of spending goes to betting or to cash withdrawals",
    rationale: "Betting spend is a documented predictor of default among Kenyan mobile borrowers \
        and a concern of the Betting Control and Licensing Board and CBK; heavy cash-out moves \
        spending out of sight, so less of it can be verified.",
    attributes: &[
        Attribute {
            code: "betting_share",
            name: "Betting ÷ spending",
            unit: "ratio",
            value: |f| Some(f.betting_share),
            missing: 0,
            missing_when: "never",
            bins: &[
                at_most(d(0, 0), 35),
                at_most(d(1, 2), 30),
                at_most(d(3, 2), 20),
                at_most(d(10, 2), 8),
                otherwise(0),
            ],
        },
        Attribute {
            code: "cash_out_share",
            name: "Agent and ATM withdrawals ÷ spending",
            unit: "ratio",
            value: |f| Some(f.cash_out_share),
            missing: 0,
            missing_when: "never",
            bins: &[
                at_most(d(10, 2), 25),
                at_most(d(25, 2), 19),
                at_most(d(40, 2), 12),
                at_most(d(60, 2), 6),
                otherwise(0),
            ],
        },
    ],
};

/// 7. Account history (70 points).
pub const ACCOUNT_HISTORY: Characteristic = Characteristic {
    code: "account_history",
    name: "Account history",
    max: 70,
    reason_code: "R07",
    reason: "The statement covers a short period or has few transactions",
    rationale: "Every other characteristic is more reliable on a longer, busier statement. \
        Lenders in Kenya commonly ask for 6 to 12 months of M-Pesa statements; a few weeks is \
        a thin file.",
    attributes: &[
        Attribute {
            code: "statement_days",
            name: "Days from the first to the last transaction",
            unit: "days",
            value: |f| Some(Decimal::from(f.statement_days)),
            missing: 0,
            missing_when: "never",
            bins: &[
                at_least(d(360, 0), 45),
                at_least(d(180, 0), 36),
                at_least(d(90, 0), 25),
                at_least(d(60, 0), 16),
                at_least(d(30, 0), 8),
                otherwise(2),
            ],
        },
        Attribute {
            code: "transactions_per_month",
            name: "Completed transactions per 30 days",
            unit: "count/month",
            value: |f| Some(f.transactions_per_month),
            missing: 0,
            missing_when: "never",
            bins: &[
                at_least(d(60, 0), 25),
                at_least(d(30, 0), 20),
                at_least(d(15, 0), 14),
                at_least(d(5, 0), 7),
                otherwise(2),
            ],
        },
    ],
};

/// The scorecard, in report order.
pub const SCORECARD: [Characteristic; 7] = [
    INCOME_STABILITY,
    CASH_FLOW,
    BALANCE_RESILIENCE,
    CREDIT_REPAYMENT,
    BILL_PAYMENT,
    SPENDING_BEHAVIOUR,
    ACCOUNT_HISTORY,
];

/// Evaluates every characteristic, in scorecard order. Each factor's `score` is in
/// `0..=max`, and the maxima add up to [`MAX_POINTS`].
pub fn evaluate(features: &Features) -> Vec<Factor> {
    SCORECARD
        .iter()
        .map(|c| Factor {
            name: c.name.to_owned(),
            score: c.points(features),
            max: c.max,
            code: c.code.to_owned(),
        })
        .collect()
}

/// Reason codes for the factors that lost points, largest loss first; ties keep scorecard
/// order. Factors unknown to this scorecard get the code `"R00"`.
pub fn reason_codes(factors: &[Factor]) -> Vec<ReasonCode> {
    let mut lost: Vec<(usize, &Factor, u16)> = factors
        .iter()
        .enumerate()
        .map(|(i, f)| (i, f, f.max.saturating_sub(f.score)))
        .filter(|(_, _, l)| *l > 0)
        .collect();
    lost.sort_by(|a, b| b.2.cmp(&a.2).then(a.0.cmp(&b.0)));
    lost.into_iter()
        .map(|(_, f, points_lost)| {
            let c = SCORECARD.iter().find(|c| c.code == f.code);
            ReasonCode {
                code: c.map_or("R00", |c| c.reason_code).to_owned(),
                factor: f.code.clone(),
                points_lost,
                description: c.map_or_else(
                    || format!("{} lost points", f.name),
                    |c| c.reason.to_owned(),
                ),
            }
        })
        .collect()
}

fn bound_text(bound: Bound) -> String {
    match bound {
        Bound::AtLeast(x) => format!("≥ {x}"),
        Bound::AtMost(x) => format!("≤ {x}"),
        Bound::Any => "otherwise".to_owned(),
    }
}

/// The scorecard's tables as Markdown (the part of `docs/scorecard.md` between its
/// `<!-- scorecard:begin -->` and `<!-- scorecard:end -->` markers).
pub fn describe() -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "Scorecard `{VERSION}`: score = {BASE} + Σ points (max {MAX_POINTS})."
    );
    for (i, c) in SCORECARD.iter().enumerate() {
        let _ = writeln!(
            s,
            "\n### {}. {} — max {} points (`{}`, reason {})\n",
            i + 1,
            c.name,
            c.max,
            c.code,
            c.reason_code
        );
        let _ = writeln!(s, "{}\n", c.rationale);
        let _ = writeln!(s, "Reason when points are lost: \"{}\".", c.reason);
        for a in c.attributes {
            let _ = writeln!(
                s,
                "\n**{}** (`{}`, {}; max {})\n\n| value | points |\n|---|---:|",
                a.name,
                a.code,
                a.unit,
                a.max()
            );
            for b in a.bins {
                let _ = writeln!(s, "| {} | {} |", bound_text(b.bound), b.points);
            }
            if a.missing_when != "never" {
                let _ = writeln!(s, "| not measurable: {} | {} |", a.missing_when, a.missing);
            }
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::Band;
    use proptest::prelude::*;
    use rust_decimal_macros::dec;

    fn factor<'a>(factors: &'a [Factor], code: &str) -> &'a Factor {
        factors
            .iter()
            .find(|f| f.code == code)
            .unwrap_or_else(|| panic!("no factor {code}"))
    }

    fn points_of(attribute: &Attribute, value: Option<Decimal>) -> u16 {
        match value {
            None => attribute.missing,
            Some(v) => attribute
                .bins
                .iter()
                .find(|b| b.bound.holds(v))
                .map_or(0, |b| b.points),
        }
    }

    #[test]
    fn maxima_add_up_to_550() {
        let total: u16 = SCORECARD.iter().map(|c| c.max).sum();
        assert_eq!(total, MAX_POINTS);
        assert_eq!(BASE + MAX_POINTS, 850);
        for c in SCORECARD {
            let attrs: u16 = c.attributes.iter().map(Attribute::max).sum();
            assert_eq!(attrs, c.max, "{}", c.code);
        }
    }

    #[test]
    fn every_table_ends_with_a_catch_all_and_is_monotone() {
        for c in SCORECARD {
            for a in c.attributes {
                assert_eq!(
                    a.bins.last().map(|b| b.bound),
                    Some(Bound::Any),
                    "{}",
                    a.code
                );
                // Points never increase down the table: better values come first.
                for w in a.bins.windows(2) {
                    assert!(w[0].points >= w[1].points, "{}", a.code);
                }
                // Missing is never worth the best bin.
                assert!(a.missing < a.bins[0].points, "{}", a.code);
            }
        }
    }

    #[test]
    fn codes_are_unique_and_stable() {
        let codes: Vec<&str> = SCORECARD.iter().map(|c| c.reason_code).collect();
        assert_eq!(codes, ["R01", "R02", "R03", "R04", "R05", "R06", "R07"]);
        let names: Vec<&str> = SCORECARD.iter().map(|c| c.code).collect();
        assert_eq!(
            names,
            [
                "income_stability",
                "cash_flow",
                "balance_resilience",
                "credit_repayment",
                "bill_payment",
                "spending_behaviour",
                "account_history"
            ]
        );
    }

    /// Every bin of every table, probed at its own threshold and just past it.
    #[test]
    fn every_bin_scores_its_points_at_its_boundary() {
        let eps = dec!(0.0001);
        for c in SCORECARD {
            for a in c.attributes {
                for (i, b) in a.bins.iter().enumerate() {
                    match b.bound {
                        Bound::AtLeast(x) => {
                            assert_eq!(points_of(a, Some(x)), b.points, "{} {x}", a.code);
                            if let Some(prev) = i.checked_sub(1).map(|p| a.bins[p]) {
                                // Just below a higher threshold falls into this bin.
                                if let Bound::AtLeast(px) = prev.bound {
                                    assert_eq!(points_of(a, Some(px - eps)), b.points);
                                }
                            }
                        }
                        Bound::AtMost(x) => {
                            assert_eq!(points_of(a, Some(x)), b.points, "{} {x}", a.code);
                            if let Some(Bound::AtMost(px)) =
                                i.checked_sub(1).map(|p| a.bins[p].bound)
                            {
                                assert_eq!(points_of(a, Some(px + eps)), b.points);
                            }
                        }
                        Bound::Any => {
                            let extreme = if matches!(a.bins[0].bound, Bound::AtLeast(_)) {
                                Decimal::MIN
                            } else {
                                Decimal::MAX
                            };
                            assert_eq!(points_of(a, Some(extreme)), b.points, "{}", a.code);
                        }
                    }
                }
                assert_eq!(points_of(a, None), a.missing);
            }
        }
    }

    #[test]
    fn named_bins_score_as_documented() {
        let income = &INCOME_STABILITY.attributes[0];
        assert_eq!(points_of(income, Some(dec!(0.10))), 50);
        assert_eq!(points_of(income, Some(dec!(0.25))), 50);
        assert_eq!(points_of(income, Some(dec!(0.2501))), 40);
        assert_eq!(points_of(income, Some(dec!(2))), 0);
        let cash = &CASH_FLOW.attributes[0];
        assert_eq!(points_of(cash, Some(dec!(0.5))), 90);
        assert_eq!(points_of(cash, Some(dec!(0))), 54);
        assert_eq!(points_of(cash, Some(dec!(-0.05))), 38);
        assert_eq!(points_of(cash, Some(dec!(-3))), 0);
        let fuliza = &CREDIT_REPAYMENT.attributes[1];
        assert_eq!(points_of(fuliza, Some(dec!(0))), 20);
        assert_eq!(points_of(fuliza, Some(dec!(0.2))), 5);
        assert_eq!(points_of(fuliza, Some(dec!(0.9))), 0);
        let betting = &SPENDING_BEHAVIOUR.attributes[0];
        assert_eq!(points_of(betting, Some(dec!(0))), 35);
        assert_eq!(points_of(betting, Some(dec!(0.005))), 30);
        assert_eq!(points_of(betting, Some(dec!(0.2))), 0);
        let history = &ACCOUNT_HISTORY.attributes[0];
        assert_eq!(points_of(history, Some(dec!(366))), 45);
        assert_eq!(points_of(history, Some(dec!(21))), 2);
    }

    /// A thin statement: three weeks, a handful of rows.
    fn thin() -> Features {
        Features {
            statement_days: 21,
            transaction_count: 8,
            months_covered: 1,
            transactions_per_month: dec!(8),
            total_income: dec!(9000),
            average_monthly_income: dec!(9000),
            salary_share: Some(dec!(0)),
            net_cash_flow_ratio: None,
            average_daily_balance: Some(dec!(800)),
            near_zero_share: Some(dec!(0.1)),
            balance_buffer_days: Some(dec!(2)),
            fuliza_reliance: Some(dec!(0)),
            fuliza_month_share: Some(dec!(0)),
            loan_intensity: Some(dec!(0)),
            ..Features::default()
        }
    }

    #[test]
    fn a_thin_statement_scores_with_low_history() {
        let factors = evaluate(&thin());
        let history = factor(&factors, "account_history");
        assert_eq!(history.score, 2 + 7);
        let income = factor(&factors, "income_stability");
        assert_eq!(income.score, 10 + 8);
        let score = BASE + factors.iter().map(|f| f.score).sum::<u16>();
        assert!((300..=850).contains(&score));
        let reasons = reason_codes(&factors);
        assert_eq!(reasons[0].code, "R01", "{reasons:?}");
        assert!(reasons.iter().any(|r| r.code == "R07"));
    }

    #[test]
    fn the_best_features_score_850_and_the_worst_300() {
        let best = Features {
            statement_days: 400,
            transactions_per_month: dec!(100),
            income_cv: Some(dec!(0.1)),
            income_month_share: Some(dec!(1)),
            salary_share: Some(dec!(0.8)),
            net_cash_flow_ratio: Some(dec!(0.3)),
            balance_buffer_days: Some(dec!(30)),
            near_zero_share: Some(dec!(0)),
            repayment_coverage: Some(dec!(1)),
            fuliza_reliance: Some(dec!(0)),
            fuliza_month_share: Some(dec!(0)),
            loan_intensity: Some(dec!(0)),
            bill_month_share: Some(dec!(1)),
            ..Features::default()
        };
        let factors = evaluate(&best);
        assert_eq!(factors.iter().map(|f| f.score).sum::<u16>(), MAX_POINTS);
        assert!(reason_codes(&factors).is_empty());
        let worst = Features {
            income_cv: Some(dec!(3)),
            income_month_share: Some(dec!(0.2)),
            salary_share: Some(dec!(0)),
            net_cash_flow_ratio: Some(dec!(-1)),
            balance_buffer_days: Some(dec!(0)),
            near_zero_share: Some(dec!(1)),
            repayment_coverage: Some(dec!(0.1)),
            fuliza_reliance: Some(dec!(2)),
            fuliza_month_share: Some(dec!(1)),
            loan_intensity: Some(dec!(2)),
            bill_month_share: Some(dec!(0)),
            betting_share: dec!(0.5),
            cash_out_share: dec!(0.9),
            transactions_per_month: dec!(1),
            statement_days: 1,
            ..Features::default()
        };
        let factors = evaluate(&worst);
        // Account history never drops below its floor of 2 + 2.
        assert_eq!(factors.iter().map(|f| f.score).sum::<u16>(), 4);
    }

    #[test]
    fn reason_codes_order_by_points_lost_then_scorecard_order() {
        let f = |code: &str, score, max| Factor {
            name: code.to_owned(),
            score,
            max,
            code: code.to_owned(),
        };
        let factors = vec![
            f("income_stability", 100, 110),
            f("cash_flow", 80, 90),
            f("balance_resilience", 70, 70),
            f("credit_repayment", 50, 100),
            f("bill_payment", 40, 50),
            f("spending_behaviour", 60, 60),
            f("account_history", 20, 70),
        ];
        let r = reason_codes(&factors);
        let got: Vec<(&str, u16)> = r.iter().map(|r| (r.code.as_str(), r.points_lost)).collect();
        assert_eq!(
            got,
            [
                ("R04", 50),
                ("R07", 50),
                ("R01", 10),
                ("R02", 10),
                ("R05", 10)
            ]
        );
        assert_eq!(r[0].factor, "credit_repayment");
        assert_eq!(r[0].description, CREDIT_REPAYMENT.reason);
    }

    #[test]
    fn bands_cover_the_whole_range_without_gaps() {
        let mut expected_lo = 300;
        for (_, lo, hi) in Band::RANGES {
            assert_eq!(lo, expected_lo);
            assert!(hi >= lo);
            expected_lo = hi + 1;
        }
        assert_eq!(expected_lo, 851);
        assert_eq!(Band::of(300), Band::Poor);
        assert_eq!(Band::of(579), Band::Poor);
        assert_eq!(Band::of(580), Band::Fair);
        assert_eq!(Band::of(850), Band::Excellent);
    }

    #[test]
    fn docs_show_these_tables() {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/scorecard.md");
        let doc = std::fs::read_to_string(path).unwrap_or_default();
        let begin = "<!-- scorecard:begin -->\n";
        let end = "<!-- scorecard:end -->";
        let inner = doc
            .split_once(begin)
            .and_then(|(_, rest)| rest.split_once(end))
            .map(|(inner, _)| inner);
        assert!(
            inner == Some(describe().as_str()),
            "docs/scorecard.md is out of date: paste scorecard::describe() between its markers"
        );
    }

    /// The real statements of `../shared/samples/real/` (see its README), parsed once: every
    /// one is categorised with less than 10 % `Other` rows and scores in a plausible middle
    /// range. Prints counts and points only, never personal data; skips when the folder is
    /// absent. (About 30 s in a debug build: three PDFs of up to 117 pages.)
    #[test]
    fn real_samples_are_categorised_and_score_plausibly() {
        let dir =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/samples/real");
        if !dir.is_dir() {
            eprintln!(
                "note: {} is absent; skipping the real-sample check",
                dir.display()
            );
            return;
        }
        let samples = [
            ("mpesa_2019-08_to_2021-derived_processed.csv", None),
            (
                "mpesa_2021-03_to_2021-09_unencrypted_itext_TRUNCATED.pdf",
                None,
            ),
            (
                "mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf",
                Some("183177"),
            ),
            ("mpesa_2024-04_to_2024-10_unlocked_ilovepdf.pdf", None),
        ];
        let mut scores = Vec::new();
        for (name, password) in samples {
            let Ok(bytes) = std::fs::read(dir.join(name)) else {
                eprintln!("note: {name} is absent; skipped");
                continue;
            };
            let options = crate::ParseOptions {
                password: password.map(str::to_owned),
                ..crate::ParseOptions::default()
            };
            let statement = crate::parse(&bytes, &options).expect("a real sample parses");
            let rows = statement.transactions.len();
            let other = statement
                .transactions
                .iter()
                .filter(|t| t.category == crate::Category::Other)
                .count();
            let report = crate::score(&statement).expect("a real sample scores");
            let points: Vec<String> = report
                .factors
                .iter()
                .map(|f| format!("{}={}/{}", f.code, f.score, f.max))
                .collect();
            eprintln!(
                "{name}: {rows} rows, {other} Other; score {} {}; {}",
                report.score,
                report.band.as_str(),
                points.join(" ")
            );
            assert!(rows > 0);
            assert!(
                other * 10 < rows,
                "{name}: {other} of {rows} rows are Other"
            );
            assert!(
                (600..=780).contains(&report.score),
                "{name}: {}",
                report.score
            );
            assert!(report.factors.iter().any(|f| f.score < f.max));
            scores.push(report.score);
        }
        eprintln!("scores: {scores:?}");
    }

    fn decimal() -> impl Strategy<Value = Decimal> {
        prop_oneof![
            (-2_000_000i64..2_000_000, 0u32..5).prop_map(|(n, s)| Decimal::new(n, s)),
            Just(Decimal::ZERO),
            Just(Decimal::MAX),
            Just(Decimal::MIN),
        ]
    }

    fn opt_decimal() -> impl Strategy<Value = Option<Decimal>> {
        proptest::option::of(decimal())
    }

    prop_compose! {
        /// Arbitrary features: any value in any field, including ones no statement produces.
        fn arb_features()(
            ratios in proptest::collection::vec(opt_decimal(), 11),
            plain in proptest::collection::vec(decimal(), 3),
            days in any::<u32>(),
        ) -> Features {
            Features {
                statement_days: days,
                transactions_per_month: plain[0],
                betting_share: plain[1],
                cash_out_share: plain[2],
                income_cv: ratios[0],
                income_month_share: ratios[1],
                salary_share: ratios[2],
                net_cash_flow_ratio: ratios[3],
                balance_buffer_days: ratios[4],
                near_zero_share: ratios[5],
                repayment_coverage: ratios[6],
                fuliza_reliance: ratios[7],
                loan_intensity: ratios[8],
                bill_month_share: ratios[9],
                fuliza_month_share: ratios[10],
                ..Features::default()
            }
        }
    }

    proptest! {
        #[test]
        fn factor_points_stay_within_their_maxima(features in arb_features()) {
            let factors = evaluate(&features);
            prop_assert_eq!(factors.len(), SCORECARD.len());
            for (f, c) in factors.iter().zip(SCORECARD.iter()) {
                prop_assert!(f.score <= f.max);
                prop_assert_eq!(f.max, c.max);
                prop_assert_eq!(&f.code, c.code);
            }
            let score = BASE + factors.iter().map(|f| f.score).sum::<u16>();
            prop_assert!((300..=850).contains(&score));
            let reasons = reason_codes(&factors);
            for w in reasons.windows(2) {
                prop_assert!(w[0].points_lost >= w[1].points_lost);
            }
            let lost: u16 = reasons.iter().map(|r| r.points_lost).sum();
            prop_assert_eq!(lost + score, 850);
        }

        #[test]
        fn every_score_has_exactly_one_band(score in 300u16..=850) {
            let containing = Band::RANGES
                .iter()
                .filter(|(_, lo, hi)| (*lo..=*hi).contains(&score))
                .count();
            prop_assert_eq!(containing, 1);
            let band = Band::of(score);
            prop_assert!(Band::RANGES.iter().any(|(b, lo, hi)| *b == band && (*lo..=*hi).contains(&score)));
        }
    }
}
