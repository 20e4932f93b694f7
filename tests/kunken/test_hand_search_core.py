"""The C core of the arrangement search (``konkun.kunken.hand_search``, built with the
compiled engine) against its Python reference (``arrangement.ReferenceSearch``): the same
answers on random hands and on the hands of seeded play over every rule option and 2-5
seats, the same melds listed for every group (``arrangement.group_options``), and bad input
refused with an error, never a crash."""

from __future__ import annotations

from typing import cast

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from konkun.kunken.arrangement import C_SEARCH, HandSearch, ReferenceSearch, Search, group_options
from konkun.kunken.hand_melds import REPLACED_KIND, SEQUENCE_KIND, SET_KIND
from konkun.kunken.melds import POSITION_VALUE, VALUE
from native_checks import require_native

from .helpers import seeded_play

CARDS = 52


def require_c_core() -> None:
    """Skip unless the C core is built and in use (CI requires it)."""
    require_native(C_SEARCH is not None, "the C core")


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
    for _v, deal, rng in seeded_play(VARIANTS, seats, lambda v: 100 * v + seats):
        rules = deal.rules
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


def c_listing(kind: int, place: int, mask: int, jokers: int
              ) -> tuple[tuple[int, tuple[tuple[int, ...], int, int, int]], ...]:
    from konkun.kunken import hand_search
    return hand_search.group_options(kind, place, mask, jokers)


def reference_listing(kind: int, place: int, mask: int, jokers: int
                      ) -> tuple[tuple[int, tuple[tuple[int, ...], int, int, int]], ...]:
    """``arrangement.group_options`` without the hand code (the C core keeps its own)."""
    out = []
    for low, option in group_options(kind, place, mask, jokers):
        reals, used, points, _code, value = cast("tuple[tuple[int, ...], int, int, int, int]",
                                                 option)
        out.append((low, (reals, used, points, value)))
    return tuple(out)


def test_the_c_core_lists_every_group_of_sets_as_the_reference() -> None:
    """Every rank, every choice of held suits and 0-2 jokers: the same sets, in order."""
    require_c_core()
    for place in range(13):
        for mask in range(16):
            for jokers in range(3):
                assert c_listing(SET_KIND, place, mask, jokers) == reference_listing(
                    SET_KIND, place, mask, jokers), (place, mask, jokers)


def test_the_c_core_lists_every_group_of_sequences_as_the_reference() -> None:
    """Every held pattern of a suit (the suit turning with the pattern) and 0-6 jokers: the
    same sequences, in order; some sequences of 12 and 13 cards among them."""
    require_c_core()
    longest = 0
    for mask in range(1 << 13):
        for jokers in range(7):
            listed = c_listing(SEQUENCE_KIND, mask % 4, mask, jokers)
            assert listed == reference_listing(SEQUENCE_KIND, mask % 4, mask, jokers), (
                mask, jokers)
            longest = max([longest, *(len(reals) + used for _, (reals, used, _, _) in listed)])
    assert longest == 13


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 3), st.integers(0, (1 << 13) - 1), st.integers(0, 6))
def test_the_c_core_lists_sequences_with_jokers_for_held_cards_as_the_reference(
        suit: int, mask: int, jokers: int) -> None:
    """joker_for_held: the sequences, then their readings with held cards replaced by
    jokers, in order (random patterns: the long ones with many jokers list thousands)."""
    require_c_core()
    assert c_listing(REPLACED_KIND, suit, mask, jokers) == reference_listing(
        REPLACED_KIND, suit, mask, jokers)


def test_the_c_core_lists_the_readings_of_a_whole_suit_with_six_jokers() -> None:
    """The largest group: all 13 cards of a suit held and 6 jokers."""
    require_c_core()
    listed = c_listing(REPLACED_KIND, 2, (1 << 13) - 1, 6)
    assert listed == reference_listing(REPLACED_KIND, 2, (1 << 13) - 1, 6)
    assert max(used for _, (_, used, _, _) in listed) == 6


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.integers(-2, 20), st.none(), st.floats(), st.booleans()),
       st.one_of(st.integers(-2, 20), st.text(max_size=2), st.integers(2**62, 2**70)),
       st.one_of(st.integers(-5, 1 << 14), st.none()), st.one_of(st.integers(-2, 9), st.floats()))
def test_bad_input_to_the_c_listing_raises_an_error_naming_it(
        kind: object, place: object, mask: object, jokers: object) -> None:
    """Random group arguments, most out of range: an error naming the argument, never a
    crash; good ones list as the reference does."""
    require_c_core()
    arguments = {"kind": kind, "place": place, "mask": mask, "jokers": jokers}
    is_set = kind == 0
    limits = {"kind": 2, "place": 12 if is_set else 3, "mask": 15 if is_set else (1 << 13) - 1,
              "jokers": 2 if is_set else 6}
    bad = [name for name, value in arguments.items()
           if type(value) is not int or not 0 <= value <= limits[name]]
    if bad:
        with pytest.raises((TypeError, ValueError), match=bad[0]):
            c_listing(kind, place, mask, jokers)  # type: ignore[arg-type]
        return
    assert c_listing(kind, place, mask, jokers) == reference_listing(  # type: ignore[arg-type]
        kind, place, mask, jokers)  # type: ignore[arg-type]


@pytest.mark.parametrize(("values", "positions", "named"), [
    (VALUE[:52], POSITION_VALUE, "values"), ((*VALUE[:52], -1), POSITION_VALUE, "values"),
    (VALUE, (*POSITION_VALUE, 5), "position_values"), (VALUE, None, "sequences of ints"),
    ((*VALUE[:52], "10"), POSITION_VALUE, "values"),
])
def test_a_bad_configuration_of_the_c_core_is_refused_and_changes_nothing(
        values: object, positions: object, named: str) -> None:
    require_c_core()
    from konkun.kunken import hand_search
    with pytest.raises((TypeError, ValueError), match=named):
        hand_search.configure(values, positions)  # type: ignore[arg-type]
    assert c_listing(SET_KIND, 3, 7, 1) == reference_listing(SET_KIND, 3, 7, 1)
    agree(counts_of([0, 1, 2, 13, 26, 52]), True, [(counts_of([0, 1, 2, 13, 26, 52]), 40, True)])


def test_a_count_of_an_int_subclass_is_read_by_its_value() -> None:
    """Counts are read by the identity of the interpreter's small ints when they are ones,
    else by value: counts of an int subclass get the answers of plain ints; a bool is
    refused, as before."""
    require_c_core()

    class Count(int):
        pass

    hand = counts_of([11, 24, 37, 42, 43, 44])  # Kc Kd Kh 5s 6s 7s
    odd: list[int] = [Count(n) for n in hand]
    search = c_search(hand, True)
    for need in (30, 45, 46, 60):
        assert search.reach_from(odd, need, True) == search.reach_from(hand, need, True)
    assert c_search(odd, True).live_value(odd) == search.live_value(hand) > 0
    with pytest.raises(TypeError, match="count of card 0 must be an int"):
        search.reach_from([True, *hand[1:]], 30, True)
