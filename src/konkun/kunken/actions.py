"""Kunken actions and their text (docs/kunken.md, "Actions").

A turn is a short sequence of actions, each a small immutable :class:`Action`:

============================  ==========================================================
``draw``                      take the top card of the stock
``take I``                    take the bank from bank position ``I`` (0 = oldest card)
``meld C1 C2 C3 ...``         lay down a meld from hand (``X=7d`` a joker standing for 7d
                              in a sequence, ``X`` an open-suit joker in a set)
``layoff C M``                lay card ``C`` (``X``/``X=7d`` for a joker) off onto meld ``M``
``swap M C``                  put card ``C`` from hand in place of the joker it stands for in
                              meld ``M`` and take the joker into hand
``discard C``                 discard ``C`` onto the bank (ends the turn; the last card:
                              going out)
============================  ==========================================================

Melds are numbered from 0 in the order they were laid down.
"""

from __future__ import annotations

from typing import NamedTuple

from konkun.errors import InvalidCardError, InvalidNotationError
from konkun.kunken.melds import (
    BARE_JOKER,
    card_text,
    parse_slot,
    parse_slots,
    slot_card,
    slot_text,
)

DRAW = "draw"
TAKE = "take"
MELD = "meld"
LAYOFF = "layoff"
SWAP = "swap"
DISCARD = "discard"


class Action(NamedTuple):
    """One step of a turn: ``kind``, a number (bank position for ``take``, meld number for
    ``layoff``/``swap``) and card slots (see :mod:`konkun.kunken.melds`)."""

    kind: str
    number: int = -1
    slots: tuple[int, ...] = ()

    def text(self) -> str:
        """The action's text: ``draw``, ``take 3``, ``meld 5h X=6h 7h``, ``layoff Kd 2``,
        ``swap 1 Ac``, ``discard Qs``."""
        if self.kind == DRAW:
            return DRAW
        if self.kind == TAKE:
            return f"take {self.number}"
        if self.kind == MELD:
            return "meld " + " ".join(slot_text(s) for s in self.slots)
        if self.kind == LAYOFF:
            return f"layoff {slot_text(self.slots[0])} {self.number}"
        if self.kind == SWAP:
            return f"swap {self.number} {card_text(self.slots[0])}"
        return f"discard {card_text(self.slots[0])}"

    def __str__(self) -> str:
        return self.text()


DRAW_ACTION = Action(DRAW)
_DISCARDS = tuple(Action(DISCARD, -1, (k,)) for k in range(53))
_TAKES = tuple(Action(TAKE, i) for i in range(120))


def discard(card: int) -> Action:
    """The action discarding card ``card`` (0..52)."""
    return _DISCARDS[card]


def take(position: int) -> Action:
    """The action taking the bank from ``position``."""
    return _TAKES[position] if position < len(_TAKES) else Action(TAKE, position)


def _number(word: str, text: str) -> int:
    if not word.isdigit():
        raise InvalidNotationError(f"invalid action {text!r}: {word!r} is not a number")
    return int(word)


def parse_action(text: str) -> Action:
    """Read an action's text (state-free: a bare joker ``X`` is kept undeclared, the deal
    reads it; :meth:`KunkenDeal.parse_action` gives the canonical action)."""
    words = text.split()
    if not words:
        raise InvalidNotationError(f"invalid action {text!r}: empty")
    kind = words[0].lower()
    rest = words[1:]
    try:
        if kind == DRAW and not rest:
            return DRAW_ACTION
        if kind == TAKE and len(rest) == 1:
            return take(_number(rest[0], text))
        if kind == MELD and rest:
            return Action(MELD, -1, tuple(parse_slots(rest)))
        if kind == LAYOFF and len(rest) == 2:
            return Action(LAYOFF, _number(rest[1], text), (parse_slot(rest[0]),))
        if kind == SWAP and len(rest) == 2:
            card = parse_slot(rest[1])
            if card >= BARE_JOKER:
                raise InvalidNotationError(f"invalid action {text!r}: a joker is swapped for "
                                           "a card, not for a joker")
            return Action(SWAP, _number(rest[0], text), (card,))
        if kind == DISCARD and len(rest) == 1:
            return discard(slot_card(parse_slot(rest[0])))
    except InvalidCardError as error:
        raise InvalidNotationError(f"invalid action {text!r}: {error}") from None
    raise InvalidNotationError(
        f"invalid action {text!r}: expected draw, take I, meld CARDS, layoff CARD M, "
        "swap M CARD or discard CARD")
