"""The public API: sources, Statement, Transaction, Report, dict/JSON forms, score_many."""

from __future__ import annotations

import json
import threading
from datetime import date, datetime
from decimal import Decimal
from pathlib import Path

import pytest

import alama
from conftest import REPO
from synthetic import statement_dict

EXAMPLE_JSON = REPO / "examples" / "statement.json"
EXAMPLE_CSV = REPO / "examples" / "statement.csv"

CSV = (
    "Receipt No,Completion Time,Details,Transaction Status,Paid In,Withdrawn,Balance\n"
    "TST0000003,2024-03-02 09:15:00,Merchant Payment to 501480 - MAMA MBOGA STORES,"
    "Completed,,-425.00,4575.00\n"
    "TST0000002,2024-03-01 12:00:00,Salary Payment from 600100 - JUA KALI WORKS LTD,"
    "Completed,5000.00,,5000.00\n"
    "TST0000001,2024-02-28 08:00:00,Airtime Purchase,Failed,,-50.00,0.00\n"
)


@pytest.fixture(scope="module")
def statement() -> alama.Statement:
    return alama.Statement.from_dict(statement_dict(seed=7, months=6))


def test_versions() -> None:
    assert alama.__version__.count(".") == 2
    assert alama.SCORECARD_VERSION.startswith("alama-")
    for name in alama.__all__:
        assert getattr(alama, name) is not None


def test_every_public_name_has_a_docstring() -> None:
    for name in alama.__all__:
        obj = getattr(alama, name)
        if callable(obj):
            assert obj.__doc__ and len(obj.__doc__.strip()) > 20, name
    for cls in (alama.Statement, alama.Transaction, alama.Report, alama.Factor):
        for attr, member in vars(cls).items():
            if not attr.startswith("_"):
                assert member.__doc__, f"{cls.__name__}.{attr}"


def test_parse_accepts_bytes_bytearray_str_and_pathlike(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    path.write_text(CSV)
    from_bytes = alama.parse(CSV.encode())
    assert alama.parse(bytearray(CSV.encode())) == from_bytes
    assert alama.parse(str(path)) == from_bytes
    assert alama.parse(path) == from_bytes
    assert alama.parse(CSV.encode(), format="csv") == from_bytes
    with pytest.raises(TypeError, match="expected statement bytes or a file path"):
        alama.parse(123)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        alama.parse(from_bytes)  # type: ignore[arg-type]


def test_statement_fields_and_transactions() -> None:
    s = alama.parse(CSV.encode())
    assert len(s) == 3
    assert s.provider == "mpesa" and s.currency == "KES"
    assert s.holder_name is None and s.period_start is None and s.summary is None
    assert s.unparsed == []
    newest, salary, failed = s.transactions
    assert newest.receipt_no == "TST0000003"
    assert newest.completed_at == datetime(2024, 3, 2, 9, 15)
    assert newest.paid_in == Decimal("0.00") and newest.withdrawn == Decimal("425.00")
    assert str(newest.withdrawn) == "425.00"  # the scale survives: exact cents
    assert newest.balance == Decimal("4575.00") and newest.net == Decimal("-425.00")
    assert newest.status == "completed" and failed.status == "failed"
    assert salary.category == "salary_and_business_payments"
    assert isinstance(newest.category, str) and newest.category
    assert newest.to_dict()["withdrawn"] == "425.00"
    assert newest == alama.parse(CSV.encode()).transactions[0]
    assert newest != salary


def test_header_fields_from_dict(statement: alama.Statement) -> None:
    assert statement.holder_name == "TEST PERSON"
    assert statement.mobile_number == "0700000000"
    assert statement.email is None
    assert isinstance(statement.period_start, date)
    assert statement.period_end == date(2024, 6, 30)
    assert statement.requested_at is None and statement.document is None


def test_repr_shows_no_personal_data(statement: alama.Statement) -> None:
    text = repr(statement)
    assert "TEST PERSON" not in text and "0700000000" not in text
    assert "transactions=240" in text
    report = alama.score(statement)
    assert report.report_id in repr(report)


def test_to_dict_is_json_loads_of_to_json(statement: alama.Statement) -> None:
    assert statement.to_dict() == json.loads(statement.to_json())
    first = statement.to_dict()["transactions"][0]
    assert isinstance(first["paidIn"], str) and "." in first["paidIn"]
    assert alama.Statement.from_json(statement.to_json()) == statement
    assert alama.Statement.from_json(statement.to_json().encode()) == statement
    assert alama.Statement.from_dict(statement.to_dict()) == statement


def test_to_csv_parses_back(statement: alama.Statement) -> None:
    again = alama.parse(statement.to_csv().encode())
    assert [t.to_dict() for t in again.transactions] == [
        t.to_dict() for t in statement.transactions
    ]


def test_from_dict_accepts_str_int_and_decimal_amounts() -> None:
    row = {
        "receiptNo": "TST0000001",
        "completedAt": "2024-01-02T10:00:00",
        "details": "Funds received from 0700000001 - AMANI TESTMAN",
        "status": "completed",
        "paidIn": 100,
        "withdrawn": "0",
    }
    s = alama.Statement.from_dict({"transactions": [row]})
    assert s.transactions[0].paid_in == Decimal(100)
    s2 = alama.Statement.from_dict({"transactions": [dict(row, paidIn=Decimal("100.00"))]})
    assert s2.transactions[0].paid_in == Decimal("100.00")
    assert s.transactions[0].category != "uncategorised"  # the engine categorised it


def test_score_report_fields(statement: alama.Statement) -> None:
    report = alama.score(statement)
    assert report.status == "completed"
    assert 300 <= report.score <= 850
    assert report.band in {"Poor", "Fair", "Good", "Very Good", "Excellent"}
    assert report.report_id.startswith("rpt_") and len(report.report_id) == 28
    assert report.scorecard_version == alama.SCORECARD_VERSION
    assert len(report.scorecard_sha256) == 64
    assert report.statement_period.endswith("2024")
    assert report.factors and all(isinstance(f.max, int) for f in report.factors)
    assert {f.code for f in report.factors} == {
        d["code"] for d in report.to_dict()["factors"]
    }
    for insight in report.insights:
        assert isinstance(insight.value, Decimal) and insight.unit and insight.message
    for reason in report.reason_codes:
        assert reason.points_lost > 0 and reason.factor and reason.description
    assert report.integrity.status in {"verified", "consistent", "warnings", "failed"}
    # A statement handed in as data can be consistent, never verified.
    assert report.integrity.evidence_level in {"csv", "json"}
    assert report.integrity.status != "verified"
    for finding in report.integrity.findings:
        assert finding.severity in {"info", "warning", "critical"}
    overview = report.statement
    assert overview.transaction_count == len(statement)
    completed = [t for t in statement.transactions if t.status == "completed"]
    assert overview.completed_count == len(completed)
    assert overview.total_paid_in == sum((t.paid_in for t in completed), Decimal(0))
    assert overview.total_withdrawn == sum((t.withdrawn for t in completed), Decimal(0))
    assert sum((m.paid_in for m in overview.monthly), Decimal(0)) == overview.total_paid_in
    assert overview.mobile_number_masked is not None and "*" in overview.mobile_number_masked


def test_report_json_forms(statement: alama.Statement) -> None:
    report = alama.score(statement)
    text = report.to_json()
    assert text == json.dumps(json.loads(text), separators=(",", ":"), ensure_ascii=False)
    assert list(json.loads(text))[:5] == ["reportId", "status", "score", "band", "statementPeriod"]
    assert report.to_dict() == json.loads(text)
    again = alama.Report.from_json(text)
    assert again == report and again.to_json() == text
    with pytest.raises(alama.MalformedStatementError):
        alama.Report.from_json("{}")


def test_score_accepts_every_source_kind(statement: alama.Statement, tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(statement.to_json())
    expected = alama.score(statement).to_json()
    assert alama.score(path).to_json() == expected
    assert alama.score(str(path)).to_json() == expected
    assert alama.score(path.read_bytes()).to_json() == expected
    assert alama.score(statement.to_json().encode(), format="json").to_json() == expected


def test_as_of_is_the_day_of_analysis(statement: alama.Statement) -> None:
    """A statement is judged on the day given: after its last row it is scored as without one,
    before its last row it is failed (after_analysis_date), from a Statement or from bytes."""
    plain = alama.score(statement)
    last = max(t.completed_at for t in statement.transactions).date()
    later = date(last.year + 1, 1, 1)
    assert alama.score(statement, as_of=later).to_json() == plain.to_json()
    assert alama.score(statement, as_of=later.isoformat()).to_json() == plain.to_json()
    early = date(last.year - 1, 1, 1)
    for judged in (
        alama.score(statement, as_of=early),
        alama.score(statement.to_json().encode(), as_of=early),
    ):
        assert judged.integrity.status == "failed"
        assert "after_analysis_date" in [f.code for f in judged.integrity.findings]
    with pytest.raises(ValueError):
        alama.score(statement, as_of="28/11/2026")
    with pytest.raises(TypeError):
        alama.score(statement, as_of=20261128)  # type: ignore[arg-type]


def test_same_statement_same_report(statement: alama.Statement) -> None:
    assert alama.score(statement) == alama.score(statement)


def test_score_many_keeps_order_and_puts_errors_in_their_slots(
    statement: alama.Statement, tmp_path: Path
) -> None:
    path = tmp_path / "s.json"
    path.write_text(statement.to_json())
    sources: list[object] = [
        statement,
        b"\x89PNG\r\n\x1a\n not a statement",
        path,
        str(tmp_path / "missing.csv"),
        CSV.encode(),
        b"Receipt No,Completion Time,Details,Paid In,Withdrawn\n",
    ]
    results = alama.score_many(sources, workers=2)  # type: ignore[arg-type]
    assert len(results) == len(sources)
    one = alama.score(statement)
    assert results[0] == one and results[2] == one
    assert isinstance(results[1], alama.UnsupportedFormatError)
    assert results[1].code == "unsupported_format"
    assert isinstance(results[3], alama.FileReadError) and results[3].code == "io_error"
    assert isinstance(results[4], alama.Report)
    assert results[4] == alama.score(CSV.encode())
    assert isinstance(results[5], alama.EmptyStatementError)


def test_score_many_matches_score_for_any_worker_count() -> None:
    statements = [alama.Statement.from_dict(statement_dict(seed, months=2)) for seed in range(9)]
    expected = [alama.score(s).to_json() for s in statements]
    for workers in (1, 2, 3, 16):
        got = alama.score_many(statements, workers=workers)
        assert [r.to_json() for r in got if isinstance(r, alama.Report)] == expected
    assert alama.score_many([]) == []
    assert alama.score_many(iter(statements[:2]))[1] == alama.score(statements[1])


def test_score_many_arguments() -> None:
    with pytest.raises(ValueError, match="workers"):
        alama.score_many([], workers=0)
    with pytest.raises(TypeError):
        alama.score_many([1.5])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="not one source"):
        alama.score_many("statement.pdf")  # a str is iterable: refused at run time
    with pytest.raises(ValueError, match="one per source"):
        alama.score_many([CSV.encode()], password=["a", "b"])
    results = alama.score_many([CSV.encode(), CSV.encode()], password=["x", None])
    assert all(isinstance(r, alama.Report) for r in results)
    assert isinstance(alama.score_many([CSV.encode()], password="pw")[0], alama.Report)


def test_engine_work_releases_the_gil() -> None:
    # A Python thread keeps counting while one long score_many call runs; were the GIL held
    # through the call, the counter could not move between the two reads around it.
    statements = [alama.Statement.from_dict(statement_dict(s, months=12)) for s in range(4)]
    ticks = 0
    done = threading.Event()

    def count() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1

    counter = threading.Thread(target=count)
    counter.start()
    try:
        before = ticks
        alama.score_many(statements * 25, workers=1)
        during = ticks - before
    finally:
        done.set()
        counter.join()
    assert during > 1000


def test_examples_parse(tmp_path: Path) -> None:
    if not EXAMPLE_JSON.is_file() or not EXAMPLE_CSV.is_file():
        pytest.skip("examples/ not generated yet")
    from_json = alama.parse(EXAMPLE_JSON)
    from_csv = alama.parse(EXAMPLE_CSV)
    assert len(from_json) == len(from_csv) > 0
    assert [t.paid_in for t in from_json.transactions] == [
        t.paid_in for t in from_csv.transactions
    ]
