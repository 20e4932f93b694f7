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

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from konkun.errors import InvalidCardError, InvalidNotationError
from konkun.kunken.melds import (
    BARE_JOKER,
    card_text,
    parse_slot,
    parse_slots,
    slot_card,
    slot_text,
)


class ActionKind(StrEnum):
    """What an action does. A ``StrEnum``: a kind equals its word (``kind == "take"``)."""

    DRAW = "draw"
    TAKE = "take"
    MELD = "meld"
    LAYOFF = "layoff"
    SWAP = "swap"
    DISCARD = "discard"


DRAW: Final = ActionKind.DRAW
TAKE: Final = ActionKind.TAKE
MELD: Final = ActionKind.MELD
LAYOFF: Final = ActionKind.LAYOFF
SWAP: Final = ActionKind.SWAP
DISCARD: Final = ActionKind.DISCARD


@dataclass(frozen=True, slots=True)
class Action:
    """One step of a turn: its ``kind``, its ``number`` (the bank position of a ``take``,
    the meld of a ``layoff`` or ``swap``; ``None`` for the other kinds) and its card
    ``slots`` (see :mod:`konkun.kunken.melds`: the meld's cards, the card laid off, given
    in a swap or discarded; empty for ``draw`` and ``take``).

    Build actions with :func:`draw`, :func:`take`, :func:`meld`, :func:`layoff`,
    :func:`swap` and :func:`discard` (they reuse one value per action where they can).
    """

    kind: ActionKind
    number: int | None = None
    slots: tuple[int, ...] = ()

    @property
    def target(self) -> int:
        """The bank position of a ``take``, the meld number of a ``layoff`` or ``swap``
        (``ValueError`` for an action that has neither)."""
        number = self.number
        if number is None:
            raise ValueError(f"{self.kind} has no bank position or meld number")
        return number

    @property
    def card(self) -> int:
        """The one card slot of a ``layoff``, ``swap`` or ``discard``."""
        return self.slots[0]

    def text(self) -> str:
        """The action's text: ``draw``, ``take 3``, ``meld 5h X=6h 7h``, ``layoff Kd 2``,
        ``swap 1 Ac``, ``discard Qs``."""
        kind = self.kind
        if kind == DRAW:
            return "draw"
        if kind == TAKE:
            return f"take {self.number}"
        if kind == MELD:
            return "meld " + " ".join(slot_text(s) for s in self.slots)
        if kind == LAYOFF:
            return f"layoff {slot_text(self.slots[0])} {self.number}"
        if kind == SWAP:
            return f"swap {self.number} {card_text(self.slots[0])}"
        return f"discard {card_text(self.slots[0])}"

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Action(ActionKind.{self.kind.name}, {self.number!r}, {self.slots!r})"

    def __reduce__(self) -> tuple[type[Action], tuple[ActionKind, int | None, tuple[int, ...]]]:
        # Pickled by value, so the compiled engine's frozen class unpickles too.
        return (Action, (self.kind, self.number, self.slots))


DRAW_ACTION: Final = Action(DRAW)
DISCARDS: Final = tuple(Action(DISCARD, None, (k,)) for k in range(53))
"""``discard(k)`` for every card ``k``: ``DISCARDS[k]`` (for hot loops)."""
_TAKES: Final = tuple(Action(TAKE, i) for i in range(120))
_CACHE_LIMIT: Final = 1 << 16
_MELDS: Final[dict[tuple[int, ...], Action]] = {}
_LAYOFFS: Final[dict[int, Action]] = {}
_SWAPS: Final[dict[int, Action]] = {}
# Legal-action lists build the same melds, lay-offs and swaps over and over: one value each
# (a frozen dataclass costs more to build than to look up). Emptied when full.


def draw() -> Action:
    """The action drawing the top card of the stock."""
    return DRAW_ACTION


def discard(card: int) -> Action:
    """The action discarding card ``card`` (0..52)."""
    return DISCARDS[card]


def take(position: int) -> Action:
    """The action taking the bank from ``position``."""
    return _TAKES[position] if position < len(_TAKES) else Action(TAKE, position)


def meld(slots: tuple[int, ...]) -> Action:
    """The action laying down the meld ``slots`` (as given: not checked, not reordered)."""
    action = _MELDS.get(slots)
    if action is None:
        if len(_MELDS) >= _CACHE_LIMIT:
            _MELDS.clear()
        action = _MELDS[slots] = Action(MELD, None, slots)
    return action


def _step(cache: dict[int, Action], kind: ActionKind, number: int, slot: int) -> Action:
    # One int per (meld number, slot): slots are below 128; an int hashes for nothing.
    key = number * 128 + slot if number >= 0 and 0 <= slot < 128 else -1
    action = cache.get(key) if key >= 0 else None
    if action is None:
        action = Action(kind, number, (slot,))
        if key >= 0:
            if len(cache) >= _CACHE_LIMIT:
                cache.clear()
            cache[key] = action
    return action


def layoff(meld_number: int, slot: int) -> Action:
    """The action laying ``slot`` off onto meld ``meld_number``."""
    return _step(_LAYOFFS, LAYOFF, meld_number, slot)


def swap(meld_number: int, card: int) -> Action:
    """The action giving ``card`` for the joker standing for it in meld ``meld_number``."""
    return _step(_SWAPS, SWAP, meld_number, card)


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
            return meld(tuple(parse_slots(rest)))
        if kind == LAYOFF and len(rest) == 2:
            return layoff(_number(rest[1], text), parse_slot(rest[0]))
        if kind == SWAP and len(rest) == 2:
            card = parse_slot(rest[1])
            if card >= BARE_JOKER:
                raise InvalidNotationError(f"invalid action {text!r}: a joker is swapped for "
                                           "a card, not for a joker")
            return swap(_number(rest[0], text), card)
        if kind == DISCARD and len(rest) == 1:
            return discard(slot_card(parse_slot(rest[0])))
    except InvalidCardError as error:
        raise InvalidNotationError(f"invalid action {text!r}: {error}") from None
    raise InvalidNotationError(
        f"invalid action {text!r}: expected draw, take I, meld CARDS, layoff CARD M, "
        "swap M CARD or discard CARD")
