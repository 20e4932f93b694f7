"""A tiny card game that implements the protocols of :mod:`konkun.game`, for server tests.

"High card": each deal gives every seat 3 cards from a shuffled deck (the rest is a stock
nobody sees); in turn each seat plays one card from its hand onto the table; when the
hands are empty the seat that played the highest card scores 1. The match goes on, the
first seat rotating, until a total reaches ``target`` (rule option, default 2).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Self

from konkun.cards import Card, rng_for_seed, shuffled, standard_deck
from konkun.errors import (
    GameOverError,
    IllegalMoveError,
    InvalidNotationError,
    InvalidRuleError,
    KonkunError,
)
from konkun.game import Game, RuleOption, Titles

HAND = 3


@dataclass(frozen=True)
class FakeRules:
    """The fake game's one option."""

    target: int = 2

    @classmethod
    def from_options(cls, options: Mapping[str, str]) -> FakeRules:
        """Rules from ``{name: text}``."""
        target = 2
        for name, text in options.items():
            if name != "target":
                raise InvalidRuleError(f"unknown rule option {name!r}")
            try:
                target = int(text)
            except ValueError:
                raise InvalidRuleError(f"invalid target {text!r}") from None
            if not 1 <= target <= 20:
                raise InvalidRuleError(f"invalid target {text!r}: expected 1..20")
        return cls(target)


class FakeDeal:
    """One deal of high card."""

    def __init__(self, hands: list[list[Card]], stock: list[Card], first: int) -> None:
        self.hands = hands
        self.stock = stock
        self.table: list[tuple[int, Card]] = []
        self._to_move: int | None = first

    @property
    def num_seats(self) -> int:
        return len(self.hands)

    @property
    def to_move(self) -> int | None:
        return self._to_move

    def is_over(self) -> bool:
        return self._to_move is None

    def legal_actions(self) -> list[Card]:
        return [] if self._to_move is None else sorted(self.hands[self._to_move])

    def is_legal(self, action: Card) -> bool:
        return self._to_move is not None and action in self.hands[self._to_move]

    def why_illegal(self, action: Card) -> str | None:
        if self._to_move is None:
            return "the deal is over"
        if action not in self.hands[self._to_move]:
            return f"seat {self._to_move} does not hold it"
        return None

    def play(self, action: Card) -> None:
        reason = self.why_illegal(action)
        if reason is not None:
            error = GameOverError if self._to_move is None else IllegalMoveError
            raise error(action.text, reason)
        self.push(action)

    def push(self, action: Card) -> None:
        assert self._to_move is not None
        self.hands[self._to_move].remove(action)
        self.table.append((self._to_move, action))
        following = (self._to_move + 1) % self.num_seats
        self._to_move = None if not any(self.hands) else following

    def copy(self) -> Self:
        other = type(self)([list(h) for h in self.hands], list(self.stock), 0)
        other.table = list(self.table)
        other._to_move = self._to_move
        return other

    def observe(self, seat: int) -> FakeObservation:
        return FakeObservation(seat, self)

    def points(self) -> list[int]:
        points = [0] * self.num_seats
        if self.table:
            best_seat, _card = max(self.table, key=lambda pair: pair[1].index)
            points[best_seat] = 1
        return points

    def format_action(self, action: Card) -> str:
        return action.text

    def parse_action(self, text: str) -> Card:
        try:
            return Card.parse(text)
        except KonkunError:
            raise InvalidNotationError(f"invalid action {text!r}: expected a card") from None


class FakeObservation:
    """What one seat knows: its hand, the table, the hand sizes."""

    def __init__(self, seat: int, deal: FakeDeal) -> None:
        self._seat = seat
        self.hand = sorted(deal.hands[seat])
        self.sizes = [len(h) for h in deal.hands]
        self.table = list(deal.table)
        self._to_move = deal.to_move
        self._num_seats = deal.num_seats

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def num_seats(self) -> int:
        return self._num_seats

    @property
    def to_move(self) -> int | None:
        return self._to_move

    def legal_actions(self) -> list[Card]:
        return list(self.hand) if self._to_move == self._seat else []

    def sample_deal(self, rng: random.Random) -> FakeDeal:
        seen = set(self.hand) | {card for _s, card in self.table}
        unseen = shuffled([c for c in standard_deck() if c not in seen], rng)
        hands = []
        for seat, size in enumerate(self.sizes):
            if seat == self._seat:
                hands.append(list(self.hand))
            else:
                hands.append(unseen[:size])
                unseen = unseen[size:]
        deal = FakeDeal(hands, unseen, 0)
        deal.table = list(self.table)
        deal._to_move = self._to_move
        return deal

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seat": self._seat, "hand": [c.text for c in self.hand],
            "hand_sizes": self.sizes, "to_move": self._to_move,
            "table": [{"seat": s, "card": c.text} for s, c in self.table]}
        if self._to_move == self._seat:
            data["legal"] = [c.text for c in self.hand]
        return data


@dataclass
class FakeRecord:
    """Seed and actions."""

    rules: FakeRules
    num_seats: int
    seed: int | str
    actions: list[str]

    def to_json(self) -> dict[str, Any]:
        return {"game": "fake", "rules": {"target": self.rules.target},
                "seats": self.num_seats, "seed": self.seed, "actions": list(self.actions)}


class FakeMatch:
    """Deals of high card until a total reaches the target."""

    def __init__(self, rules: FakeRules, num_seats: int, seed: int | str) -> None:
        self.rules = rules
        self._num_seats = num_seats
        self.seed = seed
        self.rng = rng_for_seed(seed)
        self._totals = [0] * num_seats
        self._history: list[list[int]] = []
        self.actions: list[str] = []
        self._deal = self._new_deal(0)

    def _new_deal(self, first: int) -> FakeDeal:
        deck = shuffled(standard_deck(), self.rng)
        hands = [deck[i * HAND:(i + 1) * HAND] for i in range(self._num_seats)]
        return FakeDeal(hands, deck[self._num_seats * HAND:], first)

    @property
    def num_seats(self) -> int:
        return self._num_seats

    @property
    def deal(self) -> FakeDeal:
        return self._deal

    @property
    def totals(self) -> list[int]:
        return list(self._totals)

    @property
    def deal_points(self) -> Sequence[Sequence[int]]:
        return self._history

    def is_over(self) -> bool:
        return max(self._totals) >= self.rules.target

    def play(self, action: Card) -> None:
        if self.is_over():
            raise GameOverError(f"illegal move {action}: the match is over")
        self._deal.play(action)
        self.actions.append(action.text)
        if self._deal.is_over():
            points = self._deal.points()
            self._history.append(points)
            self._totals = [t + p for t, p in zip(self._totals, points, strict=True)]
            if not self.is_over():
                self._deal = self._new_deal(len(self._history) % self._num_seats)

    def winner(self) -> int | None:
        return self._totals.index(max(self._totals)) if self.is_over() else None

    def record(self) -> FakeRecord:
        return FakeRecord(self.rules, self._num_seats, self.seed, list(self.actions))

    def to_json(self, seat: int | None) -> dict[str, Any]:
        deal: dict[str, Any]
        if seat is None:
            deal = {"hand_sizes": [len(h) for h in self._deal.hands],
                    "to_move": self._deal.to_move,
                    "table": [{"seat": s, "card": c.text} for s, c in self._deal.table]}
        else:
            deal = self._deal.observe(seat).to_json()
        return {"game": "fake", "totals": self.totals, "over": self.is_over(),
                "winner": self.winner(), "deal": deal}


def _rules(_variant: str | None, values: dict[str, Any], _seats: int) -> FakeRules:
    return FakeRules(int(values["target"]))


def _replay(data: Mapping[str, Any]) -> FakeMatch:
    match = FakeMatch(FakeRules(int(data["rules"]["target"])), int(data["seats"]), data["seed"])
    for text in data["actions"]:
        match.play(match.deal.parse_action(text))
    return match


def _no_duplicate_deals(_rules: Any, _seats: int, _seed: int, _dealer: int) -> Any:
    raise InvalidRuleError("the fake game deals only whole matches")


FAKE = Game(
    name="fake", title=Titles("High card", "Старшая карта"), min_seats=2, max_seats=4,
    options=(RuleOption.integer("target", 2, Titles("Game to", "Игра до"),
                                minimum=1, maximum=20),),
    make_rules=_rules, start_match=lambda rules, seats, seed: FakeMatch(rules, seats, seed),
    deal_from_seed=_no_duplicate_deals, read_record=_replay)
"""The descriptor tests register as game ``fake``."""
