#!/usr/bin/env bash
# Runs every test of the project on a fresh Debian machine: the Rust workspace (engine, CLI,
# service on SQLite and PostgreSQL), the Python, Node and Kotlin bindings, and the lints.
# Installs what it needs (apt-get, pip, npm) and builds everything once, in release.
# Usage: bash scripts/test-all.sh        (from anywhere inside the checkout)
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR=never

step() { printf '\n==> %s\n' "$*"; }

step "system packages"
bash scripts/install-system-deps.sh

step "format and lints"
cargo fmt --all --check
cargo clippy --all-targets -- -D warnings
cargo clippy -p alama-core --features testing,pdf-report --all-targets -- -D warnings
cargo clippy -p alama-server -p alama-python -p alama-node -p alama-mobile -p uniffi-bindgen --all-targets -- -D warnings

step "build the engine, the CLI and the service (release)"
cargo build --release --locked
export ALAMA_CLI="$PWD/target/release/alama"

step "Rust tests (engine, CLI, fixtures, real statements)"
cargo test --release --locked -p alama -p alama-core --features alama-core/testing,alama-core/pdf-report

step "service tests (SQLite and PostgreSQL)"
# shellcheck source=/dev/null
source server/ci-postgres.sh
cargo test --release --locked -p alama-server

step "Python package"
bash python/ci.sh

step "Node package"
bash node/ci.sh

step "mobile library (Kotlin on the JVM, Swift generated)"
bash bindings/mobile/ci.sh

printf '\nall test suites passed\n'
