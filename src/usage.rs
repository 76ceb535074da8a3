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
/// `path` is the command the line was for (`alama score`, from [`command_path`]).
pub fn fail(error: &clap::Error, path: &str) -> ExitCode {
    match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            // Prints to standard output; a closed pipe is not an error.
            let _ = error.print();
            ExitCode::SUCCESS
        }
        _ => {
            eprintln!("{}", one_line(error, path));
            ExitCode::FAILURE
        }
    }
}

/// `error[usage_error]: …` from clap's rendered message: its sentences (error, values, tips)
/// joined by `; `, and the help to read: that of `path`, the command given (clap's message has
/// no `Usage:` line for a bad value, so it cannot name it).
pub fn one_line(error: &clap::Error, path: &str) -> String {
    let rendered = error.render().to_string();
    let mut parts: Vec<String> = Vec::new();
    let mut commands: Vec<&str> = Vec::new();
    let mut in_commands = false;
    for line in rendered.lines() {
        let text = line.trim();
        if text.starts_with("Usage:") {
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
    let usage = path;
    if error.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
        parts.push(format!(
            "'{usage}' needs a command: {}",
            commands.join(", ")
        ));
    }
    format!("error[{CODE}]: {}; see '{usage} --help'", parts.join("; "))
}

/// The command a command line is for: `alama score` from `alama score x.csv --format xml`,
/// `alama keys create` from `alama keys create --partner …`, `alama` from `alama nonsense`.
/// The words that name subcommands of `command`, in turn; options and the rest are skipped.
/// Arguments that are not UTF-8 name no subcommand.
pub fn command_path(
    command: &clap::Command,
    args: impl IntoIterator<Item = std::ffi::OsString>,
) -> String {
    let mut path = vec![command.get_name().to_owned()];
    let mut current = command;
    for arg in args {
        if arg.to_str().is_none_or(|a| a.starts_with('-')) {
            continue;
        }
        match current.find_subcommand(&arg) {
            Some(sub) => {
                path.push(sub.get_name().to_owned());
                current = sub;
            }
            None => break,
        }
    }
    path.join(" ")
}
