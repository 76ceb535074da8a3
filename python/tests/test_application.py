"""alama.score_application: the application vectors replay byte for byte, and the engine's
relations hold through the binding (one statement is itself; order changes nothing)."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

import alama
from conftest import REPO
from synthetic import statement_dict

VECTORS = sorted((REPO / "tests" / "vectors" / "applications").glob("*.json"))


def test_application_vectors_are_present() -> None:
    assert len(VECTORS) >= 4


def _terms(vector: dict[str, Any]) -> dict[str, Any] | None:
    t = vector["terms"]
    if t is None:
        return None
    out = {"principal": t["principal"], "tenor_months": t["tenorMonths"], "fees": t["fees"]}
    pricing = t["pricing"]
    if "monthlyRate" in pricing:
        out["monthly_rate"] = pricing["monthlyRate"]
    else:
        out["total_cost"] = pricing["totalCost"]
    return out


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_application_vectors_replay_byte_for_byte(path: Path) -> None:
    vector = json.loads(path.read_text(encoding="utf-8"))
    sources = [json.dumps(i).encode() for i in vector["inputs"]]
    app = alama.score_application(sources, terms=_terms(vector))
    expected = json.dumps(vector["application"], separators=(",", ":"), ensure_ascii=False)
    assert app.to_json() == expected
    # Any order, and Statement objects rather than bytes: the same bytes.
    statements = [alama.Statement.from_dict(i) for i in reversed(vector["inputs"])]
    assert alama.score_application(statements, terms=_terms(vector)).to_json() == expected


def test_one_statement_is_that_statement() -> None:
    statement = alama.Statement.from_dict(statement_dict(seed=3, months=6))
    report = alama.score(statement)
    app = alama.score_application([statement])
    assert (app.score, app.band, app.statement_period) == (report.score, report.band, report.statement_period)
    assert app.to_dict()["factors"] == [
        {"name": f.name, "score": f.score, "max": f.max, "code": f.code} for f in report.factors
    ]
    assert app.statements[0]["reportId"] == report.report_id
    assert app.affordability is None


def test_terms_give_decimal_affordability_and_frames() -> None:
    statement = alama.Statement.from_dict(statement_dict(seed=3, months=6))
    app = alama.score_application(
        [statement], terms={"principal": Decimal("20000"), "tenor_months": 6, "monthly_rate": "0.035"}
    )
    a = app.affordability
    assert a is not None and isinstance(a["instalment"], Decimal)
    assert a["fits"] == (a["instalment"] <= a["affordableInstalment"])
    pytest.importorskip("pandas")
    frame = app.to_frame()
    assert list(frame["score"]) == [app.score]
    assert frame["largest_principal"][0] == a["largestPrincipal"]
    assert list(app.statements_frame()["report_id"]) == [app.statements[0]["reportId"]]


def test_bad_input_raises_typed_errors() -> None:
    kes = statement_dict(seed=1, months=2)
    ugx = dict(kes, currency="UGX")
    with pytest.raises(alama.CurrencyMismatchError):
        alama.score_application([alama.Statement.from_dict(kes), alama.Statement.from_dict(ugx)])
    with pytest.raises(alama.EmptyStatementError):
        alama.score_application([])
    with pytest.raises(alama.InvalidTermsError, match="tenor") as excinfo:
        alama.score_application([alama.Statement.from_dict(kes)], terms={"principal": 100})
    assert excinfo.value.code == "invalid_terms"
    with pytest.raises(TypeError, match="unknown terms"):
        alama.score_application([alama.Statement.from_dict(kes)], terms={"rate": 1})
