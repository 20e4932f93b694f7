"""Arena statistics against published values (Wilson 1927; Student-t tables; the Elo
expected-score formula)."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from konkun.arena.stats import bradley_terry_elo, mean_interval, t_quantile, wilson_interval


@pytest.mark.parametrize(("k", "n", "low", "high"), [
    (8, 10, 0.4902, 0.9433),   # Newcombe (1998), table I style worked values
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (50, 100, 0.4038, 0.5962),
])
def test_wilson_interval_matches_known_values(k: int, n: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(k, n)
    assert lo == pytest.approx(low, abs=5e-4)
    assert hi == pytest.approx(high, abs=5e-4)


def test_wilson_interval_of_nothing_is_everything() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)


@given(st.integers(0, 500), st.integers(1, 500))
def test_wilson_interval_holds_the_observed_rate(k: int, n: int) -> None:
    k = min(k, n)
    lo, hi = wilson_interval(k, n)
    assert 0.0 <= lo <= k / n <= hi <= 1.0


@pytest.mark.parametrize(("df", "value"), [(1, 12.706), (2, 4.303), (5, 2.571), (10, 2.228),
                                           (30, 2.042), (120, 1.980)])
def test_t_quantiles_match_the_table(df: int, value: float) -> None:
    assert t_quantile(df) == pytest.approx(value, abs=2e-3)


def test_mean_interval_of_a_known_sample() -> None:
    result = mean_interval([1.0, 2.0, 3.0, 4.0, 5.0])  # mean 3, s = 1.5811, t(4) = 2.776
    assert result.mean == 3.0
    assert result.high - 3.0 == pytest.approx(2.776 * 1.5811 / math.sqrt(5), abs=1e-2)


def test_mean_interval_of_one_value_is_unbounded() -> None:
    assert math.isinf(mean_interval([2.0]).high)


def test_elo_gap_matches_the_expected_score() -> None:
    # 75 wins in 100: expected score 0.75 = 1 / (1 + 10^(-gap/400)), gap = 190.8
    ratings = bradley_terry_elo(2, [(0, 1, 1.0)] * 750 + [(0, 1, 0.0)] * 250)
    assert ratings[0] - ratings[1] == pytest.approx(400 * math.log10(3), abs=1.0)
    assert sum(ratings) / 2 == pytest.approx(1500)


def test_elo_of_equal_players_is_equal_and_a_sweep_stays_finite() -> None:
    even = bradley_terry_elo(2, [(0, 1, 1.0), (0, 1, 0.0), (0, 1, 0.5)])
    assert even[0] == pytest.approx(even[1])
    sweep = bradley_terry_elo(2, [(0, 1, 1.0)] * 20)
    assert math.isfinite(sweep[0]) and sweep[0] > sweep[1]


def test_elo_orders_a_chain_transitively() -> None:
    ratings = bradley_terry_elo(3, [(0, 1, 1.0)] * 8 + [(0, 1, 0.0)] * 2
                                + [(1, 2, 1.0)] * 8 + [(1, 2, 0.0)] * 2)
    assert ratings[0] > ratings[1] > ratings[2]
