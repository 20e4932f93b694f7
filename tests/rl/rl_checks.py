"""Checks shared by the environment tests (imported by the rl test modules)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import numpy as np
import pytest

from konkun.rl.adapter import FloatArray, GameAdapter
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
            if not slots:  # tiny caps can put every legal action out of reach
                break
            env.step(rng.choice(sorted(slots)))
            steps += 1
    return steps


def random_deals(env: KonkunAECEnv, rng: random.Random,
                 seeds: Iterable[int]) -> Iterator[list[float]]:
    """Play one deal per seed with uniformly random masked actions drawn from ``rng``;
    yield each deal's rewards per agent (``env.deal`` is then the finished deal)."""
    for seed in seeds:
        env.reset(seed=seed)
        rewards = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            observation, reward, terminated, truncated, _ = env.last()
            rewards[agent] += float(reward)
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.randrange(len(legal))]))
        yield [rewards[a] for a in env.possible_agents]


def play_random_deals(env: KonkunAECEnv, seed: int, deals: int) -> list[list[float]]:
    """Play ``deals`` deals with uniformly random masked actions; return the rewards."""
    seeds = (seed * 100_003 + number for number in range(deals))
    return list(random_deals(env, random.Random(seed), seeds))


def random_position(adapter: GameAdapter, players: int, seed: int, max_moves: int) -> Any:
    """A deal from ``random.Random(seed)`` played up to ``max_moves`` random moves in."""
    rng = random.Random(seed)
    deal: Any = adapter.new_deal(players, rng)
    for _ in range(rng.randrange(max_moves)):
        if deal.is_over():
            break
        deal.push(rng.choice(deal.legal_actions()))
    return deal


def assert_resample_invariant(adapter: GameAdapter, observation: Any,
                              seed: int) -> FloatArray:
    """Check that a deal resampled from ``observation`` (``random.Random(seed)``: the other
    hands and the stock dealt anew) gives the seat the same tensor; return the tensor."""
    tensor = adapter.encode(observation)
    resampled = observation.sample_deal(random.Random(seed)).observe(observation.seat)
    assert np.array_equal(tensor, adapter.encode(resampled))
    return tensor


def first_legal_slot(tensor: FloatArray, mask: Any) -> int:
    """A tensor policy for the tests (named by ``policy:rl_checks:first_legal_slot``): the
    lowest legal slot."""
    return int(np.flatnonzero(mask)[0])
