"""The wallet-neutral fields on synthetic statements of the other wallets (issue 39).

Inputs are the golden vectors' own files in tests/vectors/ (each made by the engine's seeded
generator for that wallet's layout; every holder and number is invented) and a statement built
here. Money is Decimal in the statement's own currency; nothing is converted.
"""

from __future__ import annotations

import json
from decimal import Decimal

import pytest

import alama
from conftest import REPO

VECTORS = REPO / "tests" / "vectors"
WALLETS = {
    # file stem: (provider, currency, exponent, country, time zone)
    "wallet-airtel-ug-seed1-60rows.pdf": ("airtel-money-ug", "UGX", 0, "UG", "Africa/Kampala"),
    "wallet-mtn-gh-seed2-80rows.csv": ("mtn-momo-gh", "GHS", 2, "GH", "Africa/Accra"),
    "wallet-vodacom-ls-seed3-80rows.pdf": ("vodacom-mpesa-ls", "LSL", 2, "LS", "Africa/Maseru"),
}


def wallet(name: str) -> alama.Statement:
    return alama.parse(VECTORS / name)


@pytest.mark.parametrize("name", sorted(WALLETS))
def test_header_fields(name: str) -> None:
    statement = wallet(name)
    provider, currency, exponent, country, zone = WALLETS[name]
    assert statement.provider == provider
    assert statement.currency == currency
    assert statement.currency_exponent == exponent
    assert statement.country == country
    assert statement.time_zone == zone
    assert len(statement) > 0 and not statement.unparsed


def test_airtel_balances_and_fees() -> None:
    # Airtel prints its SUMMARY's opening and closing balances and a Fee per row, the fee
    # already inside Withdrawn.
    statement = wallet("wallet-airtel-ug-seed1-60rows.pdf")
    opening, closing = statement.opening_balance, statement.closing_balance
    assert isinstance(opening, Decimal) and isinstance(closing, Decimal)
    rows = statement.transactions
    assert opening + sum(t.paid_in for t in rows) - sum(t.withdrawn for t in rows) == closing
    fees = [t.fee for t in rows if t.fee]
    assert fees and all(isinstance(f, Decimal) for f in fees)
    assert all(t.withdrawn >= (t.fee or 0) for t in rows if t.withdrawn)


def test_mtn_type_fee_tax_and_balance_before() -> None:
    # MTN prints each row's TRANS. TYPE, FEES, E-LEVY and BAL BEFORE/AFTER: the chain is exact.
    statement = wallet("wallet-mtn-gh-seed2-80rows.csv")
    rows = statement.transactions
    assert all(t.transaction_type for t in rows)
    assert any(t.tax for t in rows), "E-LEVY rows"
    for t in rows:
        assert t.balance_before is not None and t.balance is not None
        assert t.balance_before + t.paid_in - t.withdrawn == t.balance, t.receipt_no
        assert t.withdrawn >= (t.fee or 0) + (t.tax or 0)


def test_kenyan_statement_keeps_its_defaults() -> None:
    statement = alama.parse(REPO / "examples" / "statement.json")
    assert (statement.country, statement.time_zone) == ("KE", "Africa/Nairobi")
    assert statement.currency_exponent == 2
    assert statement.opening_balance is None and statement.closing_balance is None
    row = statement.transactions[0]
    assert (row.transaction_type, row.fee, row.tax, row.balance_before) == (None, None, None, None)


def test_built_statement_round_trips_the_new_fields() -> None:
    data = {
        "provider": "mtn-momo-gh",
        "currency": "GHS",
        "transactions": [
            {
                "receiptNo": "50000000001",
                "completedAt": "2025-03-01T09:00:00",
                "details": "TRANSFER to A PERSON",
                "status": "completed",
                "paidIn": "0.00",
                "withdrawn": "101.25",
                "balance": "398.75",
                "transactionType": "TRANSFER",
                "fee": "0.50",
                "tax": "0.75",
                "balanceBefore": "500.00",
            }
        ],
    }
    statement = alama.Statement.from_dict(data)
    row = statement.transactions[0]
    assert row.transaction_type == "TRANSFER"
    assert (row.fee, row.tax, row.balance_before) == (
        Decimal("0.50"),
        Decimal("0.75"),
        Decimal("500.00"),
    )
    assert statement.to_dict()["transactions"][0]["fee"] == "0.50"


def test_dataframe_carries_the_currency_and_the_wallet_columns() -> None:
    pytest.importorskip("pandas")
    statement = wallet("wallet-mtn-gh-seed2-80rows.csv")
    df = statement.to_pandas()
    assert df.attrs["currency"] == "GHS"
    assert df.attrs["provider"] == "mtn-momo-gh"
    assert df.attrs["currency_exponent"] == 2
    assert (df.attrs["country"], df.attrs["time_zone"]) == ("GH", "Africa/Accra")
    rows = statement.transactions
    assert list(df["balance_before"]) == [t.balance_before for t in rows]
    assert all(isinstance(v, Decimal) for v in df["balance_before"])
    for column in ("fee", "tax"):
        values = list(df[column])
        assert values == [getattr(t, column) for t in rows], column
        assert any(isinstance(v, Decimal) for v in values), column
        assert all(v is None or isinstance(v, Decimal) for v in values), column
    assert list(df["transaction_type"]) == [t.transaction_type for t in statement.transactions]
    # Back from the frame: the header from df.attrs, every row field kept.
    back = alama.Statement.from_pandas(df)
    assert (back.provider, back.currency) == ("mtn-momo-gh", "GHS")
    assert back.transactions == statement.transactions


def test_ugx_dataframe() -> None:
    pytest.importorskip("pandas")
    df = wallet("wallet-airtel-ug-seed1-60rows.pdf").to_pandas()
    assert (df.attrs["currency"], df.attrs["currency_exponent"]) == ("UGX", 0)


def test_vector_statements_match_the_parse() -> None:
    for name in WALLETS:
        vector = json.loads((VECTORS / name).with_suffix(".json").read_text(encoding="utf-8"))
        assert wallet(name).to_dict() == vector["statement"], name
