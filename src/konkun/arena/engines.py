"""The arena's adapters for the two games (see :class:`konkun.arena.games.ArenaGame`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from konkun.errors import InvalidRuleError
from konkun.game import Deal, Match


class KonchinkaArena:
    """Konchinka: 2 to 4 players, rules as ``--rule NAME=VALUE`` (``docs/konchinka.md``);
    duplicate deals come from :func:`konkun.konchinka.deal_from_seed`."""

    name = "konchinka"

    @staticmethod
    def _rules(rules: Mapping[str, str]) -> Any:
        from konkun.konchinka import KonchinkaRules
        return KonchinkaRules.from_options(dict(rules))

    def check(self, num_seats: int, rules: Mapping[str, str]) -> None:
        """2 to 4 players and valid rule options."""
        if not 2 <= num_seats <= 4:
            raise InvalidRuleError(f"Konchinka is played by 2 to 4 players, not {num_seats}")
        self._rules(rules)

    def new_deal(self, num_seats: int, rules: Mapping[str, str], seed: int,
                 dealer: int) -> Deal[Any]:
        """The deal ``seed`` shuffles, dealt by ``dealer``."""
        from konkun.konchinka import deal_from_seed
        deal: Deal[Any] = deal_from_seed(self._rules(rules), num_seats, dealer, seed)
        return deal

    def new_match(self, num_seats: int, rules: Mapping[str, str], seed: int) -> Match[Any]:
        """A game to the target (rule ``target``, default 15)."""
        from konkun.konchinka import KonchinkaMatch
        match: Match[Any] = KonchinkaMatch(self._rules(rules), num_seats, seed)
        return match


class KunkenArena:
    """Kunken: 2 to 5 players (``docs/kunken.md``)."""

    name = "kunken"

    def check(self, num_seats: int, rules: Mapping[str, str]) -> None:
        """2 to 5 players and valid rule options."""
        raise InvalidRuleError("the Kunken engine is not available to the arena yet")

    def new_deal(self, num_seats: int, rules: Mapping[str, str], seed: int,
                 dealer: int) -> Deal[Any]:
        """The deal ``seed`` shuffles, dealt by ``dealer``."""
        raise InvalidRuleError("the Kunken engine is not available to the arena yet")

    def new_match(self, num_seats: int, rules: Mapping[str, str], seed: int) -> Match[Any]:
        """A match."""
        raise InvalidRuleError("the Kunken engine is not available to the arena yet")
