//! The engine's own types, exposed to Kotlin and Swift as they are.
//!
//! Every record and enum here is a `#[uniffi::remote(…)]` mirror of the `alama-core` type of the
//! same name: `UniFFI` generates the conversion for the core type itself, so there is no copy to
//! keep in step and no conversion code. If the core changes a type, this file stops compiling
//! until the mirror is updated (the mirror must match the core definition field for field).
//!
//! Field names are those of the canonical JSON (camelCase in Kotlin and Swift).
//!
//! Scalars that have no `UniFFI` built-in cross as strings, through three custom types:
//! - [`Decimal`]: money and other exact figures, a plain decimal string such as `"1201133.99"`;
//!   `java.math.BigDecimal` in Kotlin and `Foundation.Decimal` in Swift (see `uniffi.toml`).
//! - [`IsoDateTime`]: a local date and time, ISO 8601 without offset (`"2024-05-23T14:02:11"`,
//!   fractional seconds only when present), the wallet's local time as printed (Africa/Nairobi,
//!   UTC+03:00, for M-Pesa). A `String` in Kotlin and Swift.
//! - [`IsoDate`]: a calendar date, ISO 8601 (`"2024-05-23"`). A `String` in Kotlin and Swift.
//!
//! A value handed in from Kotlin or Swift that is not a valid decimal, date-time or date fails
//! with [`AlamaError::MalformedStatement`] (page 0, line 0).
//!
//! (Over 400 lines: one mirror per core type of the statement and report JSON, field for field
//! with its doc, as Kotlin and Swift see them; the three custom scalars come first.)

use alama_core::parse::Format;
use alama_core::report::{EvidenceLevel, Integrity, MonthlyCashflow, StatementOverview};
use alama_core::statement::{
    AccountHolder, Balances, DocumentInfo, FontUse, PageLine, PdfBuild, PdfStructure, Period,
    Provider, Summary, SummaryRow, UnparsedLine,
};
use alama_core::{
    Band, Category, Factor, Finding, Insight, ReasonCode, Report, ReportStatus, Severity,
    Statement, Transaction, TransactionStatus,
};

use crate::error::AlamaError;

/// An exact decimal number: money in major units of the statement currency (KES shillings with
/// two decimal places, e.g. `425.00`) or a figure such as a ratio. Never a float.
///
/// Crosses the FFI as its plain decimal string (no exponent). `java.math.BigDecimal` in Kotlin
/// (scale kept, so `425.00` stays `425.00`); `Foundation.Decimal` in Swift (which drops trailing
/// zeros: `425.00` becomes `425`).
pub type Decimal = rust_decimal::Decimal;

/// A local date and time as an ISO 8601 string without offset, e.g. `"2024-05-23T14:02:11"`:
/// the wallet's local time as printed on the statement (M-Pesa: Africa/Nairobi, UTC+03:00, no
/// daylight saving). Parse it with `java.time.LocalDateTime.parse` (Kotlin) or an
/// `ISO8601DateFormatter` with `.withFullDate, .withFullTime` minus the time zone (Swift).
pub type IsoDateTime = chrono::NaiveDateTime;

/// A calendar date as an ISO 8601 string, e.g. `"2024-05-23"` (`java.time.LocalDate.parse` in
/// Kotlin).
pub type IsoDate = chrono::NaiveDate;

/// The `chrono` format of [`IsoDateTime`], the same as the canonical JSON's.
const ISO_DATE_TIME: &str = "%Y-%m-%dT%H:%M:%S%.f";

uniffi::custom_type!(Decimal, String, {
    remote,
    lower: |value| value.to_string(),
    try_lift: |text| parse_decimal(&text),
});

uniffi::custom_type!(IsoDateTime, String, {
    remote,
    lower: |value| value.format(ISO_DATE_TIME).to_string(),
    try_lift: |text| {
        chrono::NaiveDateTime::parse_from_str(&text, ISO_DATE_TIME)
            .map_err(|e| invalid(format!("{text:?} is not an ISO 8601 local date-time: {e}")))
    },
});

uniffi::custom_type!(IsoDate, String, {
    remote,
    lower: |value| value.format("%Y-%m-%d").to_string(),
    try_lift: |text| {
        text.parse::<chrono::NaiveDate>()
            .map_err(|e| invalid(format!("{text:?} is not an ISO 8601 date: {e}")))
    },
});

/// Reads a decimal string exactly (no rounding; more than 28 significant digits is an error).
fn parse_decimal(text: &str) -> uniffi::Result<Decimal> {
    Decimal::from_str_exact(text).map_err(|e| invalid(format!("{text:?} is not a decimal: {e}")))
}

/// A value from Kotlin/Swift that does not convert: surfaces as `AlamaError::MalformedStatement`
/// (`UniFFI` hands a failed argument conversion to the function's error type when it can).
fn invalid(message: String) -> uniffi::deps::anyhow::Error {
    AlamaError::MalformedStatement {
        page: 0,
        line: 0,
        detail: message,
    }
    .into()
}

// ---- Statement -------------------------------------------------------------------------------

// The wallet that issued a statement crosses as its id (`"mpesa"`, `"airtel-money-ug"`, …):
// the registry's data, not a mirror enum, so a new wallet needs no edit here
// (`wallets()` lists them with their country, currency and time zone).
uniffi::custom_type!(Provider, String, {
    remote,
    lower: |value| value.to_string(),
    try_lift: |text| Ok(Provider::from_id(text)),
});

/// The opening and closing balances a statement prints (Airtel's SUMMARY), major units of the
/// statement's currency.
#[uniffi::remote(Record)]
pub struct Balances {
    /// The balance before the first row of the period.
    pub opening: Decimal,
    /// The balance after the last row of the period.
    pub closing: Decimal,
}

/// A full mobile-money statement in canonical form (the canonical statement JSON's fields).
#[uniffi::remote(Record)]
pub struct Statement {
    /// The wallet that issued the statement: its id (`"mpesa"`, `"airtel-money-ug"`, …; see
    /// `wallets()`).
    #[uniffi(default = "mpesa")]
    pub provider: Provider,
    /// The account holder as printed in the statement header. Personal data: mask before display.
    pub holder: AccountHolder,
    /// ISO 4217 currency of every amount in the statement (`"KES"` for M-Pesa).
    #[uniffi(default = "KES")]
    pub currency: String,
    /// The ISO 4217 minor-unit exponent of `currency` (UGX 0), recorded when it is not 2.
    #[uniffi(default)]
    pub currency_exponent: Option<u32>,
    /// The wallet's country, ISO 3166-1 alpha-2 (`"UG"`), when a parser or the input says.
    #[uniffi(default)]
    pub country: Option<String>,
    /// The IANA time zone every time of the statement is local to (`"Africa/Accra"`); `null`
    /// is the provider's own zone.
    #[uniffi(default)]
    pub time_zone: Option<String>,
    /// The period the statement covers, from its header (inclusive dates, local time); `null`
    /// when the source does not say.
    #[uniffi(default)]
    pub period: Option<Period>,
    /// When the statement was requested (ISO 8601 date).
    #[uniffi(default)]
    pub requested_at: Option<IsoDate>,
    /// The statement's own SUMMARY table, when the source has one.
    #[uniffi(default)]
    pub summary: Option<Summary>,
    /// The opening and closing balances the statement prints, when it does.
    #[uniffi(default)]
    pub balances: Option<Balances>,
    /// Every transaction row, in the order the source lists them (M-Pesa: newest first).
    pub transactions: Vec<Transaction>,
    /// Facts about the source document that tamper checks read (PDF only).
    #[uniffi(default)]
    pub document: Option<DocumentInfo>,
    /// Lines of the source that looked like transactions but could not be read.
    #[uniffi(default)]
    pub unparsed: Vec<UnparsedLine>,
    /// The format the statement was parsed from; `null` for a statement built in code (its
    /// report's evidence level is then `JSON`, or that of its `document`).
    #[uniffi(default)]
    pub source: Option<Format>,
}

/// A source format the engine reads.
#[uniffi::remote(Enum)]
pub enum Format {
    /// A PDF statement in a supported wallet's layout.
    Pdf,
    /// CSV with M-Pesa's columns or their usual aliases, or a wallet's own table layout.
    Csv,
    /// The canonical JSON statement.
    Json,
    /// A spreadsheet of a wallet's table (read as its CSV).
    Xlsx,
}

/// The account holder fields of a statement header; each is `null` when the source has none.
#[uniffi::remote(Record)]
pub struct AccountHolder {
    /// "Customer Name" as printed.
    #[uniffi(default)]
    pub name: Option<String>,
    /// "Mobile Number" as printed, e.g. `0712345678`.
    #[uniffi(default)]
    pub mobile_number: Option<String>,
    /// "Email Address" as printed.
    #[uniffi(default)]
    pub email: Option<String>,
}

/// An inclusive range of calendar dates (statement local time).
#[uniffi::remote(Record)]
pub struct Period {
    /// First day covered.
    pub start: IsoDate,
    /// Last day covered.
    pub end: IsoDate,
}

/// The SUMMARY table of an M-Pesa statement: one row per transaction type plus the TOTAL.
#[uniffi::remote(Record)]
pub struct Summary {
    /// One row per transaction type (e.g. "SEND MONEY", "PAY BILL").
    pub rows: Vec<SummaryRow>,
    /// The TOTAL row.
    pub total: SummaryRow,
}

/// One row of the SUMMARY table. Amounts are in the statement's currency, major units, both
/// positive.
#[uniffi::remote(Record)]
pub struct SummaryRow {
    /// Transaction type as printed, upper case (e.g. `"CASH OUT"`), or `"TOTAL"`.
    pub transaction_type: String,
    /// Sum of Paid In, major units of the statement's currency.
    pub paid_in: Decimal,
    /// Sum of Withdrawn as a positive number, major units of the statement's currency.
    pub paid_out: Decimal,
}

/// The completion status of a transaction row ("Transaction Status" column).
#[uniffi::remote(Enum)]
#[non_exhaustive]
pub enum TransactionStatus {
    /// `Completed`: the money moved. Only these rows count in features and in the SUMMARY.
    Completed,
    /// `Cancelled`.
    Cancelled,
    /// `Failed`.
    Failed,
    /// `Pending` or any other status word the source printed.
    Other,
}

/// One row of a statement.
#[uniffi::remote(Record)]
pub struct Transaction {
    /// M-Pesa receipt number (10 upper-case letters and digits). Several rows can share one.
    pub receipt_no: String,
    /// Completion time, ISO 8601 local time as printed (Africa/Nairobi for M-Pesa).
    pub completed_at: IsoDateTime,
    /// The Details text, wrapped lines joined by single spaces. May be empty.
    pub details: String,
    /// Transaction status.
    pub status: TransactionStatus,
    /// Paid In, major units of the statement's currency, `>= 0`.
    pub paid_in: Decimal,
    /// Withdrawn, major units of the statement's currency, as a positive number (`>= 0`).
    pub withdrawn: Decimal,
    /// Balance after the row, major units of the statement's currency, when the source prints one.
    #[uniffi(default)]
    pub balance: Option<Decimal>,
    /// Category derived from `details` by the engine; `UNCATEGORISED` rows handed in are
    /// categorised when parsed.
    pub category: Category,
    /// The row's own transaction type as the wallet prints it (MTN's `CASH_OUT`), when the
    /// source has such a column.
    #[uniffi(default)]
    pub transaction_type: Option<String>,
    /// The fee charged on this row (Airtel's `Fee`, MTN's `FEES`), included in `withdrawn`.
    #[uniffi(default)]
    pub fee: Option<Decimal>,
    /// Taxes and levies on this row (Ghana's `E-LEVY`), included in `withdrawn`.
    #[uniffi(default)]
    pub tax: Option<Decimal>,
    /// The balance before the row (MTN's `BAL BEFORE`), when the source prints it.
    #[uniffi(default)]
    pub balance_before: Option<Decimal>,
    /// The other party of a person-to-person row, as its wallet names it (normalised); derived
    /// when the statement is prepared, ignored on input.
    #[uniffi(default)]
    pub counterparty: Option<String>,
}

/// What a transaction was, in M-Pesa's terms (the JSON's `snake_case` names).
#[uniffi::remote(Enum)]
#[non_exhaustive]
pub enum Category {
    /// Send Money to another person.
    SendMoney,
    /// Money received from a person.
    ReceivedMoney,
    /// Cash deposited at an agent.
    AgentDeposit,
    /// Cash withdrawn at an agent or ATM.
    AgentWithdrawal,
    /// Paybill payment that is not a utility, lender or betting firm.
    Paybill,
    /// Buy Goods / Till.
    BuyGoods,
    /// Pochi la Biashara.
    PochiLaBiashara,
    /// Airtime and data bundles.
    AirtimeAndBundles,
    /// A Fuliza overdraft draw.
    FulizaDraw,
    /// A Fuliza repayment.
    FulizaRepayment,
    /// A mobile bank loan paid into the wallet (M-Shwari, KCB M-PESA, Hustler Fund).
    MobileLoanDisbursement,
    /// A repayment of an M-Shwari, KCB M-PESA or Hustler Fund loan.
    MobileLoanRepayment,
    /// A loan from another digital lender paid into the wallet.
    DigitalLoanDisbursement,
    /// A repayment to another digital lender.
    DigitalLoanRepayment,
    /// Money moved into M-Shwari, KCB M-PESA or Lock Savings.
    SavingsDeposit,
    /// Money moved back from M-Shwari, KCB M-PESA or Lock Savings.
    SavingsWithdrawal,
    /// Betting and gaming, either direction.
    Betting,
    /// Utilities and bills.
    Utilities,
    /// Salary or business payment into the wallet.
    SalaryAndBusinessPayments,
    /// Transaction charges and fees.
    Charges,
    /// Reversals of earlier transactions.
    Reversal,
    /// Transfers between the holder's own accounts.
    OwnAccountTransfer,
    /// Recognised as a transaction but none of the above.
    Other,
    /// Not categorised yet.
    Uncategorised,
}

/// Facts about a source PDF that tamper checks read.
#[uniffi::remote(Record)]
pub struct DocumentInfo {
    /// Number of pages.
    pub pages: u32,
    /// Whether the file was password-protected.
    pub encrypted: bool,
    /// `/Producer` of the PDF, e.g. `"OpenPDF 1.3.26"`.
    #[uniffi(default)]
    pub producer: Option<String>,
    /// `/Creator`.
    #[uniffi(default)]
    pub creator: Option<String>,
    /// `/Author`.
    #[uniffi(default)]
    pub author: Option<String>,
    /// `/Title`.
    #[uniffi(default)]
    pub title: Option<String>,
    /// `/CreationDate` as printed in the PDF (`D:YYYYMMDDHHmmSS…`).
    #[uniffi(default)]
    pub created: Option<String>,
    /// `/ModDate` as printed in the PDF.
    #[uniffi(default)]
    pub modified: Option<String>,
    /// Pages the footer promises ("Page 20 of 21" → 21), when it says.
    #[uniffi(default)]
    pub declared_pages: Option<u32>,
    /// How the file itself is built, for the forensic checks; `null` when not measured.
    #[uniffi(default)]
    pub structure: Option<PdfStructure>,
}

/// Facts about the bytes of a PDF that tell the program that wrote it.
#[uniffi::remote(Record)]
pub struct PdfStructure {
    /// Number of `%%EOF` markers (one per save).
    pub eof_markers: u32,
    /// Number of cross-reference sections.
    pub xref_sections: u32,
    /// Whether the file uses cross-reference streams.
    pub xref_streams: bool,
    /// `endstream` keywords not followed by an end of line (Safaricom's writers: 0).
    #[uniffi(default)]
    pub loose_stream_ends: u32,
    /// The binary comment on the file's second line, lower-case hex.
    #[uniffi(default)]
    pub binary_marker: Option<String>,
    /// Every font the pages use, with its pages.
    #[uniffi(default)]
    pub fonts: Vec<FontUse>,
    /// 1-based pages whose size differs from page 1's.
    #[uniffi(default)]
    pub odd_size_pages: Vec<u32>,
    /// Transaction-table lines whose amounts do not end at their column's right edge, and
    /// SUMMARY lines whose amounts are not centred in theirs.
    #[uniffi(default)]
    pub off_grid: Vec<PageLine>,
    /// Transaction-table and SUMMARY lines with an amount that starts off a hundredth of a
    /// point, or ends 0.01 pt or more from other amounts of its column: where the writer's
    /// rounding of a start cannot put it.
    #[uniffi(default)]
    pub off_rounding: Vec<PageLine>,
    /// How the file is laid out, as facts that tell one writer from another; `null` when not
    /// measured.
    #[uniffi(default)]
    pub build: Option<PdfBuild>,
    /// Strings of a two-byte font that draw more than one glyph (Airtel's writer: 0).
    #[uniffi(default)]
    pub joined_glyph_strings: u32,
    /// Text placements Qt does not make: moves off its 64ths, figures moved unlike their
    /// other copies, text operators it never writes (Airtel's writer: 0).
    #[uniffi(default)]
    pub placed_otherwise: u32,
    /// Glyphs of two-byte fonts numbered otherwise than in the order the pages first draw
    /// them (Qt numbers its subset's glyphs as it first draws them; Airtel's writer: 0).
    #[uniffi(default)]
    pub glyphs_numbered_otherwise: u32,
}

/// How a PDF file is laid out (see docs/integrity.md, "Each wallet's writer, measured").
#[uniffi::remote(Record)]
pub struct PdfBuild {
    /// The document information dictionary is object 1.
    pub info_first: bool,
    /// The objects sit in the file in the order of their numbers.
    pub objects_in_number_order: bool,
    /// The first object's dictionary opens without a line break.
    pub tight_dictionaries: bool,
    /// The trailer carries a file identifier.
    pub trailer_id: bool,
    /// `/Producer` is written in UTF-16.
    pub utf16_info: bool,
}

/// A line of a PDF page.
#[uniffi::remote(Record)]
pub struct PageLine {
    /// 1-based page.
    pub page: u32,
    /// 1-based line on the page.
    pub line: u32,
}

/// One font of a PDF and the pages that use it.
#[uniffi::remote(Record)]
pub struct FontUse {
    /// `/BaseFont` without a subset prefix, e.g. `"DejaVuSans"`.
    pub name: String,
    /// 1-based pages that use it, ascending.
    pub pages: Vec<u32>,
}

/// A source line that looked like part of a transaction table but could not be read.
#[uniffi::remote(Record)]
pub struct UnparsedLine {
    /// 1-based page (PDF) or 0.
    pub page: u32,
    /// 1-based line on the page (PDF) or in the file (CSV).
    pub line: u32,
    /// The text of the line as read (personal data).
    pub text: String,
    /// Why it could not be read.
    pub reason: String,
}

// ---- Report ----------------------------------------------------------------------------------

/// The state of a report. The engine only produces `COMPLETED`.
#[uniffi::remote(Enum)]
pub enum ReportStatus {
    /// Accepted, analysis running.
    Processing,
    /// Scored.
    Completed,
    /// Analysis failed.
    Failed,
}

/// A named score band: Poor 300–579, Fair 580–669, Good 670–739, Very Good 740–799,
/// Excellent 800–850 (JSON: `"Poor"`, `"Fair"`, `"Good"`, `"Very Good"`, `"Excellent"`).
#[uniffi::remote(Enum)]
pub enum Band {
    /// 300–579.
    Poor,
    /// 580–669.
    Fair,
    /// 670–739.
    Good,
    /// 740–799.
    VeryGood,
    /// 800–850.
    Excellent,
}

/// One scorecard characteristic's result.
#[uniffi::remote(Record)]
pub struct Factor {
    /// Display name, e.g. `"Income stability"`.
    pub name: String,
    /// Points earned, `0..=max`.
    pub score: u16,
    /// Maximum points of this characteristic.
    pub max: u16,
    /// Stable code, e.g. `"income_stability"`.
    pub code: String,
}

/// A typed insight: a code, a sentence for a person, and the figure behind it.
#[uniffi::remote(Record)]
pub struct Insight {
    /// Stable code, e.g. `"average_monthly_income"`.
    pub code: String,
    /// One human sentence.
    pub message: String,
    /// The figure, exact decimal.
    pub value: Decimal,
    /// Unit of `value`: the statement's currency (`"KES"`, `"KES/month"`), `"ratio"` (0–1),
    /// `"months"`, `"count"`, `"days"`.
    pub unit: String,
}

/// One scorecard attribute that lost points through evidence, or a knock-out (`K01`:
/// overdue digital credit; `K02`: a thin file, too few activity rows or days to score), ordered by
/// points lost (largest first).
#[uniffi::remote(Record)]
pub struct ReasonCode {
    /// Stable reason code of the characteristic, `"R01"`–`"R08"`, or `"K01"`/`"K02"`.
    pub code: String,
    /// Code of the factor (characteristic) it comes from.
    pub factor: String,
    /// Code of the attribute, e.g. `"on_time_repayment_share"` (`"overdue_credit"` for `K01`,
    /// `"thin_file"` for `K02`).
    pub attribute: String,
    /// Points this attribute lost (for `K01` and `K02`, the points the cap removed).
    pub points_lost: u16,
    /// Adverse-action sentence with the figure behind it.
    pub description: String,
}

/// How serious an integrity finding is.
#[uniffi::remote(Enum)]
pub enum Severity {
    /// Worth knowing, no doubt about the data.
    Info,
    /// The data may be incomplete or edited; a person should look.
    Warning,
    /// The statement does not add up; do not lend on this report alone.
    Critical,
}

/// One integrity finding (reconciliation, balance chain, tamper checks, unread rows).
#[uniffi::remote(Record)]
pub struct Finding {
    /// Stable code, e.g. `"summary_mismatch"`.
    pub code: String,
    /// Severity.
    pub severity: Severity,
    /// One human sentence with the figures.
    pub message: String,
}

/// What the integrity verdict rests on: the kind of source the statement was read from.
#[uniffi::remote(Enum)]
pub enum EvidenceLevel {
    /// A PDF as Safaricom's service wrote it.
    PdfOriginal,
    /// A PDF decrypted or re-saved by another program.
    PdfResaved,
    /// A CSV export.
    Csv,
    /// The canonical JSON, or a statement built in code.
    Json,
}

/// Integrity of the statement as a whole.
#[uniffi::remote(Record)]
pub struct Integrity {
    /// `"verified"` (original Safaricom PDF, every check passed), `"consistent"` (every check
    /// passed on a re-saved PDF, CSV or JSON), `"warnings"` or `"failed"`.
    pub status: String,
    /// The kind of source the verdict rests on.
    pub evidence_level: EvidenceLevel,
    /// Whether the parsed rows add up to the statement's SUMMARY; `null` without a SUMMARY.
    pub summary_reconciled: Option<bool>,
    /// Findings, most severe first.
    pub findings: Vec<Finding>,
}

/// Money in and out for one calendar month (statement local time).
#[uniffi::remote(Record)]
pub struct MonthlyCashflow {
    /// `YYYY-MM`.
    pub month: String,
    /// Completed Paid In, major units of the statement's currency.
    pub paid_in: Decimal,
    /// Completed Withdrawn, major units of the statement's currency, positive.
    pub withdrawn: Decimal,
}

/// What the report says about the statement it scored.
#[uniffi::remote(Record)]
pub struct StatementOverview {
    /// Wallet, e.g. `"mpesa"`.
    pub provider: String,
    /// ISO 4217 currency of every amount in the report.
    pub currency: String,
    /// Holder name as printed, when the statement has one.
    pub holder_name: Option<String>,
    /// Holder mobile number with all but the last three digits masked.
    pub mobile_number_masked: Option<String>,
    /// First day covered, ISO 8601 date string.
    pub period_start: String,
    /// Last day covered, ISO 8601 date string.
    pub period_end: String,
    /// Number of rows.
    pub transaction_count: u32,
    /// Number of `Completed` rows.
    pub completed_count: u32,
    /// Sum of completed Paid In, major units of the statement's currency.
    pub total_paid_in: Decimal,
    /// Sum of completed Withdrawn, major units of the statement's currency, positive.
    pub total_withdrawn: Decimal,
    /// Money in and out per calendar month, oldest first.
    pub monthly: Vec<MonthlyCashflow>,
}

/// A score report: the fields of the report JSON, in its order.
#[uniffi::remote(Record)]
pub struct Report {
    /// `rpt_` + 24 hex digits: the same statement always gets the same id.
    pub report_id: String,
    /// Always `COMPLETED` from the engine.
    pub status: ReportStatus,
    /// 300–850.
    pub score: u16,
    /// Band of `score`.
    pub band: Band,
    /// `"<Mon YYYY> - <Mon YYYY>"`, e.g. `"May 2023 - May 2024"`.
    pub statement_period: String,
    /// One entry per scorecard characteristic, in scorecard order.
    pub factors: Vec<Factor>,
    /// Typed insights.
    pub insights: Vec<Insight>,
    /// Characteristics that cost points, largest loss first.
    pub reason_codes: Vec<ReasonCode>,
    /// Version of the scorecard that produced the points, e.g. `"alama-mpesa-2026.11"`.
    pub scorecard_version: String,
    /// Lowercase hex SHA-256 of the canonical JSON of the scorecard that produced the points.
    pub scorecard_sha256: String,
    /// Reconciliation, balance and tamper findings.
    pub integrity: Integrity,
    /// The statement scored.
    pub statement: StatementOverview,
}
