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
from konkun.kunken.deal_fields import (
    DRAWN,
    MARK_TAKEN,
    OVER,
    SET_JOKER,
    START,
    TAKEN,
    joker_mark,
    mark_key,
    mark_meld,
)
from konkun.kunken.legality import Legality
from konkun.kunken.melds import (
    BARE_JOKER,
    JOKER_FOR,
    SET,
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
                tm = self.melds[number]
                if slot >= BARE_JOKER and self.pending:
                    self._lay_joker(seat, number,
                                    SET_JOKER if tm.kind == SET else slot - JOKER_FOR)
                else:
                    self._remove(seat, slot if slot < BARE_JOKER else BARE_JOKER)
                tm.lay_off(slot, seat)
            elif kind == SWAP:
                self._swap(seat, number, action.slots[0])

    def _swap(self, seat: int, number: int, card: int) -> None:
        self._remove(seat, card)
        tm = self.melds[number]
        tm.swap(card)
        self.hands[seat][BARE_JOKER] += 1
        self.hand_sizes[seat] += 1
        if self.phase == TAKEN:
            mark = self._won_mark(number, SET_JOKER if tm.kind == SET else card)
            if mark < 0 or mark & MARK_TAKEN:
                self.turn_notold[BARE_JOKER] += 1  # new, or the taken joker back
            if mark >= 0:
                self.turn_marks.remove(mark)

    def _won_mark(self, number: int, key: int) -> int:
        """The mark of the joker a swap wins from meld ``number`` (``key``: the card given,
        or :data:`SET_JOKER` for a set), -1 when it is not one this turn laid: the taken
        joker first, then one held before the take (of a set's jokers the player wins the
        one that serves best)."""
        found = -1
        for mark in self.turn_marks:
            if mark_meld(mark) == number and mark_key(mark) == key and mark > found:
                found = mark  # the same meld and key: the taken bit decides
        return found

    def _lay_joker(self, seat: int, number: int, key: int) -> None:
        """A joker leaves the hand for meld ``number`` (``key`` as in :func:`joker_mark`)
        while the taken card is still to be melded, outside the taken card's meld: the
        player lays the joker that serves least, a new one if the hand holds one (taken
        with the bank after the taken card, or won from an earlier meld), else one held
        before the take, else the taken joker; the last two are marked, so that winning
        them back gives them back as what they were."""
        hand, notold = self.hands[seat], self.turn_notold
        taken_held = 1 if self.take_card == BARE_JOKER and not self.taken_joker_out() else 0
        new = notold[BARE_JOKER] - taken_held
        old = hand[BARE_JOKER] - notold[BARE_JOKER]
        self._remove(seat, BARE_JOKER)  # counts a joker not held before the take first
        if new > 0:
            return
        if old > 0:
            if taken_held:
                notold[BARE_JOKER] += 1  # the taken joker stays: an old one was laid
            self.turn_marks.append(joker_mark(number, key, False))
        else:
            self.turn_marks.append(joker_mark(number, key, True))

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
        self.drawn.append(card)
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
            self.turn_marks = []  # who a joker was no longer matters
        if self.opening:
            self.need -= sum(slot_value(s) for s in meld)
        laid = TableMeld(seat, meld)
        number = len(self.melds)
        for s in meld:
            if s < BARE_JOKER:
                self._remove(seat, s)
            elif self.pending:
                self._lay_joker(seat, number, SET_JOKER if laid.kind == SET else s - JOKER_FOR)
            else:
                self._remove(seat, BARE_JOKER)
        self.melds.append(laid)
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

