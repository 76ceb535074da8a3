"""``score_application``: several statements of one applicant scored as one (docs/applications.md).

The engine does all of it (``alama._alama.score_application_json``, GIL released); this module
only gives its canonical JSON a Python shape: an ``Application`` with the report's figures, the
statements read, the affordability of the terms, and pandas tables of them.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from alama import _alama, _extras

if TYPE_CHECKING:
    from alama._alama import Scorecard, Statement, _Source

#: The keys ``terms=`` accepts, as the engine's ``Terms::from_options`` takes them.
TERMS_KEYS = ("principal", "tenor_months", "monthly_rate", "total_cost", "fees")


class Application:
    """The report of an application. ``to_json()`` is the engine's canonical JSON, byte for
    byte the same in every binding; ``to_dict()`` the same with money and rates as ``Decimal``.

    Attributes: ``application_id`` (``"app_…"``), ``score`` (300–850), ``band``,
    ``statement_period``, ``integrity_status``, ``statements`` (one ``dict`` per statement read:
    ``reportId``, ``provider``, ``statementPeriod``, ``integrityStatus`` …) and
    ``affordability`` (a ``dict`` or ``None`` without terms)."""

    __slots__ = ("_json", "_data")

    def __init__(self, canonical_json: str) -> None:
        self._json = canonical_json
        self._data: dict[str, Any] = json.loads(canonical_json)

    def to_json(self) -> str:
        """The canonical compact JSON of the application report."""
        return self._json

    def to_dict(self) -> dict[str, Any]:
        """The report as plain Python values, decimal strings as ``decimal.Decimal``."""
        data: dict[str, Any] = _decimals(self._data)
        return data

    @property
    def application_id(self) -> str:
        return str(self._data["applicationId"])

    @property
    def score(self) -> int:
        return int(self._data["score"])

    @property
    def band(self) -> str:
        return str(self._data["band"])

    @property
    def statement_period(self) -> str:
        return str(self._data["statementPeriod"])

    @property
    def integrity_status(self) -> str:
        return str(self._data["integrity"]["status"])

    @property
    def statements(self) -> list[dict[str, Any]]:
        return [dict(s) for s in self._data["statements"]]

    @property
    def affordability(self) -> dict[str, Any] | None:
        a = self._data["affordability"]
        return None if a is None else _decimals(a)

    def to_frame(self) -> Any:
        """A one-row ``pandas.DataFrame`` of the headline figures (id, score, band, period,
        integrity, and the affordability columns when terms were given, money as ``Decimal``).
        Raises ``ImportError`` without pandas."""
        _extras.require("pandas", "Application.to_frame")
        import pandas as pd

        row: dict[str, Any] = {
            "application_id": self.application_id,
            "score": self.score,
            "band": self.band,
            "statement_period": self.statement_period,
            "integrity_status": self.integrity_status,
            "statements": len(self._data["statements"]),
        }
        a = self.affordability
        if a is not None:
            for key in ("instalment", "affordableInstalment", "ratio", "fits", "largestPrincipal"):
                row[_snake(key)] = a[key]
        return pd.DataFrame([row])

    def statements_frame(self) -> Any:
        """The statements read as a ``pandas.DataFrame``, one row each (snake_case columns).
        Raises ``ImportError`` without pandas."""
        _extras.require("pandas", "Application.statements_frame")
        import pandas as pd

        return pd.DataFrame([{_snake(k): v for k, v in s.items()} for s in self.statements])

    def __repr__(self) -> str:
        return f"Application({self.application_id}, score={self.score}, band={self.band!r})"


def score_application(
    sources: Iterable[_Source | Statement],
    *,
    terms: Mapping[str, Any] | None = None,
    password: str | None = None,
    format: str | None = None,  # noqa: A002 - the name `score` uses
    scorecard: Scorecard | None = None,
    as_of: Any = None,
) -> Application:
    """Scores several statements of one applicant as one application (docs/applications.md).

    ``sources`` are ``Statement`` objects, bytes or paths, as ``score`` takes them, in any
    order; ``password`` and ``format`` apply to every one. ``terms`` (optional) is a mapping of
    ``principal``, ``tenor_months``, and ``monthly_rate`` (a fraction a month) or ``total_cost``,
    and ``fees``; money and rates as ``Decimal`` (or ``int``/``str``), in the statements'
    currency (docs/affordability.md).

    Raises the errors of ``score`` (the message names the statement by position),
    ``CurrencyMismatchError`` for two currencies, ``EmptyStatementError`` for no statements,
    ``MalformedStatementError`` for bad terms, and ``TypeError`` for an unknown terms key.
    """
    given = dict(terms or {})
    unknown = sorted(set(given) - set(TERMS_KEYS))
    if unknown:
        raise TypeError(f"unknown terms key(s) {unknown}; expected some of {list(TERMS_KEYS)}")
    def money(key: str) -> Decimal | None:
        return None if given.get(key) is None else Decimal(str(given[key]))

    tenor = given.get("tenor_months")
    canonical = _alama.score_application_json(
        list(sources),
        password=password,
        format=format,
        scorecard=scorecard,
        as_of=as_of,
        principal=money("principal"),
        tenor_months=None if tenor is None else int(tenor),
        monthly_rate=money("monthly_rate"),
        total_cost=money("total_cost"),
        fees=money("fees"),
    )
    return Application(canonical)


def _snake(key: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in key)


_DECIMAL_KEYS = frozenset(
    {
        "principal", "fees", "instalment", "affordableInstalment", "ratio", "largestPrincipal",
        "monthlyRate", "totalCost", "value", "totalPaidIn", "totalWithdrawn", "paidIn", "withdrawn",
    }
)


def _decimals(value: Any, key: str = "") -> Any:
    if isinstance(value, dict):
        return {k: _decimals(v, k) for k, v in value.items()}
    if isinstance(value, list):
        return [_decimals(v, key) for v in value]
    if isinstance(value, str) and key in _DECIMAL_KEYS:
        return Decimal(value)
    return value
