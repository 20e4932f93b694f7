"""The C core's verdicts on the lay-offs of a legal list after a take while opening points
are due, with a layout (``hand_search.layout_layoffs``, run by
``LegalSteps._count_taken_actions`` when built: ``completion.C_LAYOUT_LAYOFFS``) against
their Python reference (``LegalSteps.reference_layout_layoffs``): the same lay-offs in the
same order at every such position of seeded play over every rule option and 2-5 seats (the
turn as the engine meets it and after each of its candidate steps), and in a pure Python
process; the same as the two judges' references on random hands and tables; bad input
refused with an error and never a crash; no references or memory kept."""

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
from konkun.kunken.melds import BARE_JOKER, JOKER_FOR, OPEN_JOKER
from konkun.kunken.state import KunkenDeal

from .helpers import memory_grown_by, seeded_play
from .test_completion_judge_core import RANDOM_VALUES, compact_melds
from .test_hand_search_core import VARIANTS, counts_of, require_c_core
from .test_opening_melds_core import (
    LayoffArgs,
    in_opening_case,
    layoff_args,
    opening_turns,
    random_args,
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


PURE_SCRIPT = """
import json, random, sys
from konkun.kunken import completion
from konkun.kunken.rules import KunkenRules
from konkun.kunken.state import new_deal
assert completion.C_LAYOUT_LAYOFFS is None
variants, seats, seeds, steps, wanted = json.load(sys.stdin)
out = []
for options, seed in zip(variants, seeds):
    rng = random.Random(seed)
    deal = new_deal(KunkenRules.from_options(options), seats, 0, rng)
    played = 0
    while not deal.is_over() and played < steps:
        if played in wanted.get(str(seed), []):
            seat = deal.to_move
            out.append([[a.number, a.slots[0]]
                        for a in deal.reference_layout_layoffs(seat, deal.hands[seat])])
        played += 1
        deal.push(rng.choice(deal.legal_actions()))
print(json.dumps(out))
"""


@pytest.mark.parametrize("seats", [2, 4])
def test_the_c_layout_layoffs_answer_as_a_pure_process_in_seeded_play(seats: int) -> None:
    """The positions of seeded play in the case, the C core against a pure Python process
    (``KONKUN_PURE=1``: every part the reference, the judges too) playing the same deals."""
    layout_layoffs = c_layoffs()
    steps = 300
    seeds = [901 * (v + 1) + seats for v in range(len(VARIANTS))]
    wanted: dict[str, list[int]] = {str(seed): [] for seed in seeds}
    played = dict.fromkeys(seeds, 0)
    answers = []
    for v, deal, _rng in seeded_play(VARIANTS, seats, seeds.__getitem__, steps):
        seed, seat = seeds[v], deal.to_move
        assert seat is not None
        if in_layout_case(deal, seat):
            wanted[str(seed)].append(played[seed])
            answers.append([list(pair) for pair in layout_layoffs(*layoff_args(deal))])
        played[seed] += 1
    env = {**os.environ, "KONKUN_PURE": "1"}
    done = subprocess.run([sys.executable, "-c", PURE_SCRIPT],
                          input=json.dumps([VARIANTS, seats, seeds, steps, wanted]), env=env,
                          capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == answers
    assert len(answers) > 20
    assert any(answers)


def defined_layoffs(args: LayoffArgs) -> list[tuple[int, int]]:
    """Each lay-off option of each table meld (``TableMeld.layoff_options``) the hand holds
    (a joker declared as a held card only with ``joker_for_held``) after which melds alone
    (:func:`solver.reference_can_complete`) or any steps
    (:func:`completion.reference_completable`, with a layout, the meld as
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
                                                     True, changed, replace):
                out.append((number, slot))
    return out


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_args())
def test_the_c_layout_layoffs_answer_as_the_judges_on_random_states(args: Any) -> None:
    """The lay-offs of :func:`defined_layoffs` (hands, tables and a taken joker a third of
    the time, as the opening melds' random states)."""
    table = args[6]
    assert tuple(table_meld(m).compact() for m in table) == table
    layoff = (*args[:5], table, args[7], args[10])
    assert c_layoffs()(*layoff) == defined_layoffs(layoff)


LAYOFF_GOOD: list[object] = [counts_of([0, 1, 2, 3, 4, 5]), counts_of([3]), 3, 10, True,
                             ((0, 0, 6, 3, 0),), True, None]


@pytest.mark.parametrize(("index", "bad", "message"), [
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
])
def test_bad_input_to_the_c_layout_layoffs_raises(index: int, bad: object,
                                                  message: str) -> None:
    layout_layoffs = c_layoffs()
    args = list(LAYOFF_GOOD)
    args[index] = bad
    with pytest.raises((TypeError, ValueError), match=message):
        layout_layoffs(*args)
    assert layout_layoffs(*LAYOFF_GOOD) == [(0, 5)]


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.large_base_example])
@given(st.data())
def test_random_input_to_the_c_layout_layoffs_is_refused_or_answered(
        data: st.DataObject) -> None:
    """Random values anywhere (:data:`RANDOM_VALUES`) among random counts and tables: an
    error naming the input, or lay-offs onto the table's melds."""
    hand = [data.draw(st.integers(0, 3)) for _ in range(52)] + [data.draw(st.integers(0, 7))]
    args: list[object] = [hand, [data.draw(st.integers(0, n)) for n in hand],
                          data.draw(st.integers(-1, 53)), data.draw(st.integers(-5, 80)),
                          data.draw(st.booleans()),
                          tuple(data.draw(st.lists(compact_melds(), max_size=4))),
                          data.draw(st.booleans()), None]
    while data.draw(st.integers(0, 2)) == 0:
        args[data.draw(st.integers(0, 7))] = data.draw(RANDOM_VALUES)
    try:
        answer = c_layoffs()(*args)
    except (TypeError, ValueError):
        return
    table = args[5]
    assert isinstance(table, tuple)
    assert all(0 <= number < len(table) for number, _ in answer)


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
