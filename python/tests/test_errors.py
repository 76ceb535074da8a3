"""Every failure the engine knows maps to one AlamaError subclass with a stable code."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from decimal import Decimal
from pathlib import Path

import json

import pytest

import alama
from conftest import real_file

#: ErrorKind::ALL_CODES of alama-core, in order, with the Python class of each.
CODES = {
    "password_required": alama.PasswordRequiredError,
    "wrong_password": alama.WrongPasswordError,
    "unsupported_format": alama.UnsupportedFormatError,
    "unsupported_wallet": alama.UnsupportedWalletError,
    "malformed_statement": alama.MalformedStatementError,
    "empty_statement": alama.EmptyStatementError,
    "too_large": alama.TooLargeError,
    "io_error": alama.FileReadError,
    "invalid_scorecard": alama.InvalidScorecardError,
    "currency_mismatch": alama.CurrencyMismatchError,
    "unsupported_currency": alama.UnsupportedCurrencyError,
    "invalid_terms": alama.InvalidTermsError,
}

#: The repository's example statement (a KES statement in canonical JSON).
EXAMPLE_JSON = Path(__file__).resolve().parents[2] / "examples" / "statement.json"

ENCRYPTED_UNKNOWN = "mpesa_2024-04_to_2024-10_encrypted_pw_unknown.pdf"

ROW = {
    "receiptNo": "TST0000001",
    "completedAt": "2024-01-02T10:00:00",
    "details": "Funds received from 0700000001 - AMANI TESTMAN",
    "status": "completed",
    "paidIn": "100.00",
    "withdrawn": "0.00",
}


def test_one_subclass_per_code() -> None:
    for code, cls in CODES.items():
        assert issubclass(cls, alama.AlamaError) and issubclass(cls, Exception)
        assert cls.code == code
        assert cls.__module__ == "alama"
        assert cls.__doc__ and code in cls.__doc__
    assert alama.AlamaError.code is None
    assert len({cls for cls in CODES.values()}) == len(CODES)


def raised(excinfo: pytest.ExceptionInfo[alama.AlamaError], code: str) -> alama.AlamaError:
    error = excinfo.value
    assert type(error) is CODES[code]
    assert error.code == code
    assert isinstance(error.message, str) and error.message
    assert str(error) == error.message
    return error


def test_password_required() -> None:
    path = real_file(ENCRYPTED_UNKNOWN)
    with pytest.raises(alama.PasswordRequiredError) as excinfo:
        alama.parse(path)
    raised(excinfo, "password_required")
    with pytest.raises(alama.PasswordRequiredError):
        alama.score(path.read_bytes())


def test_wrong_password() -> None:
    path = real_file(ENCRYPTED_UNKNOWN)
    with pytest.raises(alama.WrongPasswordError) as excinfo:
        alama.parse(path, password="00000000")
    raised(excinfo, "wrong_password")
    [slot] = alama.score_many([path], password="00000000")
    assert isinstance(slot, alama.WrongPasswordError) and slot.code == "wrong_password"


def test_not_a_statement() -> None:
    with pytest.raises(alama.UnsupportedFormatError) as excinfo:
        alama.parse(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    raised(excinfo, "unsupported_format")
    with pytest.raises(alama.UnsupportedFormatError):
        alama.parse(b"")


def test_unknown_format_name() -> None:
    with pytest.raises(alama.UnsupportedFormatError, match="xml"):
        alama.parse(b"a,b\n", format="xml")


def test_unknown_wallet_csv() -> None:
    with pytest.raises(alama.UnsupportedWalletError) as excinfo:
        alama.parse(b"Date,Narrative,Amount\n2024-01-01,lunch,-250\n")
    assert "Receipt No" in raised(excinfo, "unsupported_wallet").message


def test_malformed_json_carries_its_line() -> None:
    with pytest.raises(alama.MalformedStatementError) as excinfo:
        alama.parse(b'{\n"transactions": [\n')
    error = raised(excinfo, "malformed_statement")
    assert isinstance(error, alama.MalformedStatementError)
    assert error.page == 0 and error.line == 3


def test_malformed_dicts() -> None:
    with pytest.raises(alama.MalformedStatementError, match="receiptNo"):
        alama.Statement.from_dict({"transactions": [{k: v for k, v in ROW.items() if k != "receiptNo"}]})
    with pytest.raises(alama.MalformedStatementError):
        alama.Statement.from_dict({"transactions": [dict(ROW, paidIn="12,5x")]})
    with pytest.raises(alama.MalformedStatementError):
        alama.Statement.from_dict({"transactions": [dict(ROW, status="done")]})
    with pytest.raises(alama.MalformedStatementError):
        alama.Statement.from_json('{"transactions": [{"paidIn": 12.5}]}')


def test_float_amounts_are_refused() -> None:
    with pytest.raises(TypeError, match=r"transactions\[0\]\.paidIn is the float 12\.5"):
        alama.Statement.from_dict({"transactions": [dict(ROW, paidIn=12.5)]})
    with pytest.raises(TypeError, match="float"):
        alama.Statement.from_dict({"transactions": [dict(ROW, withdrawn=0.0)]})


def test_values_without_a_json_form_are_refused() -> None:
    with pytest.raises(TypeError, match="set"):
        alama.Statement.from_dict({"transactions": [dict(ROW, details={"a"})]})
    with pytest.raises(TypeError, match="not a str"):
        alama.Statement.from_dict({"transactions": [{1: "x"}]})
    with pytest.raises(ValueError, match="beyond 64 bits"):
        alama.Statement.from_dict({"transactions": [dict(ROW, paidIn=10**30)]})


def test_timezone_aware_times_are_refused() -> None:
    aware = datetime(2024, 1, 2, 10, 0, tzinfo=timezone(timedelta(hours=3)))
    with pytest.raises(ValueError, match="timezone-aware"):
        alama.Statement.from_dict({"transactions": [dict(ROW, completedAt=aware)]})
    naive = alama.Statement.from_dict(
        {"transactions": [dict(ROW, completedAt=aware.replace(tzinfo=None))]}
    )
    assert naive.transactions[0].completed_at == datetime(2024, 1, 2, 10, 0)
    assert naive.transactions[0].paid_in == Decimal("100.00")


def test_empty_statement() -> None:
    empty = alama.parse(b"Receipt No,Completion Time,Details,Paid In,Withdrawn\n")
    assert len(empty) == 0
    with pytest.raises(alama.EmptyStatementError) as excinfo:
        alama.score(empty)
    raised(excinfo, "empty_statement")
    only_failed = alama.Statement.from_dict({"transactions": [dict(ROW, status="failed")]})
    with pytest.raises(alama.EmptyStatementError):
        alama.score(only_failed)


def test_too_large() -> None:
    # Over the default 32 MiB limit: refused before any parsing.
    big = b"%PDF-1.7\n" + bytes(32 * 1024 * 1024)
    with pytest.raises(alama.TooLargeError) as excinfo:
        alama.parse(big)
    error = raised(excinfo, "too_large")
    assert isinstance(error, alama.TooLargeError)
    assert error.limit == 32 * 1024 * 1024


def test_too_large_file_is_not_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "big.pdf"
    with path.open("wb") as f:
        f.write(b"%PDF-1.7\n")
        f.truncate(40 * 1024 * 1024)
    with pytest.raises(alama.TooLargeError):
        alama.score(path)


def test_io_error(tmp_path: Path) -> None:
    with pytest.raises(alama.FileReadError) as excinfo:
        alama.parse(tmp_path / "missing.pdf")
    assert "missing.pdf" in raised(excinfo, "io_error").message
    with pytest.raises(alama.FileReadError):
        alama.score(tmp_path)  # a directory


def test_errors_are_catchable_as_the_base_class() -> None:
    with pytest.raises(alama.AlamaError) as excinfo:
        alama.parse(b"\x00\x01")
    assert excinfo.value.code == "unsupported_format"


def statement_in(currency: str) -> bytes:
    """The example statement's JSON labelled ``currency`` (the same numbers)."""
    value = json.loads(EXAMPLE_JSON.read_text(encoding="utf-8"))
    value["currency"] = currency
    return json.dumps(value).encode()


def test_a_card_of_another_currency_is_currency_mismatch() -> None:
    kes = alama.Scorecard.builtin()
    with pytest.raises(alama.CurrencyMismatchError) as excinfo:
        alama.score(statement_in("UGX"), scorecard=kes)
    message = raised(excinfo, "currency_mismatch").message
    assert "KES" in message and "UGX" in message
    # The same card on the same numbers labelled KES scores: only the currency differs.
    assert alama.score(statement_in("KES"), scorecard=kes).scorecard_version == kes.version
    [slot] = alama.score_many([statement_in("UGX")], scorecard=kes)
    assert isinstance(slot, alama.CurrencyMismatchError) and slot.code == "currency_mismatch"


def test_a_currency_without_a_card_is_unsupported_currency() -> None:
    with pytest.raises(alama.UnsupportedCurrencyError) as excinfo:
        alama.score(statement_in("USD"))
    message = raised(excinfo, "unsupported_currency").message
    for code in ("USD", "KES", "UGX", "GHS", "LSL"):
        assert code in message
    # A UGX statement without a card scores with the built-in UGX card.
    assert alama.score(statement_in("UGX")).scorecard_version == "alama-ugx-2027.03"
