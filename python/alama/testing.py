"""A synthetic population for fitting and validating scorecards (``alama.testing``).

Members are the engine's seeded personas and random holders (``alama_core::testing``), each
with a repayment outcome drawn from a **known** logistic default model of four catalogue
features (docs/modelling.md), so a fitted scorecard can be judged against the truth. Every
person in them is invented.
"""

from __future__ import annotations

from dataclasses import dataclass

from alama import _alama
from alama._alama import Statement

__all__ = ["Population", "population"]


@dataclass(frozen=True)
class Population:
    """``n`` members, index-aligned lists.

    ``statements``: the members' statements (3–12 months ending 2024-06-30);
    ``outcome``: 1 = defaulted, 0 = repaid; ``probability``: the true probability of default
    (0–1) under the documented model; ``kind``: the generator (a persona's name or
    ``"synthetic"``).
    """

    statements: list[Statement]
    outcome: list[int]
    probability: list[float]
    kind: list[str]


def population(n: int, seed: int = 1) -> Population:
    """``n`` members drawn from ``seed`` (the same ``(n, seed)`` always gives the same
    population, on every platform). Generated in Rust with the GIL released."""
    members = _alama.population(n, seed)
    return Population(
        statements=[m[0] for m in members],
        outcome=[int(m[1]) for m in members],
        probability=[m[2] for m in members],
        kind=[m[3] for m in members],
    )
