#!/usr/bin/env bash
# CI of the Node package `alama`, from a fresh clone (run from anywhere: `bash node/ci.sh`).
# Needs Node >= 20 with npm, and Rust. Steps: install the locked npm dependencies, build the
# addon in release into the workspace's target dir, check that the committed generated files
# (index.js, index.d.ts) are current, build the CLI for the conformance tests, type-check
# index.d.ts against test/usage.ts, run the tests. Exits non-zero on any failure.
set -euo pipefail

NODE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
REPO="$(cd "$NODE_DIR/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$REPO/target}"
cd "$NODE_DIR"

echo "== node/ci.sh: node $(node --version), npm $(npm --version 2>/dev/null), $(cargo --version)"

echo "== npm ci"
npm ci --no-audit --no-fund

echo "== napi build --platform --release"
npm run build

if git -C "$REPO" rev-parse --is-inside-work-tree >/dev/null 2>&1 \
  && git -C "$REPO" ls-files --error-unmatch node/index.d.ts node/index.js >/dev/null 2>&1; then
  echo "== generated files are committed and current"
  if ! git -C "$REPO" diff --exit-code --stat -- node/index.d.ts node/index.js; then
    echo "node/index.d.ts or node/index.js differ from the committed files:" >&2
    echo "run 'npm run build' in node/ and commit them." >&2
    exit 1
  fi
fi

if [ -z "${ALAMA_CLI:-}" ]; then
  echo "== cargo build --release --bin alama (for the conformance tests)"
  (cd "$REPO" && cargo build --release --bin alama)
  export ALAMA_CLI="$CARGO_TARGET_DIR/release/alama"
fi

echo "== tsc --noEmit"
npm run typecheck

echo "== node --test"
npm test
