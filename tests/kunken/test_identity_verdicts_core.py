"""The C core's joker-identity verdicts (``hand_search.identity_verdicts``, run by
``LegalSteps.identity_verdicts`` and ``identity_completes`` when built:
``legal_steps.C_IDENTITY_VERDICTS``) against their Python reference
(``LegalSteps.reference_identity_completes``: the step played on a copy of the deal, then
``completion.completable_marked``): the same verdict on every candidate step of every take
turn whose taken card is still to be melded in seeded play over every rule option and 2-5
seats (and of the turns after each candidate step), in a pure process too, on random play,
bad input refused with an error and never a crash, no references or memory kept."""

from __future__ import annotations

import functools
import random
import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import KunkenRules, legal_steps, new_deal
from konkun.kunken.actions import DRAW_ACTION, Action, discard, layoff, meld, swap
from konkun.kunken.deal_fields import SET_JOKER, TAKEN, joker_mark
from konkun.kunken.state import KunkenDeal

from .helpers import (
    answers_in_play,
    memory_grown_by,
    pure_answers,
    seeded_play,
    unfinished_take_turns,
)
from .test_completion_judge_core import RANDOM_VALUES
from .test_hand_search_core import VARIANTS, require_c_core


def c_verdicts() -> Any:
    require_c_core()
    assert legal_steps.C_IDENTITY_VERDICTS is not None
    return legal_steps.C_IDENTITY_VERDICTS


def arguments(deal: KunkenDeal, steps: list[Action]) -> list[Any]:
    """The C part's arguments for ``steps`` at ``deal`` (as ``identity_verdicts`` gives
    them)."""
    seat = deal.to_move
    assert seat is not None
    return [deal.hands[seat], deal.turn_notold, deal.take_card, deal.need, deal.layout[seat],
            deal.compact_table(), deal.rules.joker_for_held, deal.turn_marks, steps]


def pending_turn(deal: KunkenDeal) -> bool:
    return deal.phase == TAKEN and deal.pending and deal.to_move is not None


def turns_of(deal: KunkenDeal) -> list[KunkenDeal]:
    """The take turn at ``deal`` and the turns after each of its candidate steps whose
    taken card is still to be melded."""
    return [t for t in unfinished_take_turns(deal.copy()) if t.pending]


def agree(deal: KunkenDeal) -> tuple[int, int]:
    """The C verdicts on every candidate step at ``deal`` are the reference's, and the
    arguments are left as they were: (steps asked, steps legal)."""
    seat = deal.to_move
    assert seat is not None
    steps = deal.taken_candidates(seat, deal.hands[seat])
    args = arguments(deal, steps)
    before = [list(a) if isinstance(a, list) else a for a in args]
    answer = c_verdicts()(*args)
    assert answer == [deal.reference_identity_completes(a) for a in steps], (
        deal.to_json(), steps, answer)
    assert args == before
    return len(steps), sum(answer)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_identity_verdicts_are_the_references_in_seeded_play(seats: int) -> None:
    """Every candidate step of every take turn whose taken card is still to be melded, and
    of the turns after each of them: the C core's verdict is the reference's."""
    c_verdicts()
    asked = legal = marked = 0
    for _v, deal, _rng in seeded_play(VARIANTS, seats, lambda v: 1100 * v + seats, 250):
        if not pending_turn(deal):
            continue
        for turn in turns_of(deal):
            n, ok = agree(turn)
            asked += n
            legal += ok
            marked += n if turn.turn_marks else 0
    assert asked > 2000
    assert 0 < legal < asked
    assert marked > 100


@pytest.mark.parametrize("seats", [2, 4])
def test_the_c_identity_verdicts_answer_as_a_pure_process_in_seeded_play(seats: int) -> None:
    """The same seeded play in a pure Python process (``KONKUN_PURE=1``: the reference)
    and here (the C core) meets the same take turns and gives the same verdicts."""
    c_verdicts()
    steps = 300
    seeds = [1300 * v + seats for v in range(len(VARIANTS))]
    wanted, verdicts = answers_in_play(
        VARIANTS, seats, seeds, steps, lambda deal, _seat: pending_turn(deal),
        lambda deal, seat: deal.identity_verdicts(
            deal.taken_candidates(seat, deal.hands[seat])))
    assert pure_answers("legal_steps.C_IDENTITY_VERDICTS",
                        "deal.identity_verdicts(deal.taken_candidates(seat, deal.hands[seat]))",
                        VARIANTS, seats, seeds, steps, wanted) == verdicts
    assert len(verdicts) > 100


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32), st.sampled_from(VARIANTS), st.integers(2, 5))
def test_the_c_identity_verdicts_are_the_references_on_random_play(
        seed: int, options: dict[str, str], seats: int) -> None:
    """A deal played at random (any seed, rule options and seats) to its first take turns
    with jokers laid this turn where it can: every candidate step's verdict is the
    reference's."""
    c_verdicts()
    rng = random.Random(seed)
    deal = new_deal(KunkenRules.from_options(options), seats, 0, rng)
    met = 0
    while not deal.is_over() and met < 3:
        if pending_turn(deal):
            agree(deal)
            met += 1
        actions = deal.legal_actions()
        jokered = [a for a in actions if a.slots and any(x >= 52 for x in a.slots)
                   and a.kind != "discard"]
        deal.push(rng.choice(jokered if jokered and rng.random() < 0.7 else actions))


def biased_step(deal: KunkenDeal, rng: random.Random) -> Action:
    """A random legal action, biased towards taking a joker and laying jokers (the turns
    with marks, the taken joker's among them)."""
    actions = deal.legal_actions()
    takes = [a for a in actions if a.kind == "take" and deal.bank[a.target] == 52]
    jokered = [a for a in actions if a.kind in ("meld", "layoff")
               and any(x >= 52 for x in a.slots)]
    favoured = takes or jokered
    return rng.choice(favoured if favoured and rng.random() < 0.8 else actions)


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_identity_verdicts_are_the_references_in_joker_biased_play(seats: int) -> None:
    """Play biased towards taking jokers and laying them (every rule option): every
    candidate step of every pending take turn, the taken joker laid among them."""
    c_verdicts()
    taken_out = 0
    for v, options in enumerate(VARIANTS):
        rng = random.Random(1700 * v + seats)
        for _deal in range(4):
            deal = new_deal(KunkenRules.from_options(options), seats, 0, rng)
            while not deal.is_over():
                if pending_turn(deal):
                    agree(deal)
                    taken_out += deal.taken_joker_out()
                deal.push(biased_step(deal, rng))
    assert taken_out > 10


def marked_position() -> tuple[KunkenDeal, list[Action]]:
    """A take turn of seeded play with a joker mark and a sequence without jokers on the
    table, and its candidate steps."""
    deal = _marked_deal().copy()
    seat = deal.to_move
    assert seat is not None
    return deal, deal.taken_candidates(seat, deal.hands[seat])


@functools.cache
def _marked_deal() -> KunkenDeal:
    for seed in range(500):
        for _v, deal, _rng in seeded_play(VARIANTS[:1], 4, lambda v, s=seed: s, None):
            if pending_turn(deal) and deal.turn_marks and any(
                    m[0] == 0 and not m[4] for m in deal.compact_table()):
                return deal.copy()
    raise AssertionError("no marked take turn")


def bad_cases() -> list[tuple[int, object, str]]:
    deal, steps = marked_position()
    table = deal.compact_table()
    mark = deal.turn_marks[0]
    number = mark >> 7
    plain = next(i for i, m in enumerate(table) if m[0] == 0 and not m[4])
    seat = deal.to_move
    assert seat is not None
    lacking = next(k for k in range(52) if not deal.hands[seat][k])
    return [
        (0, None, "hand must be a list"),
        (0, [0] * 52, "hand must have 53"),
        (0, [4] + [0] * 52, "hand 0"),
        (1, [0] * 52 + [8], "notold 52"),
        (1, [3] * 53, "more than the hand"),
        (2, 53, "card is"),
        (2, None, "card must be an int"),
        (3, 2**31, "need is"),
        (4, 1, "layout must be a bool"),
        (5, list(table), "table must be a tuple"),
        (5, (*table[:-1], (2, 0, 0, 3, 0)), "kind of table meld"),
        (6, None, "replace must be a bool"),
        (7, None, "marks must be a list"),
        (7, [mark] * 9, "more than 8"),
        (7, [len(table) << 7], "mark 0 is"),
        (7, [-1], "mark 0 is"),
        (7, ["x"], "mark 0 must be an int"),
        (7, [joker_mark(plain, table[plain][1] * 13 + table[plain][2], False)],
         "not a joker of the table"),
        (7, [joker_mark(number, SET_JOKER if table[number][0] == 0 else 0, False)],
         "not a joker of the table"),
        (7, [mark | 1] if deal.take_card != 52 else [mark | 1, mark | 1],
         "not a joker of the table"),
        (7, [mark] * (1 + bin(table[number][4]).count("1") + (
            bin(table[number][3]).count("1") if table[number][0] else 0)),
         "not a joker of the table"),
        (8, tuple(steps), "steps must be a list"),
        (8, [None], "has no attribute"),
        (8, [DRAW_ACTION], "not a meld, lay-off or swap"),
        (8, [discard(0)], "not a meld, lay-off or swap"),
        (8, [meld((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13))], "not 3 to 13 slots"),
        (8, [meld((0, 14, 2))], "canonical form"),
        (8, [meld((lacking, lacking + 13 if lacking < 39 else lacking - 13, 52))],
         "meld 0 is"),
        (8, [layoff(len(table), 0)], "meld number of step"),
        (8, [layoff(0, 200)], "card of step"),
        (8, [layoff(plain, lacking)], "not a lay-off the hand can make"),
        (8, [swap(plain, lacking)], "not a swap the hand can make"),
        (8, [swap(number, 52)], "card of step"),
        (8, [Action(kind=legal_steps.LAYOFF, number=None, slots=(0,))], "without a meld"),
        (8, [Action(kind=legal_steps.SWAP, number=0, slots=(0, 1))], "not one card"),
    ]


@pytest.mark.parametrize("case", range(35))
def test_bad_input_to_the_c_identity_verdicts_raises(case: int) -> None:
    """Each bad argument (counts, card, need, bools, table, marks not jokers of the table
    this turn may have laid, steps that are not ones the hand can make) raises a typed
    error naming it; the good call still answers as the reference."""
    verdicts = c_verdicts()
    cases = bad_cases()
    assert len(cases) == 35
    index, bad, message = cases[case]
    deal, steps = marked_position()
    args = arguments(deal, steps)
    args[index] = bad
    with pytest.raises((TypeError, ValueError, AttributeError), match=message):
        verdicts(*args)
    assert verdicts(*arguments(deal, steps)) == [
        deal.reference_identity_completes(a) for a in steps]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 8), RANDOM_VALUES, st.integers(0, 52))
def test_random_input_to_the_c_identity_verdicts_is_refused_or_answered(
        index: int, value: object, k: int) -> None:
    """One argument (or one count of a hand, a mark, a step's card) random: an error naming
    the input, or a verdict on each step."""
    deal, steps = marked_position()
    args = arguments(deal, steps)
    args = [list(a) if isinstance(a, list) else a for a in args]
    if index in (0, 1):
        args[index][k] = value
    elif index == 7:
        args[7] = [*args[7], value]
    elif index == 8:
        args[8] = [*steps, Action(kind=legal_steps.LAYOFF, number=k % 4,
                                  slots=(value,))]  # type: ignore[arg-type]
    else:
        args[index] = value
    try:
        answer = c_verdicts()(*args)
    except (TypeError, ValueError):
        return
    assert len(answer) == len(args[8]) and all(isinstance(x, bool) for x in answer)


def test_the_c_identity_verdicts_keep_no_references_or_memory() -> None:
    """Many calls (answered and refused) leave the arguments' reference counts and the
    traced memory as they were."""
    verdicts = c_verdicts()
    deal, steps = marked_position()
    args = arguments(deal, steps)
    held = [a for a in args if isinstance(a, list | tuple)] + steps
    counts = [sys.getrefcount(a) for a in held]

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            verdicts(*args)
            with pytest.raises(ValueError, match="mark"):
                verdicts(*args[:7], [-5], steps)
            with pytest.raises(ValueError, match="not a meld"):
                verdicts(*args[:8], [*steps, DRAW_ACTION])

    grown = memory_grown_by(ask, 5, 100)
    assert grown < 20_000, grown
    assert [sys.getrefcount(a) for a in held] == counts


def test_the_identity_verdicts_are_the_engines_when_built() -> None:
    """``C_IDENTITY_VERDICTS`` is the C core's ``identity_verdicts`` exactly when the C
    judge runs (``None`` with ``KONKUN_PURE=1``)."""
    if legal_steps.completion.C_JUDGE is None:
        assert legal_steps.C_IDENTITY_VERDICTS is None
    else:
        from konkun.kunken import hand_search
        assert legal_steps.C_IDENTITY_VERDICTS is hand_search.identity_verdicts
