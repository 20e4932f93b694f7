"""The bots' ladder rated from arena results: simulated levels of known strength are
recovered, and a real arena run ranks the greedy bot above the random one."""

from __future__ import annotations

import random

import pytest

from konkun.ratings.calibration import Result, arena_periods, calibrate_ladder
from konkun.ratings.glicko2 import RatingError

TRUE = {"random": 1000.0, "greedy": 1300.0, "strong": 1500.0}


def _simulated_periods(periods: int, games: int, seed: int = 1) -> list[list[Result]]:
    """Games between the levels, each won with the logistic probability of the true gap
    (Elo's 400-point scale, which Glicko's rating scale shares)."""
    rng = random.Random(seed)
    names = list(TRUE)
    out = []
    for _ in range(periods):
        period: list[Result] = []
        for i, first in enumerate(names):
            for second in names[i + 1:]:
                p = 1 / (1 + 10 ** ((TRUE[second] - TRUE[first]) / 400))
                period += [(first, second, 1.0 if rng.random() < p else 0.0)
                           for _ in range(games)]
        out.append(period)
    return out


def test_calibration_recovers_the_gaps_between_levels() -> None:
    ladder = calibrate_ladder(_simulated_periods(40, 25), anchor=("random", 1000.0))
    assert ladder["random"].rating == 1000.0
    assert ladder["greedy"].rating == pytest.approx(1300, abs=60)
    assert ladder["strong"].rating == pytest.approx(1500, abs=60)
    assert all(r.rd < 60 for r in ladder.values())


def test_the_anchor_only_shifts() -> None:
    periods = _simulated_periods(5, 10)
    free = calibrate_ladder(periods)
    anchored = calibrate_ladder(periods, anchor=("strong", 2000.0))
    shift = 2000.0 - free["strong"].rating
    for level in TRUE:
        assert anchored[level].rating == pytest.approx(free[level].rating + shift)
        assert anchored[level].rd == free[level].rd
    with pytest.raises(RatingError, match="anchor 'nobody'"):
        calibrate_ladder(periods, anchor=("nobody", 1500.0))


def test_an_arena_run_is_rated_greedy_above_random() -> None:
    from konkun.arena.tournament import ArenaConfig, run_arena

    report = run_arena(ArenaConfig("konchinka", ("random", "greedy"), 2, 40, seed=3))
    periods = arena_periods(report)
    assert len(periods) == len(report.results)
    assert sum(len(p) for p in periods) == report.games  # one pair per two-player deal
    ladder = calibrate_ladder(periods)
    assert ladder["greedy"].rating > ladder["random"].rating + 100


def test_three_player_arena_games_give_three_pairs_each() -> None:
    from konkun.arena.tournament import ArenaConfig, run_arena

    report = run_arena(ArenaConfig("kunken", ("random", "greedy", "random"), 3, 3, seed=1))
    periods = arena_periods(report)
    assert sum(len(p) for p in periods) == 3 * report.games
    names = {name for period in periods for pair in period for name in pair[:2]}
    assert names == {"random", "greedy", "random#2"}
