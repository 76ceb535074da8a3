#!/usr/bin/env bash
# Rewrites README.md's `--format text` example from what the CLI prints today for the bundled
# example (`alama score examples/statement.csv --format text`). Run it after a deliberate change
# to the scorecard or the report (after `ALAMA_BLESS=1 cargo test --test fixtures`, which
# regenerates the examples), then review `git diff README.md`.
# `cargo test --test readme` fails whenever the README and the CLI disagree.
set -euo pipefail
cd "$(dirname "$0")/.."
ALAMA_BLESS=1 cargo test --quiet --test readme readme_text_example_is_what_the_cli_prints
git --no-pager diff --stat -- README.md
