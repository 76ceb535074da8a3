//! The pure-Rust side of `benches/python_bench.py`: for each canonical JSON statement given on
//! the command line, the best per-call time of `alama_core::score` (no Python involved), printed
//! as `nanoseconds<TAB>file`, one line per file.
//!
//! `cargo run --release -p alama-python --example engine_timing -- FILE...`

use std::hint::black_box;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use alama_core::{Format, ParseOptions};

fn main() -> ExitCode {
    let options = ParseOptions {
        format: Some(Format::Json),
        ..ParseOptions::default()
    };
    for path in std::env::args().skip(1) {
        let statement = match std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|b| alama_core::parse(&b, &options).map_err(|e| e.to_string()))
        {
            Ok(s) => s,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::FAILURE;
            }
        };
        let rows = statement.transactions.len().max(1);
        let number = u32::try_from((20_000 / rows).max(10)).unwrap_or(10);
        let mut best = Duration::MAX;
        for _ in 0..5 {
            let start = Instant::now();
            for _ in 0..number {
                let _ = black_box(alama_core::score(black_box(&statement)));
            }
            best = best.min(start.elapsed() / number);
        }
        let _ = writeln!(std::io::stdout().lock(), "{}\t{path}", best.as_nanos());
    }
    ExitCode::SUCCESS
}
