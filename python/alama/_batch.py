"""``score_many`` with an optional progress bar (tqdm, when installed).

No scoring happens here: without a bar this is the native ``score_many`` (Rust threads, the GIL
released); with one, each statement goes to the native ``score_many`` on its own, from a pool of
Python threads that each wait with the GIL released, and the bar moves as each one finishes.
"""

from __future__ import annotations

import importlib
import os
import sys
import warnings
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from typing import TYPE_CHECKING, Any

from alama import _alama, _extras

if TYPE_CHECKING:
    from alama._alama import AlamaError, Report, Scorecard, Statement, _Source


def _tqdm() -> Any | None:
    """tqdm's bar class (``tqdm.auto``: a widget in notebooks), or None when tqdm is absent."""
    try:
        return importlib.import_module("tqdm.auto").tqdm
    except ImportError:
        return None


def score_many(
    sources: Iterable[_Source | Statement],
    *,
    password: str | Sequence[str | None] | None = None,
    format: str | None = None,
    workers: int | None = None,
    progress: bool = False,
    scorecard: Scorecard | None = None,
) -> list[Report | AlamaError]:
    """Scores many statements in parallel; each slot holds its Report or its AlamaError.

    ``sources`` is an iterable of what ``score`` accepts (paths, bytes, Statements).
    ``password`` is one password for every PDF or a sequence with one (or None) per source;
    ``workers`` the number of threads (default: the machine's cores). With ``progress=True``
    a tqdm progress bar (on standard error, or a widget in a notebook) counts the statements
    scored, when tqdm is installed (``pip install 'alama[progress]'``); without tqdm a
    ``UserWarning`` says so in one line, and the result is the same. ``scorecard`` (an ``alama.Scorecard``) scores with that card instead of
    the built-in one.

    Returns a list in input order. Raises ``TypeError`` for an item that is not a source or a
    lone ``str``/``bytes`` in place of the iterable, and ``ValueError`` for ``workers < 1`` or a
    password sequence of the wrong length (as the native ``alama._alama.score_many``).
    """
    bar_class = _tqdm() if progress else None
    if progress and bar_class is None:
        warnings.warn(
            "score_many(progress=True) shows no progress bar: tqdm is not installed; "
            + _extras.install_hint("progress"),
            stacklevel=2,
        )
    if bar_class is None or isinstance(sources, (str, bytes, bytearray)):
        return _alama.score_many(
            sources, password=password, format=format, workers=workers, scorecard=scorecard
        )
    items = list(sources)
    passwords: list[str | None]
    if password is None or isinstance(password, str):
        passwords = [password] * len(items)
    else:
        passwords = list(password)
    if len(passwords) != len(items) or (workers is not None and workers < 1):
        # The native function raises the documented ValueError.
        return _alama.score_many(
            items, password=password, format=format, workers=workers, scorecard=scorecard
        )
    done: dict[int, Report | AlamaError] = {}
    threads = workers if workers is not None else (os.cpu_count() or 1)
    with ThreadPoolExecutor(max_workers=max(1, threads)) as pool, bar_class(
        total=len(items), unit="statement", file=sys.stderr
    ) as bar:
        futures = {
            pool.submit(
                _alama.score_many,
                [item],
                password=[pw],
                format=format,
                workers=1,
                scorecard=scorecard,
            ): i
            for i, (item, pw) in enumerate(zip(items, passwords))
        }
        for future in as_completed(futures):
            done[futures[future]] = future.result()[0]
            bar.update(1)
    return [done[i] for i in range(len(items))]
