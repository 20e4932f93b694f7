"""The toy game's bots: its ``greedy`` bot and its search policy (add-ons ``greedy`` and
``policy`` of its descriptor)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from konkun.bots.base import Budget
from konkun.bots.policy import SearchPolicy
from konkun.bots.specs import BotSpec, check_options
from konkun.game import Observation
from konkun.toy.engine import ToyObservation, value


def _greedy_choice(table: Sequence[int], seen_values: dict[int, int],
                   legal: Sequence[int]) -> int:
    def score(card: int) -> tuple[int, int]:
        taken = sum(1 for c in table if value(c) == value(card))
        # a trail is safer the more cards of its value are already out of play
        return (taken + 1 if taken else 0, seen_values.get(value(card), 0))
    return max(legal, key=score)


class ToyGreedyBot:
    """Captures the most cards; otherwise trails the card whose twin is already seen."""

    def choose(self, observation: Observation[int], legal: Sequence[int],
               rng: random.Random, budget: Budget) -> int:
        """The greedy move."""
        assert isinstance(observation, ToyObservation)
        seen: dict[int, int] = {}
        for pile in observation.piles:
            for c in pile:
                seen[value(c)] = seen.get(value(c), 0) + 1
        return _greedy_choice(observation.table, seen, legal)


def make_greedy_bot(game: str, spec: BotSpec) -> ToyGreedyBot:
    """The toy game's ``greedy``."""
    check_options(spec, {})
    return ToyGreedyBot()


class ToyPolicy(SearchPolicy[int]):
    """Play-outs that capture when they can."""

    def rollout_action(self, deal: Any, legal: Sequence[int], rng: random.Random) -> int:
        """A capture if there is one, else a random card."""
        values = {value(c) for c in deal.table}
        captures = [c for c in legal if value(c) in values]
        pool = captures or legal
        return pool[rng.randrange(len(pool))]
