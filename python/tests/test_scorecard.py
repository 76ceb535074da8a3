"""alama.Scorecard: loading, validation errors, scoring with a lender's card (byte for byte
the golden vectors of tests/scorecard-vectors/), and the feature catalogue."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import alama
from conftest import REPO

CARDS = REPO / "tests" / "scorecard-vectors"
VECTORS = sorted(
    p for p in CARDS.glob("*.json") if "input" in json.loads(p.read_text(encoding="utf-8"))
)
LENDER = CARDS / "lender-example-2027.01.json"
FITTED = CARDS / "fitted-synthetic-2027.01.json"


def card_dict(path: Path = LENDER) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def test_load_save_and_describe(tmp_path: Path) -> None:
    card = alama.Scorecard.load(LENDER)
    assert card.version == "lender-example-2027.01"
    assert len(card.sha256) == 64
    assert card == alama.Scorecard.from_json(card.to_json())
    assert card.to_json(indent=True) + "\n" == LENDER.read_text(encoding="utf-8")
    card.save(tmp_path / "card.json")
    assert alama.Scorecard.load(tmp_path / "card.json").sha256 == card.sha256
    assert "lender-example-2027.01" in card.describe()
    assert alama.Scorecard.builtin().version == alama.SCORECARD_VERSION


def edit_bins(data: dict[str, Any], change: Any) -> str:
    change(data["characteristics"][1]["attributes"][0]["bins"])
    return json.dumps(data)


@pytest.mark.parametrize(
    ("problem", "edit", "words"),
    [
        ("gap", lambda d: edit_bins(d, lambda b: b[1].update(min="2500")), "gap"),
        (
            "overlap",
            lambda d: edit_bins(d, lambda b: b[1].update(minInclusive=False, min="2300")),
            "overlap",
        ),
        (
            "unknown feature",
            lambda d: (
                d["characteristics"][0]["attributes"][0].update(feature="shoe_size"),
                json.dumps(d),
            )[1],
            "not in the feature catalogue",
        ),
        (
            "non-integer points",
            lambda d: edit_bins(d, lambda b: b[0].update(points=1.5)),
            "not a scorecard",
        ),
        ("maxima not 550", lambda d: (d.update(maxPoints=560), json.dumps(d))[1], "550"),
    ],
)
def test_invalid_cards_name_the_problem(problem: str, edit: Any, words: str) -> None:
    with pytest.raises(alama.InvalidScorecardError) as caught:
        alama.Scorecard.from_json(edit(card_dict()))
    assert isinstance(caught.value, alama.AlamaError)
    assert caught.value.code == "invalid_scorecard" == alama.InvalidScorecardError.code
    assert words in str(caught.value), (problem, str(caught.value))


def test_a_missing_card_file_is_a_file_read_error(tmp_path: Path) -> None:
    with pytest.raises(alama.FileReadError):
        alama.Scorecard.load(tmp_path / "absent.json")


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_score_with_a_card_replays_the_vectors_byte_for_byte(path: Path) -> None:
    vector = json.loads(path.read_text(encoding="utf-8"))
    card = alama.Scorecard.load(CARDS / vector["scorecard"])
    statement = alama.Statement.from_dict(vector["input"])
    report = alama.score(statement, scorecard=card)
    assert report.scorecard_version == card.version
    assert report.to_dict() == vector["report"]
    expected = json.dumps(vector["report"], separators=(",", ":"), ensure_ascii=False)
    assert report.to_json() == expected
    many = alama.score_many([statement, statement], scorecard=card)
    assert [r.to_json() for r in many if isinstance(r, alama.Report)] == [expected] * 2


def test_both_cards_have_vectors() -> None:
    cards = {json.loads(p.read_text(encoding="utf-8"))["scorecard"] for p in VECTORS}
    assert cards == {LENDER.name, FITTED.name}


def test_features_and_the_catalogue() -> None:
    vector = json.loads(VECTORS[0].read_text(encoding="utf-8"))
    statement = alama.Statement.from_dict(vector["input"])
    values = alama.features(statement)
    catalogue = alama.feature_catalogue()
    assert list(values) == [d["name"] for d in catalogue]
    assert all(v is None or isinstance(v, Decimal) for v in values.values())
    assert {d["direction"] for d in catalogue} == {"ascending", "descending", "none"}
    assert all(d["window"] and d["unit"] and d["definition"] for d in catalogue)
    frame = alama.features_frame([statement, statement], workers=2)
    assert list(frame.columns) == list(values)
    for name, v in values.items():
        if v is None:
            assert frame[name].isna().all()
        else:
            assert frame[name][0] == pytest.approx(float(v), rel=1e-12), name
    # The card scores the figures as it scores the statement.
    card = alama.Scorecard.load(LENDER)
    assert card.score_values(values)[0] == alama.score(statement, scorecard=card).score


def test_features_frame_raises_the_first_error() -> None:
    good = json.dumps(json.loads(VECTORS[0].read_text(encoding="utf-8"))["input"]).encode()
    with pytest.raises(alama.AlamaError, match="statement 1"):
        alama.features_frame([good, b"not a statement"])


def _feature_values() -> st.SearchStrategy[dict[str, Decimal | None]]:
    names = [d["name"] for d in alama.feature_catalogue()]
    value = st.one_of(
        st.none(),
        st.decimals(min_value=-1000, max_value=200000, places=2, allow_nan=False),
        st.decimals(min_value=0, max_value=2, places=4, allow_nan=False),
    )
    return st.fixed_dictionaries({n: value for n in names})


@given(_feature_values())
def test_score_is_300_plus_the_points_each_within_its_maximum(
    values: dict[str, Decimal | None],
) -> None:
    for path in (FITTED, LENDER):
        card = alama.Scorecard.load(path)
        score, points = card.score_values(values)
        maxima = {
            a["code"]: max(b["points"] for b in a["bins"])
            for c in card_dict(path)["characteristics"]
            for a in c["attributes"]
        }
        assert all(0 <= p <= maxima[code] for code, p in points)
        if path == FITTED:  # no knock-out
            assert score == 300 + sum(p for _, p in points)
        else:
            assert 300 <= score <= 300 + sum(p for _, p in points)
