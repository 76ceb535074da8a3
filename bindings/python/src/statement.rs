//! `alama.Statement`, `alama.Transaction`, `alama.Summary` and `alama.SummaryRow`: read-only
//! views of the engine's canonical statement model, with dict, JSON, CSV and pandas forms.
//!
//! (Over 400 lines: one class per part of the statement model, a getter per field; the pandas
//! forms are methods of `Statement`, whose one `#[pymethods]` block `PyO3` keeps in one file.)

use alama_core::parse::{Format, ParseOptions};
use alama_core::statement::{Summary, SummaryRow};
use alama_core::{Statement, Transaction};
use chrono::{NaiveDate, NaiveDateTime};
use pyo3::exceptions::PyImportError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use rust_decimal::Decimal;
use serde_json::Value;

use crate::convert::{loads, to_value, wire};
use crate::error;

/// A parsed mobile-money statement (read-only).
///
/// Build one with `alama.parse(...)`, `Statement.from_dict(...)`, `Statement.from_json(...)` or
/// `Statement.from_pandas(...)`. Money is `decimal.Decimal` in major units of `currency` (KES
/// for M-Pesa, two decimal places); times are naive `datetime.datetime` in the wallet's local
/// time as printed (M-Pesa: Africa/Nairobi, UTC+03:00). `len(statement)` is the number of
/// transaction rows. Equal statements compare equal with `==`.
#[pyclass(name = "Statement", module = "alama", frozen, eq)]
#[derive(PartialEq)]
pub struct PyStatement(pub(crate) Statement);

#[pymethods]
impl PyStatement {
    /// The wallet that issued the statement: `"mpesa"` (Safaricom M-Pesa Kenya),
    /// `"airtel-money-ug"`, `"mtn-momo-gh"`, `"vodacom-mpesa-ls"`, or the older `"mtn-momo"`,
    /// `"airtel-money"`, `"other"`.
    #[getter]
    fn provider(&self) -> String {
        wire(&self.0.provider)
    }

    /// ISO 4217 currency of every amount (`"KES"` for M-Pesa Kenya, `"UGX"`, `"GHS"`, `"LSL"`).
    #[getter]
    fn currency(&self) -> &str {
        &self.0.currency
    }

    /// The wallet's country, ISO 3166-1 alpha-2 (`str`: `"KE"`, `"UG"`, `"GH"`, `"LS"`), as the
    /// statement says or else its provider's; `None` for a provider of no country (`"other"`).
    #[getter]
    fn country(&self) -> Option<&str> {
        alama_core::wallets::country_of(&self.0)
    }

    /// The IANA time zone every `completed_at` is local to (`str`: `"Africa/Nairobi"`,
    /// `"Africa/Kampala"`, `"Africa/Accra"`, `"Africa/Maseru"`), or `None` when unknown.
    #[getter]
    fn time_zone(&self) -> Option<&str> {
        alama_core::wallets::zone_of(&self.0)
    }

    /// The ISO 4217 minor-unit exponent of `currency` (`int`: KES 2, UGX 0), or `None` for a
    /// code the engine does not know. Amounts keep the precision the statement prints.
    #[getter]
    fn currency_exponent(&self) -> Option<u32> {
        self.0.minor_units()
    }

    /// The opening balance the statement prints (`decimal.Decimal`, major units of
    /// `currency`; Airtel's SUMMARY), or `None` when it prints none.
    #[getter]
    fn opening_balance(&self) -> Option<Decimal> {
        self.0.balances.map(|b| b.opening)
    }

    /// The closing balance the statement prints (`decimal.Decimal`, major units of
    /// `currency`), or `None` when it prints none.
    #[getter]
    fn closing_balance(&self) -> Option<Decimal> {
        self.0.balances.map(|b| b.closing)
    }

    /// "Customer Name" from the statement header, or `None`. Personal data.
    #[getter]
    fn holder_name(&self) -> Option<&str> {
        self.0.holder.name.as_deref()
    }

    /// "Mobile Number" from the statement header as printed, or `None`. Personal data.
    #[getter]
    fn mobile_number(&self) -> Option<&str> {
        self.0.holder.mobile_number.as_deref()
    }

    /// "Email Address" from the statement header, or `None`. Personal data.
    #[getter]
    fn email(&self) -> Option<&str> {
        self.0.holder.email.as_deref()
    }

    /// First day the statement covers (`datetime.date`, from its header), or `None`.
    #[getter]
    fn period_start(&self) -> Option<NaiveDate> {
        self.0.period.map(|p| p.start)
    }

    /// Last day the statement covers (`datetime.date`, inclusive), or `None`.
    #[getter]
    fn period_end(&self) -> Option<NaiveDate> {
        self.0.period.map(|p| p.end)
    }

    /// When the statement was requested (`datetime.date`), or `None`.
    #[getter]
    fn requested_at(&self) -> Option<NaiveDate> {
        self.0.requested_at
    }

    /// The statement's own SUMMARY table (`Summary`), or `None` when the source has none
    /// (CSV, JSON without one).
    #[getter]
    fn summary(&self) -> Option<PySummary> {
        self.0.summary.clone().map(PySummary)
    }

    /// Every transaction row (`list[Transaction]`), in the order the source lists them
    /// (M-Pesa: newest first). Each access builds a new list.
    #[getter]
    fn transactions(&self) -> Vec<PyTransaction> {
        self.0
            .transactions
            .iter()
            .cloned()
            .map(PyTransaction)
            .collect()
    }

    /// Facts about the source PDF (`dict` with `pages`, `encrypted`, `producer`, `creator`,
    /// `author`, `title`, `created`, `modified`, `declaredPages` when known), or `None`.
    #[getter]
    fn document<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.0
            .document
            .as_ref()
            .map(|d| loads(py, &serde_json::to_string(d).unwrap_or_default()))
            .transpose()
    }

    /// Source lines that looked like transactions but could not be read: `list[dict]` with
    /// `page`, `line` (int, 1-based; page 0 for sources without pages), `text` and `reason`.
    #[getter]
    fn unparsed<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loads(
            py,
            &serde_json::to_string(&self.0.unparsed).unwrap_or_default(),
        )
    }

    fn __len__(&self) -> usize {
        self.0.transactions.len()
    }

    fn __repr__(&self) -> String {
        // No personal data (name, number) in the repr: it ends up in notebooks and logs.
        let period = self
            .0
            .period
            .map_or_else(|| "None".to_owned(), |p| format!("{}..{}", p.start, p.end));
        format!(
            "<alama.Statement provider={:?} currency={:?} transactions={} period={period}>",
            wire(&self.0.provider),
            self.0.currency,
            self.0.transactions.len()
        )
    }

    /// The canonical JSON statement as Python objects (`dict`): camelCase keys, amounts as
    /// decimal strings (`"425.00"`), times as ISO 8601 strings. Exactly
    /// `json.loads(self.to_json())`; `Statement.from_dict` reads it back.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loads(py, &self.0.to_json())
    }

    /// The canonical JSON statement (`str`, compact), as every Alama surface writes it.
    fn to_json(&self) -> String {
        self.0.to_json()
    }

    /// The canonical CSV of the transactions (`str`; header `Receipt No,Completion Time,
    /// Details,Transaction Status,Paid In,Withdrawn,Balance,Category`). Header fields are not
    /// part of the CSV.
    fn to_csv(&self) -> String {
        self.0.to_csv()
    }

    /// One row per transaction as a `pandas.DataFrame` (needs pandas).
    ///
    /// Columns: `receipt_no` (str), `completed_at` (datetime64, naive local time of
    /// `time_zone`), `details` (str), `status` (str: `completed`, `cancelled`, `failed`,
    /// `other`), `paid_in`, `withdrawn` (object dtype holding exact `decimal.Decimal`, major
    /// units of `currency`, withdrawn positive), `balance` (object: `Decimal` or `None`),
    /// `category` (str, `snake_case`), then the wallet's own per-row fields, `None` where the
    /// source has none: `transaction_type` (str, as printed), `fee`, `tax`, `balance_before`
    /// (object: `Decimal`, major units of `currency`). Use `df["paid_in"].astype(float)` for
    /// plotting. `df.attrs` carries the header: `provider`, `currency`, `currency_exponent`,
    /// `country`, `time_zone`; `Statement.from_pandas` reads `provider` and `currency` back.
    ///
    /// Raises `ImportError` when pandas is not installed.
    fn to_pandas<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let pandas = import_pandas(py)?;
        let rows = &self.0.transactions;
        let columns = PyDict::new(py);
        columns.set_item("receipt_no", column(py, rows, |t| t.receipt_no.clone())?)?;
        columns.set_item("completed_at", column(py, rows, |t| t.completed_at)?)?;
        columns.set_item("details", column(py, rows, |t| t.details.clone())?)?;
        columns.set_item("status", column(py, rows, |t| wire(&t.status))?)?;
        columns.set_item("paid_in", column(py, rows, |t| t.paid_in)?)?;
        columns.set_item("withdrawn", column(py, rows, |t| t.withdrawn)?)?;
        columns.set_item("balance", column(py, rows, |t| t.balance)?)?;
        columns.set_item("category", column(py, rows, |t| wire(&t.category))?)?;
        columns.set_item(
            "transaction_type",
            column(py, rows, |t| t.transaction_type.clone())?,
        )?;
        columns.set_item("fee", column(py, rows, |t| t.fee)?)?;
        columns.set_item("tax", column(py, rows, |t| t.tax)?)?;
        columns.set_item("balance_before", column(py, rows, |t| t.balance_before)?)?;
        let frame = pandas.getattr("DataFrame")?.call1((columns,))?;
        let attrs = frame.getattr("attrs")?;
        attrs.set_item("provider", wire(&self.0.provider))?;
        attrs.set_item("currency", &self.0.currency)?;
        attrs.set_item("currency_exponent", self.0.minor_units())?;
        attrs.set_item("country", alama_core::wallets::country_of(&self.0))?;
        attrs.set_item("time_zone", alama_core::wallets::zone_of(&self.0))?;
        Ok(frame)
    }

    /// Reads a statement from its canonical dict (the form `to_dict` returns).
    ///
    /// Values may also be `decimal.Decimal` or `int` for amounts, and naive
    /// `datetime.datetime` / `datetime.date` for times and dates. The engine fills in a
    /// missing `category`.
    ///
    /// Raises `TypeError` for `float` amounts (a float has lost the cents) and values with no
    /// JSON form, `ValueError` for timezone-aware datetimes, `MalformedStatementError` when the
    /// dict is not a statement (missing field, bad amount, unknown status…), `TooLargeError`
    /// beyond the row limit.
    #[staticmethod]
    fn from_dict(py: Python<'_>, data: &Bound<'_, PyDict>) -> PyResult<PyStatement> {
        let value = to_value(data.as_any(), "")?;
        from_value(py, &value)
    }

    /// Reads the canonical JSON statement (`str` or `bytes`).
    ///
    /// Raises `MalformedStatementError` when it is not a statement (including amounts given
    /// as JSON floats).
    #[staticmethod]
    fn from_json(py: Python<'_>, json: &Bound<'_, PyAny>) -> PyResult<PyStatement> {
        let bytes: Vec<u8> = match json.extract::<String>() {
            Ok(text) => text.into_bytes(),
            Err(_) => json.extract()?,
        };
        parse_json(py, &bytes)
    }

    /// Builds a statement from a `pandas.DataFrame` with the columns `to_pandas` writes.
    ///
    /// Required columns: `receipt_no`, `completed_at` (naive datetimes, local time),
    /// `details` (str, may be empty), `status`, `paid_in`, `withdrawn` (`decimal.Decimal`,
    /// `str` or `int`, major units of `currency`, withdrawn positive). Optional: `balance`,
    /// `category`, `transaction_type`, `fee`, `tax`, `balance_before`. Other columns are
    /// ignored. Missing values (`None`, `NaN`, `NaT`) count as absent: fine in optional
    /// columns, `MalformedStatementError` in required ones. `provider` and `currency` set the
    /// header fields; when not given, those in `df.attrs` (as `to_pandas` writes them), else
    /// `"mpesa"` and `"KES"`.
    ///
    /// Raises `TypeError` for float amounts (convert with `df["paid_in"].map(Decimal)` from
    /// strings, or read the CSV with `alama.parse`), `MalformedStatementError` for missing
    /// columns or bad values, `ImportError` without pandas.
    #[staticmethod]
    #[pyo3(signature = (df, *, provider = None, currency = None))]
    fn from_pandas(
        py: Python<'_>,
        df: &Bound<'_, PyAny>,
        provider: Option<String>,
        currency: Option<String>,
    ) -> PyResult<PyStatement> {
        import_pandas(py)?;
        let attrs = df.getattr("attrs")?;
        let attr = |key: &str| -> PyResult<Option<String>> {
            match attrs.get_item(key) {
                Ok(value) if !value.is_none() => value.extract().map(Some),
                _ => Ok(None),
            }
        };
        let provider = provider.map_or_else(|| attr("provider"), |p| Ok(Some(p)))?;
        let currency = currency.map_or_else(|| attr("currency"), |c| Ok(Some(c)))?;
        let provider = provider.unwrap_or_else(|| "mpesa".to_owned());
        let currency = currency.unwrap_or_else(|| "KES".to_owned());
        // Missing values of any dtype become None; numpy scalars become Python scalars.
        let objects = df.call_method1("astype", ("object",))?;
        let mask = df.call_method0("notna")?;
        let records = objects
            .call_method1("where", (mask, py.None()))?
            .call_method1("to_dict", ("records",))?;
        let mut transactions = Vec::new();
        for (i, record) in records.try_iter()?.enumerate() {
            let record = record?;
            let record = record.cast::<PyDict>()?;
            let mut row = serde_json::Map::new();
            for (column, key) in COLUMNS {
                if let Some(cell) = record.get_item(column)?.filter(|c| !c.is_none()) {
                    row.insert(
                        key.to_owned(),
                        to_value(&cell, &format!("row {i} column {column}"))?,
                    );
                }
            }
            transactions.push(Value::Object(row));
        }
        let statement = serde_json::json!({
            "provider": provider,
            "currency": currency,
            "transactions": transactions,
        });
        from_value(py, &statement)
    }
}

/// `DataFrame` column → canonical JSON key.
const COLUMNS: [(&str, &str); 12] = [
    ("receipt_no", "receiptNo"),
    ("completed_at", "completedAt"),
    ("details", "details"),
    ("status", "status"),
    ("paid_in", "paidIn"),
    ("withdrawn", "withdrawn"),
    ("balance", "balance"),
    ("category", "category"),
    ("transaction_type", "transactionType"),
    ("fee", "fee"),
    ("tax", "tax"),
    ("balance_before", "balanceBefore"),
];

fn import_pandas(py: Python<'_>) -> PyResult<Bound<'_, PyModule>> {
    py.import("pandas").map_err(|e| {
        PyImportError::new_err(format!(
            "this needs pandas: pip install 'alama[pandas]' (or pip install pandas): {}",
            e.value(py)
        ))
    })
}

fn column<'py, T, F>(py: Python<'py>, rows: &[Transaction], f: F) -> PyResult<Bound<'py, PyList>>
where
    F: Fn(&Transaction) -> T,
    T: IntoPyObject<'py>,
{
    PyList::new(py, rows.iter().map(f))
}

fn from_value(py: Python<'_>, value: &Value) -> PyResult<PyStatement> {
    parse_json(py, &serde_json::to_vec(value).unwrap_or_default())
}

fn parse_json(py: Python<'_>, bytes: &[u8]) -> PyResult<PyStatement> {
    let options = ParseOptions {
        format: Some(Format::Json),
        ..ParseOptions::default()
    };
    error::map(py, alama_core::parse(bytes, &options)).map(|s| PyStatement(s.into_statement()))
}

/// One row of a statement (read-only).
///
/// Money is `decimal.Decimal`, major units of the statement's currency; `completed_at` is a
/// naive `datetime.datetime` in the wallet's local time as printed (`Statement.time_zone`;
/// M-Pesa: Africa/Nairobi, UTC+03:00).
#[pyclass(name = "Transaction", module = "alama", frozen, eq)]
#[derive(PartialEq)]
pub struct PyTransaction(pub(crate) Transaction);

#[pymethods]
impl PyTransaction {
    /// M-Pesa receipt number (`str`, e.g. `"SEN4AB12CD"`). Several rows can share one.
    #[getter]
    fn receipt_no(&self) -> &str {
        &self.0.receipt_no
    }

    /// Completion time (`datetime.datetime`, naive, local time as printed).
    #[getter]
    fn completed_at(&self) -> NaiveDateTime {
        self.0.completed_at
    }

    /// The Details text (`str`), wrapped lines joined by single spaces; may be empty.
    #[getter]
    fn details(&self) -> &str {
        &self.0.details
    }

    /// Status (`str`): `"completed"`, `"cancelled"`, `"failed"` or `"other"`. Only completed
    /// rows count in the score.
    #[getter]
    fn status(&self) -> String {
        wire(&self.0.status)
    }

    /// Paid In (`decimal.Decimal`, major units of the statement's currency, `>= 0`).
    #[getter]
    fn paid_in(&self) -> Decimal {
        self.0.paid_in
    }

    /// Withdrawn (`decimal.Decimal`, major units of the statement's currency, positive; fees
    /// and taxes included; M-Pesa prints it with a leading `-`).
    #[getter]
    fn withdrawn(&self) -> Decimal {
        self.0.withdrawn
    }

    /// Balance after the row (`decimal.Decimal`, major units of the statement's currency), or
    /// `None`.
    #[getter]
    fn balance(&self) -> Option<Decimal> {
        self.0.balance
    }

    /// Net effect on the wallet, `paid_in - withdrawn` (`decimal.Decimal`, statement currency).
    #[getter]
    fn net(&self) -> Decimal {
        self.0.net()
    }

    /// The engine's category of the row (`str`, `snake_case`, e.g. `"buy_goods"`,
    /// `"fuliza_draw"`).
    #[getter]
    fn category(&self) -> String {
        wire(&self.0.category)
    }

    /// The row's own transaction type as the wallet prints it (`str`, e.g. MTN's
    /// `"CASH_OUT"`), or `None` when the source has no such column (M-Pesa Kenya).
    #[getter]
    fn transaction_type(&self) -> Option<&str> {
        self.0.transaction_type.as_deref()
    }

    /// The fee the wallet printed for the row (`decimal.Decimal`, major units of the
    /// statement's currency; Airtel's Fee, MTN's FEES), already inside `withdrawn`; or `None`.
    #[getter]
    fn fee(&self) -> Option<Decimal> {
        self.0.fee
    }

    /// The tax or levy printed for the row (`decimal.Decimal`, major units; Ghana's E-LEVY),
    /// already inside `withdrawn`; or `None`.
    #[getter]
    fn tax(&self) -> Option<Decimal> {
        self.0.tax
    }

    /// The balance before the row as printed (`decimal.Decimal`, major units; MTN's
    /// `BAL BEFORE`), or `None`.
    #[getter]
    fn balance_before(&self) -> Option<Decimal> {
        self.0.balance_before
    }

    /// The row in canonical JSON form (`dict`: camelCase keys, amounts as decimal strings).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        loads(py, &serde_json::to_string(&self.0).unwrap_or_default())
    }

    fn __repr__(&self) -> String {
        format!(
            "<alama.Transaction {} {} {} in={} out={}>",
            self.0.receipt_no,
            self.0.completed_at,
            wire(&self.0.category),
            self.0.paid_in,
            self.0.withdrawn
        )
    }
}

/// The SUMMARY table printed on an M-Pesa statement: one row per transaction type plus TOTAL.
#[pyclass(name = "Summary", module = "alama", frozen)]
pub struct PySummary(Summary);

#[pymethods]
impl PySummary {
    /// One row per transaction type (`list[SummaryRow]`, e.g. "SEND MONEY", "PAY BILL").
    #[getter]
    fn rows(&self) -> Vec<PySummaryRow> {
        self.0.rows.iter().cloned().map(PySummaryRow).collect()
    }

    /// The TOTAL row (`SummaryRow`).
    #[getter]
    fn total(&self) -> PySummaryRow {
        PySummaryRow(self.0.total.clone())
    }

    fn __repr__(&self) -> String {
        format!(
            "<alama.Summary rows={} paid_in={} paid_out={}>",
            self.0.rows.len(),
            self.0.total.paid_in,
            self.0.total.paid_out
        )
    }
}

/// One row of a statement's SUMMARY table.
#[pyclass(name = "SummaryRow", module = "alama", frozen)]
pub struct PySummaryRow(SummaryRow);

#[pymethods]
impl PySummaryRow {
    /// Transaction type as printed, upper case (`str`, e.g. `"CASH OUT"`), or `"TOTAL"`.
    #[getter]
    fn transaction_type(&self) -> &str {
        &self.0.transaction_type
    }

    /// Sum of Paid In (`decimal.Decimal`, major units of the statement's currency).
    #[getter]
    fn paid_in(&self) -> Decimal {
        self.0.paid_in
    }

    /// Sum of Withdrawn (`decimal.Decimal`, major units of the statement's currency, positive).
    #[getter]
    fn paid_out(&self) -> Decimal {
        self.0.paid_out
    }

    fn __repr__(&self) -> String {
        format!(
            "<alama.SummaryRow {:?} paid_in={} paid_out={}>",
            self.0.transaction_type, self.0.paid_in, self.0.paid_out
        )
    }
}
