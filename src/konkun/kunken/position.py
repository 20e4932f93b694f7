"""The Kunken position as a frozen public value (python-chess's ``BaseBoard`` idea).

:class:`KunkenPosition` is everything a :class:`~konkun.kunken.state.KunkenDeal` needs to
continue exactly: ``deal.position()`` takes it and ``KunkenDeal.from_position(position)``
rebuilds a deal that plays on identically (the same legal actions in the same order, the
same observations, the same points). Like python-chess's ``BaseBoard`` it holds the
position, not the moves that led to it: the deal's ``history`` is not part of it. It is a
value: frozen, hashable, compared field by field, and its text, the KKN
(:mod:`konkun.kunken.notation`), holds all of it, so ``parse_kkn(format_kkn(p)) == p``.

Cards are integers, as everywhere in the Kunken engine: ``Card.index`` (0..51) and 52 for
a joker; a meld's cards are *slots* (:mod:`konkun.kunken.melds`: a joker standing for card
``k`` is ``53 + k``, an open-suit joker in a set of rank position ``p`` is ``105 + p``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from konkun.kunken.rules import KunkenRules


class Phase(StrEnum):
    """Where the turn stands (a ``StrEnum``: ``phase == "start"`` holds)."""

    START = "start"
    """The turn begins: ``draw`` or ``take I`` (and, with ``swap_before_take``, swaps)."""
    DRAWN = "drawn"
    """After ``draw``: swaps (with a layout), then ``discard``."""
    TAKEN = "taken"
    """After ``take I``: melds, lay-offs and swaps, then ``discard`` once the turn's
    obligations are met."""
    OVER = "over"
    """The deal has ended."""


@dataclass(frozen=True, slots=True)
class MeldPosition:
    """A meld on the table: its ``owner``, its ``slots`` in the order the meld keeps them
    (a sequence in circular order from its first card; a set's real cards by suit, then
    its jokers) and, for each slot, the seat that laid it (``laid_by``: the owner, or the
    seat that laid the card off)."""

    owner: int
    slots: tuple[int, ...]
    laid_by: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class TakeTurn:
    """The state of a turn that began with ``take I`` (phase ``taken``)."""

    taken_card: int
    """The card the bank was taken from (the third card)."""
    pending: bool
    """Whether the taken card still has to be melded with two cards held before the take."""
    need: int
    """The points this turn's melds still have to reach for an opening (0 or less: none)."""
    opening: bool
    """Whether this turn is the player's opening (no layout before it)."""
    not_old: tuple[int, ...]
    """The cards in hand that were not held before the take (the taken cards and jokers
    won by swaps this turn), sorted."""
    marks: tuple[int, ...] = ()
    """The jokers held before the take, or the taken joker, that this turn laid on the
    table while the taken card is still to be melded, sorted: each
    :func:`~konkun.kunken.deal_fields.joker_mark` (its meld, the card it stands for or any
    joker of a set, and whether it is the taken joker). A swap that wins one back gives it
    back as what it was (RULES.md: a joker keeps its identity through the turn)."""


@dataclass(frozen=True, slots=True)
class KunkenPosition:
    """A Kunken deal at one moment, as a frozen value.

    Build it with :meth:`KunkenDeal.position() <konkun.kunken.state.KunkenDeal.position>`
    or :func:`~konkun.kunken.notation.parse_kkn`, and turn it back into a deal with
    :meth:`KunkenDeal.from_position() <konkun.kunken.state.KunkenDeal.from_position>`.
    It is not validated (``parse_kkn`` validates its input).
    """

    rules: KunkenRules
    """The rules of the deal."""
    dealer: int
    """The dealer's seat."""
    hands: tuple[tuple[int, ...], ...]
    """Every seat's hand, seat 0 first, each sorted by card index."""
    stock: tuple[int, ...]
    """The stock, the next card to draw first."""
    bank: tuple[int, ...]
    """The bank, oldest card first (position 0 of ``take 0``)."""
    melds: tuple[MeldPosition, ...]
    """The melds on the table, in the order laid (meld ``M`` of ``layoff``/``swap``)."""
    taken: tuple[tuple[int, ...], ...]
    """For every seat, the cards it took from the bank and still holds (every seat saw
    them taken), sorted."""
    layout: tuple[bool, ...]
    """For every seat, whether it has laid down a meld."""
    renewals: int = 0
    """How many times the stock has been renewed from the bank."""
    to_move: int | None = None
    """The seat whose turn it is; ``None`` once the deal is over."""
    phase: Phase = Phase.START
    """Where the turn stands."""
    turn: TakeTurn | None = None
    """The take turn's state in phase ``taken``, else ``None``."""
    winner: int | None = None
    """The seat that went out, once the deal is over (``None``: nobody went out)."""
    express: bool = False
    """Whether the winner went out with no layout before that turn (RULES.md, express)."""

    @property
    def num_seats(self) -> int:
        """How many seats play the deal."""
        return len(self.hands)

    @property
    def over(self) -> bool:
        """Whether the deal has ended."""
        return self.phase == Phase.OVER


__all__ = ["KunkenPosition", "MeldPosition", "Phase", "TakeTurn"]
