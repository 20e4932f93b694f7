"""The toy game for the environments (its descriptor's ``rl`` add-on): action slots and
the observation tensor.

Action space ``Discrete(16)``: action ``c`` plays card ``c``. Observation
``Box(0, 1, (3 + n, 16), float32)`` over the sixteen cards: row 0 the seat's hand, row 1
the table, rows 2 .. 1+n the capture piles (the seat's own first, then the next seats to
its left), row 2+n every card this seat can see.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from konkun.game import Deal, Observation
from konkun.rl.adapter import FloatArray
from konkun.toy.engine import CARDS, ToyDeal


class ToyEncoder:
    """The toy side of the environments (rules: ``None`` or options; the toy deal has
    none of its own)."""

    name = "toy"
    action_size = len(CARDS)

    def __init__(self, rules: Any = None) -> None:
        from konkun.game import get_game

        if rules is None or isinstance(rules, Mapping):
            rules = get_game(self.name).rules_from_options(None, rules or {})
        self.rules = rules

    def observation_shape(self, num_seats: int) -> tuple[int, ...]:
        """``(3 + n, 16)``."""
        return (3 + num_seats, len(CARDS))

    def new_deal(self, num_seats: int, rng: random.Random) -> Deal[Any]:
        """A new deal: a random dealer and shuffle, from ``rng``."""
        return ToyDeal.new(num_seats, rng.getrandbits(63), rng.randrange(num_seats))

    def slots(self, position: Deal[Any] | Observation[Any],
              legal: Sequence[Any]) -> dict[int, Any]:
        """Each legal card at its own slot."""
        return {card: card for card in legal}

    def encode(self, observation: Observation[Any]) -> FloatArray:
        """The observation tensor (see the module's docstring)."""
        obs: Any = observation
        n = obs.num_seats
        out = np.zeros(self.observation_shape(n), dtype=np.float32)
        out[0, list(obs.hand)] = 1.0
        out[1, list(obs.table)] = 1.0
        for offset in range(n):
            out[2 + offset, list(obs.piles[(obs.seat + offset) % n])] = 1.0
        out[2 + n] = out[:2 + n].max(axis=0)
        return out

    def encode_deal(self, deal: Deal[Any], seat: int) -> FloatArray:
        """``encode(deal.observe(seat))``."""
        return self.encode(deal.observe(seat))
