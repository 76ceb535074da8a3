#!/usr/bin/env bash
# Whole-process figures of `alama score` (issue 15): wall time, CPU time and peak RSS, the
# median of RUNS runs (default 7), for the real statements of ../shared/samples/real/ that are
# present (117-page and 136-page encrypted PDFs, the 3,785-row CSV), and, when PEER names a
# virtualenv with `pip install mobile-money-analyzer` in it, that peer on the 117-page PDF in
# the same run (once: it takes half a minute). Output: one line per case, no personal data.
#   bash benches/cli.sh
#   PEER=/tmp/peer RUNS=9 bash benches/cli.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release -q -p alama --bin alama
BIN=target/release/alama
REAL=../shared/samples/real
RUNS="${RUNS:-7}"

# median of RUNS runs of a command: "wall_s cpu_s peak_rss_mib"
measure() {
    for _ in $(seq 1 "$RUNS"); do
        /usr/bin/time -f '%e %U %S %M' "$@" 2>&1 >/dev/null | tail -n 1
    done | awk '{ printf "%.3f %.3f %.1f\n", $1, $2 + $3, $4 / 1024 }' | sort -n |
        awk -v n="$RUNS" '{ a[NR] = $0 } END { print a[int((n + 1) / 2)] }'
}

row() { # label, file, password
    local label=$1 file=$2 password=${3:-}
    if [ ! -f "$file" ]; then
        echo "$label: skipped ($file is absent)"
        return
    fi
    local args=(score "$file")
    if [ -n "$password" ]; then args+=(--password "$password"); fi
    read -r wall cpu rss < <(measure "$BIN" "${args[@]}")
    printf '%-34s wall %6.3f s  cpu %6.3f s  peak RSS %6.1f MiB\n' "$label" "$wall" "$cpu" "$rss"
}

echo "alama score, median of $RUNS whole processes ($(nproc) cores, $(uname -m))"
row "117-page encrypted PDF" "$REAL/mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf" 183177
row "136-page encrypted PDF" "$REAL/mpesa_2021-03_to_2022-03_encrypted_pw35388008_cancelled_rows.pdf" 35388008
row "3,785-row CSV" "$REAL/mpesa_2019-08_to_2021-derived_processed.csv"

if [ -n "${PEER:-}" ] && [ -x "$PEER/bin/mobile-money" ]; then
    PDF="$REAL/mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf"
    read -r wall cpu rss < <(RUNS=1 measure "$PEER/bin/mobile-money" -p 183177 --json "$PDF")
    printf '%-34s wall %6.3f s  cpu %6.3f s  peak RSS %6.1f MiB\n' \
        "peer (mobile-money-analyzer) 117p" "$wall" "$cpu" "$rss"
else
    echo "peer: skipped (set PEER to a virtualenv with mobile-money-analyzer installed)"
fi
