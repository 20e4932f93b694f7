"""Rating periods and multi-player games as pairwise results (docs/ratings.md)."""

from __future__ import annotations

import pytest

from konkun.ratings.glicko2 import Rating, RatingError, idle, rate
from konkun.ratings.pool import RatingPool, pairwise_results


def test_a_multi_player_game_is_every_pair_scored_by_totals() -> None:
    assert pairwise_results([12, 7, 7, 15]) == [
        (0, 1, 1.0), (0, 2, 1.0), (0, 3, 0.0), (1, 2, 0.5), (1, 3, 0.0), (2, 3, 0.0)]
    assert pairwise_results([3, 5]) == [(0, 1, 0.0)]


def test_a_four_player_game_rates_each_player_against_the_other_three() -> None:
    """The winner beat three opponents, the second beat two and lost to one, ...: the
    same ratings as four separate two-player results per player in one period."""
    pool = RatingPool()
    pool.add_game({"ann": 20, "bob": 14, "cyd": 9, "dan": 3})
    after = pool.end_period()
    new = Rating()
    assert after["ann"] == rate(new, [(new, 1.0)] * 3)
    assert after["bob"] == rate(new, [(new, 0.0), (new, 1.0), (new, 1.0)])
    assert after["dan"] == rate(new, [(new, 0.0)] * 3)
    assert after["ann"].rating > after["bob"].rating > after["cyd"].rating \
        > after["dan"].rating


def test_results_of_a_period_use_the_ratings_from_its_start() -> None:
    pool = RatingPool({"ann": Rating(1600, 80), "bob": Rating(1500, 120)})
    pool.add_result("ann", "bob", 1.0)
    pool.add_result("ann", "bob", 0.5)
    after = pool.end_period()
    assert after["ann"] == rate(Rating(1600, 80), [(Rating(1500, 120), 1.0),
                                                   (Rating(1500, 120), 0.5)])
    assert after["bob"] == rate(Rating(1500, 120), [(Rating(1600, 80), 0.0),
                                                    (Rating(1600, 80), 0.5)])
    assert pool.pending == []


def test_a_player_who_sits_out_a_period_only_gets_rd_growth() -> None:
    pool = RatingPool({"ann": Rating(1600, 80), "bob": Rating(1500, 120),
                       "eve": Rating(1700, 60)})
    pool.add_result("ann", "bob", 1.0)
    after = pool.end_period()
    assert after["eve"] == idle(Rating(1700, 60))
    assert after["eve"].rating == 1700
    assert after["eve"].rd > 60


def test_a_new_player_starts_at_the_initial_rating() -> None:
    pool = RatingPool(initial=Rating(1200, 300))
    assert pool.rating("nobody") == Rating(1200, 300)
    pool.join("bot:strong", Rating(1800, 50))
    assert pool.rating("bot:strong") == Rating(1800, 50)


def test_bad_results_are_refused() -> None:
    pool = RatingPool()
    with pytest.raises(RatingError, match="themself"):
        pool.add_result("ann", "ann", 1)
    with pytest.raises(RatingError, match=r"score 1\.5"):
        pool.add_result("ann", "bob", 1.5)
    with pytest.raises(RatingError, match="two players"):
        pool.add_game({"ann": 3})


def test_the_provisional_rating_is_the_period_so_far_and_the_end_agrees() -> None:
    pool = RatingPool({"ann": Rating(1600, 80), "bob": Rating(1500, 120),
                       "eve": Rating(1700, 60)})
    pool.add_game({"ann": 10, "bob": 4})
    assert pool.provisional("ann") == rate(Rating(1600, 80), [(Rating(1500, 120), 1.0)])
    assert pool.provisional("eve") == Rating(1700, 60)  # has not played: unchanged
    assert pool.rating("ann") == Rating(1600, 80)  # the period is still open
    pool.add_game({"bob": 9, "ann": 9})
    expected = pool.provisional("bob")
    assert pool.end_period()["bob"] == expected
