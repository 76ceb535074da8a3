//! Income recency (issue 51): an income the holder's own pay cycle expects and that has not
//! arrived by the request date costs Income stability points with a reason; one that arrived
//! in the month of the request counts; a loss just before the request weighs more than the
//! same loss a year before. In every market (`ALAMA_BEHAVIOUR_CURRENCY`).

use super::*;

/// A holder paid `salary` on `payday` every month from 1 January 2024 to the request date
/// `end`; rent on the 3rd, power on the 5th, shopping four times a month, airtime on the 10th.
pub(super) fn paid_on(payday: u32, salary: u64, end: NaiveDate) -> Statement {
    let start = NaiveDate::from_ymd_opt(2024, 1, 1).unwrap_or_default();
    let pct = |p: u64| Decimal::from(salary * p / 100);
    let mut rows = Vec::new();
    let mut d = start;
    while d <= end {
        let at = |h| d.and_hms_opt(h, 0, 0).unwrap_or_default();
        let day = chrono::Datelike::day(&d);
        let spend: Option<(&str, Decimal)> = match day {
            3 => Some(("Pay Bill to 777777 - HOUSE RENT Acc. 1", -pct(30))),
            5 => Some(("Pay Bill Online to 888880 - KPLC PREPAID Acc. 1", -pct(4))),
            7 | 14 | 21 | 27 => Some(("Merchant Payment to 512345 - UMOJA SUPERMARKET", -pct(10))),
            10 => Some(("Airtime Purchase", -pct(2))),
            _ => None,
        };
        if let Some((details, amount)) = spend {
            rows.push((at(12), details, amount));
        }
        if day == payday {
            rows.push((
                at(8),
                "Salary Payment from 600111 - SAVANNAH LOGISTICS LTD",
                Decimal::from(salary),
            ));
        }
        d += Duration::days(1);
    }
    let empty = Statement {
        currency: "KES".to_owned(),
        currency_exponent: None,
        period: Some(alama_core::statement::Period { start, end }),
        requested_at: end.succ_opt(),
        ..Statement::default()
    };
    let mut s = edits::insert_rows(&empty, &rows);
    edits::rebalance(&mut s, Decimal::from(salary));
    s
}

fn is_salary(t: &alama_core::Transaction) -> bool {
    t.details.starts_with("Salary Payment")
}

/// The statement without the salaries paid in the months `months` (1–12, 2024).
fn without_salaries(s: &Statement, months: &[u32]) -> Statement {
    edits::delete_rows(s, |t| {
        !(is_salary(t) && months.contains(&chrono::Datelike::month(&t.completed_at)))
    })
}

fn income_stability(r: &alama_core::Report) -> u16 {
    r.factors
        .iter()
        .find(|f| f.code == "income_stability")
        .map_or(0, |f| f.score)
}

fn names_recency(r: &alama_core::Report) -> bool {
    r.reason_codes
        .iter()
        .any(|c| c.code == "R01" && c.attribute == "income_recency")
}

proptest! {
    #![proptest_config(config())]

    /// Requested 17 to 25 days after November's payday (past the half cycle of grace), a
    /// November salary that never came lowers the score and says so (R01, income_recency).
    #[test]
    fn an_expected_income_that_did_not_come_lowers_the_score(
        payday in 1u32..=28, late in 17i64..=25, salary in 8u64..200,
    ) {
        let november = NaiveDate::from_ymd_opt(2024, 11, payday).unwrap_or_default();
        let paid = paid_on(payday, salary * 1_000, november + Duration::days(late));
        let missing = without_salaries(&paid, &[11]);
        let (a, b) = (report(&paid), report(&missing));
        prop_assert!(b.score < a.score, "{} >= {}", b.score, a.score);
        prop_assert!(income_stability(&b) < income_stability(&a));
        prop_assert!(names_recency(&b), "{:?}", b.reason_codes);
    }

    /// An income that came in the month of the request counts: the holder paid this month
    /// loses no recency points, whenever the request is made after payday.
    #[test]
    fn an_income_that_came_in_the_month_of_the_request_counts(
        payday in 1u32..=28, late in 0i64..=25, salary in 8u64..200,
    ) {
        let november = NaiveDate::from_ymd_opt(2024, 11, payday).unwrap_or_default();
        let paid = paid_on(payday, salary * 1_000, november + Duration::days(late));
        let a = report(&paid);
        prop_assert!(!names_recency(&a), "{:?}", a.reason_codes);
        prop_assert!(a.score >= report(&without_salaries(&paid, &[11])).score);
    }

    /// The same number of salaries lost at the end of a year requested on 31 December (paid on
    /// or before the 12th, so the December one is past its grace) costs more Income stability
    /// than when they were lost at its start: the full months count both alike, recency only
    /// the recent one.
    #[test]
    fn a_recent_loss_weighs_more_than_an_old_one(
        payday in 1u32..=12, lost in 1usize..=3, salary in 8u64..200,
    ) {
        let year = paid_on(payday, salary * 1_000, NaiveDate::from_ymd_opt(2024, 12, 31).unwrap_or_default());
        let months: Vec<u32> = (1..=12).collect();
        let recent = report(&without_salaries(&year, &months[12 - lost..]));
        let old = report(&without_salaries(&year, &months[..lost]));
        prop_assert!(
            income_stability(&recent) < income_stability(&old),
            "recent {} old {}", income_stability(&recent), income_stability(&old)
        );
        prop_assert!(names_recency(&recent) && !names_recency(&old));
    }
}
