"""The strength ladder: four levels, each a bot spec per game, weakest first.

Each level is also a bot kind of its own (``beginner``, ``casual``, ``strong``,
``expert``), so one spec names it in every game: ``konkun arena kunken --bots
casual,strong``; the lobby offers the levels (:func:`offered_levels`). A level's bot plays
with the budget of its game's spec, whatever budget it is given. The arena measures that
each level beats the one below (docs/bots.md, "The strength ladder";
``benchmarks/bench_bots.py``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from konkun.bots.base import Bot, Budget
from konkun.bots.specs import BotSpec, InvalidBotSpecError, check_options
from konkun.game import Observation


@dataclass(frozen=True, slots=True)
class Level:
    """One rung of the ladder: its kind (the spec that names it), its name and
    description in English and Russian, the bot spec it stands for in each game tuned
    for it, and the spec for any other registered game."""

    kind: str
    names: dict[str, str]
    descriptions: dict[str, str]
    specs: dict[str, str]
    default: str

    def spec_for(self, game: str) -> str:
        """The bot spec of this level for ``game`` (the level's default for a game it was
        not tuned for)."""
        return self.specs.get(game, self.default)


LADDER: tuple[Level, ...] = (
    Level("beginner", {"en": "Beginner", "ru": "Новичок"},
          {"en": "plays a random legal move", "ru": "ходит случайно"},
          {"konchinka": "random", "kunken": "random"}, "random"),
    Level("casual", {"en": "Casual", "ru": "Любитель"},
          {"en": "takes the best move it sees at once",
           "ru": "берёт лучшее, что видит сразу"},
          {"konchinka": "greedy", "kunken": "greedy:v=1"}, "greedy"),
    Level("strong", {"en": "Strong", "ru": "Сильный"},
          {"en": "plans ahead: searches 20 lines a move (Konchinka), plays to go out "
                 "(Kunken)",
           "ru": "думает наперёд: 20 вариантов на ход (кончинка), играет на выход "
                 "(кункен)"},
          {"konchinka": "ismcts:iters=20:width=3", "kunken": "greedy"}, "ismcts:iters=200"),
    Level("expert", {"en": "Expert", "ru": "Мастер"},
          {"en": "searches much longer (ISMCTS): 2000 lines a move (Konchinka), a "
                 "tenth of a second (Kunken); solves the end of the deal exactly",
           "ru": "ищет много дольше (ISMCTS): 2000 вариантов на ход (кончинка), "
                 "десятую долю секунды (кункен); конец сдачи решает точно"},
          {"konchinka": "ismcts:iters=2000:width=3", "kunken": "ismcts:time=0.09:width=3"},
          "ismcts:iters=2000"),
)
"""The levels, weakest first, as measured (docs/bots.md, "The strength ladder"). Konchinka's
searches count iterations, so a level plays the same on a busy server (only slower): 20
and 2000 are about 0.0013 s and 0.13 s a move on an idle core (15,000 iterations a CPU
second); a tenfold step (20 to 200, 200 to 2000) gains too little to measure here
(docs/bots.md). Kunken's expert thinks 0.09 s a move (a little under 0.1 s, leaving room
for the referee's overhead)."""

LEVEL_KINDS = tuple(level.kind for level in LADDER)


def level(kind: str) -> Level:
    """The level called ``kind``."""
    for found in LADDER:
        if found.kind == kind:
            return found
    raise InvalidBotSpecError(f"unknown level {kind!r}; levels: {', '.join(LEVEL_KINDS)}")


class LevelBot:
    """A level's bot: its game's spec, played with that spec's own budget."""

    def __init__(self, kind: str, spec: BotSpec, game: str) -> None:
        self.kind = kind
        self.spec = spec
        self.inner: Bot[Any] = spec.create(game)
        self.budget = spec.budget()

    def __repr__(self) -> str:
        return f"LevelBot({self.kind!r}, {str(self.spec)!r})"

    def __getattr__(self, name: str) -> Any:
        # the arena reads search statistics (total_iterations, ...) off the bot
        if name in ("inner", "kind", "spec", "budget"):
            raise AttributeError(name)
        return getattr(self.inner, name)

    def choose(self, observation: Observation[Any], legal: Sequence[Any],
               rng: random.Random, budget: Budget) -> Any:
        """The inner bot's choice with the level's budget."""
        return self.inner.choose(observation, legal, rng, self.budget)


def make_level_bot(game: str, spec: BotSpec) -> LevelBot:
    """The factory of the level kinds: ``beginner``, ``casual``, ``strong``, ``expert``
    (no options of their own). ``clock=cpu`` counts the level's thinking time in CPU
    time (``expert:clock=cpu``: the arena's measurements on a shared machine)."""
    check_options(spec, {})
    if spec.budget().is_set:
        raise InvalidBotSpecError(
            f"bot spec {str(spec)!r}: a level plays with its own budget; "
            "give iters or time to the bot it stands for instead")
    rung = level(spec.kind)
    inner = BotSpec.parse(rung.spec_for(game))
    if spec.budget().cpu and inner.budget().seconds is not None:
        inner = BotSpec.parse(f"{inner}:clock=cpu")
    return LevelBot(rung.kind, inner, game)


def offered_levels() -> list[dict[str, Any]]:
    """The ladder as the lobby offers it: ``[{"spec", "name", "names", "description",
    "descriptions"}]``, weakest first (``name``/``description`` in English)."""
    return [{"spec": rung.kind, "name": rung.names["en"], "names": dict(rung.names),
             "description": rung.descriptions["en"],
             "descriptions": dict(rung.descriptions)} for rung in LADDER]


__all__ = ["LADDER", "LEVEL_KINDS", "Level", "LevelBot", "level", "make_level_bot",
           "offered_levels"]
