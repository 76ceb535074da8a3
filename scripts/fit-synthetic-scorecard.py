"""Fits the committed example card tests/scorecard-vectors/fitted-synthetic-2027.01.json on the
synthetic population (alama.testing, seed 14, 3,000 statements; two thirds to fit, the third to
validate), writes docs/modelling-validation.png and prints the measures quoted in
docs/modelling.md. Run after a change to the population or to alama.modelling:

    target/python-ci-venv/bin/python scripts/fit-synthetic-scorecard.py
    ALAMA_BLESS=1 cargo test --release -p alama --test fixtures   # its golden vectors
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np
from sklearn.metrics import roc_auc_score

import alama
import alama.testing
from alama import modelling

ROOT = Path(__file__).resolve().parents[1]
VERSION = "fitted-synthetic-2027.01"


def main() -> int:
    start = time.time()
    pop = alama.testing.population(3000, seed=14)
    features = alama.features_frame(pop.statements)
    y = np.array(pop.outcome)
    p = np.array(pop.probability)
    train = np.arange(len(y)) % 3 != 0
    card = modelling.fit_scorecard(features[train], y[train], version=VERSION)
    card.save(ROOT / "tests" / "scorecard-vectors" / f"{VERSION}.json")
    dev = modelling.score_frame(card, features[train])
    report = modelling.validate(
        card, features[~train].reset_index(drop=True), y[~train], reference=dev
    )
    report.to_png(ROOT / "docs" / "modelling-validation.png")
    true_auc = roc_auc_score(y[~train], p[~train])
    print(f"population: {len(y)} statements, default rate {y.mean():.3f}")
    print(f"true model on the held-out third: AUC {true_auc:.3f}, Gini {2 * true_auc - 1:.3f}")
    print(f"fitted card on the held-out third: {report.summary()}")
    print(report.iv.to_string(index=False))
    print(report.bands.to_string(index=False))
    print(f"{time.time() - start:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
