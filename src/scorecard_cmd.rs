//! `alama scorecard list|validate|describe|export`: work with scorecards as data.
//!
//! A scorecard is a JSON document (`docs/scorecard.schema.json`); `alama score --scorecard FILE`
//! scores with one. Errors are `error[invalid_scorecard]: …` (or `io_error`), exit code 1.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use alama_core::Scorecard;
use clap::Subcommand;

use crate::input::describe;

/// The `alama scorecard` subcommands.
#[derive(Debug, Subcommand)]
pub enum ScorecardCommand {
    /// List the built-in scorecards, one per currency: currency, version, SHA-256, and the
    /// monthly income that makes a month "with income" on each card.
    List,
    /// Check a scorecard file: prints its version and SHA-256, or the problem.
    Validate {
        /// The scorecard JSON.
        file: PathBuf,
    },
    /// Print a scorecard's tables as Markdown (the built-in one without a file).
    Describe {
        /// The scorecard JSON; the built-in scorecard of `--currency` when absent.
        file: Option<PathBuf>,
        /// The currency whose built-in card to describe (ISO 4217; default KES).
        #[arg(long, default_value = "KES")]
        currency: String,
    },
    /// Print a built-in scorecard's JSON, a starting point for a lender's own.
    Export {
        /// The currency whose built-in card to print (ISO 4217; default KES).
        #[arg(long, default_value = "KES")]
        currency: String,
    },
}

/// The built-in card of `currency`, or `error[unsupported_currency]` naming those there are.
fn builtin(currency: &str) -> Result<&'static Scorecard, String> {
    alama_core::scorecard::builtin_for(currency).map_err(|e| describe(&e))
}

/// Reads and validates a scorecard file.
///
/// # Errors
/// `error[io_error]` when the file cannot be read, `error[invalid_scorecard]` naming the problem.
pub fn load(path: &Path) -> Result<Scorecard, String> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        describe(&alama_core::Error::new(
            alama_core::ErrorKind::Io,
            format!("cannot read {}: {e}", path.display()),
        ))
    })?;
    Scorecard::from_json(&text).map_err(|e| describe(&e))
}

/// Runs an `alama scorecard` subcommand.
pub fn run(command: &ScorecardCommand) -> Result<(), String> {
    let out = match command {
        ScorecardCommand::Validate { file } => {
            let card = load(file)?;
            format!(
                "valid: {} ({} characteristics, sha256 {})\n",
                card.version,
                card.characteristics.len(),
                card.sha256()
            )
        }
        ScorecardCommand::List => {
            let mut out =
                String::from("currency  version            sha256            month with income\n");
            for card in alama_core::scorecard::builtins() {
                let income = alama_core::money::display(
                    &card.currency,
                    card.thresholds().material_monthly_income,
                );
                writeln!(
                    out,
                    "{:<9} {:<18} {:.16}  {income}",
                    card.currency,
                    card.version,
                    card.sha256()
                )
                .map_err(|e| format!("error[io_error]: {e}"))?;
            }
            out
        }
        ScorecardCommand::Describe { file, currency } => match file {
            Some(f) => alama_core::scorecard::describe(&load(f)?),
            None => alama_core::scorecard::describe(builtin(currency)?),
        },
        ScorecardCommand::Export { currency } => {
            format!("{}\n", builtin(currency)?.to_json_pretty())
        }
    };
    crate::output::write_stdout(out.as_bytes())
}
