# Type stubs of the native module alama._alama (bindings/python/src).
# Written by hand and checked against the built module by `python -m mypy.stubtest alama._alama`
# (python/ci.sh): a name, parameter or class that differs from the module fails CI.
# Full docs are the runtime docstrings (`help(alama.score)`), written once in the Rust source.

import os
from collections.abc import Iterable, Mapping, Sequence
from datetime import date, datetime
from decimal import Decimal
from typing import Any, ClassVar, Final, TypeAlias, final


_Path: TypeAlias = str | os.PathLike[str]
_Source: TypeAlias = bytes | bytearray | _Path

__all__ = [
    "AlamaError",
    "CurrencyMismatchError",
    "UnsupportedCurrencyError",
    "EmptyStatementError",
    "FileReadError",
    "InvalidScorecardError",
    "InvalidTermsError",
    "MalformedStatementError",
    "PasswordRequiredError",
    "TooLargeError",
    "UnsupportedFormatError",
    "UnsupportedWalletError",
    "WrongPasswordError",
    "Factor",
    "Finding",
    "Insight",
    "Integrity",
    "MonthlyCashflow",
    "ReasonCode",
    "Report",
    "Scorecard",
    "StatementOverview",
    "Statement",
    "Summary",
    "SummaryRow",
    "Transaction",
    "feature_catalogue",
    "features",
    "features_many",
    "parse",
    "population",
    "score",
    "score_application_json",
    "score_many",
    "__version__",
    "SCORECARD_VERSION",
    "BANDS",
    "BASE_SCORE",
    "MAX_POINTS",
    "SCORE_MIN",
    "SCORE_MAX",
]

__version__: Final[str]
SCORECARD_VERSION: Final[str]
#: The score bands, ``(name, lowest, highest)`` inclusive, as every report names them.
BANDS: Final[list[tuple[str, int, int]]]
#: The base score of every card (300): ``score = BASE_SCORE + Σ points``.
BASE_SCORE: Final[int]
#: What a card's characteristics' maxima add up to (550).
MAX_POINTS: Final[int]
#: The lowest score (300).
SCORE_MIN: Final[int]
#: The highest score (850).
SCORE_MAX: Final[int]

class AlamaError(Exception):
    """Base class of every error the Alama engine raises."""

    code: ClassVar[str | None]
    message: str

class PasswordRequiredError(AlamaError):
    """The PDF is encrypted and no password was given (code "password_required")."""

class WrongPasswordError(AlamaError):
    """The given password does not open the encrypted PDF (code "wrong_password")."""

class UnsupportedFormatError(AlamaError):
    """Not an M-Pesa PDF, CSV export or canonical JSON (code "unsupported_format")."""

class UnsupportedWalletError(AlamaError):
    """A readable file of an unknown wallet or layout (code "unsupported_wallet")."""

class MalformedStatementError(AlamaError):
    """A broken file or statement dict (code "malformed_statement")."""

    page: int
    line: int

class EmptyStatementError(AlamaError):
    """No completed transactions to score (code "empty_statement")."""

class TooLargeError(AlamaError):
    """The input exceeds a safety limit (code "too_large")."""

    limit: int

class FileReadError(AlamaError):
    """Reading a statement file failed (code "io_error")."""

class InvalidScorecardError(AlamaError):
    """A scorecard that does not validate; the message names the problem (code "invalid_scorecard")."""

class CurrencyMismatchError(AlamaError):
    """The scorecard is in another currency than the statement; amounts are never converted (code "currency_mismatch")."""

class UnsupportedCurrencyError(AlamaError):
    """No built-in scorecard for the statement's currency; the message names those that have one (code "unsupported_currency")."""

class InvalidTermsError(AlamaError):
    """Loan terms that break a rule of docs/affordability.md; the message names the field (code "invalid_terms")."""

def parse(
    source: _Source,
    *,
    password: str | None = None,
    format: str | None = None,
    as_of: date | str | None = None,
) -> Statement:
    """Reads a statement (bytes or a path) without scoring it; ``as_of`` is the day of analysis its report is judged on."""

def score(
    source: _Source | Statement,
    *,
    password: str | None = None,
    format: str | None = None,
    scorecard: Scorecard | None = None,
    as_of: date | str | None = None,
) -> Report:
    """Scores a statement (a Statement, bytes or a path), with ``scorecard`` or the built-in card; a statement dated or requested after ``as_of`` (a date or "YYYY-MM-DD") is ``failed``."""

def score_application_json(
    sources: list[_Source | Statement],
    *,
    password: str | None = None,
    format: str | None = None,
    scorecard: Scorecard | None = None,
    as_of: date | str | None = None,
    principal: Decimal | None = None,
    tenor_months: int | None = None,
    monthly_rate: Decimal | None = None,
    total_cost: Decimal | None = None,
    fees: Decimal | None = None,
) -> str:
    """Scores several statements of one applicant as one application; its canonical JSON."""

def score_many(
    sources: Iterable[_Source | Statement],
    *,
    password: str | Sequence[str | None] | None = None,
    format: str | None = None,
    workers: int | None = None,
    scorecard: Scorecard | None = None,
) -> list[Report | AlamaError]:
    """Scores many statements on Rust threads; each slot holds a Report or its AlamaError."""

def features(
    source: _Source | Statement,
    *,
    password: str | None = None,
    format: str | None = None,
) -> dict[str, Decimal | None]:
    """The catalogue figures of a statement: feature name → exact Decimal (KES major units,
    ratios as fractions) or None when not measurable, in catalogue order. Raises the errors of
    ``parse``."""

def features_many(
    sources: Iterable[_Source | Statement],
    *,
    password: str | Sequence[str | None] | None = None,
    format: str | None = None,
    workers: int | None = None,
) -> list[list[float] | AlamaError]:
    """Per source, its catalogue figures as floats (catalogue order, NaN when not measurable)
    or its AlamaError; computed on Rust threads with the GIL released."""

def feature_catalogue() -> list[dict[str, str]]:
    """The feature catalogue: per feature a dict with ``name``, ``unit``, ``window``,
    ``direction`` (the default rate's trend as it rises: ascending/descending/none) and
    ``definition``."""

def population(n: int, seed: int) -> list[tuple[Statement, bool, float, str]]:
    """``n`` synthetic members ``(statement, defaulted, true probability, kind)`` from ``seed``."""

@final
class Scorecard:
    """A validated scorecard (read-only). Raises InvalidScorecardError when built from an
    invalid JSON."""

    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    @staticmethod
    def from_json(text: str) -> Scorecard:
        """Parses and validates scorecard JSON; InvalidScorecardError names the problem."""
    @staticmethod
    def load(path: _Path) -> Scorecard:
        """Reads and validates a scorecard file; FileReadError, InvalidScorecardError."""
    @staticmethod
    def builtin() -> Scorecard:
        """The engine's built-in scorecard."""
    def save(self, /, path: _Path) -> None:
        """Writes the indented JSON; FileReadError when the file cannot be written."""
    def to_json(self, /, *, indent: bool = False) -> str:
        """The canonical JSON (compact unless ``indent``): what ``sha256`` hashes."""
    @property
    def version(self, /) -> str: ...
    @property
    def sha256(self, /) -> str: ...
    def describe(self, /) -> str:
        """The card's tables as Markdown."""
    def score_values(
        self, /, values: Mapping[str, Decimal | int | float | None]
    ) -> tuple[int, list[tuple[str, int]]]:
        """Score (300–850) and points per attribute of catalogue figures (NaN/None = missing);
        InvalidScorecardError when a feature the card uses has no entry."""

@final
class Statement:
    """A parsed mobile-money statement (read-only)."""

    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    def __len__(self, /) -> int: ...
    @property
    def provider(self, /) -> str: ...
    @property
    def currency(self, /) -> str: ...
    @property
    def country(self, /) -> str | None: ...
    @property
    def time_zone(self, /) -> str | None: ...
    @property
    def currency_exponent(self, /) -> int | None: ...
    @property
    def opening_balance(self, /) -> Decimal | None: ...
    @property
    def closing_balance(self, /) -> Decimal | None: ...
    @property
    def holder_name(self, /) -> str | None: ...
    @property
    def mobile_number(self, /) -> str | None: ...
    @property
    def email(self, /) -> str | None: ...
    @property
    def period_start(self, /) -> date | None: ...
    @property
    def period_end(self, /) -> date | None: ...
    @property
    def requested_at(self, /) -> date | None: ...
    @property
    def summary(self, /) -> Summary | None: ...
    @property
    def transactions(self, /) -> list[Transaction]: ...
    @property
    def document(self, /) -> dict[str, Any] | None: ...
    @property
    def unparsed(self, /) -> list[dict[str, Any]]: ...
    def to_dict(self, /) -> dict[str, Any]: ...
    def to_json(self, /) -> str: ...
    def to_csv(self, /) -> str: ...
    def to_pandas(self, /) -> Any:
        """One row per transaction as a pandas.DataFrame (Decimal-exact object columns)."""
    @staticmethod
    def from_dict(data: dict[str, Any]) -> Statement: ...
    @staticmethod
    def from_json(json: str | bytes) -> Statement: ...
    @staticmethod
    def from_pandas(
        df: Any, *, provider: str | None = None, currency: str | None = None
    ) -> Statement: ...

@final
class Transaction:
    """One row of a statement (read-only)."""

    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    @property
    def receipt_no(self, /) -> str: ...
    @property
    def completed_at(self, /) -> datetime: ...
    @property
    def details(self, /) -> str: ...
    @property
    def status(self, /) -> str: ...
    @property
    def paid_in(self, /) -> Decimal: ...
    @property
    def withdrawn(self, /) -> Decimal: ...
    @property
    def balance(self, /) -> Decimal | None: ...
    @property
    def net(self, /) -> Decimal: ...
    @property
    def category(self, /) -> str: ...
    @property
    def transaction_type(self, /) -> str | None: ...
    @property
    def fee(self, /) -> Decimal | None: ...
    @property
    def tax(self, /) -> Decimal | None: ...
    @property
    def balance_before(self, /) -> Decimal | None: ...
    def to_dict(self, /) -> dict[str, Any]: ...

@final
class Summary:
    """The SUMMARY table printed on an M-Pesa statement."""

    @property
    def rows(self, /) -> list[SummaryRow]: ...
    @property
    def total(self, /) -> SummaryRow: ...

@final
class SummaryRow:
    """One row of a statement's SUMMARY table."""

    @property
    def transaction_type(self, /) -> str: ...
    @property
    def paid_in(self, /) -> Decimal: ...
    @property
    def paid_out(self, /) -> Decimal: ...

@final
class Report:
    """A score report (read-only); to_json() is the canonical JSON of every Alama surface."""

    def __eq__(self, value: object, /) -> bool: ...
    def __ne__(self, value: object, /) -> bool: ...
    @property
    def report_id(self, /) -> str: ...
    @property
    def status(self, /) -> str: ...
    @property
    def score(self, /) -> int: ...
    @property
    def band(self, /) -> str: ...
    @property
    def statement_period(self, /) -> str: ...
    @property
    def factors(self, /) -> list[Factor]: ...
    @property
    def insights(self, /) -> list[Insight]: ...
    @property
    def reason_codes(self, /) -> list[ReasonCode]: ...
    @property
    def scorecard_version(self, /) -> str: ...
    @property
    def scorecard_sha256(self, /) -> str: ...
    @property
    def integrity(self, /) -> Integrity: ...
    @property
    def statement(self, /) -> StatementOverview: ...
    def to_json(self, /) -> str: ...
    def to_dict(self, /) -> dict[str, Any]: ...
    @staticmethod
    def from_json(json: str) -> Report: ...

@final
class Factor:
    """One scorecard characteristic's result."""

    @property
    def name(self, /) -> str: ...
    @property
    def score(self, /) -> int: ...
    @property
    def max(self, /) -> int: ...
    @property
    def code(self, /) -> str: ...

@final
class Insight:
    """A typed insight: code, sentence, and the figure behind it."""

    @property
    def code(self, /) -> str: ...
    @property
    def message(self, /) -> str: ...
    @property
    def value(self, /) -> Decimal: ...
    @property
    def unit(self, /) -> str: ...

@final
class ReasonCode:
    """An attribute that lost points through evidence, or a knock-out: `K01` (overdue digital
    credit) or `K02` (a thin file: too few activity rows or days to score)."""

    @property
    def code(self, /) -> str: ...
    @property
    def factor(self, /) -> str: ...
    @property
    def attribute(self, /) -> str: ...
    @property
    def points_lost(self, /) -> int: ...
    @property
    def description(self, /) -> str: ...

@final
class Integrity:
    """Integrity of the statement as a whole."""

    @property
    def status(self, /) -> str: ...
    @property
    def evidence_level(self, /) -> str: ...
    @property
    def summary_reconciled(self, /) -> bool | None: ...
    @property
    def findings(self, /) -> list[Finding]: ...

@final
class Finding:
    """One integrity finding."""

    @property
    def code(self, /) -> str: ...
    @property
    def severity(self, /) -> str: ...
    @property
    def message(self, /) -> str: ...

@final
class StatementOverview:
    """What a report says about the statement it scored."""

    @property
    def provider(self, /) -> str: ...
    @property
    def currency(self, /) -> str: ...
    @property
    def holder_name(self, /) -> str | None: ...
    @property
    def mobile_number_masked(self, /) -> str | None: ...
    @property
    def period_start(self, /) -> str: ...
    @property
    def period_end(self, /) -> str: ...
    @property
    def transaction_count(self, /) -> int: ...
    @property
    def completed_count(self, /) -> int: ...
    @property
    def total_paid_in(self, /) -> Decimal: ...
    @property
    def total_withdrawn(self, /) -> Decimal: ...
    @property
    def monthly(self, /) -> list[MonthlyCashflow]: ...

@final
class MonthlyCashflow:
    """Money in and out for one calendar month."""

    @property
    def month(self, /) -> str: ...
    @property
    def paid_in(self, /) -> Decimal: ...
    @property
    def withdrawn(self, /) -> Decimal: ...
