"""The C core's memos and bounds in its two hottest parts, the swap-third list and the take
scan (docs/kunken.md, "The two hottest parts"): positions where each is met, the C core's
answers compared with the Python references. The swap walk keeps the states it met by the
swaps made (a set's suits apart), skips a walk that the bound of every table joker won
shows useless, and grows its set past 512 states; the sequence part of the third-card
length is kept by its arguments across calls."""

from __future__ import annotations

import random
from typing import Any

from konkun.kunken import completion, third_card

from .helpers import memory_grown_by
from .test_completion_judge_core import Args, agree, c_module

CARDS = 52
RANKS = 13


def counts(cards: list[int], jokers: int = 0) -> list[int]:
    """A list of 53 counts holding ``cards`` and ``jokers``."""
    out = [0] * (CARDS + 1)
    for k in cards:
        out[k] += 1
    out[CARDS] = jokers
    return out


def open_set(rank: int, suits: int, jokers: int = 1) -> completion.Compact:
    """A set of ``rank`` (a position) of the real ``suits`` (a mask) with open jokers."""
    return (1, rank, suits, 0, jokers)


def walk_case(old_suit: int) -> tuple[list[int], list[int], int, completion.Table]:
    """The taken card at position 4 of suit ``old_suit`` with old cards at positions 2 and
    6 of it: its meld 2-6 needs two jokers, each won from a set (of ranks 6 and 9, real
    suits the other two) by a card of the fourth suit or of ``old_suit``. Giving the 6 of
    ``old_suit`` loses the meld: only the states that give the fourth suit's cards hold it,
    and the walk reaches the one with both after one with the other suit's card given to
    the same set (when that suit comes first), so a key that did not tell a set's suits
    apart would miss it."""
    other = [s for s in range(4) if s != old_suit]
    fourth, reals = other[-1], (1 << other[0]) | (1 << other[1])
    base = old_suit * RANKS
    cards = [base + 2, base + 4, base + 6, fourth * RANKS + 6, fourth * RANKS + 9]
    notold = counts([base + 4])
    return counts(cards), notold, base + 4, (open_set(6, reals), open_set(9, reals))


def test_the_swap_walk_tells_a_sets_suits_apart() -> None:
    """Either suit order (the meld's suit before or after the fourth suit): a meld of 5 only
    after both jokers are won by the fourth suit's cards."""
    hand_search = c_module()
    for old_suit in range(4):
        hand, notold, card, table = walk_case(old_suit)
        expected = completion.reference_swap_third_length(hand, notold, card, table)
        assert expected == 5
        assert hand_search.swap_third_length(hand, notold, card, table) == expected
        # the same answer a second time (the set of states met starts afresh)
        assert hand_search.swap_third_length(hand, notold, card, table) == expected


def test_a_set_won_from_in_either_order_is_one_state() -> None:
    """A set of four with two open jokers: winning both (by two cards, in either order)
    reaches one state; the answer is the reference's."""
    hand_search = c_module()
    for old_suit in range(4):
        hand, notold, card, _ = walk_case(old_suit)
        other = [s for s in range(4) if s != old_suit]
        table = (open_set(9, (1 << other[0]) | (1 << other[1]), 2),)
        hand = counts([k for k in range(CARDS) for _ in range(hand[k])]
                      + [old_suit * RANKS + 9])
        expected = completion.reference_swap_third_length(hand, notold, card, table)
        assert expected == 5
        assert hand_search.swap_third_length(hand, notold, card, table) == expected


def many_states() -> Args:
    """A taken joker and six sets of one open joker, each won by either of two new cards
    of the hand (ranks 7-12 of the first and fourth suits), two old cards apart: the
    judge's arguments."""
    ranks = range(7, 13)
    new = list(ranks) + [3 * RANKS + r for r in ranks]
    old = [RANKS + 0, 2 * RANKS + 3]
    table = tuple(open_set(r, 0b0110) for r in ranks)
    return (counts(new + old, jokers=1), counts(new, jokers=1), CARDS, 0, True, True, table,
            True)


def test_a_walk_over_hundreds_of_states_judges_as_the_reference() -> None:
    """A taken joker and six sets of one open joker, each won by either of two new cards
    of the hand: 729 swap states (the walk's set grows past 512), none with the joker's
    meld (no two old cards together): the judge walks them all, as the reference does."""
    c_module()
    for melds_fail in (True, False):
        assert agree(many_states(), melds_fail) is False


def test_the_sequence_part_of_the_third_card_length_is_kept_by_all_it_reads() -> None:
    """Masks met again with one argument changed (the jokers, the old jokers, proxies, the
    old rank, the pool's rank) after the first answer was kept: each the reference's."""
    hand_search = c_module()
    rng = random.Random(36)
    for _ in range(300):
        p, s = rng.randrange(RANKS), rng.randrange(4)
        pool = rng.getrandbits(RANKS) | 1 << p
        old = pool & rng.getrandbits(RANKS) & ~(1 << p)
        pool_rank = rng.getrandbits(4) | 1 << s
        calls = [(p, s, jokers, old_jokers, old, old_rank, pool, pool_rank, proxies)
                 for jokers in range(8) for old_jokers in range(-2, 5)
                 for old_rank in (0, 1 << ((s + 1) % 4)) for proxies in (False, True)]
        for args in calls + calls[::-1]:
            assert hand_search.shortest_third(*args) == third_card.shortest_third(*args), args


def test_the_walks_set_keeps_no_references_or_memory() -> None:
    """Walks over hundreds of states (the judge's, forgetting its memo each time) and the
    walk of a few, again and again, keep no references and grow no memory."""
    hand_search: Any = c_module()
    args = many_states()
    hand, notold, card, table = walk_case(0)

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            completion.forget_judged()
            assert hand_search.completable(*args) is False
            assert hand_search.swap_third_length(hand, notold, card, table) == 5

    assert memory_grown_by(ask, 5, 100) < 4096
