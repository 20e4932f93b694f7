"""Kunken's vector core keeps the table rows from step to step and writes the others
afresh: after every step each row must be the adapter's tensor encoded from scratch, and
the core must step exactly as the generic adapter path (final observations included)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from konkun.kunken.actions import LAYOFF, MELD, SWAP
from konkun.rl.envs import adapter_for, kunken_vector_env
from konkun.rl.kunken_vector import KunkenCore
from konkun.rl.policies import TensorPolicy
from konkun.rl.vector import KonkunVectorEnv
from native_checks import require_native

RULES = st.fixed_dictionaries({
    "jokers": st.sampled_from(["0", "1", "2", "3", "4"]),
    "joker_for_held": st.sampled_from(["true", "false"]),
    "swap_before_take": st.sampled_from(["true", "false"]),
    "empty_stock": st.sampled_from(["turn_bank", "end"]),
    "max_stock_renewals": st.sampled_from(["0", "2"]),
    "opening_minimum": st.sampled_from(["0", "50"]),
})


@pytest.fixture(autouse=True, params=["c", "numpy"])
def rows_writer(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Every test runs with the C rows (``konkun.rl.tensor_rows``, where built) and with
    their numpy twin (``KunkenCore._rest``)."""
    if request.param == "numpy":
        monkeypatch.setattr(KunkenCore, "write_in_c", None)
    else:
        require_native(KunkenCore.write_in_c is not None, "konkun.rl.tensor_rows")
    return str(request.param)


def _random_actions(masks: Any, rng: random.Random) -> list[int]:
    return [rng.choice(np.flatnonzero(row).tolist()) for row in masks]


def _highest(tensor: Any, mask: Any) -> int:
    """The last legal slot: joker lay-offs, swaps and lay-offs before anything else."""
    return int(np.flatnonzero(mask)[-1])


def _assert_rows_are_fresh(env: KonkunVectorEnv, observations: Any) -> None:
    for i in range(env.num_envs):
        fresh = env.adapter.encode_deal(env.deal(i), env.seat).reshape(-1)
        assert np.array_equal(observations[i], fresh), f"deal {i}"


def _kinds(env: KonkunVectorEnv) -> set[str]:
    return {action.kind for i in range(env.num_envs) for action in env.deal(i).history}


@settings(max_examples=12, deadline=None)
@given(rules=RULES, players=st.integers(2, 5), seat_pick=st.integers(0, 4),
       seed=st.integers(0, 10_000))
def test_incremental_kunken_rows_equal_fresh_encodings_after_every_step(
        rules: dict[str, str], players: int, seat_pick: int, seed: int) -> None:
    """Random deals under every rule option, every seat: after each step every row is
    ``encode_deal`` of that deal, and the core steps exactly as the generic path does (the
    same observations, masks, rewards, ends and final observations)."""
    seat = seat_pick % players
    fast = kunken_vector_env(3, players, rules, seat=seat)
    slow = KonkunVectorEnv(adapter_for("kunken", rules), 3, players, seat=seat, fast=False)
    first, _ = fast.reset(seed=seed)
    second, _ = slow.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(60):
        assert np.array_equal(first, second)
        assert np.array_equal(fast.action_masks(), slow.action_masks())
        _assert_rows_are_fresh(fast, first)
        actions = _random_actions(fast.action_masks(), rng)
        first, rewards, ended, _, infos = fast.step(actions)
        second, slow_rewards, slow_ended, _, slow_infos = slow.step(actions)
        assert np.array_equal(rewards, slow_rewards) and np.array_equal(ended, slow_ended)
        for i in np.flatnonzero(ended):
            assert np.array_equal(infos["final_obs"][i], slow_infos["final_obs"][i])


def test_incremental_rows_follow_melds_layoffs_swaps_and_new_deals() -> None:
    """A long seeded run (2 players, 8 deals at a time) that lays melds, lays off, swaps
    jokers and deals anew many times: every row equals its fresh encoding after every
    step, and every final observation the generic path's."""
    fast = kunken_vector_env(8, 2)
    slow = KonkunVectorEnv(adapter_for("kunken"), 8, 2, fast=False)
    first, _ = fast.reset(seed=5)
    slow.reset(seed=5)
    rng = random.Random(5)
    kinds: set[str] = set()
    finished = 0
    for _ in range(400):
        _assert_rows_are_fresh(fast, first)
        kinds |= _kinds(fast)
        actions = _random_actions(fast.action_masks(), rng)
        first, _, ended, _, infos = fast.step(actions)
        _, _, _, _, slow_infos = slow.step(actions)
        for i in np.flatnonzero(ended):
            assert np.array_equal(infos["final_obs"][i], slow_infos["final_obs"][i])
            finished += 1
    assert {MELD, LAYOFF, SWAP} <= kinds
    assert finished >= 8


@pytest.mark.parametrize("players", [2, 3])
def test_policy_opponents_moves_reach_the_incremental_rows(players: int) -> None:
    """Opponents that are tensor policies play through the core too, so the melds they
    lay and change show in the agent's rows."""
    fast = kunken_vector_env(3, players, opponents=TensorPolicy(_highest))
    slow = KonkunVectorEnv(adapter_for("kunken"), 3, players,
                           opponents=TensorPolicy(_highest), fast=False)
    first, _ = fast.reset(seed=players)
    second, _ = slow.reset(seed=players)
    rng = random.Random(players)
    for _ in range(150):
        assert np.array_equal(first, second)
        _assert_rows_are_fresh(fast, first)
        actions = _random_actions(fast.action_masks(), rng)
        first = fast.step(actions)[0]
        second = slow.step(actions)[0]


@pytest.mark.parametrize("illegal_action", ["random", "penalize"])
def test_illegal_kunken_slots_are_handled_as_the_generic_path_does(illegal_action: str) -> None:
    """Every third step each deal's agent picks a slot outside its mask: the core's batch
    penalises it and plays a random legal slot (or nothing) exactly as the generic path."""
    fast = kunken_vector_env(4, 2, illegal_action=illegal_action)
    slow = KonkunVectorEnv(adapter_for("kunken"), 4, 2, illegal_action=illegal_action,
                           fast=False)
    first, _ = fast.reset(seed=8)
    second, _ = slow.reset(seed=8)
    rng = random.Random(8)
    for step in range(90):
        assert np.array_equal(first, second)
        assert np.array_equal(fast.action_masks(), slow.action_masks())
        if step % 3:
            actions = _random_actions(fast.action_masks(), rng)
        else:
            actions = [int(np.flatnonzero(~row)[-1]) for row in fast.action_masks()]
        first, rewards, ended, _, _ = fast.step(actions)
        second, slow_rewards, slow_ended, _, _ = slow.step(actions)
        assert np.array_equal(rewards, slow_rewards) and np.array_equal(ended, slow_ended)
        if not step % 3:
            assert (rewards[~ended] == -1.0).all()


def test_kept_rows_follow_melds_laid_behind_the_cores_back_and_partial_encodings() -> None:
    """The core keeps the table rows (and each deal's cards taken) from one encoding to
    the next: they must follow a meld pushed on a deal without the core (read because the
    meld count grew), an encoding of a few rows (as of the final observations of ended
    deals) that brings every touched meld up to date, and new deals after long ones (no
    meld row left past a new deal's last meld). Every row is checked against
    ``encode_deal`` at every encoding."""
    adapter = adapter_for("kunken")
    count = 4
    core = KunkenCore(adapter, 2, 0, count, all_random=True)
    rngs = [random.Random(seed) for seed in range(count)]

    def deal_anew(i: int) -> None:
        core.new(i, rngs[i])
        while core.deals[i].to_move not in (None, 0):
            core.random_move(i, rngs[i])
        if core.deals[i].to_move is None:
            deal_anew(i)

    def assert_fresh(out: Any, rows: list[int]) -> None:
        for j, i in enumerate(rows):
            fresh = adapter.encode_deal(core.deals[i], 0).reshape(-1)
            assert np.array_equal(out[j], fresh), f"deal {i}"

    for i in range(count):
        deal_anew(i)
    size = int(np.prod(adapter.observation_shape(2)))
    observations = np.zeros((count, size), dtype=np.float32)
    masks = np.zeros((count, adapter.action_size), dtype=np.bool_)
    scratch = np.zeros((1, size), dtype=np.float32)
    rng = random.Random(9)
    behind = ended = 0
    for step in range(700):
        core.write(observations, masks)
        assert_fresh(observations, list(range(count)))
        for i in range(count):
            melds = [a for a in core.deals[i].legal_actions() if a.kind == MELD]
            if melds and step % 3 == 0:
                core.deals[i].push(rng.choice(melds))  # not through the core
                behind += 1
                continue
            if core.play_agent(i, rng.choice(core.legal_slot_list(i)), rngs[i]) == 1:
                core.encode(0, scratch, [i])  # the final observation: one row alone
                assert_fresh(scratch, [i])
                ended += 1
                deal_anew(i)
    assert behind >= 10 and ended >= 3
