//! `alama parse FILE`: print the canonical statement.

use clap::{Args, ValueEnum};

use crate::input::InputArgs;

/// Output of `alama parse`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum StatementFormat {
    /// The canonical JSON statement (header, summary, transactions, findings of the reader).
    Json,
    /// The canonical CSV (transactions only).
    Csv,
}

/// Arguments of `alama parse`.
#[derive(Debug, Args)]
pub struct ParseArgs {
    #[command(flatten)]
    input: InputArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "json")]
    format: StatementFormat,
}

/// Runs `alama parse`.
pub fn run(args: &ParseArgs) -> Result<(), String> {
    let statement = args.input.statement()?;
    let out = match args.format {
        StatementFormat::Json => format!("{}\n", statement.to_json()),
        StatementFormat::Csv => statement.to_csv(),
    };
    crate::output::write_stdout(out.as_bytes())
}
