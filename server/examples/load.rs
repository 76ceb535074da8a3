//! Load generator for `POST /v1/scores/analyse` and `POST /v1/applications`: sends `--requests`
//! units with `--concurrency` in flight and prints throughput and latency percentiles. A unit is
//! one upload of the statement; with `--statements N`, N statements (the CSV's receipts made
//! distinct per statement: N lines of one applicant) analysed one after the other, or, with
//! `--application`, sent together as one application (what an application costs against its
//! statements analysed one by one).
//!
//! ```text
//! cargo run --release -p alama-server --example load -- \
//!     --url http://127.0.0.1:8080 --key "$KEY" --csv-rows 5000 --requests 400 --concurrency 4
//! cargo run --release -p alama-server --example load -- \
//!     --url http://127.0.0.1:8080 --key "$KEY" --file statement.pdf --password 123456
//! cargo run --release -p alama-server --example load -- \
//!     --url http://127.0.0.1:8080 --key "$KEY" --csv-rows 5000 --statements 3 --application
//! ```
//!
//! Every request is a new analysis (no `Idempotency-Key`). Run the server with a rate limit
//! above the load (`alama serve --rate-limit-per-minute 1000000 --rate-limit-burst 100000`).

#![allow(clippy::print_stdout)]

#[path = "../tests/support/statement.rs"]
mod statement;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use reqwest::multipart::{Form, Part};

/// Options.
#[derive(Debug, Parser)]
struct Args {
    /// Server base URL.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
    /// API key.
    #[arg(long)]
    key: String,
    /// Statement file to upload.
    #[arg(long, conflicts_with = "csv_rows")]
    file: Option<PathBuf>,
    /// Upload a synthetic CSV statement of this many rows instead of a file.
    #[arg(long)]
    csv_rows: Option<usize>,
    /// PDF password.
    #[arg(long)]
    password: Option<String>,
    /// Measured requests.
    #[arg(long, default_value_t = 200)]
    requests: usize,
    /// Requests in flight.
    #[arg(long, default_value_t = 4)]
    concurrency: usize,
    /// Unmeasured requests first.
    #[arg(long, default_value_t = 4)]
    warmup: usize,
    /// Statements a unit uploads (their receipts made distinct per statement).
    #[arg(long, default_value_t = 1)]
    statements: usize,
    /// Send a unit's statements as one application (`POST /v1/applications`) instead of
    /// analysing each (`POST /v1/scores/analyse`, one after the other).
    #[arg(long)]
    application: bool,
}

/// The `i`-th statement of a unit: `body` with its receipts' leading `T` replaced by another
/// letter (the synthetic CSV's receipts are `T` + 9 digits), so that the statements of a unit
/// are distinct lines.
fn nth_statement(body: &[u8], i: usize) -> Vec<u8> {
    if i == 0 {
        return body.to_vec();
    }
    let letter = b"ABCDEFGHJK"[i % 10];
    let mut out = body.to_vec();
    let mut at_line_start = true;
    for b in &mut out {
        if at_line_start && *b == b'T' {
            *b = letter;
        }
        at_line_start = *b == b'\n';
    }
    out
}

/// One unit: one upload, N analyses in a row, or one application of N statements; the status
/// (the first that is not `201`, else `201`) and the time taken.
async fn unit(
    client: &reqwest::Client,
    args: &Args,
    bodies: &[Vec<u8>],
) -> Result<(u16, Duration), String> {
    if !args.application {
        let started = Instant::now();
        for body in bodies {
            let (status, _) = one(client, args, body).await?;
            if status != 201 {
                return Ok((status, started.elapsed()));
            }
        }
        return Ok((201, started.elapsed()));
    }
    let mut form = Form::new();
    for (i, body) in bodies.iter().enumerate() {
        form = form.part(
            "statement",
            Part::bytes(body.clone()).file_name(format!("s{i}")),
        );
    }
    let started = Instant::now();
    let response = client
        .post(format!("{}/v1/applications", args.url))
        .bearer_auth(&args.key)
        .multipart(form)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    response.bytes().await.map_err(|e| e.to_string())?;
    Ok((status, started.elapsed()))
}

async fn one(
    client: &reqwest::Client,
    args: &Args,
    body: &[u8],
) -> Result<(u16, Duration), String> {
    let mut form = Form::new().part("statement", Part::bytes(body.to_vec()).file_name("s"));
    if let Some(p) = &args.password {
        form = form.text("password", p.clone());
    }
    let started = Instant::now();
    let response = client
        .post(format!("{}/v1/scores/analyse", args.url))
        .bearer_auth(&args.key)
        .multipart(form)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    let status = response.status().as_u16();
    response.bytes().await.map_err(|e| e.to_string())?;
    Ok((status, started.elapsed()))
}

fn percentile(sorted: &[Duration], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1].as_secs_f64() * 1000.0
}

#[tokio::main]
async fn main() -> Result<(), String> {
    let args = Arc::new(Args::parse());
    let body = match (&args.file, args.csv_rows) {
        (Some(path), _) => std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?,
        (None, Some(rows)) => statement::statement_csv(rows),
        (None, None) => return Err("give --file PATH or --csv-rows N".into()),
    };
    let body: Arc<Vec<Vec<u8>>> = Arc::new(
        (0..args.statements.max(1))
            .map(|i| nth_statement(&body, i))
            .collect(),
    );
    let client = reqwest::Client::new();
    for _ in 0..args.warmup {
        let (status, _) = unit(&client, &args, &body).await?;
        if status != 201 {
            return Err(format!("warm-up request answered {status}"));
        }
    }
    let next = Arc::new(AtomicUsize::new(0));
    let started = Instant::now();
    let mut workers = Vec::new();
    for _ in 0..args.concurrency.max(1) {
        let (client, args, body, next) = (client.clone(), args.clone(), body.clone(), next.clone());
        workers.push(tokio::spawn(async move {
            let mut results = Vec::new();
            while next.fetch_add(1, Ordering::Relaxed) < args.requests {
                results.push(unit(&client, &args, &body).await);
            }
            results
        }));
    }
    let mut latencies = Vec::new();
    let mut statuses: BTreeMap<String, usize> = BTreeMap::new();
    for worker in workers {
        for result in worker.await.map_err(|e| e.to_string())? {
            match result {
                Ok((status, latency)) => {
                    *statuses.entry(status.to_string()).or_default() += 1;
                    if status == 201 {
                        latencies.push(latency);
                    }
                }
                Err(e) => *statuses.entry(format!("error: {e}")).or_default() += 1,
            }
        }
    }
    let wall = started.elapsed().as_secs_f64();
    latencies.sort();
    let what = match (body.len(), args.application) {
        (1, _) => "analyses".to_owned(),
        (n, false) => format!("units of {n} analyses"),
        (n, true) => format!("applications of {n} statements"),
    };
    println!(
        "statement {} bytes, {} requests, concurrency {}, statuses {statuses:?}",
        body[0].len(),
        args.requests,
        args.concurrency
    );
    println!(
        "wall {wall:.2} s, throughput {:.1} {what}/s",
        latencies.len() as f64 / wall
    );
    println!(
        "latency ms: p50 {:.1}, p90 {:.1}, p99 {:.1}, max {:.1}",
        percentile(&latencies, 50.0),
        percentile(&latencies, 90.0),
        percentile(&latencies, 99.0),
        percentile(&latencies, 100.0)
    );
    Ok(())
}
