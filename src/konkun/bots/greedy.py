"""The ``greedy`` spec: one-move heuristics, written for each game.

``greedy`` names a different bot per game: the factory its descriptor gives as the
``greedy`` add-on (:mod:`konkun.bots.konchinka_greedy`, :mod:`konkun.bots.kunken_greedy`);
this module finds the right one by game name in the registry (:mod:`konkun.game`).
"""

from __future__ import annotations

from typing import Any

from konkun.bots.base import Bot
from konkun.bots.specs import BotSpec, InvalidBotSpecError
from konkun.errors import InvalidRuleError
from konkun.game import game_names, get_game


def _greedy_games() -> list[str]:
    return [name for name in game_names() if get_game(name).addons.get("greedy")]


def make_greedy_bot(game: str, spec: BotSpec) -> Bot[Any]:
    """The ``greedy`` spec's factory: the greedy bot written for ``game``."""
    try:
        factory = get_game(game).addon("greedy")
    except InvalidRuleError:
        factory = None
    if factory is None:
        raise InvalidBotSpecError(
            f"bot spec {str(spec)!r}: no greedy bot for game {game!r}; "
            f"games with one: {', '.join(_greedy_games())}")
    bot: Bot[Any] = factory(game, spec)
    return bot
