"""Kunken's :class:`~konkun.game.Game` descriptor (entry point ``konkun.games``).

Its static facts come from :mod:`konkun.kunken.rules` (seat range, the rules schema); the
engine is imported only when a match or a deal is made. The add-ons name each layer's own
piece for Kunken by ``"module:attribute"``, imported on first use.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from konkun.game import Deal, Game, Match, RatedPool, RuleValue, Titles
from konkun.kunken.rules import MAX_SEATS, MIN_SEATS, OPTIONS, KunkenRules


def _rules(_variant: str | None, values: dict[str, RuleValue], _num_seats: int) -> KunkenRules:
    return KunkenRules(**values)  # type: ignore[arg-type]


def _match(rules: KunkenRules, num_seats: int, seed: int | str) -> Match[Any]:
    from konkun.kunken.match import KunkenMatch

    return KunkenMatch(rules, num_seats, seed)


def _deal(rules: KunkenRules, num_seats: int, seed: int, dealer: int) -> Deal[Any]:
    from konkun.cards import rng_for_seed
    from konkun.kunken.state import new_deal

    return new_deal(rules, num_seats, dealer, rng_for_seed(seed))


def _replay(data: Mapping[str, Any]) -> Match[Any]:
    from konkun.kunken.match import KunkenRecord, replay

    return replay(KunkenRecord.from_json(dict(data)))


GAME = Game(
    name="kunken", title=Titles("Kunken", "Кункен"),
    min_seats=MIN_SEATS, max_seats=MAX_SEATS, options=OPTIONS,
    make_rules=_rules, start_match=_match, deal_from_seed=_deal, read_record=_replay,
    addons={
        "server": "konkun.server.core.engines:KUNKEN",
        "terminal": "konkun.tui.boards:KUNKEN",
        "rl": "konkun.rl.kunken_adapter:KunkenAdapter",
        "greedy": "konkun.bots.kunken_bots:make_greedy_bot",
        "policy": "konkun.bots.kunken_bots:KunkenPolicy",
        "ladder": "konkun.bots.kunken_bots:LADDER_SPECS",
        "page": "kunken.js",
        "explanations": "konkun.kunken.option_texts:EXPLANATIONS",
        "cli": "konkun.kunken.cli:register",
        "ratings": (RatedPool("kunken", Titles("Kunken", "Кункен"), MIN_SEATS, MAX_SEATS),),
    })
"""Kunken: 2 to 5 players, no variants (``docs/kunken.md``)."""
