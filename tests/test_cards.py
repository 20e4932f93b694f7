"""Card text, decks, shuffles and the first-dealer draw (RULES.md: card text, First dealer)."""

from __future__ import annotations

import itertools
import pickle
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from konkun.cards import (
    JOKER,
    Card,
    HashRandom,
    Rank,
    Suit,
    double_deck,
    draw_for_dealer,
    format_cards,
    parse_cards,
    rng_for_seed,
    secure_shuffle,
    shuffled,
    standard_deck,
)
from konkun.errors import InvalidCardError


def test_card_text_ten_of_diamonds() -> None:
    card = Card.parse("Td")
    assert card.rank is Rank.TEN and card.suit is Suit.DIAMONDS
    assert str(card) == "Td"


@pytest.mark.parametrize("text", ["10d", "T♦", "t♦", "10♦", "TD"])
def test_card_text_accepts_10_and_suit_symbols(text: str) -> None:
    assert Card.parse(text) is Card.of(Rank.TEN, Suit.DIAMONDS)


def test_card_text_joker_is_x() -> None:
    assert Card.parse("X") is JOKER and JOKER.is_joker and str(JOKER) == "X"


@pytest.mark.parametrize("text", ["", "Z", "1d", "Ty", "11c", "AsX", "♦"])
def test_bad_card_text_is_a_clear_error(text: str) -> None:
    with pytest.raises(InvalidCardError, match="invalid"):
        Card.parse(text)


def test_card_list_compact_and_separated() -> None:
    assert format_cards(parse_cards("As7h2cQd")) == "As7h2cQd"
    assert [c.text for c in parse_cards("As 10d, X 2♣")] == ["As", "Td", "X", "2c"]
    assert parse_cards("-") == [] and format_cards([]) == "-"


def test_card_list_error_names_the_position() -> None:
    with pytest.raises(InvalidCardError, match=r"'Zz' at character 3 of 'AsZz'"):
        parse_cards("AsZz")


@given(st.lists(st.sampled_from([*standard_deck(), JOKER]), max_size=20))
def test_card_list_round_trip(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards


def test_standard_deck_has_52_distinct_cards() -> None:
    deck = standard_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert Counter(c.suit for c in deck) == dict.fromkeys(Suit, 13)


def test_double_deck_has_108_cards_with_four_jokers() -> None:
    deck = double_deck()
    assert len(deck) == 108 and deck.count(JOKER) == 4
    assert all(n == 2 for c, n in Counter(deck).items() if not c.is_joker)
    assert len(double_deck(jokers=2)) == 106


def test_cards_are_interned_across_pickle() -> None:
    card = Card.parse("Qh")
    assert pickle.loads(pickle.dumps(card)) is card


def test_seeded_shuffle_is_reproducible_and_a_permutation() -> None:
    a = shuffled(standard_deck(), random.Random(7))
    b = shuffled(standard_deck(), random.Random(7))
    assert a == b and sorted(a) == standard_deck()


def test_secure_shuffle_is_a_permutation() -> None:
    deck = standard_deck()
    secure_shuffle(deck)
    assert sorted(deck) == standard_deck()


def test_hash_random_replays_from_its_key() -> None:
    one = shuffled(standard_deck(), HashRandom("secret"))
    two = shuffled(standard_deck(), rng_for_seed("secret"))
    other = shuffled(standard_deck(), HashRandom("other"))
    assert one == two and one != other


def test_first_dealer_is_the_highest_draw() -> None:
    for seed in range(200):
        dealer, rounds = draw_for_dealer(4, random.Random(seed))
        last = rounds[-1]
        assert set(last) <= set(range(4)) and dealer in last
        best = max(int(c.rank or 0) for c in last.values())
        assert int(last[dealer].rank or 0) == best
        assert sum(int(c.rank or 0) == best for c in last.values()) == 1


def test_first_dealer_ties_draw_again_among_themselves() -> None:
    tied = [seed for seed in range(500) if len(draw_for_dealer(3, random.Random(seed))[1]) > 1]
    assert tied, "some seed must produce a tie"
    for seed in tied:
        _, rounds = draw_for_dealer(3, random.Random(seed))
        for earlier, later in itertools.pairwise(rounds):
            best = max(int(c.rank or 0) for c in earlier.values())
            assert set(later) == {s for s, c in earlier.items() if int(c.rank or 0) == best}


def test_hash_random_pickles_mid_stream() -> None:
    rng = HashRandom("secret")
    rng.random()
    clone = pickle.loads(pickle.dumps(rng))
    assert [clone.random() for _ in range(5)] == [rng.random() for _ in range(5)]
