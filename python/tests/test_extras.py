"""The install paths the README gives: ``pip install "./python[pandas]"`` brings pandas, and the
``progress`` extra brings tqdm. Checked on the installed distribution's own metadata."""

from __future__ import annotations

import re
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


def test_the_extras_the_package_checks_are_the_ones_it_declares() -> None:
    # alama._extras names the libraries behind each extra (for the one-line ImportError); they
    # must be what the wheel's metadata installs for that extra.
    from alama._extras import _DISTRIBUTIONS, EXTRAS

    for extra, modules in EXTRAS.items():
        declared = {
            re.split(r"[<>=!~ \[]", r.split(";")[0].strip(), maxsplit=1)[0].lower()
            for r in requirements_of(extra)
        }
        assert {_DISTRIBUTIONS.get(m, m) for m in modules} == declared, extra
