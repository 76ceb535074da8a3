"""The hand-written stubs (alama/_alama.pyi) match the built module, and type-check their users.

stubtest imports the built extension and compares every name, class, property, parameter and
default with the stub: any drift between the Rust source and the stub fails here.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parents[1]


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], capture_output=True, text=True, cwd=cwd, check=False
    )


def test_stubs_match_the_built_module(tmp_path: Path) -> None:
    pytest.importorskip("mypy")
    # From an empty folder: the `alama` that is imported (installed wheel or `maturin develop`).
    result = run(tmp_path, "mypy.stubtest", "--mypy-config-file", os.devnull, "alama._alama")
    assert result.returncode == 0, result.stdout + result.stderr


def test_package_and_tests_type_check() -> None:
    pytest.importorskip("mypy")
    result = run(PYTHON_DIR, "mypy", "--strict", "--cache-dir", os.devnull, "alama", "tests")
    assert result.returncode == 0, result.stdout + result.stderr
