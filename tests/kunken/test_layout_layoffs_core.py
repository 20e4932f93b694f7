"""The C core's verdicts on the lay-offs of a legal list after a take while opening points
are due, with a layout (``hand_search.layout_layoffs``, run by
``LegalSteps._count_taken_actions`` when built: ``completion.C_LAYOUT_LAYOFFS``) against
their Python reference (``LegalSteps.reference_layout_layoffs``): the same lay-offs in the
same order at every such position of seeded play over every rule option and 2-5 seats (the
turn as the engine meets it and after each of its candidate steps), and in a pure Python
process; the same as the two judges' references on random hands and tables; bad input
refused with an error and never a crash; no references or memory kept."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import completion
from konkun.kunken.state import KunkenDeal

from .helpers import answers_in_play, memory_grown_by, pure_answers
from .test_hand_search_core import VARIANTS, require_c_core
from .test_opening_melds_core import (
    LAYOFF_BAD,
    LAYOFF_GOOD,
    defined_layoffs,
    in_opening_case,
    layoff_args,
    opening_turns,
    random_args,
    random_layoffs_refused_or_answered,
    table_meld,
)


def c_layoffs() -> Any:
    require_c_core()
    assert completion.C_LAYOUT_LAYOFFS is not None
    return completion.C_LAYOUT_LAYOFFS


def in_layout_case(deal: KunkenDeal, seat: int) -> bool:
    """Whether ``seat`` is in :func:`in_opening_case` with a layout and 2 cards or more,
    where the engine asks the C core's lay-offs with a layout."""
    return in_opening_case(deal, seat) and deal.layout[seat] and deal.hand_sizes[seat] >= 2


def reference(deal: KunkenDeal) -> list[tuple[int, int]]:
    """The reference's lay-offs at ``deal``'s position, as (meld number, slot) pairs."""
    seat = deal.to_move
    assert seat is not None
    return [(a.number, a.slots[0]) for a in deal.reference_layout_layoffs(seat, deal.hands[seat])
            if a.number is not None]


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_layout_layoffs_answer_as_the_reference_in_seeded_play(seats: int) -> None:
    """At each position of :func:`opening_turns` with a layout, a hand of 2 cards or more,
    the C core offers the lay-offs of the Python reference, in its order, and leaves its
    arguments as they were."""
    layout_layoffs = c_layoffs()
    asked = offered = 0
    for deal in opening_turns(seats, 902, 400):
        seat = deal.to_move
        assert seat is not None
        if not in_layout_case(deal, seat):
            continue
        args = layoff_args(deal)
        before = [list(args[0]), list(args[1]), args[5]]
        expected = reference(deal)
        assert layout_layoffs(*args) == expected, args[:7]
        assert [list(args[0]), list(args[1]), args[5]] == before
        asked += 1
        offered += len(expected)
    assert asked > 100
    assert offered > 0


@pytest.mark.parametrize("seats", [2, 4])
def test_the_c_layout_layoffs_answer_as_a_pure_process_in_seeded_play(seats: int) -> None:
    """The positions of seeded play in the case, the C core against a pure Python process
    (``KONKUN_PURE=1``: every part the reference, the judges too) playing the same deals."""
    layout_layoffs = c_layoffs()
    steps = 300
    seeds = [901 * (v + 1) + seats for v in range(len(VARIANTS))]
    wanted, answers = answers_in_play(
        VARIANTS, seats, seeds, steps, in_layout_case,
        lambda deal, _seat: [list(pair) for pair in layout_layoffs(*layoff_args(deal))])
    assert pure_answers(
        "completion.C_LAYOUT_LAYOFFS",
        "[[a.number, a.slots[0]] for a in deal.reference_layout_layoffs(seat, deal.hands[seat])]",
        VARIANTS, seats, seeds, steps, wanted) == answers
    assert len(answers) > 20
    assert any(answers)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_args())
def test_the_c_layout_layoffs_answer_as_the_judges_on_random_states(args: Any) -> None:
    """The lay-offs of :func:`defined_layoffs` (hands, tables and a taken joker a third of
    the time, as the opening melds' random states)."""
    table = args[6]
    assert tuple(table_meld(m).compact() for m in table) == table
    layoff = (*args[:5], table, args[7], args[10])
    assert c_layoffs()(*layoff) == defined_layoffs(layoff, layout=True)


@pytest.mark.parametrize(("index", "bad", "message"), LAYOFF_BAD)
def test_bad_input_to_the_c_layout_layoffs_raises(index: int, bad: object,
                                                  message: str) -> None:
    layout_layoffs = c_layoffs()
    args = list(LAYOFF_GOOD)
    args[index] = bad
    with pytest.raises((TypeError, ValueError), match=message):
        layout_layoffs(*args)
    assert layout_layoffs(*LAYOFF_GOOD) == [(0, 5)]


@settings(max_examples=100, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(st.data())
def test_random_input_to_the_c_layout_layoffs_is_refused_or_answered(
        data: st.DataObject) -> None:
    """:func:`random_layoffs_refused_or_answered` of the lay-offs with a layout."""
    random_layoffs_refused_or_answered(c_layoffs(), data)


def test_the_c_layout_layoffs_keep_no_references_or_memory() -> None:
    """Many calls (answered and refused, the judge's memo emptied between rounds) leave the
    arguments' reference counts and the traced memory as they were."""
    layout_layoffs = c_layoffs()
    argss = [layoff_args(deal) for deal in opening_turns(2, 902, 300)
             if in_layout_case(deal, deal.to_move or 0)][:20]
    assert argss
    held = [x for args in argss for x in (args[0], args[1], args[5], args[7])
            if x != ()]  # the empty table: a shared tuple others hold too
    counts = [sys.getrefcount(x) for x in held]

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            completion.forget_judged()
            for args in argss:
                layout_layoffs(*args)
                with pytest.raises(TypeError, match="search must be"):
                    layout_layoffs(*args[:7], ())

    grown = memory_grown_by(ask, 3, 30)
    assert grown < 20_000, grown
    assert [sys.getrefcount(x) for x in held] == counts
