"""What one seat knows of a Konchinka deal (implements :class:`konkun.game.Observation`).

A seat sees its own hand, the table, every card captured so far and by whom (captures
are public in konkun), the size of every hand and of the stock, the last capturer, the
moves of the deal, and the cards sent back into the stock during the initial-table fix
(they were face up). It never holds another seat's hand or the stock order.

:meth:`KonchinkaObservation.sample_deal` deals the unseen cards at random into the other
hands and the stock. A card sent back into the stock during the fix went into the middle
half of the stock, so while fewer cards have been dealt from the stock than its lowest
possible position it is known to be in the stock, and the sample puts it there (at a
random place in the stock); otherwise it is treated like any other unseen card.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from konkun.cards import Card, shuffle
from konkun.errors import InvalidPositionError
from konkun.game import JSON
from konkun.konchinka.deal import KonchinkaDeal, install_view
from konkun.konchinka.deck import CARDS, ORDER, mask_cards
from konkun.konchinka.explain import explain_moves, points_reasons
from konkun.konchinka.move_memo import move_of
from konkun.konchinka.moves import Move
from konkun.konchinka.position import HistoryEntry
from konkun.konchinka.rules import KonchinkaRules
from konkun.konchinka.scoring import score_piles

__all__ = ["HistoryEntry", "KonchinkaObservation", "spectator_view"]


@dataclass(frozen=True, slots=True, eq=False)
class KonchinkaObservation:
    """One seat's view of a deal at one moment (build with :meth:`KonchinkaDeal.observe`).

    ``seat`` is ``None`` for a spectator, who sees no hand.
    """

    seat_or_none: int | None
    rules: KonchinkaRules
    num_seats: int
    dealer: int
    to_move: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    table: tuple[Card, ...]
    stock_size: int
    captured: tuple[tuple[Card, ...], ...]
    last_capturer: int | None
    history: tuple[HistoryEntry, ...]
    final_sweep: tuple[Card, ...]
    known_in_stock: tuple[Card, ...]
    points: tuple[int, ...] | None
    legal: tuple[Move, ...]
    _unseen: tuple[int, ...]
    _deal_fields: tuple[Any, ...]

    @staticmethod
    def of(deal: KonchinkaDeal, seat: int | None) -> KonchinkaObservation:
        """The observation of ``deal`` by ``seat`` (``None``: a spectator)."""
        if seat is not None and not 0 <= seat < deal.num_seats:
            raise InvalidPositionError(
                f"invalid seat {seat!r}: expected 0 to {deal.num_seats - 1}")
        raw_hands = deal.hand_indices
        own = tuple(deal.hand(seat)) if seat is not None else ()
        unseen = deal.unseen_by(seat)
        unseen_set = set(unseen)
        known = sorted((c for c in deal.returned_in_stock() if c in unseen_set),
                       key=ORDER.__getitem__)
        records = tuple(deal.history_indices)
        history = tuple(HistoryEntry(s, move_of(c, taken), redeal)
                        for s, c, taken, redeal in records)
        over = deal.is_over()
        legal = tuple(deal.legal_actions()) if seat is not None and deal.to_move == seat \
            else ()
        free = tuple(c for c in unseen if c not in known)
        piles = tuple(deal.pile_masks)
        final_sweep = tuple(deal.final_sweep)
        return KonchinkaObservation(
            seat_or_none=seat, rules=deal.rules, num_seats=deal.num_seats,
            dealer=deal.dealer, to_move=deal.to_move, hand=own,
            hand_sizes=tuple(len(h) for h in raw_hands), table=tuple(deal.table),
            stock_size=deal.stock_size,
            captured=tuple(tuple(mask_cards(m)) for m in piles),
            last_capturer=deal.last_capturer, history=history,
            final_sweep=final_sweep, known_in_stock=tuple(CARDS[c] for c in known),
            points=tuple(deal.points()) if over else None, legal=legal,
            _unseen=free,
            _deal_fields=(deal.next_seat, deal.returned_indices, deal.dealt_from_stock,
                          tuple([c.index for c in final_sweep]), records,
                          tuple([code & 63 for code in deal.table_codes]), piles,
                          tuple(known), tuple(raw_hands[seat]) if seat is not None else ()))

    @property
    def seat(self) -> int:
        """The seat this observation belongs to (-1 for a spectator)."""
        return -1 if self.seat_or_none is None else self.seat_or_none

    @property
    def variant(self) -> str:
        """``classic`` or ``novo``."""
        return self.rules.variant

    def is_over(self) -> bool:
        """True once the deal has ended."""
        return self.to_move is None

    def legal_actions(self) -> list[Move]:
        """The legal moves when this seat is to move, else the empty list."""
        return list(self.legal)

    def sample_deal(self, rng: random.Random) -> KonchinkaDeal:
        """A full deal consistent with this observation: the unseen cards dealt at random
        into the other hands and the stock (cards known to be in the stock stay there)."""
        (next_seat, returned, dealt_from_stock, final_sweep, history, table, piles, known,
         own) = self._deal_fields
        free = list(self._unseen)
        shuffle(free, rng)
        hands: list[list[int]] = []
        position = 0
        for s, size in enumerate(self.hand_sizes):
            if s == self.seat_or_none:
                hands.append(list(own))
            else:
                hands.append(free[position:position + size])
                position += size
        stock = free[position:]
        if known:
            stock += known
            shuffle(stock, rng)
        return KonchinkaDeal.from_indices(
            self.rules, dealer=self.dealer, hands=hands, table=table, stock=stock[::-1],
            piles=piles, next_seat=next_seat, over=self.to_move is None,
            last_capturer=self.last_capturer, history=history, returned=returned,
            dealt_from_stock=dealt_from_stock, final_sweep=final_sweep)

    def to_json(self) -> JSON:
        """This observation as JSON data (see ``docs/konchinka.md`` for the exact form)."""
        sweep = None
        if self.final_sweep:
            sweep = {"seat": self.last_capturer, "cards": [c.text for c in self.final_sweep]}
        return {
            "game": "konchinka",
            "seat": self.seat_or_none,
            "num_seats": self.num_seats,
            "variant": self.variant,
            "rules": self.rules.to_json(),
            "to_move": self.to_move,
            "dealer": self.dealer,
            "hand": [c.text for c in self.hand] if self.seat_or_none is not None else None,
            "hand_sizes": list(self.hand_sizes),
            "table": [c.text for c in self.table],
            "stock_size": self.stock_size,
            "captured": [[c.text for c in pile] for pile in self.captured],
            "captured_counts": [len(pile) for pile in self.captured],
            "last_capturer": self.last_capturer,
            "known_in_stock": [c.text for c in self.known_in_stock],
            "history": [entry.to_json() for entry in self.history],
            "final_sweep": sweep,
            "over": self.to_move is None,
            "points": list(self.points) if self.points is not None else None,
            "score": _score_json(self) if self.points is not None else None,
            "legal": [m.text() for m in self.legal],
            "explain": explain_moves(self.legal, self.table, self.rules),
            "score_reasons": points_reasons(self.captured, self.rules)
            if self.points is not None else None,
        }


def _score_json(observation: KonchinkaObservation) -> JSON:
    return score_piles(observation.captured, observation.rules).to_json()


def spectator_view(deal: KonchinkaDeal) -> KonchinkaObservation:
    """What a spectator knows: everything public, no hand."""
    return KonchinkaObservation.of(deal, None)


install_view("observation", KonchinkaObservation.of)
