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
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from konkun.bots.base import Bot, Budget
from konkun.bots.specs import BotSpec, InvalidBotSpecError, check_options
from konkun.errors import InvalidRuleError
from konkun.game import Observation, get_game


@dataclass(frozen=True, slots=True)
class Level:
    """One rung of the ladder: its kind (the spec that names it), its name and
    description in English and Russian, and the spec it stands for in a game that tunes
    none (each game tunes its own in its descriptor's ``ladder`` add-on)."""

    kind: str
    names: dict[str, str]
    descriptions: dict[str, str]
    default: str

    def spec_for(self, game: str) -> str:
        """The bot spec of this level for ``game``: the one the game tuned for it
        (:func:`tuned_specs`), else the level's default."""
        return tuned_specs(game).get(self.kind, self.default)


def tuned_specs(game: str) -> Mapping[str, str]:
    """The bot spec each level stands for in ``game``, ``{level kind: spec}``: the game
    descriptor's ``ladder`` add-on (empty for a game without one, or one not
    registered)."""
    try:
        specs: Mapping[str, str] | None = get_game(game).addon("ladder")
    except InvalidRuleError:
        return {}
    return specs or {}


LADDER: tuple[Level, ...] = (
    Level("beginner", {"en": "Beginner", "ru": "Новичок"},
          {"en": "plays a random legal move", "ru": "ходит случайно"}, "random"),
    Level("casual", {"en": "Casual", "ru": "Любитель"},
          {"en": "takes the best move it sees at once",
           "ru": "берёт лучшее, что видит сразу"}, "greedy"),
    Level("strong", {"en": "Strong", "ru": "Сильный"},
          {"en": "plans ahead: searches 20 lines a move (Konchinka), plays to go out "
                 "(Kunken)",
           "ru": "думает наперёд: 20 вариантов на ход (кончинка), играет на выход "
                 "(кункен)"}, "ismcts:iters=200"),
    Level("expert", {"en": "Expert", "ru": "Мастер"},
          {"en": "searches much longer (ISMCTS): 2000 lines a move (Konchinka), a "
                 "tenth of a second (Kunken); solves the end of the deal exactly",
           "ru": "ищет много дольше (ISMCTS): 2000 вариантов на ход (кончинка), "
                 "десятую долю секунды (кункен); конец сдачи решает точно"},
          "ismcts:iters=2000"),
)
"""The levels, weakest first, as measured (docs/bots.md, "The strength ladder"); the
specs each game tuned are its ``ladder`` add-on (``LADDER_SPECS`` beside its policy)."""

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
           "offered_levels", "tuned_specs"]
