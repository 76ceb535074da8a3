"""Alama: credit scores from mobile-money statements (Safaricom M-Pesa first).

A native package over the Rust engine ``alama-core``: every figure comes from the engine, and
``Report.to_json()`` is byte for byte what the ``alama`` CLI, the Node package and the HTTP
service return for the same statement.

>>> import alama
>>> report = alama.score("statement.pdf", password="12345678")   # doctest: +SKIP
>>> report.score, report.band                                     # doctest: +SKIP
(712, 'Good')

Money is :class:`decimal.Decimal` in major units of the statement currency (KES); times are
naive :class:`datetime.datetime` in the wallet's local time as printed (M-Pesa:
Africa/Nairobi, UTC+03:00). Failures raise subclasses of :class:`AlamaError`, each with a
stable ``code``.
"""

from alama._alama import (
    SCORECARD_VERSION,
    AlamaError,
    CurrencyMismatchError,
    EmptyStatementError,
    Factor,
    FileReadError,
    Finding,
    InvalidScorecardError,
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
from alama._batch import score_many
from alama._features import features_frame

__all__ = [
    "SCORECARD_VERSION",
    "AlamaError",
    "CurrencyMismatchError",
    "EmptyStatementError",
    "Factor",
    "FileReadError",
    "Finding",
    "InvalidScorecardError",
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
    "score_many",
]
