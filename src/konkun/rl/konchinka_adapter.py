"""Konchinka for the environments: the action slots and the observation tensor.

Action space ``Discrete(52 * K)`` with ``K = capture_slots`` (default 32): action
``card.index * K + j`` plays ``card``; ``j = 0`` is its trail, ``j = 1 .. K-1`` its
``j``-th capture in the canonical order (more cards taken first, then by the taken cards
in the canonical card order, ``A K Q .. 2``, ``c d h s``). So a slot names one move in the
current position; the mask marks the legal ones.

Observation ``Box(0, 1, (5 + n, 52), float32)`` over the 52 cards (``Card.index``: clubs
2..A, diamonds, hearts, spades):

- row 0: the seat's own hand;
- row 1: the table;
- rows 2 .. 1+n: the capture piles, the seat's own first, then the next seats to its left;
- row 2+n: every card this seat can see (its hand, the table, the piles): ``1 - row`` is
  the set of unseen cards (the other hands and the stock);
- row 3+n: scalar features, see :data:`FEATURES`;
- row 4+n: the cards known to be in the stock (sent back by the initial-table fix, face
  up, and not dealt since: the observation's ``known_in_stock``).

The information-state tensor (:meth:`KonchinkaAdapter.encode_info_state`) is that tensor
flattened, followed by the deal's moves so far, one row of ``104 + n + 1`` per move
(:data:`HISTORY_ROWS` rows, the first move first): the played card (52, one-hot), the
cards it took (52), the mover (``n``, one-hot from this seat on), and 1 if a redeal
followed.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, cast

import numpy as np

from konkun.cards import Card, below
from konkun.errors import InvalidRuleError
from konkun.game import Deal, Observation
from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.dealing import new_deal
from konkun.konchinka.game import KonchinkaMatch
from konkun.konchinka.moves import card_order
from konkun.konchinka.rules import KonchinkaRules
from konkun.rl.adapter import FloatArray, assign_slots, check_slot, rules_of

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
HISTORY_ROWS = 52
"""Rows of the information state's move history: a deal has at most 52 moves (each plays
one card from a hand)."""

ORDER_KEY = [card_order(Card.from_index(index)) for index in range(52)]
"""Each card index's place in the canonical card order (the order captures are listed in)."""


def move_order(move: Any) -> tuple[int, tuple[int, ...]]:
    """The canonical order of one card's captures: more cards taken first, then by the
    taken cards in the canonical card order."""
    taken = move.taken
    return (-len(taken), tuple(sorted(ORDER_KEY[c.index] for c in taken)))


_BYTE_BITS = np.unpackbits(np.arange(256, dtype=np.uint8)[:, None], axis=1,
                           bitorder="little").astype(np.float32)


def _bits(mask: int) -> FloatArray:
    """The 52 entries of a card bit mask (bit ``i`` for ``Card.index`` ``i``) as 0/1."""
    return _BYTE_BITS[np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8)].reshape(-1)[:52]


def _row(indices: list[int]) -> FloatArray:
    row = np.zeros(52, dtype=np.float32)
    row[indices] = 1.0
    return row


def _block(move: Any) -> int:
    index: int = move.card.index
    return index


class KonchinkaAdapter:
    """The Konchinka side of the environments (rules as a :class:`KonchinkaRules`)."""

    name = "konchinka"
    vector_core = "konkun.rl.konchinka_vector:make_core"
    """The vector env's fast core for this game (:mod:`konkun.rl.vector_core`)."""

    def __init__(self, rules: KonchinkaRules | Mapping[str, str] | None = None,
                 capture_slots: int = CAPTURE_SLOTS) -> None:
        if capture_slots < 2:
            raise InvalidRuleError(f"invalid capture_slots {capture_slots!r}: expected >= 2")
        self.capture_slots = capture_slots
        self.action_size = 52 * capture_slots
        self._starts = [capture_slots * i + 1 for i in range(52)]
        self._capacity = [capture_slots - 1] * 52
        self.rules = rules_of(rules, KonchinkaRules, KonchinkaRules.from_options,
                              "{'variant': 'novo'}")

    def observation_shape(self, num_seats: int) -> tuple[int, ...]:
        """``(5 + n, 52)``."""
        return (5 + num_seats, 52)

    def info_state_size(self, num_seats: int) -> int:
        """The length of the information-state vector for ``n`` seats."""
        return (5 + num_seats) * 52 + HISTORY_ROWS * (105 + num_seats)

    def new_deal(self, num_seats: int, rng: random.Random) -> Deal[Any]:
        """A new deal: a random dealer, then the shuffle and cut, from ``rng``."""
        return new_deal(self.rules, num_seats, below(num_seats, rng), rng)

    def new_match(self, num_seats: int, seed: int) -> KonchinkaMatch:
        """A new game to the target (its first dealer drawn from ``seed``)."""
        return KonchinkaMatch(self.rules, num_seats, seed)

    def observe_json(self, deal: Deal[Any], seat: int) -> dict[str, Any]:
        """The engine's JSON observation of ``seat`` (it holds the rules and the history)."""
        return deal.observe(seat).to_json()

    def slots(self, position: Deal[Any] | Observation[Any],
              legal: Sequence[Any]) -> dict[int, Any]:
        """Slot of each legal move: a card's trail at ``j = 0`` (reserved for it, empty
        when the trail is illegal), its captures from ``j = 1`` in the canonical order."""
        k = self.capture_slots
        result: dict[int, Any] = {}
        captures = []
        for move in legal:
            if move.taken:
                captures.append(move)
            else:
                result[move.card.index * k] = move
        if captures:
            result.update(assign_slots(captures, _block, move_order, self._starts,
                                       self._capacity))
        return result

    def decode(self, slot: int) -> tuple[Card, int]:
        """The played card of a slot and the index of its move in the card's block
        (0: the trail, j >= 1: the j-th capture)."""
        slot = check_slot(slot, self.action_size)
        return Card.from_index(slot // self.capture_slots), slot % self.capture_slots

    def encode(self, observation: Observation[Any]) -> FloatArray:
        """The observation tensor (see the module's docstring)."""
        obs: Any = observation
        return self._tensor(
            obs.seat, obs.num_seats, [c.index for c in obs.hand], [c.index for c in obs.table],
            [_row([c.index for c in pile]) for pile in obs.captured], obs.hand_sizes,
            obs.stock_size, obs.dealer, obs.last_capturer, obs.to_move,
            [c.index for c in obs.known_in_stock])

    def encode_deal(self, deal: Deal[Any], seat: int) -> FloatArray:
        """``encode(deal.observe(seat))``, faster: it reads only what ``seat`` may see (its
        own hand and the public part of the deal) straight from the deal."""
        d = cast(KonchinkaDeal, deal)
        hands = d.hand_indices
        return self._tensor(
            seat, d.num_seats, list(hands[seat]), [code & 63 for code in d.table_codes],
            [_bits(mask) for mask in d.pile_masks], [len(h) for h in hands], d.stock_size,
            d.dealer, d.last_capturer, d.to_move, known_in_stock(d, seat))

    def encode_info_state(self, observation: Observation[Any]) -> FloatArray:
        """The information-state vector of a seat's observation (see the module)."""
        obs: Any = observation
        moves = [(entry.seat, entry.move.card.index, [c.index for c in entry.move.taken],
                  entry.redeal) for entry in obs.history]
        return self._info_state(self.encode(observation), obs.seat, obs.num_seats, moves)

    def encode_info_state_deal(self, deal: Deal[Any], seat: int) -> FloatArray:
        """``encode_info_state(deal.observe(seat))``, read from the deal."""
        d = cast(KonchinkaDeal, deal)
        moves = [(s, card, list(taken), redeal) for s, card, taken, redeal in d.history_indices]
        return self._info_state(self.encode_deal(deal, seat), seat, d.num_seats, moves)

    def _info_state(self, tensor: FloatArray, seat: int, n: int,
                    moves: list[tuple[int, int, list[int], bool]]) -> FloatArray:
        history = np.zeros((HISTORY_ROWS, 105 + n), dtype=np.float32)
        for row, (mover, card, taken, redeal) in enumerate(moves[:HISTORY_ROWS]):
            history[row, card] = 1.0
            history[row, [52 + c for c in taken]] = 1.0
            history[row, 104 + (mover - seat) % n] = 1.0
            history[row, 104 + n] = 1.0 if redeal else 0.0
        return np.concatenate([tensor.reshape(-1), history.reshape(-1)])

    def _tensor(self, seat: int, n: int, hand: list[int], table: list[int],
                piles: list[FloatArray], hand_sizes: Sequence[int], stock_size: int,
                dealer: int, last_capturer: int | None, to_move: int | None,
                known_in_stock: list[int]) -> FloatArray:
        out = np.zeros((5 + n, 52), dtype=np.float32)
        out[0, hand] = 1.0
        out[1, table] = 1.0
        for offset in range(n):
            out[2 + offset] = piles[(seat + offset) % n]
        out[2 + n] = out[:2 + n].max(axis=0)
        features = out[3 + n]
        features[0] = stock_size / 40.0
        for offset in range(n):
            features[1 + offset] = hand_sizes[(seat + offset) % n] / 4.0
        features[1 + n + (dealer - seat) % n] = 1.0
        if last_capturer is not None:
            features[1 + 2 * n + (last_capturer - seat) % n] = 1.0
        features[1 + 3 * n] = 1.0 if to_move == seat else 0.0
        features[2 + 3 * n] = 1.0 if self.rules.variant == "novo" else 0.0
        out[4 + n, known_in_stock] = 1.0
        return out


def known_in_stock(deal: KonchinkaDeal, seat: int) -> list[int]:
    """The cards the table fix sent back into the stock that are still surely there (fewer
    cards dealt since than their lowest possible position), as the observation says."""
    known = deal.returned_in_stock()
    if not known:
        return known
    hand = deal.hand_indices[seat]
    return [card for card in known if card not in hand]

