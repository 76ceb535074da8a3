"""Shared paths, fixtures and Hypothesis settings of the alama test suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

#: The repository root (python/tests/ -> repo).
REPO = Path(__file__).resolve().parents[2]
#: Real M-Pesa statements (personal data: never print their contents). CI has them.
REAL = (REPO / ".." / "shared" / "samples" / "real").resolve()

# No timing deadline (a shared 2-core CI machine), no example database in the checkout.
settings.register_profile(
    "alama",
    deadline=None,
    database=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow],
)
# CI: the same examples on every run (python/ci.sh sets HYPOTHESIS_PROFILE=ci).
settings.register_profile("ci", parent=settings.get_profile("alama"), derandomize=True, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "alama"))


def real_file(name: str) -> Path:
    """The path of a real statement, skipping the test when the samples are absent."""
    path = REAL / name
    if not path.is_file():
        pytest.skip(f"real statement samples not found at {REAL} (../shared/samples/real)")
    return path


@pytest.fixture(scope="session")
def cli() -> Path:
    """The `alama` CLI: $ALAMA_CLI, else target/release/alama (built by `cargo build --release`).

    Skips when it is missing, unless ALAMA_REQUIRE_CLI=1 (python/ci.sh), where that fails.
    """
    configured = os.environ.get("ALAMA_CLI")
    path = Path(configured) if configured else REPO / "target" / "release" / "alama"
    if path.is_file() and os.access(path, os.X_OK):
        return path
    message = f"alama CLI not found at {path}: run `cargo build --release` or set ALAMA_CLI"
    if os.environ.get("ALAMA_REQUIRE_CLI") == "1":
        pytest.fail(message)
    pytest.skip(message)
