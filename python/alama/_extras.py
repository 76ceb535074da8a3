"""The optional dependencies behind each extra of ``python/pyproject.toml``, and the one-line
``ImportError`` that names the extra to install when one is missing.

A missing optional library is a setup problem, not a bug: the user gets one sentence with the
command that fixes it (``pip install 'alama[modelling]'``), not a bare ``ModuleNotFoundError``
from deep inside a fit.
"""

from __future__ import annotations

import importlib.util

#: Import names each extra brings (the extras of python/pyproject.toml; a test checks they agree).
EXTRAS: dict[str, tuple[str, ...]] = {
    "pandas": ("pandas",),
    "progress": ("tqdm",),
    "modelling": ("pandas", "optbinning", "sklearn", "matplotlib"),
    "spark": ("pyspark", "pyarrow", "pandas"),
}

#: Distribution names where they differ from the import name.
_DISTRIBUTIONS = {"sklearn": "scikit-learn"}


def missing(extra: str) -> list[str]:
    """The distributions of ``extra`` that cannot be imported here (none: ``[]``)."""
    return [
        _DISTRIBUTIONS.get(name, name)
        for name in EXTRAS[extra]
        if importlib.util.find_spec(name) is None
    ]


def install_hint(extra: str) -> str:
    """The command that installs ``extra`` (from an index; from a checkout use ``./python``)."""
    return f"pip install 'alama[{extra}]'"


def require(extra: str, what: str) -> None:
    """Raises ``ImportError`` (one line naming the extra) when a library of ``extra`` is missing.

    ``what`` names the feature that needs it, e.g. ``"alama.modelling"``.
    """
    absent = missing(extra)
    if absent:
        raise ImportError(
            f"{what} needs {', '.join(absent)}, which is not installed: {install_hint(extra)}"
        )
