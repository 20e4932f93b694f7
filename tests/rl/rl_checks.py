"""Checks shared by the environment tests (imported by the rl test modules)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from konkun.rl.aec import KonkunAECEnv

PETTINGZOO_ADVICE = [
    # api_test advises Box or Discrete observation spaces and NumPy observations except for
    # the environments it knows by name; action-masked environments (its own classic
    # games) use dictionaries, as we do.
    pytest.mark.filterwarnings(
        "ignore:Observation space for each agent probably should be:UserWarning"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array:UserWarning"),
]


def check_masks_match_legal_moves(env: KonkunAECEnv, seed: int, deals: int,
                                  rng: random.Random,
                                  past_cap: Callable[[list[Any]], int]) -> int:
    """Play ``deals`` random deals and check at every step that the mask marks exactly
    the slots of legal actions, that each slot names a distinct legal action and that
    every legal action has a slot except the ``past_cap(legal)`` ones beyond the
    documented caps; return the number of steps checked."""
    steps = 0
    for number in range(deals):
        env.reset(seed=seed + number)
        while env.agents:
            agent = env.agent_selection
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert env.deal is not None
            legal = env.deal.legal_actions()
            slots = env.legal_slots()
            mask = observation["action_mask"]
            assert set(np.flatnonzero(mask)) == set(slots), agent
            assert len(set(slots.values())) == len(slots)
            assert set(slots.values()) <= set(legal)
            assert len(slots) == len(legal) - past_cap(legal)
            env.step(rng.choice(sorted(slots)))
            steps += 1
    return steps


def play_random_deals(env: KonkunAECEnv, seed: int, deals: int) -> list[list[Any]]:
    """Play ``deals`` deals with uniformly random masked actions; return the rewards."""
    rng = random.Random(seed)
    results = []
    for number in range(deals):
        env.reset(seed=seed * 100_003 + number)
        rewards = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            rewards[agent] += float(reward)
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        results.append([rewards[a] for a in env.possible_agents])
    return results
