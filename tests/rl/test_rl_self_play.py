"""The self-play vector env: every seat of every deal is played by the caller, each
observation is the seat to move's own tensor with its legal slots, and the rewards of a
finished deal go to every seat."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.errors import InvalidRuleError
from konkun.rl import make_self_play_vector_env
from konkun.rl.envs import adapter_for
from konkun.rl.self_play import SelfPlayVectorEnv

KUNKEN_RULES = st.fixed_dictionaries({
    "jokers": st.sampled_from(["0", "2", "4"]),
    "joker_for_held": st.sampled_from(["true", "false"]),
    "swap_before_take": st.sampled_from(["true", "false"]),
    "opening_minimum": st.sampled_from(["0", "50"]),
})


def _random_actions(masks: Any, rng: random.Random) -> list[int]:
    return [rng.choice(np.flatnonzero(row).tolist()) for row in masks]


def _assert_each_row_is_the_movers(env: SelfPlayVectorEnv, observations: Any) -> None:
    """Every deal's observation and mask are those of the seat to move there."""
    adapter = env.adapter
    for i in range(env.num_envs):
        deal = env.deal(i)
        seat = int(env.to_move[i])
        assert deal.to_move == seat
        fresh = adapter.encode_deal(deal, seat).reshape(-1)
        assert np.array_equal(observations[i], fresh), f"deal {i}"
        legal = adapter.slots(deal, deal.legal_actions())
        assert sorted(np.flatnonzero(env.action_masks()[i])) == sorted(legal)


def _play_both(fast: SelfPlayVectorEnv, slow: SelfPlayVectorEnv, seed: int,
               steps: int) -> int:
    """Step the fast and the generic path alike, checking them against each other and
    the engine after every step; the number of deals finished."""
    first, info = fast.reset(seed=seed)
    second, _ = slow.reset(seed=seed)
    assert np.array_equal(info["to_move"], [fast.deal(i).to_move for i in range(fast.num_envs)])
    rng = random.Random(seed)
    finished = 0
    for _ in range(steps):
        assert np.array_equal(first, second)
        assert np.array_equal(fast.action_masks(), slow.action_masks())
        assert np.array_equal(fast.to_move, slow.to_move)
        _assert_each_row_is_the_movers(fast, first)
        actions = _random_actions(fast.action_masks(), rng)
        movers = fast.to_move.copy()
        first, rewards, ended, _, infos = fast.step(actions)
        second, slow_rewards, slow_ended, _, slow_infos = slow.step(actions)
        assert np.array_equal(infos["seat"], movers)
        assert np.array_equal(rewards, slow_rewards) and np.array_equal(ended, slow_ended)
        assert np.array_equal(infos["rewards"], slow_infos["rewards"])
        for i in np.flatnonzero(ended):
            finished += 1
            assert np.array_equal(infos["final_obs"][i], slow_infos["final_obs"][i])
    return finished


@pytest.mark.parametrize("players", [2, 3, 4])
def test_konchinka_self_play_rows_are_the_movers_tensors(players: int) -> None:
    """Konchinka, 2 to 4 seats: each row is the seat to move's tensor and mask, the fast
    path steps as the generic one, and deals end and are dealt anew."""
    fast = make_self_play_vector_env("konchinka", 4, players)
    slow = SelfPlayVectorEnv(adapter_for("konchinka"), 4, players, fast=False)
    assert _play_both(fast, slow, 11 + players, 80) >= 4


@settings(max_examples=8, deadline=None)
@given(rules=KUNKEN_RULES, players=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_kunken_self_play_rows_are_the_movers_tensors(rules: dict[str, str], players: int,
                                                      seed: int) -> None:
    """Kunken under rule options, 2 to 5 seats: the core's incremental table rows, put in
    each mover's own seat order, equal the fresh encoding after every step."""
    fast = make_self_play_vector_env("kunken", 3, players, rules)
    slow = SelfPlayVectorEnv(adapter_for("kunken", rules), 3, players, fast=False)
    _play_both(fast, slow, seed, 60)


def test_kunken_self_play_finishes_deals_with_melds_on_the_table() -> None:
    """A longer seeded Kunken run: deals lay melds, finish and are dealt anew while the
    rows stay those of the mover."""
    fast = make_self_play_vector_env("kunken", 6, 2)
    slow = SelfPlayVectorEnv(adapter_for("kunken"), 6, 2, fast=False)
    assert _play_both(fast, slow, 5, 400) >= 3


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_a_finished_deal_pays_every_seat_zero_sum(game: str) -> None:
    """At a deal's end each seat gets its zero-sum reward of the deal's points, the
    seat that made the last move gets its own in ``rewards``, and the deal is dealt anew
    in the same step."""
    env = make_self_play_vector_env(game, 8, 2)
    env.reset(seed=3)
    rng = random.Random(3)
    finished = 0
    while finished < 10:
        _, rewards, ended, _, infos = env.step(_random_actions(env.action_masks(), rng))
        for i in np.flatnonzero(ended):
            finished += 1
            points = infos["final_info"]["points"][i]
            assert list(infos["rewards"][i]) == [points[0] - points[1], points[1] - points[0]]
            assert rewards[i] == infos["rewards"][i, infos["seat"][i]]
            assert len(env.deal(i).history) == 0  # dealt anew
        for i in np.flatnonzero(~ended):
            assert rewards[i] == 0.0 and not infos["rewards"][i].any()


def test_the_points_reward_pays_each_seat_its_own_points() -> None:
    env = make_self_play_vector_env("konchinka", 4, 3, reward="points")
    env.reset(seed=9)
    rng = random.Random(9)
    for _ in range(200):
        _, _, ended, _, infos = env.step(_random_actions(env.action_masks(), rng))
        for i in np.flatnonzero(ended):
            assert list(infos["rewards"][i]) == list(infos["final_info"]["points"][i])


def test_an_illegal_action_is_penalised_for_the_seat_that_made_it() -> None:
    """``random``: a random legal move is played and the actor gets the penalty;
    ``penalize``: nothing is played."""
    env = make_self_play_vector_env("kunken", 2, 2, illegal_penalty=-2.0)
    env.reset(seed=4)
    before = [len(env.deal(i).history) for i in range(2)]
    illegal = [int(np.flatnonzero(~env.action_masks()[i])[0]) for i in range(2)]
    _, rewards, _, _, infos = env.step(illegal)
    assert list(rewards) == [-2.0, -2.0]
    assert [len(env.deal(i).history) for i in range(2)] == [b + 1 for b in before]
    assert infos["rewards"][0, infos["seat"][0]] == -2.0
    still = make_self_play_vector_env("kunken", 2, 2, illegal_action="penalize")
    first, _ = still.reset(seed=4)
    kept = first.copy()
    again, rewards, _, _, _ = still.step(illegal)
    assert list(rewards) == [-1.0, -1.0] and np.array_equal(again, kept)
    assert all(len(still.deal(i).history) == 0 for i in range(2))


def test_seeded_self_play_envs_replay_exactly() -> None:
    runs = []
    for _ in range(2):
        env = make_self_play_vector_env("kunken", 3, 2)
        observations, _ = env.reset(seed=21)
        rng = random.Random(21)
        for _ in range(30):
            observations, *_ = env.step(_random_actions(env.action_masks(), rng))
        runs.append(observations.copy())
    assert np.array_equal(runs[0], runs[1])


def test_bad_self_play_options_are_refused() -> None:
    with pytest.raises(InvalidRuleError, match="num_envs 0"):
        make_self_play_vector_env("konchinka", 0)
    with pytest.raises(InvalidRuleError, match="reward 'banana'"):
        make_self_play_vector_env("kunken", 2, reward="banana")
    with pytest.raises(InvalidRuleError, match="illegal_action 'raise'"):
        make_self_play_vector_env("kunken", 2, illegal_action="raise")
    with pytest.raises(InvalidRuleError, match="seed list"):
        make_self_play_vector_env("kunken", 2).reset(seed=[1])
