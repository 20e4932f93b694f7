"""The solver: the most valuable arrangement of a hand, and the take hints."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.kunken.melds import check_meld
from konkun.kunken.solver import best_arrangement, max_meld_points, take_options
from konkun.kunken.state import counts_of

from .helpers import counts, idx


def brute_force(cards: list[int], leave_one: bool) -> int:
    """The best points by trying every partition into melds (check_meld's readings, jokers
    only where the hand lacks the card: the default rule)."""
    best = 0 if not leave_one or cards else -1
    if not cards:
        return best

    def search(rest: list[int], points: int, left: bool = False) -> None:
        nonlocal best
        if not leave_one or rest or left:
            best = max(best, points)
        if len(rest) < 3:
            return
        first = rest[0]
        others = rest[1:]
        for size in range(2, min(len(others), 12) + 1):
            for combo in set(itertools.combinations(others, size)):
                meld = [first, *combo]
                check = check_meld(meld)
                if not check.valid:
                    continue
                remaining = list(others)
                for c in combo:
                    remaining.remove(c)
                held = set(cards)
                for reading in check.alternatives or (check.slots,):
                    if any(53 <= s < 105 and s - 53 in held for s in reading):
                        continue
                    search(remaining, points + sum(_points(s) for s in reading), left)
        search(others, points, True)

    search(sorted(cards), 0)
    return best


def _points(slot: int) -> int:
    if slot < 52:
        return 10 if slot % 13 >= 9 else 5
    if slot >= 105:
        return 10 if (slot - 105) >= 9 else 5
    return 10 if (slot - 53) % 13 >= 9 else 5


def test_solver_source_example_fifty() -> None:
    hand = counts("Kc Kh Ks 3d 4d 5d 6d")
    assert max_meld_points(hand) == 50
    assert max_meld_points(hand, leave_one=True) == 45   # 3d left: Kc Kh Ks + 4d 5d 6d


def test_solver_best_arrangement_adds_up() -> None:
    hand = counts("Kc Kh Ks Ac Ad Ah Qc Qd 2h 3h 4h X 9s")
    melds = best_arrangement(hand, leave_one=True)
    assert sum(sum(_points(s) for s in m) for m in melds) == max_meld_points(hand, True)
    used = [min(s, 52) for m in melds for s in m]
    for k in set(used):
        assert used.count(k) <= hand[k]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**9), size=st.integers(3, 8))
def test_solver_matches_a_brute_force_on_small_hands(seed: int, size: int) -> None:
    rng = random.Random(seed)
    pool = [k for k in range(26, 52) for _ in range(2)] + [52, 52]  # two suits, few jokers
    cards = rng.sample(pool, size)
    for leave in (False, True):
        assert max_meld_points(counts_of(cards), leave) == brute_force(cards, leave)


def test_take_options_hint() -> None:
    hand = counts("Kc Kh Ks 3d 4d 6d 9c 2s")
    bank = idx("Tc 5d 7s")
    assert take_options(hand, bank, 50) == [1]
    assert take_options(hand, bank, 0) == [1]


def test_take_hints_say_how() -> None:
    from konkun.kunken.completion import take_hints

    hand = counts("Kc Kh Ks 3d 4d 6d 9c 2s")
    bank = idx("Tc 5d 7s")
    [(position, melds)] = take_hints(hand, bank, 50)
    assert position == 1
    assert idx("5d")[0] in melds[0]                   # the first meld holds the taken card
    assert sum(sum(_points(s) for s in m) for m in melds) >= 50
