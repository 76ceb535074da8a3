"""The install paths the README gives: ``pip install "./python[pandas]"`` brings pandas, and the
``progress`` extra brings tqdm. Checked on the installed distribution's own metadata."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, metadata

import pytest


def requirements_of(extra: str) -> list[str]:
    """The Requires-Dist lines that the extra `extra` adds, as the installed wheel declares them."""
    try:
        md = metadata("alama")
    except PackageNotFoundError:
        pytest.skip("alama is not installed as a distribution")
    assert extra in (md.get_all("Provides-Extra") or []), f"no [{extra}] extra"
    wanted = f"extra=={extra}"
    return [
        r
        for r in md.get_all("Requires-Dist") or []
        if ";" in r and r.split(";", 1)[1].replace(" ", "").replace('"', "").replace("'", "") == wanted
    ]


def test_pandas_extra_installs_pandas() -> None:
    assert [r.split(";")[0].strip() for r in requirements_of("pandas")] == ["pandas>=1.5"]


def test_progress_extra_installs_tqdm() -> None:
    assert [r.split(";")[0].strip() for r in requirements_of("progress")] == ["tqdm>=4.60"]
