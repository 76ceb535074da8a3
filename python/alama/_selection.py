"""Which characteristics a fitted card keeps (``alama.modelling.fit_scorecard``, issue 44).

Split from modelling.py, which holds fitting, scaling and validation. Needs numpy and
scikit-learn (the ``modelling`` extra); imported only by ``alama.modelling``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any


@dataclass
class Binned:
    """One catalogue feature binned by optbinning: its name, the direction its points run, the
    split points (exact decimal strings), the WoE per bin then of the missing values, the IV,
    and the fitted ``OptimalBinning`` (its ``transform(x, metric="woe")`` gives the WoE)."""

    feature: str
    direction: str  # "higher_is_better" | "lower_is_better"
    splits: list[str]
    woe: list[float]  # per bin, then missing last
    iv: float
    binning: Any


def regress(columns: list[Any], y: Any) -> tuple[Any, list[float]]:
    """An (effectively) unpenalised logistic regression of ``y`` on the WoE ``columns``."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    model = LogisticRegression(C=1e6, max_iter=1000)
    model.fit(np.column_stack(columns), y)
    return model, [float(c) for c in model.coef_[0]]


def deviance(model: Any, columns: list[Any], y: Any) -> float:
    """−2 × the log-likelihood of ``y`` (0/1) under ``model`` on ``columns``."""
    import numpy as np

    p = np.clip(model.predict_proba(np.column_stack(columns))[:, 1], 1e-12, 1 - 1e-12)
    return float(-2 * np.sum(y * np.log(p) + (1 - y) * np.log(1 - p)))


def select(
    binned: list[Binned], woe: dict[str, Any], y: Any, max_features: int, max_correlation: float
) -> list[Binned]:
    """The characteristics of the card, from ``binned`` (sorted by IV, strongest first).

    1. Correlation: a feature whose WoE correlates (Pearson, |r| > ``max_correlation``) with a
       stronger one's is dropped before the regression. Off by default (1.0): the forward
       selection below already passes over a feature that repeats a chosen one, and a 0.7
       filter cost up to 0.007 AUC on the generating models of docs/modelling.md, where
       correlated measures each carried some information of their own.
    2. Forward selection on the WoE: at each step the remaining feature that lowers the
       regression's deviance most joins, provided every coefficient keeps the sign WoE implies
       (a feature that would reverse its own trend, or another's, is skipped at that step), until
       no feature lowers the deviance by more than ``ln(n)`` (BIC) or ``max_features`` are in.

    Returns the chosen features in the order they joined (at least the strongest by IV). The
    earlier IV-ranked cap of eight let correlated income measures crowd out the rest, and
    dropping wrong-signed features after the fact threw away information (issue 44).
    """
    import numpy as np

    kept: list[Binned] = []
    for b in binned:
        col = woe[b.feature]
        if np.std(col) == 0:
            continue
        if all(
            abs(float(np.corrcoef(col, woe[k.feature])[0, 1])) <= max_correlation for k in kept
        ):
            kept.append(b)
    n = len(y)
    rate = float(np.mean(y))
    best_dev = float(-2 * n * (rate * math.log(rate) + (1 - rate) * math.log(1 - rate)))
    chosen: list[Binned] = []
    sign = 0.0
    while len(chosen) < max_features:
        best: tuple[float, Binned, float] | None = None
        for b in kept:
            if any(b is c for c in chosen):
                continue
            cols = [woe[c.feature] for c in chosen] + [woe[b.feature]]
            model, coefs = regress(cols, y)
            s = sign or math.copysign(1.0, coefs[-1])
            # WoE encodes the feature's own direction, so every coefficient shares one sign
            # (that of optbinning's WoE convention).
            if any(c * s <= 0 for c in coefs):
                continue
            dev = deviance(model, cols, y)
            if best is None or dev < best[0]:
                best = (dev, b, s)
        if best is None or best_dev - best[0] <= math.log(n):
            break
        best_dev, b, sign = best
        chosen.append(b)
    return chosen or binned[:1]
