//! The account header, the SUMMARY table and the page footer of an M-Pesa statement.
//!
//! Header labels, as printed (2021 iText layout without colons, 2023+ `OpenPDF` with):
//! `Customer Name`, `Mobile Number`, `Email Address`, `Statement Period`
//! (`23 May 2023 - 23 May 2024`), and the request date as `Date of Statement` (2021) or
//! `Request Date` (2023+), e.g. `23 May 2024`.
//!
//! SUMMARY rows: `TRANSACTION TYPE … PAID IN … PAID OUT`, then one line per type such as
//! `SEND MONEY: 0.00 322,066.00` and a `TOTAL:` line (the 2021 layout drops some colons).

use chrono::NaiveDate;

use crate::money::{cents, parse_amount};
use crate::statement::{AccountHolder, Period, SummaryRow};

/// Fields read from the account header.
#[derive(Debug, Clone, Default, PartialEq)]
pub(super) struct HeaderFields {
    /// Name, mobile number, e-mail.
    pub holder: AccountHolder,
    /// Statement period.
    pub period: Option<Period>,
    /// Request date / date of statement.
    pub requested_at: Option<NaiveDate>,
}

#[derive(Clone, Copy)]
enum Field {
    Name,
    Mobile,
    Email,
    Period,
    Requested,
}

/// Labels (lower case), longest first where one is a prefix of another.
const LABELS: &[(&str, Field)] = &[
    ("customer name", Field::Name),
    ("mobile number", Field::Mobile),
    ("email address", Field::Email),
    ("e-mail address", Field::Email),
    ("statement period", Field::Period),
    ("date of statement", Field::Requested),
    ("request date", Field::Requested),
    ("statement date", Field::Requested),
];

/// Date layouts seen in headers.
const DATE_FORMATS: &[&str] = &["%d %b %Y", "%d %B %Y", "%Y-%m-%d", "%d/%m/%Y", "%d-%m-%Y"];

fn parse_date(text: &str) -> Option<NaiveDate> {
    let text = text.trim();
    DATE_FORMATS
        .iter()
        .find_map(|f| NaiveDate::parse_from_str(text, f).ok())
}

/// Reads `23 May 2023 - 23 May 2024`.
pub(super) fn parse_period(text: &str) -> Option<Period> {
    let (start, end) = text.split_once(" - ").or_else(|| text.split_once(" to "))?;
    let (start, end) = (parse_date(start)?, parse_date(end)?);
    (start <= end).then_some(Period { start, end })
}

/// If `text` is a header line (`Label[:] value`), stores its value and returns `true`.
pub(super) fn header_field(text: &str, fields: &mut HeaderFields) -> bool {
    let lower = text.to_ascii_lowercase();
    let Some((label, field)) = LABELS.iter().find(|(l, _)| lower.starts_with(l)) else {
        return false;
    };
    let value = text
        .get(label.len()..)
        .unwrap_or_default()
        .trim_start()
        .trim_start_matches(':')
        .trim();
    let value = (!value.is_empty()).then(|| value.to_owned());
    match field {
        Field::Name => fields.holder.name = value,
        Field::Mobile => fields.holder.mobile_number = value,
        Field::Email => fields.holder.email = value,
        Field::Period => fields.period = value.as_deref().and_then(parse_period),
        Field::Requested => fields.requested_at = value.as_deref().and_then(parse_date),
    }
    true
}

/// `Page x of N` → `(x, N)`.
pub(super) fn page_of(text: &str) -> Option<(u32, u32)> {
    let rest = text.trim().strip_prefix("Page ")?;
    let (page, total) = rest.split_once(" of ")?;
    Some((page.trim().parse().ok()?, total.trim().parse().ok()?))
}

/// Whether a line starts the page footer (everything below it is footer).
pub(super) fn is_footer_start(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    [
        "disclaimer",
        "twitter:",
        "for self-help",
        "statement verification code",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
}

/// Whether a line is the SUMMARY title.
pub(super) fn is_summary_title(text: &str) -> bool {
    text.trim().eq_ignore_ascii_case("summary")
}

/// Whether a line is the SUMMARY's own column header (`TRANSACTION TYPE PAID IN PAID OUT`).
pub(super) fn is_summary_header(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.starts_with("transaction type") && lower.contains("paid")
}

/// Whether a line is the title above the transaction table.
pub(super) fn is_detailed_title(text: &str) -> bool {
    text.trim().eq_ignore_ascii_case("detailed statement")
}

fn is_amount(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit()) && parse_amount(word).is_some()
}

/// Reads one SUMMARY row: a transaction type followed by two amounts (paid in, paid out).
/// Amounts are returned positive, with two decimal places.
pub(super) fn summary_row(text: &str) -> Option<SummaryRow> {
    let words: Vec<&str> = text.split(' ').collect();
    let [label @ .., paid_in, paid_out] = words.as_slice() else {
        return None;
    };
    if label.is_empty() || !is_amount(paid_in) || !is_amount(paid_out) {
        return None;
    }
    let label = label
        .join(" ")
        .trim()
        .trim_end_matches(':')
        .trim()
        .to_uppercase();
    if label.is_empty() {
        return None;
    }
    Some(SummaryRow {
        transaction_type: label,
        paid_in: cents(parse_amount(paid_in)?.abs()),
        paid_out: cents(parse_amount(paid_out)?.abs()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    #[test]
    fn reads_both_header_styles() {
        let mut f = HeaderFields::default();
        assert!(header_field("Customer Name: Jane Doe", &mut f));
        assert!(header_field("Mobile Number 0700000000", &mut f));
        assert!(header_field(
            "Statement Period: 23 May 2023 - 23 May 2024",
            &mut f
        ));
        assert!(header_field("Date of Statement 28 Sep 2021", &mut f));
        assert!(!header_field("SUMMARY", &mut f));
        assert_eq!(f.holder.name.as_deref(), Some("Jane Doe"));
        assert_eq!(f.holder.mobile_number.as_deref(), Some("0700000000"));
        let period = f.period.expect("period");
        assert_eq!(
            period.start,
            NaiveDate::from_ymd_opt(2023, 5, 23).expect("date")
        );
        assert_eq!(
            period.end,
            NaiveDate::from_ymd_opt(2024, 5, 23).expect("date")
        );
        assert_eq!(f.requested_at, NaiveDate::from_ymd_opt(2021, 9, 28));
        assert!(header_field("Request Date: 23 May 2024", &mut f));
        assert_eq!(f.requested_at, NaiveDate::from_ymd_opt(2024, 5, 23));
    }

    #[test]
    fn reads_summary_rows_and_footer() {
        let row = summary_row("LIPA NA M-PESA (PAYBILL): 0.00 391,737.00").expect("row");
        assert_eq!(row.transaction_type, "LIPA NA M-PESA (PAYBILL)");
        assert_eq!(row.paid_out, dec!(391737.00));
        let total = summary_row("TOTAL 849,938.05 852,105.39").expect("total");
        assert_eq!(total.transaction_type, "TOTAL");
        assert_eq!(total.paid_in, dec!(849938.05));
        assert!(summary_row("TRANSACTION TYPE PAID IN PAID OUT").is_none());
        assert_eq!(page_of("Page 20 of 21"), Some((20, 21)));
        assert!(is_footer_start("Disclaimer: This record is produced"));
    }
}
