"""Alama: credit scores from mobile-money statements (Safaricom M-Pesa first).

A native package over the Rust engine ``alama-core``: every figure comes from the engine, and
``Report.to_json()`` is byte for byte what the ``alama`` CLI, the Node package and the HTTP
service return for the same statement.

>>> import alama
>>> report = alama.score("statement.pdf", password="12345678")   # doctest: +SKIP
>>> report.score, report.band                                     # doctest: +SKIP
(712, 'Good')

Money is :class:`decimal.Decimal` in major units of the statement currency (KES, UGX, GHS or
LSL); times are naive :class:`datetime.datetime` in the wallet's local time as printed (M-Pesa:
Africa/Nairobi, UTC+03:00; the statement's ``time_zone`` names it). Failures raise subclasses of
:class:`AlamaError`, each with a
stable ``code``.

The submodules ``alama.modelling`` (scorecard fitting: optbinning, scikit-learn),
``alama.testing`` (synthetic populations) and ``alama.spark`` (PySpark) load on first access
(PEP 562, as SciPy's do): ``import alama`` imports none of their libraries, and
``alama.modelling.fit_scorecard`` works without ``import alama.modelling``. A submodule whose
extra is not installed raises ``ImportError`` naming it on that first access.
"""

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

from alama._alama import (
    SCORECARD_VERSION,
    AlamaError,
    CurrencyMismatchError,
    EmptyStatementError,
    Factor,
    FileReadError,
    Finding,
    InvalidScorecardError,
    InvalidTermsError,
    Insight,
    Integrity,
    MalformedStatementError,
    MonthlyCashflow,
    PasswordRequiredError,
    ReasonCode,
    Report,
    Scorecard,
    Statement,
    StatementOverview,
    Summary,
    SummaryRow,
    TooLargeError,
    Transaction,
    UnsupportedCurrencyError,
    UnsupportedFormatError,
    UnsupportedWalletError,
    WrongPasswordError,
    __version__,
    feature_catalogue,
    features,
    parse,
    score,
)
from alama._application import Application, score_application
from alama._batch import score_many
from alama._extras import EXTRAS
from alama._features import features_frame

if TYPE_CHECKING:  # pragma: no cover - for type checkers; at run time __getattr__ loads them
    from alama import modelling, spark, testing

#: The submodules loaded on first attribute access (``__getattr__``), not by ``import alama``,
#: with the libraries each needs (its extra: pyproject.toml, ``alama._extras``).
_LAZY_SUBMODULES: dict[str, tuple[str, ...]] = {
    "modelling": EXTRAS["modelling"],
    "spark": EXTRAS["spark"],
    "testing": (),
}


def __getattr__(name: str) -> Any:
    """PEP 562: imports the submodule ``alama.<name>`` on first access (later accesses find it
    in the package's namespace, where the import system puts it). Raises ``AttributeError`` for
    any other name, and ``ImportError`` when the submodule's extra is missing."""
    if name in _LAZY_SUBMODULES:
        return importlib.import_module(f"alama.{name}")
    raise AttributeError(f"module 'alama' has no attribute {name!r}")


def __dir__() -> list[str]:
    """The public names and the lazily loaded submodules whose extra is installed, for
    ``dir(alama)`` and completion: tools that ``getattr`` every name ``dir`` lists (``inspect``,
    ``pydoc``) must not meet an ``ImportError``. The submodules are not in ``__all__``:
    ``from alama import *`` loads none of them."""
    usable = {
        name
        for name, needs in _LAZY_SUBMODULES.items()
        if all(importlib.util.find_spec(n) is not None for n in needs)
    }
    return sorted(set(__all__) | usable)

__all__ = [
    "SCORECARD_VERSION",
    "AlamaError",
    "Application",
    "CurrencyMismatchError",
    "EmptyStatementError",
    "Factor",
    "FileReadError",
    "Finding",
    "InvalidScorecardError",
    "InvalidTermsError",
    "Insight",
    "Integrity",
    "MalformedStatementError",
    "MonthlyCashflow",
    "PasswordRequiredError",
    "ReasonCode",
    "Report",
    "Scorecard",
    "Statement",
    "StatementOverview",
    "Summary",
    "SummaryRow",
    "TooLargeError",
    "Transaction",
    "UnsupportedCurrencyError",
    "UnsupportedFormatError",
    "UnsupportedWalletError",
    "WrongPasswordError",
    "__version__",
    "feature_catalogue",
    "features",
    "features_frame",
    "parse",
    "score",
    "score_application",
    "score_many",
]
