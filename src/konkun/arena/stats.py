"""Statistics for the arena: confidence intervals and Elo ratings, in plain Python.

- :func:`wilson_interval`: the Wilson score interval of a proportion (win rates);
- :func:`mean_interval`: a mean with its Student-t interval (points per game);
- :func:`bradley_terry_elo`: Elo ratings fitted to pairwise results by the
  Bradley-Terry model (minorisation-maximisation), with one virtual draw per pair so that
  a clean sweep gives a large but finite gap.

>>> lo, hi = wilson_interval(8, 10)
>>> round(lo, 3), round(hi, 3)
(0.49, 0.943)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the standard normal distribution."""


def wilson_interval(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of ``successes`` out of ``trials`` (``(0, 1)`` for none).
    Draws may be counted as half successes."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= trials else min(1.0, centre + half)
    return (min(low, p), max(high, p))


def t_quantile(df: int, z: float = Z95) -> float:
    """The two-sided Student-t quantile for ``df`` degrees of freedom matching the normal
    quantile ``z`` (Cornish-Fisher expansion; exact to about 1e-3 from 3 degrees on)."""
    if df <= 0:
        return math.inf
    exact = {1: 12.706, 2: 4.303}
    if df in exact and abs(z - Z95) < 1e-9:
        return exact[df]
    g1 = (z ** 3 + z) / 4
    g2 = (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96
    g3 = (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384
    g4 = (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160
    return z + g1 / df + g2 / df ** 2 + g3 / df ** 3 + g4 / df ** 4


@dataclass(frozen=True, slots=True)
class MeanInterval:
    """A sample mean with its 95% confidence interval."""

    mean: float
    low: float
    high: float
    n: int

    def to_json(self) -> dict[str, float | int]:
        """As JSON data."""
        return {"mean": self.mean, "low": self.low, "high": self.high, "n": self.n}


def mean_interval(values: Sequence[float], z: float = Z95) -> MeanInterval:
    """The mean of ``values`` and its Student-t interval (infinite for fewer than two)."""
    n = len(values)
    if n == 0:
        return MeanInterval(math.nan, -math.inf, math.inf, 0)
    mean = sum(values) / n
    if n == 1:
        return MeanInterval(mean, -math.inf, math.inf, 1)
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(n - 1, z) * math.sqrt(variance / n)
    return MeanInterval(mean, mean - half, mean + half, n)


def bradley_terry_elo(count: int, results: Sequence[tuple[int, int, float]],
                      prior_draws: float = 1.0, base: float = 1500.0,
                      iterations: int = 10_000) -> list[float]:
    """Elo ratings of ``count`` players from pairwise ``results`` ``(i, j, score_i)``
    (score 1 a win of ``i``, 0.5 a draw, 0 a loss), by the Bradley-Terry model.

    ``prior_draws`` virtual draws are added between every pair that met (so ratings
    stay finite); the ratings are shifted so that their mean is ``base``. A rating gap
    of 400 means 10:1 odds.
    """
    wins = [[0.0] * count for _ in range(count)]
    for i, j, score in results:
        wins[i][j] += score
        wins[j][i] += 1.0 - score
    games = [[wins[i][j] + wins[j][i] for j in range(count)] for i in range(count)]
    for i in range(count):
        for j in range(count):
            if i != j and games[i][j] > 0:
                wins[i][j] += prior_draws / 2
                games[i][j] += prior_draws
    strength = [1.0] * count
    for _ in range(iterations):
        new = []
        for i in range(count):
            total_wins = sum(wins[i])
            denominator = sum(games[i][j] / (strength[i] + strength[j])
                              for j in range(count) if j != i and games[i][j] > 0)
            new.append(total_wins / denominator if denominator > 0 else strength[i])
        logs = [math.log(s) if s > 0 else 0.0 for s in new]
        shift = sum(logs) / count
        new = [math.exp(v - shift) for v in logs]
        change = max(abs(a - b) for a, b in zip(new, strength, strict=True))
        strength = new
        if change < 1e-10:
            break
    return [base + 400 * math.log10(s) for s in strength]
