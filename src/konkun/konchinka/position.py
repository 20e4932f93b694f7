"""The Konchinka position as a frozen public value (python-chess's ``BaseBoard`` idea).

:class:`KonchinkaPosition` is everything a :class:`~konkun.konchinka.deal.KonchinkaDeal`
needs to continue exactly: ``deal.position()`` takes it, and
``KonchinkaDeal.from_position(position)`` rebuilds a deal that plays on identically (the
same legal moves in the same order, the same random playouts from the same random
source, the same observations). It is a value: frozen, hashable, compared field by field.

The KPN (``CONTRACT.md``) is the text of part of it: variant, table, hands, stock, piles,
the seat to move, the dealer and the last capture. The rest -- the options beyond the
variant, the moves so far, the cards the initial-table fix sent back into the stock, how
many cards have been dealt from the stock since, the final sweep, and the order in which
each hand holds its cards -- is not in the KPN.
"""

from __future__ import annotations

from dataclasses import dataclass

from konkun.cards import Card
from konkun.game import JSON
from konkun.konchinka.moves import Move
from konkun.konchinka.rules import KonchinkaRules


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One move of the deal: who played it, the move, and whether a redeal followed."""

    seat: int
    move: Move
    redeal: bool

    def to_json(self) -> JSON:
        """``{"seat", "move", "card", "taken", "redeal"}`` (cards as text)."""
        return {"seat": self.seat, "move": self.move.text(), "card": self.move.card.text,
                "taken": [c.text for c in self.move.taken_sorted()], "redeal": self.redeal}


@dataclass(frozen=True, slots=True)
class KonchinkaPosition:
    """A Konchinka deal at one moment, as a frozen value.

    Build it with :meth:`KonchinkaDeal.position() <konkun.konchinka.deal.KonchinkaDeal.position>`
    and turn it back into a deal with
    :meth:`KonchinkaDeal.from_position() <konkun.konchinka.deal.KonchinkaDeal.from_position>`.
    It is not validated (use :func:`~konkun.konchinka.notation.parse_kpn` for input).
    """

    rules: KonchinkaRules
    """The rules of the deal (its variant and options)."""
    dealer: int
    """The dealer's seat."""
    hands: tuple[tuple[Card, ...], ...]
    """Every seat's hand, seat 0 first, each in the order the deal holds it (the order
    it was dealt in, less the cards played): the engine lists moves and plays random
    playouts in that order, so it is kept, not sorted."""
    table: tuple[Card, ...]
    """The face-up table cards, in the canonical card order."""
    stock: tuple[Card, ...]
    """The stock, the next card to be dealt first."""
    piles: tuple[tuple[Card, ...], ...]
    """Every seat's capture pile, in the canonical card order."""
    next_seat: int
    """The seat to move, or for a finished deal the seat that would move next."""
    over: bool
    """Whether the deal has ended."""
    last_capturer: int | None
    """The seat that made the last capture, or ``None``."""
    history: tuple[HistoryEntry, ...] = ()
    """The moves of the deal so far (a deal built from a KPN has none)."""
    returned_to_stock: tuple[tuple[Card, int], ...] = ()
    """Cards the initial-table fix sent back into the stock, each with the smallest stock
    position (0: next to be dealt) it can have had when play began."""
    dealt_from_stock: int = 0
    """How many cards have been dealt from the stock since play began (with
    :attr:`returned_to_stock`, which returned cards are surely still in the stock)."""
    final_sweep: tuple[Card, ...] = ()
    """The table cards swept to the last capturer at the end of the deal."""

    @property
    def num_seats(self) -> int:
        """How many seats play the deal."""
        return len(self.hands)

    @property
    def to_move(self) -> int | None:
        """The seat to move, or ``None`` when the deal is over."""
        return None if self.over else self.next_seat
