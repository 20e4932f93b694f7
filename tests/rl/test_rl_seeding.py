"""One seed, one deal: the AEC environment, the single Gymnasium environment (whatever its
opponents) and deal 0 of the vector environments deal the same cards to the same dealer
for the same seed; and the reward scale multiplies every deal's reward."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from konkun.rl.envs import make_env, make_gym_env, make_self_play_vector_env, make_vector_env
from konkun.rl.policies import TensorPolicy


def _views(deal: Any) -> list[Any]:
    """Every seat's JSON view of a deal (its hand, the table, the dealer, ...)."""
    return [deal.observe(seat).to_json() for seat in range(deal.num_seats)]


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("seed", [0, 7, 123456])
def test_one_seed_deals_one_deal_in_the_aec_gym_and_vector_envs(
        game: str, players: int, seed: int) -> None:
    aec = make_env(game, players)
    aec.reset(seed=seed)
    first = aec.deal.to_move  # the agent of the other envs moves first: nobody played yet
    expected = _views(aec.deal)
    for opponents in ("random", "greedy"):
        gym = make_gym_env(game, players, seat=first, opponents=opponents)
        gym.reset(seed=seed)
        assert _views(gym.deal) == expected, opponents
        vector = make_vector_env(game, 2, players, seat=first, opponents=opponents)
        vector.reset(seed=seed)
        assert _views(vector.deal(0)) == expected, opponents
    self_play = make_self_play_vector_env(game, 1, players)
    self_play.reset(seed=seed)
    assert _views(self_play.deal(0)) == expected


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_the_reward_scale_multiplies_every_deals_reward(game: str) -> None:
    plain = make_vector_env(game, 4, reward="zero_sum")
    scaled = make_vector_env(game, 4, reward="zero_sum", reward_scale=0.01)
    plain.reset(seed=3)
    scaled.reset(seed=3)
    rng = random.Random(1)
    seen = 0
    for _ in range(300):
        actions = [rng.choice(np.flatnonzero(row).tolist()) for row in plain.action_masks()]
        _, rewards, _, _, _ = plain.step(actions)
        _, scaled_rewards, _, _, _ = scaled.step(actions)
        np.testing.assert_allclose(scaled_rewards, rewards * 0.01)
        seen += int((rewards != 0).sum())
    assert seen > 0
    gym = make_gym_env(game, 2, reward_scale=0.5)
    gym.reset(seed=2)
    reward = 0.0
    terminated = False
    while not terminated:
        _, reward, terminated, _, info = gym.step(int(np.flatnonzero(gym.action_masks())[0]))
    assert reward == info["points"][0] * 0.5
    aec = make_env(game, 2, reward_scale=0.5)
    aec.reset(seed=2)
    for _agent in aec.agent_iter():
        observation, _, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            break
        aec.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert [aec.rewards[a] for a in aec.possible_agents] == \
        [p * 0.5 for p in aec.deal.points()]


def test_a_tensor_policy_of_two_players_is_refused_by_a_table_of_three() -> None:
    from konkun.arena import ArenaConfig, run_arena
    from konkun.bots import specs
    from konkun.errors import InvalidRuleError

    calls: list[int] = []

    def lowest(tensor: Any, mask: Any) -> int:
        calls.append(tensor.size)
        return int(np.flatnonzero(mask)[0])

    policy = TensorPolicy(lowest, view="flat", name="two-seat", game="konchinka",
                          num_players=2)
    with pytest.raises(InvalidRuleError, match="trained for konchinka with 2 players, not 3"):
        make_gym_env("konchinka", 3, opponents=policy)
    import konkun.rl.policy_bot as policy_bot

    bot = policy_bot.TensorPolicyBot("konchinka", policy)
    registry = dict(specs._REGISTRY)  # noqa: SLF001 (restored below)
    try:
        specs.register_bot("two-seat-policy", lambda game, spec: bot, "a test policy")
        config = ArenaConfig("konchinka", ("two-seat-policy", "random", "random"), 3, 1,
                             seed=1)
        with pytest.raises(InvalidRuleError) as error:
            run_arena(config, backend="serial")
    finally:
        specs._REGISTRY.clear()  # noqa: SLF001
        specs._REGISTRY.update(registry)  # noqa: SLF001
    assert "\n" not in str(error.value) and "2 players, not 3" in str(error.value)
    assert calls == []  # refused before the policy saw a tensor of the wrong size
