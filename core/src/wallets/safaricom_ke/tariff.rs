//! Safaricom's published M-Pesa tariff, as data: the charge on a send to a registered user
//! (`Customer Transfer to …`, its charge row `Customer Transfer of Funds Charge`) and on an
//! agent withdrawal (`Customer Withdrawal At Agent Till …`, its charge row `Withdrawal
//! Charge`), in whole shillings, by band of the amount (bounds inclusive, as Safaricom prints
//! them) and by the day the row completed (East Africa Time).
//!
//! Sources (docs/research/tariffs.md §1, with every URL):
//! - 1 January 2021 (sends; withdrawals "remain the same" as 1 July 2018): `HapaKenya`, "New
//!   M-PESA charges effective January 1 2021" (5 Jan 2021); the withdrawal bands from 15,001
//!   up from Safaricom's July 2018 notice as reported by Nairobi News;
//! - 29 July 2023 (Finance Act 2023, excise 12 % → 15 %): Safaricom's notice as quoted by The
//!   Standard and Nation, the table as printed on 29 Jul 2023 and by every later source
//!   (2025, 2026); the top band runs to KES 250,000 from 5 February 2024.
//!
//! Confirmed against the charge rows of the six genuine Kenyan PDFs of `../shared/samples/real/`
//! (2021-03 to 2024-10): 1,576 of 1,576 sends and 174 of 174 agent withdrawals. Rows before
//! 1 January 2021 (the COVID-19 waiver of 16 March to 31 December 2020, the 2018 send table,
//! which no genuine sample confirms) are not checked; nor are amounts with cents, below a
//! table's first band or above its last.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::statement::Transaction;

/// One band: amounts up to `up_to` shillings (inclusive, above the previous band's) are
/// charged `charge` shillings.
struct Band {
    up_to: u32,
    charge: u16,
}

const fn b(up_to: u32, charge: u16) -> Band {
    Band { up_to, charge }
}

/// Sends to registered users, 1 January 2021 to 28 July 2023 (the last band's top is the
/// transaction limit: KES 150,000, and 250,000 from 5 February 2024, see [`charge`]).
const SEND_2021: &[Band] = &[
    b(100, 0),
    b(500, 6),
    b(1_000, 12),
    b(1_500, 22),
    b(2_500, 32),
    b(3_500, 51),
    b(5_000, 55),
    b(7_500, 75),
    b(10_000, 87),
    b(15_000, 97),
    b(20_000, 102),
    b(250_000, 105),
];

/// Sends to registered users (and, from 5 February 2024, to other networks' registered
/// users), from 29 July 2023.
const SEND_2023: &[Band] = &[
    b(100, 0),
    b(500, 7),
    b(1_000, 13),
    b(1_500, 23),
    b(2_500, 33),
    b(3_500, 53),
    b(5_000, 57),
    b(7_500, 78),
    b(10_000, 90),
    b(15_000, 100),
    b(20_000, 105),
    b(250_000, 108),
];

/// Agent withdrawals (KES 50 and up), 1 July 2018 (checked from 1 January 2021) to 28 July
/// 2023.
const WITHDRAWAL_2018: &[Band] = &[
    b(100, 10),
    b(500, 27),
    b(2_500, 28),
    b(3_500, 50),
    b(5_000, 67),
    b(7_500, 84),
    b(10_000, 112),
    b(15_000, 162),
    b(20_000, 180),
    b(35_000, 191),
    b(50_000, 270),
    b(250_000, 300),
];

/// Agent withdrawals (KES 50 and up), from 29 July 2023.
const WITHDRAWAL_2023: &[Band] = &[
    b(100, 11),
    b(2_500, 29),
    b(3_500, 52),
    b(5_000, 69),
    b(7_500, 87),
    b(10_000, 115),
    b(15_000, 167),
    b(20_000, 185),
    b(35_000, 197),
    b(50_000, 278),
    b(250_000, 309),
];

/// The smallest agent withdrawal (the tariff's first band starts at KES 50).
const LEAST_WITHDRAWAL: u32 = 50;

/// The first day the tables are checked from, and the day the 2023 tables start.
pub(crate) const FROM: NaiveDate = day(2021, 1, 1);
const REVISED: NaiveDate = day(2023, 7, 29);
/// The day the largest transaction rose from KES 150,000 to 250,000 (the last band's top).
const LIMIT_RAISED: NaiveDate = day(2024, 2, 5);

const fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    match NaiveDate::from_ymd_opt(y, m, d) {
        Some(d) => d,
        None => NaiveDate::MIN,
    }
}

/// What the tariff charges.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Service {
    /// A send to a registered user.
    Send,
    /// An agent withdrawal.
    Withdrawal,
}

/// The charge, whole shillings, the tariff in force on `on` sets on a `service` of `amount`
/// whole shillings; `None` where no table here covers it (before 1 January 2021, below the
/// first band, above the last).
pub(crate) fn charge(service: Service, amount: u32, on: NaiveDate) -> Option<u16> {
    if on < FROM || (service == Service::Withdrawal && amount < LEAST_WITHDRAWAL) {
        return None;
    }
    let bands = match (service, on < REVISED) {
        (Service::Send, true) => SEND_2021,
        (Service::Send, false) => SEND_2023,
        (Service::Withdrawal, true) => WITHDRAWAL_2018,
        (Service::Withdrawal, false) => WITHDRAWAL_2023,
    };
    let top = if on < LIMIT_RAISED { 150_000 } else { 250_000 };
    if amount > top {
        return None;
    }
    bands.iter().find(|b| amount <= b.up_to).map(|b| b.charge)
}

/// The service a completed row is, by its Details.
fn service(t: &Transaction) -> Option<Service> {
    if t.details.starts_with("Customer Transfer to") {
        Some(Service::Send)
    } else if t.details.starts_with("Customer Withdrawal At Agent Till") {
        Some(Service::Withdrawal)
    } else {
        None
    }
}

/// The charge (KES, major units) the tariff sets on a row: a send or an agent withdrawal of
/// whole shillings, completed on a day a table covers; `None` for any other row.
pub(super) fn charge_of(t: &Transaction) -> Option<Decimal> {
    let service = service(t)?;
    if !t.paid_in.is_zero() || !t.withdrawn.fract().is_zero() {
        return None;
    }
    let amount = u32::try_from(t.withdrawn).ok()?;
    charge(service, amount, t.completed_at.date()).map(Decimal::from)
}

/// Whether a row is the charge row of a send or an agent withdrawal.
pub(super) fn is_charge(t: &Transaction) -> bool {
    matches!(
        t.details.as_str(),
        "Customer Transfer of Funds Charge" | "Withdrawal Charge"
    )
}

#[cfg(test)]
mod tests {
    use super::{Service, charge, day};

    #[test]
    fn bands_are_inclusive_and_change_on_29_july_2023() {
        let before = day(2023, 7, 28);
        let after = day(2023, 7, 29);
        assert_eq!(charge(Service::Send, 100, after), Some(0));
        assert_eq!(charge(Service::Send, 101, after), Some(7));
        assert_eq!(charge(Service::Send, 1_000, before), Some(12));
        assert_eq!(charge(Service::Send, 1_000, after), Some(13));
        assert_eq!(charge(Service::Withdrawal, 2_500, before), Some(28));
        assert_eq!(charge(Service::Withdrawal, 2_501, after), Some(52));
        assert_eq!(
            charge(Service::Withdrawal, 250_000, day(2024, 2, 5)),
            Some(309)
        );
        assert_eq!(charge(Service::Withdrawal, 500, before), Some(27));
        assert_eq!(charge(Service::Withdrawal, 501, before), Some(28));
        assert_eq!(charge(Service::Withdrawal, 100, after), Some(11));
        assert_eq!(charge(Service::Withdrawal, 101, after), Some(29));
        assert_eq!(charge(Service::Send, 101, day(2021, 1, 1)), Some(6));
    }

    #[test]
    fn outside_the_tables_nothing_is_set() {
        assert_eq!(charge(Service::Send, 1_000, day(2020, 12, 31)), None);
        assert_eq!(charge(Service::Withdrawal, 49, day(2024, 1, 1)), None);
        assert_eq!(charge(Service::Send, 250_001, day(2024, 3, 1)), None);
        // Above the transaction limit of the day: KES 150,000 before 5 February 2024.
        assert_eq!(charge(Service::Send, 150_001, day(2024, 2, 4)), None);
        assert_eq!(charge(Service::Send, 150_001, day(2024, 2, 5)), Some(108));
    }
}
