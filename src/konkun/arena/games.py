"""The games the arena can play, found by name: how to deal a deal from a seed (for
duplicate deals) and how to start a match.

Each entry is a ``"module:attribute"`` path, so that worker processes (local or on a Ray
cluster) find the game by importing it; :func:`register_game` adds one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from konkun.bots.specs import load_target
from konkun.errors import InvalidRuleError
from konkun.game import Deal, Match


class ArenaGame(Protocol):
    """What the arena needs from a game."""

    name: str
    """The game's name as the command line spells it."""

    def check(self, num_seats: int, rules: Mapping[str, str]) -> None:
        """Raise a :class:`~konkun.errors.KonkunError` when the seats or rules are off."""
        ...

    def new_deal(self, num_seats: int, rules: Mapping[str, str], seed: int,
                 dealer: int) -> Deal[Any]:
        """The deal that ``seed`` shuffles, dealt by ``dealer``: the same arguments give
        the same cards in the same places (duplicate deals rely on it)."""
        ...

    def new_match(self, num_seats: int, rules: Mapping[str, str], seed: int) -> Match[Any]:
        """A whole match (game to the target, or deals in rotation) from ``seed``."""
        ...


_GAMES: dict[str, str] = {
    "konchinka": "konkun.arena.engines:KonchinkaArena",
    "kunken": "konkun.arena.engines:KunkenArena",
    "toy": "konkun.arena.games:ToyArena",
}


def register_game(name: str, target: str) -> None:
    """Name the ``"module:attribute"`` of an :class:`ArenaGame` (class or instance)."""
    _GAMES[name] = target


def game_names() -> list[str]:
    """The names the arena knows."""
    return sorted(_GAMES)


def load_game(name: str) -> ArenaGame:
    """The arena game called ``name``; raise :class:`InvalidRuleError` for an unknown one."""
    target = _GAMES.get(name)
    if target is None:
        raise InvalidRuleError(
            f"unknown game {name!r}; known games: {', '.join(game_names())}")
    found = load_target(target)
    game: ArenaGame = found() if isinstance(found, type) else found
    return game


class ToyArena:
    """The toy fishing game of :mod:`konkun.bots.toy` (for tests and demonstrations);
    rule ``target`` (default 10) sets the match target."""

    name = "toy"

    def check(self, num_seats: int, rules: Mapping[str, str]) -> None:
        """2 or 3 seats; only the ``target`` rule."""
        if num_seats not in (2, 3):
            raise InvalidRuleError(f"the toy game takes 2 or 3 players, not {num_seats}")
        for key, value in rules.items():
            if key != "target":
                raise InvalidRuleError(f"unknown toy rule option {key!r}")
            if not value.isdigit() or int(value) < 1:
                raise InvalidRuleError(f"invalid toy rule target={value!r}")

    def new_deal(self, num_seats: int, rules: Mapping[str, str], seed: int,
                 dealer: int) -> Deal[Any]:
        """A toy deal."""
        from konkun.bots.toy import ToyDeal
        return ToyDeal.new(num_seats, seed, dealer)

    def new_match(self, num_seats: int, rules: Mapping[str, str], seed: int) -> Match[Any]:
        """A toy match."""
        from konkun.bots.toy import ToyMatch
        return ToyMatch(num_seats, seed, int(rules.get("target", "10")))
