"""Policies for the seats an agent does not control: any callable over (observation, legal
actions), the built-in uniform random policy, or a bot named by a :mod:`konkun.bots` spec."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from konkun.game import Observation

Policy = Callable[[Observation[Any], Sequence[Any]], Any]
"""A policy: given a seat's observation and its legal actions, return one of the actions."""


class RandomPolicy:
    """Uniformly random among the legal actions, from its own seeded random source."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, observation: Observation[Any], legal: Sequence[Any]) -> Any:
        """Pick one of ``legal`` uniformly at random."""
        return legal[self.rng.randrange(len(legal))]


def make_policy(spec: str | Policy, game: str, seed: int) -> Policy:
    """The policy a spec stands for.

    ``spec`` is a callable (used as it is), ``"random"`` (the built-in uniform random
    policy), or any bot spec :mod:`konkun.bots` knows (``greedy``, ``ismcts:iters=200``, ...).
    ``seed`` seeds the policy's own random source, so a seeded episode replays exactly.
    """
    if not isinstance(spec, str):
        return spec
    if spec == "random":
        return RandomPolicy(seed)
    return _bot_policy(spec, game, seed)


def _bot_policy(spec: str, game: str, seed: int) -> Policy:
    from konkun.bots.specs import BotSpec

    agent = BotSpec.parse(spec).agent(game, random.Random(seed))

    def policy(observation: Observation[Any], legal: Sequence[Any]) -> Any:
        """The bot's choice among ``legal`` for ``observation``."""
        return agent.bot.choose(observation, tuple(legal), agent.rng, agent.budget)

    return policy
