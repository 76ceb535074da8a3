//! What a wallet is to the engine ([`Wallet`]): facts as data (country, currency, time zone,
//! launch date, balance floor, the writer of its PDFs, what its statements print) and the few
//! behaviours that are the wallet's own words (its readers, its rule table, how a row names a
//! counterparty, which rows draw on its overdraft). Every stage asks these, never which wallet
//! a statement is.

use chrono::NaiveDate;
use rust_decimal::Decimal;

use crate::categorise::Table;
use crate::error::Result;
use crate::limits::Limits;
use crate::pdf;
use crate::statement::{PdfBuild, Provider, Statement, Transaction};

/// One wallet: all the engine knows of it. Each wallet's folder declares one as a `static`;
/// the registry ([`super::ALL`]) lists them.
#[derive(Debug)]
pub struct Wallet {
    /// The id statements carry ([`Provider`]), e.g. `"airtel-money-ug"`.
    pub id: &'static str,
    /// The wallet's name for people, e.g. `"Airtel Money Uganda"`.
    pub name: &'static str,
    /// The company that runs it, as sentences name it (`"Safaricom"`, `"Airtel Uganda"`).
    pub operator: &'static str,
    /// The wallet's country, ISO 3166-1 alpha-2 (`"UG"`); `None` for a generic wallet.
    pub country: Option<&'static str>,
    /// The ISO 4217 code of the currency its statements are in (`"UGX"`); `None` for a generic
    /// wallet (the statement says).
    pub currency: Option<&'static str>,
    /// The IANA time zone its statements print times in (`"Africa/Kampala"`); `None` for a
    /// generic wallet.
    pub time_zone: Option<&'static str>,
    /// The formats of its statements the engine reads, for messages (`"statement PDF"`).
    pub formats: &'static str,
    /// Its readers: the layouts of the files it sends.
    pub(crate) layouts: Layouts,
    /// Its rule table: its words → the one category taxonomy.
    pub rules: &'static Table,
    /// How one of its person-to-person rows names the other party (see [`Counterparty`]).
    pub counterparty: Counterparty,
    /// Whether a row moved money through the wallet's overdraft (Safaricom's Fuliza: its rows
    /// name it in their Details, also when the row's category is the payment it funded).
    pub overdraft_row: fn(&Transaction) -> bool,
    /// What its statements print and what a genuine one cannot show.
    pub profile: Profile,
    /// Its seeded generator: its files and its words, for the conformance suite (feature
    /// `testing`).
    #[cfg(feature = "testing")]
    pub generator: Option<super::synthetic::Generator>,
}

/// The name a person-to-person row gives the other party, normalised (lower case, single
/// spaces, masks and numbers as the wallet's grammar keeps them), written into the buffer:
/// the key round trips are matched by (`crate::features`). `None` when the row names nobody.
pub type Counterparty = for<'b> fn(&Transaction, &'b mut String) -> Option<&'b str>;

impl Wallet {
    /// The [`Provider`] its statements carry.
    pub const fn provider(&'static self) -> Provider {
        Provider::new(self.id)
    }

    /// The country of `statement` (ISO 3166-1 alpha-2): the statement's own when it says, else
    /// the wallet's.
    pub fn country_of<'s>(&self, statement: &'s Statement) -> Option<&'s str>
    where
        Self: 's,
    {
        statement.country.as_deref().or(self.country)
    }

    /// The IANA time zone of `statement`'s times: the statement's own when it says, else the
    /// wallet's.
    pub fn zone_of<'s>(&self, statement: &'s Statement) -> Option<&'s str>
    where
        Self: 's,
    {
        statement.time_zone.as_deref().or(self.time_zone)
    }

    /// The word for the wallet's overdraft in sentences: its product's name (`"Fuliza"`), or
    /// `"overdraft"` when it has none of its own.
    pub fn overdraft_word(&self) -> &'static str {
        self.profile.overdraft.unwrap_or("overdraft")
    }
}

/// The layouts of a wallet's files.
#[derive(Debug, Default)]
pub(crate) struct Layouts {
    /// Its PDF statement, when it sends one.
    pub pdf: Option<PdfLayout>,
    /// Its table export (a CSV, or a spreadsheet read as one), when it sends one.
    pub csv: Option<CsvLayout>,
}

/// A PDF layout: who writes it (for routing a file to its reader first) and its reader.
#[derive(Debug)]
pub(crate) struct PdfLayout {
    /// Words of the `/Producer` or `/Creator` of its files (`b"wkhtmltopdf"`), found in a
    /// file's plain bytes or its decoded document facts; a file that names one is read by this
    /// layout first. Empty: tried in registry order.
    pub writers: &'static [&'static [u8]],
    /// Reads an opened PDF: `Ok(None)` when its pages are not this layout.
    ///
    /// # Errors
    /// The reader's (`UnsupportedWallet` for text it does not read, `Malformed`, `TooLarge`).
    pub read: fn(&pdf::Document) -> Result<Option<Statement>>,
}

/// A table layout (CSV; a spreadsheet is read as its CSV).
#[derive(Debug)]
pub(crate) struct CsvLayout {
    /// Whether the file's first lines hold this layout's header (format detection asks this
    /// of a file that does not look delimited on its first line, such as one with a title).
    pub recognise: fn(&[u8]) -> bool,
    /// Reads the file: `Ok(None)` when its header is not this layout's.
    ///
    /// # Errors
    /// The reader's (`Malformed`, `UnsupportedWallet` for a header it half knows).
    pub read: fn(&[u8], &Limits) -> Result<Option<Statement>>,
}

/// What a wallet's statements print, and what a genuine one cannot show.
#[derive(Debug)]
pub struct Profile {
    /// The day the wallet launched, with the source: no row is dated before it.
    pub launched: Option<Launch>,
    /// The lowest balance its statements print.
    pub balance_floor: Option<Floor>,
    /// The most completed rows one completion time may hold (a movement prints a few rows at
    /// once: a payment, its charge, the overdraft draw funding it and its fee).
    pub max_rows_at_one_time: usize,
    /// How its running balance chains from row to row.
    pub chain: Chain,
    /// Its genuine PDFs' writer, when it sends PDFs.
    pub pdf: Option<PdfWriter>,
    /// Its overdraft product's name in sentences (`"Fuliza"`); `None`: "overdraft".
    pub overdraft: Option<&'static str>,
    /// Whether its SUMMARY may count the completed rows alone (a wallet whose rule for rows
    /// that did not succeed is not measured); every wallet's may count every listed row, or
    /// every row but failed ones.
    pub summary_completed_only: bool,
    /// What its transaction ids say of time (`crate::check::ids`): a row whose id disagrees
    /// with its completion time was invented or had its date edited.
    pub ids: Ids,
    /// The hint an encrypted file's password error gives (`"normally the customer's ID
    /// number"`), when the wallet encrypts its statements.
    pub password_hint: Option<&'static str>,
    /// Its published tariff, where it is data ([`Tariff`]); `None`: no charge is checked.
    pub tariff: Option<Tariff>,
    /// The government levy its statements print in a column of their own, where the law is
    /// data ([`Levy`]); `None`: no levy is checked.
    pub levy: Option<Levy>,
    /// The SUMMARY's type lines that the rows fix exactly ([`SummaryLine`]), measured on the
    /// wallet's genuine statements; empty: none is compared with the rows.
    pub summary_lines: &'static [SummaryLine],
}

/// One type line of a wallet's SUMMARY whose Paid In is exactly the sum of the rows whose
/// Details start with `details` (every listed row, Cancelled ones included, as the TOTAL): a
/// credit of that kind raised or invented with the TOTAL made to agree and the line left as
/// printed shows (`summary_line_off`, `crate::check::reconcile`).
#[derive(Debug, Clone, Copy)]
pub struct SummaryLine {
    /// The line's transaction type as printed (`"AGENT DEPOSIT"`).
    pub transaction_type: &'static str,
    /// The start of the Details of the rows it sums (`"Deposit of Funds at Agent Till"`).
    pub details: &'static str,
}

/// What a wallet's transaction ids ([`Transaction::receipt_no`]) say of when they were made,
/// measured on a genuine sample.
#[derive(Debug, Clone, Copy)]
pub enum Ids {
    /// Nothing (Vodacom Lesotho prints no id; the generic wallet's are not known).
    Unordered,
    /// Numbers that rise with time (Airtel Uganda's Transaction ID, MTN Ghana's `F_ID`: 23 and
    /// 105 rows without an exception): a row whose id is lower than that of a row completed
    /// earlier shows (`ids_out_of_order`).
    RiseWithTime,
    /// Each id carries the day it was made, in the statement's time zone, which `day_of` reads
    /// (`None` for an id of no day). M-Pesa Kenya's receipts (their first three characters,
    /// `wallets::safaricom_ke::receipt`). A completed row whose id carries another day than its
    /// completion's shows (`receipt_off_day`; `crate::check::ids` names the exceptions: the
    /// rows of a reversal's receipt, the first minutes after midnight).
    CarryTheirDay {
        /// The day an id carries.
        day_of: fn(&str) -> Option<NaiveDate>,
    },
}

/// A government levy a wallet prints beside each row it applies to ([`Transaction::tax`]:
/// Ghana's E-LEVY), as data: the most the law lets it be. Only a bound from above: what a levy
/// exempts (Ghana's first GHS 100 a day, counted over every account the person holds) is not
/// on the statement, so a levy below the rate is no evidence. A levy above it shows an amount
/// lowered after the fact or a row invented with a levy copied (`crate::check::fees`).
#[derive(Debug, Clone, Copy)]
pub struct Levy {
    /// The most the law allows on a row completed on `day` (the statement's time zone) that
    /// transferred `value` (the amount, its fee and levy left out), both in major units of the
    /// statement's currency; 0 on a day no levy was in force.
    pub most: fn(NaiveDate, Decimal) -> Decimal,
    /// Where the law comes from, for messages (`"Ghana's Electronic Transfer Levy Act …"`).
    pub source: &'static str,
}

/// A wallet's published tariff as data (its tables, sources and dates live in the wallet's
/// folder): the charge it sets on a row whose charge the statement prints as a row of its own
/// under the same receipt and completion time (Safaricom's `Customer Transfer of Funds
/// Charge`). A charge the tariff does not set shows an amount changed after the fact or a row
/// invented without its charge (`crate::check::fees`).
#[derive(Debug, Clone, Copy)]
pub struct Tariff {
    /// The charge the tariff sets on a completed row, major units of the statement's currency;
    /// `None` where no table covers the row (another kind of row, a day before the tables, an
    /// amount outside their bands).
    pub charge: fn(&Transaction) -> Option<Decimal>,
    /// Whether a row is the charge row of the row it shares a receipt with.
    pub is_charge: fn(&Transaction) -> bool,
    /// Where the tables come from, for messages (`"Safaricom's M-Pesa tariff of …"`).
    pub source: &'static str,
}

/// A wallet's launch day and where that is written.
#[derive(Debug, Clone, Copy)]
pub struct Launch {
    /// The first day a row can carry.
    pub date: NaiveDate,
    /// The source of the date (a press release, a regulator's register).
    pub source: &'static str,
}

/// The lowest balance a wallet prints.
#[derive(Debug, Clone, Copy)]
pub struct Floor {
    /// The floor, major units of the statement's currency.
    pub balance: Decimal,
    /// Whether rows at a completion time with an overdraft row ([`Wallet::overdraft_row`]) may
    /// print a balance below it (Safaricom's 2019 statements printed the overdrawn balance on
    /// a payment made with Fuliza).
    pub overdraft_may_go_below: bool,
}

/// How a wallet's running balance chains (see `crate::check`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chain {
    /// Not every movement is listed (Safaricom: Fuliza repayments taken from incoming money):
    /// a break alone is no evidence; an edit is told by its signature (a balance that
    /// disagrees with both neighbours, arithmetic broken inside a time, a SUMMARY mismatch).
    Unlisted,
    /// Every movement is listed: rows at most `group_seconds` apart are one group; a group
    /// that does not chain, even with the rows just after it, is a break. The wallet's genuine
    /// quirks (another account's balances, a levy taken after the balance, amounts printed as
    /// 0, a charge row that does not move the balance) are classified as `info`.
    Listed {
        /// Rows at most this many seconds apart are one group.
        group_seconds: i64,
        /// Rows this many seconds apart or less may have settled in the other order: a group
        /// that does not chain is read together with the rows that follow it within this
        /// window before it counts as a break.
        settle_seconds: i64,
        /// Whether an unexplained break is evidence (`warning`); `false` where the wallet's
        /// genuine statements break for reasons not yet explained (`info`).
        breaks_are_evidence: bool,
    },
}

/// What a wallet's genuine PDF writer produces.
#[derive(Debug)]
pub struct PdfWriter {
    /// The programs that write its statements.
    pub writers: &'static [Writer],
    /// Fonts its statements use (`/BaseFont` without subset prefix, prefix match); empty: not
    /// checked.
    pub fonts: &'static [&'static str],
    /// Whether it sends its statements encrypted.
    pub encrypted: bool,
    /// Seconds after creation within which a modification time is the writer's own (Safaricom
    /// encrypts a statement a few seconds after writing it).
    pub modified_grace_seconds: i64,
}

/// One program that writes a wallet's PDFs, as its files name and build it.
#[derive(Debug)]
pub struct Writer {
    /// `/Producer` prefix, lower case (`"openpdf"`).
    pub producer: &'static str,
    /// `/Creator` prefix, lower case; empty for any.
    pub creator: &'static str,
    /// The binary comment on the file's second line, lower-case hex (`"f6e4fcdf"`), when the
    /// writer writes one the engine checks.
    pub marker: Option<&'static str>,
    /// How its files are laid out ([`PdfBuild`]), when measured: a file that names this
    /// writer but is laid out otherwise was re-saved or re-drawn by another program.
    pub build: Option<PdfBuild>,
    /// Whether it shows every glyph of a two-byte font with its own text-showing string,
    /// placed by the previous glyph's advance in 64ths of a unit (Qt 4.8 places each glyph
    /// with its own `Td`, in 26.6 fixed point): a string of several glyphs, or a glyph placed
    /// by another move or operator, is another program's text
    /// ([`PdfStructure::placed_otherwise`](crate::statement::PdfStructure::placed_otherwise)).
    pub one_glyph_per_string: bool,
    /// Whether its subset fonts number their glyphs 1, 2, 3, … in the order the document first
    /// draws them (Qt 4.8's `QFontSubset`): a glyph drawn before the glyph numbered below it,
    /// or a glyph of the subset no page draws, was written in or edited away by another
    /// program ([`PdfStructure::glyphs_numbered_otherwise`](crate::statement::PdfStructure::glyphs_numbered_otherwise)).
    pub glyphs_by_first_use: bool,
    /// Whether it right-aligns the amounts of its transaction table by starting each at its
    /// column's edge less the text's width, written to 0.01 pt (iText 5's and `OpenPDF`'s
    /// `ByteBuffer.formatDouble`): every amount then starts on a hundredth of a point and ends
    /// within 0.01 pt of every other of its column, and one that does not was moved by another
    /// program
    /// ([`PdfStructure::off_rounding`](crate::statement::PdfStructure::off_rounding)).
    pub starts_to_hundredths: bool,
}
