#!/usr/bin/env bash
# CI for the Python package `alama` (python/ + bindings/python/). Run from the repo root:
#
#     bash python/ci.sh
#
# 1. makes a virtualenv in target/python-ci-venv (or uses $PYTHON directly when venv is missing)
#    and installs maturin, pytest, hypothesis, pandas, mypy, tqdm and the modelling extra
#    (optbinning, scikit-learn, matplotlib: alama.modelling) from PyPI;
# 2. builds the release wheel with maturin into target/wheels/python/ and installs it;
# 3. runs pytest (python/tests), which includes the stub check (`mypy.stubtest alama._alama`:
#    the hand-written alama/_alama.pyi must match the built module), `mypy --strict`, the real
#    statements in ../shared/samples/real (skipped when absent), and the CLI conformance test
#    against $ALAMA_CLI or target/release/alama (built here if missing; required in CI).
#
# Exits non-zero on any failure.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT="$PWD"
PYTHON="${PYTHON:-python3}"
VENV="${ALAMA_VENV:-$ROOT/target/python-ci-venv}"

if [ -x "$VENV/bin/python" ] || "$PYTHON" -m venv "$VENV"; then
    PY="$VENV/bin/python"
else
    echo "python/ci.sh: no venv module; installing into $PYTHON's environment" >&2
    PY="$(command -v "$PYTHON")"
fi

echo "==> installing build and test tools"
"$PY" -m pip install --quiet --disable-pip-version-check \
    "maturin>=1.9.4,<2" "pytest>=8" "hypothesis>=6" "pandas>=1.5" "mypy>=1.10" "tqdm>=4.60" \
    "optbinning>=0.19" "scikit-learn>=1.3" "matplotlib>=3.7"

if [ -z "${ALAMA_CLI:-}" ]; then
    if [ ! -x target/release/alama ]; then
        echo "==> building the CLI for the conformance test"
        cargo build --release -p alama
    fi
    export ALAMA_CLI="$ROOT/target/release/alama"
fi
export ALAMA_REQUIRE_CLI=1

echo "==> building the wheel"
WHEELS="$ROOT/target/wheels/python"
rm -rf "$WHEELS"
(cd python && "$PY" -m maturin build --release --locked --interpreter "$PY" --out "$WHEELS")
"$PY" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps \
    "$WHEELS"/alama-*.whl

echo "==> pytest"
# From the repo root, so that `import alama` is the installed wheel, not the python/alama sources.
# The Spark tests (python/tests/test_spark.py) are the "Spark" step of scripts/test-all.sh, which
# adds PySpark to this venv: left out here, so that a reused venv does not run them twice.
HYPOTHESIS_PROFILE=ci "$PY" -m pytest -c python/pyproject.toml --rootdir python python/tests \
    --ignore=python/tests/test_spark.py
