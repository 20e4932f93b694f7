"""The random bot: a uniformly random legal action (the baseline every bot must beat)."""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Generic, TypeVar

from konkun.bots.base import Budget
from konkun.bots.specs import BotSpec, check_options
from konkun.game import Observation

A = TypeVar("A", bound=Hashable)


class RandomBot(Generic[A]):
    """Chooses uniformly among the legal actions with the random source it is given."""

    def choose(self, observation: Observation[A], legal: Sequence[A],
               rng: random.Random, budget: Budget) -> A:
        """A uniformly random element of ``legal``."""
        return legal[rng.randrange(len(legal))]

    def __repr__(self) -> str:
        return "RandomBot()"


def make_random_bot(game: str, spec: BotSpec) -> RandomBot[Any]:
    """The ``random`` spec's factory (no parameters besides the budget, which it ignores)."""
    check_options(spec, {})
    return RandomBot()
