"""The C core's verdicts on the melds of a legal list after a take while only the taken
card's meld is due, with a layout and ``joker_for_held`` (``hand_search.swap_third_melds``,
run by ``LegalSteps._swap_third_actions`` when built: ``completion.C_SWAP_THIRD_MELDS``)
against its Python reference (``LegalSteps.reference_swap_third_melds``): the same melds in
the same order at every such position of seeded play over every rule option and 2-5 seats
(the turn as the engine meets it and after each of its candidate steps), the same as the
rule's definition on random hands and tables, bad input refused with an error and never a
crash, no references or memory kept."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import completion, solver
from konkun.kunken.melds import BARE_JOKER, compact, slot_card
from konkun.kunken.state import KunkenDeal

from .helpers import assert_given_in_order, memory_grown_by, turns_in_case
from .test_completion_judge_core import compact_melds, joker_bounded_tables
from .test_hand_search_core import DOUBLE_DECK, VARIANTS, counts_of, require_c_core

Args = tuple[list[int], list[int], int, completion.Table, list[tuple[int, ...]], int]
"""``swap_third_melds``' arguments: hand, the cards not held before the take, the taken
card, the table's melds with jokers, the candidate melds, the hand's size."""


def c_melds() -> Any:
    require_c_core()
    assert completion.C_SWAP_THIRD_MELDS is not None
    return completion.C_SWAP_THIRD_MELDS


def in_swap_third_case(deal: KunkenDeal, seat: int) -> bool:
    """Whether ``seat`` is to move in a take turn where only the taken card's meld is due,
    with a layout, ``joker_for_held`` and a taken card that is not a joker (the case
    ``LegalSteps._swap_third_actions`` lists)."""
    return deal.to_move == seat and not deal.obligations_met() and deal.pending and \
        deal.need <= 0 and deal.layout[seat] and deal.rules.joker_for_held and \
        deal.take_card != BARE_JOKER


def swap_third_turns(seats: int, seed: int, steps: int) -> list[KunkenDeal]:
    """Every position of seeded random play over every rule option where the seat to move
    is in a take turn whose only due step is the taken card's meld, with a layout,
    ``joker_for_held`` and a taken card that is not a joker, and the turns after each of its
    candidate steps still in that case."""
    return turns_in_case(VARIANTS, in_swap_third_case, seats, seed, steps)


def engine_args(deal: KunkenDeal) -> Args:
    """The arguments the engine gives the C core at ``deal``'s position."""
    seat = deal.to_move
    assert seat is not None
    hand = deal.hands[seat]
    table = tuple(m for m in deal.compact_table() if completion.has_jokers(m))
    return (hand, deal.turn_notold, deal.take_card, table, deal.candidate_melds(hand),
            deal.hand_sizes[seat])


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_swap_third_melds_answer_as_the_reference_in_seeded_play(seats: int) -> None:
    """At each position of :func:`swap_third_turns` the C core offers the melds of the
    Python reference, in its order, and leaves its arguments as they were."""
    swap_third_melds = c_melds()
    asked = offered = candidates = 0
    for deal in swap_third_turns(seats, 500, 400):
        seat = deal.to_move
        assert seat is not None
        args = engine_args(deal)
        if not args[0][args[2]]:  # the taken card gone: left to the reference
            with pytest.raises(ValueError, match="hand does not hold the taken card"):
                swap_third_melds(*args)
            continue
        before = [list(args[0]), list(args[1]), list(args[4])]
        expected = deal.reference_swap_third_melds(seat, args[0], args[4])
        floor, answer = swap_third_melds(*args)
        assert answer == expected, args
        assert floor == completion.reference_swap_third_length(*args[:4])
        assert [list(args[0]), list(args[1]), list(args[4])] == before
        asked += 1
        offered += len(answer)
        candidates += len(args[4])
    assert asked > 100
    assert 0 < offered < candidates


def defined_melds(args: Args) -> list[tuple[int, ...]]:
    """The rule's definition of the legal melds: the taken card's meld, or a meld after
    which the shortest third-card meld over every choice of swaps with the table and the
    meld laid (:func:`completion.reference_swap_third_length`) is shorter than the hand
    left."""
    hand, notold, card, table, melds, size = args
    out = []
    for slots in melds:
        left = size - len(slots)
        if left <= 0:
            continue
        if card in slots and solver.is_third_card_meld(slots, card, hand, notold):
            out.append(slots)
            continue
        rest, rest_notold = list(hand), list(notold)
        for x in slots:
            k = slot_card(x)
            rest[k] -= 1
            if rest_notold[k]:
                rest_notold[k] -= 1
        laid = compact(slots)
        after = (*table, laid) if completion.has_jokers(laid) else table
        if 0 < completion.reference_swap_third_length(rest, rest_notold, card, after) < left:
            out.append(slots)
    return out


@st.composite
def random_args(draw: st.DrawFn) -> Args:
    """A hand of up to 16 cards of the two decks and up to 4 jokers, some not held before
    the take, a taken card it holds, a table of up to 3 melds with jokers, and every meld
    the hand can lay (with the declared set jokers) as the candidates."""
    cards = draw(st.lists(st.sampled_from(range(104)), min_size=1, max_size=16, unique=True))
    hand = counts_of([DOUBLE_DECK[i] for i in cards])
    hand[BARE_JOKER] = draw(st.integers(0, 4))
    notold = [draw(st.integers(0, n)) if n and draw(st.booleans()) else 0 for n in hand]
    card = DOUBLE_DECK[draw(st.sampled_from(cards))]
    notold[card] = max(notold[card], 1)
    table = tuple(m for m in draw(joker_bounded_tables(7 - hand[BARE_JOKER]))
                  if completion.has_jokers(m))
    melds = solver.hand_melds(hand, True)
    melds += [v for m in list(melds) for v in solver.declared_set_variants(m)]
    size = sum(hand) + draw(st.sampled_from([0, 0, 0, -1, 2]))
    return hand, notold, card, table, melds, size


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_args())
def test_the_c_swap_third_melds_answer_as_the_definition_on_random_states(args: Args) -> None:
    """The melds of :func:`defined_melds`, and the length now."""
    assert c_melds()(*args) == (completion.reference_swap_third_length(*args[:4]),
                                defined_melds(args))


GOOD: list[object] = [counts_of([0, 1, 2, 3]), [0] * 53, 0, (), [(0, 1, 2)], 4]


@pytest.mark.parametrize(("index", "bad", "message"), [
    (0, [0] * 52, "hand must have 53"),
    (0, (0,) * 53, "hand must be a list"),
    (1, [0] * 54, "notold must have 53"),
    (2, 52, "card is 52"),
    (2, -1, "card is -1"),
    (2, "Ac", "card must be an int"),
    (2, 4, "hand does not hold the taken card 4"),
    (3, [(0, 0, 0, 3, 1)], "table must be a tuple"),
    (3, ((0, 0, 0, 14, 1),), "length of table meld 0 is 14"),
    (4, ((0, 1, 2),), "melds must be a list"),
    (4, [[0, 1, 2]], "meld 0 must be a tuple"),
    (4, [(0, 1)], "meld 0 is \\(0, 1\\): not 3 to 13 slots"),
    (4, [(0, 1, 2), tuple(range(14))], "meld 1 is .*: not 3 to 13 slots"),
    (4, [(0, 1, "2c")], "slot of meld 0 must be an int"),
    (4, [(0, 1, 200)], "slot of meld 0 is 200"),
    (4, [(0, 1, True)], "slot of meld 0 must be an int"),
    (4, [(0, 2, 3)], "meld 0 is \\(0, 2, 3\\), not a meld in canonical form"),
    (4, [(1, 0, 2)], "not a meld in canonical form"),
    (4, [(52, 0, 1)], "not a meld in canonical form"),
    (4, [(0, 13, 106)], "not a meld in canonical form"),
    (4, [(0, 13, 105)], "more than the hand holds"),
    (4, [(13, 0, 26)], "not a meld in canonical form"),
    (4, [(0, 13, 26, 39, 105)], "not a meld in canonical form"),
    (4, [(0, 55, 56, 57)], "not a meld in canonical form"),
    (4, [(4, 5, 6)], "meld 0 is \\(4, 5, 6\\), more than the hand holds"),
    (4, [(0, 1, 2, 56)], "more than the hand holds"),
    (5, 2**40, "size is"),
    (5, None, "size must be an int"),
])
def test_bad_input_to_the_c_swap_third_melds_raises(index: int, bad: object,
                                                   message: str) -> None:
    swap_third_melds = c_melds()
    args = list(GOOD)
    args[index] = bad
    with pytest.raises((TypeError, ValueError), match=message):
        swap_third_melds(*args)
    assert swap_third_melds(*GOOD) == (3, [(0, 1, 2)])


slots = st.integers(-2, 120)
junk = st.one_of(st.none(), st.text(max_size=2), st.floats(), st.booleans(), slots)
RANDOM_MELDS = st.lists(st.one_of(st.lists(slots, min_size=2, max_size=14).map(tuple),
                                  st.lists(junk, max_size=4).map(tuple), junk), max_size=6)
"""Candidate melds as random input: tuples of random slots and lengths, tuples of anything,
or not tuples."""


@st.composite
def random_input(draw: st.DrawFn) -> list[object]:
    """Arguments that are mostly well formed, with random melds (of random slots, lengths
    and types) and now and then a random object anywhere."""
    hand = [draw(st.integers(0, 3)) for _ in range(52)] + [draw(st.integers(0, 7))]
    notold = [draw(st.integers(0, n)) for n in hand]
    melds = draw(RANDOM_MELDS)
    args: list[object] = [hand, notold, draw(st.integers(-1, 53)),
                          tuple(draw(st.lists(compact_melds(), max_size=3))), melds,
                          draw(st.integers(-3, 60))]
    if draw(st.integers(0, 4)) == 0:
        args[draw(st.integers(0, 5))] = draw(junk)
    return args


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_input())
def test_random_input_to_the_c_swap_third_melds_is_refused_or_answered(
        args: list[object]) -> None:
    """An error naming the input, or melds of those given, in order (the same objects)."""
    try:
        floor, answer = c_melds()(*args)
    except (TypeError, ValueError):
        return
    assert floor >= 0
    melds = args[4]
    assert isinstance(melds, list)
    assert_given_in_order(answer, melds)


def test_the_c_swap_third_melds_keep_no_references_or_memory() -> None:
    """Many calls (answered and refused) leave the arguments' reference counts and the
    traced memory as they were."""
    swap_third_melds = c_melds()
    argss = [args for args in map(engine_args, swap_third_turns(2, 501, 300))
             if args[0][args[2]]][:20]
    assert argss
    bad = (0, 2, 3)
    held = [x for args in argss for x in (args[0], args[1], args[3], args[4], *args[4])]
    counts = [sys.getrefcount(x) for x in held]

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            for args in argss:
                swap_third_melds(*args)
                with pytest.raises(ValueError, match="canonical form"):
                    swap_third_melds(*args[:4], [*args[4], bad], args[5])

    grown = memory_grown_by(ask, 5, 100)
    assert grown < 20_000, grown
    assert [sys.getrefcount(x) for x in held] == counts


def test_a_meld_leaving_as_many_cards_as_the_shortest_third_card_meld_after_swaps_is_refused(
        ) -> None:
    """2d taken, 4d 6d 8d 9d Ad and two jokers held before the take, the table's Jd-Qd-Kd
    with a joker for Jd: laying X=6d X=7d 8d 9d leaves 2d 4d 6d Ad, which make no meld of 2d
    with two old cards, and after winning back the joker for 6d one of 4 (Ad 2d X 4d): as
    long as the hand left, so the turn could not be completed and the meld is refused; in a
    hand of 9 it leaves room (the walk's verdict at its bound)."""
    hand = counts_of([13, 15, 17, 19, 20, 25, 52, 52])
    notold = counts_of([13])
    table = ((0, 1, 9, 3, 1 << 9),)
    laid = (70, 71, 19, 20)
    rest = counts_of([13, 15, 17, 25])
    assert solver.third_card_length(13, rest, notold, True) == 0
    assert completion.reference_swap_third_length(rest, notold, 13,
                                                  (*table, compact(laid))) == 4
    args: Args = (hand, notold, 13, table, [laid], 8)
    assert defined_melds(args) == []
    assert c_melds()(*args)[1] == []
    assert c_melds()(hand, notold, 13, table, [laid], 9)[1] == [laid]
