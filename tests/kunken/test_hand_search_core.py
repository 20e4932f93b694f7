"""The C core of the arrangement search (``konkun.kunken._hand_search``, built with the
compiled engine) against its Python reference (``arrangement.ReferenceSearch``): the same
answers on random hands and on the hands of seeded play over every rule option and 2-5
seats, and bad input refused with an error, never a crash."""

from __future__ import annotations

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken import KunkenRules, new_deal
from konkun.kunken.arrangement import C_SEARCH, HandSearch, ReferenceSearch, Search

CARDS = 52


def require_c_core() -> None:
    """Skip unless the C core is built and in use (CI requires it)."""
    if C_SEARCH is not None:
        return
    if os.environ.get("KONKUN_REQUIRE_NATIVE") == "1":
        pytest.fail("KONKUN_REQUIRE_NATIVE=1 but the C core is not built")
    pytest.skip("the C core is not built (python -m konkun.native --build)")


def c_search(counts: list[int], replace: bool) -> Search:
    assert C_SEARCH is not None
    return C_SEARCH(counts, replace)


def counts_of(cards: list[int]) -> list[int]:
    counts = [0] * 53
    for card in cards:
        counts[card] += 1
    return counts


def agree(hand: list[int], replace: bool, parts: list[tuple[list[int], int, bool]]) -> None:
    """Both searches, built for ``hand``, answer each (part, need, leave) alike, in order
    (so their memos fill alike), and leave the counts as they were."""
    c, reference = c_search(hand, replace), ReferenceSearch(hand, replace)
    for part, need, leave in parts:
        before = list(part)
        assert c.live_value(part) == reference.live_value(part), part
        expected = reference.reach_from(part, need, leave)
        assert part == before
        assert c.reach_from(part, need, leave) == expected, (hand, replace, part, need, leave)
        assert part == before


DOUBLE_DECK = [*range(CARDS), *range(CARDS), 52, 52, 52, 52]


@st.composite
def hands_and_questions(draw: st.DrawFn) -> tuple[list[int], bool, list[tuple[list[int], int,
                                                                                bool]]]:
    """A hand of up to 30 cards of the two decks, and questions about parts of it."""
    cards = draw(st.lists(st.sampled_from(range(len(DOUBLE_DECK))), max_size=30, unique=True))
    hand = counts_of([DOUBLE_DECK[i] for i in cards])
    questions = []
    for _ in range(draw(st.integers(1, 6))):
        kept = draw(st.lists(st.booleans(), min_size=len(cards), max_size=len(cards)))
        part = counts_of([DOUBLE_DECK[i] for i, keep in zip(cards, kept, strict=True) if keep])
        questions.append((part, draw(st.integers(-5, 40)) * 5, draw(st.booleans())))
    return hand, draw(st.booleans()), questions


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hands_and_questions())
def test_the_c_search_answers_as_the_reference_on_random_hands(
        case: tuple[list[int], bool, list[tuple[list[int], int, bool]]]) -> None:
    require_c_core()
    hand, replace, questions = case
    agree(hand, replace, [(hand, need, leave) for _, need, leave in questions] + questions)


VARIANTS: list[dict[str, str]] = [
    {}, {"jokers": "0"}, {"jokers": "2"}, {"opening_minimum": "0"}, {"opening_minimum": "70"},
    {"opening_minimum": "150"}, {"empty_stock": "end"}, {"max_stock_renewals": "0"},
    {"hand_size": "20"}, {"hand_size": "7"}, {"joker_for_held": "false"},
    {"swap_before_take": "true"}, {"joker_for_held": "false", "swap_before_take": "true"},
]
"""Every rule option of a deal (the match's ``deals``, ``target`` and ``tie`` do not reach
the search) away from its default."""


@pytest.mark.parametrize("seats", [2, 3, 4, 5])
def test_the_c_search_answers_as_the_reference_in_seeded_play(seats: int) -> None:
    """Each position of seeded random deals: the seat to move's hand, and its hand with the
    whole bank, asked for the opening minimum and for random amounts."""
    require_c_core()
    asked = 0
    for v, options in enumerate(VARIANTS):
        rules = KunkenRules.from_options(options)
        rng = random.Random(100 * v + seats)
        deal = new_deal(rules, seats, 0, rng)
        while not deal.is_over():
            assert deal.to_move is not None
            hand = deal.hands[deal.to_move]
            whole = list(hand)
            for card in deal.bank:
                whole[card] += 1
            for counts in (hand, whole):
                agree(counts, rules.joker_for_held,
                      [(counts, rules.opening_minimum, True), (hand, rng.randrange(0, 120, 5),
                                                               rng.random() < 0.5)])
                asked += 1
            deal.push(rng.choice(deal.legal_actions()))
    assert asked > 100 * len(VARIANTS)


@pytest.mark.parametrize("core", [True, False], ids=["c", "reference"])
def test_a_hand_that_melds_whole_falls_short_when_a_card_must_be_kept(core: bool) -> None:
    """Ac Ad Ah 2c 2d 2h: two sets worth 45 together; kept a card, one set (30) at most.
    Asked in both orders of the same search, so a memo that forgot whether a card is kept
    would answer the second question from the first."""
    if core:
        require_c_core()
    aces_and_twos = counts_of([12, 25, 38, 0, 13, 26])  # Ac Ad Ah 2c 2d 2h
    for order in ((False, True), (True, False)):
        search = c_search(aces_and_twos, True) if core else ReferenceSearch(aces_and_twos, True)
        answers = {leave: search.reach_from(aces_and_twos, 45, leave) for leave in order}
        assert answers == {False: True, True: False}
        assert search.reach_from(aces_and_twos, 30, True)
        assert not search.reach_from(aces_and_twos, 35, True)


def test_hand_search_runs_the_c_core_when_it_is_built() -> None:
    require_c_core()
    assert C_SEARCH is not None
    assert isinstance(HandSearch([0] * 53).search, C_SEARCH)  # type: ignore[arg-type]


BAD_COUNTS = st.one_of(
    st.lists(st.integers(-3, 9), min_size=0, max_size=60),
    st.lists(st.one_of(st.integers(0, 2), st.none(), st.floats(), st.text(max_size=2),
                       st.booleans(), st.integers(2**62, 2**70)), min_size=53, max_size=53),
    st.none(), st.integers(), st.text(max_size=5),
)


def valid(counts: object) -> bool:
    return (isinstance(counts, list) and len(counts) == 53
            and all(type(n) is int for n in counts)
            and all(0 <= n <= 3 for n in counts[:CARDS]) and 0 <= counts[CARDS] <= 7)


@settings(max_examples=300, deadline=None)
@given(BAD_COUNTS, st.one_of(st.integers(), st.none(), st.floats()), st.booleans())
def test_bad_input_to_the_c_search_raises_an_error_naming_it(
        counts: object, need: object, replace: bool) -> None:
    """Random counts and needs, most of them bad: a TypeError or ValueError, never a crash;
    good ones answer as the reference does."""
    require_c_core()
    assert C_SEARCH is not None
    if not valid(counts):
        with pytest.raises((TypeError, ValueError), match="count"):
            C_SEARCH(counts, replace)  # type: ignore[arg-type]
        return
    assert isinstance(counts, list)
    search = C_SEARCH(counts, replace)
    if not (type(need) is int and abs(need) <= 2**30):
        with pytest.raises((TypeError, ValueError), match="need"):
            search.reach_from(counts, need, True)  # type: ignore[arg-type]
        return
    assert isinstance(need, int)
    assert search.reach_from(counts, need, True) == ReferenceSearch(counts, replace).reach_from(
        counts, need, True)


@pytest.mark.parametrize("counts", [[0] * 52 + [8], [4] + [0] * 52, [-1] + [0] * 52, [0] * 52,
                                    [0.0] * 53])
def test_a_hand_the_c_search_cannot_code_is_refused_before_the_search(counts: list[int]
                                                                      ) -> None:
    """Its hand code holds 2 bits a card and 3 for the jokers: more is refused, naming the
    count, before anything is searched."""
    require_c_core()
    with pytest.raises((TypeError, ValueError), match="count"):
        c_search(counts, False)
    with pytest.raises((TypeError, ValueError), match="count"):
        c_search([0] * 53, False).reach_from(counts, 10, False)
