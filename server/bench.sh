#!/usr/bin/env bash
# Measures `POST /v1/scores/analyse` on loopback: throughput and p50/p90/p99 latency for a
# 5,000-row CSV, an application of three 5,000-row CSVs against the three analysed one by one
# (`POST /v1/applications`), and the 117-page real PDF (when ../shared/samples/real/ is there), and the
# server's peak memory (GNU time's maximum resident set size).
#   bash server/bench.sh                       # SQLite in a temp folder
#   BENCH_DATABASE=postgres://… bash server/bench.sh
# Knobs: CSV_REQUESTS (300), CSV_CONCURRENCY (4), APP_REQUESTS (100), APP_CONCURRENCY (2),
# PDF_REQUESTS (40), PDF_CONCURRENCY (2), PORT,
# ALAMA_BIN (the server binary; default this checkout's release build: set it to a previous
# build to compare two in the same run), SERVE_ARGS (extra `alama serve` flags, e.g.
# "--metrics-bind 127.0.0.1:19191" to measure the service with its metrics listener on).
set -euo pipefail
cd "$(dirname "$0")/.."

cargo build --release -q -p alama --bin alama
cargo build --release -q -p alama-server --example load
BIN="${ALAMA_BIN:-target/release/alama}"

WORK="$(mktemp -d)"
DB="${BENCH_DATABASE:-sqlite://$WORK/bench.db}"
PORT="${PORT:-18181}"
URL="http://127.0.0.1:$PORT"
KEY="$("$BIN" keys create --partner "bench-$$" --environment sandbox --database "$DB" 2>/dev/null)"

ALAMA_LOG=warn /usr/bin/time -v -o "$WORK/time.txt" "$BIN" serve \
    --bind "127.0.0.1:$PORT" --database "$DB" \
    --rate-limit-per-minute 100000000 --rate-limit-burst 1000000 ${SERVE_ARGS:-} &
TIMER=$!
for _ in $(seq 1 100); do
    curl -sf "$URL/v1/openapi.json" >/dev/null && break
    sleep 0.1
done

echo "== 5,000-row CSV"
target/release/examples/load --url "$URL" --key "$KEY" --csv-rows 5000 \
    --requests "${CSV_REQUESTS:-300}" --concurrency "${CSV_CONCURRENCY:-4}"

# Issue 54: an application of three 5,000-row statements against the same three analysed one
# after the other (the target: at most the three analyses + 15 %), interleaved twice.
for round in 1 2; do
    echo "== three 5,000-row CSVs analysed one by one (round $round)"
    target/release/examples/load --url "$URL" --key "$KEY" --csv-rows 5000 --statements 3 \
        --requests "${APP_REQUESTS:-100}" --concurrency "${APP_CONCURRENCY:-2}"
    echo "== the same three as one application (round $round)"
    target/release/examples/load --url "$URL" --key "$KEY" --csv-rows 5000 --statements 3 \
        --application --requests "${APP_REQUESTS:-100}" --concurrency "${APP_CONCURRENCY:-2}"
done

PDF=../shared/samples/real/mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf
if [ -f "$PDF" ]; then
    echo "== 117-page M-Pesa PDF (encrypted)"
    target/release/examples/load --url "$URL" --key "$KEY" --file "$PDF" --password 183177 \
        --requests "${PDF_REQUESTS:-40}" --concurrency "${PDF_CONCURRENCY:-2}" --warmup 2
else
    echo "== 117-page PDF skipped: $PDF is absent"
fi

# Stop the server (the child of GNU time) gracefully, then read its peak memory.
SERVER="$(pgrep -P "$TIMER" || true)"
if [ -n "$SERVER" ]; then kill -TERM "$SERVER"; fi
wait "$TIMER" || true
echo "== server"
grep -E "Maximum resident set size|Elapsed \(wall clock\)|Percent of CPU" "$WORK/time.txt"
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), $(uname -sm)"
rm -rf "$WORK"
