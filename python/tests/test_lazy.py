"""``import alama`` then ``alama.modelling.fit_scorecard`` works without ``import alama.modelling``
(PEP 562 ``__getattr__``, issue 44), and ``import alama`` alone imports no submodule's libraries.
Each check runs in a fresh interpreter: this test session has long imported everything."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest


def run(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    # From an empty folder: the `alama` that is imported (installed wheel or `maturin develop`).
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )


def test_import_alama_loads_no_submodule_and_no_modelling_library(tmp_path: Path) -> None:
    result = run(
        tmp_path,
        """
        import sys
        import alama
        heavy = sorted(
            m for m in ("alama.modelling", "alama.testing", "alama.spark", "optbinning",
                        "sklearn", "matplotlib", "pyspark") if m in sys.modules
        )
        assert heavy == [], heavy
        import importlib.util, inspect
        assert "testing" in dir(alama)
        has_spark = importlib.util.find_spec("pyspark") is not None
        assert ("spark" in dir(alama)) == has_spark
        # What dir() lists can be fetched: inspect and pydoc getattr every name.
        names = [n for n, _ in inspect.getmembers(alama)]
        assert "testing" in names
        try:
            alama.no_such_thing
        except AttributeError as e:
            assert "no_such_thing" in str(e)
        else:
            raise AssertionError("alama.no_such_thing did not raise AttributeError")
        print("ok")
        """,
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stdout + result.stderr


def test_submodules_load_on_first_access(tmp_path: Path) -> None:
    pytest.importorskip("optbinning")
    pytest.importorskip("sklearn")
    result = run(
        tmp_path,
        """
        import sys
        import alama
        fit = alama.modelling.fit_scorecard
        assert callable(fit) and "alama.modelling" in sys.modules
        assert alama.modelling is sys.modules["alama.modelling"]
        assert len(alama.testing.population(2, seed=1).outcome) == 2
        print("ok")
        """,
    )
    assert result.returncode == 0 and result.stdout.strip() == "ok", result.stdout + result.stderr


def test_modelling_without_its_extra_names_it_in_one_line(tmp_path: Path) -> None:
    # optbinning (or scikit-learn, matplotlib, pandas) missing: the first access to
    # alama.modelling raises an ImportError of one line naming the extra, not a bare
    # ModuleNotFoundError in the middle of a fit.
    for absent, distribution in (("optbinning", "optbinning"), ("sklearn", "scikit-learn")):
        result = run(
            tmp_path,
            f"""
            import sys
            sys.modules[{absent!r}] = None  # as if not installed
            import alama
            assert "modelling" not in dir(alama)
            try:
                alama.modelling
            except ImportError as e:
                print(e)
            """,
        )
        assert result.returncode == 0, result.stderr
        assert result.stdout == (
            f"alama.modelling needs {distribution}, which is not installed: "
            "pip install 'alama[modelling]'\n"
        )
