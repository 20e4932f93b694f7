"""The C core's verdicts on the melds and lay-offs of a legal list after a take while
opening points are due (``hand_search.opening_melds`` and, without a layout,
``opening_layoffs``, run by ``LegalSteps._count_taken_actions`` when built:
``completion.C_OPENING_MELDS``, ``C_OPENING_LAYOFFS``) against their Python references
(``LegalSteps.reference_opening_melds``, ``reference_opening_layoffs``): the same steps in
the same order at every such position of seeded play over every rule option and 2-5 seats
(the turn as the engine meets it and after each of its candidate steps), and in a pure
Python process; the same as the two judges' references on random hands and tables; bad
input refused with an error and never a crash; no references or memory kept."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import completion, solver
from konkun.kunken.deal_fields import TAKEN
from konkun.kunken.melds import (
    BARE_JOKER,
    JOKER_FOR,
    OPEN_JOKER,
    SEQUENCE,
    SET,
    Compact,
    TableMeld,
    compact,
    slot_card,
)
from konkun.kunken.state import KunkenDeal

from .helpers import (
    answers_in_play,
    assert_given_in_order,
    memory_grown_by,
    pure_answers,
    seeded_play,
    unfinished_take_turns,
)
from .test_completion_judge_core import RANDOM_VALUES, compact_melds, joker_bounded_tables
from .test_hand_search_core import DOUBLE_DECK, VARIANTS, counts_of, require_c_core
from .test_swap_third_melds_core import RANDOM_MELDS

Args = tuple[list[int], list[int], int, int, bool, bool, completion.Table, bool,
             list[tuple[int, ...]], int, Any]
"""``opening_melds``' arguments: hand, the cards not held before the take, the taken card,
the points due, pending, opening, the table, ``joker_for_held``, the candidate melds, the
hand's size, the C search of the hand (or ``None``)."""
LayoffArgs = tuple[list[int], list[int], int, int, bool, completion.Table, bool, Any]
"""``opening_layoffs``' arguments: those of ``opening_melds`` but opening, the candidate
melds and the size."""


def c_melds() -> Any:
    require_c_core()
    assert completion.C_OPENING_MELDS is not None
    return completion.C_OPENING_MELDS


def c_layoffs() -> Any:
    require_c_core()
    assert completion.C_OPENING_LAYOFFS is not None
    return completion.C_OPENING_LAYOFFS


def layoff_args(deal: KunkenDeal) -> LayoffArgs:
    """The arguments the engine gives the C core's lay-offs at ``deal``'s position."""
    args = engine_args(deal)
    return (*args[:5], args[6], args[7], args[10])


def in_opening_case(deal: KunkenDeal, seat: int) -> bool:
    """Whether ``seat`` is to move in a take turn still to be completed with opening points
    due, and the C core judges its melds (not while the taken joker lies on the table)."""
    return deal.to_move == seat and deal.phase == TAKEN and not deal.obligations_met() \
        and deal.need > 0 and not (deal.take_card == BARE_JOKER and bool(deal.turn_marks)
                                   and deal.taken_joker_out())


def opening_turns(seats: int, seed: int, steps: int, after: bool = True) -> list[KunkenDeal]:
    """Every position of seeded random play over every rule option where the seat to move
    is in :func:`in_opening_case`, and (``after``) the turns after each of its first
    candidate steps still in that case."""
    turns: list[KunkenDeal] = []
    for _v, deal, _rng in seeded_play(VARIANTS, seats, lambda v: seed * (v + 1) + seats, steps):
        seat = deal.to_move
        assert seat is not None
        if in_opening_case(deal, seat):
            found = unfinished_take_turns(deal.copy(), 6) if after else [deal.copy()]
            turns.extend(t for t in found if in_opening_case(t, seat))
    return turns


def engine_args(deal: KunkenDeal) -> Args:
    """The arguments the engine gives the C core at ``deal``'s position."""
    seat = deal.to_move
    assert seat is not None
    hand = deal.hands[seat]
    search = solver.HandSearch(hand, deal.rules.joker_for_held)
    return (hand, deal.turn_notold, deal.take_card, deal.need, deal.pending, deal.opening,
            deal.compact_table(), deal.rules.joker_for_held, deal.candidate_melds(hand),
            deal.hand_sizes[seat], search.search)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_opening_melds_answer_as_the_reference_in_seeded_play(seats: int) -> None:
    """At each position of :func:`opening_turns` the C core offers the melds of the Python
    reference, in its order, and leaves its arguments as they were."""
    opening_melds = c_melds()
    asked = offered = candidates = 0
    for deal in opening_turns(seats, 600, 300):
        seat = deal.to_move
        assert seat is not None
        args = engine_args(deal)
        before = [list(args[0]), list(args[1]), list(args[8])]
        expected = deal.reference_opening_melds(seat, args[0], args[8])
        answer = opening_melds(*args)
        assert answer == expected, args[:10]
        assert [list(args[0]), list(args[1]), list(args[8])] == before
        asked += 1
        offered += len(answer)
        candidates += len(args[8])
    assert asked > 100
    assert 0 < offered < candidates


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_opening_layoffs_answer_as_the_reference_in_seeded_play(seats: int) -> None:
    """At each position of :func:`opening_turns` without a layout, a hand of 2 cards or
    more, the C core offers the lay-offs of the Python reference, in its order."""
    opening_layoffs = c_layoffs()
    asked = offered = 0
    for deal in opening_turns(seats, 602, 400):
        seat = deal.to_move
        assert seat is not None
        if deal.layout[seat] or deal.hand_sizes[seat] < 2:
            continue
        expected = [(a.number, a.slots[0])
                    for a in deal.reference_opening_layoffs(seat, deal.hands[seat])]
        assert opening_layoffs(*layoff_args(deal)) == expected
        asked += 1
        offered += len(expected)
    assert asked > 25
    assert offered > 0


@pytest.mark.parametrize("seats", [2, 4])
def test_the_c_opening_melds_answer_as_a_pure_process_in_seeded_play(seats: int) -> None:
    """The positions of seeded play in the case, the C core against a pure Python process
    (``KONKUN_PURE=1``: every part the reference, the judges too) playing the same deals."""
    opening_melds = c_melds()
    steps = 200
    seeds = [601 * (v + 1) + seats for v in range(len(VARIANTS))]

    def answer(deal: KunkenDeal, seat: int) -> list[list[list[int]]]:
        layoffs = [] if deal.layout[seat] or deal.hand_sizes[seat] < 2 else [
            list(pair) for pair in c_layoffs()(*layoff_args(deal))]
        return [[list(m) for m in opening_melds(*engine_args(deal))], layoffs]

    wanted, answers = answers_in_play(VARIANTS, seats, seeds, steps, in_opening_case, answer)
    assert pure_answers(
        "completion.C_OPENING_MELDS",
        "[deal.reference_opening_melds(seat, deal.hands[seat]), [] if deal.layout[seat] or "
        "deal.hand_sizes[seat] < 2 else [(a.number, a.slots[0]) for a in "
        "deal.reference_opening_layoffs(seat, deal.hands[seat])]]",
        VARIANTS, seats, seeds, steps, wanted) == answers
    assert len(answers) > 50
    assert any(a[0] for a in answers) and not all(a[0] for a in answers)
    assert any(a[1] for a in answers)


def defined_melds(args: Args) -> list[tuple[int, ...]]:
    """The two judges' references on each meld leaving a card: melds alone after it
    (:func:`solver.reference_can_complete`, ``LegalSteps._completes_after_meld``), else
    any steps (:func:`completion.reference_completable`, as
    ``LegalSteps.completes_after_step`` asks it)."""
    hand, notold, card, need, pending, opening, table, replace, melds, size, _ = args
    out = []
    for slots in melds:
        if len(slots) >= size:
            continue
        after_pending = pending and not solver.is_third_card_meld(slots, card, hand, notold)
        after_need = need - solver.meld_points(slots) if opening else need
        if not after_pending and (after_need if opening else 0) <= 0:
            out.append(slots)
            continue
        rest, rest_notold = list(hand), list(notold)
        judged, judged_notold = list(hand), list(notold)
        keep = 1 if card == BARE_JOKER else 0
        for x in slots:
            k = slot_card(x)
            rest[k] -= 1
            judged[k] -= 1
            if rest_notold[k]:
                rest_notold[k] -= 1
            if judged_notold[k] > (keep if k == BARE_JOKER else 0):
                judged_notold[k] -= 1
        if solver.reference_can_complete(rest, rest_notold, card, after_need if opening else 0,
                                         after_pending, None, size - len(slots), False,
                                         replace) or \
                completion.reference_completable(judged, judged_notold, card, after_need,
                                                 after_pending, True, (*table, compact(slots)),
                                                 replace):
            out.append(slots)
    return out


@st.composite
def random_args(draw: st.DrawFn) -> Args:
    """A hand of up to 16 cards of the two decks and up to 7 jokers, some not held before
    the take, a taken card (a third of the time a joker), points due, a table of up to 3
    melds, and every meld the hand can lay (with the declared set jokers) as the
    candidates."""
    cards = draw(st.lists(st.sampled_from(range(len(DOUBLE_DECK))), min_size=1, max_size=16,
                          unique=True))
    hand = counts_of([DOUBLE_DECK[i] for i in cards])
    hand[BARE_JOKER] = min(hand[BARE_JOKER] + draw(st.integers(0, 3)), 7)
    notold = [draw(st.integers(0, n)) if n and draw(st.booleans()) else 0 for n in hand]
    card = DOUBLE_DECK[draw(st.sampled_from(cards))]
    if draw(st.integers(0, 2)) == 0:  # a taken joker, a third of the time
        card = BARE_JOKER
        hand[BARE_JOKER] = max(hand[BARE_JOKER], 1)
    notold[card] = max(notold[card], 1)
    replace = draw(st.booleans())
    table = draw(joker_bounded_tables(7 - hand[BARE_JOKER]))
    melds = solver.hand_melds(hand, replace)
    melds += [v for m in list(melds) for v in solver.declared_set_variants(m)
              if replace or not hand[v[2] - 53]]
    # The hand's size is its count, as in every deal: with another size the references
    # disagree among themselves (melds alone read the size given, the exact judge the
    # counts), so there is no one answer to hold the C core to (a hand of 0 1 2 22 23 and
    # 3 jokers, one taken, size 7: melds alone say no after meld 0 1 2, the judge yes).
    size = sum(hand)
    need = draw(st.sampled_from([30, 51, 70, draw(st.integers(1, 150))]))
    search = solver.HandSearch(hand, replace).search if draw(st.booleans()) else None
    return (hand, notold, card, need, draw(st.booleans()), draw(st.booleans()), table,
            replace, melds, size, search)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_args())
def test_the_c_opening_melds_answer_as_the_judges_on_random_states(args: Args) -> None:
    """The melds of :func:`defined_melds`."""
    assert c_melds()(*args) == defined_melds(args)


def table_meld(m: Compact) -> TableMeld:
    """A table meld of the compact form ``m``."""
    if m[0] == 0:
        _, suit, start, length, jokers = m
        cards = [suit * 13 + (start + i) % 13 for i in range(length)]
        return TableMeld(0, [JOKER_FOR + k if jokers >> k % 13 & 1 else k for k in cards],
                         kind=SEQUENCE)
    _, rank, real, declared, n_open = m
    return TableMeld(0, [t * 13 + rank for t in range(4) if real >> t & 1]
                     + [JOKER_FOR + t * 13 + rank for t in range(4) if declared >> t & 1]
                     + [OPEN_JOKER + rank] * n_open, kind=SET)


def defined_layoffs(args: LayoffArgs, layout: bool = False) -> list[tuple[int, int]]:
    """Each lay-off option of each table meld (``TableMeld.layoff_options``) the hand holds
    (a joker declared as a held card only with ``joker_for_held``) after which melds alone
    (:func:`solver.reference_can_complete`) or any steps
    (:func:`completion.reference_completable`, with a layout or not, the meld as
    ``TableMeld.lay_off`` leaves it) complete the turn."""
    hand, notold, card, need, pending, table, replace, _ = args
    out = []
    for number, m in enumerate(table):
        for k, slot in table_meld(m).layoff_options():
            if not hand[k] or (JOKER_FOR <= slot < OPEN_JOKER and not replace
                               and hand[slot - JOKER_FOR]):
                continue
            rest, rest_notold = list(hand), list(notold)
            rest[k] -= 1
            judged_notold = list(notold)
            if rest_notold[k]:
                rest_notold[k] -= 1
            if judged_notold[k] > (1 if k == card == BARE_JOKER else 0):
                judged_notold[k] -= 1
            after = table_meld(m)
            after.lay_off(slot, 0)
            changed = (*table[:number], after.compact(), *table[number + 1:])
            if solver.reference_can_complete(rest, rest_notold, card, need, pending, None,
                                             -1, False, replace) or \
                    completion.reference_completable(rest, judged_notold, card, need, pending,
                                                     layout, changed, replace):
                out.append((number, slot))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_args())
def test_the_c_opening_layoffs_answer_as_the_judges_on_random_states(args: Args) -> None:
    """The lay-offs of :func:`defined_layoffs`; the tables' compact forms are those of
    their table melds."""
    table = args[6]
    assert tuple(table_meld(m).compact() for m in table) == table
    layoff = (*args[:5], table, args[7], args[10])
    assert c_layoffs()(*layoff) == defined_layoffs(layoff)


GOOD: list[object] = [counts_of([0, 1, 2, 3, 4, 5]), counts_of([3]), 3, 10, True, True, (),
                      True, [(0, 1, 2), (1, 2, 3)], 6, None]


@pytest.mark.parametrize(("index", "bad", "message"), [
    (0, [0] * 52, "hand must have 53"),
    (0, (0,) * 53, "hand must be a list"),
    (1, [0] * 54, "notold must have 53"),
    (1, [4] * 53, "notold 0 is 4"),
    (2, 53, "card is 53"),
    (2, -1, "card is -1"),
    (2, "Ac", "card must be an int"),
    (3, 2**40, "need is"),
    (3, None, "need must be an int"),
    (4, 1, "pending must be a bool"),
    (5, None, "opening must be a bool"),
    (6, [(0, 0, 0, 3, 1)], "table must be a tuple"),
    (6, ((0, 0, 0, 14, 1),), "length of table meld 0 is 14"),
    (7, 0, "replace must be a bool"),
    (8, ((0, 1, 2),), "melds must be a list"),
    (8, [[0, 1, 2]], "meld 0 must be a tuple"),
    (8, [(0, 1)], "meld 0 is \\(0, 1\\): not 3 to 13 slots"),
    (8, [(0, 1, "2c")], "slot of meld 0 must be an int"),
    (8, [(0, 1, 200)], "slot of meld 0 is 200"),
    (8, [(0, 2, 3)], "meld 0 is \\(0, 2, 3\\), not a meld in canonical form"),
    (8, [(0, 1, 2), (52, 0, 1)], "meld 1 is .*not a meld in canonical form"),
    (8, [(4, 5, 6)], "meld 0 is \\(4, 5, 6\\), more than the hand holds"),
    (9, 2**40, "size is"),
    (9, None, "size must be an int"),
    (10, [0] * 53, "search must be None or a Search"),
])
def test_bad_input_to_the_c_opening_melds_raises(index: int, bad: object,
                                                 message: str) -> None:
    opening_melds = c_melds()
    args = list(GOOD)
    args[index] = bad
    with pytest.raises((TypeError, ValueError), match=message):
        opening_melds(*args)
    assert opening_melds(*GOOD) == [(1, 2, 3)]


LAYOFF_GOOD: list[object] = [counts_of([0, 1, 2, 3, 4, 5]), counts_of([3]), 3, 10, True,
                             ((0, 0, 6, 3, 0),), True, None]


LAYOFF_BAD: list[tuple[int, object, str]] = [
    (0, [0] * 52, "hand must have 53"),
    (0, (0,) * 53, "hand must be a list"),
    (1, None, "notold must be a list"),
    (1, [4] * 53, "notold 0 is 4"),
    (2, 53, "card is 53"),
    (2, "Ac", "card must be an int"),
    (3, 2**40, "need is"),
    (4, 1, "pending must be a bool"),
    (5, [(0, 0, 6, 3, 0)], "table must be a tuple"),
    (5, ((0, 0, 0, 14, 1),), "length of table meld 0 is 14"),
    (5, ((1, 0, 0, 0),), "table meld 0 is .*not a compact meld"),
    (6, None, "replace must be a bool"),
    (7, (), "search must be None or a Search"),
]
"""Bad arguments of the lay-offs' C parts (in :data:`LAYOFF_GOOD`) and the errors they
raise."""


@pytest.mark.parametrize(("index", "bad", "message"), LAYOFF_BAD)
def test_bad_input_to_the_c_opening_layoffs_raises(index: int, bad: object,
                                                   message: str) -> None:
    opening_layoffs = c_layoffs()
    args = list(LAYOFF_GOOD)
    args[index] = bad
    with pytest.raises((TypeError, ValueError), match=message):
        opening_layoffs(*args)
    assert opening_layoffs(*LAYOFF_GOOD) == [(0, 5)]


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(st.data())
def test_random_input_to_the_c_opening_layoffs_is_refused_or_answered(
        data: st.DataObject) -> None:
    """:func:`random_layoffs_refused_or_answered` of the opening lay-offs."""
    random_layoffs_refused_or_answered(c_layoffs(), data)


def random_layoffs_refused_or_answered(layoffs: Any, data: st.DataObject) -> None:
    """Random values anywhere (:data:`RANDOM_VALUES`) among random counts and tables given
    to the C part ``layoffs``: an error naming the input, or lay-offs onto the table's
    melds."""
    hand = [data.draw(st.integers(0, 3)) for _ in range(52)] + [data.draw(st.integers(0, 7))]
    args: list[object] = [hand, [data.draw(st.integers(0, n)) for n in hand],
                          data.draw(st.integers(-1, 53)), data.draw(st.integers(-5, 80)),
                          data.draw(st.booleans()),
                          tuple(data.draw(st.lists(compact_melds(), max_size=4))),
                          data.draw(st.booleans()), None]
    while data.draw(st.integers(0, 2)) == 0:
        args[data.draw(st.integers(0, 7))] = data.draw(RANDOM_VALUES)
    try:
        answer = layoffs(*args)
    except (TypeError, ValueError):
        return
    table = args[5]
    assert isinstance(table, tuple)
    assert all(0 <= number < len(table) for number, _ in answer)


@st.composite
def random_input(draw: st.DrawFn) -> list[object]:
    """Arguments that are mostly well formed, with random melds (of random slots, lengths
    and types) and now and then a random value anywhere (:data:`RANDOM_VALUES`)."""
    hand = [draw(st.integers(0, 3)) for _ in range(52)] + [draw(st.integers(0, 7))]
    notold = [draw(st.integers(0, n)) for n in hand]
    melds = draw(RANDOM_MELDS)
    args: list[object] = [hand, notold, draw(st.integers(-1, 53)), draw(st.integers(-5, 80)),
                          draw(st.booleans()), draw(st.booleans()),
                          tuple(draw(st.lists(compact_melds(), max_size=3))),
                          draw(st.booleans()), melds, draw(st.integers(-3, 60)), None]
    while draw(st.integers(0, 3)) == 0:
        args[draw(st.integers(0, 10))] = draw(RANDOM_VALUES)
    return args


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(random_input())
def test_random_input_to_the_c_opening_melds_is_refused_or_answered(args: list[object]
                                                                    ) -> None:
    """An error naming the input, or melds of those given, in order (the same objects)."""
    try:
        answer = c_melds()(*args)
    except (TypeError, ValueError):
        return
    melds = args[8]
    assert isinstance(melds, list)
    assert_given_in_order(answer, melds)


def test_the_c_opening_melds_keep_no_references_or_memory() -> None:
    """Many calls of both (answered and refused, the judge's memo emptied between rounds)
    leave the arguments' reference counts and the traced memory as they were."""
    opening_melds = c_melds()
    argss = [engine_args(deal) for deal in opening_turns(2, 601, 200)][:20]
    assert argss
    bad = (0, 2, 3)
    held = [x for args in argss
            for x in (args[0], args[1], args[6], args[8], args[10], *args[8])
            if x != ()]  # the empty table: a shared tuple others hold too
    counts = [sys.getrefcount(x) for x in held]

    opening_layoffs = c_layoffs()

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            completion.forget_judged()
            for args in argss:
                opening_melds(*args)
                opening_layoffs(*args[:5], args[6], args[7], args[10])
                with pytest.raises(ValueError, match="canonical form"):
                    opening_melds(*args[:8], [*args[8], bad], *args[9:])

    grown = memory_grown_by(ask, 3, 30)
    assert grown < 20_000, grown
    assert [sys.getrefcount(x) for x in held] == counts


def test_a_card_laid_off_onto_a_set_with_a_joker_is_judged_apart_from_the_same_card_elsewhere(
        ) -> None:
    """Th taken, 3d Jd Ad 8h 8h Jh Qh and a joker held before, 51 points due, no layout; on
    the table 8c 8d and 8c 8d X: laying 8h off onto the first leaves the other 8h able to
    win the second's joker (once a meld gives a layout), and the judge finds a completion;
    onto the second, only 8s could win that joker, which the hand lacks, and it finds none:
    the judge's answer for 8h is not the card's alone there (found by a random search for
    the mutant that kept it; melds alone complete neither)."""
    hand = counts_of([14, 22, 25, 32, 32, 34, 35, 36, BARE_JOKER])
    notold = counts_of([34])
    args: LayoffArgs = (hand, notold, 34, 51, True, ((1, 6, 3, 0, 0), (1, 6, 3, 0, 1)), True,
                        None)
    assert defined_layoffs(args) == [(0, 32), (0, OPEN_JOKER + 6)]
    assert c_layoffs()(*args) == [(0, 32), (0, OPEN_JOKER + 6)]
