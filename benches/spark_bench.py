#!/usr/bin/env python3
"""Throughput of `alama.spark.score_files` on a local[2] Spark against `alama.score_many(workers=2)`.

    bash python/ci.sh            # the venv and the release wheel (or: cd python && maturin develop --release)
    target/python-ci-venv/bin/python -m pip install pyspark pyarrow "pandas<3"
    target/python-ci-venv/bin/python benches/spark_bench.py [--count 10000] [--months 6] [--data DIR]
        [--conf spark.sql.files.openCostInBytes=65536 ...]

COUNT synthetic statements (python/tests/synthetic.py, about 40 rows a month, invented people)
are written once as canonical JSON by the engine (`Statement.to_json`) into DIR (default: a
temporary folder; an existing DIR holding COUNT statements is reused). Then, on the same files:

1. `alama.score_many(paths, workers=2)`: two Rust threads in one process;
2. `alama.spark.score_files(spark, DIR)` on `local[2]`, forced with Spark's `noop` sink (every
   row computed, nothing collected), after a warm-up job on 100 files so that the JVM and the
   Python workers are up. Session start-up is timed apart.

A sample of reports is checked to be byte-identical both ways, and every row must be scored.
Prints Markdown with the machine; nothing is asserted about speed. Wall clock, one run each:
on a shared machine read the load average printed with it.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import alama

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "python" / "tests"))
from synthetic import statement_dict  # noqa: E402


def write_corpus(folder: Path, count: int, months: int) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"s{seed:05d}.json" for seed in range(count)]
    if all(p.is_file() for p in paths):
        print(f"reusing {count} statements in {folder}", file=sys.stderr)
        return paths
    started = time.perf_counter()
    for seed, path in enumerate(paths):
        statement = alama.Statement.from_dict(statement_dict(seed, months=months))
        path.write_text(statement.to_json(), encoding="utf-8")
    print(f"wrote {count} statements in {time.perf_counter() - started:.0f} s", file=sys.stderr)
    return paths


def java_version() -> str:
    try:
        run = subprocess.run(["java", "-version"], capture_output=True, text=True, check=False)
    except OSError:
        return "none"
    return run.stderr.splitlines()[0] if run.stderr else "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--months", type=int, default=6)
    parser.add_argument("--data", type=Path, help="folder for the statements (kept; reused when complete)")
    parser.add_argument("--conf", action="append", default=[], metavar="KEY=VALUE",
                        help="a Spark setting, e.g. spark.sql.files.openCostInBytes=65536 (repeatable)")
    args = parser.parse_args()

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    import pyspark
    from pyspark.sql import SparkSession

    import alama.spark

    tmp = None
    if args.data is None:
        tmp = tempfile.TemporaryDirectory(prefix="alama-spark-bench-")
        folder = Path(tmp.name)
    else:
        folder = args.data.resolve()
    paths = write_corpus(folder, args.count, args.months)
    size = sum(p.stat().st_size for p in paths)

    started = time.perf_counter()
    reports = alama.score_many(paths, workers=2)
    many_s = time.perf_counter() - started
    failed = [p for p, r in zip(paths, reports) if isinstance(r, alama.AlamaError)]
    assert not failed, f"score_many failed on {len(failed)} statements"

    started = time.perf_counter()
    builder = (
        SparkSession.builder.master("local[2]")
        .appName("alama-spark-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "2g")
    )
    for setting in args.conf:
        key, _, value = setting.partition("=")
        builder = builder.config(key, value)
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    session_s = time.perf_counter() - started

    alama.spark.score_files(spark, [str(p) for p in paths[:100]]).write.format("noop").mode("overwrite").save()
    load_before = os.getloadavg()
    started = time.perf_counter()
    alama.spark.score_files(spark, str(folder)).write.format("noop").mode("overwrite").save()
    spark_s = time.perf_counter() - started
    load_after = os.getloadavg()

    df = alama.spark.score_files(spark, str(folder))
    bad = df.where("status != 'completed'").count()
    assert bad == 0, f"{bad} rows not scored on Spark"
    sample = {Path(r["path"][len("file:") :]).name: r["reportJson"] for r in df.where("path like '%0.json'").collect()}
    for path, report in zip(paths, reports):
        if path.name in sample:
            assert sample[path.name] == report.to_json(), path.name  # type: ignore[union-attr]
    partitions = df.rdd.getNumPartitions()
    spark.stop()

    print(f"\n### alama.spark vs score_many: {args.count} synthetic statements ({args.months} months, "
          f"{size / args.count / 1024:.1f} KiB canonical JSON each)\n")
    print("| way | wall s | statements/s |")
    print("|---|---:|---:|")
    print(f"| `alama.score_many(paths, workers=2)` | {many_s:.1f} | {args.count / many_s:,.0f} |")
    print(f"| `alama.spark.score_files` on `local[2]` ({partitions} tasks, noop sink) | {spark_s:.1f} | {args.count / spark_s:,.0f} |")
    print(f"\nSpark settings: {', '.join(args.conf) or 'defaults'}. "
          f"Spark session start-up (not in the row above): {session_s:.1f} s. "
          f"Reports compared byte for byte on {len(sample)} statements: identical.")
    print(f"\nMachine: {platform.machine()}, {os.cpu_count()} cores, {platform.system()} {platform.release()}; "
          f"Python {platform.python_version()}, pyspark {pyspark.__version__}, {java_version()}; "
          f"alama {alama.__version__}. Load average before/after the Spark run: "
          f"{load_before[0]:.2f} / {load_after[0]:.2f}.")
    if tmp is not None:
        tmp.cleanup()


if __name__ == "__main__":
    main()
