//! Ghana's Electronic Transfer Levy (E-LEVY), as data: the rate the law set on each day, which
//! MTN MoMo Ghana prints in its `E-LEVY` column (docs/research/tariffs.md §2.1, with every
//! source):
//! - 1.5 % from 1 May 2022: Electronic Transfer Levy Act, 2022 (Act 1075), s.1(1); the start
//!   date from the Ghana Revenue Authority (GRA);
//! - 1 % from 11 January 2023: Electronic Transfer Levy (Amendment) Act, 2022 (Act 1089), in
//!   force on 1 January 2023; the telecoms' systems charged 1 % from 11 January (Ghana Chamber
//!   of Telecommunications, `GhanaWeb`, 11 January 2023), so 1.5 % is allowed until then;
//! - none from 2 April 2025: Electronic Transfer Levy (Repeal) Act, 2025 (Act 1128), assented 2
//!   April 2025; the GRA ordered "no charge" from midnight and every levy deducted on 2 April or
//!   after refunded. Its Commissioner-General said on 3 April that some systems were still being
//!   updated and that anyone levied meanwhile would be refunded (anapuafm.com and
//!   johnmahama.news, 3 April 2025), so a levy printed in April 2025 is allowed (its refund is
//!   another row) and one printed from 1 May 2025 is not: a decision, a month's grace for a
//!   charging system updated late.
//!
//! Only the most a levy may be: the law exempts the first GHS 100 of a person's transfers each
//! day, counted over every account that person holds (GRA's E-Levy Management and Assurance
//! System, by Ghana Card), and transfers between one's own accounts, specified merchant payments,
//! cash-in and cash-out. None of that is on one statement, so a levy below the rate is no
//! evidence. On the genuine 2025 sample the one levied row, GHS 0.10 on 9.50 (26 March 2025), is
//! 1 % rounded up to the pesewa.

use chrono::NaiveDate;
use rust_decimal::{Decimal, RoundingStrategy};

/// For messages: the laws the rates come from.
pub(super) const SOURCE: &str = "Ghana's Electronic Transfer Levy Act, 2022 (Act 1075: 1.5 % from \
                                 1 May 2022), its Amendment Act 1089 (1 % from January 2023) and \
                                 the Repeal Act 2025 (Act 1128: none from 2 April 2025; levies of \
                                 April 2025 refunded, none allowed from 1 May 2025)";

/// The first day of each rate, in basis points (1.5 % = 150), oldest first; before the first,
/// none.
const RATES: [(NaiveDate, u32); 3] = [
    (day(2022, 5, 1), 150),
    (day(2023, 1, 11), 100),
    // Repealed on 2 April 2025; levies deducted after it were refunded (a month's grace).
    (day(2025, 5, 1), 0),
];

const fn day(year: i32, month: u32, day: u32) -> NaiveDate {
    match NaiveDate::from_ymd_opt(year, month, day) {
        Some(d) => d,
        None => panic!("a valid date"),
    }
}

/// The most E-LEVY the law allows on a row completed on `day` (Ghana time, GMT) that
/// transferred `value` cedis (its fee and levy left out), rounded up to the pesewa: the rate in
/// force that day times the value; 0 before 1 May 2022 and from 1 May 2025.
pub(super) fn most(day: NaiveDate, value: Decimal) -> Decimal {
    let rate = RATES
        .iter()
        .rev()
        .find(|(from, _)| *from <= day)
        .map_or(0, |(_, bp)| *bp);
    (value.max(Decimal::ZERO) * Decimal::new(i64::from(rate), 4))
        .round_dp_with_strategy(2, RoundingStrategy::AwayFromZero)
}

#[cfg(test)]
mod tests {
    use super::{day, most};
    use rust_decimal::Decimal;

    fn d(s: &str) -> Decimal {
        s.parse().expect("a decimal")
    }

    #[test]
    fn the_rate_of_each_day_rounded_up_to_the_pesewa() {
        // The genuine sample's levied row: 1 % of 9.50 is 0.095.
        assert_eq!(most(day(2025, 3, 26), d("9.50")), d("0.10"));
        // 1.5 % in 2022, and until the telecoms switched on 11 January 2023.
        assert_eq!(most(day(2022, 5, 1), d("200")), d("3.00"));
        assert_eq!(most(day(2023, 1, 10), d("200")), d("3.00"));
        assert_eq!(most(day(2023, 1, 11), d("200")), d("2.00"));
        // Levies of April 2025, refunded, may show; none after.
        assert_eq!(most(day(2025, 4, 30), d("200")), d("2.00"));
        assert_eq!(most(day(2025, 5, 1), d("200")), Decimal::ZERO);
        assert_eq!(most(day(2022, 4, 30), d("200")), Decimal::ZERO);
    }
}
