"""Konchinka's :class:`~konkun.game.Game` descriptor (entry point ``konkun.games``).

Its static facts come from :mod:`konkun.konchinka.rules` (seat range, variants, the rules
schema); the engine is imported only when a match or a deal is made. The add-ons name
each layer's own piece for Konchinka by ``"module:attribute"``, imported on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from konkun.game import Deal, Game, Match, RatedPool, RuleValue, Titles
from konkun.konchinka.rules import MAX_SEATS, MIN_SEATS, OPTIONS, VARIANT_CHOICES, KonchinkaRules


def _rules(variant: str | None, values: dict[str, RuleValue], _num_seats: int) -> KonchinkaRules:
    return KonchinkaRules(variant=variant or "classic", **values)  # type: ignore[arg-type]


def _match(rules: KonchinkaRules, num_seats: int, seed: int | str) -> Match[Any]:
    from konkun.konchinka.game import KonchinkaMatch

    return KonchinkaMatch(rules, num_seats, seed)


def _deal(rules: KonchinkaRules, num_seats: int, seed: int, dealer: int) -> Deal[Any]:
    from konkun.konchinka.dealing import deal_from_seed

    return deal_from_seed(rules, num_seats, dealer, seed)


def _replay(data: Mapping[str, Any]) -> Match[Any]:
    from konkun.konchinka.game import KonchinkaRecord, replay

    return replay(KonchinkaRecord.from_json(data))


GAME = Game(
    name="konchinka", title=Titles("Konchinka", "Кончинка"),
    min_seats=MIN_SEATS, max_seats=MAX_SEATS, variants=VARIANT_CHOICES, options=OPTIONS,
    make_rules=_rules, start_match=_match, deal_from_seed=_deal, read_record=_replay,
    addons={
        "server": "konkun.server.core.engines:KONCHINKA",
        "terminal": "konkun.tui.boards:KONCHINKA",
        "rl": "konkun.rl.konchinka_adapter:KonchinkaAdapter",
        "greedy": "konkun.bots.konchinka_greedy:make_greedy_bot",
        "policy": "konkun.bots.konchinka_greedy:KonchinkaPolicy",
        "ladder": "konkun.bots.konchinka_greedy:LADDER_SPECS",
        "page": "konchinka.js",
        "explanations": "konkun.konchinka.option_texts:EXPLANATIONS",
        "cli": "konkun.konchinka.cli:register",
        "ratings": (RatedPool("konchinka-2", Titles("Konchinka, 2 players",
                                                      "Кончинка, 2 игрока"), 2, 2),
                    RatedPool("konchinka-3-4", Titles("Konchinka, 3–4 players",
                                                        "Кончинка, 3–4 игрока"), 3, 4)),
    })
"""Konchinka: 2 to 4 players, variants ``classic`` and ``novo`` (``docs/konchinka.md``)."""
