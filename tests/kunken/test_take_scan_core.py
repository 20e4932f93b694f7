"""The C core's take scan (``hand_search.take_positions``, run by ``solver.take_positions``
and ``completion.take_positions`` when built) against its Python references
(``solver.reference_take_positions``, the scan by melds alone, and
``completion.reference_take_positions``, the exact scan with swaps): the same positions at
every turn's start in seeded play over every rule option and 2-5 seats (with the points
due, the layout, the table and ``joker_for_held`` as the engine asks and varied), the same
as a pure Python process, and on random hands, banks and tables; bad input refused with an
error, never a crash; no references or memory kept."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import completion, solver
from konkun.kunken.deal_fields import START
from konkun.kunken.state import KunkenDeal

from .helpers import memory_grown_by, seeded_play
from .test_completion_judge_core import RANDOM_VALUES, joker_bounded_tables
from .test_hand_search_core import DOUBLE_DECK, VARIANTS, counts_of, require_c_core

CARDS = 52
Question = tuple[list[int], list[int], int, "completion.Table | None", bool, bool]
"""The take scan's arguments: hand, bank, need, table (``None``: melds alone), layout,
``joker_for_held``."""


def c_scan() -> Any:
    require_c_core()
    assert solver.C_TAKE_SCAN is not None
    return solver.C_TAKE_SCAN


def reference(question: Question) -> list[int]:
    """The Python reference's positions for ``question``."""
    hand, bank, need, table, layout, replace = question
    if table is None:
        return solver.reference_take_positions(hand, bank, need, replace)
    return completion.reference_take_positions(hand, bank, need, table, layout, replace)


def agree(question: Question) -> list[int]:
    """The C scan and the reference give the same positions, and leave the arguments as
    they were; the positions."""
    hand, bank = question[0], question[1]
    before = (list(hand), list(bank))
    completion.forget_judged()
    expected = reference(question)
    assert (hand, bank) == before
    completion.forget_judged()
    answer = c_scan()(*question)
    assert answer == expected, question
    assert (hand, bank) == before
    return expected


def start_questions(deal: KunkenDeal) -> list[Question]:
    """At a turn's start: the questions the engine asks (``LegalSteps._take_positions``) and
    more: other points due, with and without a layout, the whole table or its melds with
    jokers, ``joker_for_held`` on and off, and melds alone."""
    seat = deal.to_move
    assert seat is not None
    hand, bank = list(deal.hands[seat]), list(deal.bank)
    replace = deal.rules.joker_for_held
    layout = deal.layout[seat]
    need = 0 if layout else deal.rules.opening_minimum
    whole = deal.compact_table()
    jokers = tuple(m for m in whole if completion.has_jokers(m))
    out: list[Question] = []
    for points in sorted({need, 0, 30, 70}):
        for table in (whole, jokers, None):
            for with_layout in (layout, not layout):
                out.append((hand, bank, points, table, with_layout, replace))
        out.append((hand, bank, points, whole, layout, not replace))
    return out


def seeded_starts(seats: int, seed: int, steps: int) -> list[tuple[int, KunkenDeal]]:
    """(variant, deal) at each turn's start with a bank, in seeded random play over every
    rule option."""
    starts: list[tuple[int, KunkenDeal]] = []
    for v, deal, _rng in seeded_play(VARIANTS, seats, lambda v: seed * (v + 1) + seats, steps):
        if deal.phase == START and deal.bank:
            starts.append((v, deal.copy()))
    return starts


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_take_scan_answers_as_the_reference_in_seeded_play(seats: int) -> None:
    """Every rule option, seeded random deals: at each turn's start, the questions of
    :func:`start_questions`; some positions are offered by swaps alone."""
    c_scan()
    asked = offered = by_swaps = 0
    for _, deal in seeded_starts(seats, 300, 150):
        for question in start_questions(deal):
            positions = agree(question)
            asked += 1
            offered += bool(positions)
            if question[3] is not None:
                fast = solver.take_positions(question[0], question[1], question[2],
                                             question[5])
                by_swaps += bool(set(positions) - set(fast))
    assert asked > 100 * len(VARIANTS)
    assert 0 < offered < asked
    assert by_swaps > 0


PURE_SCRIPT = """
import json, sys
from konkun.kunken import completion, solver
assert solver.C_TAKE_SCAN is None
out = []
for hand, bank, need, table, layout, replace in json.load(sys.stdin):
    completion._MEMO.clear()
    if table is None:
        out.append(solver.take_positions(hand, bank, need, replace))
    else:
        table = tuple(tuple(m) for m in table)
        out.append(completion.take_positions(hand, bank, need, table, layout, replace))
print(json.dumps(out))
"""


@pytest.mark.parametrize("seats", [2, 4])
def test_the_c_take_scan_answers_as_a_pure_process_in_seeded_play(seats: int) -> None:
    """The same questions, the C scan against a pure Python process (``KONKUN_PURE=1``:
    every part the reference, the judge too)."""
    scan = c_scan()
    questions = [q for _, deal in seeded_starts(seats, 800, 60)
                 for q in start_questions(deal)]
    answers = []
    for question in questions:
        completion.forget_judged()
        answers.append(scan(*question))
    env = {**os.environ, "KONKUN_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", PURE_SCRIPT], input=json.dumps(questions),
                          env=env, capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == answers
    assert len(questions) > 50 * len(VARIANTS)
    assert any(answers) and not all(answers)


@st.composite
def random_questions(draw: st.DrawFn) -> Question:
    """A hand and a bank of the two decks (up to 16 and 12 cards, up to 7 jokers in all),
    points due, a table of up to 3 melds (or none: melds alone), layout, joker_for_held."""
    cards = draw(st.lists(st.sampled_from(range(len(DOUBLE_DECK))), max_size=28,
                          unique=True))
    split = draw(st.integers(0, len(cards)))
    hand = counts_of([DOUBLE_DECK[i] for i in cards[:split][:16]])
    bank = [DOUBLE_DECK[i] for i in cards[split:][:12]]
    hand[CARDS] = min(hand[CARDS] + draw(st.integers(0, 3)), 7 - bank.count(CARDS))
    need = draw(st.sampled_from([0, 0, 30, 51, -5, draw(st.integers(0, 200))]))
    table = None if draw(st.integers(0, 3)) == 0 else draw(
        joker_bounded_tables(7 - hand[CARDS] - bank.count(CARDS)))
    return (hand, bank, need, table, draw(st.booleans()), draw(st.booleans()))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_questions())
def test_the_c_take_scan_answers_as_the_reference_on_random_states(question: Question) -> None:
    agree(question)


GOOD: list[object] = [[0] * 53, [0, 1, 2], 0, (), True, True]


@pytest.mark.parametrize(("index", "bad", "message"), [
    (0, [0] * 52, "hand must have 53"),
    (0, (0,) * 53, "hand must be a list"),
    (0, [4] + [0] * 52, "hand 0 is 4"),
    (1, (0, 1), "bank must be a list"),
    (1, [53], "bank card 0 is 53"),
    (1, [-1], "bank card 0 is -1"),
    (1, [1, "Ac"], "bank card 1 must be an int"),
    (1, [True], "bank card 0 must be an int"),
    (1, [5, 5, 5, 5], "bank card 3 \\(5\\) makes 4 of it"),
    (1, [52] * 8, "bank card 7 \\(52\\) makes 8 of it"),
    (1, [0] * 200, "bank has 200 cards"),
    (2, 2**40, "need is"),
    (2, 1.5, "need must be an int"),
    (3, [(0, 0, 0, 3, 1)], "table must be a tuple"),
    (3, ((0, 0, 0, 14, 1),), "length of table meld 0 is 14"),
    (3, ((1, 0, 1, 0, 3),) * 2 + ((1, 1, 1, 0, 2),), "hand and table hold 8 jokers"),
    (4, 1, "layout must be a bool"),
    (5, None, "replace must be a bool"),
])
def test_bad_input_to_the_c_take_scan_raises_an_error_naming_it(index: int, bad: object,
                                                                message: str) -> None:
    scan = c_scan()
    args = list(GOOD)
    scan(*args)
    args[index] = bad
    with pytest.raises((TypeError, ValueError), match=message):
        scan(*args)


def test_a_bank_that_would_put_a_fourth_copy_in_the_hand_is_refused() -> None:
    """Three copies of Ac in the hand (the most a count holds) and one more in the bank:
    refused by the scan by melds alone and by the exact scan, naming the bank card."""
    scan = c_scan()
    hand = [0] * 53
    hand[0] = 3
    for table in (None, ()):
        with pytest.raises(ValueError, match="bank card 1 \\(0\\) makes 4 of it"):
            scan(hand, [5, 0], 0, table, True, True)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_input_to_the_c_take_scan_raises_a_typed_error_or_answers_as_the_reference(
        data: st.DataObject) -> None:
    """Random arguments, each of them bad or good: a TypeError or ValueError, never a
    crash; accepted ones are answered as the reference answers them."""
    scan = c_scan()
    question: list[Any] = list(data.draw(random_questions()))
    for i in range(len(question)):
        if data.draw(st.integers(0, 5)) == 0:
            question[i] = data.draw(
                st.one_of(st.lists(RANDOM_VALUES, min_size=52, max_size=54), RANDOM_VALUES)
                if i == 0 else st.one_of(st.lists(RANDOM_VALUES, max_size=8), RANDOM_VALUES)
                if i == 1 else RANDOM_VALUES)
    completion.forget_judged()
    try:
        answer = scan(*question)
    except (TypeError, ValueError):
        return
    completion.forget_judged()
    assert answer == reference((question[0], question[1], question[2], question[3],
                                question[4], question[5]))


def test_the_c_take_scan_keeps_no_references_and_no_memory() -> None:
    """Many scans, by melds alone and exact, reaching the search, the judge and the swap
    walk: the arguments' reference counts are as before, and memory does not grow."""
    scan = c_scan()
    # 9c Tc Jc and a sequence of hearts on the table with a joker for 5h
    hand = counts_of([7, 8, 9, 30, 31, 44])
    hand[CARDS] = 1
    bank = [20, 6, 43, 52, 29, 10]
    table = ((0, 2, 2, 4, 1 << 4),)

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            for need in (0, 30, 60):
                scan(hand, bank, need, None, False, True)
                scan(hand, bank, need, table, need == 0, True)
                scan(hand, bank, need, table, need == 0, False)
            with pytest.raises(ValueError, match="bank card"):
                scan(hand, [53], 0, table, True, True)

    counts = [sys.getrefcount(x) for x in (hand, bank, table)]
    ask(100)
    grown = memory_grown_by(ask, 30, 600)
    assert grown < 20_000, grown
    assert [sys.getrefcount(x) for x in (hand, bank, table)] == counts
