//! A loop to profile the engine under `perf` (the criterion benches measure; this only
//! repeats one stage long enough for a profiler to see it):
//!
//! ```sh
//! CARGO_PROFILE_RELEASE_DEBUG=true cargo build --release -p alama-core --features testing \
//!     --example profile_engine
//! perf record --call-graph dwarf target/release/examples/profile_engine score
//! ```
//!
//! Stages: `score` (a parsed 5,000-row synthetic statement, as `cargo bench --bench engine`
//! scores it), `csv` (parsing that statement's CSV), and three stages of a report on its rows
//! in reading order: `features`, `check` (the integrity check) and `categorise` (a copy of the
//! rows categorised). Prints the mean time per iteration.

use alama_core::ParseOptions;
use alama_core::testing::synthetic_statement_with_rows;

fn main() -> alama_core::Result<()> {
    let stage = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "score".to_owned());
    let iterations: u32 = 2_000;
    let csv = synthetic_statement_with_rows(5, 5_000).to_csv();
    let options = ParseOptions::default();
    let statement = alama_core::parse(csv.as_bytes(), &options)?;
    // The stages of a report read the rows in time order (the file lists the newest first).
    let mut in_order = statement.clone();
    in_order
        .transactions
        .sort_by(|a, b| (a.completed_at, &a.receipt_no).cmp(&(b.completed_at, &b.receipt_no)));
    let started = std::time::Instant::now();
    for _ in 0..iterations {
        match stage.as_str() {
            "csv" => drop(std::hint::black_box(alama_core::parse(
                csv.as_bytes(),
                &options,
            )?)),
            "features" => drop(std::hint::black_box(alama_core::features::compute(
                &in_order,
            ))),
            "check" => drop(std::hint::black_box(alama_core::check::check(&in_order))),
            "categorise" => {
                let mut rows = in_order.transactions.clone();
                alama_core::categorise::categorise_all(&mut rows);
                drop(std::hint::black_box(rows));
            }
            _ => drop(std::hint::black_box(alama_core::score(&statement)?)),
        }
    }
    eprintln!(
        "{stage}: {:?} per iteration",
        started.elapsed() / iterations
    );
    Ok(())
}
