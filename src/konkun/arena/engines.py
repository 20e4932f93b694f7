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
    """Kunken: 2 to 5 players, rules as ``--rule NAME=VALUE`` (``docs/kunken.md``);
    duplicate deals are :meth:`konkun.kunken.KunkenDeal.new` with the seed's random source."""

    name = "kunken"

    @staticmethod
    def _rules(rules: Mapping[str, str]) -> Any:
        from konkun.kunken import KunkenRules
        return KunkenRules.from_options(dict(rules))

    def check(self, num_seats: int, rules: Mapping[str, str]) -> None:
        """2 to 5 players and valid rule options."""
        if not 2 <= num_seats <= 5:
            raise InvalidRuleError(f"Kunken is played by 2 to 5 players, not {num_seats}")
        self._rules(rules)

    def new_deal(self, num_seats: int, rules: Mapping[str, str], seed: int,
                 dealer: int) -> Deal[Any]:
        """The deal ``seed`` shuffles, dealt by ``dealer``."""
        from konkun.cards import rng_for_seed
        from konkun.kunken import KunkenDeal
        deal: Deal[Any] = KunkenDeal.new(self._rules(rules), num_seats, dealer,
                                         rng_for_seed(seed))
        return deal

    def new_match(self, num_seats: int, rules: Mapping[str, str], seed: int) -> Match[Any]:
        """A match (one deal per player by default; rules ``deals``, ``target``)."""
        from konkun.kunken import KunkenMatch
        match: Match[Any] = KunkenMatch(self._rules(rules), num_seats, seed)
        return match
