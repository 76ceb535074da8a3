#!/usr/bin/env python3
"""How well `alama.modelling.fit_scorecard` ranks against an unconstrained logistic regression and
the generating model, over several generating models (issue 44). Outside CI: it takes minutes.

    bash python/ci.sh              # or: cd python && maturin develop (a virtualenv active)
    target/python-ci-venv/bin/python benches/modelling_bench.py [--count 3000] [--folds 5]

The statements are the engine's synthetic population (`alama.testing.population(count, seed)`:
the six personas and the random holders, 3-12 months; every person invented), their features
`alama.features_frame`. Each generating model below draws its own outcomes from a logistic
model of those features (seeded; the intercept set by bisection so that the mean probability is
the model's default rate); `engine` keeps the population's own outcomes (`TRUE_MODEL` in
core/src/testing/population.rs). For each model, stratified K-fold cross-validation: on every
fold `fit_scorecard` and `fit_regression` are fitted on the other folds, and the AUC of the
card's score (evaluated by the engine), of the regression's probability and of the generating
probability itself are measured on the fold. Printed as a Markdown table of the means (and the
standard error of the card's gap over the folds) for docs/modelling.md; nothing is asserted.
The last row is not statements but the frame of the CI test
(`test_correlated_measures_do_not_crowd_out_the_rest`): nine copies of one income and three
independent behaviours.

`--fit-from FILE` takes `fit_scorecard` from another copy of modelling.py, for a before/after:

    git show ae49397:python/alama/modelling.py > /tmp/modelling_before.py
    target/python-ci-venv/bin/python benches/modelling_bench.py --fit-from /tmp/modelling_before.py
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn.metrics import roc_auc_score
from sklearn.model_selection import StratifiedKFold

import alama
from alama import modelling


def _z(x: Any) -> Any:
    """Standardised, missing as the mean (0)."""
    x = np.asarray(x, dtype=float)
    mu, sd = np.nanmean(x), np.nanstd(x)
    return np.nan_to_num((x - mu) / (sd if sd > 0 else 1.0))


def _log(x: Any, floor: float) -> Any:
    return np.log(np.maximum(np.nan_to_num(np.asarray(x, dtype=float)), floor))


#: name -> (default rate, the linear predictor without its intercept, as a function of the frame).
MODELS: dict[str, tuple[float, Callable[[pd.DataFrame], Any]]] = {
    # The issue's: income, Fuliza use, bill payment and the income type (salaried or not).
    "issue: income, Fuliza, bills, salaried": (
        0.25,
        lambda f: -0.9 * _log(f.average_monthly_income, 1000.0)
        + 1.2 * f.fuliza_month_share
        - 1.0 * f.bill_month_share
        - 0.6 * (f.salary_share > 0.5),
    ),
    # Five strongly correlated money measures share the effect, plus two behaviours.
    "correlated money, betting, near zero": (
        0.30,
        lambda f: -0.35 * _z(_log(f.average_monthly_income, 1000.0))
        - 0.35 * _z(_log(f.typical_monthly_income, 1000.0))
        - 0.3 * _z(_log(np.maximum(f.average_daily_balance, 0) + 100.0, 100.0))
        - 0.3 * _z(f.balance_buffer_days)
        - 0.3 * _z(f.net_cash_flow_ratio)
        + 0.5 * _z(f.betting_share)
        + 0.4 * _z(f.near_zero_share),
    ),
    # Ten weak, partly independent effects: a cap of eight features has to lose some.
    "ten weak effects": (
        0.15,
        lambda f: -0.25 * _z(_log(f.average_monthly_income, 1000.0))
        - 0.25 * _z(f.income_month_share)
        + 0.25 * _z(f.income_cv)
        - 0.25 * _z(f.salary_month_share)
        - 0.25 * _z(f.bill_month_share)
        + 0.25 * _z(f.cash_out_share)
        + 0.25 * _z(f.betting_share)
        + 0.25 * _z(f.fuliza_reliance)
        - 0.25 * _z(f.transactions_per_month)
        - 0.25 * _z(f.net_cash_flow_ratio),
    ),
    # Rare defaults driven by credit behaviour (repayment measures missing without a loan).
    "rare defaults: credit behaviour": (
        0.06,
        lambda f: 0.8 * _z(f.overdue_credit_share)
        - 0.6 * _z(f.on_time_repayment_share)
        + 0.6 * _z(f.fuliza_reliance)
        + 0.4 * _z(f.cash_and_betting_share)
        - 0.3 * _z(_log(f.average_monthly_income, 1000.0)),
    ),
}


def draw(eta: Any, rate: float, rng: np.random.Generator) -> tuple[Any, Any]:
    """Outcomes and probabilities of `eta` + an intercept that gives a mean probability `rate`."""
    lo, hi = -30.0, 30.0
    for _ in range(100):
        mid = (lo + hi) / 2
        if np.mean(1 / (1 + np.exp(-(eta + mid)))) < rate:
            lo = mid
        else:
            hi = mid
    p = 1 / (1 + np.exp(-(eta + lo)))
    return (rng.random(len(p)) < p).astype(int), p


def cross_validate(
    x: pd.DataFrame, y: Any, p: Any, folds: int, seed: int, fit: Callable[..., Any]
) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {"card": [], "regression": [], "truth": [], "features": []}
    for k, (tr, te) in enumerate(
        StratifiedKFold(folds, shuffle=True, random_state=seed).split(x, y)
    ):
        xtr, xte = x.iloc[tr].reset_index(drop=True), x.iloc[te].reset_index(drop=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            card = fit(xtr, y[tr], version=f"bench-{k}")
            reg = modelling.fit_regression(xtr, y[tr])
        scores = modelling.score_frame(card, xte).to_numpy()
        out["card"].append(float(roc_auc_score(y[te], -scores)))
        out["regression"].append(
            float(roc_auc_score(y[te], reg.predict_proba(xte[reg.regression_columns].to_numpy())[:, 1]))
        )
        out["truth"].append(float(roc_auc_score(y[te], p[te])))
        out["features"].append(float(len(json.loads(card.to_json())["characteristics"])))
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=3000)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=44)
    ap.add_argument("--only", help="run only the models whose name contains this")
    ap.add_argument("--fit-from", type=Path, help="a modelling.py whose fit_scorecard to measure")
    args = ap.parse_args()
    fit = modelling.fit_scorecard
    if args.fit_from:
        spec = importlib.util.spec_from_file_location("modelling_under_test", args.fit_from)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["modelling_under_test"] = module
        spec.loader.exec_module(module)
        fit = module.fit_scorecard
    start = time.time()
    pop = alama.testing.population(args.count, seed=args.seed)
    cache = Path(__file__).resolve().parents[1] / "target" / f"modelling-bench-{args.count}-{args.seed}.pkl"
    if cache.exists():
        x = pd.read_pickle(cache)
    else:
        x = alama.features_frame(pop.statements)
        cache.parent.mkdir(exist_ok=True)
        x.to_pickle(cache)
    print(f"{args.count} statements (seed {args.seed}), features in {time.time() - start:.0f} s", file=sys.stderr)
    rng = np.random.default_rng(args.seed)
    runs: list[tuple[str, Any, Any]] = [
        ("engine TRUE_MODEL (income, Fuliza, betting, near zero)", np.array(pop.outcome), np.array(pop.probability))
    ]
    for name, (rate, eta) in MODELS.items():
        y, p = draw(np.asarray(eta(x), dtype=float), rate, rng)
        runs.append((name, y, p))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python" / "tests"))
    from test_modelling import crowded_population

    crowded, y_crowded, p_crowded = crowded_population(args.count, args.seed)
    print(f"| generating model | default rate | fitted card | regression | generating model | card − regression | features in card |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, frame, y, p in [(n, x, y, p) for n, y, p in runs] + [
        ("CI test frame: nine copies of income, three behaviours", crowded, y_crowded, p_crowded)
    ]:
        if args.only and args.only not in name:
            continue
        t = time.time()
        r = cross_validate(frame, y, p, args.folds, args.seed, fit)
        m = {k: float(np.mean(v)) for k, v in r.items()}
        sd = float(np.std(np.array(r["card"]) - np.array(r["regression"])))
        print(
            f"| {name} | {np.mean(y):.1%} | {m['card']:.3f} | {m['regression']:.3f} | {m['truth']:.3f} "
            f"| {m['card'] - m['regression']:+.3f} (± {sd / math.sqrt(args.folds):.3f}) | {m['features']:.1f} |",
            flush=True,
        )
        print(f"  {name}: {time.time() - t:.0f} s", file=sys.stderr)
    print(f"{time.time() - start:.0f} s in all", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
