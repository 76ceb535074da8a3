//! The time of each stage of a 5,000-row report, in process, one after the other in the same
//! process: run the previous build's copy of this example next to the current one to compare.
//!
//! ```sh
//! cargo run --release -p alama-core --features testing --example stage_times [NAME]
//! ```
//!
//! With `NAME`, only the stages whose name contains it are timed: the loop to run under a
//! profiler, e.g. `perf record --call-graph dwarf target/release/examples/stage_times features`
//! (build with `CARGO_PROFILE_RELEASE_DEBUG=true` for symbols and lines).
//!
//! The rayon pool is started before anything is timed: until a process has a second thread,
//! glibc's malloc takes a single-thread fast path, and stages timed before the pool exists
//! look up to 40 % faster than they run in a service or after the first report (cloning the
//! rows: 0.22 ms before, 0.31 ms after, 2026-11-24).

use std::hint::black_box;

/// The allocator of the `alama` binary (the service and the CLI), so that stages that allocate
/// are timed as they run there (glibc's malloc moves its mmap threshold as large blocks are
/// freed, and shifted stages by 10–25 % with the stages run before them).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use std::time::Instant;

use alama_core::ParseOptions;
use alama_core::features::sort_key;
use alama_core::testing::synthetic_statement_with_rows;

fn time<R>(name: &str, iterations: u32, mut f: impl FnMut() -> R) {
    if std::env::args()
        .nth(1)
        .is_some_and(|only| !name.contains(only.as_str()))
    {
        return;
    }
    let started = Instant::now();
    for _ in 0..iterations {
        black_box(f());
    }
    eprintln!("{name:>20}: {:?}", started.elapsed() / iterations);
}

fn main() -> alama_core::Result<()> {
    let synthetic = synthetic_statement_with_rows(5, 5_000);
    let _ = alama_core::score(&synthetic)?;
    let csv = synthetic.to_csv();
    let options = ParseOptions::default();
    let parsed = alama_core::parse(csv.as_bytes(), &options)?;
    // The stages of a report read the rows in reading order: completion time, receipt,
    // Details, amounts. A parsed statement lists them as the file does (newest first); a
    // report puts them in reading order once ("reading order", `Statement::reading`) and every
    // stage reads that. (A charge shares its payment's receipt and time, so sorting by time and
    // receipt alone leaves 386 of these rows out of order.)
    let mut in_order = parsed.clone().into_statement();
    in_order
        .transactions
        .sort_by(|a, b| sort_key(a).cmp(&sort_key(b)));
    let card = alama_core::scorecard::builtin();
    let n = 1_000;
    time("copy rows", n, || in_order.transactions.clone());
    let wallet = alama_core::wallets::of(&parsed.provider).expect("a wallet");
    time("copy + categorise", n, || {
        let mut rows = in_order.transactions.clone();
        wallet.rules.categorise_all(&mut rows);
        rows
    });
    // The rows in reading order, made once per report and read by every stage after it.
    time("reading order", n, || parsed.reading());
    let reading = parsed.reading();
    time("features", n, || {
        alama_core::features::compute(&reading, card.thresholds())
    });
    time("integrity check", n, || {
        alama_core::check::check(&reading, wallet, None)
    });
    time("report id", n, || alama_core::testing::report_id(&parsed));
    time("score", n, || alama_core::score(&parsed));
    time("one-thread score", n, || {
        alama_core::on_calling_thread(|| alama_core::score(&parsed))
    });
    let built = parsed.clone().into_statement();
    time("score, built", n, || alama_core::score(&built));
    time("read csv rows", n, || {
        alama_core::parse::csv::parse(csv.as_bytes(), &options)
    });
    time("copy + prepare", n, || {
        let mut rows = in_order.clone();
        alama_core::parse::prepare(&mut rows);
        rows
    });
    time("parse csv", n, || {
        alama_core::parse(csv.as_bytes(), &options)
    });
    time("csv → report", n, || {
        alama_core::score_bytes(csv.as_bytes(), &options)
    });
    time("csv → report, id given", n, || {
        alama_core::score_bytes_with_id(csv.as_bytes(), &options, Some(card), "rpt_x".to_owned())
    });
    // As the service runs an analysis: one thread, no content address. (glibc's malloc moves
    // its mmap threshold as large blocks are freed, so this stage's time can shift by 10 % with
    // the stages run before it: compare builds with
    // `GLIBC_TUNABLES=glibc.malloc.mmap_threshold=33554432`. The service uses mimalloc.)
    time("csv → report, service", n, || {
        alama_core::on_calling_thread(|| {
            alama_core::score_bytes_with_id(
                csv.as_bytes(),
                &options,
                Some(card),
                "rpt_x".to_owned(),
            )
        })
    });
    // An application of three 5,000-row statements against their three single scorings (issue
    // 53's budget: the application at most the singles + 10 %), and on one thread each (the
    // work a busy service pays).
    // As criterion's `application/three_5000_rows`: canonical JSON, whose header names each
    // holder's number (a CSV names none, and its accounts are then told apart by their rows).
    let three: Vec<_> = [5, 6, 7]
        .into_iter()
        .map(|seed| {
            let json = synthetic_statement_with_rows(seed, 5_000).to_json();
            alama_core::parse(json.as_bytes(), &alama_core::ParseOptions::default())
        })
        .collect::<alama_core::Result<_>>()?;
    let few = n / 20;
    time("three scores", few, || {
        three.iter().map(alama_core::score).collect::<Vec<_>>()
    });
    time("application of three", few, || {
        alama_core::score_application(&three, None, None, None)
    });
    time("three scores, one thread", few, || {
        alama_core::on_calling_thread(|| three.iter().map(alama_core::score).collect::<Vec<_>>())
    });
    time("application of three, one thread", few, || {
        alama_core::on_calling_thread(|| alama_core::score_application(&three, None, None, None))
    });
    Ok(())
}
