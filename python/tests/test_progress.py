"""score_many(progress=True): a tqdm bar when tqdm is installed, the same results either way."""

from __future__ import annotations

import sys

import pytest

import alama
from synthetic import statement_dict

NOT_A_STATEMENT = b"\x89PNG\r\n\x1a\n not a statement"


def sources() -> list[object]:
    statements: list[object] = [
        alama.Statement.from_dict(statement_dict(seed, months=2)) for seed in range(5)
    ]
    return [*statements[:2], NOT_A_STATEMENT, *statements[2:]]


def same(a: list[alama.Report | alama.AlamaError], b: list[alama.Report | alama.AlamaError]) -> bool:
    return [r.to_json() if isinstance(r, alama.Report) else r.code for r in a] == [
        r.to_json() if isinstance(r, alama.Report) else r.code for r in b
    ]


def test_progress_bar_counts_every_statement(capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("tqdm")
    items = sources()
    plain = alama.score_many(items, workers=2)  # type: ignore[arg-type]
    capsys.readouterr()
    with_bar = alama.score_many(items, workers=2, progress=True)  # type: ignore[arg-type]
    assert same(with_bar, plain)
    assert isinstance(with_bar[2], alama.UnsupportedFormatError)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert f"{len(items)}/{len(items)}" in captured.err


def test_without_tqdm_a_warning_names_the_extra_and_the_result_is_the_same(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    items = sources()
    # Not silent: one line that names the extra to install (a UserWarning, filterable).
    with pytest.warns(UserWarning, match=r"no progress bar: tqdm is not installed; pip install 'alama\[progress\]'$"):
        got = alama.score_many(items, progress=True)  # type: ignore[arg-type]
    assert same(got, alama.score_many(items))  # type: ignore[arg-type]
    assert capsys.readouterr().err == ""


def test_progress_keeps_the_argument_errors() -> None:
    pytest.importorskip("tqdm")
    with pytest.raises(ValueError, match="workers"):
        alama.score_many([NOT_A_STATEMENT], workers=0, progress=True)
    with pytest.raises(ValueError, match="one per source"):
        alama.score_many([NOT_A_STATEMENT], password=["a", "b"], progress=True)
    with pytest.raises(TypeError, match="not one source"):
        alama.score_many("statement.pdf", progress=True)
    with pytest.raises(TypeError):
        alama.score_many([1.5], progress=True)  # type: ignore[list-item]
    assert alama.score_many([], progress=True) == []
