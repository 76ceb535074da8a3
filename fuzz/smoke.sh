#!/usr/bin/env bash
# Fuzzing of the parsers and the scorer (issue 12): builds the cargo-fuzz targets with the
# nightly toolchain (or, without one, stable with RUSTC_BOOTSTRAP=1), writes the seed corpus
# from the synthetic generator, and runs each target for FUZZ_SECS seconds (default 30: the CI
# smoke) or FUZZ_RUNS executions. A crash fails the script and leaves its input under
# fuzz/artifacts/<target>/.
#   bash fuzz/smoke.sh                        # 30 s per target
#   FUZZ_RUNS=10000000 FUZZ_SECS=0 bash fuzz/smoke.sh parse_csv     # a long run of one target
set -euo pipefail
cd "$(dirname "$0")"

if ! cargo fuzz --version >/dev/null 2>&1; then
    echo "fuzz: installing cargo-fuzz" >&2
    cargo install cargo-fuzz --locked
fi
if rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    TOOLCHAIN=(+nightly)
else
    # cargo-fuzz needs nightly-only flags (-Z sanitizer); stable accepts them when told it
    # is building itself.
    TOOLCHAIN=()
    export RUSTC_BOOTSTRAP=1
fi

# The seed corpus (plain build: no sanitizer needed to write files).
cargo run -q --bin make-corpus

TARGETS=("$@")
if [ ${#TARGETS[@]} -eq 0 ]; then TARGETS=(parse_pdf parse_csv parse_json score); fi
# FUZZ_DEV=1 builds the targets in the dev profile: much quicker to compile on a busy machine,
# several times slower per execution.
BUILD=()
if [ "${FUZZ_DEV:-0}" = 1 ]; then BUILD=(--dev); fi
SECS="${FUZZ_SECS:-30}"
RUNS="${FUZZ_RUNS:-0}"
for target in "${TARGETS[@]}"; do
    echo "== fuzz $target (${SECS}s, runs ${RUNS})" >&2
    args=(-rss_limit_mb=2048 -max_len=1048576)
    if [ "$SECS" != 0 ]; then args+=(-max_total_time="$SECS"); fi
    if [ "$RUNS" != 0 ]; then args+=(-runs="$RUNS"); fi
    log="$(mktemp)"
    if ! cargo "${TOOLCHAIN[@]}" fuzz run "${BUILD[@]}" "$target" "corpus/$target" -- "${args[@]}" >"$log" 2>&1; then
        tail -n 60 "$log"
        rm -f "$log"
        echo "fuzz: $target FAILED (its input is under fuzz/artifacts/$target/)" >&2
        exit 1
    fi
    grep -E '^(#[0-9]+[[:space:]]+DONE|Done [0-9]+ runs)' "$log" || tail -n 3 "$log"
    rm -f "$log"
done
