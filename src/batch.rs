//! `alama score` over many statements: files and folders in, JSON Lines out.
//!
//! Every input gives exactly one line, in input order (a folder's statements sorted by path):
//! the canonical report with a `file` member put first, or
//! `{"file": …, "error": {"code": …, "message": …}}` with the engine's stable error code.
//! Statements are scored on all cores (`--jobs` to choose); a progress bar is drawn on standard
//! error only when it is a terminal, so redirected or piped runs stay clean.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};

use alama_core::ParseOptions;
use indicatif::{ProgressBar, ProgressStyle};

use crate::input::score_file;
use crate::passwords::Passwords;

/// File extensions taken from a folder (case-insensitive); files given by name are always read.
const STATEMENT_EXTENSIONS: [&str; 4] = ["pdf", "csv", "json", "xlsx"];

/// One statement to score and how to open it.
#[derive(Debug)]
pub struct Job {
    /// The path as given, or found in a given folder.
    pub file: PathBuf,
    /// Password and format.
    pub options: ParseOptions,
}

/// One output line and whether the statement was scored.
struct Done {
    line: String,
    scored: bool,
}

/// The files to score: each given file as is, each folder's statements (`.pdf`, `.csv`,
/// `.json`, `.xlsx`, at any depth, hidden entries skipped) sorted by path. `skip` (the passwords file)
/// is left out of folders. A folder that cannot be listed stays in the list, so that its
/// `io_error` gets a line of its own.
pub fn expand(inputs: &[PathBuf], skip: Option<&Path>) -> Vec<PathBuf> {
    let skip = skip.and_then(|p| p.canonicalize().ok());
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found = Vec::new();
            if walk(input, &mut found).is_err() {
                files.push(input.clone());
                continue;
            }
            found.retain(|f| skip.is_none() || f.canonicalize().ok() != skip);
            found.sort();
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    files
}

fn walk(dir: &Path, found: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        let path = entry.path();
        if path.is_dir() {
            walk(&path, found)?;
        } else if path.extension().is_some_and(|ext| {
            STATEMENT_EXTENSIONS
                .iter()
                .any(|s| ext.eq_ignore_ascii_case(s))
        }) {
            found.push(path);
        }
    }
    Ok(())
}

/// Builds the jobs: each file's password comes from `passwords` when a row names it, else
/// `default_password`.
pub fn jobs(
    files: Vec<PathBuf>,
    base: &ParseOptions,
    default_password: Option<&str>,
    passwords: &Passwords,
) -> Vec<Job> {
    files
        .into_iter()
        .map(|file| {
            let password = passwords
                .for_file(&file)
                .or(default_password)
                .map(str::to_owned);
            let options = ParseOptions {
                password,
                ..base.clone()
            };
            Job { file, options }
        })
        .collect()
}

/// Scores every job on `workers` threads and writes one line per job to standard output, in job
/// order, as soon as the lines before it are written.
///
/// Returns how many jobs could not be scored.
///
/// # Errors
/// A write error on standard output (a closed pipe ends the program quietly instead).
pub fn run(
    jobs: &[Job],
    workers: NonZeroUsize,
    card: Option<&alama_core::Scorecard>,
) -> Result<usize, String> {
    let bar = progress_bar(jobs.len());
    let mut pending = BTreeMap::new();
    let mut next_out = 0;
    let mut failed = 0;
    // The engine's batch pool: a panic in a job comes back as that job's outcome.
    let written = alama_core::batch::run(
        jobs,
        workers.get(),
        |job| score_one(job, card),
        |i, outcome| {
            let done = outcome.unwrap_or_else(|_| failed_on(jobs.get(i)));
            pending.insert(i, done);
            bar.inc(1);
            let mut out = String::new();
            while let Some(done) = pending.remove(&next_out) {
                if !done.scored {
                    failed += 1;
                }
                out.push_str(&done.line);
                out.push('\n');
                next_out += 1;
            }
            if out.is_empty() {
                return Ok(());
            }
            bar.suspend(|| crate::output::write_stdout(out.as_bytes()))
        },
    );
    bar.finish_and_clear();
    written.map(|()| failed)
}

fn progress_bar(len: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:40} {pos}/{len} statements  {elapsed} elapsed, ~{eta} left",
    ) {
        bar.set_style(style);
    }
    bar
}

fn score_one(job: &Job, card: Option<&alama_core::Scorecard>) -> Done {
    let file = job.file.to_string_lossy();
    match score_file(&job.file, &job.options, card) {
        Ok(report) => Done {
            line: report_line(&file, &report.to_json()),
            scored: true,
        },
        Err(error) => Done {
            line: error_line(&file, error.code(), error.message()),
            scored: false,
        },
    }
}

/// The line of a job the engine panicked on (a bug).
fn failed_on(job: Option<&Job>) -> Done {
    let file = job
        .map(|job| job.file.to_string_lossy())
        .unwrap_or_default();
    Done {
        line: error_line(
            &file,
            "internal_error",
            "the engine failed on this file (a bug; please report it)",
        ),
        scored: false,
    }
}

fn report_line(file: &str, report_json: &str) -> String {
    let file = serde_json::Value::from(file).to_string();
    match report_json.strip_prefix('{') {
        Some(rest) if rest.starts_with('}') => format!("{{\"file\":{file}{rest}"),
        Some(rest) => format!("{{\"file\":{file},{rest}"),
        None => error_line(
            file.as_str(),
            "internal_error",
            "the report is not a JSON object",
        ),
    }
}

fn error_line(file: &str, code: &str, message: &str) -> String {
    serde_json::json!({ "file": file, "error": { "code": code, "message": message } }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn report_line_puts_file_first_and_keeps_the_report_bytes() {
        let line = report_line("a \"b\".pdf", r#"{"reportId":"rpt_1","score":700}"#);
        assert_eq!(
            line,
            r#"{"file":"a \"b\".pdf","reportId":"rpt_1","score":700}"#
        );
        let value: serde_json::Value = serde_json::from_str(&line).expect("JSON");
        assert_eq!(value["score"], 700);
    }

    #[test]
    fn error_line_has_file_code_and_message() {
        let value: serde_json::Value =
            serde_json::from_str(&error_line("x.pdf", "wrong_password", "no")).expect("JSON");
        assert_eq!(
            value,
            serde_json::json!({"file": "x.pdf", "error": {"code": "wrong_password", "message": "no"}})
        );
    }
}
