"""The random playout: a Konchinka deal played to its end by uniformly random legal moves,
on integer cards and the counting polynomial (the fast path for simulation, ISMCTS).

:class:`RandomPlayout` gives :class:`~konkun.konchinka.deal.KonchinkaDeal` its
:meth:`~RandomPlayout.random_playout`; it works on the deal's own fields, named by
:class:`PlayoutFields`.
"""

from __future__ import annotations

import random
from bisect import insort
from typing import Protocol

from konkun.konchinka.captures import (
    CLASSIC_SHIFTS,
    FIELD,
    FIELD_BITS,
    INV_BY_VALUE,
    KING_SLOT,
    MAX_SUM,
    MUL_BY_VALUE,
    NOVO_SHIFTS,
    NOVO_SLOTS,
    POLY_MASK,
    SHIFT,
)
from konkun.konchinka.rules import TRAILS, KonchinkaRules
from konkun.konchinka.scoring import points_no_ties

LOW_FIELDS = tuple((1 << FIELD_BITS * (degree + 1)) - 1 for degree in range(MAX_SUM + 1))
"""By degree: the mask of the polynomial's fields up to it."""
LOW_INVERSES = tuple(tuple(inverse & low for inverse in INV_BY_VALUE) for low in LOW_FIELDS)
"""By degree, by value: :data:`INV_BY_VALUE` cut to the fields up to that degree."""

_FOLLOWING = {n: tuple((s + 1) % n for s in range(n)) for n in range(1, 5)}


class PlayoutFields(Protocol):
    """The parts of a deal the playout reads and plays on (the deal's private fields)."""

    _rules: KonchinkaRules
    _seats: int
    _slots: tuple[int, ...]
    _codes: tuple[int, ...]
    _hands: list[list[int]]
    _table: list[int]
    _poly: int
    _stock: list[int]
    _piles: list[int]
    _last: int
    _turn: int
    _in_hands: int
    _next_seat: int

    def _redeal(self) -> None: ...

    def _finish(self) -> None: ...

    def points(self) -> list[int]:
        """Each seat's points for the deal."""
        ...

    def push_option(self, card: int, positions: tuple[int, ...]) -> bool:
        """Play one of the deal's options, unchecked."""
        ...


def draw_random_move(hand: list[int], poly: int, has_table: bool, shifts: tuple[int, ...],
                     compulsory: bool, rng: random.Random) -> tuple[int, int]:
    """One uniformly random legal move of ``hand`` (one ``rng.random()``), its captures
    counted on the table's polynomial ``poly`` (``shifts``: where each card's count lies
    in it): the index of the card played and the rank of its capture, ``-1`` for a
    trail. Each card's moves are its captures, then its trail when the rule allows one
    (:data:`~konkun.konchinka.rules.TRAILS`, ``compulsory``: ``capture_compulsory``).

    :meth:`RandomPlayout.random_playout` draws the same way inline: calling this (and
    :func:`unrank_capture`) there made whole play-outs 7-10% slower (bench_konchinka)."""
    field = FIELD
    idle, capturing = TRAILS[compulsory]
    counts = []
    total = idle * len(hand)
    for card in hand:
        place = shifts[card]
        if place > 0:
            n = (poly >> place) & field
        elif place:
            n = ((poly >> SHIFT[13]) & field) + (poly >> SHIFT[14])
        else:
            n = 1 if has_table else 0
        counts.append(n)
        total += n
    if capturing != idle:
        total += (capturing - idle) * (len(counts) - counts.count(0))
    index = -1
    pick = int(rng.random() * total)
    for n in counts:
        index += 1
        moves = n + (capturing if n else idle)
        if pick < moves:
            break
        pick -= moves
    return (index, pick) if pick < n else (index, -1)


def unrank_capture(table: list[int], poly: int, slot: int, pick: int) -> tuple[int, ...]:
    """The positions of the ``pick``-th capture of ``slot`` (a value, or the novo King's
    13 or 14) on the sorted ``table`` with the counting polynomial ``poly``, in the order
    the random moves rank them: walking the table from its highest value down, a card is
    taken while the sets that take it still reach ``pick``."""
    if slot == KING_SLOT:
        thirteen = (poly >> SHIFT[13]) & FIELD
        if pick < thirteen:
            target = 13
        else:
            target = 14
            pick -= thirteen
    else:
        target = slot
    # the counts up to the target need only the fields up to it: a shorter product
    low = LOW_FIELDS[target]
    inverses = LOW_INVERSES[target]
    rest = poly & low
    chosen = []
    position = len(table)
    while target:
        position -= 1
        value = table[position] >> 6
        if value > target:
            continue
        rest = rest * inverses[value] & low
        ways = (rest >> SHIFT[target - value]) & FIELD
        if pick < ways:
            chosen.append(position)
            target -= value
        else:
            pick -= ways
    chosen.reverse()
    return tuple(chosen)


class RandomPlayout:
    """The random playout of a deal (a mixin of
    :class:`~konkun.konchinka.deal.KonchinkaDeal`)."""

    __slots__ = ()

    def push_random(self: PlayoutFields, rng: random.Random) -> bool:
        """Play one uniformly random legal move, drawn as :meth:`random_playout` draws
        each (one ``rng.random()``, the captures counted on the polynomial, only the drawn
        one listed), and recorded like :meth:`push_option`; return whether a redeal
        followed. The deal must not be over."""
        hand = self._hands[self._turn]
        poly = self._poly
        table = self._table
        shifts = NOVO_SHIFTS if self._slots is NOVO_SLOTS else CLASSIC_SHIFTS
        index, pick = draw_random_move(hand, poly, bool(table), shifts,
                                       self._rules.capture_compulsory, rng)
        card = hand[index]
        if pick < 0:
            return self.push_option(card, ())
        slot = self._slots[card]
        if not slot:
            return self.push_option(card, tuple(range(len(table))))
        return self.push_option(card, unrank_capture(table, poly, slot, pick))

    def random_playout(self: PlayoutFields, rng: random.Random,
                       trace: list[tuple[int, int]] | None = None) -> list[int]:
        """Play uniformly random legal moves to the end of the deal and return its points
        (the fast path for simulation: integers only, no history recorded). With
        ``trace``, append each move as (card index, bit mask of the taken cards)."""
        rand = rng.random
        slots = self._slots
        shifts = NOVO_SHIFTS if self._slots is NOVO_SLOTS else CLASSIC_SHIFTS
        codes = self._codes
        hands = self._hands
        piles = self._piles
        seats = self._seats
        idle, capturing = TRAILS[self._rules.capture_compulsory]
        field = FIELD
        poly_mask = POLY_MASK
        shift = SHIFT
        mul = MUL_BY_VALUE
        inv = INV_BY_VALUE
        shift13 = SHIFT[13]
        shift14 = SHIFT[14]
        king_slot = KING_SLOT
        following = _FOLLOWING[seats]
        table = self._table
        poly = self._poly
        turn = self._turn
        in_hands = self._in_hands
        last = self._last
        while turn >= 0:
            hand = hands[turn]
            counts = []
            total = idle * len(hand)
            for card in hand:
                place = shifts[card]
                if place > 0:
                    n = (poly >> place) & field
                elif place:
                    n = ((poly >> shift13) & field) + (poly >> shift14)
                else:
                    n = 1 if table else 0
                counts.append(n)
                total += n
            if capturing != idle:
                total += (capturing - idle) * (len(counts) - counts.count(0))
            index = -1
            pick = int(rand() * total)
            for n in counts:
                index += 1
                moves = n + (capturing if n else idle)
                if pick < moves:
                    break
                pick -= moves
            capture = pick < n
            card = hand.pop(index)
            in_hands -= 1
            if capture:
                mask = 1 << card
                slot = slots[card]
                if slot:
                    if slot == king_slot:
                        n = (poly >> shift13) & field
                        if pick < n:
                            target = 13
                        else:
                            target = 14
                            pick -= n
                    else:
                        target = slot
                    # Unrank the pick-th set adding up to target, walking the table from
                    # its highest value down; cards above the target cannot change the
                    # counts up to it, so they are skipped without dividing them out.
                    rest = poly
                    chosen = []
                    position = len(table)
                    while target:
                        position -= 1
                        code = table[position]
                        value = code >> 6
                        if value > target:
                            continue
                        rest = rest * inv[value] & poly_mask
                        ways = (rest >> shift[target - value]) & field
                        if pick < ways:
                            chosen.append(position)
                            mask |= 1 << (code & 63)
                            poly = poly * inv[value] & poly_mask
                            target -= value
                        else:
                            pick -= ways
                    for position in chosen:
                        del table[position]
                else:
                    for code in table:
                        mask |= 1 << (code & 63)
                    table = []
                    poly = 1
                piles[turn] |= mask
                last = turn
                if trace is not None:
                    trace.append((card, mask ^ (1 << card)))
            else:
                code = codes[card]
                insort(table, code)
                poly = poly * mul[code >> 6] & poly_mask
                if trace is not None:
                    trace.append((card, 0))
            if in_hands:
                turn = following[turn]
                while not hands[turn]:
                    turn = following[turn]
            else:
                self._table, self._poly, self._last = table, poly, last
                self._in_hands = 0
                if self._stock:
                    self._redeal()
                    in_hands = self._in_hands
                    turn = self._turn
                else:
                    self._finish()
                    self._next_seat = (turn + 1) % seats
                    turn = -1
                    table = self._table
                    poly = self._poly
        self._table, self._poly, self._last, self._turn = table, poly, last, -1
        self._in_hands = 0
        if self._rules.tie_points != "none":
            return self.points()
        return points_no_ties(piles)
