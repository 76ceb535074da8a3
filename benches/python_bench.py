#!/usr/bin/env python3
"""Throughput of `alama.score_many` against the Rust CLI, and the cost of one `alama.score` call.

    bash python/ci.sh                      # or: cd python && maturin develop --release
    cargo build --release --bin alama
    target/python-ci-venv/bin/python benches/python_bench.py [--count 1000] [--months 6]

1. Batch: COUNT synthetic statements (python/tests/synthetic.py, about 40 rows a month, written
   as canonical JSON files) scored by `score_many` from paths and from parsed Statements with 1
   and 2 workers, by a Python loop over `score`, and by the CLI (`alama score FILE --format
   json`, one process per statement; sequential and 2 at a time). A sample of outputs is checked
   to be byte-identical, so every row does the same work.
2. Call overhead: one `alama.score(statement)` call against one pure-Rust `alama_core::score`
   call on the same statements (the `engine_timing` example of bindings/python, built with
   `cargo build --release` before any timing; no Python in that process), in alternation. The
   difference is what one crossing costs: argument checks, GIL release and re-acquire, wrapping
   the Report.

On a shared machine the worker rows mean little unless the "parallel headroom" line (two
GIL-free hashing threads) is near 2.00; CPU/wall in the table shows how many cores the batch got.

Wall-clock figures for the issue note, printed as Markdown with the machine; nothing is asserted.
ALAMA_CLI points at another CLI binary.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import subprocess
import sys
import tempfile
import threading
import time
import timeit
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

import alama

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python" / "tests"))
from synthetic import statement_dict  # noqa: E402

CLI = Path(os.environ.get("ALAMA_CLI", REPO / "target" / "release" / "alama"))
REAL_PDF = REPO / ".." / "shared" / "samples" / "real" / "mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf"


def best_of(runs: int, fn: Callable[[], object]) -> tuple[float, float]:
    """(wall, CPU) seconds of the fastest of `runs` runs of `fn()`. CPU is this process's, all
    threads: CPU/wall near 2 means two threads really ran at once."""
    best = (float("inf"), 0.0)
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        run = (time.perf_counter() - wall, time.process_time() - cpu)
        best = min(best, run)
    return best


def cli_score(path: Path) -> str:
    run = subprocess.run(
        [str(CLI), "score", str(path), "--format", "json"], capture_output=True, check=True
    )
    return run.stdout.decode()[:-1]


def free_cores() -> float:
    """CPU/wall of two Python threads hashing (hashlib releases the GIL): about 2.0 on a quiet
    2-core machine, lower when other work holds the cores. Read the worker rows against it."""
    data = b"x" * (32 << 20)
    threads = [
        threading.Thread(target=lambda: [hashlib.sha256(data).digest() for _ in range(4)])
        for _ in range(2)
    ]
    wall, cpu = time.perf_counter(), time.process_time()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return (time.process_time() - cpu) / (time.perf_counter() - wall)


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (
        f"{cpu}, {os.cpu_count()} logical CPUs, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}, alama {alama.__version__}"
    )


def batch(count: int, months: int, runs: int) -> list[tuple[str, tuple[float, float]]]:
    rows: list[tuple[str, tuple[float, float]]] = []
    with tempfile.TemporaryDirectory(prefix="alama-py-bench-") as tmp:
        paths = []
        for seed in range(count):
            path = Path(tmp) / f"s{seed:04}.json"
            path.write_text(alama.Statement.from_dict(statement_dict(seed, months)).to_json())
            paths.append(path)
        statements = [alama.parse(p) for p in paths]
        mean_rows = sum(len(s) for s in statements) / len(statements)
        print(f"inputs: {count} synthetic statements, {months} months, {mean_rows:.0f} rows each on average\n")

        for workers in (1, 2):
            rows.append((f"`score_many(paths, workers={workers})`", best_of(runs, lambda: alama.score_many(paths, workers=workers))))
        for workers in (1, 2):
            rows.append((f"`score_many(statements, workers={workers})`", best_of(runs, lambda: alama.score_many(statements, workers=workers))))
        rows.append(("Python loop of `score(path)`", best_of(runs, lambda: [alama.score(p) for p in paths])))

        if CLI.is_file():
            sample = paths[:: max(1, count // 20)]
            assert all(alama.score(p).to_json() == cli_score(p) for p in sample), "CLI differs"
            rows.append(("CLI, one process per statement, sequential", best_of(1, lambda: [cli_score(p) for p in paths])))
            with ThreadPoolExecutor(2) as pool:
                rows.append(("CLI, one process per statement, 2 at a time", best_of(1, lambda: list(pool.map(cli_score, paths)))))
        else:
            print(f"(CLI not found at {CLI}: build it with `cargo build --release --bin alama`)\n")
    return rows


def per_call(fn: Callable[[], object], number: int) -> float:
    """Seconds per call of `fn`: the best of 5 repeats of `number` calls."""
    return min(timeit.repeat(fn, number=number, repeat=5)) / number


def build_engine_timing() -> Path | None:
    """Builds the pure-Rust `engine_timing` example of bindings/python (cargo, release)."""
    run = subprocess.run(
        ["cargo", "build", "--quiet", "--release", "-p", "alama-python", "--example", "engine_timing"],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    binary = REPO / "target" / "release" / "examples" / "engine_timing"
    if run.returncode != 0 or not binary.is_file():
        print(f"(engine_timing example not built: {run.stderr.strip()[-400:]})\n")
        return None
    return binary


def engine_times(binary: Path, statements: list[alama.Statement]) -> list[float]:
    """Seconds per pure-Rust `alama_core::score` call for each statement (no Python in that
    process: the example parses the canonical JSON and times the call, best of 5)."""
    with tempfile.TemporaryDirectory(prefix="alama-py-bench-") as tmp:
        files = []
        for i, statement in enumerate(statements):
            path = Path(tmp) / f"{i}.json"
            path.write_text(statement.to_json())
            files.append(str(path))
        run = subprocess.run([str(binary), *files], capture_output=True, text=True, check=True)
    return [int(line.split("\t")[0]) / 1e9 for line in run.stdout.splitlines()]


def overhead(binary: Path | None, rounds: int = 3) -> list[tuple[str, float, float | None]]:
    """(label, one Python score() call, one pure-Rust alama_core::score call), in seconds; the
    two are measured in alternation, `rounds` times, keeping the best of each."""
    one_row = statement_dict(1, 1)
    one_row["transactions"] = [dict(one_row["transactions"][0], status="completed")]
    cases = [
        ("1 row", alama.Statement.from_dict(one_row)),
        ("240 rows (6 months)", alama.Statement.from_dict(statement_dict(2, 6))),
        ("1,440 rows (36 months)", alama.Statement.from_dict(statement_dict(3, 36))),
    ]
    if REAL_PDF.is_file():
        cases.append(("4,382 rows (real 117-page PDF, parsed)", alama.parse(REAL_PDF, password="183177")))
    statements = [statement for _, statement in cases]
    python = [float("inf")] * len(cases)
    rust: list[float] | None = [float("inf")] * len(cases) if binary else None
    for _ in range(rounds):
        for i, statement in enumerate(statements):
            number = max(10, 20_000 // max(len(statement), 1))
            python[i] = min(python[i], per_call(lambda: alama.score(statement), number))
        if binary and rust is not None:
            rust = [min(a, b) for a, b in zip(rust, engine_times(binary, statements))]
    return [
        (label, python[i], rust[i] if rust else None) for i, (label, _) in enumerate(cases)
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=1000)
    parser.add_argument("--months", type=int, default=6)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()

    binary = build_engine_timing()  # before any timing: the build would load the machine
    print(f"machine: {machine()}")
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}\n")
    print(f"parallel headroom: two GIL-free hashing threads get CPU/wall {free_cores():.2f} (2.00 = two idle cores)\n")
    results = batch(args.count, args.months, args.runs)
    print(f"parallel headroom after: {free_cores():.2f}\n")
    print(f"| {args.count} statements | wall time | statements/s | CPU/wall |\n|---|---:|---:|---:|")
    for label, (wall, cpu) in results:
        ratio = f"{cpu / wall:.2f}" if "CLI" not in label else "n/a (child processes)"
        print(f"| {label} | {wall * 1000:,.0f} ms | {args.count / wall:,.0f} | {ratio} |")
    print("\n| one `score(statement)` call | Python `alama.score` | Rust `alama_core::score` | overhead |\n|---|---:|---:|---:|")
    for label, call, rust in overhead(binary):
        if rust is None:
            print(f"| {label} | {call * 1e6:,.1f} µs | n/a | n/a |")
        else:
            print(f"| {label} | {call * 1e6:,.1f} µs | {rust * 1e6:,.1f} µs | {(call - rust) * 1e6:+,.1f} µs |")
    print(f"\nload average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
