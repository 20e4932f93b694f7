"""Konchinka for the environments: the action slots and the observation tensor.

Action space ``Discrete(52 * K)`` with ``K = capture_slots`` (default 32): action
``card.index * K + j`` plays ``card``; ``j = 0`` is its trail, ``j = 1 .. K-1`` its
``j``-th capture in the canonical order (more cards taken first, then by the taken cards
in the canonical card order, ``A K Q .. 2``, ``c d h s``). So a slot names one move in the
current position; the mask marks the legal ones.

Observation ``Box(0, 1, (4 + n, 52), float32)`` over the 52 cards (``Card.index``: clubs
2..A, diamonds, hearts, spades):

- row 0: the seat's own hand;
- row 1: the table;
- rows 2 .. 1+n: the capture piles, the seat's own first, then the next seats to its left;
- row 2+n: every card this seat can see (its hand, the table, the piles): ``1 - row`` is
  the set of unseen cards (the other hands and the stock);
- row 3+n: scalar features, see :data:`FEATURES`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from konkun.cards import Card
from konkun.errors import InvalidRuleError
from konkun.game import Deal, Observation
from konkun.konchinka.rules import KonchinkaRules
from konkun.konchinka.state import new_deal
from konkun.rl.adapter import FloatArray, assign_slots

CAPTURE_SLOTS = 32
"""``K``, by default: the slots per played card (its trail and up to ``K - 1`` captures)."""
FEATURES = (
    "stock size / 40",
    "hand sizes / 4, one entry per seat from this seat on (n entries)",
    "dealer, one-hot from this seat on (n entries)",
    "last capture, one-hot from this seat on (n entries)",
    "1 if this seat is to move",
    "1 for the novo variant",
)
"""The entries of the features row, in order."""

_ORDER_KEY = [0] * 52


def _rank_order(card: Card) -> int:
    return (12 - card.index % 13) * 4 + card.index // 13


for _card_index in range(52):
    _ORDER_KEY[_card_index] = _rank_order(Card.from_index(_card_index))


def move_order(move: Any) -> tuple[int, tuple[int, ...]]:
    """The canonical order of one card's moves: the trail first, then captures taking more
    cards, then by the taken cards in canonical card order."""
    taken = move.taken
    return (-len(taken), tuple(sorted(_ORDER_KEY[c.index] for c in taken)))


def _block(move: Any) -> int:
    index: int = move.card.index
    return index


class KonchinkaAdapter:
    """The Konchinka side of the environments (rules as a :class:`KonchinkaRules`)."""

    name = "konchinka"
    min_seats = 2
    max_seats = 4

    def __init__(self, rules: KonchinkaRules | Mapping[str, str] | None = None,
                 capture_slots: int = CAPTURE_SLOTS) -> None:
        if capture_slots < 1:
            raise InvalidRuleError(f"invalid capture_slots {capture_slots!r}: expected >= 1")
        self.capture_slots = capture_slots
        self.action_size = 52 * capture_slots
        self._starts = [capture_slots * i for i in range(52)]
        self._capacity = [capture_slots] * 52
        if rules is None:
            rules = KonchinkaRules()
        elif not isinstance(rules, KonchinkaRules):
            rules = KonchinkaRules.from_options(rules)
        self.rules = rules

    def observation_shape(self, num_seats: int) -> tuple[int, ...]:
        """``(4 + n, 52)``."""
        return (4 + num_seats, 52)

    def new_deal(self, num_seats: int, rng: random.Random) -> Deal[Any]:
        """A new deal: a random dealer, then the shuffle and cut, from ``rng``."""
        return new_deal(self.rules, num_seats, rng.randrange(num_seats), rng)

    def slots(self, deal: Deal[Any], legal: Sequence[Any]) -> dict[int, Any]:
        """Slot of each legal move (trail first in its card's block)."""
        return assign_slots(legal, _block, move_order, self._starts, self._capacity)

    def decode(self, slot: int) -> tuple[Card, int]:
        """The played card of a slot and the index of its move in the card's block
        (0: the trail, j >= 1: the j-th capture)."""
        return Card.from_index(slot // self.capture_slots), slot % self.capture_slots

    def encode(self, observation: Observation[Any]) -> FloatArray:
        """The observation tensor (see the module's docstring)."""
        obs: Any = observation
        n = obs.num_seats
        seat = obs.seat
        out = np.zeros((4 + n, 52), dtype=np.float32)
        seen = out[2 + n]
        for card in obs.hand:
            out[0, card.index] = 1.0
            seen[card.index] = 1.0
        for card in obs.table:
            out[1, card.index] = 1.0
            seen[card.index] = 1.0
        for offset in range(n):
            row = out[2 + offset]
            for card in obs.captured[(seat + offset) % n]:
                row[card.index] = 1.0
                seen[card.index] = 1.0
        features = out[3 + n]
        features[0] = obs.stock_size / 40.0
        for offset in range(n):
            features[1 + offset] = obs.hand_sizes[(seat + offset) % n] / 4.0
        features[1 + n + (obs.dealer - seat) % n] = 1.0
        if obs.last_capturer is not None:
            features[1 + 2 * n + (obs.last_capturer - seat) % n] = 1.0
        features[1 + 3 * n] = 1.0 if obs.to_move == seat else 0.0
        features[2 + 3 * n] = 1.0 if obs.rules.variant == "novo" else 0.0
        return out

