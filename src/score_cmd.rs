//! `alama score FILE…`: parse, score, print the report.
//!
//! One file: the report in the chosen format, as it always was. Several files, a folder or
//! `--passwords`: batch mode ([`crate::batch`]), one JSON line per statement.

use std::num::NonZeroUsize;
use std::path::PathBuf;

use clap::{Args, ValueEnum};

use crate::batch;
use crate::input::{describe, options, score_file};
use crate::passwords::Passwords;

/// Output of `alama score`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReportFormat {
    /// The canonical compact JSON report (one line), identical in every binding.
    Json,
    /// The same JSON, indented.
    JsonPretty,
    /// A readable summary for a person.
    Text,
}

/// Arguments of `alama score`.
#[derive(Debug, Args)]
pub struct ScoreArgs {
    /// Statement files (a wallet's PDF, CSV or spreadsheet, or the canonical JSON or CSV; `-`
    /// reads standard input) or folders (their .pdf, .csv, .json and .xlsx files, at any depth). More than one, or a
    /// folder, prints JSON Lines: one report or one `{"file", "error"}` per statement.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Password of an encrypted PDF (Safaricom: normally the customer's ID number); in a batch,
    /// the password of every file that `--passwords` does not name.
    #[arg(long, env = "ALAMA_PASSWORD", hide_env_values = true)]
    password: Option<String>,
    /// Input format, when detection from the content is not wanted: pdf, csv, json or xlsx.
    #[arg(long, value_name = "FORMAT")]
    input_format: Option<String>,
    /// Output format (a batch writes JSON Lines: `json` only).
    #[arg(long, value_enum, default_value = "json")]
    format: ReportFormat,
    /// A CSV of `file name,password` rows giving each statement's password (batch mode).
    #[arg(long, value_name = "CSV")]
    passwords: Option<PathBuf>,
    /// Score with this scorecard (JSON, see `alama scorecard`) instead of the built-in one.
    #[arg(long, value_name = "CARD")]
    scorecard: Option<PathBuf>,
    /// The day of analysis (YYYY-MM-DD): a statement dated after it, or requested after it,
    /// cannot be genuine and fails (`after_analysis_date`). Default: today (UTC). The report
    /// depends on it only through that finding.
    #[arg(long, value_name = "DATE")]
    as_of: Option<chrono::NaiveDate>,
    /// Statements scored at once in a batch (default: all cores).
    #[arg(long, value_name = "N")]
    jobs: Option<NonZeroUsize>,
    /// Also write the shareable PDF credit report to this path (one statement only).
    #[cfg(feature = "pdf-report")]
    #[arg(long, value_name = "PATH")]
    pdf: Option<std::path::PathBuf>,
}

impl ScoreArgs {
    fn is_batch(&self) -> bool {
        self.files.len() > 1 || self.passwords.is_some() || self.files.iter().any(|f| f.is_dir())
    }
}

/// Runs `alama score`.
pub fn run(args: &ScoreArgs) -> Result<(), String> {
    let own = args
        .scorecard
        .as_deref()
        .map(crate::scorecard_cmd::load)
        .transpose()?;
    // Without --scorecard each statement is scored with the built-in card of its currency.
    let card = own.as_ref();
    if args.is_batch() {
        return run_batch(args, card);
    }
    let mut options =
        options(args.password.clone(), args.input_format.as_deref()).map_err(|e| describe(&e))?;
    options.as_of = Some(args.as_of.unwrap_or_else(today));
    let file = args
        .files
        .first()
        .ok_or("error[usage_error]: no statement file given")?;
    let report = score_file(file, &options, card).map_err(|e| describe(&e))?;
    #[cfg(feature = "pdf-report")]
    if let Some(path) = &args.pdf {
        write_pdf(&report, path)?;
    }
    let out = match args.format {
        ReportFormat::Json => report.to_json(),
        ReportFormat::JsonPretty => report.to_json_pretty(),
        ReportFormat::Text => crate::text::render(&report),
    };
    crate::output::write_stdout(format!("{out}\n").as_bytes())
}

/// Today's date in UTC, the default day of analysis.
pub(crate) fn today() -> chrono::NaiveDate {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    chrono::DateTime::from_timestamp(i64::try_from(seconds).unwrap_or(0), 0)
        .map(|t| t.date_naive())
        .unwrap_or_default()
}

/// Scores many statements: JSON Lines on standard output; exit code 1 when any failed.
fn run_batch(args: &ScoreArgs, card: Option<&alama_core::Scorecard>) -> Result<(), String> {
    if args.format != ReportFormat::Json {
        return Err(usage_error(
            "several statements print JSON Lines: use --format json (the default)",
        ));
    }
    #[cfg(feature = "pdf-report")]
    if args.pdf.is_some() {
        return Err(usage_error(
            "--pdf writes the report of one statement: give one file",
        ));
    }
    let mut base = options(None, args.input_format.as_deref()).map_err(|e| describe(&e))?;
    base.as_of = Some(args.as_of.unwrap_or_else(today));
    let passwords = match &args.passwords {
        Some(path) => Passwords::load(path)?,
        None => Passwords::default(),
    };
    let files = batch::expand(&args.files, args.passwords.as_deref());
    if files.is_empty() {
        return Err(
            "error[empty_statement]: no statements (.pdf, .csv, .json or .xlsx files) in the given folders"
                .to_owned(),
        );
    }
    let jobs = batch::jobs(files, &base, args.password.as_deref(), &passwords);
    let workers = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN));
    let failed = batch::run(&jobs, workers, card)?;
    if failed > 0 {
        return Err(format!(
            "alama: {failed} of {} statements could not be scored (their lines carry the error)",
            jobs.len()
        ));
    }
    Ok(())
}

/// A usage error in the CLI's one error style (`usage.rs`): `error[usage_error]: …`, exit code 1.
fn usage_error(message: &str) -> String {
    format!("error[{}]: {message}", crate::usage::CODE)
}

/// Renders the PDF report, stamped with the current time (UTC; the report prints it in the
/// statement's zone, labelled).
#[cfg(feature = "pdf-report")]
fn write_pdf(report: &alama_core::Report, path: &std::path::Path) -> Result<(), String> {
    use alama_core::pdf_report::{RenderOptions, render};
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    let utc = chrono::DateTime::from_timestamp(now, 0)
        .unwrap_or_default()
        .naive_utc();
    let bytes = render(report, &RenderOptions::new(utc)).map_err(|e| describe(&e))?;
    std::fs::write(path, bytes)
        .map_err(|e| format!("error[io_error]: cannot write {}: {e}", path.display()))
}
