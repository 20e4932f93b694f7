"""The C core's legal list after a take while the taken card's meld is due and no opening
points are, outside the swap-third case (``hand_search.third_card_list``, run by
``LegalSteps._third_card_actions`` when built: ``legal_steps.C_THIRD_CARD_LIST``) against
its Python reference (``LegalSteps.reference_third_card_actions``): the same melds,
lay-offs and swaps in the same order at every such position of seeded play over every
rule option and 2-5 seats (the turn as the engine meets it and after each of its candidate
steps) and in a pure Python process, the same as the two judges' references on random
hands and tables, bad input refused with an error and never a crash, no references or
memory kept."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import completion, legal_steps, solver
from konkun.kunken.actions import Action, layoff, meld, swap
from konkun.kunken.melds import BARE_JOKER, JOKER_FOR, OPEN_JOKER, compact, slot_card
from konkun.kunken.state import KunkenDeal

from .helpers import assert_given_in_order, memory_grown_by, pure_lists_agree, turns_in_case
from .test_completion_judge_core import RANDOM_VALUES, compact_melds, joker_bounded_tables
from .test_hand_search_core import DOUBLE_DECK, VARIANTS, counts_of, require_c_core
from .test_opening_melds_core import table_meld
from .test_swap_third_melds_core import RANDOM_MELDS, in_swap_third_case

Args = tuple[list[int], list[int], int, int, bool, completion.Table, bool,
             list[tuple[int, ...]], int, list[Action]]
"""``third_card_list``'s arguments: hand, the cards not held before the take, the taken
card, the points due (none), whether the seat has a layout, the table (every meld's
compact form), ``joker_for_held``, the candidate melds, the hand's size, the candidate
swaps."""


def c_list() -> Any:
    require_c_core()
    assert legal_steps.C_THIRD_CARD_LIST is not None
    return legal_steps.C_THIRD_CARD_LIST


def in_third_card_case(deal: KunkenDeal, seat: int) -> bool:
    """Whether ``seat`` is to move in a take turn where the taken card's meld is due and
    no points are, outside the swap-third case, and the taken joker is not on the table:
    the case ``LegalSteps._third_card_actions`` gives the C core."""
    return deal.to_move == seat and deal.pending and deal.need <= 0 and \
        not in_swap_third_case(deal, seat) and not (
            deal.take_card == BARE_JOKER and deal.turn_marks and deal.taken_joker_out())


def third_card_turns(seats: int, seed: int, steps: int) -> list[KunkenDeal]:
    """Every position of seeded random play over every rule option in
    :func:`in_third_card_case`, and the turns after each of its first candidate steps
    still in that case."""
    return turns_in_case(VARIANTS, in_third_card_case, seats, seed, steps)


def engine_args(deal: KunkenDeal) -> Args:
    """The arguments the engine gives the C core at ``deal``'s position."""
    seat = deal.to_move
    assert seat is not None
    hand = deal.hands[seat]
    return (hand, deal.turn_notold, deal.take_card, deal.need, deal.layout[seat],
            deal.compact_table(), deal.rules.joker_for_held, deal.candidate_melds(hand),
            deal.hand_sizes[seat], deal.swap_steps(seat, hand))


def as_actions(answer: tuple[list[tuple[int, ...]], list[tuple[int, int]], list[Action]]
               ) -> list[Action]:
    """The C core's answer as the legal list it makes."""
    melds, layoffs, swaps = answer
    return [*map(meld, melds), *(layoff(m, slot) for m, slot in layoffs), *swaps]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_third_card_list_answers_as_the_reference_in_seeded_play(seats: int) -> None:
    """At each position of :func:`third_card_turns` the C core lists the reference's melds,
    lay-offs and swaps, in its order, and leaves its arguments as they were."""
    third_card_list = c_list()
    asked = jokers = melds = melds_offered = layoffs = swaps = swaps_offered = 0
    for deal in [*third_card_turns(seats, 700, 400), *third_card_turns(seats, 710, 400)]:
        seat = deal.to_move
        assert seat is not None
        args = engine_args(deal)
        hand = args[0]
        if args[2] != BARE_JOKER and not hand[args[2]]:  # left to the reference
            with pytest.raises(ValueError, match="hand does not hold the taken card"):
                third_card_list(*args)
            continue
        before = [list(hand), list(args[1]), list(args[7]), list(args[9])]
        expected = deal.reference_third_card_actions(seat, hand, args[7])
        answer = third_card_list(*args)
        assert as_actions(answer) == expected, args
        assert [list(hand), list(args[1]), list(args[7]), list(args[9])] == before
        asked += 1
        jokers += args[2] == BARE_JOKER
        melds += len(args[7])
        melds_offered += len(answer[0])
        layoffs += len(answer[1])
        swaps += len(args[9])
        swaps_offered += len(answer[2])
    assert asked > 100 and 0 < jokers < asked
    assert 0 < melds_offered < melds
    assert layoffs > 0
    assert swaps_offered <= swaps


@pytest.mark.parametrize("seats", [2, 4])
def test_the_c_third_card_list_answers_as_a_pure_process_in_seeded_play(seats: int) -> None:
    """The same seeded play in a pure Python process (``KONKUN_PURE=1``: the reference
    lists) and here (the C core) meets the same positions of the case and lists the same
    legal actions at each."""
    c_list()
    assert sum(pure_lists_agree(
        "legal_steps.C_THIRD_CARD_LIST", VARIANTS, in_third_card_case, seats,
        [base * v + seats for v in range(1, len(VARIANTS) + 1)], 400) for base in (700, 711)) > 50


def fast_length(args: Args, removed: list[int], swapped: int = -1) -> int:
    """``solver.ThirdCardCheck.without``: the fast judges' length after a step."""
    hand, notold, card = args[0], args[1], args[2]
    return solver.ThirdCardCheck(card, hand, notold, args[6]).without(removed, swapped)


def exact_after(args: Args, removed: list[int], table: completion.Table, pending: bool,
                layout: bool, fresh: int = 0) -> bool:
    """:func:`completion.reference_completable` after a step that takes the cards
    ``removed`` from the hand (a joker laid is a new one first; the taken joker stays),
    adds ``fresh`` jokers and leaves ``table``, as ``LegalSteps.completes_after_step``
    asks it where the fast judge said no (melds alone fail; with ``joker_for_held`` a step
    of real cards when no card of the hand wins a table joker: no)."""
    hand, notold, card, need = args[0], args[1], args[2], args[3]
    if args[6] and not fresh and BARE_JOKER not in removed and \
            not completion.any_swap(args[5], hand):
        return False
    rest, rest_notold = list(hand), list(notold)
    rest[BARE_JOKER] += fresh
    rest_notold[BARE_JOKER] += fresh
    keep = 1 if card == BARE_JOKER else 0
    for k in removed:
        rest[k] -= 1
        if rest_notold[k] > (keep if k == BARE_JOKER else 0):
            rest_notold[k] -= 1
    return completion.reference_completable(rest, rest_notold, card, need, pending, layout,
                                            table, args[6], True)


def defined_list(args: Args) -> tuple[list[tuple[int, ...]], list[tuple[int, int]],
                                      list[Action]]:
    """The two judges' references on each candidate step: the taken card's meld, or the
    fast judges' length after it (``LegalSteps._third_card_judges``) leaving a card, else
    any steps after it (:func:`exact_after`); lay-offs (with 2 cards or more) of each
    table meld's lay-off options the hand holds (a joker declared as a held card only with
    ``joker_for_held``)."""
    hand, notold, card, _, layout, table, replace, melds, size, swaps = args
    laid = []
    for slots in melds:
        left = size - len(slots)
        if left <= 0:
            continue
        removed = [slot_card(x) for x in slots]
        third = solver.is_third_card_meld(slots, card, hand, notold)
        if third or 0 < fast_length(args, list(slots)) < left or exact_after(
                args, removed, (*table, compact(slots)), True, True):
            laid.append(slots)
    layoffs = []
    for number, m in enumerate(table if size >= 2 else ()):
        for k, slot in table_meld(m).layoff_options():
            if not hand[k] or (JOKER_FOR <= slot < OPEN_JOKER and not replace
                               and hand[slot - JOKER_FOR]):
                continue
            after = table_meld(m)
            after.lay_off(slot, 0)
            changed = (*table[:number], after.compact(), *table[number + 1:])
            if 0 < fast_length(args, [k]) < size - 1 or exact_after(args, [k], changed, True,
                                                                     layout):
                layoffs.append((number, slot))
    kept = []
    for action in swaps:
        number, k = action.number, action.slots[0]
        assert number is not None
        after = table_meld(table[number])
        after.swap(k)
        changed = (*table[:number], after.compact(), *table[number + 1:])
        if 0 < fast_length(args, [], k) < size or exact_after(args, [k], changed, True,
                                                              layout, 1):
            kept.append(action)
    return laid, layoffs, kept


@st.composite
def random_args(draw: st.DrawFn) -> Args:
    """A hand of up to 14 cards of the two decks and up to 4 jokers, some not held before
    the take, a taken card it holds (half the time a joker), no points due, a layout or
    not, a table of up to 3 melds, and every meld the hand can lay (with the declared set
    jokers) and every swap it can make (with a layout) as the candidates."""
    cards = draw(st.lists(st.sampled_from(range(len(DOUBLE_DECK))), min_size=1, max_size=14,
                          unique=True))
    hand = counts_of([DOUBLE_DECK[i] for i in cards])
    hand[BARE_JOKER] = min(hand[BARE_JOKER] + draw(st.integers(0, 2)), 4)
    notold = [draw(st.integers(0, n)) if n and draw(st.booleans()) else 0 for n in hand]
    card = DOUBLE_DECK[draw(st.sampled_from(cards))]
    if draw(st.booleans()):
        card = BARE_JOKER
        hand[BARE_JOKER] = max(hand[BARE_JOKER], 1)
    notold[card] = max(notold[card], 1)
    replace, layout = draw(st.booleans()), draw(st.booleans())
    table = draw(joker_bounded_tables(7 - hand[BARE_JOKER]))
    melds = solver.hand_melds(hand, replace)
    melds += [v for m in list(melds) for v in solver.declared_set_variants(m)
              if replace or not hand[v[2] - JOKER_FOR]]
    swaps = [swap(number, k) for number, m in enumerate(table) if layout
             for k, _ in completion.swaps(m, hand)]
    size = sum(hand) + draw(st.sampled_from([0, 0, 0, -1, 2]))
    return (hand, notold, card, draw(st.sampled_from([0, 0, -10])), layout, table, replace,
            melds, size, swaps)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_args())
def test_the_c_third_card_list_answers_as_the_judges_on_random_states(args: Args) -> None:
    """The melds, lay-offs and swaps of :func:`defined_list`."""
    completion.forget_judged()
    assert c_list()(*args) == defined_list(args)


@st.composite
def taken_joker_states(draw: st.DrawFn) -> tuple[list[int], list[int], completion.Table]:
    """A hand of up to 12 cards of the two decks and 1 to 4 jokers, some not held before
    the take (the taken joker among them), and a table of up to 3 melds
    (:func:`joker_bounded_tables`)."""
    cards = draw(st.lists(st.sampled_from(range(len(DOUBLE_DECK))), max_size=12, unique=True))
    hand = counts_of([DOUBLE_DECK[i] for i in cards])
    hand[BARE_JOKER] = draw(st.integers(1, 4))
    notold = [draw(st.integers(0, n)) if n and draw(st.booleans()) else 0 for n in hand]
    notold[BARE_JOKER] = max(notold[BARE_JOKER], 1)
    return hand, notold, draw(joker_bounded_tables(7 - hand[BARE_JOKER]))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(taken_joker_states())
def test_the_judge_walks_a_taken_jokers_swaps_as_the_reference(
        state: tuple[list[int], list[int], completion.Table]) -> None:
    """The judge's swaps-only case of a taken joker (no points due, a layout,
    ``joker_for_held``), walked in C since this slice (``completion.third_card_by_swaps``
    in Python before): the reference's answer, asked as the legal lists ask it."""
    require_c_core()
    hand, notold, table = state
    assert completion.C_JUDGE is not None
    completion.forget_judged()
    assert completion.C_JUDGE(hand, notold, BARE_JOKER, 0, True, True, table, True, True) == \
        completion.reference_completable(hand, notold, BARE_JOKER, 0, True, True, table, True,
                                         True)


def good_args() -> list[Any]:
    """2c 3c 4c 5c 6c 5d and a taken joker, the table's 3d 4d with a joker for 5d: arguments
    the C core answers (every meld of the clubs and the 5d laid off keep a meld of the
    joker; the swap of 5d leaves two jokers, and 2c 3c X X)."""
    run = (0, 1, 1, 3, 1 << 3)
    hand = counts_of([0, 1, 2, 3, 4, 16, BARE_JOKER])
    return [hand, counts_of([BARE_JOKER]), BARE_JOKER, 0, True, (run,),
            True, [(0, 1, 2), (0, 1, 2, 3), (1, 2, 3)], 7, [swap(0, 16)]]


def test_the_good_arguments_are_answered_as_the_definition() -> None:
    args = good_args()
    assert c_list()(*args) == defined_list(tuple(args))  # type: ignore[arg-type]


@pytest.mark.parametrize(("index", "bad", "message"), [
    (0, [0] * 52, "hand must have 53"),
    (0, (0,) * 53, "hand must be a list"),
    (1, [4] * 53, "notold 0 is 4"),
    (2, 53, "card is 53"),
    (2, "Ac", "card must be an int"),
    (2, 5, "hand does not hold the taken card 5"),
    (3, 1, "need is 1"),
    (3, None, "need must be an int"),
    (4, 1, "layout must be a bool"),
    (5, [(0, 1, 1, 3, 8)], "table must be a tuple"),
    (5, ((0, 1, 1, 14, 8),), "length of table meld 0 is 14"),
    (6, None, "replace must be a bool"),
    (7, ((0, 1, 2),), "melds must be a list"),
    (7, [(0, 2, 3)], "not a meld in canonical form"),
    (7, [(4, 5, 6)], "more than the hand holds"),
    (8, 2**40, "size is"),
    (8, None, "size must be an int"),
    (9, (swap(0, 16),), "swaps must be a list"),
    (9, [layoff(0, 16)], "swap 0 is .*, not a swap"),
    (9, [swap(1, 16)], "meld number of swap 0 is 1"),
    (9, [swap(0, 52)], "card of swap 0 is 52"),
    (9, [swap(0, 17)], "swap 0 is .*, not one the hand can make"),
    (9, [None], "'NoneType' object has no attribute 'kind'"),
])
def test_bad_input_to_the_c_third_card_list_raises(index: int, bad: object,
                                                  message: str) -> None:
    third_card_list = c_list()
    args = good_args()
    args[index] = bad
    with pytest.raises((TypeError, ValueError, AttributeError), match=message):
        third_card_list(*args)
    args = good_args()
    assert third_card_list(*args) == defined_list(tuple(args))  # type: ignore[arg-type]


def test_a_swap_past_the_jokers_a_hand_holds_is_refused() -> None:
    """A hand of 7 jokers (the most a count holds) swapping for an eighth: refused."""
    args = good_args()
    args[0][BARE_JOKER] = 7
    with pytest.raises(ValueError, match="more than 7"):
        c_list()(*args)


@st.composite
def random_input(draw: st.DrawFn) -> list[object]:
    """Arguments that are mostly well formed, with random melds (of random slots, lengths
    and types), random swaps onto random tables, and now and then a random value anywhere
    (:data:`RANDOM_VALUES`)."""
    hand = [draw(st.integers(0, 3)) for _ in range(52)] + [draw(st.integers(0, 7))]
    notold = [draw(st.integers(0, n)) for n in hand]
    swaps = draw(st.lists(st.builds(swap, st.integers(-1, 4), st.integers(-1, 53)),
                          max_size=4))
    args: list[object] = [hand, notold, draw(st.integers(-1, 53)), draw(st.integers(-5, 3)),
                          draw(st.booleans()),
                          tuple(draw(st.lists(compact_melds(), max_size=3))),
                          draw(st.booleans()), draw(RANDOM_MELDS), draw(st.integers(-3, 60)),
                          swaps]
    while draw(st.integers(0, 3)) == 0:
        args[draw(st.integers(0, 9))] = draw(RANDOM_VALUES)
    return args


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(random_input())
def test_random_input_to_the_c_third_card_list_is_refused_or_answered(args: list[object]
                                                                      ) -> None:
    """An error naming the input, or melds and swaps of those given, in order (the same
    objects), and lay-offs onto the table's melds."""
    try:
        melds, layoffs, swaps = c_list()(*args)
    except (TypeError, ValueError, AttributeError):
        return
    given_melds, table, given_swaps = args[7], args[5], args[9]
    assert isinstance(given_melds, list) and isinstance(table, tuple)
    assert isinstance(given_swaps, list)
    assert_given_in_order(melds, given_melds)
    assert_given_in_order(swaps, given_swaps)
    assert all(0 <= number < len(table) for number, _ in layoffs)


def test_the_c_third_card_list_keeps_no_references_or_memory() -> None:
    """Many calls (answered and refused, the judge's memo emptied between rounds) leave the
    arguments' reference counts and the traced memory as they were."""
    third_card_list = c_list()
    argss = [args for args in map(engine_args, third_card_turns(2, 701, 300))
             if args[2] == BARE_JOKER or args[0][args[2]]][:20]
    assert argss
    held = [x for args in argss for x in (args[0], args[1], args[7], args[9], *args[7],
                                          *args[9]) if x != ()]
    counts = [sys.getrefcount(x) for x in held]

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            completion.forget_judged()
            for args in argss:
                third_card_list(*args)
                with pytest.raises(ValueError, match="canonical form"):
                    third_card_list(*args[:7], [*args[7], (0, 2, 3)], *args[8:])

    grown = memory_grown_by(ask, 3, 30)
    assert grown < 20_000, grown
    assert [sys.getrefcount(x) for x in held] == counts


def test_the_third_card_list_is_the_engines_when_built() -> None:
    """``C_THIRD_CARD_LIST`` is the C core's ``third_card_list`` exactly when the C core
    runs (``None`` with ``KONKUN_PURE=1``)."""
    if completion.C_OPENING_MELDS is None:
        assert legal_steps.C_THIRD_CARD_LIST is None
    else:
        from konkun.kunken import hand_search
        assert legal_steps.C_THIRD_CARD_LIST is hand_search.third_card_list
