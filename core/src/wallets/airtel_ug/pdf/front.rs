//! The header block and SUMMARY of an Airtel Money Uganda statement (`Customer Name:`,
//! `Mobile Number:`, `Email Address:`, `Statement Period: 01-Mar-26 to 31-Mar-26`, `Request
//! Date: 21 Apr, 2026`; `Opening Balance:`, `Closing Balance:`, `Total Credit:`, `Total Debit:`,
//! each `Ugx 25,111.80`), read line by line as `Label: value`.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::money::parse_amount;
use crate::statement::{AccountHolder, Period};

/// A date of the header (`01-Mar-26`, `21 Apr, 2026`, or the same with a four-digit year,
/// slashes or dashes, day first).
fn date_of(text: &str) -> Option<NaiveDate> {
    const DATE_FORMATS: [&str; 8] = [
        "%d-%b-%y",
        "%d-%b-%Y",
        "%d %b, %Y",
        "%d %b %Y",
        "%d/%m/%Y",
        "%d-%m-%Y",
        "%d/%m/%y",
        "%d-%m-%y",
    ];
    let text = text.trim();
    DATE_FORMATS
        .iter()
        .find_map(|f| NaiveDate::parse_from_str(text, f).ok())
}

/// The header block and SUMMARY as read.
#[derive(Default)]
pub(super) struct Front {
    pub(super) holder: AccountHolder,
    pub(super) period: Option<Period>,
    pub(super) requested_at: Option<NaiveDate>,
    pub(super) opening: Option<Decimal>,
    pub(super) closing: Option<Decimal>,
    pub(super) credit: Option<Decimal>,
    pub(super) debit: Option<Decimal>,
}

impl Front {
    /// Reads a header or SUMMARY line (`Label: value`); other lines are ignored.
    pub(super) fn read(&mut self, text: &str) {
        let Some((label, value)) = text.split_once(':') else {
            return;
        };
        let value = value.trim();
        let money = || parse_amount(strip_currency(value));
        match label.trim() {
            "Customer Name" => self.holder.name = Some(value.to_owned()).filter(|v| !v.is_empty()),
            "Mobile Number" => {
                self.holder.mobile_number = Some(value.to_owned()).filter(|v| !v.is_empty());
            }
            "Email Address" => self.holder.email = Some(value.to_owned()).filter(|v| !v.is_empty()),
            "Statement Period" => {
                let lower = value.to_ascii_lowercase();
                self.period = [" to ", " - ", " – "].iter().find_map(|sep| {
                    let at = lower.find(sep)?;
                    Some(Period {
                        start: date_of(&value[..at])?,
                        end: date_of(&value[at + sep.len()..])?,
                    })
                });
            }
            "Request Date" => self.requested_at = date_of(value),
            "Opening Balance" => self.opening = money(),
            "Closing Balance" => self.closing = money(),
            "Total Credit" => self.credit = money(),
            "Total Debit" => self.debit = money(),
            _ => {}
        }
    }
}

/// `25,111.80` from `Ugx 25,111.80` (the currency word in any case).
fn strip_currency(value: &str) -> &str {
    let v = value.trim();
    match v.get(..3) {
        Some(code) if code.eq_ignore_ascii_case("ugx") => v[3..].trim(),
        _ => v,
    }
}
