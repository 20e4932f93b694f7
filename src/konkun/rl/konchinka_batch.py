"""Konchinka deals side by side on plain integers: the vector environment's fast path
against random opponents.

:class:`KonchinkaBatch` holds ``num_envs`` deals, the agent at one seat of each, and plays
them with the engine's own rules and draws, so that a batch steps exactly as
:class:`~konkun.konchinka.deal.KonchinkaDeal` deals stepped with ``push_option`` (the
agent) and ``push_random`` (the opponents) do; the tests check that move by move. What
makes it fast is what it leaves out, not other rules:

- **Masks without listing captures.** In the adapter's slots a card's captures fill the
  slots ``1 .. count`` of its block (in the canonical order), so the mask needs only how
  many captures each card has, read off the table's counting polynomial (as the engine
  counts them). Every deal's mask is then one numpy expression over (deal, card, first
  slot, end slot) spans.
- **Only the played capture is listed**: unranked on the polynomial (as ``push_random``
  unranks a random one); when the agent's card has several captures, all of them, sorted
  canonically to find its ``j``-th.
- **No history, no move objects**: hands in the order held, the table as the engine's
  sorted codes ``value << 6 | index`` with its polynomial, the hands, the table and the
  piles as bit masks.
- **Observations from a few integers per deal**: bit masks and counts, unpacked into
  every deal's tensor rows (:class:`~konkun.rl.konchinka_adapter.KonchinkaAdapter`'s
  layout) by a few numpy calls for the whole batch.

Deals are dealt as :func:`~konkun.konchinka.dealing.new_deal` deals them (the dealer by
``rng.randrange``, then the shuffle, the cut, four rounds and the initial-table fix, from
the same draws), so one seed gives the engine's deal.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from konkun.konchinka.captures import (
    CLASSIC_CODES,
    CLASSIC_SHIFTS,
    CLASSIC_SLOTS,
    FIELD_BITS,
    INV_BY_VALUE,
    KING_SLOT,
    MAX_SUM,
    MUL_BY_VALUE,
    NOVO_CODES,
    NOVO_SHIFTS,
    NOVO_SLOTS,
    POLY_MASK,
    SHIFT,
    capture_count,
)
from konkun.konchinka.deal import KonchinkaDeal
from konkun.konchinka.dealing import shuffled_and_cut, split_deal
from konkun.konchinka.deck import HAND_SIZE, ORDER
from konkun.konchinka.playout import draw_random_move, unrank_capture
from konkun.konchinka.rules import TRAILS, KonchinkaRules
from konkun.konchinka.scoring import points_no_ties, score_masks

FloatArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]

_POLY_BYTES = FIELD_BITS * (MAX_SUM + 1) // 8
_JACK_COLUMN = KING_SLOT + 1


class _Deal:
    """One deal's state (the batch's; see the module)."""

    __slots__ = ("dealer", "hand_masks", "hands", "in_hands", "last", "piles", "poly",
                 "returned", "stock", "stock_start", "table", "table_mask", "turn")

    hands: list[list[int]]
    hand_masks: list[int]
    table: list[int]
    poly: int
    table_mask: int
    stock: list[int]
    piles: list[int]
    turn: int
    last: int
    in_hands: int
    dealer: int
    returned: tuple[tuple[int, int], ...]
    stock_start: int


class KonchinkaBatch:
    """``num_envs`` Konchinka deals of ``rules`` for ``num_seats``, the agent at ``seat``
    of each, the other seats uniformly random (see the module). Slots are those of
    :class:`~konkun.rl.konchinka_adapter.KonchinkaAdapter` with ``capture_slots``."""

    def __init__(self, rules: KonchinkaRules, num_seats: int, seat: int,
                 capture_slots: int, num_envs: int) -> None:
        rules.check_deck(num_seats)
        self.rules = rules
        self.num_seats = num_seats
        self.seat = seat
        self.capture_slots = capture_slots
        self.num_envs = num_envs
        novo = rules.variant == "novo"
        self._codes = NOVO_CODES if novo else CLASSIC_CODES
        self._slots = NOVO_SLOTS if novo else CLASSIC_SLOTS
        self._shifts = NOVO_SHIFTS if novo else CLASSIC_SHIFTS
        self._novo = 1.0 if novo else 0.0
        self._compulsory = rules.capture_compulsory
        self._trails = TRAILS[rules.capture_compulsory]
        self._idle_trail, self._capturing_trail = self._trails
        """Whether a card that cannot / can capture has its trail (slot 0)."""
        self._decode = [divmod(action, capture_slots) for action in range(52 * capture_slots)]
        self._following = tuple((s + 1) % num_seats for s in range(num_seats))
        self._order = [(seat + offset) % num_seats for offset in range(num_seats)]
        self._count_columns = [slot or _JACK_COLUMN for slot in self._slots]
        self.deals: list[_Deal] = [_Deal() for _ in range(num_envs)]

    # ------------------------------------------------------------------ dealing

    def deal(self, index: int, rng: random.Random) -> None:
        """Deal deal ``index`` anew from ``rng`` (as ``new_deal(rules, n,
        rng.randrange(n), rng)``) and play the random seats up to the agent."""
        n = self.num_seats
        dealer = rng.randrange(n)
        cards = shuffled_and_cut(rng, self.rules.deck_ranks)
        hands, table, stock, returned = split_deal(self.rules, n, dealer, cards, rng)
        d = self.deals[index]
        d.dealer = dealer
        d.hands = hands
        d.hand_masks = [_mask_of(hand) for hand in hands]
        d.in_hands = HAND_SIZE * n
        codes = self._codes
        d.table = sorted([codes[c] for c in table])
        poly = 1
        mask = 0
        for code in d.table:
            poly = poly * MUL_BY_VALUE[code >> 6] & POLY_MASK
            mask |= 1 << (code & 63)
        d.poly, d.table_mask = poly, mask
        stock.reverse()  # the next card to deal last
        d.stock = stock
        d.stock_start = len(stock)
        d.piles = [0] * n
        d.turn = (dealer + 1) % n
        d.last = -1
        d.returned = returned
        self._play_random(d, rng)

    # ------------------------------------------------------------------ playing

    def count(self, d: _Deal, card: int) -> int:
        """How many captures ``card`` has on deal ``d``'s table."""
        return capture_count(d.poly, self._slots[card], bool(d.table))

    def is_legal(self, index: int, action: int) -> bool:
        """Whether slot ``action`` is a legal move of the agent in deal ``index``."""
        if not 0 <= action < len(self._decode):
            return False
        d = self.deals[index]
        card, j = self._decode[action]
        if d.turn != self.seat or card not in d.hands[self.seat]:
            return False
        found = self.count(d, card)
        if j:
            return j <= found
        return bool(self._trails[found > 0])

    def legal_slot_list(self, index: int) -> list[int]:
        """The agent's legal slots in deal ``index``, in increasing order."""
        d = self.deals[index]
        if d.turn != self.seat:
            return []
        k = self.capture_slots
        result: list[int] = []
        for card in sorted(d.hands[self.seat]):
            found = self.count(d, card)
            if self._trails[found > 0]:
                result.append(card * k)
            result.extend(range(card * k + 1, card * k + 1 + min(found, k - 1)))
        return result

    def move_of(self, index: int, action: int) -> tuple[int, tuple[int, ...]]:
        """The move of the agent's legal slot ``action`` in deal ``index``: (card, its
        taken positions into the sorted table, empty for a trail), as the engine's
        ``options`` give it."""
        d = self.deals[index]
        card, j = self._decode[action]
        if not j:
            return card, ()
        slot = self._slots[card]
        if not slot:
            return card, tuple(range(len(d.table)))
        found = self.count(d, card)
        table = d.table
        if found == 1:
            return card, unrank_capture(table, d.poly, slot, 0)
        orders = [ORDER[code & 63] for code in table]
        ordered = sorted([unrank_capture(table, d.poly, slot, pick) for pick in range(found)],
                         key=lambda ps: (-len(ps), sorted([orders[p] for p in ps])))
        return card, ordered[j - 1]

    def play_agent(self, index: int, action: int, rng: random.Random) -> int:
        """Play the agent's slot ``action`` in deal ``index``, then the random seats up to
        the agent or the end; return 1 if the deal is over, 0 if not, and -1 (nothing
        played) if the slot is not a legal move."""
        if not 0 <= action < len(self._decode):
            return -1
        d = self.deals[index]
        card, j = self._decode[action]
        seat = self.seat
        if d.turn != seat or not d.hand_masks[seat] >> card & 1:
            return -1
        found = self.count(d, card)
        if j:
            if j > found:
                return -1
            slot = self._slots[card]
            if not slot:
                self._push(d, card, tuple(range(len(d.table))))
            elif found == 1:
                self._push(d, card, unrank_capture(d.table, d.poly, slot, 0))
            else:
                self._push(d, card, self.move_of(index, action)[1])
        elif not self._trails[found > 0]:
            return -1
        else:
            self._push(d, card, ())
        if d.turn != seat:
            self._play_random(d, rng)
        return 1 if d.turn < 0 else 0

    def _play_random(self, d: _Deal, rng: random.Random) -> None:
        """Play uniformly random moves for the other seats until the agent is to move or
        the deal is over, each drawn exactly as ``KonchinkaDeal.push_random`` draws it."""
        seat = self.seat
        shifts = self._shifts
        slots = self._slots
        compulsory = self._compulsory
        push = self._push
        draw = draw_random_move
        while True:
            turn = d.turn
            if turn == seat or turn < 0:
                return
            hand = d.hands[turn]
            poly = d.poly
            table = d.table
            index, pick = draw(hand, poly, bool(table), shifts, compulsory, rng)
            card = hand[index]
            if pick < 0:
                push(d, card, ())
                continue
            slot = slots[card]
            if not slot:
                push(d, card, tuple(range(len(table))))
                continue
            push(d, card, unrank_capture(table, poly, slot, pick))

    def _push(self, d: _Deal, card: int, positions: Sequence[int]) -> None:
        """Play ``card`` for the seat to move, taking the table cards at ``positions``
        (a trail when empty): ``KonchinkaDeal.push_option`` without the history."""
        seat = d.turn
        hands = d.hands
        hands[seat].remove(card)
        d.hand_masks[seat] ^= 1 << card
        in_hands = d.in_hands = d.in_hands - 1
        table = d.table
        if positions:
            mask = 1 << card
            if len(positions) == len(table):
                mask |= d.table_mask
                d.table = []
                d.poly = 1
                d.table_mask = 0
            else:
                poly = d.poly
                taken = 0
                for p in reversed(positions):
                    code = table.pop(p)
                    taken |= 1 << (code & 63)
                    poly = poly * INV_BY_VALUE[code >> 6] & POLY_MASK
                d.poly = poly
                d.table_mask ^= taken
                mask |= taken
            d.piles[seat] |= mask
            d.last = seat
        else:
            code = self._codes[card]
            insort(table, code)
            value = code >> 6
            if value:  # times 1 + x**value
                poly = d.poly
                d.poly = (poly + (poly << SHIFT[value])) & POLY_MASK
            d.table_mask |= 1 << card
        if in_hands:
            following = self._following
            turn = following[seat]
            while not hands[turn]:
                turn = following[turn]
            d.turn = turn
        elif d.stock:
            self._redeal(d)
        else:
            if d.last >= 0 and d.table:
                d.piles[d.last] |= d.table_mask
                d.table = []
                d.poly = 1
                d.table_mask = 0
            d.turn = -1

    def _redeal(self, d: _Deal) -> None:
        """Four cards to each seat, one at a time from the seat left of the dealer."""
        stock = d.stock
        seats = self.num_seats
        first = (d.dealer + 1) % seats
        size = HAND_SIZE * seats
        dealt = stock[:-size - 1:-1]
        del stock[-size:]
        for k in range(seats):
            d.hands[(first + k) % seats].extend(dealt[k::seats])
        d.hand_masks = [_mask_of(hand) for hand in d.hands]
        d.in_hands = size
        d.turn = first

    # ------------------------------------------------------------------ reading

    def points(self, index: int) -> list[int]:
        """Each seat's points for deal ``index`` (once it is over)."""
        piles = self.deals[index].piles
        if self.rules.tie_points == "none":
            return points_no_ties(piles)
        return score_masks(piles, self.rules.tie_points).points

    def engine_deal(self, index: int) -> KonchinkaDeal:
        """Deal ``index`` as an engine deal (its position now, without the history), for
        checks and for what needs the engine (the adapter's slots and tensors)."""
        d = self.deals[index]
        return KonchinkaDeal.from_indices(
            self.rules, dealer=d.dealer, hands=d.hands, table=[c & 63 for c in d.table],
            stock=d.stock[::-1], piles=d.piles, next_seat=max(d.turn, 0), over=d.turn < 0,
            last_capturer=None if d.last < 0 else d.last, returned=d.returned,
            dealt_from_stock=d.stock_start - len(d.stock))

    def write(self, observations: FloatArray, masks: BoolArray) -> None:
        """Write every deal's observation tensor (flattened, the adapter's layout) and
        the agent's legal slots into row ``i`` of ``observations`` and ``masks``: one
        pass over the deals, then a few numpy calls for the whole batch."""
        values, fields = self._read(range(len(self.deals)))
        self._write_masks(values, fields, masks)
        self._write_observations(values, observations)

    def write_masks(self, masks: BoolArray, rows: Sequence[int] | None = None) -> None:
        """Write the agent's legal slots of every deal (of ``rows``: deal ``rows[j]`` into
        row ``j``) into the boolean ``masks``."""
        self._write_masks(*self._read(range(len(self.deals)) if rows is None else rows),
                          masks)

    def write_observations(self, out: FloatArray, rows: Sequence[int] | None = None) -> None:
        """Write the agent's observation tensor of every deal (of ``rows``: deal
        ``rows[j]`` into ``out[j]``), flattened, in the adapter's layout."""
        values, _ = self._read(range(len(self.deals)) if rows is None else rows)
        self._write_observations(values, out)

    def _read(self, rows: Sequence[int]) -> tuple[IntArray, IntArray]:
        """The integers of the deals of ``rows`` (row ``j`` for deal ``rows[j]``) the
        masks and tensors are made of: ``values``, per deal the hands and the piles (by
        seat) as bit masks, the table's and the known stock cards' bit masks, the stock
        size, the dealer, the last capturer (-1: none) and the seat to move; ``fields``,
        the 15 coefficients of the table's counting polynomial."""
        ints: list[int] = []
        polys: list[bytes] = []
        deals = self.deals
        for i in rows:
            d = deals[i]
            ints += d.hand_masks
            ints += d.piles
            ints.extend((d.table_mask, self._known(d) if d.returned else 0, len(d.stock),
                         d.dealer, d.last, d.turn))
            polys.append(d.poly.to_bytes(_POLY_BYTES, "little"))
        count = len(rows)
        values = np.array(ints, dtype=np.int64).reshape(count, 6 + 2 * self.num_seats)
        fields = np.frombuffer(b"".join(polys), dtype="<u4").reshape(count, MAX_SUM + 1)
        return values, fields.astype(np.int64)

    def _write_masks(self, values: IntArray, fields: IntArray, masks: BoolArray) -> None:
        """The masks from :meth:`_read`'s integers: the agent's cards in hand where it is
        to move, each with its trail (unless it can capture under ``capture_compulsory``)
        and the slots ``1 .. count`` of its captures (at most ``capture_slots - 1``)."""
        n = self.num_seats
        k = self.capture_slots
        count = len(values)
        # per card the column of its capture count: the field of its value, the novo
        # King's fields 13 and 14 (column KING_SLOT), the classic Jack's whole table
        columns = np.empty((count, _JACK_COLUMN + 1), dtype=np.int64)
        columns[:, :MAX_SUM + 1] = fields
        columns[:, KING_SLOT] = fields[:, 13] + fields[:, 14]
        columns[:, _JACK_COLUMN] = values[:, 2 * n] != 0
        hands = values[:, self.seat].astype(np.uint64)
        held = np.unpackbits(hands.view(np.uint8).reshape(count, 8), axis=1,
                             bitorder="little")[:, :52].astype(np.bool_)
        held &= (values[:, -1] == self.seat)[:, None]
        cells = np.flatnonzero(held)
        found = columns[:, self._count_columns].reshape(-1)[cells]
        # the first legal slot of a card: 1 where it has no trail (TRAILS)
        if self._idle_trail == self._capturing_trail:
            first: IntArray | int = 1 - self._idle_trail
        else:
            first = np.where(found > 0, 1 - self._capturing_trail, 1 - self._idle_trail)
        end = 1 + np.minimum(found, k - 1)
        slots = np.arange(k)
        masks.fill(False)
        masks.reshape(-1, k)[cells] = (slots >= np.reshape(first, (-1, 1))) & (slots < end[:, None])

    def _write_observations(self, values: IntArray, out: FloatArray) -> None:
        """The tensors from :meth:`_read`'s integers, into ``out``'s first rows."""
        n = self.num_seats
        seat = self.seat
        order = self._order
        count = len(values)
        words = np.empty((count, 4 + n), dtype=np.uint64)
        words[:, 0] = values[:, seat]
        words[:, 1] = values[:, 2 * n]
        words[:, 2:2 + n] = values[:, [n + s for s in order]]
        words[:, 2 + n] = np.bitwise_or.reduce(words[:, :2 + n], axis=1)
        words[:, 3 + n] = values[:, 2 * n + 1]
        planes = np.unpackbits(words.view(np.uint8).reshape(count, 4 + n, 8), axis=2,
                               bitorder="little")[:, :, :52]
        shaped = out[:count].reshape(count, 5 + n, 52)
        shaped[:, :3 + n] = planes[:, :3 + n]
        shaped[:, 4 + n] = planes[:, 3 + n]
        features = shaped[:, 3 + n]
        features.fill(0.0)
        scalars = values[:, 2 * n + 2:]
        features[:, 0] = scalars[:, 0] / 40.0
        features[:, 1:1 + n] = np.bitwise_count(values[:, order].astype(np.uint64)) / 4.0
        rows = np.arange(count)
        features[rows, 1 + n + (scalars[:, 1] - seat) % n] = 1.0
        last = scalars[:, 2]
        captured = last >= 0
        features[rows[captured], 1 + 2 * n + (last[captured] - seat) % n] = 1.0
        features[:, 1 + 3 * n] = scalars[:, 3] == seat
        features[:, 2 + 3 * n] = self._novo

    def _known(self, d: _Deal) -> int:
        """The bit mask of the returned cards surely still in the stock and not in the
        agent's hand (the observation's ``known_in_stock``)."""
        dealt = d.stock_start - len(d.stock)
        hand = d.hands[self.seat]
        known = 0
        for card, low in d.returned:
            if dealt <= low and card not in hand:
                known |= 1 << card
        return known


def _mask_of(cards: list[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def slots_of(batch: KonchinkaBatch, index: int) -> dict[int, Any]:
    """Deal ``index``'s legal slots of the agent as ``slot -> (card, positions)``."""
    return {slot: batch.move_of(index, slot) for slot in batch.legal_slot_list(index)}


__all__ = ["KonchinkaBatch", "slots_of"]
