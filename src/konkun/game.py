"""The shape every game engine gives to the layers above it (bots, arena, server, TUI, RL).

Both engines (:mod:`konkun.konchinka`, :mod:`konkun.kunken`) implement these protocols, so
the layers above can be written once for both games. The protocols only describe; they do
not import either engine.

- A :class:`Deal` is one deal: the position, its legal actions, validating :meth:`~Deal.play`
  (with :meth:`~Deal.why_illegal` for the reason) and unchecked :meth:`~Deal.push`, and the
  per-seat :meth:`~Deal.observe`.
- An :class:`Observation` is what one seat may know, and nothing more: it never holds another
  seat's hidden cards or the order of the stock. It can :meth:`~Observation.sample_deal` a
  full deal consistent with itself (a determinization, for information-set search).
- A :class:`Match` is a whole game or match: deals in rotation with running totals, until the
  target or the number of deals, with a :class:`Record` (seed and actions) that replays exactly.

Actions are small immutable, hashable values with a text form (``Deal.format_action`` and
``Deal.parse_action``); equal actions are the same action in every determinization.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Protocol, Self, TypeVar, runtime_checkable

A = TypeVar("A", bound=Hashable)
JSON = dict[str, Any]


@runtime_checkable
class Observation(Protocol[A]):
    """What one seat knows of a deal at one moment."""

    @property
    def seat(self) -> int:
        """The seat this observation belongs to."""
        ...

    @property
    def num_seats(self) -> int:
        """How many seats play the deal."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when the deal is over."""
        ...

    def legal_actions(self) -> list[A]:
        """The legal actions when this seat is to act, else the empty list."""
        ...

    def sample_deal(self, rng: random.Random) -> Deal[A]:
        """A full deal, uniformly random among those consistent with this observation:
        the unseen cards are dealt at random into the other hands and the stock."""
        ...

    def to_json(self) -> JSON:
        """This observation as JSON data (cards as text, ``legal`` as action texts)."""
        ...


@runtime_checkable
class Deal(Protocol[A]):
    """One deal of a game, from the deal to its final score."""

    @property
    def num_seats(self) -> int:
        """How many seats play the deal."""
        ...

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when the deal is over."""
        ...

    def is_over(self) -> bool:
        """True once the deal has ended."""
        ...

    def legal_actions(self) -> list[A]:
        """Every legal action of the seat to act, each once (empty when over)."""
        ...

    def is_legal(self, action: A) -> bool:
        """Whether ``action`` is legal now."""
        ...

    def why_illegal(self, action: A) -> str | None:
        """Why ``action`` is illegal now, in words, or ``None`` when it is legal. The words
        name only the input and what the seat to act may see (its own cards, public ones):
        interfaces show them to that seat as they are."""
        ...

    def play(self, action: A) -> None:
        """Apply a legal action; raise :class:`konkun.errors.IllegalMoveError` otherwise,
        leaving the deal unchanged. Its ``reason`` is :meth:`why_illegal`'s; its ``str()``
        may add the position, which shows every hidden card."""
        ...

    def push(self, action: A) -> None:
        """Apply an action known to be legal, without checking (the fast path)."""
        ...

    def copy(self) -> Self:
        """An independent copy."""
        ...

    def observe(self, seat: int) -> Observation[A]:
        """What ``seat`` knows now."""
        ...

    def points(self) -> list[int]:
        """Each seat's score for the deal; only meaningful once the deal is over."""
        ...

    def format_action(self, action: A) -> str:
        """The text of an action."""
        ...

    def parse_action(self, text: str) -> A:
        """Read an action's text; raise :class:`konkun.errors.InvalidNotationError`."""
        ...


class Record(Protocol):
    """Everything needed to replay a match: game, rules, seats, seed and actions."""

    def to_json(self) -> JSON:
        """The record as JSON data."""
        ...


class Match(Protocol[A]):
    """A whole game (Konchinka, to the target) or match (Kunken, over deals)."""

    @property
    def num_seats(self) -> int:
        """How many seats play."""
        ...

    @property
    def deal(self) -> Deal[A]:
        """The current (or, once the match is over, the last) deal."""
        ...

    @property
    def totals(self) -> list[int]:
        """Each seat's running total."""
        ...

    @property
    def deal_points(self) -> Sequence[Sequence[int]]:
        """Each finished deal's points per seat, in order (the score sheet's history)."""
        ...

    def is_over(self) -> bool:
        """True when the match has ended."""
        ...

    def play(self, action: A) -> None:
        """Validate and apply an action in the current deal; when that ends the deal and
        the match goes on, the next deal is dealt at once."""
        ...

    def winner(self) -> int | None:
        """The winning seat once the match is over, else ``None``."""
        ...

    def record(self) -> Record:
        """The replayable record of everything played so far."""
        ...

    def to_json(self, seat: int | None) -> JSON:
        """The match as ``seat`` sees it (``None``: a spectator, who sees no hand)."""
        ...
