//! A command line that does not parse, in the CLI's one error style.
//!
//! clap's own `--help` and `--version` print as clap prints them (standard output, exit code 0).
//! Every other outcome of a command line that does not parse — an unknown or misspelt option, a
//! missing argument, a bad value, a subcommand missing — is one line on standard error,
//! `error[usage_error]: <what is wrong>; see 'alama … --help'`, with exit code 1, like every other
//! refusal (README.md, "The command line"), instead of clap's multi-line message and its exit
//! code 2.

use std::process::ExitCode;

use clap::error::ErrorKind;

/// The code of a command line that does not parse.
pub const CODE: &str = "usage_error";

/// Prints `error` as clap's help or version (exit 0) or as one `error[usage_error]` line (exit 1).
pub fn fail(error: &clap::Error) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Prints to standard output; a closed pipe is not an error.
            let _ = error.print();
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{}", one_line(error));
            ExitCode::FAILURE
        }
    }
}

/// `error[usage_error]: …` from clap's rendered message: its sentences (error, values, tips)
/// joined by `; `, and the help to read, named from its `Usage:` line.
pub fn one_line(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let mut usage = None;
    let mut parts: Vec<String> = Vec::new();
    let mut commands: Vec<&str> = Vec::new();
    let mut in_commands = false;
    for line in rendered.lines() {
        let text = line.trim();
        if let Some(rest) = text.strip_prefix("Usage:") {
            usage = Some(command_path(rest));
            in_commands = false;
        } else if text == "Commands:" {
            in_commands = true;
        } else if in_commands {
            match text.split_whitespace().next() {
                Some(name) if line.starts_with("  ") && name != "help" => commands.push(name),
                _ => in_commands = !text.is_empty(),
            }
        } else if error.kind() != ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            && !text.is_empty()
            && !text.starts_with("For more information")
        {
            let text = text.strip_prefix("error: ").unwrap_or(text);
            let text = text.strip_prefix("tip: ").unwrap_or(text);
            // A list introduced by a colon continues its sentence.
            match parts.last_mut() {
                Some(last) if last.ends_with(':') => {
                    last.push(' ');
                    last.push_str(text);
                }
                _ => parts.push(text.to_owned()),
            }
        }
    }
    let usage = usage.unwrap_or_else(|| "alama".to_owned());
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        parts.push(format!(
            "'{usage}' needs a command: {}",
            commands.join(", ")
        ));
    }
    format!("error[{CODE}]: {}; see '{usage} --help'", parts.join("; "))
}

/// `alama score` from `alama score [OPTIONS] <FILES>...`: the words before the first argument.
fn command_path(usage: &str) -> String {
    usage
        .split_whitespace()
        .take_while(|w| !w.starts_with(['[', '<', '-']))
        .collect::<Vec<_>>()
        .join(" ")
}
