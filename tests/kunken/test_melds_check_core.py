"""The C core's melds-alone check of a take turn (``hand_search.can_complete``, run by
``solver.can_complete`` when built, and by the C judge itself) against its Python reference
(``solver.reference_can_complete``): the same answers on the turns of seeded play over every
rule option and 2-5 seats (each take turn's hand now and after each of its candidate steps,
with the points due or not, the taken card melded or not, with no search, the hand's own
search or the search of the hand with the whole bank), on random hands, and for a joker won
back from the taken card's meld; bad input refused with an error, never a crash; no
references or memory kept."""

from __future__ import annotations

import sys
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import solver
from konkun.kunken.arrangement import HandSearch
from konkun.kunken.state import KunkenDeal

from .helpers import memory_grown_by, seeded_play, unfinished_take_turns
from .test_completion_judge_core import RANDOM_VALUES
from .test_hand_search_core import DOUBLE_DECK, VARIANTS, counts_of, require_c_core

CARDS = 52
Question = tuple[list[int], list[int], int, int, bool, HandSearch | None, int, bool, bool]
"""solver.can_complete's arguments: counts, taken, card, need, pending, search, size,
checked, replace."""


def c_check() -> Any:
    require_c_core()
    assert solver.C_CAN_COMPLETE is not None
    return solver.C_CAN_COMPLETE


def agree(question: Question) -> bool:
    """The C check and the reference answer alike, and leave the counts as they were; the
    answer."""
    counts, taken, card, need, pending, search, size, checked, replace = question
    before = (list(counts), list(taken))
    expected = solver.reference_can_complete(*question)
    assert (counts, taken) == before
    answer = c_check()(counts, taken, card, need, pending,
                       None if search is None else search.search, size, checked, replace)
    assert answer == expected, question
    assert (counts, taken) == before
    return expected


def turn_questions(deal: KunkenDeal) -> list[Question]:
    """What the engine asks of a take turn's hand, and more: the points due and other
    amounts, the taken card melded or not, no search, the hand's search or the search of
    the hand with the whole bank (as the take scan builds it), the size given or not."""
    seat = deal.to_move
    assert seat is not None
    hand, taken = list(deal.hands[seat]), list(deal.turn_notold)
    replace = deal.rules.joker_for_held
    whole = list(hand)
    for card in deal.bank:
        if whole[card] < (7 if card == CARDS else 3):
            whole[card] += 1
    searches = [None, HandSearch(hand, replace), HandSearch(whole, replace)]
    out: list[Question] = []
    for need in sorted({deal.need, 0, 30, 55, 90}):
        for pending in (True, False):
            for i, search in enumerate(searches):
                size = sum(hand) if i == 1 else -1
                out.append((hand, taken, deal.take_card, need, pending, search, size, False,
                            replace))
    out.append((hand, taken, deal.take_card, deal.need, deal.pending, None, -1, True,
                not replace))
    return out


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_melds_check_answers_as_the_reference_in_seeded_play(seats: int) -> None:
    """Every rule option, seeded random deals: at each take turn still to be completed,
    the hand now and after each candidate step (:func:`turn_questions`)."""
    c_check()
    asked = yes = 0
    for _v, deal, _rng in seeded_play(VARIANTS, seats, lambda v: 500 * v + seats, 300):
        seat = deal.to_move
        assert seat is not None
        if deal.take_card >= 0 and not deal.obligations_met():
            for turn in unfinished_take_turns(deal, 8):
                for question in turn_questions(turn):
                    yes += agree(question)
                    asked += 1
    assert asked > 200 * len(VARIANTS)
    assert 0 < yes < asked


@st.composite
def random_questions(draw: st.DrawFn) -> Question:
    """A hand of up to 24 cards of the two decks with up to 7 jokers, some of them taken,
    a taken card it holds (or not), and a search of the hand or of more."""
    cards = draw(st.lists(st.sampled_from(range(len(DOUBLE_DECK))), max_size=24, unique=True))
    hand = counts_of([DOUBLE_DECK[i] for i in cards])
    hand[CARDS] = draw(st.integers(0, 7))
    taken = [draw(st.integers(0, n)) if n and draw(st.integers(0, 3)) == 0 else 0
             for n in hand]
    held = [k for k in range(CARDS + 1) if hand[k]]
    card = draw(st.sampled_from(held)) if held and draw(st.booleans()) else draw(
        st.integers(0, CARDS))
    if hand[card] and not taken[card]:
        taken[card] = 1
    replace = draw(st.booleans())
    search: HandSearch | None = None
    kind = draw(st.integers(0, 2))
    if kind:
        more = list(hand)
        for k in draw(st.lists(st.integers(0, CARDS), max_size=6)) if kind == 2 else []:
            more[k] = min(more[k] + 1, 7 if k == CARDS else 3)
        search = HandSearch(more, draw(st.booleans()) if kind == 2 else replace)
    return (hand, taken, card, draw(st.integers(-10, 40)) * 5, draw(st.booleans()), search,
            draw(st.sampled_from([-1, sum(hand), sum(hand) + 1])), draw(st.booleans()),
            replace)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_questions())
def test_the_c_melds_check_answers_as_the_reference_on_random_hands(question: Question) -> None:
    agree(question)


def test_a_joker_won_back_from_the_taken_cards_meld_opens() -> None:
    """joker_for_held, 40 points due, Tc taken with 8c and 9c; the hand also holds Jc, Qh,
    Kh, 7s and an old joker. 9c Tc Jc has one old card, X=9c Tc Jc two (Jc and the old
    joker, 20 points); once it is laid, 9c wins the joker back and Qh Kh X (30) makes the
    rest of the opening, 8c or 7s kept to discard. No meld of the hand alone opens, so only
    the joker won back does; without the joker nothing does."""
    c_check()
    # clubs are suit 0: 8c=6, 9c=7, Tc=8, Jc=9; hearts suit 2: Qh=36, Kh=37
    hand = counts_of([6, 7, 8, 9, 36, 37, 44])
    hand[CARDS] = 1
    taken = counts_of([6, 7, 8])
    question: Question = (hand, taken, 8, 40, True, None, -1, False, True)
    assert agree(question)
    won = list(hand)
    won[CARDS] = 0  # without the joker to win back, Qh Kh alone make no meld
    assert not agree((won, taken, 8, 40, True, None, -1, False, True))


@pytest.mark.parametrize(("index", "bad", "message"), [
    (0, [0] * 52, "counts must have 53"),
    (0, (0,) * 53, "counts must be a list"),
    (0, [4] + [0] * 52, "counts 0 is 4"),
    (0, [0] * 52 + [8], "counts 52 is 8"),
    (0, [0.0] * 53, "counts 0 must be an int"),
    (0, [True] + [0] * 52, "counts 0 must be an int"),
    (1, [-1] + [0] * 52, "taken 0 is -1"),
    (1, None, "taken must be a list"),
    (2, 53, "card is 53"),
    (2, -1, "card is -1"),
    (2, "Ac", "card must be an int"),
    (3, 2**40, "need is"),
    (3, 1.5, "need must be an int"),
    (4, None, "pending must be a bool"),
    (5, [0] * 53, "search must be None or a Search"),
    (6, 2**40, "size is"),
    (6, "3", "size must be an int"),
    (7, 1, "checked must be a bool"),
    (8, "yes", "replace must be a bool"),
])
def test_bad_input_to_the_c_melds_check_raises_an_error_naming_it(index: int, bad: object,
                                                                  message: str) -> None:
    check = c_check()
    args: list[object] = [[1] * 53, [0] * 53, 0, 30, True, None, -1, False, True]
    check(*args)
    args[index] = bad
    with pytest.raises((TypeError, ValueError), match=message):
        check(*args)


def test_a_count_that_is_an_int_of_a_subclass_is_read_by_its_value() -> None:
    """Counts are read by the identity of the interpreter's small ints when they are ones,
    else by value: an int subclass counts as its value, a bool is refused."""
    check = c_check()

    class Count(int):
        pass

    hand = counts_of([6, 7, 8, 9, 36, 37, 44])
    hand[CARDS] = 1
    taken = counts_of([6, 7, 8])
    odd: list[Any] = [Count(n) for n in hand]
    rest = (None, -1, False, True)
    assert check(odd, taken, 8, 40, True, *rest) is check(hand, taken, 8, 40, True, *rest)
    assert check(odd, taken, 8, 40, True, *rest) is True
    with pytest.raises(TypeError, match="counts 52 must be an int"):
        check([*hand[:52], True], taken, 8, 40, True, *rest)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_random_input_to_the_c_melds_check_raises_a_typed_error_or_answers_as_the_reference(
        data: st.DataObject) -> None:
    """Random arguments, each of them bad or good: a TypeError or ValueError, never a
    crash; accepted ones are answered as the reference answers them."""
    check = c_check()
    question: list[Any] = list(data.draw(random_questions()))
    for i in range(len(question)):
        if data.draw(st.integers(0, 5)) == 0:
            question[i] = data.draw(st.one_of(st.lists(RANDOM_VALUES, min_size=52,
                                                       max_size=54), RANDOM_VALUES)
                                    if i in (0, 1) else RANDOM_VALUES)
    search = question[5]
    try:
        answer = check(*question[:5], search.search if isinstance(search, HandSearch)
                       else search, *question[6:])
    except (TypeError, ValueError):
        return
    assert answer == solver.reference_can_complete(*question)


def test_the_c_melds_check_keeps_no_references_and_no_memory() -> None:
    """Many questions, with and without a search, reaching the search and the jokers won
    back: the arguments' reference counts are as before, and memory does not grow."""
    check = c_check()
    hand = counts_of([6, 7, 8, 9, 36, 37, 44])
    hand[CARDS] = 1
    taken = counts_of([6, 7, 8])
    search = HandSearch(hand, True).search

    def ask(rounds: int) -> None:
        for _ in range(rounds):
            assert check(hand, taken, 8, 40, True, None, -1, False, True)
            assert check(hand, taken, 8, 40, True, search, -1, False, True)
            assert not check(hand, taken, 8, 200, True, search, 8, True, True)
            assert check(hand, taken, 8, 20, False, None, -1, False, False)
            with pytest.raises(ValueError, match="card is"):
                check(hand, taken, 53, 40, True, search)

    counts = [sys.getrefcount(x) for x in (hand, taken, search)]
    ask(200)
    grown = memory_grown_by(ask, 50, 2000)
    assert grown < 20_000, grown
    assert [sys.getrefcount(x) for x in (hand, taken, search)] == counts
