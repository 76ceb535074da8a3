"""A process forked after scoring (a ``multiprocessing`` worker on Linux's default start
method) still scores: the engine's thread pool does not survive ``fork``, so a forked child
runs the work on its own thread instead of waiting for threads it does not have."""

from __future__ import annotations

import multiprocessing
from typing import Any

import pytest

import alama
from synthetic import statement_dict


def score_to_json(data: dict[str, Any]) -> str:
    """Scores a canonical statement dict in the calling process (run in the forked child)."""
    return alama.score(alama.Statement.from_dict(data)).to_json()


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(), reason="no fork on this platform"
)
# Python 3.12+ warns that forking a multi-threaded process may deadlock: that is the case
# under test.
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_a_process_forked_after_scoring_still_scores() -> None:
    # 1,200 rows: a report's stages run on two of the pool's threads (from 1,000 rows).
    data = statement_dict(seed=11, months=6, rows_per_month=200)
    expected = score_to_json(data)
    with multiprocessing.get_context("fork").Pool(1) as pool:
        in_child = pool.apply_async(score_to_json, (data,))
        # A child waiting on the parent's pool would never answer: fail, do not hang.
        assert in_child.get(timeout=30) == expected
