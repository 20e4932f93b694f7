"""Stable-Baselines3 on the fast path: ``konkun.rl.sb3.vec_env`` is an SB3 ``VecEnv`` over
the batch environment (steps, masks, terminal observations, seeding), MaskablePPO trains
on it, and SB3's ``make_vec_env`` builds the environments by id."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

pytest.importorskip("stable_baselines3")
pytest.importorskip("sb3_contrib")

from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.env_util import make_vec_env
from stable_baselines3.common.vec_env import VecEnv

import konkun.rl  # noqa: F401  (registers the Gymnasium ids)
from konkun.errors import InvalidRuleError
from konkun.rl.envs import make_vector_env
from konkun.rl.sb3 import KonkunSB3VecEnv, game_of_id, vec_env
from konkun.rl.vector import KonkunVectorEnv

IDS = {"konchinka": "konkun/Konchinka-v0", "kunken": "konkun/Kunken-v0"}


def _random_actions(masks: Any, rng: random.Random) -> np.ndarray[Any, Any]:
    return np.array([rng.choice(np.flatnonzero(row).tolist()) for row in masks])


@pytest.mark.parametrize("game", sorted(IDS))
def test_vec_env_is_an_sb3_vecenv_over_the_fast_batch_env(game: str) -> None:
    env = vec_env(IDS[game], 4, num_players=3)
    assert isinstance(env, VecEnv) and isinstance(env.env, KonkunVectorEnv)
    assert env.num_envs == 4 and env.env.num_seats == 3
    assert env.observation_space == env.env.single_observation_space
    assert env.action_space == env.env.single_action_space
    assert is_masking_supported(env)
    assert game_of_id(game) == game_of_id(f"konkun.rl:{IDS[game]}") == game


def test_vec_env_refuses_an_unknown_id_naming_it() -> None:
    with pytest.raises(InvalidRuleError, match="'konkun/Chess-v0'"):
        vec_env("konkun/Chess-v0", 2)


@pytest.mark.parametrize("game", sorted(IDS))
def test_vec_env_steps_as_the_batch_env_with_terminal_observations(game: str) -> None:
    sb3_env = vec_env(IDS[game], 3)
    reference = make_vector_env(game, 3)
    sb3_env.seed(5)
    observations = sb3_env.reset()
    expected, _ = reference.reset(seed=5)
    np.testing.assert_array_equal(observations, expected)
    rng = random.Random(2)
    ended = 0
    for _ in range(400 if game == "konchinka" else 150):
        masks = get_action_masks(sb3_env)
        np.testing.assert_array_equal(masks, reference.action_masks())
        actions = _random_actions(masks, rng)
        kept = observations
        before = kept.copy()
        observations, rewards, dones, infos = sb3_env.step(actions)
        expected, ref_rewards, terminated, truncated, ref_infos = reference.step(actions)
        np.testing.assert_array_equal(kept, before)  # SB3 keeps the last observation
        np.testing.assert_array_equal(observations, expected)
        np.testing.assert_allclose(rewards, ref_rewards)
        np.testing.assert_array_equal(dones, terminated | truncated)
        for i in np.flatnonzero(dones):
            ended += 1
            np.testing.assert_array_equal(infos[i]["terminal_observation"],
                                          ref_infos["final_obs"][i])
            assert infos[i]["points"] == ref_infos["final_info"]["points"][i].tolist()
            assert infos[i]["episode"]["l"] >= 1
            assert infos[i]["TimeLimit.truncated"] is False
    assert ended > 0


def test_the_episode_info_holds_the_deal_return_and_length() -> None:
    env = vec_env(IDS["konchinka"], 2, reward="zero_sum")
    env.seed(1)
    env.reset()
    rng = random.Random(1)
    returns, lengths = np.zeros(2), np.zeros(2, dtype=int)
    for _ in range(200):
        _, rewards, dones, infos = env.step(
            _random_actions(get_action_masks(env), rng))
        returns += rewards
        lengths += 1
        for i in np.flatnonzero(dones):
            assert infos[i]["episode"]["r"] == pytest.approx(returns[i])
            assert infos[i]["episode"]["l"] == lengths[i]
            returns[i], lengths[i] = 0, 0


def test_env_method_action_masks_gives_copies_of_each_deals_mask() -> None:
    env = vec_env(IDS["kunken"], 3)
    env.seed(4)
    env.reset()
    masks = env.env_method("action_masks")
    assert len(masks) == 3 and all(m.dtype == np.bool_ for m in masks)
    np.testing.assert_array_equal(np.stack(masks), env.env.action_masks())
    only = env.env_method("action_masks", indices=[2])
    np.testing.assert_array_equal(only[0], env.env.action_masks()[2])
    assert sorted(env.env_method("legal_slots", indices=1)[0]) == \
        np.flatnonzero(masks[1]).tolist()
    with pytest.raises(AttributeError, match="'render'"):
        env.env_method("render")


def test_the_same_seed_gives_the_same_deals() -> None:
    first, second = vec_env(IDS["konchinka"], 4), vec_env(IDS["konchinka"], 4)
    first.seed(9)
    second.seed(9)
    np.testing.assert_array_equal(first.reset(), second.reset())


@pytest.mark.parametrize("game", sorted(IDS))
def test_maskable_ppo_trains_on_vec_env(game: str) -> None:
    torch = pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = vec_env(IDS[game], 8, reward="zero_sum", reward_scale=0.01)
    model = MaskablePPO("MlpPolicy", env, n_steps=16, batch_size=64, n_epochs=1, seed=1,
                        device="cpu")
    model.learn(256)
    assert model.num_timesteps == 256
    if game == "konchinka":  # a deal lasts about 24 agent steps: some ended
        assert len(model.ep_info_buffer) > 0


@pytest.mark.parametrize("game", sorted(IDS))
def test_make_vec_env_builds_the_environments_by_id(game: str) -> None:
    env = make_vec_env(IDS[game], n_envs=2, seed=3, env_kwargs={"observation": "flat"})
    observations = env.reset()
    assert observations.shape == (2, *env.observation_space.shape)
    masks = get_action_masks(env)
    assert masks.shape == (2, env.action_space.n) and masks.any(axis=1).all()
    env.step(_random_actions(masks, random.Random(1)))


def test_make_vec_env_and_maskable_ppo_with_the_dict_observation() -> None:
    torch = pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO

    torch.set_num_threads(1)
    env = make_vec_env(IDS["konchinka"], n_envs=2, seed=3)
    MaskablePPO("MultiInputPolicy", env, n_steps=16, batch_size=32, n_epochs=1,
                device="cpu").learn(32)


def test_a_sb3_vecenv_wraps_the_self_play_env_too() -> None:
    from konkun.rl.envs import make_self_play_vector_env

    env = KonkunSB3VecEnv(make_self_play_vector_env("konchinka", 2))
    env.seed(1)
    assert env.reset().shape == (2, env.observation_space.shape[0])


def _logits_and_masks(torch: Any, rows: int = 64, width: int = 1664) -> tuple[Any, Any]:
    generator = torch.Generator().manual_seed(5)
    logits = torch.randn(rows, width, generator=generator) * 3
    masks = torch.rand(rows, width, generator=generator) < 0.02
    masks[:, 7] = True  # every row has a legal action
    logits[0, ~masks[0]] += 500  # an illegal logit far above the legal ones
    return logits.requires_grad_(True), masks


def test_masked_categorical_gives_sb3_contribs_log_probs_entropy_and_gradients() -> None:
    torch = pytest.importorskip("torch")
    from sb3_contrib.common.maskable.distributions import MaskableCategorical

    from konkun.rl.sb3 import MaskedCategorical

    logits, masks = _logits_and_masks(torch)
    ours = MaskedCategorical.of_logits(logits, masks)
    theirs = MaskableCategorical(logits=logits, masks=masks)
    actions = torch.multinomial(masks.float(), 1).squeeze(-1)  # legal actions
    assert torch.allclose(ours.log_prob(actions), theirs.log_prob(actions), atol=1e-5)
    assert torch.allclose(ours.entropy(), theirs.entropy(), atol=1e-5)
    assert torch.equal(ours.mode(), theirs.probs.argmax(-1))
    illegal = torch.multinomial((~masks).float(), 1).squeeze(-1)
    assert (ours.log_prob(illegal) < -1e7).all() and (theirs.log_prob(illegal) < -1e7).all()
    ours_grad = torch.autograd.grad((ours.log_prob(actions) + ours.entropy()).sum(), logits)
    theirs_grad = torch.autograd.grad(
        (theirs.log_prob(actions) + theirs.entropy()).sum(), logits)
    assert torch.allclose(ours_grad[0], theirs_grad[0], atol=1e-5)
    assert not ours_grad[0][~masks].any()  # no gradient reaches an illegal logit


def test_masked_categorical_samples_legal_actions_only() -> None:
    torch = pytest.importorskip("torch")
    from konkun.rl.sb3 import MaskedCategorical

    torch.manual_seed(3)
    logits, masks = _logits_and_masks(torch, rows=256)
    distribution = MaskedCategorical.of_logits(logits.detach(), masks)
    for _ in range(20):
        actions = distribution.sample()
        assert masks[torch.arange(256), actions].all()


def test_masked_categorical_samples_each_legal_action_as_often_as_its_probability() -> None:
    torch = pytest.importorskip("torch")
    from konkun.rl.sb3 import MaskedCategorical

    torch.manual_seed(4)
    logits = torch.tensor([[0.0, 1.0, 2.0, 9.0]]).repeat(20_000, 1)
    masks = torch.tensor([[True, True, True, False]]).repeat(20_000, 1)
    counts = torch.bincount(MaskedCategorical.of_logits(logits, masks).sample(), minlength=4)
    expected = torch.softmax(torch.tensor([0.0, 1.0, 2.0]), -1) * 20_000
    assert counts[3] == 0
    assert torch.allclose(counts[:3].float(), expected, rtol=0.05)


def test_masked_categorical_of_the_action_layer_equals_it_of_the_layers_logits() -> None:
    torch = pytest.importorskip("torch")
    from konkun.rl.sb3 import MaskedCategorical

    torch.manual_seed(6)
    layer = torch.nn.Linear(16, 1664)
    latent = torch.randn(32, 16)
    masks = torch.rand(32, 1664) < 0.02
    masks[:, 3] = True
    masks[5] = False  # a row with no legal action: every action counts legal
    sparse = MaskedCategorical.of_latent(latent, layer, masks)
    dense = MaskedCategorical.of_logits(layer(latent), masks)
    actions = torch.multinomial(masks.float() + (~masks.any(-1, keepdim=True)).float(),
                                1).squeeze(-1)
    assert torch.allclose(sparse.log_prob(actions), dense.log_prob(actions), atol=1e-5)
    assert torch.allclose(sparse.entropy(), dense.entropy(), atol=1e-5)
    everything = torch.distributions.Categorical(logits=layer(latent)[5])
    assert float(sparse.entropy()[5].detach()) == pytest.approx(
        float(everything.entropy().detach()), abs=1e-4)


def test_maskable_ppo_trains_with_the_masked_mlp_policy_and_loads_it(tmp_path: Any) -> None:
    torch = pytest.importorskip("torch")
    from sb3_contrib import MaskablePPO

    from konkun.rl.sb3 import MaskedCategoricalDistribution, MaskedMlpPolicy

    torch.set_num_threads(1)
    env = vec_env(IDS["konchinka"], 8, reward="zero_sum")
    model = MaskablePPO(MaskedMlpPolicy, env, n_steps=16, batch_size=64, n_epochs=1, seed=1,
                        device="cpu")
    assert isinstance(model.policy.action_dist, MaskedCategoricalDistribution)
    model.learn(256)
    observations: Any = env.reset()
    masks = get_action_masks(env)
    actions, _ = model.predict(observations, action_masks=masks)
    assert masks[np.arange(8), actions].all()
    model.save(tmp_path / "model.zip")
    loaded = MaskablePPO.load(tmp_path / "model.zip", device="cpu")
    assert isinstance(loaded.policy.action_dist, MaskedCategoricalDistribution)
    again, _ = loaded.predict(observations, action_masks=masks, deterministic=True)
    expected, _ = model.predict(observations, action_masks=masks, deterministic=True)
    assert (again == expected).all()
