"""The ``greedy`` spec: one-move heuristics, written for each game.

``greedy`` names a different bot per game (:mod:`konkun.bots.konchinka_greedy`,
:mod:`konkun.bots.kunken_greedy`); this module finds the right one by game name.
"""

from __future__ import annotations

from typing import Any

from konkun.bots.base import Bot
from konkun.bots.specs import BotSpec, InvalidBotSpecError, load_target

_GREEDY: dict[str, str] = {
    "konchinka": "konkun.bots.konchinka_greedy:make_greedy_bot",
    "kunken": "konkun.bots.kunken_greedy:make_greedy_bot",
    "toy": "konkun.bots.toy:make_greedy_bot",
}


def make_greedy_bot(game: str, spec: BotSpec) -> Bot[Any]:
    """The ``greedy`` spec's factory: the greedy bot written for ``game``."""
    target = _GREEDY.get(game)
    if target is None:
        raise InvalidBotSpecError(
            f"bot spec {str(spec)!r}: no greedy bot for game {game!r}; "
            f"games with one: {', '.join(sorted(_GREEDY))}")
    bot: Bot[Any] = load_target(target)(game, spec)
    return bot
