"""alama.modelling on the synthetic population (alama.testing): the fitted card ranks almost as
well as the true default model, is monotone where the catalogue constrains it, validates and
round-trips; validate/psi/to_html measure it."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("optbinning")
pytest.importorskip("sklearn")
pytest.importorskip("matplotlib")

import numpy as np  # noqa: E402
from sklearn.metrics import roc_auc_score  # noqa: E402

import alama  # noqa: E402
import alama.testing  # noqa: E402
from alama import modelling  # noqa: E402


@pytest.fixture(scope="module")
def fitted() -> dict[str, Any]:
    start = time.time()
    pop = alama.testing.population(3000, seed=14)
    features = alama.features_frame(pop.statements)
    y = np.array(pop.outcome)
    train = np.arange(len(y)) % 3 != 0
    card = modelling.fit_scorecard(features[train], y[train], version="test-fit-2027.01")
    return {
        "pop": pop,
        "features": features,
        "y": y,
        "train": train,
        "card": card,
        "seconds": time.time() - start,
    }


def test_the_population_is_seeded() -> None:
    a = alama.testing.population(20, seed=3)
    b = alama.testing.population(20, seed=3)
    assert a.statements == b.statements and a.outcome == b.outcome
    assert set(a.outcome) <= {0, 1}
    assert all(0 <= p <= 1 for p in a.probability)


def test_fitted_auc_is_within_003_of_the_true_model(fitted: dict[str, Any]) -> None:
    test = ~fitted["train"]
    y = fitted["y"][test]
    true_auc = roc_auc_score(y, np.array(fitted["pop"].probability)[test])
    report = modelling.validate(
        fitted["card"], fitted["features"][test].reset_index(drop=True), y
    )
    assert abs(report.auc - true_auc) <= 0.03, (report.auc, true_auc)
    assert report.gini == pytest.approx(2 * report.auc - 1)
    assert 0 < report.ks < 1
    assert fitted["seconds"] < 120


def test_fitted_points_are_monotone_where_constrained(fitted: dict[str, Any]) -> None:
    card = json.loads(fitted["card"].to_json())
    trends = {d["name"]: d["direction"] for d in alama.feature_catalogue()}
    assert card["baseScore"] == 300 and card["maxPoints"] == 550
    assert sum(c["max"] for c in card["characteristics"]) == 550
    for c in card["characteristics"]:
        for a in c["attributes"]:
            points = [b["points"] for b in a["bins"]]
            assert min(points) == 0 and max(points) == c["max"]
            assert all(isinstance(p, int) for p in points)
            trend = trends[a["feature"]]
            if trend == "descending":  # fewer defaults as it rises: points rise
                assert points == sorted(points), a["feature"]
            elif trend == "ascending":
                assert points == sorted(points, reverse=True), a["feature"]


def test_a_fitted_card_round_trips_and_scores(fitted: dict[str, Any], tmp_path: Path) -> None:
    card = fitted["card"]
    card.save(tmp_path / "card.json")
    loaded = alama.Scorecard.load(tmp_path / "card.json")
    assert loaded == card and loaded.sha256 == card.sha256
    statements = fitted["pop"].statements[:5]
    frame = fitted["features"][:5]
    scores = modelling.score_frame(loaded, frame)
    for statement, expected in zip(statements, scores):
        report = alama.score(statement, scorecard=loaded)
        assert report.scorecard_version == "test-fit-2027.01"
        assert report.score == expected


def test_validate_reports_and_psi(fitted: dict[str, Any], tmp_path: Path) -> None:
    test = ~fitted["train"]
    dev = modelling.score_frame(fitted["card"], fitted["features"][fitted["train"]])
    report = modelling.validate(
        fitted["card"],
        fitted["features"][test].reset_index(drop=True),
        fitted["y"][test],
        reference=dev,
    )
    assert report.psi is not None and report.psi < 0.1
    assert list(report.bands["band"]) == ["Poor", "Fair", "Good", "Very Good", "Excellent"]
    assert report.bands["count"].sum() == test.sum()
    assert list(report.deciles["decile"]) == list(range(1, 11))
    assert (report.iv["iv"] > 0).all()
    # Bad rate falls from the lowest scores to the highest.
    rates = list(report.deciles["bad_rate"])
    assert rates[0] > rates[-1]
    report.to_html(tmp_path / "report.html")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "data:image/png;base64," in page and "Bad rate by band" in page
    report.to_png(tmp_path / "report.png")
    assert (tmp_path / "report.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "AUC" in report.summary()


def test_psi_of_a_sample_with_itself_is_zero_and_of_a_shift_is_large() -> None:
    rng = np.random.default_rng(1)
    a = rng.normal(600, 80, 2000)
    assert modelling.psi(a, a) == pytest.approx(0.0, abs=1e-9)
    assert modelling.psi(a, a + 120) > 0.25
    with pytest.raises(ValueError):
        modelling.psi([], a)


def test_fit_refuses_outcomes_that_do_not_line_up(fitted: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        modelling.fit_scorecard(fitted["features"][:10], [0, 1], version="x")
    with pytest.raises(ValueError):
        modelling.fit_scorecard(fitted["features"][:10], [0] * 10, version="x")


#: Nine money measures that all repeat one income (pairwise r about 0.92), as a statement's do.
MONEY = [
    "total_income",
    "average_monthly_income",
    "typical_monthly_income",
    "income_floor",
    "affordable_instalment",
    "average_monthly_net_cash_flow",
    "average_daily_balance",
    "average_net_balance",
    "balance_buffer_days",
]


def crowded_population(n: int, seed: int) -> tuple[Any, Any, Any]:
    """Features, outcomes and true default probabilities where the income measures have the highest IVs but three
    independent behaviours (betting, Fuliza months, bill months) carry as much again: a
    selection by IV alone fills its places with copies of income (issue 44)."""
    import pandas as pd

    rng = np.random.default_rng(seed)
    income = rng.normal(0, 1, n)
    cols = {m: np.exp(10 + 0.6 * (income + 0.25 * rng.normal(0, 1, n))) for m in MONEY}
    cols["betting_share"] = rng.beta(0.8, 6, n)
    cols["fuliza_month_share"] = rng.uniform(0, 1, n)
    cols["bill_month_share"] = rng.uniform(0, 1, n)
    x = pd.DataFrame(cols)
    z = {c: (x[c] - x[c].mean()) / x[c].std() for c in cols}
    eta = -1.2 - income + 0.8 * (z["betting_share"] + z["fuliza_month_share"] - z["bill_month_share"])
    p = 1 / (1 + np.exp(-eta))
    return x, (rng.random(n) < p).astype(int), p.to_numpy()


@pytest.mark.parametrize("seed", [1, 3])
def test_correlated_measures_do_not_crowd_out_the_rest(seed: int) -> None:
    x, y, _ = crowded_population(2000, seed)
    train = np.arange(len(y)) % 3 != 0
    card = modelling.fit_scorecard(x[train], y[train], version="crowded-2027.01")
    test_x = x[~train].reset_index(drop=True)
    report = modelling.validate(card, test_x, y[~train], development=(x[train], y[train]))
    regression = modelling.fit_regression(x[train], y[train])
    plain = roc_auc_score(y[~train], regression.predict_proba(test_x.to_numpy())[:, 1])
    assert report.regression_auc == pytest.approx(plain)
    assert report.auc >= plain - 0.03, (report.auc, plain)
    used = {c["code"] for c in json.loads(card.to_json())["characteristics"]}
    assert {"betting_share", "fuliza_month_share", "bill_month_share"} <= used, used
    assert len(used & set(MONEY)) <= 2, used


def test_validate_reports_a_plain_regression_beside_the_card(fitted: dict[str, Any]) -> None:
    test = ~fitted["train"]
    report = modelling.validate(
        fitted["card"], fitted["features"][test].reset_index(drop=True), fitted["y"][test]
    )
    assert report.regression_auc is not None and 0.5 < report.regression_auc <= 1
    assert "out of fold" in report.notes[-1]
    assert f"plain regression {report.regression_auc:.3f}" in report.summary()
    # The card ranks within 0.03 of the unconstrained regression on the same rows.
    assert report.auc >= report.regression_auc - 0.03, (report.auc, report.regression_auc)
