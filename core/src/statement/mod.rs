//! The canonical statement model: what every parser produces and every scorer reads.
//!
//! Money is [`Decimal`] in the statement's currency, **major units** (KES shillings with two
//! decimal places, e.g. `425.00`), never a float. Times are the wallet's local time *as printed*
//! on the statement: for Safaricom M-Pesa that is Africa/Nairobi (East Africa Time, UTC+03:00,
//! no daylight saving), stored as a [`NaiveDateTime`] without an offset.
//!
//! The JSON form of these types (camelCase keys, amounts as decimal strings such as `"425.00"`,
//! times as ISO 8601 `"2024-05-23T14:02:11"`) is the canonical statement format that the
//! bindings and other wallets hand in (see [`crate::parse::json`]).

use chrono::{NaiveDate, NaiveDateTime};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

mod category;
mod format;

pub use category::Category;
pub use format::Format;

mod provider;
pub use provider::{Provider, currency_exponent};

mod document;
pub use document::{DocumentInfo, FontUse, PageLine, PdfBuild, PdfStructure};

mod reading;
pub(crate) mod time;
pub use reading::{Reading, in_reading_order, reading_order, sort_key};

/// A full mobile-money statement in canonical form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct Statement {
    /// The wallet that issued the statement.
    #[serde(default)]
    pub provider: Provider,
    /// The account holder as printed in the statement header. Personal data: mask before display.
    #[serde(default)]
    pub holder: AccountHolder,
    /// ISO 4217 currency of every amount in the statement (`"KES"` for M-Pesa).
    #[serde(default = "default_currency")]
    pub currency: String,
    /// The ISO 4217 minor-unit exponent of [`Self::currency`] (UGX 0, KES 2;
    /// [`currency_exponent`]), recorded beside it when it is not 2 (`"currencyExponent": 0` on a
    /// UGX statement) and left out otherwise, so a Kenyan statement's JSON is as it was.
    /// [`crate::parse::prepare`] sets it from the currency; a JSON statement that gives one
    /// other than ISO's for a known code is refused. Amounts keep the precision the statement
    /// prints whatever the exponent (Airtel Uganda prints `Ugx 25,111.80`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub currency_exponent: Option<u32>,
    /// The wallet's country, ISO 3166-1 alpha-2 (`"UG"`), when a parser or the input says;
    /// left out of JSON when `None` (then the wallet's own country: `crate::wallets::Wallet`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub country: Option<String>,
    /// The IANA time zone every time of the statement is local to (`"Africa/Accra"`), when a
    /// parser or the input says; `None` is the wallet's own zone (`crate::wallets::Wallet`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    /// The period the statement covers, from its header (inclusive dates, local time).
    /// `None` when the source does not say; the report then uses the transactions' dates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<Period>,
    /// When the statement was requested ("Date of Statement" / "Request Date" in the header).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested_at: Option<NaiveDate>,
    /// The statement's own SUMMARY table, when the source has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<Summary>,
    /// The opening and closing balances the statement prints (Airtel's SUMMARY), when it does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub balances: Option<Balances>,
    /// Every transaction row, in the order the source lists them (M-Pesa: newest first).
    pub transactions: Vec<Transaction>,
    /// Facts about the source document that tamper checks look at (PDF only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub document: Option<DocumentInfo>,
    /// Lines of the source that looked like transactions but could not be read.
    /// Never silently dropped: each becomes an integrity finding in the report.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unparsed: Vec<UnparsedLine>,
    /// The format [`crate::parse::parse`] read this statement from; `None` for a statement built
    /// in code. Not part of the canonical JSON (a statement handed in as JSON is JSON evidence,
    /// whatever it was made from); it sets the report's evidence level.
    #[serde(skip)]
    pub source: Option<Format>,
}

fn default_currency() -> String {
    "KES".to_owned()
}

/// The account holder fields of a statement header. Every field is optional because exports
/// (CSV) usually carry none of them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub struct AccountHolder {
    /// "Customer Name" as printed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// "Mobile Number" as printed, e.g. `0712345678` or `254712345678`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mobile_number: Option<String>,
    /// "Email Address" as printed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub email: Option<String>,
}

/// An inclusive range of calendar dates (statement local time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Period {
    /// First day covered.
    pub start: NaiveDate,
    /// Last day covered.
    pub end: NaiveDate,
}

/// The SUMMARY table of an M-Pesa statement: one row per transaction type plus the TOTAL.
///
/// Source: Safaricom M-PESA full statement, "SUMMARY" block on page 1 (columns TRANSACTION
/// TYPE, PAID IN, PAID OUT). Amounts are KES, major units, both positive.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Summary {
    /// One row per transaction type (e.g. "SEND MONEY", "PAY BILL", "OTHERS").
    pub rows: Vec<SummaryRow>,
    /// The TOTAL row.
    pub total: SummaryRow,
}

/// The opening and closing balances a statement prints (Airtel Money Uganda's SUMMARY:
/// `Opening Balance`, `Closing Balance`), major units of the statement's currency.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Balances {
    /// The balance before the first row of the period.
    #[serde(with = "crate::money::serde_str")]
    pub opening: Decimal,
    /// The balance after the last row of the period.
    #[serde(with = "crate::money::serde_str")]
    pub closing: Decimal,
}

/// One row of the SUMMARY table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SummaryRow {
    /// Transaction type as printed, upper case (e.g. `"CASH OUT"`), or `"TOTAL"`.
    pub transaction_type: String,
    /// Sum of Paid In, KES major units.
    #[serde(with = "crate::money::serde_str")]
    pub paid_in: Decimal,
    /// Sum of Withdrawn as a positive number, KES major units.
    #[serde(with = "crate::money::serde_str")]
    pub paid_out: Decimal,
}

/// The completion status of a transaction row ("Transaction Status" column).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
#[non_exhaustive]
pub enum TransactionStatus {
    /// `Completed`: the money moved. Only these rows count in features and in the SUMMARY.
    #[serde(alias = "Completed")]
    Completed,
    /// `Cancelled`.
    #[serde(alias = "Cancelled")]
    Cancelled,
    /// `Failed`.
    #[serde(alias = "Failed")]
    Failed,
    /// `Pending` or any other status word the source printed.
    #[serde(alias = "Other")]
    Other,
}

impl TransactionStatus {
    /// Reads a status word as printed (case-insensitive). Unknown words map to [`Self::Other`].
    pub fn from_word(word: &str) -> Self {
        // The word of nearly every row, as M-Pesa prints it: no trimming, no case folding.
        if word == "Completed" {
            return Self::Completed;
        }
        let word = word.trim();
        let is = |words: &[&str]| words.iter().any(|w| w.eq_ignore_ascii_case(word));
        if is(&["completed", "success", "successful"]) {
            Self::Completed
        } else if is(&["cancelled", "canceled"]) {
            Self::Cancelled
        } else if is(&["failed"]) {
            Self::Failed
        } else {
            Self::Other
        }
    }

    /// The word M-Pesa prints for this status (`"Completed"`, …).
    pub fn as_word(self) -> &'static str {
        match self {
            Self::Completed => "Completed",
            Self::Cancelled => "Cancelled",
            Self::Failed => "Failed",
            Self::Other => "Other",
        }
    }
}

impl Statement {
    /// This statement's header (holder, period, SUMMARY, document facts, unparsed lines) with
    /// `transactions` as its rows. Field by field, so that a new field must be decided on here.
    pub(crate) fn with_transactions(&self, transactions: Vec<Transaction>) -> Statement {
        Statement {
            provider: self.provider.clone(),
            holder: self.holder.clone(),
            currency: self.currency.clone(),
            currency_exponent: self.currency_exponent,
            country: self.country.clone(),
            time_zone: self.time_zone.clone(),
            period: self.period,
            requested_at: self.requested_at,
            summary: self.summary.clone(),
            balances: self.balances,
            transactions,
            document: self.document.clone(),
            unparsed: self.unparsed.clone(),
            source: self.source,
        }
    }

    /// The ISO 4217 minor-unit exponent of the currency (UGX 0, KES 2): [`Self::currency_exponent`]
    /// when recorded, else ISO's for the code ([`currency_exponent`]); `None` for an unknown code.
    pub fn minor_units(&self) -> Option<u32> {
        self.currency_exponent
            .or_else(|| currency_exponent(&self.currency))
    }
}

/// One row of a statement.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Transaction {
    /// M-Pesa receipt number (10 upper-case letters and digits, e.g. `SEN4AB12CD`). Several rows
    /// can share one (a payment and its charge; a Fuliza draw and the payment it funds).
    pub receipt_no: String,
    /// Completion time, local time as printed (Africa/Nairobi for M-Pesa).
    pub completed_at: NaiveDateTime,
    /// The Details text, with wrapped lines joined by single spaces. May be empty (and may be
    /// omitted in JSON).
    #[serde(default)]
    pub details: String,
    /// Transaction status.
    pub status: TransactionStatus,
    /// Paid In, KES major units, `>= 0`.
    #[serde(with = "crate::money::serde_str")]
    pub paid_in: Decimal,
    /// Withdrawn, KES major units, as a positive number (`>= 0`; the statement prints it with a
    /// leading `-`).
    #[serde(with = "crate::money::serde_str")]
    pub withdrawn: Decimal,
    /// Balance after the row, KES major units, when the source prints one.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::money::serde_str_opt"
    )]
    pub balance: Option<Decimal>,
    /// Category derived from `details` by [`crate::categorise`]. Input that omits it (or says
    /// `"uncategorised"`) is categorised by the engine.
    #[serde(default)]
    pub category: Category,
    /// The row's own transaction type as the wallet prints it (MTN's `TRANS. TYPE`, e.g.
    /// `"CASH_OUT"`), when the source has such a column; left out of JSON when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transaction_type: Option<String>,
    /// The fee the wallet charged on this row (Airtel's `Fee`, MTN's `FEES`), major units,
    /// **included in** `withdrawn`; `None` when the source prints no fee column (M-Pesa lists
    /// charges as rows of their own).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::money::serde_str_opt"
    )]
    pub fee: Option<Decimal>,
    /// Taxes and levies charged on this row (Ghana's `E-LEVY`), major units, **included in**
    /// `withdrawn`; `None` when the source prints no tax column.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::money::serde_str_opt"
    )]
    pub tax: Option<Decimal>,
    /// The balance before the row (MTN's `BAL BEFORE`), major units, when the source prints it.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::money::serde_str_opt"
    )]
    pub balance_before: Option<Decimal>,
    /// The other party of a person-to-person row (send money, money received, Pochi la
    /// Biashara), as its wallet's grammar names it in the row's text, normalised (lower case,
    /// single spaces): the key round trips are matched by. Derived, like `category`, when the
    /// statement is prepared (`crate::parse::prepare`); `None` for every other row, or when the
    /// text names nobody. Not part of the canonical JSON or CSV (it follows from the Details).
    #[serde(skip)]
    pub counterparty: Option<String>,
}

/// A completed row with these amounts at the Unix epoch, for the engine's unit tests of
/// amount and balance arithmetic (receipt `R1`, no Details, category `other`).
#[cfg(test)]
pub(crate) fn completed_row(paid_in: Decimal, withdrawn: Decimal, balance: Decimal) -> Transaction {
    Transaction {
        receipt_no: "R1".to_owned(),
        completed_at: NaiveDateTime::default(),
        details: String::new(),
        status: TransactionStatus::Completed,
        paid_in,
        withdrawn,
        balance: Some(balance),
        category: Category::Other,
        ..Transaction::empty()
    }
}

impl Transaction {
    /// Whether `other` is this row printed again: equal in every field a statement prints
    /// (receipt, completion time, Details, status, Paid In, Withdrawn, Balance, and another
    /// wallet's printed type, fee, tax and balance before). The category is derived from these,
    /// so it is not compared. Amounts compare by value (`100` equals `100.00`). Exact copies are
    /// evidence of a fabricated or concatenated statement (`check::duplicates`), and the
    /// features count each row once.
    pub fn same_printed_row(&self, other: &Transaction) -> bool {
        self.completed_at == other.completed_at
            && self.paid_in == other.paid_in
            && self.withdrawn == other.withdrawn
            && self.balance == other.balance
            && self.status == other.status
            && self.receipt_no == other.receipt_no
            && self.details == other.details
            && self.transaction_type == other.transaction_type
            && self.fee == other.fee
            && self.tax == other.tax
            && self.balance_before == other.balance_before
    }

    /// A row with nothing in it: empty receipt and Details, the Unix epoch, `Completed`, zero
    /// amounts, no balance, no wallet fields, [`Category::Uncategorised`]. For building rows
    /// with `..Transaction::empty()`.
    pub fn empty() -> Transaction {
        Transaction {
            receipt_no: String::new(),
            completed_at: NaiveDateTime::default(),
            details: String::new(),
            status: TransactionStatus::Completed,
            paid_in: Decimal::ZERO,
            withdrawn: Decimal::ZERO,
            balance: None,
            category: Category::Uncategorised,
            transaction_type: None,
            fee: None,
            tax: None,
            balance_before: None,
            counterparty: None,
        }
    }

    /// Net effect on the wallet: `paid_in - withdrawn`, major units of the statement's currency.
    pub fn net(&self) -> Decimal {
        self.paid_in - self.withdrawn
    }

    /// Whether the row moved money (status `Completed`).
    pub fn is_completed(&self) -> bool {
        self.status == TransactionStatus::Completed
    }
}

/// A source line that looked like part of a transaction table but could not be read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct UnparsedLine {
    /// 1-based page (PDF) or 0 when the source has no pages.
    pub page: u32,
    /// 1-based line number on the page (PDF) or in the file (CSV).
    pub line: u32,
    /// The text of the line as read (personal data: the holder's own statement).
    pub text: String,
    /// Why it could not be read.
    pub reason: String,
}
