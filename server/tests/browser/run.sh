#!/usr/bin/env bash
# Browser test of the developer portal (issue 13): starts `alama serve` on a fresh SQLite
# database and a free port, creates a portal user (`alama users create`), and runs
# portal.test.mjs with playwright-core driving Debian's chromium headless (never downloads a
# browser). Screenshots go to a temporary folder (printed at the end, left for inspection), so a
# test run never modifies the checkout; $SCREENSHOTS names another folder.
#
# Needs: chromium (/usr/bin/chromium: `apt-get install chromium`), Node 20+ with npm, and the
# `alama` binary ($ALAMA_CLI, else target/debug/alama, built if missing).
# Usage: bash server/tests/browser/run.sh                        (from anywhere inside the checkout)
#        bash server/tests/browser/run.sh --update-screenshots   (rewrite the committed docs/portal/*.png,
#                                                                 shown in README.md; commit them)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../../.." && pwd)"
cd "$repo"

case "${1:-}" in
  --update-screenshots) export SCREENSHOTS="$repo/docs/portal" ;;
  "") export SCREENSHOTS="${SCREENSHOTS:-$(mktemp -d "${TMPDIR:-/tmp}/alama-portal-shots.XXXXXX")}" ;;
  *) echo "usage: $0 [--update-screenshots]" >&2; exit 2 ;;
esac

if [ ! -x /usr/bin/chromium ] && [ -z "${CHROMIUM:-}" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "installing chromium with apt-get"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq chromium >/dev/null
fi

(cd "$here" && npm ci --no-audit --no-fund --silent)

cli="${ALAMA_CLI:-}"
if [ -z "$cli" ]; then
  cli="$repo/target/debug/alama"
  [ -x "$cli" ] || cargo build --locked -p alama
fi

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

db="sqlite://$work/alama.db"
# The log exists before the server (a background job) opens it: the loop below reads it at once,
# and under `set -e` a sed that cannot open it ended the run (seen once on a loaded 2-core host).
: > "$work/serve.log"
"$cli" serve --bind 127.0.0.1:0 --database "$db" --allow-private-webhook-urls \
  >> "$work/serve.log" 2>&1 &
server_pid=$!
base=""
for _ in $(seq 1 100); do
  base="$(sed -nE 's#.*listening on (http://[0-9.:]+)/v1.*#\1#p' "$work/serve.log" | head -1)"
  [ -n "$base" ] && break
  sleep 0.1
done
if [ -z "$base" ]; then cat "$work/serve.log" >&2; echo "alama serve did not start" >&2; exit 1; fi

link="$("$cli" users create --partner "Browser Test Bank" --email dev@browser-test.example \
  --portal-url "$base" --database "$db" 2>/dev/null)"

committed="$(cat docs/portal/*.png | sha256sum)"
PORTAL_BASE="$base" PORTAL_LINK="$link" timeout 150 node "$here/portal.test.mjs" || {
  echo "--- alama serve log ---" >&2; tail -50 "$work/serve.log" >&2; exit 1;
}
# Without --update-screenshots the committed screenshots must come out untouched (issue 44).
if [ "${1:-}" != "--update-screenshots" ] && [ "$(cat docs/portal/*.png | sha256sum)" != "$committed" ]; then
  echo "the browser test modified docs/portal/*.png; only --update-screenshots may" >&2
  exit 1
fi
