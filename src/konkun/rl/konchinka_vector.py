"""Konchinka's cores of the vector env (:mod:`konkun.rl.vector_core`), the ``vector_core``
of :class:`~konkun.rl.konchinka_adapter.KonchinkaAdapter`.

Against random opponents every deal lives in one
:class:`~konkun.rl.konchinka_batch.KonchinkaBatch` (plain integers; masks and tensors of
all deals written by a few numpy calls); against other opponents moves go through the
engine's own integer path (no move objects) and the observation planes of all deals are
unpacked from bit masks in one numpy call.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

from konkun.rl.konchinka_adapter import ORDER_KEY, known_in_stock
from konkun.rl.konchinka_batch import KonchinkaBatch, slots_of
from konkun.rl.vector_core import FloatArray, VectorCore


def make_core(adapter: Any, num_seats: int, seat: int, num_envs: int,
              all_random: bool) -> VectorCore:
    """The batch core against random opponents, else the integer-path core."""
    if all_random:
        return KonchinkaBatchCore(adapter, num_seats, seat, num_envs)
    return KonchinkaCore(adapter, num_seats)


class KonchinkaCore(VectorCore):
    """Konchinka through the engine's integer move path (slots name (card, positions))."""

    def __init__(self, adapter: Any, num_seats: int) -> None:
        super().__init__(adapter, num_seats)
        self._order = ORDER_KEY
        self._known = known_in_stock
        self._k = adapter.capture_slots
        self._novo = 1.0 if adapter.rules.variant == "novo" else 0.0
        n = num_seats
        self._bit_rows = 4 + n  # hand, table, n piles, seen, known

    def new(self, index: int, rng: random.Random) -> None:
        from konkun.konchinka.dealing import new_deal

        rules = self.adapter.rules  # type: ignore[attr-defined]
        deal = new_deal(rules, self.num_seats, rng.randrange(self.num_seats), rng)
        if index < len(self.deals):
            self.deals[index] = deal
        else:
            self.deals.append(deal)

    def to_move(self, index: int) -> int | None:
        turn: int = self.deals[index].turn
        return None if turn < 0 else turn

    def slots(self, index: int) -> dict[int, Any]:
        slots: dict[int, Any] = {}
        self.fill_slots(index, slots)
        return slots

    def fill_slots(self, index: int, result: dict[int, Any]) -> None:
        """Write deal ``index``'s legal slots into the empty ``result`` (slot -> (card,
        positions)); captures of one card in the adapter's order, the longest first."""
        deal = self.deals[index]
        k = self._k
        for card, trail, found in deal.options_by_card():
            if trail:
                result[card * k] = (card, ())
            if found:
                if len(found) > 1:
                    table = deal.table_codes
                    order = self._order
                    found = sorted(found, key=lambda ps: (
                        -len(ps), sorted([order[table[p] & 63] for p in ps])))
                slot = card * k + 1
                for positions in found[:k - 1]:
                    result[slot] = (card, positions)
                    slot += 1

    def apply(self, index: int, move: Any) -> None:
        self.deals[index].push_option(*move)

    def random_move(self, index: int, rng: random.Random) -> None:
        self.deals[index].push_random(rng)

    def encode_each(self, seats: Sequence[int], out: FloatArray, rows: Sequence[int]) -> None:
        n = self.num_seats
        count = len(rows)
        width = 52 - (3 + 3 * n)  # the feature row's unused tail
        words: list[int] = []
        features: list[float] = []
        novo = self._novo
        known_in_stock = self._known
        deals = self.deals
        orders = [[(viewer + offset) % n for offset in range(n)] for viewer in range(n)]
        for i, seat in zip(rows, seats, strict=True):
            order = orders[seat]
            deal = deals[i]
            (turn, hands, table_codes, piles, stock_size, dealer, last,
             returned) = deal.state_ints()
            hand = 0
            for c in hands[seat]:
                hand |= 1 << c
            table = 0
            for code in table_codes:
                table |= 1 << (code & 63)
            seen = hand | table
            words.append(hand)
            words.append(table)
            for s in order:
                pile = piles[s]
                seen |= pile
                words.append(pile)
            words.append(seen)
            known = 0
            if returned:
                for c in known_in_stock(deal, seat):
                    known |= 1 << c
            words.append(known)
            # stock, hand sizes, dealer and last capturer one-hot, agent to move, variant
            features.append(stock_size / 40.0)
            features.extend([len(hands[s]) / 4.0 for s in order])
            one_hot = [0.0] * (2 * n)
            one_hot[(dealer - seat) % n] = 1.0
            if last >= 0:
                one_hot[n + (last - seat) % n] = 1.0
            features.extend(one_hot)
            features.append(1.0 if turn == seat else 0.0)
            features.append(novo)
        bits = np.array(words, dtype=np.uint64).reshape(count, self._bit_rows)
        planes = np.unpackbits(bits.view(np.uint8).reshape(count, self._bit_rows, 8),
                               axis=2, bitorder="little")[:, :, :52]
        shaped = out[:count].reshape(count, 5 + n, 52)
        shaped[:, :3 + n] = planes[:, :3 + n]
        shaped[:, 3 + n, :52 - width] = np.array(features, dtype=np.float32).reshape(count, -1)
        shaped[:, 3 + n, 52 - width:] = 0.0
        shaped[:, 4 + n] = planes[:, 3 + n]


class KonchinkaBatchCore(VectorCore):
    """Konchinka against random opponents: every deal in one
    :class:`~konkun.rl.konchinka_batch.KonchinkaBatch` (slots name (card, positions))."""

    def __init__(self, adapter: Any, num_seats: int, seat: int, num_envs: int) -> None:
        super().__init__(adapter, num_seats)
        self.batch: KonchinkaBatch = KonchinkaBatch(adapter.rules, num_seats, seat,
                                                    adapter.capture_slots, num_envs)

    def engine_deal(self, index: int) -> Any:
        return self.batch.engine_deal(index)

    def new(self, index: int, rng: random.Random) -> None:
        self.batch.deal(index, rng)

    def to_move(self, index: int) -> int | None:
        turn = self.batch.deals[index].turn
        return None if turn < 0 else turn

    def slots(self, index: int) -> dict[int, Any]:
        return slots_of(self.batch, index)

    def fill_slots(self, index: int, result: dict[int, Any]) -> None:
        result.update(self.slots(index))

    def points(self, index: int) -> list[int]:
        return self.batch.points(index)

    def encode(self, seat: int, out: FloatArray, rows: Sequence[int]) -> None:
        self.batch.write_observations(out, rows)
