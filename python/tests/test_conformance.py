"""Python's Report.to_json() is byte for byte the CLI's `alama score FILE --format json`.

Inputs: every file in examples/, the input of every golden vector in tests/vectors/ (whose
expected report must also match), and statements built here, so the test never runs empty.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import alama
from conftest import REPO
from synthetic import statement_dict

EXAMPLES = sorted(p for p in (REPO / "examples").glob("*") if p.is_file()) if (
    REPO / "examples"
).is_dir() else []
VECTORS = sorted((REPO / "tests" / "vectors").glob("*.json"))


def cli_json(cli: Path, path: Path) -> str:
    run = subprocess.run(
        [str(cli), "score", str(path), "--format", "json"],
        capture_output=True,
        check=False,
    )
    assert run.returncode == 0, run.stderr.decode(errors="replace")
    out = run.stdout.decode()
    assert out.endswith("\n") and out.count("\n") == 1
    return out[:-1]


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_examples_match_cli(cli: Path, path: Path) -> None:
    assert alama.score(path).to_json() == cli_json(cli, path)


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vectors_match_cli(cli: Path, path: Path, tmp_path: Path) -> None:
    vector = json.loads(path.read_text(encoding="utf-8"))
    input_file = tmp_path / "input.json"
    input_file.write_text(json.dumps(vector["input"]), encoding="utf-8")
    report = alama.score(alama.Statement.from_dict(vector["input"]))
    assert report.to_json() == cli_json(cli, input_file)


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vectors_replay_expected_report(path: Path) -> None:
    vector = json.loads(path.read_text(encoding="utf-8"))
    report = alama.score(alama.Statement.from_dict(vector["input"]))
    assert report.to_dict() == vector["report"], vector["name"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_built_statements_match_cli(cli: Path, seed: int, tmp_path: Path) -> None:
    statement = alama.Statement.from_dict(statement_dict(seed, months=4))
    as_json = tmp_path / "s.json"
    as_json.write_text(statement.to_json(), encoding="utf-8")
    as_csv = tmp_path / "s.csv"
    as_csv.write_text(statement.to_csv(), encoding="utf-8")
    assert alama.score(statement).to_json() == cli_json(cli, as_json)
    assert alama.score(as_csv).to_json() == cli_json(cli, as_csv)


def test_cli_error_codes_match(cli: Path, tmp_path: Path) -> None:
    bad = tmp_path / "bad.bin"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n")
    run = subprocess.run([str(cli), "score", str(bad)], capture_output=True, check=False)
    assert run.returncode == 1
    with pytest.raises(alama.AlamaError) as excinfo:
        alama.score(bad)
    assert f"error[{excinfo.value.code}]" in run.stderr.decode()
