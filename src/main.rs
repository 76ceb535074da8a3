//! `alama`: the command-line tool of the Alama credit-scoring engine.
//!
//! `alama score FILE` prints a score report (`alama score FILE… DIR…` one JSON line per
//! statement), `alama parse FILE` the canonical statement. Errors are one line on standard error
//! (`error[wrong_password]: …`) and exit code 1, a command line that does not parse included
//! (`error[usage_error]: …`, `usage.rs`). A closed output pipe (`alama parse … | head`) ends
//! quietly with exit code 0, as Unix tools do.

mod apply_cmd;
mod batch;
mod input;
mod output;
mod parse_cmd;
mod passwords;
mod score_cmd;
mod scorecard_cmd;
mod text;
mod usage;

use std::process::ExitCode;

/// The process allocator: mimalloc, which hands freed pages back to the OS after its purge
/// delay, where glibc's malloc keeps a burst's upload buffers in its per-thread arenas.
/// Measured with `server/burst.sh` (server/README.md, "Limits").
/// Built with `no_thp` (transparent huge pages off for this process): with 2 MiB pages a
/// one-shot `alama score` of the 117-page statement peaked at 68 MiB instead of 41, and the
/// service at 196 MiB instead of 150 under `server/bench.sh`, for the same throughput.
/// The crate's default allocator, mimalloc v3 (it purges freed pages after 1 s). The v2
/// allocator (purges after 10 ms) peaked lower under `server/bench.sh` (139 MiB against
/// 161–174) but left more memory held after `server/burst.sh` (idle 56–116 MiB against 58–74;
/// CI's gate is 128), so it was not kept (server/README.md, "Limits").
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::{CommandFactory, Parser, Subcommand};

/// Alama: score mobile-money statements (four wallets' PDFs and CSVs, the canonical JSON and CSV).
#[derive(Debug, Parser)]
#[command(name = "alama", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Score a statement and print the report (several files or folders: JSON Lines).
    Score(score_cmd::ScoreArgs),
    /// Score several statements of one applicant as one application (lines, periods, overlaps),
    /// and whether a loan's terms fit.
    Apply(apply_cmd::ApplyArgs),
    /// Parse a statement and print it in canonical form.
    Parse(parse_cmd::ParseArgs),
    /// List the built-in scorecards (one per currency); validate, describe or export one (JSON).
    Scorecard {
        #[command(subcommand)]
        command: scorecard_cmd::ScorecardCommand,
    },
    /// Run the HTTP service (partner API under /v1, developer portal under /portal).
    Serve(alama_server::cli::ServeArgs),
    /// Manage API keys and partner policies: create, list, policy, revoke.
    Keys {
        #[command(subcommand)]
        command: alama_server::cli::KeysCommand,
    },
    /// Manage webhook endpoints: add, list, remove.
    Webhooks {
        #[command(subcommand)]
        command: alama_server::cli::WebhooksCommand,
    },
    /// Manage a partner's own scorecards for the service: add (per environment, optionally the
    /// default for the card's currency), list.
    Scorecards {
        #[command(subcommand)]
        command: alama_server::cli::ScorecardsCommand,
    },
    /// Manage developer-portal users: create (prints a one-time sign-in link), link, list.
    Users {
        #[command(subcommand)]
        command: alama_server::cli::UsersCommand,
    },
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            let path = usage::command_path(&Cli::command(), std::env::args_os().skip(1));
            return usage::fail(&error, &path);
        }
    };
    let result = match cli.command {
        Command::Score(args) => score_cmd::run(&args),
        Command::Apply(args) => apply_cmd::run(&args),
        Command::Parse(args) => parse_cmd::run(&args),
        Command::Scorecard { command } => scorecard_cmd::run(&command),
        Command::Serve(args) => alama_server::cli::run_serve(&args),
        Command::Keys { command } => alama_server::cli::run_keys(&command),
        Command::Webhooks { command } => alama_server::cli::run_webhooks(&command),
        Command::Scorecards { command } => alama_server::cli::run_scorecards(&command),
        Command::Users { command } => alama_server::cli::run_users(&command),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("{message}");
            ExitCode::FAILURE
        }
    }
}
