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
//! scores it) or `csv` (parsing that statement's CSV). Prints the mean time per iteration.

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
    let started = std::time::Instant::now();
    for _ in 0..iterations {
        if stage == "csv" {
            std::hint::black_box(alama_core::parse(csv.as_bytes(), &options)?);
        } else {
            std::hint::black_box(alama_core::score(&statement)?);
        }
    }
    eprintln!(
        "{stage}: {:?} per iteration",
        started.elapsed() / iterations
    );
    Ok(())
}
