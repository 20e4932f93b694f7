"""The vectorised environments: Gymnasium's VectorEnv shape, masks that are the legal
slots, the Konchinka fast path stepping exactly as the generic one, autoreset in the
same step, and seeded replay."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from konkun.errors import InvalidRuleError
from konkun.rl.envs import adapter_for, konchinka_vector_env, kunken_vector_env
from konkun.rl.policies import TensorPolicy
from konkun.rl.vector import KonkunVectorEnv


def _random_actions(masks: Any, rng: random.Random) -> list[int]:
    return [rng.choice(np.flatnonzero(row).tolist()) for row in masks]


def _lowest(tensor: Any, mask: Any) -> int:
    return int(np.flatnonzero(mask)[0])


@pytest.mark.parametrize("make", [konchinka_vector_env, kunken_vector_env])
def test_the_vector_env_writes_observations_and_masks_in_place(make: Any) -> None:
    env = make(4, 3)
    observations, infos = env.reset(seed=1)
    size = int(np.prod(env.adapter.observation_shape(3)))
    assert observations.shape == env.observation_space.shape == (4, size)
    masks = env.action_masks()
    assert masks.shape == (4, env.single_action_space.n) and masks.dtype == np.bool_
    assert infos["action_mask"] is masks
    rng = random.Random(1)
    after, rewards, terminated, truncated, infos = env.step(_random_actions(masks, rng))
    assert after is observations and env.action_masks() is masks  # preallocated
    assert rewards.shape == terminated.shape == truncated.shape == (4,)
    assert env.observation_space.contains(after)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_konchinka_masks_and_tensors_are_the_adapters(players: int) -> None:
    """Every row is the adapter's tensor of that deal for the agent, and the mask marks
    exactly the adapter's slots of the engine's legal moves."""
    env = konchinka_vector_env(3, players, {"variant": "novo"})
    adapter = env.adapter
    rng = random.Random(players)
    env.reset(seed=players)
    for _ in range(60):
        for i, deal in enumerate([env.deal(i) for i in range(env.num_envs)]):
            slots = adapter.slots(deal, deal.legal_actions())
            assert set(np.flatnonzero(env.action_masks()[i])) == set(slots)
            assert np.array_equal(env._observations[i],
                                  adapter.encode_deal(deal, 0).reshape(-1))
        env.step(_random_actions(env.action_masks(), rng))


@pytest.mark.parametrize(("players", "rules"), [(2, {}), (3, {"jokers": "2"}),
                                               (5, {"swap_before_take": "true"})])
def test_the_kunken_rows_are_the_adapters(players: int, rules: dict[str, str]) -> None:
    """The vector env writes all Kunken rows in one call; each is the adapter's tensor of
    that deal, as the generic path (one encode_deal per row) writes it."""
    fast = kunken_vector_env(3, players, rules)
    slow = KonkunVectorEnv(adapter_for("kunken", rules), 3, players, fast=False)
    first, _ = fast.reset(seed=players)
    second, _ = slow.reset(seed=players)
    rng = random.Random(players)
    for _ in range(80):
        assert np.array_equal(first, second)
        for i in range(3):
            assert np.array_equal(first[i], fast.adapter.encode_deal(fast.deal(i), 0).reshape(-1))
        actions = _random_actions(fast.action_masks(), rng)
        first = fast.step(actions)[0]
        second = slow.step(actions)[0]


@pytest.mark.parametrize("players", [2, 3])
def test_the_kunken_masks_are_the_legal_slots_in_every_new_deal(players: int) -> None:
    """Against random opponents the Kunken core keeps each deal's slots itself (it is the
    env's batch). After every step each mask is exactly the agent's legal slots, in the
    deals dealt anew too (where the agent may move first, with no opponent's move in
    between), by autoreset or by a second ``reset``."""
    env = kunken_vector_env(4, players)
    adapter = env.adapter
    rng = random.Random(players)
    env.reset(seed=players)
    finished = 0
    for step in range(300):
        if step == 150:
            env.reset(seed=players + 1)
        for i in range(env.num_envs):
            deal = env.deal(i)
            assert deal.to_move == 0
            legal = adapter.slots(deal, deal.legal_actions())
            assert set(np.flatnonzero(env.action_masks()[i])) == set(legal)
        finished += int(env.step(_random_actions(env.action_masks(), rng))[2].sum())
    assert finished >= 4


def test_the_fast_konchinka_path_steps_as_the_generic_one() -> None:
    """With the same seeds, actions and (deterministic) opponents the fast path and the
    generic adapter path give the same observations, masks, rewards and ends."""
    fast = konchinka_vector_env(4, 3, opponents=TensorPolicy(_lowest))
    slow = KonkunVectorEnv(adapter_for("konchinka"), 4, 3, opponents=TensorPolicy(_lowest),
                           fast=False)
    first, _ = fast.reset(seed=9)
    second, _ = slow.reset(seed=9)
    assert np.array_equal(first, second)
    rng = random.Random(2)
    ends = 0
    for _ in range(150):
        actions = _random_actions(fast.action_masks(), rng)
        assert np.array_equal(fast.action_masks(), slow.action_masks())
        a = fast.step(actions)
        b = slow.step(actions)
        for x, y in zip(a[:4], b[:4], strict=True):
            assert np.array_equal(x, y)
        ends += int(a[2].sum())
    assert ends >= 4


@pytest.mark.parametrize("make", [konchinka_vector_env, kunken_vector_env])
def test_a_finished_deal_is_reset_in_the_same_step(make: Any) -> None:
    env = make(2, 2)
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(5000):
        _, rewards, terminated, _, infos = env.step(_random_actions(env.action_masks(), rng))
        if terminated.any():
            i = int(np.flatnonzero(terminated)[0])
            assert infos["_final_obs"][i]
            points = infos["final_info"]["points"][i]
            assert rewards[i] == points[0]
            assert env.action_masks()[i].any()  # the new deal's first position
            return
    pytest.fail("no deal ended")


def test_the_konchinka_rewards_are_the_deal_points() -> None:
    """Random agents over many deals: the reward comes only at a deal's end and is the
    agent's points for it, 0 to 5 (as the single environment's test checks)."""
    env = konchinka_vector_env(8, 2)
    env.reset(seed=4)
    rng = random.Random(4)
    finished = 0
    while finished < 40:
        _, rewards, terminated, _, infos = env.step(_random_actions(env.action_masks(), rng))
        for i in np.flatnonzero(terminated):
            points = infos["final_info"]["points"][i]
            assert rewards[i] == points[0] and 0 <= points[0] <= 5
            finished += 1
        assert not rewards[~terminated].any()


def test_seeded_vector_envs_replay_exactly() -> None:
    runs = []
    for _ in range(2):
        env = kunken_vector_env(3, 2)
        env.reset(seed=11)
        rng = random.Random(5)
        trace = []
        for _ in range(30):
            observations, rewards, *_ = env.step(_random_actions(env.action_masks(), rng))
            trace.append((observations.copy(), rewards.copy()))
        runs.append(trace)
    for (o1, r1), (o2, r2) in zip(*runs, strict=True):
        assert np.array_equal(o1, o2) and np.array_equal(r1, r2)


def test_an_illegal_action_plays_a_random_legal_move_with_the_penalty() -> None:
    env = konchinka_vector_env(2, 2)
    env.reset(seed=1)
    illegal = [int(np.flatnonzero(~row)[0]) for row in env.action_masks()]
    _, rewards, terminated, _, _ = env.step(illegal)
    assert list(rewards) == [-1.0, -1.0] and not terminated.any()


def test_bad_vector_options_are_refused() -> None:
    with pytest.raises(InvalidRuleError, match="num_envs"):
        konchinka_vector_env(0)
    with pytest.raises(InvalidRuleError, match="illegal_action"):
        konchinka_vector_env(2, illegal_action="raise")


def test_gymnasium_make_vec_builds_the_vector_env() -> None:
    import gymnasium

    import konkun.rl  # noqa: F401  (registers the environments)

    env = gymnasium.make_vec("konkun/Konchinka-v0", num_envs=3,
                             vectorization_mode="vector_entry_point", num_players=3)
    assert isinstance(env, KonkunVectorEnv) and env.num_envs == 3 and env.num_seats == 3


def test_the_collector_records_what_the_agent_saw_and_did() -> None:
    from konkun.rl.collect import collect, random_masked_policy

    env = konchinka_vector_env(4, 2)
    batch = collect(env, random_masked_policy(seed=2), steps=60, seed=5)
    assert batch.observations.shape == (60, 4, env.single_observation_space.shape[0])
    for t in range(60):
        for i in range(4):
            assert batch.masks[t, i, batch.actions[t, i]]  # every action was legal
    assert batch.terminations.sum() >= 4  # 2 players: at most 24 agent moves a deal
    assert set(np.flatnonzero(batch.rewards)) <= set(np.flatnonzero(batch.terminations))
    again = collect(konchinka_vector_env(4, 2), random_masked_policy(seed=2), 60, seed=5)
    assert np.array_equal(batch.observations, again.observations)


def test_a_flat_tensor_policy_plays_a_batch_row_by_row() -> None:
    from konkun.rl.collect import batched, collect

    env = kunken_vector_env(2, 2)
    batch = collect(env, batched(TensorPolicy(_lowest, view="flat")), steps=10, seed=1)
    for t in range(10):
        for i in range(2):
            assert batch.actions[t, i] == np.flatnonzero(batch.masks[t, i])[0]
    with pytest.raises(InvalidRuleError, match="view"):
        batched(TensorPolicy(_lowest))
