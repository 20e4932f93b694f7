"""Dealing a Konchinka deal: shuffle and cut (:func:`new_deal`, :func:`deal_from_seed`) or a
given deck order (:func:`deal_from_deck`), the four-round deal and the initial-table fix
(``RULES.md``, Deal and Initial table)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from konkun.cards import Card, Rank, between, rng_for_seed, shuffle
from konkun.errors import InvalidPositionError
from konkun.game import check_dealer, check_seat_count
from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.deck import DECKS, FULL_RANKS, HAND_SIZE, TABLE_SIZE, deck_indices
from konkun.konchinka.rules import MAX_SEATS, MIN_SEATS, KonchinkaRules


def new_deal(rules: KonchinkaRules, num_seats: int, dealer: int,
             rng: random.Random) -> KonchinkaDeal:
    """Shuffle (:func:`konkun.cards.shuffle`) and cut (``between(4, 48)`` cards lifted)
    with ``rng``, deal in four rounds and fix the initial table (``RULES.md``, Deal and
    Initial table). The same rules, seats, dealer and ``rng`` state give the same deal, in
    every Python version (the draws are :mod:`konkun.cards`' stable ones)."""
    check_seats(num_seats, dealer, rules)
    return _deal_indices(rules, num_seats, dealer,
                         shuffled_and_cut(rng, rules.deck_ranks), rng)


def shuffled_and_cut(rng: random.Random, ranks: int = FULL_RANKS) -> list[int]:
    """The card indices of the deck (the 52 cards; with ``ranks``, the research option
    ``deck_ranks``, :func:`~konkun.konchinka.deck.deck_indices`) shuffled
    (:func:`konkun.cards.shuffle`) and cut (``between(4, size - 4)`` cards lifted) with
    ``rng``, top card first."""
    deck = list(DECKS[ranks])
    shuffle(deck, rng)
    point = between(HAND_SIZE, len(deck) - HAND_SIZE, rng)
    return deck[point:] + deck[:point]


def deal_from_seed(rules: KonchinkaRules, num_seats: int, dealer: int,
                   seed: int | str) -> KonchinkaDeal:
    """:func:`new_deal` with ``konkun.cards.rng_for_seed(seed)``: one reproducible deal
    per seed (duplicate deals: the same seed with the dealer rotated)."""
    return new_deal(rules, num_seats, dealer, rng_for_seed(seed))


def deal_from_deck(rules: KonchinkaRules, num_seats: int, dealer: int,
                   deck: Sequence[Card], rng: random.Random) -> KonchinkaDeal:
    """Deal ``deck`` (top card first) in four rounds: one card to each seat from the seat
    left of the dealer to the dealer, then one to the table; then fix the initial table,
    returning offending cards into the middle half of the stock at ``rng``'s positions."""
    check_seats(num_seats, dealer, rules)
    cards = [c.index for c in deck]
    expected = deck_indices(rules.deck_ranks)
    if sorted(cards) != expected:
        raise InvalidPositionError(f"not a full {len(expected)}-card deck: "
                                   f"{' '.join(map(str, deck))}")
    return _deal_indices(rules, num_seats, dealer, cards, rng)


def _deal_indices(rules: KonchinkaRules, num_seats: int, dealer: int, cards: list[int],
                  rng: random.Random) -> KonchinkaDeal:
    hands, table, stock, returned = split_deal(rules, num_seats, dealer, cards, rng)
    return KonchinkaDeal.from_indices(
        rules, dealer=dealer, hands=hands, table=table, stock=stock,
        piles=[0] * num_seats, next_seat=(dealer + 1) % num_seats, over=False,
        last_capturer=None, returned=returned)


def split_deal(rules: KonchinkaRules, num_seats: int, dealer: int, cards: list[int],
               rng: random.Random) -> tuple[list[list[int]], list[int], list[int],
                                            tuple[tuple[int, int], ...]]:
    """The card indices ``cards`` (top first) dealt: each seat's hand, the fixed table, the
    stock (next card to deal first) and the cards the fix returned to it, with their
    lowest possible stock positions."""
    # round r gives cards r*(n+1) .. r*(n+1)+n-1 to the seats from the dealer's left, and
    # card r*(n+1)+n to the table
    step = num_seats + 1
    end = TABLE_SIZE * step
    hands: list[list[int]] = [[] for _ in range(num_seats)]
    for k in range(num_seats):
        hands[(dealer + 1 + k) % num_seats] = cards[k:end:step]
    table = cards[num_seats:end:step]
    stock = cards[end:]  # next card to deal first
    ranks = {c % 13 for c in table}
    returned: tuple[tuple[int, int], ...] = ()
    if len(ranks) < TABLE_SIZE or (rules.table_excludes_jacks and _JACK_RANK in ranks):
        returned = tuple(_fix_table(rules, table, stock, rng))
    return hands, table, stock, returned


_JACK_RANK = Rank.JACK - 2


def _fix_table(rules: KonchinkaRules, table: list[int], stock: list[int],
               rng: random.Random) -> list[tuple[int, int]]:
    """Send Jacks (option) and the later-dealt card of each same-rank pair back into the
    middle half of the stock (top first), dealing the top stock card in its place, until
    the table is clean; return the returned cards with their lowest possible stock
    positions when play begins."""
    jack = _JACK_RANK if rules.table_excludes_jacks else -1
    order = list(range(len(table)))  # table positions, earliest dealt first
    returned: list[tuple[int, int]] = []
    while True:
        seen: list[int] = []
        for position in order:
            rank = table[position] % 13
            if rank == jack or rank in seen:
                break
            seen.append(rank)
        else:
            return returned
        size = len(stock)
        stock.insert(between(size // 4, size - size // 4, rng), table[position])
        returned = [(c, low - 1) for c, low in returned]
        returned.append((table[position], size // 4 - 1))
        table[position] = stock.pop(0)
        order.remove(position)
        order.append(position)


def check_seats(num_seats: int, dealer: int, rules: KonchinkaRules | None = None) -> None:
    """Raise :class:`~konkun.errors.InvalidRuleError` unless Konchinka seats ``num_seats``,
    ``dealer`` is one of them and the deck of ``rules`` deals out evenly to them."""
    check_seat_count("Konchinka", num_seats, MIN_SEATS, MAX_SEATS)
    check_dealer(num_seats, dealer)
    if rules is not None and rules.deck_ranks != FULL_RANKS:  # the whole deck deals to all
        rules.check_deck(num_seats)
