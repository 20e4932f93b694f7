"""The C core's legal list after a take while only the taken card's meld is due, with a
layout and ``joker_for_held`` (``hand_search.swap_third_list``, run by
``LegalSteps._swap_third_actions`` when built: ``legal_steps.C_SWAP_THIRD_LIST``) against
its Python reference (``LegalSteps.reference_swap_third_actions``): the same melds,
lay-offs and swaps in the same order at every such position of seeded play over every
rule option and 2-5 seats (the turn as the engine meets it and after each of its candidate
steps) and in a pure Python process, the same as the rule's definition on random hands and
tables, bad input refused with an error and never a crash, no references or memory kept."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import completion, legal_steps
from konkun.kunken.actions import Action, layoff, meld, swap
from konkun.kunken.melds import BARE_JOKER, JOKER_FOR, OPEN_JOKER, SEQUENCE, SET, TableMeld
from konkun.kunken.state import KunkenDeal

from .helpers import memory_grown_by, pure_lists_agree
from .test_completion_judge_core import RANDOM_VALUES, compact_melds, joker_bounded_tables
from .test_hand_search_core import VARIANTS, counts_of, require_c_core
from .test_swap_third_melds_core import (
    defined_melds,
    in_swap_third_case,
    random_args,
    swap_third_turns,
)

Args = tuple[list[int], list[int], int, completion.Table, list[tuple[int, ...]], int,
             list[list[tuple[int, int]]], list[Action]]
"""``swap_third_list``'s arguments: hand, the cards not held before the take, the taken
card, the table (every meld's compact form), the candidate melds, the hand's size, each
table meld's lay-off options, the candidate swaps."""


def c_list() -> Any:
    require_c_core()
    assert legal_steps.C_SWAP_THIRD_LIST is not None
    return legal_steps.C_SWAP_THIRD_LIST


def engine_args(deal: KunkenDeal) -> Args:
    """The arguments the engine gives the C core at ``deal``'s position."""
    seat = deal.to_move
    assert seat is not None
    hand = deal.hands[seat]
    return (hand, deal.turn_notold, deal.take_card, deal.compact_table(),
            deal.candidate_melds(hand), deal.hand_sizes[seat],
            [tm.layoff_options() for tm in deal.melds], deal.swap_steps(seat, hand))


def as_actions(answer: tuple[list[tuple[int, ...]], list[tuple[int, int]], list[Action]]
               ) -> list[Action]:
    """The C core's answer as the legal list it makes."""
    melds, layoffs, swaps = answer
    return [*map(meld, melds), *(layoff(m, slot) for m, slot in layoffs), *swaps]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_swap_third_list_answers_as_the_reference_in_seeded_play(seats: int) -> None:
    """At each position of :func:`swap_third_turns` the C core lists the reference's melds,
    lay-offs and swaps, in its order, and leaves its arguments as they were."""
    swap_third_list = c_list()
    asked = layoffs = layoffs_offered = swaps = swaps_offered = 0
    for deal in swap_third_turns(seats, 800, 400):
        seat = deal.to_move
        assert seat is not None
        args = engine_args(deal)
        hand = args[0]
        if not hand[args[2]]:  # the taken card gone: left to the reference
            with pytest.raises(ValueError, match="hand does not hold the taken card"):
                swap_third_list(*args)
            continue
        before = [list(hand), list(args[1]), list(args[4]), [list(o) for o in args[6]],
                  list(args[7])]
        expected = deal.reference_swap_third_actions(seat, hand, args[4])
        answer = swap_third_list(*args)
        assert as_actions(answer) == expected, args
        assert [list(hand), list(args[1]), list(args[4]), [list(o) for o in args[6]],
                list(args[7])] == before
        asked += 1
        layoffs += sum(1 for options in args[6] for k, _ in options if hand[k])
        layoffs_offered += len(answer[1])
        swaps += len(args[7])
        swaps_offered += len(answer[2])
    assert asked > 100
    assert 0 < layoffs_offered < layoffs
    assert swaps_offered < swaps


@pytest.mark.parametrize("seats", [2, 4])
def test_the_c_swap_third_list_answers_as_a_pure_process_in_seeded_play(seats: int) -> None:
    """The same seeded play in a pure Python process (``KONKUN_PURE=1``: the reference
    lists) and here (the C core) meets the same positions of the case and lists the same
    legal actions at each."""
    c_list()
    seeds = [900 * v + seats for v in range(len(VARIANTS))]
    assert pure_lists_agree("legal_steps.C_SWAP_THIRD_LIST", VARIANTS, in_swap_third_case,
                            seats, seeds, 400) > 50


def table_meld(m: completion.Compact) -> TableMeld:
    """A table meld whose compact form is ``m`` (as :func:`compact_melds` draws them)."""
    if m[0] == 0:
        _, suit, start, length, jmask = m
        places = [(start + i) % 13 for i in range(length)]
        slots = [suit * 13 + q + (JOKER_FOR if jmask >> q & 1 else 0) for q in places]
    else:
        _, rank, real, decl, n_open = m
        slots = [t * 13 + rank for t in range(4) if real >> t & 1]
        slots += [JOKER_FOR + t * 13 + rank for t in range(4) if decl >> t & 1]
        slots += [OPEN_JOKER + rank] * n_open
    tm = TableMeld(1, slots, kind=SEQUENCE if m[0] == 0 else SET)
    assert tm.compact() == m
    return tm


def defined_steps(args: Args, melds: list[TableMeld]) -> tuple[list[tuple[int, int]],
                                                               list[Action]]:
    """The rule's definition of the legal lay-offs and swaps: a step after which the
    shortest third-card meld over every choice of swaps with the table as it leaves it
    (:func:`completion.reference_swap_third_length`) is shorter than the hand left."""
    hand, notold, card, table, _, size, options, swaps = args

    def legal(number: int, after: TableMeld, k: int, fresh: int, left: int) -> bool:
        rest, rest_notold = list(hand), list(notold)
        rest[k] -= 1
        if rest_notold[k]:
            rest_notold[k] -= 1
        rest[BARE_JOKER] += fresh
        rest_notold[BARE_JOKER] += fresh
        changed = [*table[:number], after.compact(), *table[number + 1:]]
        jokered = tuple(m for m in changed if completion.has_jokers(m))
        return 0 < completion.reference_swap_third_length(rest, rest_notold, card,
                                                          jokered) < left

    layoffs = []
    for number, pairs in enumerate(options):
        for k, slot in pairs:
            after = melds[number].copy()
            after.lay_off(slot, 0)
            if hand[k] and legal(number, after, k, 0, size - 1):
                layoffs.append((number, slot))
    kept = []
    for action in swaps:
        assert action.number is not None
        after = melds[action.number].copy()
        after.swap(action.slots[0])
        if legal(action.number, after, action.slots[0], 1, size):
            kept.append(action)
    return layoffs, kept


@st.composite
def random_list_args(draw: st.DrawFn) -> tuple[Args, list[TableMeld]]:
    """:func:`random_args`' hand, taken card and candidate melds, with a table of up to 4
    melds (with and without jokers), its lay-off options and the swaps the hand can make."""
    hand, notold, card, _, melds, size = draw(random_args())
    tms = [table_meld(m) for m in draw(joker_bounded_tables(7 - hand[BARE_JOKER], 4))]
    swaps = [swap(number, k) for number, tm in enumerate(tms)
             for k, _ in completion.swaps(tm.compact(), hand)]
    return (hand, notold, card, tuple(tm.compact() for tm in tms), melds, size,
            [tm.layoff_options() for tm in tms], swaps), tms


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_list_args())
def test_the_c_swap_third_list_answers_as_the_definition_on_random_states(
        drawn: tuple[Args, list[TableMeld]]) -> None:
    """The melds of :func:`defined_melds` (over the table's melds with jokers), then the
    lay-offs and swaps of :func:`defined_steps`."""
    args, tms = drawn
    jokered = tuple(m for m in args[3] if completion.has_jokers(m))
    melds = defined_melds((*args[:3], jokered, args[4], args[5]))
    assert c_list()(*args) == (melds, *defined_steps(args, tms))


def good_args() -> list[Any]:
    """2c 3c 4c 5c 6c and a joker, 2c taken, the table's 3d 4d 5d and a set of sevens with
    a joker for 7s: arguments the C core answers."""
    sequence, sevens = TableMeld(1, [14, 15, 16]), TableMeld(1, [5, 18, JOKER_FOR + 44])
    hand = counts_of([0, 1, 2, 3, 4, 17, 44, BARE_JOKER])
    return [hand, [0] * 53, 0, (sequence.compact(), sevens.compact()), [(0, 1, 2)], 8,
            [sequence.layoff_options(), sevens.layoff_options()], [swap(1, 44)]]


@pytest.mark.parametrize(("index", "bad", "message"), [
    (0, [0] * 52, "hand must have 53"),
    (2, 52, "card is 52"),
    (2, 5, "hand does not hold the taken card 5"),
    (3, [(0, 1, 1, 3, 0)], "table must be a tuple"),
    (4, [(0, 2, 3)], "not a meld in canonical form"),
    (5, None, "size must be an int"),
    (6, ([(13, 13)], []), "options must be a list of 2 lists"),
    (6, [[(13, 13)]], "options must be a list of 2 lists"),
    (6, [((13, 13),), []], "options 0 must be a list"),
    (6, [[(13, 13, 0)], []], "option 0 of meld 0 is \\(13, 13, 0\\), not a \\(card, slot\\)"),
    (6, [[[17, 17]], []], "option 0 of meld 0 is \\[17, 17\\], not a \\(card, slot\\)"),
    (6, [[(53, 53)], []], "card of option 0 is 53"),
    (6, [[("7d", 17)], []], "card of option 0 must be an int"),
    (6, [[(17, 118)], []], "slot of option 0 is 118"),
    (6, [[(17, 4)], []], "option 0 of meld 0 is \\(17, 4\\), not a lay-off onto it"),
    (6, [[(17, 13)], []], "option 0 of meld 0 is \\(17, 13\\), not a lay-off onto it"),
    (6, [[(4, 4)], []], "option 0 of meld 0 is \\(4, 4\\), not a lay-off onto it"),
    (6, [[], [(BARE_JOKER, JOKER_FOR + 31)]], "not a lay-off onto it"),
    (6, [[(BARE_JOKER, OPEN_JOKER + 4)], []], "not a lay-off onto it"),
    (7, (swap(1, 44),), "swaps must be a list"),
    (7, [layoff(1, 44)], "swap 0 is .*, not a swap"),
    (7, [swap(2, 44)], "meld number of swap 0 is 2"),
    (7, [swap(1, 52)], "card of swap 0 is 52"),
    (7, [swap(1, 31)], "swap 0 is .*, not one the hand can make"),
    (7, [swap(0, 17)], "swap 0 is .*, not one the hand can make"),
    (7, [Action(swap(1, 44).kind, 1, (44, 5))], "swap 0 has slots \\(44, 5\\), not one card"),
    (7, [None], "'NoneType' object has no attribute 'kind'"),
])
def test_bad_input_to_the_c_swap_third_list_raises(index: int, bad: object,
                                                  message: str) -> None:
    swap_third_list = c_list()
    args = good_args()
    args[index] = bad
    with pytest.raises((TypeError, ValueError, AttributeError), match=message):
        swap_third_list(*args)
    args = good_args()
    answer = swap_third_list(*args)
    assert answer[0] == [(0, 1, 2)]
    assert answer == (args[4], *defined_steps(tuple(args),  # type: ignore[arg-type]
                                              [TableMeld(1, [14, 15, 16]),
                                               TableMeld(1, [5, 18, JOKER_FOR + 44])]))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_input_to_the_c_swap_third_list_is_refused_or_answered(
        data: st.DataObject) -> None:
    """Random lay-off options and swaps onto random tables (and now and then a random value
    anywhere): an error naming the input, or lay-offs of those given and swaps of those
    given (the same objects), in order."""
    swap_third_list = c_list()
    args = good_args()
    tables = data.draw(st.lists(compact_melds(), max_size=3))
    args[3] = tuple(tables)
    pair = st.tuples(st.integers(-1, 53), st.integers(-1, 120))
    args[6] = data.draw(st.lists(st.lists(st.one_of(pair, RANDOM_VALUES), max_size=5),
                                 min_size=len(tables), max_size=len(tables)))
    args[7] = data.draw(st.lists(st.builds(
        swap, st.integers(-1, 4), st.integers(-1, 53)), max_size=4))
    if data.draw(st.integers(0, 4)) == 0:
        args[data.draw(st.integers(0, 7))] = data.draw(RANDOM_VALUES)
    try:
        melds, layoffs, swaps = swap_third_list(*args)
    except (TypeError, ValueError, AttributeError):
        return
    options = [(number, slot) for number, pairs in enumerate(args[6]) for _, slot in pairs]
    at = 0
    for step in layoffs:
        at = options.index(step, at) + 1
    given_ids = [id(s) for s in args[7]]
    at = 0
    for s in swaps:
        at = given_ids.index(id(s), at) + 1
    assert melds == args[4] or melds == []


def test_the_c_swap_third_list_keeps_no_references_or_memory() -> None:
    """Many calls (answered and refused) leave the arguments' reference counts and the
    traced memory as they were."""
    swap_third_list = c_list()
    argss = [args for args in map(engine_args, swap_third_turns(2, 801, 300))
             if args[0][args[2]] and any(args[6]) and args[7]][:20]
    assert argss
    held = [x for args in argss for x in (args[0], args[1], args[3], args[4], args[6],
                                          *args[6], args[7], *args[7])]
    counts = [sys.getrefcount(x) for x in held]

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            for args in argss:
                swap_third_list(*args)
                with pytest.raises(ValueError, match="not one the hand can make"):
                    swap_third_list(*args[:7], [*args[7], swap(0, 51)])

    grown = memory_grown_by(ask, 5, 100)
    assert grown < 20_000, grown
    assert [sys.getrefcount(x) for x in held] == counts


def test_a_joker_laid_off_is_legal_when_winning_it_back_at_once_makes_the_taken_cards_meld(
        ) -> None:
    """2d taken, 4d 5d 9c 6h Qh and a joker held before the take, the table's 6c 7c 8c:
    laying the joker off as X=9c leaves 2d 4d 5d, no meld of 2d with two old cards, but
    winning it back at once with 9c brings a new joker for 2d X 4d 5d, 4 cards of the 6
    left, so it is legal; as X=5c (no 5c held to win it back) it is not; 9c itself laid
    off keeps the old joker (2d X 4d)."""
    hand = counts_of([13, 15, 16, 7, 30, 36, BARE_JOKER])
    notold = counts_of([13])
    run = TableMeld(1, [4, 5, 6])
    args: Args = (hand, notold, 13, (run.compact(),), [], 7, [run.layoff_options()], [])
    answer = c_list()(*args)
    assert answer == ([], [(0, 7), (0, JOKER_FOR + 7)], [])
    assert answer[1:] == defined_steps(args, [run])


def test_the_swap_third_list_is_the_engines_when_built() -> None:
    """``C_SWAP_THIRD_LIST`` is the C core's ``swap_third_list`` exactly when the C core
    runs (``None`` with ``KONKUN_PURE=1``)."""
    if completion.C_SWAP_THIRD_MELDS is None:
        assert legal_steps.C_SWAP_THIRD_LIST is None
    else:
        from konkun.kunken import hand_search
        assert legal_steps.C_SWAP_THIRD_LIST is hand_search.swap_third_list

