"""What one seat knows of a Kunken deal (:class:`KunkenObservation`), its JSON form
(docs/kunken.md, "Observation JSON") and determinization (:meth:`sample_deal`).

A seat sees its own hand, the bank (every card), every meld with its owner and who laid
each card, the number of cards in every hand and in the stock, the renewals used, and
which cards each player took from the bank and still holds (known to all). It never sees
another hand's other cards or the order of the stock.
"""

from __future__ import annotations

import random
from typing import Any

from konkun.cards import shuffle
from konkun.errors import InvalidPositionError
from konkun.kunken.actions import TAKE, Action
from konkun.kunken.explain import score_parts, take_refusals
from konkun.kunken.melds import TableMeld, card_text, slot_card
from konkun.kunken.rules import KunkenRules
from konkun.kunken.state import (
    DRAWN,
    OVER,
    START,
    TAKEN,
    KunkenDeal,
    cards_of,
    copy_public_state,
    install_view,
)


class KunkenObservation:
    """One seat's view of a deal (implements :class:`konkun.game.Observation`)."""

    __slots__ = (
        "_legal",
        "_points",
        "_unseen",
        "bank",
        "dealer",
        "express",
        "hand",
        "hand_sizes",
        "history_len",
        "layout",
        "melds",
        "need",
        "num_seats",
        "opening",
        "pending",
        "phase",
        "renewals",
        "rules",
        "seat",
        "stock_size",
        "take_card",
        "taken",
        "to_move",
        "turn_marks",
        "turn_notold",
        "winner",
    )

    rules: KunkenRules
    seat: int
    num_seats: int
    to_move: int | None
    dealer: int
    phase: str
    hand: list[int]
    hand_sizes: list[int]
    bank: list[int]
    stock_size: int
    renewals: int
    melds: list[TableMeld]
    taken: list[list[int]]
    layout: list[bool]
    take_card: int
    pending: bool
    need: int
    opening: bool
    turn_notold: list[int]
    turn_marks: list[int]
    winner: int | None
    express: bool
    history_len: int
    _legal: list[Action] | None
    _unseen: list[int] | None
    _points: list[int] | None

    def __init__(self, deal: KunkenDeal, seat: int) -> None:
        """The view of ``seat`` of ``deal`` now (:meth:`KunkenDeal.observe`)."""
        if not 0 <= seat < deal.num_seats:
            raise InvalidPositionError(f"invalid seat {seat} for {deal.num_seats} seats")
        self.rules = deal.rules
        self.seat = seat
        self.num_seats = deal.num_seats
        self.dealer = deal.dealer
        self.hand = deal.hands[seat].copy()
        self.hand_sizes = deal.hand_sizes.copy()
        self.bank = deal.bank.copy()
        self.stock_size = len(deal.stock)
        copy_public_state(deal, self)
        self.history_len = len(deal.history)
        self._legal = None
        self._unseen = None
        self._points = deal.points() if deal.phase == OVER else None

    @classmethod
    def from_deal(cls, deal: KunkenDeal, seat: int) -> KunkenObservation:
        """The view of ``seat`` of ``deal`` now."""
        return cls(deal, seat)

    def legal_actions(self) -> list[Action]:
        """The legal actions when this seat is to act, else the empty list."""
        if self.to_move != self.seat:
            return []
        if self._legal is None:
            self._legal = self.sample_deal(random.Random(0)).legal_actions()
        return list(self._legal)

    def unseen(self) -> list[int]:
        """The cards this seat cannot place: other hands (beyond their known taken cards)
        and the stock, as card indices (a new list; worked out once: a search samples a
        world from the same view at every iteration)."""
        if self._unseen is None:
            self._unseen = self._count_unseen()
        return self._unseen.copy()

    def _count_unseen(self) -> list[int]:
        counts = [2] * 52 + [self.rules.jokers]
        for k in range(53):
            counts[k] -= self.hand[k]
        for c in self.bank:
            counts[c] -= 1
        for meld in self.melds:
            for s in meld.slots:
                counts[slot_card(s)] -= 1
        for seat in range(self.num_seats):
            if seat != self.seat:
                for k in range(53):
                    counts[k] -= self.taken[seat][k]
        return cards_of(counts)

    def sample_deal(self, rng: random.Random) -> KunkenDeal:
        """A full deal consistent with this view: the unseen cards dealt at random into
        the other hands (each keeps its known taken cards) and the stock."""
        pool = self.unseen()
        shuffle(pool, rng)
        hands: list[list[int]] = []
        pos = 0
        for seat in range(self.num_seats):
            if seat == self.seat:
                hands.append(self.hand.copy())
                continue
            hand = self.taken[seat].copy()
            extra = self.hand_sizes[seat] - sum(hand)
            for c in pool[pos:pos + extra]:
                hand[c] += 1
            pos += extra
            hands.append(hand)
        return KunkenDeal.determinized(self, hands, pool[pos:])

    def take_refusals(self) -> list[dict[str, Any]]:
        """Why this seat may not take the bank from each other bank card, at the start of
        its turn (:func:`konkun.kunken.explain.take_refusals`); else ``[]``."""
        if self.to_move != self.seat or self.phase != START or not self.bank:
            return []
        offered = {a.number for a in self.legal_actions()
                   if a.kind == TAKE and a.number is not None}
        return take_refusals(self.hand, self.bank, self.melds, self.layout[self.seat],
                             self.rules, offered)

    def obligations(self) -> list[str]:
        """The turn's open obligations in words (after a take)."""
        out: list[str] = []
        if self.phase != TAKEN:
            return out
        if self.pending:
            out.append(f"must meld the taken card {card_text(self.take_card)} with two cards "
                       "held before the take")
        if self.need > 0:
            out.append(f"must reach {self.rules.opening_minimum} in melds this turn "
                       f"({self.need} more)")
        return out

    def to_json(self) -> dict[str, Any]:
        """This view as JSON data (docs/kunken.md, "Observation JSON")."""
        mover = self.to_move
        data: dict[str, Any] = {
            "game": "kunken",
            "seat": self.seat,
            "num_seats": self.num_seats,
            "to_move": mover,
            "dealer": self.dealer,
            "phase": str(self.phase),
            "hand": [card_text(k) for k in cards_of(self.hand)],
            "hand_sizes": self.hand_sizes.copy(),
            "bank": [card_text(k) for k in self.bank],
            "stock_size": self.stock_size,
            "renewals_used": self.renewals,
            "max_stock_renewals": self.rules.max_stock_renewals,
            "melds": [dict(m.to_json(), index=i) for i, m in enumerate(self.melds)],
            "taken_held": [[card_text(k) for k in cards_of(t)] for t in self.taken],
            "has_layout": self.layout.copy(),
            "turn": {
                "seat": mover,
                "phase": str(self.phase),
                "taken_card": card_text(self.take_card) if self.take_card >= 0 else None,
                "taken_this_turn": [card_text(k) for k in cards_of(self.turn_notold)],
                "opening": self.opening,
                "must_meld_taken_card": self.pending,
                "points_needed": max(0, self.need),
                "obligations": self.obligations(),
                "can_discard": self.phase == DRAWN or (
                    self.phase == TAKEN and not self.pending and self.need <= 0),
                "can_swap": mover is not None and self.layout[mover]
                and self.phase in (DRAWN, TAKEN),
            },
            "over": self.phase == OVER,
            "winner": self.winner,
            "express": self.express,
            "points": self._points,
        }
        if mover == self.seat and self.phase != OVER:
            data["legal"] = [a.text() for a in self.legal_actions()]
        else:
            data["legal"] = []
        data["take_refusals"] = self.take_refusals()
        data["score_parts"] = score_parts(self.seat, self.melds, self.hand, self.winner,
                                          self.express) if self.phase == OVER else None
        return data


install_view("observation", KunkenObservation.from_deal)

__all__ = ["KunkenObservation"]

