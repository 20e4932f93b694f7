"""Bad input to the environments: refused with an error naming it, before anything is
played, and the environment as it was."""

from __future__ import annotations

import copy
import pickle
import re
from typing import Any

import numpy as np
import pytest
from gymnasium.error import ResetNeeded

from konkun.errors import IllegalMoveError, InvalidRuleError
from konkun.konchinka import KonchinkaRules
from konkun.rl.envs import (
    adapter_for,
    konchinka_env,
    konchinka_gym_env,
    konchinka_vector_env,
    kunken_env,
    kunken_gym_env,
    kunken_vector_env,
    make_self_play_vector_env,
)


def _konchinka_self_play(num_envs: int) -> Any:
    return make_self_play_vector_env("konchinka", num_envs)


def _kunken_self_play(num_envs: int) -> Any:
    return make_self_play_vector_env("kunken", num_envs)


def _konchinka_generic(num_envs: int) -> Any:
    return konchinka_vector_env(num_envs, fast=False)


MAKERS = [konchinka_vector_env, _konchinka_generic, kunken_vector_env, _konchinka_self_play,
          _kunken_self_play]


def _legal(env: Any) -> list[int]:
    return [int(np.flatnonzero(row)[0]) for row in env.action_masks()]


@pytest.mark.parametrize("make", MAKERS)
@pytest.mark.parametrize("count", [2, 8])
def test_a_vector_step_with_the_wrong_number_of_actions_is_refused_and_plays_nothing(
        make: Any, count: int) -> None:
    env = make(4)
    observations, _ = env.reset(seed=3)
    before = observations.copy(), env.action_masks().copy()
    with pytest.raises(IllegalMoveError, match=rf"shape \({count},\).*shape \(4,\)"):
        env.step([0] * count)
    assert np.array_equal(observations, before[0])
    assert np.array_equal(env.action_masks(), before[1])
    env.step(_legal(env))  # the deals are still whole: legal actions play on


@pytest.mark.parametrize("make", MAKERS)
def test_a_vector_step_takes_integral_floats_and_refuses_other_values(make: Any) -> None:
    env = make(3)
    env.reset(seed=5)
    env.step(np.asarray(_legal(env), dtype=np.float64))
    for bad in (np.full(3, 0.5), ["a", "b", "c"], np.full(3, np.nan)):
        with pytest.raises(IllegalMoveError, match="expected integer slots"):
            env.step(bad)


@pytest.mark.parametrize("make", MAKERS)
def test_a_vector_env_takes_a_numpy_integer_seed_as_an_integer_one(make: Any) -> None:
    first, second = make(3), make(3)
    assert np.array_equal(first.reset(seed=np.int64(11))[0], second.reset(seed=11)[0])


@pytest.mark.parametrize(("make", "opponents"), [
    (konchinka_gym_env, "greedy"), (kunken_gym_env, "ismcts:iters=20"),
    (lambda n, **kw: konchinka_vector_env(2, n, **kw), "greedy")])
def test_an_env_with_bot_opponents_pickles_and_its_copy_plays_on_alone(
        make: Any, opponents: str) -> None:
    """After a reset, the env with bots pickles, and a copy (deep or through pickle)
    replays the original's future exactly without touching the original's random
    sources: the same actions give the same observations on each."""
    env = make(2, opponents=opponents)
    env.reset(seed=4)
    copies = [copy.deepcopy(env), pickle.loads(pickle.dumps(env))]
    for _ in range(12):
        action = _first_legal(env)
        expected = env.step(action)[0]
        for twin in copies:
            assert _same(twin.step(action)[0], expected)


def _first_legal(env: Any) -> Any:
    masks = env.action_masks()
    if masks.ndim == 1:
        return int(np.flatnonzero(masks)[0])
    return [int(np.flatnonzero(row)[0]) for row in masks]


def _same(first: Any, second: Any) -> bool:
    if isinstance(first, dict):
        return first.keys() == second.keys() and all(
            np.array_equal(first[key], second[key]) for key in first)
    return bool(np.array_equal(first, second))


@pytest.mark.parametrize(("make", "rules"), [
    (konchinka_env, "novo"), (kunken_env, KonchinkaRules()), (konchinka_gym_env, 15)])
def test_rules_of_the_wrong_kind_are_refused_with_an_error_naming_them(
        make: Any, rules: Any) -> None:
    with pytest.raises(InvalidRuleError, match=rf"invalid rules {re.escape(repr(rules))}: "
                                               r"expected \w+Rules, a mapping"):
        make(2, rules)


def test_an_unknown_konchinka_rule_option_lists_variant_among_the_names_taken() -> None:
    with pytest.raises(InvalidRuleError, match="'varient': expected one of variant, "):
        konchinka_env(2, {"varient": "novo"})


@pytest.mark.parametrize("limit", ["3", 1.5, 0, -2, True])
def test_a_step_limit_that_is_no_whole_number_of_steps_is_refused(limit: Any) -> None:
    with pytest.raises(InvalidRuleError, match=r"max_episode_steps .*whole number >= 1"):
        konchinka_gym_env(2, max_episode_steps=limit)
    with pytest.raises(InvalidRuleError, match=r"max_steps .*whole number >= 1"):
        kunken_env(2, max_steps=limit)


@pytest.mark.parametrize("make", [konchinka_gym_env, kunken_gym_env])
def test_the_gym_env_asks_for_a_reset_before_anything_that_reads_the_deal(make: Any) -> None:
    env = make(2)
    for call in (lambda: env.step(0), env.information_state, env.observe_json,
                 lambda: env.slot_of("draw"), lambda: env.action_text(0)):
        with pytest.raises(ResetNeeded, match=r"call reset\(\) before \w+\(\)"):
            call()


@pytest.mark.parametrize("make", [konchinka_env, kunken_env])
def test_the_aec_env_names_a_slot_outside_the_mask_and_asks_for_a_reset_first(
        make: Any) -> None:
    env = make(2)
    with pytest.raises(ResetNeeded, match=r"call reset\(\) before observe\(\)"):
        env.observe("player_0")
    env.reset(seed=1)
    with pytest.raises(IllegalMoveError, match="illegal action 99999: not in the action mask"):
        env.action_text(99999)


@pytest.mark.parametrize("slot", [-1, 99999, 2.0, "3"])
def test_the_adapters_refuse_a_slot_outside_their_action_space(slot: Any) -> None:
    konchinka, kunken = adapter_for("konchinka"), adapter_for("kunken")
    with pytest.raises(InvalidRuleError, match=f"invalid slot {re.escape(repr(slot))}"):
        konchinka.decode(slot)
    with pytest.raises(InvalidRuleError, match=f"invalid slot {re.escape(repr(slot))}"):
        kunken.block_of(slot)
    with pytest.raises(InvalidRuleError, match=f"from 0 to {kunken.action_size - 1}"):
        kunken.block_of(kunken.action_size)
    assert konchinka.decode(np.int64(33)) == konchinka.decode(33)
    assert kunken.block_of(0) == "draw"


@pytest.mark.parametrize("make", [konchinka_gym_env, kunken_gym_env])
@pytest.mark.parametrize("bad", ["abc", 1.5, float("nan"), 9.3e18, [1, 2], True, None])
def test_the_single_env_refuses_what_the_vector_env_refuses_and_plays_nothing(
        make: Any, bad: Any) -> None:
    env = make(2, observation="flat", illegal_action="random")
    observation, _ = env.reset(seed=4)
    before = observation.copy(), env.action_masks().copy()
    with pytest.raises(IllegalMoveError, match=f"invalid action {re.escape(repr(bad))}"):
        env.step(bad)
    assert np.array_equal(env._observation(), before[0])  # noqa: SLF001 (the unchanged view)
    assert np.array_equal(env.action_masks(), before[1])
    slot = int(np.flatnonzero(env.action_masks())[0])
    env.step(float(slot))  # an integral float is a slot, as in the vector env


@pytest.mark.parametrize("make", [konchinka_env, kunken_env])
@pytest.mark.parametrize("bad", ["abc", 1.5, [0]])
def test_the_aec_env_refuses_text_and_fractions_as_actions(make: Any, bad: Any) -> None:
    env = make(2)
    env.reset(seed=2)
    agent = env.agent_selection
    with pytest.raises(IllegalMoveError, match=f"invalid action {re.escape(repr(bad))}"):
        env.step(bad)
    assert env.agent_selection == agent and env._steps == 0  # noqa: SLF001


@pytest.mark.parametrize("scale", [0, -1, float("inf"), "0.1", True])
def test_a_reward_scale_that_is_no_positive_number_is_refused(scale: Any) -> None:
    for make in (lambda: konchinka_gym_env(2, reward_scale=scale),
                 lambda: kunken_env(2, reward_scale=scale),
                 lambda: konchinka_vector_env(2, reward_scale=scale),
                 lambda: make_self_play_vector_env("kunken", 2, reward_scale=scale)):
        with pytest.raises(InvalidRuleError,
                           match=f"invalid reward_scale {re.escape(repr(scale))}"):
            make()
