"""The Kunken deal's fields (:class:`DealFields`, the base of
:class:`~konkun.kunken.state.KunkenDeal`) and the helpers every part of the deal shares:
count vectors, the public part of a deal, the deal's views and the turn phases.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, Final

from konkun.kunken.actions import Action
from konkun.kunken.melds import TableMeld
from konkun.kunken.position import Phase
from konkun.kunken.rules import KunkenRules

_VIEWS: Final[dict[str, Callable[..., Any]]] = {}
# The deal's views are written in the modules above this one, which read the deal:
# observation (``observe``) and notation (``from_json``). Each hands its maker to
# install_view on import, and konkun.kunken imports both, so a deal always has them while
# no import points back down here.


def installed_view(name: str) -> Callable[..., Any]:
    """The maker :func:`install_view` was given for ``name``."""
    return _VIEWS[name]


def install_view(name: str, maker: Callable[..., Any]) -> None:
    """Give the deal a view written above it: ``"observation"`` (deal, seat) -> the seat's
    observation, or ``"from_json"`` (data) -> the deal :meth:`KunkenDeal.to_json` wrote."""
    _VIEWS[name] = maker


START: Final = Phase.START
DRAWN: Final = Phase.DRAWN
TAKEN: Final = Phase.TAKEN
OVER: Final = Phase.OVER
PHASES: Final = tuple(Phase)


MARK_TAKEN: Final = 1
"""The bit of a joker mark (:func:`joker_mark`) set for the taken joker (clear: a joker held
before the take)."""
SET_JOKER: Final = 52
"""A mark's key for a joker of a set: any joker of that set (a set's jokers are won by
any missing suit, and a set of four reads them open, so they are told apart only by what
they are)."""


def joker_mark(meld: int, key: int, taken: bool) -> int:
    """A joker laid this turn, as the turn's state keeps it: ``meld`` its meld's number,
    ``key`` the card it stands for in a sequence or :data:`SET_JOKER` in a set, ``taken``
    whether it is the taken joker (else one held before the take). One int:
    ``meld << 7 | key << 1 | taken``."""
    return meld << 7 | key << 1 | (MARK_TAKEN if taken else 0)


def mark_meld(mark: int) -> int:
    """The meld number of a joker mark."""
    return mark >> 7


def mark_key(mark: int) -> int:
    """The key of a joker mark: the card it stands for, or :data:`SET_JOKER`."""
    return (mark >> 1) & 63


def counts_of(cards: Iterable[int]) -> list[int]:
    """A count vector (53 entries) of card indices."""
    counts = [0] * 53
    for c in cards:
        counts[c] += 1
    return counts


def cards_of(counts: list[int]) -> list[int]:
    """The card indices of a count vector, in index order."""
    return [k for k in range(53) for _ in range(counts[k])]


def copy_public_state(source: Any, target: Any) -> None:
    """Copy what every seat sees of a deal (a deal or an observation, to either): the
    melds, the cards known taken from the bank, the layouts, the stock renewals and the
    state of the turn."""
    target.melds = [m.copy() for m in source.melds]
    target.taken = [t.copy() for t in source.taken]
    target.layout = source.layout.copy()
    target.renewals = source.renewals
    target.to_move = source.to_move
    target.phase = source.phase
    target.winner = source.winner
    target.express = source.express
    target.take_card = source.take_card
    target.pending = source.pending
    target.need = source.need
    target.opening = source.opening
    target.turn_notold = source.turn_notold.copy()
    target.turn_marks = source.turn_marks.copy()


class DealFields:
    """The fields of a Kunken deal (docs/kunken.md, "The fast interface"); the deal's
    parts (:mod:`~konkun.kunken.legal_steps`, :mod:`~konkun.kunken.legality`,
    :mod:`~konkun.kunken.applying`) build on them, each the base of the next."""

    __slots__ = (
        "bank", "dealer", "drawn", "express", "hand_sizes", "hands", "history",
        "joker_for_held", "layout", "melds",
        "need", "num_seats", "opening", "pending", "phase", "renewals", "rules", "stock",
        "swap_before_take", "take_card", "taken", "to_move", "turn_marks", "turn_notold",
        "winner",
    )

    rules: KunkenRules
    """Set with :meth:`set_rules`, which copies the options the legal lists read."""
    joker_for_held: bool
    """``rules.joker_for_held``, read at every legal list: an attribute of the compiled
    deal costs nothing, one of the rules (a Python object) a lookup by name."""
    swap_before_take: bool
    """``rules.swap_before_take``, read at every turn's start (as :attr:`joker_for_held`)."""
    num_seats: int
    dealer: int
    hands: list[list[int]]
    hand_sizes: list[int]
    stock: list[int]
    bank: list[int]
    melds: list[TableMeld]
    taken: list[list[int]]
    layout: list[bool]
    renewals: int
    to_move: int | None
    phase: Phase
    winner: int | None
    express: bool
    take_card: int
    pending: bool
    need: int
    opening: bool
    turn_notold: list[int]
    turn_marks: list[int]
    """The jokers held before the take, or the taken joker, that this turn laid on the
    table while the taken card is still to be melded (:func:`joker_mark`): a swap that wins
    one back gives it back as what it was (RULES.md, a joker keeps its identity)."""
    history: list[Action]
    drawn: list[int]
    """The cards drawn from the stock in this deal, in order (hidden: each is known only to
    the seat that drew it; the research API's perfect-recall information state reads a
    seat's own). Empty for a deal rebuilt from a position or from JSON."""

    def set_rules(self, rules: KunkenRules) -> None:
        """Play by ``rules``."""
        self.rules = rules
        self.joker_for_held = rules.joker_for_held
        self.swap_before_take = rules.swap_before_take

    def _reset_turn(self) -> None:
        self.take_card = -1
        self.pending = False
        self.need = 0
        self.opening = False
        self.turn_notold = [0] * 53
        self.turn_marks = []

    def taken_joker_out(self) -> bool:
        """Whether the taken joker, still to be melded, lies on the table, laid this turn
        (only winning it back lets the taken card's meld be laid)."""
        return any(mark & MARK_TAKEN for mark in self.turn_marks)

    def obligations_met(self) -> bool:
        """After a take: the taken card is melded and the opening minimum reached."""
        return not self.pending and self.need <= 0

    def stock_renewable(self) -> bool:
        """Whether an empty stock can be renewed from the bank now."""
        return (self.rules.empty_stock == "turn_bank"
                and self.renewals < self.rules.max_stock_renewals and bool(self.bank))
