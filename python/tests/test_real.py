"""The real M-Pesa statements in ../shared/samples/real (truths from its README).

These files hold real people's data: assertions use counts and totals only, and nothing from
them is printed.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

import alama
from conftest import real_file

PW183177 = "mpesa_2023-05_to_2024-05_encrypted_pw183177.pdf"
ILOVEPDF = "mpesa_2024-04_to_2024-10_unlocked_ilovepdf.pdf"
TRUNCATED = "mpesa_2021-03_to_2021-09_unencrypted_itext_TRUNCATED.pdf"
DERIVED_CSV = "mpesa_2019-08_to_2021-derived_processed.csv"


def completed_totals(statement: alama.Statement) -> tuple[Decimal, Decimal]:
    done = [t for t in statement.transactions if t.status == "completed"]
    return sum((t.paid_in for t in done), Decimal(0)), sum((t.withdrawn for t in done), Decimal(0))


@pytest.fixture(scope="module")
def pw183177() -> alama.Statement:
    return alama.parse(real_file(PW183177), password="183177")


def test_encrypted_2024_layout_rows_and_totals(pw183177: alama.Statement) -> None:
    assert len(pw183177) == 4382
    assert all(t.status == "completed" for t in pw183177.transactions)
    assert completed_totals(pw183177) == (Decimal("1201133.99"), Decimal("1179174.99"))
    assert sum(1 for t in pw183177.transactions if t.details == "") == 17
    assert pw183177.summary is not None
    assert pw183177.summary.total.paid_in == Decimal("1201133.99")
    assert pw183177.summary.total.paid_out == Decimal("1179174.99")
    assert pw183177.period_start is not None and pw183177.period_start.isoformat() == "2023-05-23"
    assert pw183177.period_end is not None and pw183177.period_end.isoformat() == "2024-05-23"
    assert pw183177.document is not None and pw183177.document["encrypted"] is True


def test_encrypted_2024_layout_report(pw183177: alama.Statement) -> None:
    report = alama.score(pw183177)
    assert report.statement.transaction_count == 4382
    assert report.statement.total_paid_in == Decimal("1201133.99")
    assert report.statement.total_withdrawn == Decimal("1179174.99")
    assert report.integrity.summary_reconciled is True
    assert report.statement_period == "May 2023 - May 2024"
    # The same bytes through the one-call paths give the same report.
    data = real_file(PW183177).read_bytes()
    assert alama.score(data, password="183177") == report
    [slot] = alama.score_many([data], password="183177")
    assert slot == report


def test_ilovepdf_resave_rows_and_totals() -> None:
    s = alama.parse(real_file(ILOVEPDF))
    assert len(s) == 3437
    assert completed_totals(s) == (Decimal("551433.17"), Decimal("554936.71"))
    report = alama.score(s)
    assert report.integrity.summary_reconciled is True


def test_truncated_statement_does_not_reconcile() -> None:
    s = alama.parse(real_file(TRUNCATED))
    assert len(s) == 982
    assert all(t.status == "completed" for t in s.transactions)
    assert s.summary is not None
    assert (s.summary.total.paid_in, s.summary.total.paid_out) == (
        Decimal("849938.05"),
        Decimal("852105.39"),
    )
    assert completed_totals(s) != (s.summary.total.paid_in, s.summary.total.paid_out)
    report = alama.score(s)
    assert report.integrity.summary_reconciled is False
    assert report.integrity.status != "verified"


def test_derived_csv_export() -> None:
    s = alama.parse(real_file(DERIVED_CSV))
    assert len(s) + len(s.unparsed) == 3785
    assert alama.score(s).statement.transaction_count == len(s)
