#!/usr/bin/env bash
# Runs the examples of the documents a newcomer reads (README.md, python/README.md,
# node/README.md, server/README.md, docs/*.md) and checks the output they show
# (tests/docs/markdown_examples.py: pytest + Sybil; how to write an example: docs/doc-tests.md).
#
#   bash scripts/test-docs.sh [--bless] [cli] [python] [node] [-- PYTEST_ARGS…]
#
# Groups (all three by default): `cli` runs the sh/console examples (the CLI and the service:
# needs target/release/alama or $ALAMA_CLI, curl and jq), `python` the Python ones (needs
# `alama` installed in the interpreter: python/ci.sh's venv), `node` the Node ones (needs
# `npm run build` in node/). --bless (or ALAMA_BLESS=1) rewrites the output blocks that differ
# from what the examples print, for after a deliberate change of scores or texts; review
# `git diff` before committing. The Python interpreter is $ALAMA_VENV/bin/python, else
# target/python-ci-venv/bin/python (python/ci.sh's), else python3; Sybil is installed into it
# when missing.
set -euo pipefail
cd "$(dirname "$0")/.."

groups=()
pytest_args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --bless) export ALAMA_BLESS=1 ;;
    cli | python | node) groups+=("$1") ;;
    --) shift; pytest_args=("$@"); break ;;
    *) echo "test-docs.sh: unknown argument '$1' (use --bless, cli, python, node, -- PYTEST_ARGS)" >&2; exit 2 ;;
  esac
  shift
done
[ ${#groups[@]} -gt 0 ] || groups=(cli python node)

PY="${ALAMA_VENV:-$PWD/target/python-ci-venv}/bin/python"
[ -x "$PY" ] || PY="$(command -v python3)"
if ! "$PY" -c 'import sybil, pytest' 2>/dev/null; then
  "$PY" -m pip install --quiet --disable-pip-version-check "sybil>=9,<11" "pytest>=8"
fi

DOCS=(README.md python/README.md node/README.md server/README.md docs/*.md)
lang="$(IFS=,; echo "${groups[*]}")"
PYTHONPATH="$PWD/tests/docs${PYTHONPATH:+:$PYTHONPATH}" "$PY" -m pytest -c tests/docs/pytest.ini \
  --rootdir . -p markdown_examples --doc-lang "$lang" "${DOCS[@]}" ${pytest_args[@]+"${pytest_args[@]}"}
