"""The toy game: a third game that lives in its own package and reaches every layer
through the public API only (the worked example of ``docs/architecture.md``).

Its engine is :mod:`konkun.toy.engine`; this module holds its
:class:`~konkun.game.Game` descriptor, :data:`GAME`, whose add-ons are the toy's own
pieces for each layer: :mod:`konkun.toy.bots` (``greedy``, ``policy``),
:mod:`konkun.toy.terminal` (``terminal``) and :mod:`konkun.toy.encoder` (``rl``). The
server and the web page need nothing of their own: they fall back to generic views.

The toy game is not installed as an entry point (players should not meet it in the
lobby); register it where it is wanted, by text so that worker processes find it too:

>>> from konkun.game import get_game, register_game
>>> register_game("konkun.toy:GAME").name
'toy'
>>> get_game("toy").rules_from_options(None, {"target": "5"}, 3).target
5
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from konkun.game import Deal, Game, Match, RuleOption, RuleValue, Titles
from konkun.toy.engine import (
    MAX_SEATS,
    MIN_SEATS,
    ToyDeal,
    ToyMatch,
    ToyRecord,
    ToyRules,
    replay,
)


def _rules(_variant: str | None, values: dict[str, RuleValue], _num_seats: int) -> ToyRules:
    return ToyRules(int(values["target"]))


def _match(rules: ToyRules, num_seats: int, seed: int | str) -> Match[Any]:
    return ToyMatch(num_seats, seed, rules.target)


def _deal(_rules: ToyRules, num_seats: int, seed: int, dealer: int) -> Deal[Any]:
    return ToyDeal.new(num_seats, seed, dealer)


def _replay(data: Mapping[str, Any]) -> Match[Any]:
    return replay(ToyRecord.from_json(data))


GAME = Game(
    name="toy", title=Titles("Toy", "Игрушка"), min_seats=MIN_SEATS, max_seats=MAX_SEATS,
    options=(RuleOption.integer("target", 10, Titles("Game to (points)", "Игра до (очков)"),
                                "the match ends once one total reaches it", minimum=1,
                                maximum=100),),
    make_rules=_rules, start_match=_match, deal_from_seed=_deal, read_record=_replay,
    addons={
        "greedy": "konkun.toy.bots:make_greedy_bot",
        "policy": "konkun.toy.bots:ToyPolicy",
        "terminal": "konkun.toy.terminal:TERMINAL",
        "rl": "konkun.toy.encoder:ToyEncoder",
    })
"""The toy game: 2 or 3 players, one rule option (``target``)."""
