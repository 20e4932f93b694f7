"""The games a table can play: a small registry of per-game adapters.

The server is written once against the protocols of :mod:`konkun.game`; an adapter says, for
one game, which variants and seat counts it has, how to build its rules from ``{name: text}``
options, and how to start a :class:`~konkun.game.Match` from (rules, seats, seed). A match is
replayed by starting it from the same seed and playing the stored actions again.

Konchinka and Kunken register themselves here lazily (their engines are imported the first
time a table of theirs is made); tests add small fake games with :func:`register_game`.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from konkun.errors import InvalidNotationError, InvalidRuleError, KonkunError, one_line
from konkun.game import Match

RulesFactory = Callable[[str | None, Mapping[str, str], int], Any]
"""Builds a game's rules value from (variant, rule option texts, number of seats); raises
:class:`~konkun.errors.InvalidRuleError` for an unknown option or a value it does not take."""

MatchFactory = Callable[[Any, int, "int | str"], Match[Any]]
"""Starts a match from (rules value, number of seats, seed)."""


@dataclass(frozen=True)
class GameAdapter:
    """How the server plays one game."""

    name: str
    min_seats: int
    max_seats: int
    make_rules: RulesFactory
    new_match: MatchFactory
    variants: tuple[str, ...] = ()
    """The named variants (the first is the default); empty when the game has none."""
    defaults: Callable[[], dict[str, str]] = field(default=dict)
    """The default value text of every rule option (for the lobby's form)."""
    advice: Callable[[Any], dict[str, Any]] | None = None
    """The engine solver's advice for one seat's observation (shown with a hint), built
    from nothing but that observation; ``None``: the game has no solver."""

    def read_action(self, deal: Any, text: str) -> Any:
        """The action ``text`` names in ``deal``; raise
        :class:`~konkun.errors.InvalidNotationError` with a message safe to show anyone:
        the engine error's ``reason`` (its ``str()`` may add the position, hidden cards
        and all)."""
        try:
            return deal.parse_action(text)
        except KonkunError as error:
            reason = one_line(error.reason)[:300]
        raise InvalidNotationError(reason or f"invalid action {text!r}: not a {self.name} action")

    def explain_illegal(self, deal: Any, action: Any, text: str) -> str:
        """Why ``action`` is illegal now (``Deal.why_illegal``), in words safe to show the
        seat that sent it."""
        reason = deal.why_illegal(action)
        if reason:
            return f"illegal move {text!r}: {one_line(reason)[:300]}"
        return f"illegal move {text!r}: not among the legal actions now"

    def check(self, variant: str | None, rules: Mapping[str, str], num_seats: int) -> Any:
        """The rules value for a new table, after checking variant and seat count."""
        if self.variants:
            variant = self.variant_of(variant)
            if variant not in self.variants:
                raise InvalidRuleError(
                    f"unknown {self.name} variant {variant!r}: expected "
                    + " or ".join(repr(v) for v in self.variants))
        elif variant not in (None, ""):
            raise InvalidRuleError(f"{self.name} has no variants, got {variant!r}")
        if isinstance(num_seats, bool) or not isinstance(num_seats, int) \
                or not self.min_seats <= num_seats <= self.max_seats:
            raise InvalidRuleError(
                f"{self.name} is played by {self.min_seats} to {self.max_seats} seats, "
                f"got {num_seats!r}")
        return self.make_rules(self.variant_of(variant), rules, num_seats)

    def variant_of(self, variant: str | None) -> str | None:
        """The variant a table plays when asked for ``variant``: the default (the first)
        when none is asked for; ``None`` for a game without variants."""
        if not self.variants:
            return None
        return self.variants[0] if variant is None else variant

    def replay(self, rules: Any, num_seats: int, seed: int | str,
               actions: list[str]) -> Match[Any]:
        """The match after playing ``actions`` (texts) from the start; each is validated."""
        match = self.new_match(rules, num_seats, seed)
        for text in actions:
            match.play(match.deal.parse_action(text))
        return match

    def catalog(self) -> dict[str, Any]:
        """What the lobby shows of this game (``GET /api/catalog``)."""
        return {"game": self.name, "variants": list(self.variants),
                "min_seats": self.min_seats, "max_seats": self.max_seats,
                "rules": self.defaults()}


_GAMES: dict[str, GameAdapter] = {}
_LAZY: dict[str, str] = {
    "konchinka": "konkun.server.engines:konchinka_adapter",
    "kunken": "konkun.server.engines:kunken_adapter",
}


def register_game(adapter: GameAdapter) -> None:
    """Make ``adapter``'s game playable at new tables (replaces one of the same name)."""
    _GAMES[adapter.name] = adapter


def unregister_game(name: str) -> None:
    """Forget a registered game (tests)."""
    _GAMES.pop(name, None)


def get_game(name: str) -> GameAdapter:
    """The adapter of game ``name``; raise :class:`KeyError` when there is none."""
    if name in _GAMES:
        return _GAMES[name]
    target = _LAZY.get(name)
    if target is None:
        raise KeyError(name)
    module, _, attribute = target.partition(":")
    try:
        factory: Callable[[], GameAdapter] = getattr(importlib.import_module(module), attribute)
        adapter = factory()
    except (ImportError, AttributeError) as error:  # the engine is not there (yet)
        raise KeyError(name) from error
    _GAMES[name] = adapter
    return adapter


def game_names() -> list[str]:
    """Every game a table can play now."""
    names = []
    for name in sorted({*_LAZY, *_GAMES}):
        try:
            get_game(name)
        except KeyError:
            continue
        names.append(name)
    return names
