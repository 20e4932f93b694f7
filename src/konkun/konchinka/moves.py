"""A Konchinka move: the card played and the set of table cards it takes.

Text (``CONTRACT.md``): the played card alone for a trail (``Qd``), or the played card,
``:`` and the taken cards for a capture (``Qd:As7h2c``). Taken cards are read in any
order; they are written in the canonical card order of konkun: rank from high to low
(``A K Q J T 9 ... 2``), then suit ``c d h s``.

>>> move = Move.parse("Qd:2c7hAs")
>>> str(move), move.is_capture, move.kind
('Qd:As7h2c', True, <MoveKind.CAPTURE: 'capture'>)
>>> Move.parse("Qd") == Move.trail(Card.parse("Qd"))
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import Enum

from konkun.cards import Card, parse_cards
from konkun.errors import InvalidCardError, InvalidNotationError


def card_order(card: Card) -> int:
    """The canonical sort key of a card: rank from Ace down to 2, then suit c d h s."""
    return (12 - card.index % 13) * 4 + card.index // 13


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards in the canonical order (rank high to low, then suit c d h s)."""
    return sorted(cards, key=card_order)


class MoveKind(Enum):
    """What a move does: lay its card on the table, or take cards with it."""

    TRAIL = "trail"
    CAPTURE = "capture"


@dataclass(frozen=True, slots=True)
class Move:
    """One move: ``card`` played from hand, taking ``taken`` (empty: a trail).

    Two moves are equal exactly when they play the same card and take the same set.
    """

    card: Card
    taken: frozenset[Card] = field(default_factory=frozenset)

    @staticmethod
    def trail(card: Card) -> Move:
        """The trail of ``card`` (laid face up on the table)."""
        return Move(card, frozenset())

    @staticmethod
    def capture(card: Card, taken: Iterable[Card]) -> Move:
        """``card`` taking the cards ``taken``."""
        return Move(card, frozenset(taken))

    @property
    def is_capture(self) -> bool:
        """True when the move takes cards."""
        return bool(self.taken)

    @property
    def is_trail(self) -> bool:
        """True when the move lays the card on the table."""
        return not self.taken

    @property
    def kind(self) -> MoveKind:
        """:attr:`MoveKind.CAPTURE` when the move takes cards, else :attr:`MoveKind.TRAIL`."""
        return MoveKind.CAPTURE if self.taken else MoveKind.TRAIL

    def taken_sorted(self) -> list[Card]:
        """The taken cards in the canonical order."""
        return sort_cards(self.taken)

    def text(self) -> str:
        """The move's text: ``Qd`` or ``Qd:As7h2c`` (taken cards in canonical order)."""
        if not self.taken:
            return self.card.text
        return self.card.text + ":" + "".join(c.text for c in self.taken_sorted())

    def __str__(self) -> str:
        return self.text()

    def __repr__(self) -> str:
        return f"Move.parse({self.text()!r})"

    @staticmethod
    def parse(text: str) -> Move:
        """Read a move's text; raise :class:`~konkun.errors.InvalidNotationError`."""
        if not isinstance(text, str):
            raise InvalidNotationError(f"invalid move {text!r}: expected text")
        played_text, sep, taken_text = text.strip().partition(":")
        try:
            played = parse_cards(played_text)
            taken = parse_cards(taken_text) if sep else []
        except InvalidCardError as error:
            raise InvalidNotationError(f"invalid move {text!r}: {error}") from None
        if len(played) != 1:
            raise InvalidNotationError(
                f"invalid move {text!r}: expected exactly one played card before ':'")
        if sep and not taken:
            raise InvalidNotationError(
                f"invalid move {text!r}: expected the taken cards after ':'")
        if any(c.is_joker for c in [*played, *taken]):
            raise InvalidNotationError(f"invalid move {text!r}: Konchinka has no joker")
        if len(set(taken)) != len(taken):
            raise InvalidNotationError(f"invalid move {text!r}: a taken card is repeated")
        if played[0] in taken:
            raise InvalidNotationError(
                f"invalid move {text!r}: the played card cannot take itself")
        return Move(played[0], frozenset(taken))
