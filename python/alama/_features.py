"""``features_frame``: the feature catalogue of many statements as a pandas DataFrame.

The figures are computed by the engine on Rust threads with the GIL released
(``alama._alama.features_many``); this module only lays them out as a table.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from alama import _alama, _extras

if TYPE_CHECKING:
    from alama._alama import Statement, _Source


def features_frame(
    statements_or_paths: Iterable[_Source | Statement],
    *,
    password: str | Sequence[str | None] | None = None,
    workers: int | None = None,
) -> Any:
    """The catalogue figures of many statements: a ``pandas.DataFrame``, one row per statement
    in input order, one ``float64`` column per catalogue feature (``feature_catalogue()`` order;
    money in the statement currency's major units, ratios as fractions, NaN when not measurable).

    Floats are what modelling libraries take; ``alama.features(statement)`` gives one
    statement's figures as exact ``Decimal``. ``password`` is one password for every PDF or one
    (or None) per source; ``workers`` the number of Rust threads (default: the machine's cores).

    Raises the first ``AlamaError`` a statement raised (the message says which, by index),
    ``TypeError``/``ValueError`` as ``score_many``, and ``ImportError`` without pandas.
    """
    _extras.require("pandas", "alama.features_frame")
    import pandas as pd

    names = [d["name"] for d in _alama.feature_catalogue()]
    rows = _alama.features_many(statements_or_paths, password=password, workers=workers)
    for i, row in enumerate(rows):
        if isinstance(row, BaseException):
            row.args = (f"statement {i}: {row.args[0] if row.args else row}",)
            raise row
    return pd.DataFrame(rows, columns=names, dtype="float64")
