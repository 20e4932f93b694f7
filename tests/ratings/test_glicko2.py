"""Glicko-2 against the worked example of Glickman's "Example of the Glicko-2 system",
and the rules the paper states for periods without games."""

from __future__ import annotations

import doctest
import importlib
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from konkun.ratings.glicko2 import (
    DEFAULT_RD,
    SCALE,
    Rating,
    RatingError,
    expected_score,
    idle,
    rate,
)

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_the_papers_worked_example() -> None:
    """r = 1500, RD = 200, sigma = 0.06, tau = 0.5 against 1400/30 (win), 1550/100 (loss)
    and 1700/300 (loss): mu' = -0.2069, phi' = 0.8722, sigma' = 0.05999, so r' = 1464.06
    and RD' = 151.52 (the paper converts its rounded mu')."""
    after = rate(PLAYER, OPPONENTS, tau=0.5)
    assert after.mu == pytest.approx(-0.2069, abs=5e-5)
    assert after.phi == pytest.approx(0.8722, abs=5e-5)
    assert after.volatility == pytest.approx(0.05999, abs=1e-5)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)


def test_the_papers_scale_conversion() -> None:
    """Step 2: mu = (r - 1500) / 173.7178, phi = RD / 173.7178."""
    assert Rating(1400, 30).mu == pytest.approx(-0.5756, abs=5e-5)
    assert Rating(1400, 30).phi == pytest.approx(0.1727, abs=5e-5)
    assert Rating(1700, 300).mu == pytest.approx(1.1513, abs=5e-5)
    assert SCALE == 173.7178


def test_a_player_who_plays_nothing_only_gets_rd_growth() -> None:
    """The paper: if a player does not compete, phi' = sqrt(phi^2 + sigma^2), rating and
    volatility unchanged."""
    after = rate(PLAYER, [])
    assert after.rating == PLAYER.rating
    assert after.volatility == PLAYER.volatility
    assert after.phi == pytest.approx(math.sqrt(PLAYER.phi ** 2 + 0.06 ** 2))
    assert after.rd > PLAYER.rd


def test_the_deviation_of_an_idle_player_stops_at_a_new_players() -> None:
    veteran = Rating(1800, 340, 0.06)
    for _ in range(100):
        veteran = idle(veteran)
    assert veteran.rd == DEFAULT_RD
    assert veteran.rating == 1800


def test_a_win_raises_and_a_loss_lowers_the_rating() -> None:
    opponent = Rating(1500, 100)
    assert rate(PLAYER, [(opponent, 1.0)]).rating > 1500
    assert rate(PLAYER, [(opponent, 0.0)]).rating < 1500
    assert rate(PLAYER, [(opponent, 0.5)]).rating == pytest.approx(1500)


def test_expected_score_is_symmetric_and_half_for_equals() -> None:
    strong, weak = Rating(1700, 60), Rating(1500, 80)
    assert expected_score(strong, weak) + expected_score(weak, strong) == pytest.approx(1)
    assert expected_score(weak, weak) == pytest.approx(0.5)
    assert 0.5 < expected_score(strong, weak) < 1


@given(st.floats(1000, 2000), st.floats(30, 350), st.lists(
    st.tuples(st.floats(1000, 2000), st.floats(30, 350), st.sampled_from([0.0, 0.5, 1.0])),
    min_size=1, max_size=8))
def test_games_never_widen_the_deviation_beyond_the_idle_growth(
        rating: float, rd: float, games: list[tuple[float, float, float]]) -> None:
    player = Rating(rating, rd)
    after = rate(player, [(Rating(r, d), s) for r, d, s in games])
    assert math.isfinite(after.rating)
    assert after.rd <= idle(Rating(rating, rd, after.volatility)).rd + 1e-9
    scores = [s for _, _, s in games]
    if all(s == 1.0 for s in scores):
        assert after.rating > rating
    if all(s == 0.0 for s in scores):
        assert after.rating < rating


@pytest.mark.parametrize(("arguments", "words"), [
    ((1500, 0, 0.06), "deviation"), ((1500, 200, -1), "volatility"),
    ((math.nan, 200, 0.06), "rating"),
])
def test_an_invalid_rating_is_refused(arguments: tuple[float, float, float],
                                      words: str) -> None:
    with pytest.raises(RatingError, match=words):
        Rating(*arguments)


def test_an_invalid_score_or_tau_is_refused() -> None:
    with pytest.raises(RatingError, match="score 2"):
        rate(PLAYER, [(Rating(), 2)])
    with pytest.raises(RatingError, match="tau"):
        rate(PLAYER, OPPONENTS, tau=0)


@pytest.mark.parametrize("name", ["glicko2", "pool", "calibration"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(f"konkun.ratings.{name}"))
    assert result.failed == 0


def test_fairness_docstring_examples() -> None:
    assert doctest.testmod(importlib.import_module("konkun.fairness")).failed == 0
