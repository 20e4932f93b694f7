"""The research option ``deck_ranks``: a deck of the lowest ranks only, the Ace first (a
smaller game for MCCFR); the default, 13, is the whole deck and the standard game."""

from __future__ import annotations

import random

import pytest

from konkun.cards import Card, Rank, between, shuffle
from konkun.errors import InvalidPositionError, InvalidRuleError
from konkun.game import get_game
from konkun.konchinka import KonchinkaRules, new_deal
from konkun.konchinka.dealing import deal_from_deck, deal_from_seed, shuffled_and_cut
from konkun.konchinka.deck import deck_indices

SHORT = KonchinkaRules().with_options({"deck_ranks": "7"})
LOW_RANKS = {Rank.ACE, Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX, Rank.SEVEN}


def test_deck_ranks_defaults_to_the_whole_deck() -> None:
    assert KonchinkaRules().deck_ranks == 13
    assert deck_indices() == list(range(52))
    assert get_game("konchinka").defaults()["deck_ranks"] == "13"


def test_deck_ranks_13_deals_the_standard_game() -> None:
    standard = KonchinkaRules()
    explicit = standard.with_options({"deck_ranks": "13"})
    for seed in range(20):
        assert deal_from_seed(explicit, 2, 0, seed).kpn() == \
            deal_from_seed(standard, 2, 0, seed).kpn()
    # the whole deck is shuffled and cut as it always was: 52 cards, 4 to 48 lifted
    rng_a, rng_b = random.Random(3), random.Random(3)
    deck = list(range(52))
    shuffle(deck, rng_b)
    point = between(4, 48, rng_b)
    assert shuffled_and_cut(rng_a, 13) == deck[point:] + deck[:point]


@pytest.mark.parametrize("seats", [2, 3])
def test_deck_ranks_7_deals_ace_to_seven_only(seats: int) -> None:
    for seed in range(30):
        deal = deal_from_seed(SHORT, seats, seed % seats, seed)
        dealt = [*(c for s in range(seats) for c in deal.hand(s)), *deal.table]
        assert len(set(dealt)) == 4 * seats + 4
        assert {card.rank for card in dealt} <= LOW_RANKS
        assert deal.stock_size == 28 - 4 * seats - 4
        assert len({card.rank for card in deal.table}) == 4  # the table fix still holds


@pytest.mark.parametrize("seats", [2, 3])
def test_deck_ranks_7_plays_out_all_28_cards(seats: int) -> None:
    rng = random.Random(7)
    for _ in range(60):
        deal = new_deal(SHORT, seats, 0, rng)
        moves = 0
        while not deal.is_over():
            legal = deal.legal_actions()
            deal.push(legal[rng.randrange(len(legal))])
            moves += 1
        assert moves == 28 - 4  # every card but the first table's is played
        assert sum(score.cards for score in deal.score().seats) == 28


def test_deck_ranks_deals_a_clean_table_when_the_hands_hold_whole_ranks() -> None:
    # two players hold every Ace and every 2: the table must come from ranks 3 to 7
    hands = [i for i in deck_indices(7) if Card.from_index(i).rank in (Rank.ACE, Rank.TWO)]
    rest = [i for i in deck_indices(7) if i not in hands]
    order: list[int] = []
    for round_number in range(4):  # each round: seat 1, seat 0, then the table
        order += [hands[2 * round_number], hands[2 * round_number + 1], rest.pop(0)]
    deck = [Card.from_index(i) for i in order + rest]
    deal = deal_from_deck(SHORT, 2, 0, deck, random.Random(2))
    assert {c.rank for c in [*deal.hand(0), *deal.hand(1)]} == {Rank.ACE, Rank.TWO}
    assert len({card.rank for card in deal.table}) == 4


def test_deck_ranks_refuses_a_player_count_it_does_not_deal_out_to() -> None:
    with pytest.raises(InvalidRuleError, match=r"deck_ranks=7 for 4 players.*2 or 3 players"):
        new_deal(SHORT, 4, 0, random.Random(1))
    nine = KonchinkaRules().with_options({"deck_ranks": "9"})
    with pytest.raises(InvalidRuleError, match=r"deck_ranks=9 for 3 players.*2 or 4 players"):
        new_deal(nine, 3, 0, random.Random(1))
    with pytest.raises(InvalidRuleError, match="deck_ranks"):
        KonchinkaRules().with_options({"deck_ranks": "6"})


def test_deck_ranks_deal_from_deck_wants_the_short_deck() -> None:
    deck = [Card.from_index(i) for i in deck_indices(7)]
    assert len(deal_from_deck(SHORT, 2, 0, deck, random.Random(2)).hand(0)) == 4
    with pytest.raises(InvalidPositionError, match="28-card deck"):
        deal_from_deck(SHORT, 2, 0, [Card.from_index(i) for i in range(52)],
                       random.Random(2))


def test_a_two_player_deal_of_the_whole_deck_is_24_moves_each() -> None:
    """RULES.md: four rounds of six cards, every card but the first table's played; the
    two players alternate, so each makes 24 moves (the end-of-deal browser test plays the
    seven-rank deck instead, 12 moves each)."""
    rng = random.Random(11)
    for _ in range(20):
        deal = new_deal(KonchinkaRules(), 2, 0, rng)
        moves = [0, 0]
        while not deal.is_over():
            moves[deal.to_move] += 1
            legal = deal.legal_actions()
            deal.push(legal[rng.randrange(len(legal))])
        assert moves == [24, 24]
