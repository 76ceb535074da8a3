#!/usr/bin/env bash
# API fuzzing (issue 12): schemathesis (PyPI) against /v1/openapi.json of a running
# `alama serve` on loopback with a Sandbox key: no 5xx, every response matching the OpenAPI
# document. Bounded: MAX_EXAMPLES (25) examples per operation, a 600 s cap on the run; the
# server is stopped by its pid.
#   bash server/schemathesis.sh          # ALAMA_BIN defaults to a debug build of `alama`
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${PORT:-18385}"
if [ -z "${ALAMA_BIN:-}" ]; then
    cargo build -q -p alama --bin alama
    ALAMA_BIN=target/debug/alama
fi
ST="${SCHEMATHESIS:-}"
if [ -z "$ST" ]; then
    VENV="${SCHEMATHESIS_VENV:-/tmp/alama-schemathesis}"
    [ -x "$VENV/bin/schemathesis" ] || { python3 -m venv "$VENV" && "$VENV/bin/pip" install -q schemathesis; }
    ST="$VENV/bin/schemathesis"
fi

WORK="$(mktemp -d)"
SERVER=""
cleanup() {
    if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

DB="sqlite://$WORK/st.db"
KEY="$("$ALAMA_BIN" keys create --partner schemathesis --environment sandbox --database "$DB" 2>/dev/null)"
ALAMA_LOG=error "$ALAMA_BIN" serve --bind "127.0.0.1:$PORT" --database "$DB" \
    --rate-limit-per-minute 1000000 --rate-limit-burst 100000 --auth-failures-per-minute 0 &
SERVER=$!
for _ in $(seq 1 100); do
    curl -sf "http://127.0.0.1:$PORT/v1/openapi.json" >/dev/null && break
    sleep 0.1
done

# From the temporary folder, so schemathesis's cache stays out of the checkout.
cd "$WORK"
timeout 600 "$ST" run "http://127.0.0.1:$PORT/v1/openapi.json" \
    --header "Authorization: Bearer $KEY" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
    --max-examples "${MAX_EXAMPLES:-25}" --workers 2 --seed 12
