//! `alama scorecard validate|describe|export`: work with scorecards as data.
//!
//! A scorecard is a JSON document (`docs/scorecard.schema.json`); `alama score --scorecard FILE`
//! scores with one. Errors are `error[invalid_scorecard]: …` (or `io_error`), exit code 1.

use std::path::{Path, PathBuf};

use alama_core::Scorecard;
use clap::Subcommand;

use crate::input::describe;

/// The `alama scorecard` subcommands.
#[derive(Debug, Subcommand)]
pub enum ScorecardCommand {
    /// Check a scorecard file: prints its version and SHA-256, or the problem.
    Validate {
        /// The scorecard JSON.
        file: PathBuf,
    },
    /// Print a scorecard's tables as Markdown (the built-in one without a file).
    Describe {
        /// The scorecard JSON; the built-in scorecard when absent.
        file: Option<PathBuf>,
    },
    /// Print the built-in scorecard's JSON, a starting point for a lender's own.
    Export,
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
        ScorecardCommand::Describe { file } => match file {
            Some(f) => alama_core::scorecard::describe(&load(f)?),
            None => alama_core::scorecard::describe(alama_core::scorecard::builtin()),
        },
        ScorecardCommand::Export => {
            format!("{}\n", alama_core::scorecard::builtin().to_json_pretty())
        }
    };
    crate::output::write_stdout(out.as_bytes())
}
