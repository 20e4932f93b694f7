"""The C core's candidate melds of a hand (``hand_search.candidate_melds``, run by
``LegalSteps.candidate_melds`` when built: ``legal_steps.C_CANDIDATE_MELDS``) against its
Python reference (``LegalSteps.reference_candidate_melds``): the same melds in the same
order for every hand of seeded play over every rule option and 2-5 seats (and the hands of
the turns after each candidate step of a take), in a pure process too, on random hands,
bad input refused with an error and never a crash, no references or memory kept."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import hand_melds, legal_steps, solver
from konkun.kunken.melds import BARE_JOKER, JOKER_FOR
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


def c_melds() -> Any:
    require_c_core()
    assert legal_steps.C_CANDIDATE_MELDS is not None
    return legal_steps.C_CANDIDATE_MELDS


def defined_melds(hand: list[int], replace: bool) -> list[tuple[int, ...]]:
    """The candidate melds as ``LegalSteps.reference_candidate_melds`` lists them, from
    :func:`solver.hand_melds` and :func:`solver.declared_set_variants`."""
    melds = hand_melds.hand_melds(hand, replace)
    if hand[BARE_JOKER]:
        for meld in list(melds):
            melds += [v for v in solver.declared_set_variants(meld)
                      if replace or not hand[v[2] - JOKER_FOR]]
    return melds


def hands_of(deal: KunkenDeal) -> list[list[int]]:
    """Every seat's hand at ``deal``, and the mover's after each candidate step of an
    unfinished take turn."""
    hands = [list(h) for h in deal.hands]
    seat = deal.to_move
    if seat is not None and deal.pending and not deal.obligations_met():
        hands += [list(t.hands[seat]) for t in unfinished_take_turns(deal.copy(), 6)[1:]]
    return hands


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_candidate_melds_are_the_references_in_seeded_play(seats: int) -> None:
    """For every hand met in seeded play the C core lists the reference's melds, in its
    order, and leaves the hand as it was."""
    candidate_melds = c_melds()
    asked = listed = declared = 0
    for _v, deal, _rng in seeded_play(VARIANTS, seats, lambda v: 700 * v + seats, 300):
        replace = deal.rules.joker_for_held
        for hand in hands_of(deal):
            before = list(hand)
            answer = candidate_melds(hand, replace)
            assert answer == deal.reference_candidate_melds(hand), (hand, replace)
            assert hand == before
            asked += 1
            listed += len(answer)
            declared += sum(1 for m in answer if len(m) == 3 and m[2] >= JOKER_FOR
                            and m[0] % 13 == m[1] % 13 == (m[2] - JOKER_FOR) % 13)
    assert asked > 1000
    assert listed > asked
    assert declared > 0


@pytest.mark.parametrize("seats", [2, 4])
def test_the_c_candidate_melds_answer_as_a_pure_process_in_seeded_play(seats: int) -> None:
    """The same seeded play in a pure Python process (``KONKUN_PURE=1``: the reference)
    and here (the C core) meets the same positions and lists the same candidate melds."""
    c_melds()
    steps = 300
    seeds = [900 * v + seats for v in range(len(VARIANTS))]
    wanted, listed = answers_in_play(
        VARIANTS, seats, seeds, steps, lambda _deal, _seat: True,
        lambda deal, seat: [list(m) for m in deal.candidate_melds(deal.hands[seat])])
    assert pure_answers("legal_steps.C_CANDIDATE_MELDS",
                        "deal.candidate_melds(deal.hands[seat])",
                        VARIANTS, seats, seeds, steps, wanted) == listed
    assert len(listed) > 1000


HANDS = st.tuples(st.lists(st.integers(0, 3), min_size=52, max_size=52), st.integers(0, 7))


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(HANDS, st.integers(0, 52), st.booleans())
def test_the_c_candidate_melds_are_the_definitions_on_random_hands(
        hand: tuple[list[int], int], keep: int, replace: bool) -> None:
    """On random hands (copies up to 3, jokers up to 7, ``keep`` cards kept of 52 so that
    sparse hands are drawn too) the C core lists :func:`defined_melds`."""
    cards, jokers = hand
    counts = [c if k < keep else 0 for k, c in enumerate(cards)] + [jokers]
    assert c_melds()(counts, replace) == defined_melds(counts, replace)


GOOD = [[1, 1, 1] + [0] * 49 + [1], False]


@pytest.mark.parametrize(("index", "bad", "message"), [
    (0, None, "counts must be a sequence"),
    (0, [0] * 52, "counts must have 53 items"),
    (0, [0] * 54, "counts must have 53 items"),
    (0, [4] + [0] * 52, "count of card 0"),
    (0, [-1] + [0] * 52, "count of card 0"),
    (0, [0] * 52 + [8], "count of card 52"),
    (0, [0] * 52 + [2**70], "count of card 52"),
    (0, ["1"] + [0] * 52, "count of card 0"),
    (1, None, "replace must be a bool"),
    (1, 1, "replace must be a bool"),
])
def test_bad_input_to_the_c_candidate_melds_raises(index: int, bad: object,
                                                   message: str) -> None:
    candidate_melds = c_melds()
    args = list(GOOD)
    args[index] = bad
    with pytest.raises((TypeError, ValueError), match=message):
        candidate_melds(*args)
    assert candidate_melds(*GOOD) == defined_melds(*GOOD)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(RANDOM_VALUES, min_size=52, max_size=54), RANDOM_VALUES)
def test_random_input_to_the_c_candidate_melds_is_refused_or_answered(
        counts: list[object], replace: object) -> None:
    """An error naming the input, or the reference's melds."""
    try:
        answer = c_melds()(counts, replace)
    except (TypeError, ValueError):
        return
    assert answer == defined_melds(counts, replace)  # type: ignore[arg-type]


def test_the_c_candidate_melds_keep_no_references_or_memory() -> None:
    """Many calls (answered and refused) leave the arguments' reference counts and the
    traced memory as they were."""
    candidate_melds = c_melds()
    hands = [list(h) for _v, deal, _rng in seeded_play(VARIANTS[:3], 3, lambda v: v, 40)
             for h in deal.hands][:60]
    counts = [sys.getrefcount(h) for h in hands]

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            for hand in hands:
                candidate_melds(hand, True)
                candidate_melds(hand, False)
                with pytest.raises(TypeError, match="replace"):
                    candidate_melds(hand, None)
            with pytest.raises(ValueError, match="count of card"):
                candidate_melds([9] * 53, True)

    grown = memory_grown_by(ask, 5, 100)
    assert grown < 20_000, grown
    assert [sys.getrefcount(h) for h in hands] == counts


def test_the_candidate_melds_are_the_engines_when_built() -> None:
    """``C_CANDIDATE_MELDS`` is the C core's ``candidate_melds`` exactly when the C core
    runs (``None`` with ``KONKUN_PURE=1``)."""
    if legal_steps.C_SEARCH is None:
        assert legal_steps.C_CANDIDATE_MELDS is None
    else:
        from konkun.kunken import hand_search
        assert legal_steps.C_CANDIDATE_MELDS is hand_search.candidate_melds
