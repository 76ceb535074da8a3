"""DataFrame round trip: to_pandas / from_pandas keep every cent and every second."""

from __future__ import annotations

import sys
from decimal import Decimal

import pytest

import alama
from synthetic import statement_dict

pd = pytest.importorskip("pandas")


@pytest.fixture(scope="module")
def statement() -> alama.Statement:
    return alama.Statement.from_dict(statement_dict(seed=11, months=3))


def test_columns_and_dtypes(statement: alama.Statement) -> None:
    df = statement.to_pandas()
    assert list(df.columns) == [
        "receipt_no",
        "completed_at",
        "details",
        "status",
        "paid_in",
        "withdrawn",
        "balance",
        "category",
        "transaction_type",
        "fee",
        "tax",
        "balance_before",
    ]
    assert len(df) == len(statement)
    assert pd.api.types.is_datetime64_dtype(df["completed_at"])
    assert df["completed_at"].dt.tz is None
    for column in ("paid_in", "withdrawn", "balance"):
        assert df[column].dtype == object
        assert all(isinstance(v, Decimal) for v in df[column])
    first = statement.transactions[0]
    assert df["paid_in"].iloc[0] == first.paid_in
    assert str(df["withdrawn"].iloc[0]) == str(first.withdrawn)  # same scale
    assert df["completed_at"].iloc[0].to_pydatetime() == first.completed_at
    assert df["category"].iloc[0] == first.category


def test_decimal_columns_sum_exactly(statement: alama.Statement) -> None:
    df = statement.to_pandas()
    completed = df[df["status"] == "completed"]
    report = alama.score(statement)
    assert sum(completed["paid_in"], Decimal(0)) == report.statement.total_paid_in
    assert sum(completed["withdrawn"], Decimal(0)) == report.statement.total_withdrawn


def test_round_trip(statement: alama.Statement) -> None:
    df = statement.to_pandas()
    back = alama.Statement.from_pandas(df)
    assert back.transactions == statement.transactions
    assert alama.score(back).score == alama.score(statement).score


def test_from_pandas_header_fields_and_extra_columns(statement: alama.Statement) -> None:
    df = statement.to_pandas()
    df["analyst_label"] = "x"
    back = alama.Statement.from_pandas(df, provider="other", currency="UGX")
    assert back.provider == "other" and back.currency == "UGX"
    assert len(back) == len(statement)


def test_from_pandas_missing_values() -> None:
    df = pd.DataFrame(
        {
            "receipt_no": ["TST0000002", "TST0000001"],
            "completed_at": pd.to_datetime(["2024-03-02 09:15:00", "2024-03-01 12:00:00"]),
            "details": ["Airtime Purchase", ""],
            "status": ["completed", "completed"],
            "paid_in": [Decimal("0"), "5000.00"],
            "withdrawn": ["50.00", 0],
            "balance": [None, float("nan")],
        }
    )
    s = alama.Statement.from_pandas(df)
    newest, oldest = s.transactions
    assert newest.balance is None and oldest.balance is None
    assert oldest.paid_in == Decimal("5000.00") and newest.withdrawn == Decimal("50.00")
    assert oldest.details == ""
    # A missing Details cell is an empty one, as M-Pesa prints empty Details cells.
    df.loc[1, "details"] = None
    assert alama.Statement.from_pandas(df).transactions[1].details == ""


def test_from_pandas_refuses_float_amounts(statement: alama.Statement) -> None:
    df = statement.to_pandas()
    df["paid_in"] = df["paid_in"].astype(float)
    with pytest.raises(TypeError, match="row 0 column paid_in is the float"):
        alama.Statement.from_pandas(df)


def test_from_pandas_missing_column(statement: alama.Statement) -> None:
    df = statement.to_pandas().drop(columns=["receipt_no"])
    with pytest.raises(alama.MalformedStatementError, match="receiptNo"):
        alama.Statement.from_pandas(df)


def test_without_pandas(statement: alama.Statement, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match=r"alama\[pandas\]"):
        statement.to_pandas()
    with pytest.raises(ImportError, match=r"alama\[pandas\]"):
        alama.Statement.from_pandas(object())
