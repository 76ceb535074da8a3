"""Fit a scorecard on a lender's own repayment outcomes, and validate it (``alama.modelling``).

The standard route (Siddiqi; R ``scorecard``; optbinning's ``Scorecard``): optimal binning of
each catalogue feature with the monotonic trend the catalogue declares (**optbinning**), weight
of evidence (WoE) and information value (IV) per feature, forward selection of a logistic
regression on the WoE (**scikit-learn**; ``alama._selection``), and points by *points to
double the odds* (PDO) anchored at ``base_score`` for good:bad odds ``base_odds``. Those points
are then mapped onto Alama's form, ``score = 300 + Σ points``: each characteristic's lowest bin scores 0 and the
maxima add up to 550, so the PDO is rescaled; the card's rationales give the effective PDO.

The result is an ``alama.Scorecard``: the engine evaluates it, in Python, Node, Kotlin, the
CLI (``alama score --scorecard card.json``) and the service, byte for byte the same.

Needs the ``modelling`` extra: ``pip install 'alama[modelling]'`` (optbinning, scikit-learn,
matplotlib). Outcome convention: ``1`` = defaulted (bad), ``0`` = repaid (good).

Over 400 lines: fitting, the benchmark regression and validation are one public API whose
parts share the catalogue and the card's form; the feature selection is in ``_selection``.
"""

from __future__ import annotations

import base64
import html
import io
import json
import math
import warnings
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any

from alama import _alama, _extras
from alama._alama import Scorecard
from alama._selection import Binned, regress, select

# Without the extra: one line naming it on first access, not a ModuleNotFoundError mid-fit.
_extras.require("modelling", "alama.modelling")

__all__ = ["Validation", "fit_regression", "fit_scorecard", "psi", "score_frame", "validate"]

#: Alama's score bands (inclusive ranges), as in every report: the engine's own.
BANDS: list[tuple[str, int, int]] = list(_alama.BANDS)

#: The card's form, the engine's own: ``score = BASE_SCORE + Σ points``, the maxima adding up
#: to ``MAX_POINTS``, so scores run from ``SCORE_MIN`` to ``SCORE_MAX``.
BASE_SCORE: int = _alama.BASE_SCORE
MAX_POINTS: int = _alama.MAX_POINTS
SCORE_MIN: int = _alama.SCORE_MIN
SCORE_MAX: int = _alama.SCORE_MAX


def _catalogue() -> dict[str, dict[str, str]]:
    return {d["name"]: d for d in _alama.feature_catalogue()}


def _edge(x: float) -> str:
    """A split point as an exact decimal string (six significant digits)."""
    d = Decimal(f"{x:.6g}")
    return format(d.normalize(), "f") if d == d.to_integral_value() else str(d.normalize())


def _bin_feature(x: Any, y: Any, feature: str, trend: str, max_n_bins: int) -> Binned | None:
    from optbinning import OptimalBinning

    monotonic = {"ascending": "ascending", "descending": "descending"}.get(trend, "auto_asc_desc")
    ob = OptimalBinning(
        name=feature,
        dtype="numerical",
        solver="cp",
        monotonic_trend=monotonic,
        max_n_bins=max_n_bins,
        min_bin_size=0.05,
    )
    ob.fit(x.to_numpy(), y.to_numpy())
    if ob.status not in ("OPTIMAL", "FEASIBLE") or len(ob.splits) == 0:
        return None
    table = ob.binning_table.build()
    n = len(ob.splits) + 1
    woe = [float(v) for v in table["WoE"].iloc[: n + 2]]
    # optbinning's rows: the bins, then "Special", then "Missing".
    bins_woe, missing_woe = woe[:n], woe[n + 1]
    iv = float(table["IV"].iloc[-1])
    splits = [_edge(float(s)) for s in ob.splits]
    if len(set(splits)) != len(splits):
        return None
    # optbinning's WoE is ln(non-event share ÷ event share)... or its inverse: read the event
    # rates instead, which are unambiguous.
    rates = [float(v) for v in table["Event rate"].iloc[:n]]
    direction = "higher_is_better" if rates[-1] <= rates[0] else "lower_is_better"
    return Binned(feature, direction, splits, bins_woe + [missing_woe], iv, ob)


def _bins_json(splits: list[str], points: list[int]) -> list[dict[str, Any]]:
    bins: list[dict[str, Any]] = []
    for i, p in enumerate(points):
        b: dict[str, Any] = {}
        if i > 0:
            b["min"] = splits[i - 1]
            b["minInclusive"] = True
        if i < len(splits):
            b["max"] = splits[i]
            b["maxInclusive"] = False
        b["points"] = p
        bins.append(b)
    return bins


def fit_scorecard(
    features: Any,
    outcome: Any,
    *,
    version: str,
    pdo: float = 50.0,
    base_score: float = 600.0,
    base_odds: float = 19.0,
    min_iv: float = 0.02,
    max_features: int = 12,
    max_correlation: float = 1.0,
    max_n_bins: int = 6,
) -> Scorecard:
    """Fits a scorecard on ``features`` (a ``pandas.DataFrame`` of catalogue features, e.g.
    from ``alama.features_frame``; other columns are ignored) and ``outcome`` (1 = defaulted,
    0 = repaid, one per row).

    Each feature is binned by optbinning's ``OptimalBinning`` with the catalogue's monotonic
    trend (``feature_catalogue()``, ``direction``; unconstrained features get a monotone trend
    in either direction), at most ``max_n_bins`` bins of at least 5 % of the rows each. Features
    with IV below ``min_iv`` are dropped (and, if ``max_correlation`` is below 1, those whose WoE
    correlates above it with a stronger one's); the rest enter a logistic regression on the WoE
    by forward selection: the feature that lowers the deviance most joins while it lowers it
    by more than ln(rows) (BIC) and every coefficient keeps the sign WoE implies (so no
    characteristic's points run against its catalogue trend), up to ``max_features``. Points per bin
    follow PDO scaling — ``base_score`` points at good:bad odds ``base_odds``, ``pdo`` more
    points per doubling — and are then shifted so each characteristic's lowest bin scores 0 and
    scaled so the maxima add up to 550, rounded to integers (the effective PDO is in each
    characteristic's rationale). A feature's missing value scores like the missing rows of the
    sample did (neutral), or like the lowest bin (adverse) if that is worse or unseen.

    Returns a validated ``alama.Scorecard`` of version ``version``. Raises ``ValueError`` when
    the inputs do not line up or no feature carries information, and ``ImportError`` without
    the ``modelling`` extra.
    """
    import numpy as np
    import pandas as pd

    y = pd.Series(outcome).astype(int).reset_index(drop=True)
    x = pd.DataFrame(features).reset_index(drop=True)
    if len(x) != len(y):
        raise ValueError(f"{len(x)} rows of features for {len(y)} outcomes")
    if not set(y.unique()) <= {0, 1} or y.nunique() != 2:
        raise ValueError("outcome must hold both 0 (repaid) and 1 (defaulted)")
    catalogue = _catalogue()

    binned: list[Binned] = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in x.columns:
            if name not in catalogue or x[name].nunique(dropna=True) < 2:
                continue
            b = _bin_feature(
                x[name].astype(float), y, name, catalogue[name]["direction"], max_n_bins
            )
            if b is not None and b.iv >= min_iv:
                binned.append(b)
    binned.sort(key=lambda b: -b.iv)
    if not binned:
        raise ValueError(f"no feature has an information value of at least {min_iv}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        woe = {
            b.feature: b.binning.transform(x[b.feature].astype(float).to_numpy(), metric="woe")
            for b in binned
        }
    binned = select(binned, woe, y.to_numpy(), max_features, max_correlation)
    model, coefs = regress([woe[b.feature] for b in binned], y.to_numpy())
    intercept = float(model.intercept_[0])

    # Standard scaling: score = offset + factor × ln(good odds); ln(bad odds) = a + Σ βⱼ WoEⱼ.
    factor = pdo / math.log(2)
    raw: list[list[float]] = []
    for b, beta in zip(binned, coefs):
        raw.append([-factor * beta * w for w in b.woe])
    offset = base_score - factor * math.log(base_odds) - factor * intercept
    mins = [min(r[:-1]) for r in raw]
    spans = [max(r[:-1]) - lo for r, lo in zip(raw, mins)]
    total = sum(spans)
    if total <= 0:
        raise ValueError("the fitted model does not separate the outcomes")
    scale = MAX_POINTS / total
    # Integer maxima adding up to 550 exactly (largest remainder), then every bin rounded and
    # capped at its characteristic's maximum (rounding and capping keep the points monotone).
    exact = [s * scale for s in spans]
    maxima = [math.floor(e) for e in exact]
    for i in sorted(range(len(exact)), key=lambda i: maxima[i] - exact[i])[: MAX_POINTS - sum(maxima)]:
        maxima[i] += 1

    n_rows, n_bad = len(y), int(y.sum())
    characteristics: list[dict[str, Any]] = []
    for k, (b, r, lo, top) in enumerate(zip(binned, raw, mins, maxima)):
        d = catalogue[b.feature]
        points = [min(top, max(0, round((v - lo) * scale))) for v in r[:-1]]
        points[int(np.argmax(r[:-1]))] = top
        points[int(np.argmin(r[:-1]))] = 0
        missing_seen = int(x[b.feature].isna().sum()) > 0
        missing_points = min(top, round((r[-1] - lo) * scale))
        missing: dict[str, Any]
        if missing_seen and missing_points > 0:
            missing = {"policy": "neutral", "points": missing_points, "when": "the statement cannot measure it"}
        else:
            missing = {"policy": "adverse", "when": "the statement cannot measure it"}
        name = b.feature.replace("_", " ").capitalize()
        characteristics.append(
            {
                "code": b.feature,
                "name": name,
                "max": top,
                "reasonCode": f"F{k + 1:02d}",
                "rationale": (
                    f"Fitted by alama.modelling on {n_rows} statements ({n_bad} defaults): "
                    f"IV {b.iv:.3f}, coefficient {coefs[k]:.3f} on WoE; catalogue trend "
                    f"{d['direction']}. Points: PDO {pdo:g} at {base_score:g} for odds "
                    f"{base_odds:g}:1 (offset {offset:.1f}), shifted to a minimum of 0 and "
                    f"scaled ×{scale:.4f} so the maxima add up to {MAX_POINTS}: effective PDO "
                    f"{pdo * scale:.1f}."
                ),
                "attributes": [
                    {
                        "code": f"{b.feature}_bins",
                        "name": name,
                        "feature": b.feature,
                        "unit": d["unit"],
                        "direction": b.direction
                        if points[-1] != points[0]
                        else "higher_is_better",
                        "missing": missing,
                        "reason": f"{name}: {{}}",
                        "bins": _bins_json(b.splits, points),
                    }
                ],
            }
        )
    card = {
        "version": version,
        "currency": "KES",
        "baseScore": BASE_SCORE,
        "maxPoints": MAX_POINTS,
        "characteristics": characteristics,
    }
    return Scorecard.from_json(json.dumps(card))


def fit_regression(features: Any, outcome: Any) -> Any:
    """The benchmark a card is judged against: an unconstrained logistic regression on every
    catalogue feature of ``features`` (no binning, no monotonic trend, no selection). Missing
    values are imputed by the column's median with a missing-indicator column each, then every
    column is standardised (scikit-learn ``SimpleImputer(add_indicator=True)``,
    ``StandardScaler``, ``LogisticRegression`` with its default L2 penalty ``C = 1``).

    Returns the fitted scikit-learn ``Pipeline``; its ``predict_proba(frame)[:, 1]`` is the
    probability of default of each row of ``frame`` (same columns, as ``regression_columns``
    of the pipeline lists them). Raises ``ValueError`` when the inputs do not line up or no
    catalogue column is present."""
    import pandas as pd
    from sklearn.impute import SimpleImputer
    from sklearn.linear_model import LogisticRegression
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    x = pd.DataFrame(features).reset_index(drop=True)
    y = pd.Series(outcome).astype(int).reset_index(drop=True)
    if len(x) != len(y):
        raise ValueError(f"{len(x)} rows of features for {len(y)} outcomes")
    catalogue = _catalogue()
    columns = [c for c in x.columns if c in catalogue and x[c].notna().any()]
    if not columns:
        raise ValueError("no catalogue feature among the columns")
    model = make_pipeline(
        SimpleImputer(strategy="median", add_indicator=True),
        StandardScaler(),
        LogisticRegression(max_iter=5000),
    )
    model.fit(x[columns].astype(float).to_numpy(), y.to_numpy())
    model.regression_columns = columns
    return model


def _regression_pd(model: Any, features: Any) -> Any:
    import pandas as pd

    x = pd.DataFrame(features).reset_index(drop=True)
    cols = x.reindex(columns=model.regression_columns)
    return model.predict_proba(cols.astype(float).to_numpy())[:, 1]


def _regression_auc(
    df: Any, y: Any, development: tuple[Any, Any] | None
) -> tuple[float | None, str]:
    """The AUC of ``fit_regression`` on ``df``/``y``: fitted on ``development`` when given, else
    out of fold (five stratified folds of this sample), with a note saying which."""
    import numpy as np
    from sklearn.metrics import roc_auc_score
    from sklearn.model_selection import StratifiedKFold

    if development is not None:
        model = fit_regression(*development)
        auc = float(roc_auc_score(y, _regression_pd(model, df)))
        return auc, "regression: fitted on the development sample, measured on this one"
    folds = min(5, int(y.sum()), int((1 - y).sum()))
    if folds < 2:
        return None, "regression: too few defaults or repayments to cross-validate"
    pd_ = np.zeros(len(y))
    for tr, te in StratifiedKFold(folds, shuffle=True, random_state=0).split(df, y):
        model = fit_regression(df.iloc[tr], y.iloc[tr])
        pd_[te] = _regression_pd(model, df.iloc[te])
    return (
        float(roc_auc_score(y, pd_)),
        f"regression: out of fold ({folds} stratified folds of this sample; "
        "pass development= to fit it on the card's own sample)",
    )


def score_frame(card: Scorecard, features: Any) -> Any:
    """The card's score (``int``, 300–850) of every row of ``features`` (a DataFrame of catalogue
    features, NaN = missing), as a ``pandas.Series`` aligned with it: the engine evaluates the
    card (``Scorecard.score_values``). Raises ``InvalidScorecardError`` when a feature the card
    uses is not a column."""
    import pandas as pd

    df = pd.DataFrame(features)
    records = df.to_dict(orient="records")
    return pd.Series([card.score_values(r)[0] for r in records], index=df.index, name="score")


def psi(expected: Any, actual: Any, *, bins: int = 10) -> float:
    """Population stability index between two samples of scores (or of one feature):
    ``Σ (aᵢ − eᵢ) ln(aᵢ / eᵢ)`` over the deciles (``bins`` quantiles) of ``expected``, shares
    floored at 0.0001. Under 0.1: stable; 0.1–0.25: watch; over 0.25: shifted."""
    import numpy as np

    e = np.asarray(expected, dtype=float)
    a = np.asarray(actual, dtype=float)
    e, a = e[~np.isnan(e)], a[~np.isnan(a)]
    if len(e) == 0 or len(a) == 0:
        raise ValueError("psi needs two non-empty samples")
    edges = np.unique(np.quantile(e, np.linspace(0, 1, bins + 1))[1:-1])
    e_share = np.bincount(np.searchsorted(edges, e, side="right"), minlength=len(edges) + 1)
    a_share = np.bincount(np.searchsorted(edges, a, side="right"), minlength=len(edges) + 1)
    es = np.maximum(e_share / len(e), 1e-4)
    as_ = np.maximum(a_share / len(a), 1e-4)
    return float(np.sum((as_ - es) * np.log(as_ / es)))


def _auc(scores: Any, bad: Any) -> float:
    """AUC of ``-score`` predicting ``bad`` (a higher score should mean fewer defaults)."""
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(bad, -scores))


@dataclass
class Validation:
    """What ``validate`` measured on a sample.

    ``auc`` (0.5 = chance, 1 = perfect), ``gini`` (= 2·AUC − 1) and ``ks`` (the largest gap
    between the cumulative score distributions of defaulters and repayers, 0–1) say how well
    the score ranks; ``iv`` is a DataFrame (``feature``, ``iv``) of the information value of
    each characteristic's bins on this sample; ``bands`` and ``deciles`` DataFrames give
    ``count``, ``defaults`` and ``bad_rate`` per score band and per score decile (1 = lowest
    scores); ``psi`` is the stability index against ``reference`` scores when given;
    ``scores`` and ``outcome`` are the Series measured. ``regression_auc`` is the AUC on the
    same rows of the benchmark the card should come close to, an unconstrained logistic
    regression on every catalogue feature (``fit_regression``); a card more than about 0.02
    below it loses information in its binning or selection. ``notes`` say how it was fitted.
    """

    version: str
    auc: float
    gini: float
    ks: float
    iv: Any
    bands: Any
    deciles: Any
    scores: Any
    outcome: Any
    psi: float | None = None
    notes: list[str] = field(default_factory=list)
    regression_auc: float | None = None

    def summary(self) -> str:
        """One line: AUC (beside the plain regression's), Gini, KS (and PSI)."""
        s = f"{self.version}: AUC {self.auc:.3f}"
        if self.regression_auc is not None:
            s += f" (plain regression {self.regression_auc:.3f})"
        s += f", Gini {self.gini:.3f}, KS {self.ks:.3f}"
        return s + (f", PSI {self.psi:.3f}" if self.psi is not None else "")

    def _figure(self) -> Any:
        from matplotlib.figure import Figure
        from sklearn.metrics import roc_curve

        fig = Figure(figsize=(13, 4), dpi=100)
        ax1, ax2, ax3 = fig.subplots(1, 3)
        fpr, tpr, _ = roc_curve(self.outcome, -self.scores)
        ax1.plot(fpr, tpr, color="#1f6f50", label=f"AUC {self.auc:.3f}")
        ax1.plot([0, 1], [0, 1], color="#999999", linestyle="--", linewidth=1)
        ax1.set_title("ROC")
        ax1.set_xlabel("repayers flagged (false positive rate)")
        ax1.set_ylabel("defaulters flagged (true positive rate)")
        ax1.legend(loc="lower right")
        bins = list(range(SCORE_MIN, SCORE_MAX + 1, 25))
        good = self.scores[self.outcome == 0]
        bad = self.scores[self.outcome == 1]
        ax2.hist(good, bins=bins, alpha=0.6, color="#1f6f50", label="repaid", density=True)
        ax2.hist(bad, bins=bins, alpha=0.6, color="#b03a2e", label="defaulted", density=True)
        ax2.set_title(f"Scores by outcome (KS {self.ks:.3f})")
        ax2.set_xlabel("score")
        ax2.legend()
        rates = [0.0 if math.isnan(v) else 100 * v for v in self.bands["bad_rate"]]
        ax3.bar(list(self.bands["band"]), rates, color="#b03a2e")
        for i, (r, c) in enumerate(zip(rates, self.bands["count"])):
            ax3.text(i, r, f"{r:.0f}%\nn={c}", ha="center", va="bottom", fontsize=8)
        ax3.tick_params(axis="x", labelsize=8)
        ax3.set_title("Bad rate by band")
        ax3.set_ylabel("defaults, %")
        ax3.set_ylim(0, max(rates + [1.0]) * 1.3)
        fig.suptitle(f"Scorecard {self.version} — {self.summary().split(': ', 1)[1]}")
        fig.tight_layout()
        return fig

    def to_png(self, path: str | Path) -> None:
        """Writes the three plots (ROC, score distributions by outcome, bad rate by band) as one
        PNG."""
        self._figure().savefig(str(path), format="png")

    def to_html(self, path: str | Path) -> None:
        """Writes a self-contained HTML report (plots embedded as base64 PNG, no external
        files): the measures, the plots, and the IV, band and decile tables."""
        buf = io.BytesIO()
        self._figure().savefig(buf, format="png")
        img = base64.b64encode(buf.getvalue()).decode("ascii")
        tables = "".join(
            f"<h2>{html.escape(title)}</h2>{df.to_html(index=False, float_format='%.4f')}"
            for title, df in (
                ("Information value", self.iv),
                ("Bad rate by band", self.bands),
                ("Bad rate by score decile", self.deciles),
            )
        )
        page = (
            "<!doctype html><html><head><meta charset='utf-8'>"
            f"<title>Scorecard validation: {html.escape(self.version)}</title>"
            "<style>body{font-family:sans-serif;max-width:70em;margin:2em auto}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .6em}"
            "</style></head><body>"
            f"<h1>Scorecard validation: {html.escape(self.version)}</h1>"
            f"<p>{html.escape(self.summary())} on {len(self.scores)} statements "
            f"({int(self.outcome.sum())} defaults).</p>"
            + "".join(f"<p>{html.escape(n)}</p>" for n in self.notes)
            + f"<img alt='ROC, score distributions, bad rate by band' "
            f"src='data:image/png;base64,{img}' style='max-width:100%'>"
            f"{tables}</body></html>"
        )
        Path(path).write_text(page, encoding="utf-8")


def _rates(groups: Any, outcome: Any, key: str) -> Any:
    import pandas as pd

    df = pd.DataFrame({key: groups, "bad": outcome})
    out = df.groupby(key, observed=False)["bad"].agg(["count", "sum"]).reset_index()
    out.columns = [key, "count", "defaults"]
    out["bad_rate"] = out["defaults"] / out["count"].where(out["count"] > 0)
    return out


def validate(
    card: Scorecard,
    features: Any,
    outcome: Any,
    *,
    reference: Any | None = None,
    development: tuple[Any, Any] | None = None,
) -> Validation:
    """Scores every row of ``features`` with ``card`` (``score_frame``) and measures how the
    scores rank ``outcome`` (1 = defaulted): AUC, Gini, KS, the IV of each characteristic's
    bins, bad rate per band and per score decile, and PSI against ``reference`` (scores of an
    earlier sample, e.g. the development sample) when given. Beside the card's AUC,
    ``regression_auc``: an unconstrained logistic regression (``fit_regression``) on the same
    rows, fitted on ``development`` (the ``(features, outcome)`` the card was fitted on) when
    given, else out of fold on this sample. Raises ``ValueError`` when the lengths differ or the
    outcome has only one class."""
    import numpy as np
    import pandas as pd

    df = pd.DataFrame(features).reset_index(drop=True)
    y = pd.Series(outcome).astype(int).reset_index(drop=True)
    if len(df) != len(y) or y.nunique() != 2:
        raise ValueError("validate needs one outcome per row, with both 0 and 1")
    scores = score_frame(card, df)
    auc = _auc(scores, y)
    good = np.sort(scores[y == 0].to_numpy())
    bad = np.sort(scores[y == 1].to_numpy())
    grid = np.arange(300, 851)
    ks = float(
        np.max(
            np.abs(
                np.searchsorted(bad, grid, side="right") / len(bad)
                - np.searchsorted(good, grid, side="right") / len(good)
            )
        )
    )
    band_of = pd.cut(
        scores,
        bins=[lo - 0.5 for _, lo, _ in BANDS] + [850.5],
        labels=[b for b, _, _ in BANDS],
    )
    bands = _rates(band_of, y, "band")
    decile_of = pd.qcut(scores.rank(method="first"), 10, labels=list(range(1, 11)))
    deciles = _rates(decile_of, y, "decile")
    deciles.insert(1, "min_score", [int(scores[decile_of == d].min()) for d in deciles["decile"]])
    deciles.insert(2, "max_score", [int(scores[decile_of == d].max()) for d in deciles["decile"]])
    # IV of the card's own bins on this sample (0.5 added to each count to avoid ln 0).
    eps = 0.5
    rows = []
    n_good, n_bad = int((y == 0).sum()), int((y == 1).sum())
    points = _points(card, df)
    for c in json.loads(card.to_json())["characteristics"]:
        for a in c["attributes"]:
            pts = pd.Series([p[a["code"]] for p in points], name="p")
            t = pd.DataFrame({"p": pts, "bad": y}).groupby("p")["bad"].agg(["count", "sum"])
            g = (t["count"] - t["sum"] + eps) / n_good
            b = (t["sum"] + eps) / n_bad
            rows.append({"feature": a["feature"], "iv": float(((g - b) * np.log(g / b)).sum())})
    iv = pd.DataFrame(rows, columns=["feature", "iv"]).sort_values("iv", ascending=False)
    result = Validation(
        version=card.version,
        auc=auc,
        gini=2 * auc - 1,
        ks=ks,
        iv=iv.reset_index(drop=True),
        bands=bands,
        deciles=deciles,
        scores=scores,
        outcome=y,
    )
    if reference is not None:
        result.psi = psi(reference, scores)
    result.regression_auc, note = _regression_auc(df, y, development)
    result.notes.append(note)
    return result


def _points(card: Scorecard, df: Any) -> list[dict[str, int]]:
    return [dict(card.score_values(r)[1]) for r in df.to_dict(orient="records")]
