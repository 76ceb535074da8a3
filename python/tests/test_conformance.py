"""Python's Report.to_json() is byte for byte the CLI's `alama score FILE --format json`.

Inputs: every file in examples/, the input of every golden vector in tests/vectors/ (whose
expected report must also match; a vector of another wallet names its own PDF or CSV in `file`
instead), and statements built here, so the test never runs empty.
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
    if "file" in vector:
        wallet_file = path.parent / vector["file"]
        assert alama.score(wallet_file).to_json() == cli_json(cli, wallet_file)
        return
    input_file = tmp_path / "input.json"
    input_file.write_text(json.dumps(vector["input"]), encoding="utf-8")
    report = alama.score(alama.Statement.from_dict(vector["input"]))
    assert report.to_json() == cli_json(cli, input_file)


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vectors_replay_expected_report(path: Path) -> None:
    vector = json.loads(path.read_text(encoding="utf-8"))
    if "file" in vector:
        report = alama.score(path.parent / vector["file"])
    else:
        report = alama.score(alama.Statement.from_dict(vector["input"]))
    assert report.to_dict() == vector["report"], vector["name"]


WALLET_VECTORS = [p for p in VECTORS if "file" in json.loads(p.read_text(encoding="utf-8"))]


def test_wallet_vectors_are_present() -> None:
    # One per other wallet: Airtel Money Uganda, MTN MoMo Ghana, Vodacom M-Pesa Lesotho.
    names = sorted(p.stem for p in WALLET_VECTORS)
    assert [n.split("-")[1] for n in names] == ["airtel", "mtn", "vodacom"], names


@pytest.mark.parametrize("path", WALLET_VECTORS, ids=lambda p: p.stem)
def test_wallet_vectors_byte_for_byte(path: Path) -> None:
    # Compact JSON of the committed report, as Report.to_json() writes it, and the parse of the
    # wallet's own file as the canonical statement the vector records.
    vector = json.loads(path.read_text(encoding="utf-8"))
    wallet_file = path.parent / vector["file"]
    expected = json.dumps(vector["report"], separators=(",", ":"), ensure_ascii=False)
    assert alama.score(wallet_file).to_json() == expected
    assert alama.score(wallet_file.read_bytes()).to_json() == expected
    assert json.loads(alama.parse(wallet_file).to_json()) == vector["statement"]


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
