"""The bots' ladder calibrated from arena games: every arena set is a rating period of a
:class:`~konkun.ratings.pool.RatingPool` whose players are the bot specs, each game's
results pairwise by points (``docs/ratings.md``).

>>> periods = [[("greedy", "random", 1.0)] * 5] * 8
>>> ladder = calibrate_ladder(periods, anchor=("random", 1000.0))
>>> ladder["random"].rating, ladder["greedy"].rating > 1300
(1000.0, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from konkun.ratings.glicko2 import DEFAULT_TAU, Rating, RatingError
from konkun.ratings.pool import RatingPool, pairwise_results

if TYPE_CHECKING:
    from konkun.arena.tournament import ArenaReport

Result = tuple[str, str, float]
"""``(player, opponent, player's score)``: 1 win, 0.5 draw, 0 loss."""


def arena_periods(report: ArenaReport) -> list[list[Result]]:
    """An arena run's games as rating periods, one per set: every game (deal or match)
    gives the pairwise results of the entries at its table by their points."""
    names = report.config.names
    periods = []
    for result in report.results:
        period: list[Result] = []
        for game in result.games:
            for i, j, score in pairwise_results(game.points):
                first, second = names[game.seating[i]], names[game.seating[j]]
                if first != second:
                    period.append((first, second, score))
        periods.append(period)
    return periods


def calibrate_ladder(periods: Iterable[Sequence[Result]],
                     anchor: tuple[str, float] | None = None,
                     tau: float = DEFAULT_TAU) -> dict[str, Rating]:
    """Ratings for the ladder's levels from their games against each other, period after
    period from the initial rating; with ``anchor`` (a level and its rating) every rating
    is shifted so that level has it (gaps, deviations and volatilities stay)."""
    pool = RatingPool(tau=tau)
    for period in periods:
        for player, opponent, score in period:
            pool.add_result(player, opponent, score)
        pool.end_period()
    ratings = pool.ratings
    if anchor is None:
        return ratings
    name, value = anchor
    if name not in ratings:
        raise RatingError(f"anchor {name!r} played no game: the levels are {sorted(ratings)}")
    shift = value - ratings[name].rating
    return {level: replace(rating, rating=rating.rating + shift)
            for level, rating in ratings.items()}
