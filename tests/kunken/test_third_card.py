"""The third-card rule's fast paths agree with the listing of third-card melds: the shortest
meld length from bit masks, the same after cards leave the hand, and the take positions."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.kunken.solver import (
    ThirdCardCheck,
    take_options,
    take_positions,
    third_card_length,
    third_card_melds,
)

PACK = [k for k in range(52) for _ in range(2)] + [52] * 4


def after_take(rng: random.Random, held: int, taken: int,
               joker: bool = False) -> tuple[list[int], list[int], int]:
    """A hand after a take: ``held`` old cards plus ``taken`` cards from the bank, the first
    of them the taken card (a joker when ``joker``). Returns (counts, not-old counts, taken
    card)."""
    cards = rng.sample(PACK[:-1], held + taken - 1) if joker else rng.sample(PACK, held + taken)
    if joker:
        cards.insert(held, 52)
    counts = [0] * 53
    notold = [0] * 53
    for c in cards:
        counts[c] += 1
    for c in cards[held:]:
        notold[c] += 1
    return counts, notold, cards[held]


def shortest_listed(card: int, counts: list[int], notold: list[int]) -> int:
    return min((len(m) for m in third_card_melds(card, counts, notold)), default=0)


def remove(counts: list[int], notold: list[int], slots: tuple[int, ...],
           swapped: int = -1) -> tuple[list[int], list[int]]:
    """The hand once ``slots`` leave it (taken copies first), or ``swapped`` goes for a
    joker, as the deal does it."""
    counts = counts.copy()
    notold = notold.copy()
    for s in (*slots, swapped) if swapped >= 0 else slots:
        k = s if s < 52 else 52
        counts[k] -= 1
        if notold[k]:
            notold[k] -= 1
    if swapped >= 0:
        counts[52] += 1
        notold[52] += 1
    return counts, notold


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), held=st.integers(1, 14), taken=st.integers(1, 10),
       joker=st.booleans())
def test_third_card_length_is_the_shortest_listed_meld(seed: int, held: int, taken: int,
                                                       joker: bool) -> None:
    counts, notold, card = after_take(random.Random(seed), held, taken, joker)
    assert third_card_length(card, counts, notold) == shortest_listed(card, counts, notold)


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 10**9), held=st.integers(2, 14), taken=st.integers(1, 8),
       joker=st.booleans())
def test_third_card_check_after_a_step_is_the_shortest_listed_meld(
        seed: int, held: int, taken: int, joker: bool) -> None:
    rng = random.Random(seed)
    counts, notold, card = after_take(rng, held, taken, joker)
    check = ThirdCardCheck(card, counts, notold)
    hand = [k for k in range(53) for _ in range(counts[k])]
    for _ in range(6):
        slots = tuple(sorted(set(rng.sample(hand, rng.randint(1, min(4, len(hand)))))))
        slots = tuple(s if s < 52 else 53 for s in slots)  # a joker as a joker slot
        after = remove(counts, notold, slots)
        assert check.without(slots) == shortest_listed(card, *after)
        real = [k for k in hand if k < 52]
        if real:
            swapped = rng.choice(real)
            after = remove(counts, notold, (), swapped)
            assert check.without((), swapped) == shortest_listed(card, *after)


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 10**9), held=st.integers(1, 13), bank=st.integers(1, 20))
def test_take_positions_without_points_due_match_the_completion_check(
        seed: int, held: int, bank: int) -> None:
    rng = random.Random(seed)
    cards = rng.sample(PACK, held + bank)
    hand = [0] * 53
    for c in cards[:held]:
        hand[c] += 1
    pile = cards[held:]
    assert take_positions(hand, pile, 0) == take_options(hand, pile, 0)
