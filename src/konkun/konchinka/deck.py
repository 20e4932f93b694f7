"""The 52 cards of a Konchinka deal as indices (``Card.index``, 0..51): the cards by
index, their values in both variants, the canonical order by index, bit masks of cards,
and the hand and table sizes of the deal."""

from __future__ import annotations

from collections.abc import Iterable

from konkun.cards import Card, Rank, standard_deck
from konkun.konchinka.moves import card_order, sort_cards

CARDS: tuple[Card, ...] = tuple(standard_deck())
"""The 52 cards by index."""
HAND_SIZE = 4
"""Cards per player per deal round and per redeal."""
TABLE_SIZE = 4
"""Cards dealt face up to the table at the start of a deal."""


def _rank(index: int) -> int:
    return index % 13 + 2


def _classic_value(index: int) -> int:
    rank = _rank(index)
    if rank == Rank.ACE:
        return 1
    if rank == Rank.JACK:
        return 0  # no value: the Jack sweeps the table instead
    return min(rank, 10)


def _novo_value(index: int) -> int:
    rank = _rank(index)
    return 1 if rank == Rank.ACE else rank


CLASSIC_VALUES: tuple[int, ...] = tuple(_classic_value(i) for i in range(52))
"""Classic card values by index: A=1, 2..9 pips, T Q K = 10, the Jack 0 (no value)."""
NOVO_VALUES: tuple[int, ...] = tuple(_novo_value(i) for i in range(52))
"""Novorossiysk card values by index: A=1, 2..10 pips, J=11, Q=12, K=13."""


ORDER = tuple(card_order(card) for card in CARDS)
"""The canonical sort key (:func:`~konkun.konchinka.moves.card_order`) by card index."""


FULL_RANKS = 13
"""The ranks of the whole deck."""
_ACE_RANK = Rank.ACE - 2
"""The Ace's place in a card index's rank (``index % 13``: 2 is 0, the Ace 12)."""


def deck_indices(ranks: int = FULL_RANKS) -> list[int]:
    """The card indices of a deck of the ``ranks`` lowest ranks, the Ace first (the
    research option ``deck_ranks``), ascending: ``list(range(52))`` for the whole deck."""
    return [i for i in range(52) if i % 13 == _ACE_RANK or i % 13 < ranks - 1]


DECKS: dict[int, tuple[int, ...]] = {ranks: tuple(deck_indices(ranks))
                                     for ranks in range(1, FULL_RANKS + 1)}
""":func:`deck_indices` by number of ranks, as tuples (to read, not to shuffle)."""


def card_mask(cards: Iterable[Card]) -> int:
    """The bit mask (``1 << index`` each) of ``cards``."""
    return sum(1 << c.index for c in cards)


def mask_cards(mask: int) -> list[Card]:
    """The cards of a bit mask of card indices, in the canonical order."""
    cards = []
    while mask:
        low = mask & -mask
        cards.append(CARDS[low.bit_length() - 1])
        mask ^= low
    return sort_cards(cards)
