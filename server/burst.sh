#!/usr/bin/env bash
# Memory under a burst of large uploads (issue 12, item 1): CONCURRENCY (120) concurrent
# uploads of one SIZE_MIB (10) MiB CSV statement on two Sandbox keys against `alama serve` on
# loopback, then prints the server's RSS before, its peak (VmHWM) and its RSS once idle, and
# how the requests were answered. Bounded: every upload has a 120 s time-out, the whole run a
# few minutes at most; the server is stopped by its pid at the end.
#   bash server/burst.sh                 # builds the debug `alama` binary if ALAMA_BIN is unset
#   ALAMA_BIN=target/release/alama CONCURRENCY=60 bash server/burst.sh
# Extra `alama serve` flags go in SERVE_FLAGS (e.g. "--max-uploads-in-flight 4"). With
# MAX_PEAK_MIB and/or MAX_IDLE_MIB set, the script fails when a figure is above them (CI).
set -euo pipefail
cd "$(dirname "$0")/.."

CONCURRENCY="${CONCURRENCY:-120}"
SIZE_MIB="${SIZE_MIB:-10}"
PORT="${PORT:-18383}"
IDLE_SECS="${IDLE_SECS:-10}"
if [ -z "${ALAMA_BIN:-}" ]; then
    cargo build -q -p alama --bin alama
    ALAMA_BIN=target/debug/alama
fi

WORK="$(mktemp -d)"
SERVER=""
cleanup() {
    if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

# A statement just under SIZE_MIB MiB: long Details cells keep the row count (and the analysis
# time of a debug build) modest, so the figures are about the upload, not the engine.
python3 - "$WORK/statement.csv" "$SIZE_MIB" <<'EOF'
import sys
path, mib = sys.argv[1], int(sys.argv[2])
limit = mib * 1024 * 1024 - 4096
rows, balance, i = [], 50000.0, 0
header = "Receipt No,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance\n"
size = len(header)
while True:
    day = 1 + (i // 40) % 28
    month = 1 + (i // (40 * 28)) % 12
    paid, out = (3500.0, 0.0) if i % 10 == 0 else (0.0, 50.0)
    balance += paid - out
    details = "Merchant Payment to 512345 - SHOP " + "X" * 400
    line = f"T{i:09},2024-{month:02}-{day:02} 10:{i % 60:02}:00,{details},Completed,{paid:.2f},{out:.2f},{balance:.2f}\n"
    if size + len(line) > limit:
        break
    rows.append(line)
    size += len(line)
    i += 1
with open(path, "w") as f:
    f.write(header)
    f.writelines(reversed(rows))
EOF

DB="sqlite://$WORK/burst.db"
KEY1="$("$ALAMA_BIN" keys create --partner burst-a --environment sandbox --database "$DB" 2>/dev/null)"
KEY2="$("$ALAMA_BIN" keys create --partner burst-b --environment sandbox --database "$DB" 2>/dev/null)"
# shellcheck disable=SC2086
ALAMA_LOG=error "$ALAMA_BIN" serve --bind "127.0.0.1:$PORT" --database "$DB" \
    --rate-limit-per-minute 100000 --rate-limit-burst 10000 ${SERVE_FLAGS:-} &
SERVER=$!
for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$PORT/v1/openapi.json" >/dev/null && break
    sleep 0.1
done

rss() { awk '/^VmRSS/ {print int($2/1024)}' "/proc/$SERVER/status"; }
hwm() { awk '/^VmHWM/ {print int($2/1024)}' "/proc/$SERVER/status"; }
echo "statement: $(($(stat -c %s "$WORK/statement.csv") / 1024)) KiB; $CONCURRENCY concurrent uploads"
echo "RSS before: $(rss) MiB"

STARTED=$(date +%s)
for i in $(seq 1 "$CONCURRENCY"); do
    if [ $((i % 2)) -eq 0 ]; then KEY="$KEY1"; else KEY="$KEY2"; fi
    curl -s -o /dev/null -w '%{http_code}\n' --max-time 120 \
        -H "Authorization: Bearer $KEY" -F "statement=@$WORK/statement.csv" \
        "http://127.0.0.1:$PORT/v1/scores/analyse" >"$WORK/status.$i" 2>/dev/null &
done
wait $(jobs -p | grep -v "^$SERVER\$") 2>/dev/null || true
echo "burst took $(($(date +%s) - STARTED)) s; answers: $(cat "$WORK"/status.* | sort | uniq -c | tr '\n' ' ')"
echo "RSS peak: $(hwm) MiB"
sleep "$IDLE_SECS"
echo "RSS idle (${IDLE_SECS} s later): $(rss) MiB"
IDLE="$(rss)"
PEAK="$(hwm)"
if [ -n "${MAX_PEAK_MIB:-}" ] && [ "$PEAK" -gt "$MAX_PEAK_MIB" ]; then
    echo "FAIL: peak RSS $PEAK MiB is above $MAX_PEAK_MIB MiB" >&2
    exit 1
fi
if [ -n "${MAX_IDLE_MIB:-}" ] && [ "$IDLE" -gt "$MAX_IDLE_MIB" ]; then
    echo "FAIL: idle RSS $IDLE MiB is above $MAX_IDLE_MIB MiB" >&2
    exit 1
fi
