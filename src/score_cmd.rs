//! `alama score FILE`: parse, score, print the report.

use std::io::Write;

use clap::{Args, ValueEnum};

use crate::input::{InputArgs, describe};

/// Output of `alama score`.
#[derive(Debug, Clone, Copy, ValueEnum)]
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
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    format: ReportFormat,
    /// Also write the shareable PDF credit report to this path.
    #[cfg(feature = "pdf-report")]
    #[arg(long, value_name = "PATH")]
    pdf: Option<std::path::PathBuf>,
}

/// Runs `alama score`.
pub fn run(args: &ScoreArgs) -> Result<(), String> {
    let statement = args.input.statement()?;
    let report = alama_core::score(&statement).map_err(|e| describe(&e))?;
    #[cfg(feature = "pdf-report")]
    if let Some(path) = &args.pdf {
        write_pdf(&report, path)?;
    }
    let out = match args.format {
        ReportFormat::Json => report.to_json(),
        ReportFormat::JsonPretty => report.to_json_pretty(),
        ReportFormat::Text => crate::text::render(&report),
    };
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{out}").map_err(|e| format!("error[io_error]: {e}"))
}

/// Renders the PDF report, stamped with the current time in East Africa Time (UTC+03:00).
#[cfg(feature = "pdf-report")]
fn write_pdf(report: &alama_core::Report, path: &std::path::Path) -> Result<(), String> {
    use alama_core::pdf_report::{RenderOptions, render};
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(0));
    let eat = chrono::DateTime::from_timestamp(now + 3 * 3600, 0)
        .unwrap_or_default()
        .naive_utc();
    let bytes = render(report, &RenderOptions::new(eat)).map_err(|e| describe(&e))?;
    std::fs::write(path, bytes)
        .map_err(|e| format!("error[io_error]: cannot write {}: {e}", path.display()))
}
