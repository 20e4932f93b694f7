"""Bot specs: a bot named by one short text, usable everywhere (arena, server, TUI).

Grammar::

    SPEC   := KIND ( ":" PARAM )*
    PARAM  := KEY "=" VALUE

``KIND`` is a registered bot (``random``, ``greedy``, ``ismcts``); parameters are separated
by colons (never commas, so that a list of specs can be written ``greedy,ismcts:iters=500``).
Three parameters every bot accepts set its :class:`~konkun.bots.base.Budget`:
``iters=N`` (search iterations per move), ``time=SECONDS`` (thinking time per move) and
``clock=wall|cpu`` (how that time is counted: the wall clock, the default, or the
thread's CPU time, which buys the same search however busy the machine is).
Other parameters belong to the bot (``konkun bots`` lists them). Examples: ``random``,
``greedy``, ``ismcts:iters=2000``, ``ismcts:time=1.0``, ``ismcts:time=0.1:c=0.5``.
``policy:TARGET`` is the one exception: everything after ``policy:`` is the target, a
``module:callable`` or a saved model file (:mod:`konkun.rl.policy_bot`).

>>> spec = BotSpec.parse("ismcts:time=1.0")
>>> spec.kind, spec.budget()
('ismcts', Budget(iterations=None, seconds=1.0))
>>> str(BotSpec.parse(" ISMCTS : iters=2000 "))
'ismcts:iters=2000'
"""

from __future__ import annotations

import importlib
import random
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from konkun.bots.base import Agent, Bot, Budget
from konkun.errors import InvalidRuleError


class InvalidBotSpecError(InvalidRuleError):
    """A bot spec that does not parse, names no bot, or gives a parameter a bad value."""


def spec_error(spec: object, message: str) -> InvalidBotSpecError:
    """The error for an invalid ``spec`` (a :class:`BotSpec` or the text given), quoting it:
    ``invalid bot spec 'ismcts:c=x': c must be a number, got 'x'``."""
    shown = str(spec) if isinstance(spec, BotSpec) else spec
    return InvalidBotSpecError(f"invalid bot spec {shown!r}: {message}")


POLICY_KIND = "policy"
"""The bot kind whose spec is ``policy:TARGET`` (the target read whole)."""
BUDGET_KEYS = ("iters", "time", "clock")
"""The parameters every bot accepts: its per-move budget."""

_KIND = re.compile(r"[a-z][a-z0-9_-]*")
_KEY = re.compile(r"[a-z][a-z0-9_]*")


@dataclass(frozen=True, slots=True)
class BotSpec:
    """A parsed bot spec: the bot's kind and its parameters (as texts, in order)."""

    kind: str
    params: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        """Read a spec; raise :class:`InvalidBotSpecError` quoting it when it is off."""
        if not isinstance(text, str) or not text.strip():
            raise spec_error(text, "empty")
        kind, *pieces = (piece.strip() for piece in text.strip().split(":"))
        kind = kind.lower()
        if kind == POLICY_KIND and pieces:  # the target may itself hold colons
            spec = cls(kind, (("target", text.strip().split(":", 1)[1].strip()),))
            spec.factory()
            return spec
        if not _KIND.fullmatch(kind):
            raise spec_error(text, f"bad bot name {kind!r}")
        params: dict[str, str] = {}
        for position, piece in enumerate(pieces, start=1):
            key, sep, value = (part.strip() for part in piece.partition("="))
            key = key.lower()
            if not sep or not _KEY.fullmatch(key) or not value:
                raise spec_error(text, f"parameter {position} {piece!r} is not KEY=VALUE")
            if key in params:
                raise spec_error(text, f"parameter {key!r} given twice")
            params[key] = value
        spec = cls(kind, tuple(params.items()))
        spec.factory()  # unknown bot names fail here, at parse time
        spec.budget()
        return spec

    def __str__(self) -> str:
        if self.kind == POLICY_KIND and self.params:
            return f"{POLICY_KIND}:{self.params[0][1]}"
        return ":".join([self.kind, *(f"{key}={value}" for key, value in self.params)])

    @property
    def options(self) -> dict[str, str]:
        """The parameters that are not budget keys."""
        return {key: value for key, value in self.params if key not in BUDGET_KEYS}

    def budget(self) -> Budget:
        """The per-move budget the spec sets (unset limits are ``None``)."""
        values = dict(self.params)
        iterations = seconds = None
        if "iters" in values:
            iterations = int_param(self, "iters", values["iters"], minimum=1)
        if "time" in values:
            seconds = float_param(self, "time", values["time"])
            if not seconds > 0:
                raise spec_error(self, f"time must be positive, got {values['time']!r}")
        clock = values.get("clock", "wall")
        if clock not in ("wall", "cpu"):
            raise spec_error(self, f"clock must be 'wall' or 'cpu', got {clock!r}")
        return Budget(iterations, seconds, clock == "cpu")

    def factory(self) -> BotFactory:
        """The registered factory of this spec's kind."""
        try:
            entry = _REGISTRY[self.kind]
        except KeyError:
            raise InvalidBotSpecError(
                f"unknown bot {self.kind!r} in spec {str(self)!r}; "
                f"known bots: {', '.join(sorted(_REGISTRY))}") from None
        return entry.load()

    def create(self, game: str) -> Bot[Any]:
        """A new bot of this spec for ``game`` (``konchinka``, ``kunken``, ...)."""
        return self.factory()(game, self)

    def agent(self, game: str, rng: random.Random, name: str | None = None) -> Agent[Any]:
        """A seated bot: the bot, the spec's budget and ``rng``."""
        return Agent(self.create(game), self.budget(), rng, name or str(self))


BotFactory = Callable[[str, BotSpec], Bot[Any]]
"""Makes a bot of one kind for a game name from a spec (it validates the spec's options)."""


def load_target(target: str) -> Any:
    """The object a ``"module:attribute"`` path names (its module imported on first use)."""
    module, _, name = target.partition(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True, slots=True)
class _Entry:
    target: str | BotFactory
    summary: str

    def load(self) -> BotFactory:
        if not isinstance(self.target, str):
            return self.target
        factory: BotFactory = load_target(self.target)
        return factory


_REGISTRY: dict[str, _Entry] = {}


def register_bot(kind: str, factory: str | BotFactory, summary: str) -> None:
    """Register a bot kind; ``factory`` is a callable or ``"module:name"`` of one (loaded
    on first use, so worker processes find it by import)."""
    if not _KIND.fullmatch(kind):
        raise InvalidBotSpecError(f"invalid bot name {kind!r}")
    _REGISTRY[kind] = _Entry(factory, summary)


def available_bots() -> dict[str, str]:
    """Every registered bot kind with its one-line summary."""
    return {kind: entry.summary for kind, entry in sorted(_REGISTRY.items())}


def parse_spec(text: str) -> BotSpec:
    """Read a bot spec (see :meth:`BotSpec.parse`)."""
    return BotSpec.parse(text)


def parse_spec_list(text: str) -> list[BotSpec]:
    """Read a comma-separated list of specs: ``greedy,ismcts:iters=500``."""
    pieces = text.split(",")
    if not text.strip() or any(not piece.strip() for piece in pieces):
        raise InvalidBotSpecError(f"invalid bot list {text!r}: expected SPEC,SPEC,...")
    return [BotSpec.parse(piece) for piece in pieces]


def create_bot(spec: str | BotSpec, game: str) -> Bot[Any]:
    """A bot for ``game`` from a spec text or a parsed spec."""
    return (spec if isinstance(spec, BotSpec) else BotSpec.parse(spec)).create(game)


def check_options(spec: BotSpec, allowed: Mapping[str, str]) -> dict[str, str]:
    """The spec's non-budget options, after checking each key is one of ``allowed``
    (a mapping of key to its description, quoted in the error)."""
    options = spec.options
    for key in options:
        if key not in allowed:
            known = ", ".join([*BUDGET_KEYS, *allowed])
            raise InvalidBotSpecError(
                f"unknown parameter {key!r} in bot spec {str(spec)!r}; "
                f"{spec.kind} takes: {known}")
    return options


def int_param(spec: BotSpec, key: str, value: str, minimum: int | None = None) -> int:
    """An integer parameter, with an error quoting the spec."""
    try:
        number = int(value)
    except ValueError:
        raise spec_error(spec, f"{key} must be an integer, got {value!r}") from None
    if minimum is not None and number < minimum:
        raise spec_error(spec, f"{key} must be at least {minimum}, got {value!r}")
    return number


def float_param(spec: BotSpec, key: str, value: str, minimum: float | None = None) -> float:
    """A finite number parameter, with an error quoting the spec."""
    try:
        number = float(value)
    except ValueError:
        raise spec_error(spec, f"{key} must be a number, got {value!r}") from None
    if number != number or number in (float("inf"), float("-inf")):
        raise spec_error(spec, f"{key} must be finite, got {value!r}")
    if minimum is not None and number < minimum:
        raise spec_error(spec, f"{key} must be at least {minimum}, got {value!r}")
    return number


register_bot("random", "konkun.bots.random_bot:make_random_bot",
             "uniformly random legal actions")
register_bot("greedy", "konkun.bots.greedy:make_greedy_bot",
             "one-move heuristics written for each game")
register_bot("ismcts", "konkun.bots.ismcts:make_ismcts_bot",
             "information-set Monte Carlo tree search (iters=N or time=SECONDS)")
register_bot(POLICY_KIND, "konkun.rl.policy_bot:make_policy_bot",
             "a tensor policy over (tensor, mask): policy:module:callable or "
             "policy:model.zip (extra rl; allowed by KONKUN_POLICIES)")
register_bot("llm", "konkun.rl.llm:make_llm_bot",
             "a language model at an OpenAI-compatible chat endpoint: llm:model=NAME "
             "(the endpoint in KONKUN_LLM_URL)")
register_bot("openspiel", "konkun.rl.openspiel_bot:make_openspiel_bot",
             "OpenSpiel's algorithms: openspiel:algo=ismcts:sims=N or "
             "openspiel:algo=mccfr:train=N (extra openspiel)")
for _level in ("beginner", "casual", "strong", "expert"):
    register_bot(_level, "konkun.bots.ladder:make_level_bot",
                 f"the {_level} level of the strength ladder (a bot per game)")
