"""The stable draws of :mod:`konkun.cards`: the shuffle, bounded draws and the sample that
every replayed random choice is made with, from nothing but ``getrandbits`` (issue 10,
item 3). The seed → deal golden files (``tests/golden``) pin the deals themselves."""

from __future__ import annotations

import random
import sys
from collections import Counter
from typing import Any, NoReturn

import pytest
from hypothesis import given
from hypothesis import strategies as st

from konkun.cards import (
    HashRandom,
    below,
    between,
    choice,
    draw_for_dealer,
    rng_for_seed,
    sample,
    shuffle,
    shuffled,
    standard_deck,
)
from konkun.konchinka import KonchinkaRules
from konkun.konchinka.dealing import new_deal
from konkun.kunken.state import KunkenDeal

SEEDS = st.one_of(st.integers(0, 2**64), st.text(max_size=12))
CPYTHON_311 = pytest.mark.skipif(
    sys.version_info[:2] != (3, 11),
    reason="the draws were written to equal CPython 3.11's; later versions may differ, "
           "which is why the engines no longer use them (the golden files still hold)")


class BitsOnly(random.Random):
    """A Mersenne Twister whose only usable draws are ``getrandbits`` (and ``random``,
    which the random playouts use): every other method fails the test."""

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AssertionError("a replayed draw used a Random method other than getrandbits")

    shuffle = randint = randrange = choice = sample = choices = _refuse


@CPYTHON_311
@given(seed=SEEDS, n=st.integers(1, 10**6))
def test_below_draws_what_randrange_draws(seed: int | str, n: int) -> None:
    ours, theirs = rng_for_seed(seed), rng_for_seed(seed)
    assert [below(n, ours) for _ in range(5)] == [theirs.randrange(n) for _ in range(5)]
    assert ours.getstate() == theirs.getstate()


@CPYTHON_311
@given(seed=SEEDS, low=st.integers(-100, 100), width=st.integers(0, 300))
def test_between_draws_what_randint_draws(seed: int | str, low: int, width: int) -> None:
    ours, theirs = rng_for_seed(seed), rng_for_seed(seed)
    assert between(low, low + width, ours) == theirs.randint(low, low + width)


@CPYTHON_311
@given(seed=SEEDS, size=st.integers(0, 120))
def test_shuffle_draws_what_random_shuffle_draws(seed: int | str, size: int) -> None:
    ours, theirs = list(range(size)), list(range(size))
    shuffle(ours, rng_for_seed(seed))
    rng_for_seed(seed).shuffle(theirs)
    assert ours == theirs


@CPYTHON_311
@given(seed=SEEDS, size=st.integers(1, 200), data=st.data())
def test_sample_and_choice_draw_what_random_draws(seed: int | str, size: int,
                                                  data: st.DataObject) -> None:
    k = data.draw(st.integers(0, size))
    population = list(range(size))
    assert sample(population, k, rng_for_seed(seed)) == rng_for_seed(seed).sample(population, k)
    assert choice(population, rng_for_seed(seed)) == rng_for_seed(seed).choice(population)


@given(seed=SEEDS, n=st.integers(1, 1000))
def test_below_stays_in_range(seed: int | str, n: int) -> None:
    rng = rng_for_seed(seed)
    assert all(0 <= below(n, rng) < n for _ in range(20))


def test_below_refuses_an_empty_range() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        below(0, random.Random(1))


def test_below_is_uniform_on_a_bound_that_is_not_a_power_of_two() -> None:
    rng = random.Random(5)
    counts = Counter(below(5, rng) for _ in range(20_000))
    assert set(counts) == set(range(5))
    assert all(3_600 < c < 4_400 for c in counts.values())


@given(seed=SEEDS, size=st.integers(0, 60))
def test_shuffle_is_a_permutation_and_replays_from_the_seed(seed: int | str, size: int) -> None:
    items = list(range(size))
    once, again = shuffled(items, rng_for_seed(seed)), shuffled(items, rng_for_seed(seed))
    assert once == again and sorted(once) == items


def test_every_order_of_three_cards_comes_out_of_the_shuffle() -> None:
    rng = HashRandom("orders")
    counts = Counter(tuple(shuffled("abc", rng)) for _ in range(6_000))
    assert len(counts) == 6 and all(800 < c < 1_200 for c in counts.values())


@given(seed=SEEDS, size=st.integers(0, 100), data=st.data())
def test_sample_takes_distinct_places(seed: int | str, size: int, data: st.DataObject) -> None:
    k = data.draw(st.integers(0, size))
    taken = sample(range(size), k, rng_for_seed(seed))
    assert len(taken) == k == len(set(taken)) and set(taken) <= set(range(size))


def test_sample_refuses_more_than_the_population() -> None:
    with pytest.raises(ValueError, match="expected 0 to 3"):
        sample([1, 2, 3], 4, random.Random(0))


def test_choice_refuses_an_empty_sequence() -> None:
    with pytest.raises(IndexError):
        choice([], random.Random(0))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_konchinka_game_is_dealt_from_getrandbits_alone(seats: int) -> None:
    rng = BitsOnly(3)
    dealer, _rounds = draw_for_dealer(seats, rng)
    for variant in ("classic", "novo"):
        deal = new_deal(KonchinkaRules.preset(variant), seats, dealer, rng)
        deal.observe(0).sample_deal(rng)
    assert shuffled(standard_deck(), rng) != standard_deck()


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_a_kunken_deal_is_dealt_from_getrandbits_alone(seats: int) -> None:
    rng = BitsOnly(3)
    dealer, _rounds = draw_for_dealer(seats, rng)
    KunkenDeal.new(None, seats, dealer, rng).observe(0).sample_deal(rng)

