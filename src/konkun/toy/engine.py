"""The toy game's engine: a tiny fishing game that implements the :mod:`konkun.game`
protocols, so that every layer can be tested (and demonstrated) apart from the real games.

Sixteen cards ``0..15``; card ``c`` has the value ``c // 2 + 1`` (1..8, two of each).
Each seat holds three cards, two lie face up on the table, the rest is a face-down
stock. In turn (from the seat left of the dealer) a seat plays one card: it captures
every table card of the same value (the played card and those go to its pile), or, if
there is none, it lies on the table. Then it draws the top stock card, if any. The deal
ends when the hands and the stock are empty; each seat scores one point per card in its
pile. A match is played to ``target`` points (rule option, default 10), the deal
rotating; a tie for the highest total plays on.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from konkun.cards import shuffle
from konkun.errors import GameOverError, IllegalMoveError, InvalidNotationError
from konkun.game import JSON, Observation, check_seat_count
from konkun.records import GameRecord

MIN_SEATS = 2
MAX_SEATS = 3
"""The toy game is played by 2 or 3 players."""

CARDS = tuple(range(16))
HAND = 3
TABLE = 2


def value(card: int) -> int:
    """The value of a toy card (1..8)."""
    return card // 2 + 1


class ToyDeal:
    """One deal of the toy game (implements :class:`konkun.game.Deal` of ``int``)."""

    def __init__(self, hands: list[list[int]], table: list[int], stock: list[int],
                 piles: list[list[int]], to_move: int) -> None:
        self.hands = hands
        self.table = table
        self.stock = stock
        self.piles = piles
        self._to_move = to_move

    @classmethod
    def new(cls, num_seats: int, seed: int, dealer: int = 0) -> ToyDeal:
        """A shuffled deal for ``num_seats`` (2 or 3) from ``seed``."""
        check_seat_count("Toy", num_seats, MIN_SEATS, MAX_SEATS)
        cards = list(CARDS)
        shuffle(cards, random.Random(seed))  # stable across Python versions
        hands = [cards[HAND * s:HAND * (s + 1)] for s in range(num_seats)]
        rest = cards[HAND * num_seats:]
        return cls(hands, rest[:TABLE], rest[TABLE:], [[] for _ in range(num_seats)],
                   (dealer + 1) % num_seats)

    @property
    def num_seats(self) -> int:
        """How many seats play."""
        return len(self.hands)

    @property
    def to_move(self) -> int | None:
        """The seat to act, ``None`` once over."""
        return None if self.is_over() else self._to_move

    def is_over(self) -> bool:
        """True when every hand is empty."""
        return not any(self.hands)

    def legal_actions(self) -> list[int]:
        """The cards in the hand of the seat to act."""
        return [] if self.is_over() else sorted(self.hands[self._to_move])

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is a card in the hand of the seat to act."""
        return not self.is_over() and action in self.hands[self._to_move]

    def why_illegal(self, action: int) -> str | None:
        """Why ``action`` is illegal now (naming only the input), or ``None``."""
        if self.is_over():
            return "the deal is over"
        if action not in self.hands[self._to_move]:
            return f"not in the hand of seat {self._to_move}"
        return None

    def play(self, action: int) -> None:
        """Play a card, checking it is legal."""
        reason = self.why_illegal(action)
        if reason is not None:
            error = GameOverError if self.is_over() else IllegalMoveError
            raise error(str(action), reason)
        self.push(action)

    def push(self, action: int) -> None:
        """Play a card known to be legal."""
        seat = self._to_move
        self.hands[seat].remove(action)
        taken = [c for c in self.table if value(c) == value(action)]
        if taken:
            self.table = [c for c in self.table if value(c) != value(action)]
            self.piles[seat].extend([action, *taken])
        else:
            self.table.append(action)
        if self.stock:
            self.hands[seat].append(self.stock.pop())
        self._to_move = (seat + 1) % self.num_seats

    def copy(self) -> Self:
        """An independent copy."""
        return type(self)([list(h) for h in self.hands], list(self.table), list(self.stock),
                          [list(p) for p in self.piles], self._to_move)

    def observe(self, seat: int) -> ToyObservation:
        """What ``seat`` knows: its hand, the table, the piles and the counts."""
        return ToyObservation(seat, self.to_move, tuple(sorted(self.hands[seat])),
                              tuple(self.table), tuple(tuple(p) for p in self.piles),
                              tuple(len(h) for h in self.hands), len(self.stock))

    def points(self) -> list[int]:
        """One point per captured card."""
        return [len(p) for p in self.piles]

    def format_action(self, action: int) -> str:
        """The card's number."""
        return str(action)

    def parse_action(self, text: str) -> int:
        """Read a card number."""
        if not text.strip().isdigit() or int(text) not in CARDS:
            raise InvalidNotationError(f"invalid toy move {text!r}")
        return int(text)


@dataclass(frozen=True, slots=True)
class ToyObservation:
    """One seat's view of a toy deal (implements :class:`konkun.game.Observation`)."""

    seat: int
    to_move: int | None
    hand: tuple[int, ...]
    table: tuple[int, ...]
    piles: tuple[tuple[int, ...], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int

    @property
    def num_seats(self) -> int:
        """How many seats play."""
        return len(self.piles)

    def legal_actions(self) -> list[int]:
        """The hand when this seat is to act."""
        return list(self.hand) if self.to_move == self.seat else []

    def unseen(self) -> list[int]:
        """The cards this seat cannot see (other hands and the stock)."""
        seen = set(self.hand) | set(self.table)
        for pile in self.piles:
            seen.update(pile)
        return [c for c in CARDS if c not in seen]

    def sample_deal(self, rng: random.Random) -> ToyDeal:
        """A deal consistent with this view, the unseen cards dealt at random."""
        unseen = self.unseen()
        shuffle(unseen, rng)
        hands: list[list[int]] = []
        for s, size in enumerate(self.hand_sizes):
            if s == self.seat:
                hands.append(list(self.hand))
            else:
                hands.append(unseen[:size])
                del unseen[:size]
        to_move = self.to_move if self.to_move is not None else self.seat
        return ToyDeal(hands, list(self.table), unseen, [list(p) for p in self.piles], to_move)

    def to_json(self) -> JSON:
        """The view as JSON data."""
        return {"seat": self.seat, "to_move": self.to_move, "hand": list(self.hand),
                "table": list(self.table), "piles": [list(p) for p in self.piles],
                "hand_sizes": list(self.hand_sizes), "stock": self.stock_size,
                "legal": [str(a) for a in self.legal_actions()]}


@dataclass(frozen=True, slots=True)
class ToyRules:
    """The toy game's one rule option."""

    target: int = 10

    def to_json(self) -> JSON:
        """``{"target": N}``."""
        return {"target": self.target}

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> ToyRules:
        """Read :meth:`to_json` data (a missing target: 10)."""
        return ToyRules(int(data.get("target", 10)))


class ToyRecord(GameRecord[ToyRules]):
    """A toy match's rules, seats, seed and moves (the shared
    :class:`~konkun.records.GameRecord`, ``"game": "toy"``)."""

    __slots__ = ()
    game = "toy"
    read_rules = staticmethod(ToyRules.from_json)


def int_seed(seed: int | str) -> int:
    """An integer seed for a text one (the toy engine shuffles from integers)."""
    if isinstance(seed, int):
        return seed
    return int.from_bytes(hashlib.sha256(seed.encode()).digest()[:7], "big")


def replay(record: ToyRecord) -> ToyMatch:
    """The match a record describes, every move validated."""
    match = ToyMatch(record.num_seats, record.seed, record.rules.target)
    for text in record.actions:
        match.play(match.deal.parse_action(text))
    return match


class ToyMatch:
    """Toy deals in rotation until a total reaches ``target`` (implements
    :class:`konkun.game.Match`)."""

    def __init__(self, num_seats: int, seed: int | str, target: int = 10) -> None:
        check_seat_count("Toy", num_seats, MIN_SEATS, MAX_SEATS)
        self._seats = num_seats
        self._seed = seed  # as given, for the record; the deals shuffle from _shuffle_seed
        self._shuffle_seed = int_seed(seed)
        self.target = target
        self._dealer = 0
        self._deal = ToyDeal.new(num_seats, self._shuffle_seed, 0)
        self._totals = [0] * num_seats
        self._history: list[list[int]] = []
        self._actions: list[int] = []

    @property
    def num_seats(self) -> int:
        """How many seats play."""
        return self._seats

    @property
    def deal(self) -> ToyDeal:
        """The current deal."""
        return self._deal

    @property
    def totals(self) -> list[int]:
        """The running totals."""
        return list(self._totals)

    @property
    def deal_points(self) -> Sequence[Sequence[int]]:
        """Each finished deal's points."""
        return [list(p) for p in self._history]

    def is_over(self) -> bool:
        """True once a total reached the target with one highest total."""
        best = max(self._totals)
        return best >= self.target and self._totals.count(best) == 1

    def play(self, action: int) -> None:
        """Play in the current deal; deal the next one when it ends."""
        if self.is_over():
            raise GameOverError(f"toy move {action!r}: the match is over")
        self._deal.play(action)
        self._actions.append(action)
        if self._deal.is_over():
            points = self._deal.points()
            self._history.append(points)
            self._totals = [t + p for t, p in zip(self._totals, points, strict=True)]
            if not self.is_over():
                self._dealer = (self._dealer + 1) % self._seats
                seed = self._shuffle_seed * 1000 + len(self._history)
                self._deal = ToyDeal.new(self._seats, seed, self._dealer)

    def winner(self) -> int | None:
        """The seat with the highest total once over."""
        return self._totals.index(max(self._totals)) if self.is_over() else None

    def record(self) -> ToyRecord:
        """The seed and the moves."""
        return ToyRecord(ToyRules(self.target), self._seats, self._seed,
                         tuple(map(str, self._actions)))

    def to_json(self, seat: int | None) -> JSON:
        """The totals and, for a seat, its view of the current deal."""
        data: JSON = {"totals": self.totals, "deal_points": self._history}
        if seat is not None:
            data["deal"] = self._deal.observe(seat).to_json()
        return data


def _check_protocols() -> None:  # pragma: no cover - static typing only
    from konkun.game import Deal, Match
    deal: Deal[int] = ToyDeal.new(2, 0)
    observation: Observation[int] = deal.observe(0)
    match: Match[int] = ToyMatch(2, 0)
    del observation, match
