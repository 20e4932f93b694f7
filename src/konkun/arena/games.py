"""The games the arena can play, found by name in the one registry (:mod:`konkun.game`):
how to deal a deal from a seed (for duplicate deals) and how to start a match.

A worker process (local or on a Ray cluster) finds a game by importing it: konkun's own and
installed games through the registry, a game registered by ``"module:attribute"`` text
through the job's ``source`` (:func:`game_source`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from konkun import game as registry
from konkun.errors import InvalidRuleError
from konkun.game import Deal, Game, Match


@dataclass(frozen=True)
class ArenaGame:
    """A game as the arena uses it: rules given as ``{name: text}`` options."""

    game: Game

    @property
    def name(self) -> str:
        """The game's name as the command line spells it."""
        return self.game.name

    def check(self, num_seats: int, rules: Mapping[str, str]) -> None:
        """Raise :class:`~konkun.errors.InvalidRuleError` when the seats or rules are off."""
        self.game.rules_from_options(None, rules, num_seats)

    def new_deal(self, num_seats: int, rules: Mapping[str, str], seed: int,
                 dealer: int) -> Deal[Any]:
        """The deal that ``seed`` shuffles, dealt by ``dealer``: the same arguments give
        the same cards in the same places (duplicate deals rely on it)."""
        value = self.game.rules_from_options(None, rules, num_seats)
        return self.game.new_deal(value, num_seats, seed, dealer)

    def new_match(self, num_seats: int, rules: Mapping[str, str], seed: int) -> Match[Any]:
        """A whole match (game to the target, or deals in rotation) from ``seed``."""
        value = self.game.rules_from_options(None, rules, num_seats)
        return self.game.new_match(value, num_seats, seed)


def register_game(name: str, target: str) -> None:
    """Register the game that ``"module:attribute"`` names (a thin wrapper of
    :func:`konkun.game.register_game`; ``name`` must be the game's own)."""
    game = registry.register_game(target)
    if game.name != name:
        registry.unregister_game(game.name)
        raise InvalidRuleError(f"{target!r} is game {game.name!r}, not {name!r}")


def game_names() -> list[str]:
    """The names the arena knows."""
    return registry.game_names()


def game_source(name: str) -> str | None:
    """Where a worker process imports game ``name`` from (``None``: the registry finds it
    there by itself, or it was registered as an object)."""
    return registry.game_source(name)


def load_game(name: str, source: str | None = None) -> ArenaGame:
    """The arena game called ``name`` (registering ``source`` first when this process does
    not know it yet); raise :class:`~konkun.errors.InvalidRuleError` for an unknown one."""
    if source is not None and name not in registry.game_names():
        registry.register_game(source)
    return ArenaGame(registry.get_game(name))
