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
}

/// Runs `alama score`.
pub fn run(args: &ScoreArgs) -> Result<(), String> {
    let statement = args.input.statement()?;
    let report = alama_core::score(&statement).map_err(|e| describe(&e))?;
    let out = match args.format {
        ReportFormat::Json => report.to_json(),
        ReportFormat::JsonPretty => report.to_json_pretty(),
        ReportFormat::Text => crate::text::render(&report),
    };
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{out}").map_err(|e| format!("error[io_error]: {e}"))
}
