//! `alama apply FILE…`: several statements of one applicant scored as one application, and,
//! with `--principal`, `--tenor-months` and a price, whether the loan asked for fits
//! (docs/applications.md, docs/affordability.md).

use std::fmt::Write;
use std::path::PathBuf;

use alama_core::{ApplicationReport, Severity, Terms};
use clap::Args;
use rust_decimal::Decimal;

use crate::input::{describe, options, read_statement};
use crate::passwords::Passwords;
use crate::score_cmd::ReportFormat;

/// Arguments of `alama apply`.
#[derive(Debug, Args)]
pub struct ApplyArgs {
    /// The applicant's statement files (any format `alama score` reads), in any order: one or
    /// more lines, consecutive or overlapping periods, one currency.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Password of every encrypted PDF that `--passwords` does not name.
    #[arg(long, env = "ALAMA_PASSWORD", hide_env_values = true)]
    password: Option<String>,
    /// A CSV of `file name,password` rows giving each statement's password.
    #[arg(long, value_name = "CSV")]
    passwords: Option<PathBuf>,
    /// Score with this scorecard (JSON, see `alama scorecard`) instead of the built-in one.
    #[arg(long, value_name = "CARD")]
    scorecard: Option<PathBuf>,
    /// The day of analysis (YYYY-MM-DD); default: today (UTC), as `alama score`.
    #[arg(long, value_name = "DATE")]
    as_of: Option<chrono::NaiveDate>,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    format: ReportFormat,
    /// The loan asked for, in the statements' currency, major units (e.g. 20000).
    #[arg(long, value_name = "AMOUNT", requires = "tenor_months")]
    principal: Option<Decimal>,
    /// Number of monthly instalments (1–360).
    #[arg(long, value_name = "N", requires = "principal")]
    tenor_months: Option<u32>,
    /// Interest a month, a fraction (0.035 = 3.5 % a month).
    #[arg(
        long,
        value_name = "RATE",
        requires = "principal",
        conflicts_with = "total_cost"
    )]
    monthly_rate: Option<Decimal>,
    /// Or: interest and charges over the whole loan, major units.
    #[arg(long, value_name = "AMOUNT", requires = "principal")]
    total_cost: Option<Decimal>,
    /// One-off fees added to what is repaid, major units (default 0).
    #[arg(long, value_name = "AMOUNT", requires = "principal")]
    fees: Option<Decimal>,
}

impl ApplyArgs {
    /// The terms, when a principal was given ([`Terms::from_options`]); terms it refuses are
    /// `error[invalid_terms]`, naming the field.
    fn terms(&self) -> Result<Option<Terms>, String> {
        Terms::from_options(
            self.principal,
            self.tenor_months,
            self.monthly_rate,
            self.total_cost,
            self.fees,
        )
        .map_err(|e| format!("error[{}]: {}", e.code(), e.message()))
    }
}

/// Runs `alama apply`.
pub fn run(args: &ApplyArgs) -> Result<(), String> {
    let card = args
        .scorecard
        .as_deref()
        .map(crate::scorecard_cmd::load)
        .transpose()?;
    let terms = args.terms()?;
    let passwords = match &args.passwords {
        Some(path) => Passwords::load(path)?,
        None => Passwords::default(),
    };
    let statements = args
        .files
        .iter()
        .map(|file| {
            let password = passwords
                .for_file(file)
                .map(str::to_owned)
                .or_else(|| args.password.clone());
            let options = options(password, None).map_err(|e| describe(&e))?;
            read_statement(file, &options)
                .map_err(|e| format!("{} ({})", describe(&e), file.display()))
        })
        .collect::<Result<Vec<_>, String>>()?;
    let as_of = Some(args.as_of.unwrap_or_else(crate::score_cmd::today));
    let report = alama_core::score_application(&statements, card.as_ref(), terms.as_ref(), as_of)
        .map_err(|e| describe(&e))?;
    let out = match args.format {
        ReportFormat::Json => report.to_json(),
        ReportFormat::JsonPretty => report.to_json_pretty(),
        ReportFormat::Text => render(&report),
    };
    crate::output::write_stdout(format!("{out}\n").as_bytes())
}

/// The `--format text` rendering: the application's score and factors as `alama score` shows a
/// report's, the statements read, the integrity findings, and the terms.
fn render(a: &ApplicationReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "Alama application {}", a.application_id);
    let _ = writeln!(out, "Statements read ({}):", a.statements.len());
    for s in &a.statements {
        let _ = writeln!(
            out,
            "  {} {} {} to {}  integrity {}  {}",
            s.provider,
            s.mobile_number_masked.as_deref().unwrap_or("-"),
            s.period_start,
            s.period_end,
            s.integrity_status,
            s.report_id
        );
    }
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "  SCORE {}  ({})   range 300-850, scorecard {}, {}",
        a.score,
        a.band.as_str(),
        a.scorecard_version,
        a.statement_period
    );
    let _ = writeln!(out, "Factors (points earned of max)");
    for f in &a.factors {
        let _ = writeln!(out, "  {:<26} {:>3}/{:<3}", f.name, f.score, f.max);
    }
    let _ = writeln!(out);
    let _ = writeln!(out, "Integrity: {}", a.integrity.status);
    for f in &a.integrity.findings {
        let tag = match f.severity {
            Severity::Critical => "CRITICAL",
            Severity::Warning => "warning",
            Severity::Info => "info",
        };
        let _ = writeln!(out, "  [{tag}] {}", f.message);
    }
    if let Some(x) = &a.affordability {
        let c = &x.currency;
        let _ = writeln!(out);
        let _ = writeln!(
            out,
            "Loan: {c} {} over {} months: instalment {c} {} a month, affordable {c} {} ({}); \
             largest principal that fits: {c} {}",
            x.terms.principal,
            x.terms.tenor_months,
            x.instalment,
            x.affordable_instalment,
            if x.fits { "fits" } else { "does not fit" },
            x.largest_principal
        );
    }
    out
}
