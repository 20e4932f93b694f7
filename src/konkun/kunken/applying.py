"""Applying actions to a Kunken deal (:class:`Applying`): the unchecked ``push`` and the
draw, take, meld, lay-off, swap and discard it makes, with the stock's renewal and the end
of the deal.
"""

from __future__ import annotations

from konkun.kunken.actions import (
    DISCARD,
    DRAW,
    LAYOFF,
    MELD,
    SWAP,
    TAKE,
    Action,
)
from konkun.kunken.deal_fields import DRAWN, OVER, START, TAKEN
from konkun.kunken.legality import Legality
from konkun.kunken.melds import (
    BARE_JOKER,
    TableMeld,
    slot_value,
)


class Applying(Legality):
    """``push`` (the fast path) and the steps it applies (over the legality checks: one line
    of bases, as the compiled engine needs)."""

    __slots__ = ()

    # ------------------------------------------------------------------ applying

    def push(self, action: Action) -> None:
        """Apply a legal action without checking it (the fast path)."""
        seat = self.to_move
        assert seat is not None
        self.history.append(action)
        kind = action.kind
        if kind == DISCARD:
            self._discard(seat, action.slots[0])
        elif kind == DRAW:
            self._draw(seat)
        elif kind == MELD:
            self._meld(seat, action.slots)
        else:
            number = action.number
            assert number is not None  # take, layoff and swap name a position or a meld
            if kind == TAKE:
                self._take(seat, number)
            elif kind == LAYOFF:
                slot = action.slots[0]
                self._remove(seat, slot if slot < BARE_JOKER else BARE_JOKER)
                self.melds[number].lay_off(slot, seat)
            elif kind == SWAP:
                self._swap(seat, number, action.slots[0])

    def _swap(self, seat: int, number: int, card: int) -> None:
        self._remove(seat, card)
        self.melds[number].swap(card)
        self.hands[seat][BARE_JOKER] += 1
        self.hand_sizes[seat] += 1
        if self.phase == TAKEN:
            self.turn_notold[BARE_JOKER] += 1

    def _remove(self, seat: int, card: int) -> None:
        self.hands[seat][card] -= 1
        self.hand_sizes[seat] -= 1
        if self.taken[seat][card]:
            self.taken[seat][card] -= 1
        if self.turn_notold[card]:
            self.turn_notold[card] -= 1

    def _draw(self, seat: int) -> None:
        if not self.stock:
            if self.stock_renewable():
                self.stock = self.bank[::-1]
                self.bank = []
                self.renewals += 1
            else:
                self._end(None)
                return
        card = self.stock.pop()
        self.hands[seat][card] += 1
        self.hand_sizes[seat] += 1
        self.phase = DRAWN

    def _take(self, seat: int, i: int) -> None:
        cards = self.bank[i:]
        del self.bank[i:]
        hand = self.hands[seat]
        taken = self.taken[seat]
        notold = self.turn_notold
        for c in cards:
            hand[c] += 1
            taken[c] += 1
            notold[c] += 1
        self.hand_sizes[seat] += len(cards)
        self.take_card = cards[0]
        self.pending = True
        self.opening = not self.layout[seat]
        self.need = self.rules.opening_minimum if self.opening else 0
        self.phase = TAKEN

    def _meld(self, seat: int, meld: tuple[int, ...]) -> None:
        if self.pending and self._meld_is_third(self.hands[seat], self.turn_notold, meld):
            self.pending = False
        if self.opening:
            self.need -= sum(slot_value(s) for s in meld)
        for s in meld:
            self._remove(seat, s if s < BARE_JOKER else BARE_JOKER)
        self.melds.append(TableMeld(seat, meld))
        self.layout[seat] = True

    def _discard(self, seat: int, card: int) -> None:
        self._remove(seat, card)
        self.bank.append(card)
        if self.hand_sizes[seat] == 0:
            self.express = self.phase == TAKEN and self.opening
            self._end(seat)
            return
        self.to_move = (seat + 1) % self.num_seats
        self.phase = START
        self._reset_turn()

    def _end(self, winner: int | None) -> None:
        self.winner = winner
        self.to_move = None
        self.phase = OVER
        self._reset_turn()

