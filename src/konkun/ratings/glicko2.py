"""The Glicko-2 rating system, step by step as in Mark Glickman's "Example of the Glicko-2
system" (2012): a rating, its deviation (RD) and its volatility, updated once per rating
period from the period's results.

>>> player = Rating(1500, 200, 0.06)
>>> after = rate(player, [(Rating(1400, 30), 1), (Rating(1550, 100), 0),
...                       (Rating(1700, 300), 0)])
>>> round(after.rating, 2), round(after.rd, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from konkun.errors import KonkunError

SCALE = 173.7178
"""Glicko-2's scale factor between the Glicko scale (1500, RD) and its own (mu, phi)."""

DEFAULT_RATING = 1500.0
DEFAULT_RD = 350.0
"""A new player's deviation; also the most an inactive player's RD grows to."""
DEFAULT_VOLATILITY = 0.06
DEFAULT_TAU = 0.5
"""The system constant: how fast volatility may change (the paper suggests 0.3 to 1.2)."""
CONVERGENCE = 1e-6
"""The paper's tolerance for the volatility iteration."""


class RatingError(KonkunError):
    """A rating, result or system constant that is out of range."""


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's rating on the Glicko scale, its deviation and its volatility."""

    rating: float = DEFAULT_RATING
    rd: float = DEFAULT_RD
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        if not math.isfinite(self.rating):
            raise RatingError(f"invalid rating {self.rating!r}")
        if not (math.isfinite(self.rd) and self.rd > 0):
            raise RatingError(f"invalid rating deviation {self.rd!r}: expected > 0")
        if not (math.isfinite(self.volatility) and self.volatility > 0):
            raise RatingError(f"invalid volatility {self.volatility!r}: expected > 0")

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on the Glicko-2 scale."""
        return self.rd / SCALE

    @staticmethod
    def from_glicko2(mu: float, phi: float, volatility: float) -> Rating:
        """A rating from Glicko-2 scale values."""
        return Rating(DEFAULT_RATING + SCALE * mu, SCALE * phi, volatility)

    def to_json(self) -> dict[str, float]:
        """``{"rating", "rd", "volatility"}``."""
        return {"rating": self.rating, "rd": self.rd, "volatility": self.volatility}


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Rating, opponent: Rating) -> float:
    """The expected score of ``player`` against ``opponent`` (a win counts 1, a draw 0.5),
    both deviations counted: "beats the Strong bot about 60% of the time" is 0.6."""
    combined = math.sqrt(player.phi ** 2 + opponent.phi ** 2)
    return 1 / (1 + math.exp(-_g(combined) * (player.mu - opponent.mu)))


def idle(player: Rating, max_rd: float = DEFAULT_RD) -> Rating:
    """A player who played nothing in the period: the deviation grows (step 6 alone),
    to at most ``max_rd``; rating and volatility stay."""
    phi = math.sqrt(player.phi ** 2 + player.volatility ** 2)
    return Rating(player.rating, min(SCALE * phi, max_rd), player.volatility)


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) = 0 with x = ln(sigma'^2)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        return (ex * (delta * delta - phi * phi - v - ex) / (2 * (phi * phi + v + ex) ** 2)
                - (x - a) / (tau * tau))

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > CONVERGENCE:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2
        high, f_high = middle, f_middle
    return math.exp(low / 2)


def rate(player: Rating, results: Sequence[tuple[Rating, float]], tau: float = DEFAULT_TAU,
         max_rd: float = DEFAULT_RD) -> Rating:
    """The player's rating after one rating period with these results: each an opponent's
    rating at the start of the period and the score against them (1 win, 0.5 draw, 0
    loss). No results: :func:`idle`."""
    if not (math.isfinite(tau) and tau > 0):
        raise RatingError(f"invalid system constant tau {tau!r}: expected > 0")
    if not results:
        return idle(player, max_rd)
    for _, score in results:
        if not 0 <= score <= 1:
            raise RatingError(f"invalid score {score!r}: expected 0 to 1")
    mu, phi = player.mu, player.phi
    inverse_v = 0.0
    improvement = 0.0
    for opponent, score in results:
        g = _g(opponent.phi)
        e = _e(mu, opponent.mu, opponent.phi)
        inverse_v += g * g * e * (1 - e)
        improvement += g * (score - e)
    v = 1 / inverse_v
    sigma = _new_volatility(player.volatility, phi, v, v * improvement, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / v)
    new_mu = mu + new_phi * new_phi * improvement
    return Rating.from_glicko2(new_mu, min(new_phi, max_rd / SCALE), sigma)
