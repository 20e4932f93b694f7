"""The Konchinka environments: PettingZoo's and Gymnasium's checkers, action masks that
are exactly the legal moves, observations without hidden cards, seeded replay, and many
random deals scored as RULES.md says."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from pettingzoo.test import api_test, seed_test
from rl_checks import (
    PETTINGZOO_ADVICE,
    assert_resample_invariant,
    check_masks_match_legal_moves,
    play_random_deals,
    random_position,
)

from konkun.cards import Card
from konkun.errors import IllegalMoveError, InvalidRuleError
from konkun.rl.envs import konchinka_env, konchinka_gym_env
from konkun.rl.konchinka_adapter import KonchinkaAdapter

pytestmark = PETTINGZOO_ADVICE


def _past_cap(k: int) -> Callable[[list[Any]], int]:
    def count(legal: list[Any]) -> int:
        per_card = Counter(move.card for move in legal if move.is_capture)
        return sum(max(0, n - (k - 1)) for n in per_card.values())
    return count


@pytest.mark.parametrize("players", [2, 3, 4])
def test_pettingzoo_api_test_passes_for_2_to_4_players(players: int) -> None:
    api_test(konchinka_env(players), num_cycles=200)


@pytest.mark.parametrize("variant", ["classic", "novo"])
def test_pettingzoo_seed_test_passes(variant: str) -> None:
    seed_test(lambda: konchinka_env(3, {"variant": variant}), num_cycles=100)


def test_gymnasium_check_env_passes() -> None:
    check_env(konchinka_gym_env(2), skip_render_check=True)


def test_gymnasium_check_env_passes_with_bots_at_three_seats() -> None:
    check_env(konchinka_gym_env(4, seat=2, opponents=["random", "greedy", "ismcts:iters=5"]),
              skip_render_check=True)


@pytest.mark.parametrize("variant", ["classic", "novo"])
def test_mask_is_exactly_the_legal_moves(variant: str) -> None:
    env = konchinka_env(3, {"variant": variant})
    steps = check_masks_match_legal_moves(env, 100, 30, random.Random(1), _past_cap(32))
    assert steps == 30 * 48  # 3 players: 4 hands of 4 cards... 48 cards played per deal


def test_a_small_cap_hides_only_the_captures_past_it() -> None:
    env = konchinka_env(2, {"variant": "novo"}, capture_slots=2)
    check_masks_match_legal_moves(env, 7, 10, random.Random(2), _past_cap(2))


@pytest.mark.parametrize("compulsory", ["false", "true"])
def test_slots_name_the_played_card_and_reserve_slot_0_for_its_trail(compulsory: str) -> None:
    adapter = KonchinkaAdapter()
    env = konchinka_env(2, {"capture_compulsory": compulsory})
    for seed in range(20):
        env.reset(seed=seed)
        for slot, move in env.legal_slots().items():
            card, j = adapter.decode(slot)
            assert card == move.card
            assert (j == 0) == move.is_trail


def test_captures_of_a_card_are_ordered_most_cards_first() -> None:
    env = konchinka_env(4, {"variant": "novo"})
    seen = 0
    for seed in range(60):
        env.reset(seed=seed)
        slots = env.legal_slots()
        for slot in slots:
            nxt = slots.get(slot + 1)
            if nxt is not None and slot % 32 not in (0, 31):
                assert len(slots[slot].taken) >= len(nxt.taken)
                seen += 1
    assert seen > 0


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_the_tensor_holds_no_hidden_card(seed: int, players: int) -> None:
    """The tensor is a function of the seat's observation alone: a deal resampled from
    that observation (the other hands and the stock dealt anew) gives the same tensor,
    and the hand row is exactly the seat's own hand."""
    adapter = KonchinkaAdapter()
    deal = random_position(adapter, players, seed, 30)
    for seat in range(players):
        observation = deal.observe(seat)
        tensor = assert_resample_invariant(adapter, observation, seed + 1)
        hand = {Card.from_index(i) for i in np.flatnonzero(tensor[0])}
        assert hand == set(observation.hand)
        others = {c for s in range(players) if s != seat for c in deal.hand(s)}
        assert not others & {Card.from_index(i) for i in np.flatnonzero(tensor[:-2].max(0))}


def test_the_fast_tensor_is_the_observations_tensor() -> None:
    adapter = KonchinkaAdapter({"variant": "novo"})
    rng = random.Random(8)
    for _ in range(8):
        deal = adapter.new_deal(rng.choice([2, 3, 4]), rng)
        while not deal.is_over():
            for seat in range(deal.num_seats):
                assert np.array_equal(adapter.encode_deal(deal, seat),
                                      adapter.encode(deal.observe(seat)))
            deal.push(rng.choice(deal.legal_actions()))


def test_the_same_seed_gives_the_same_deal() -> None:
    first = konchinka_env(3)
    second = konchinka_env(3)
    assert play_random_deals(first, 5, 20) == play_random_deals(second, 5, 20)
    first.reset(seed=9)
    second.reset(seed=9)
    assert first.observe_json("player_0") == second.observe_json("player_0")


def test_random_agents_complete_hundreds_of_deals_scored_at_most_5_points() -> None:
    """A deal is worth at most 5 points (2 + 1 + 1 + 1), and at least the two кончинки
    are always won (the last capturer sweeps the table)."""
    for players in (2, 3, 4):
        for points in play_random_deals(konchinka_env(players), players, 100):
            assert all(p >= 0 for p in points)
            assert 2 <= sum(points) <= 5


def test_the_json_observation_is_the_engines() -> None:
    env = konchinka_env(2)
    env.reset(seed=3)
    agent = env.agent_selection
    data = env.observe_json(agent)
    assert data["game"] == "konchinka"
    assert set(data["legal"]) == {env.action_text(slot) for slot in env.legal_slots()}
    other = env.observe_json("player_1" if agent == "player_0" else "player_0")
    assert other["legal"] == []
    assert set(other["hand"]).isdisjoint(data["hand"])


def test_an_action_outside_the_mask_is_an_illegal_move() -> None:
    env = konchinka_env(2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(IllegalMoveError, match=str(illegal)):
        env.step(illegal)


def test_player_counts_outside_2_to_4_are_refused() -> None:
    with pytest.raises(InvalidRuleError, match="5"):
        konchinka_env(5)


def test_the_gym_agent_is_rewarded_its_deal_points() -> None:
    env = konchinka_gym_env(3, seat=1)
    rng = random.Random(4)
    for episode in range(10):
        observation, _ = env.reset(seed=episode)
        total = 0.0
        done = False
        while not done:
            legal = np.flatnonzero(observation["action_mask"])
            observation, reward, done, truncated, info = env.step(int(rng.choice(legal)))
            total += float(reward)
            assert not truncated
        assert total == info["points"][1]


def test_an_illegal_gym_action_is_penalized_and_changes_nothing() -> None:
    env = konchinka_gym_env(2, illegal_action="penalize")
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    after, reward, done, _, info = env.step(illegal)
    assert reward == -1.0 and not done and info["illegal_action"]
    assert np.array_equal(after["observation"], observation["observation"])


def test_json_infos_carry_each_agents_json_observation() -> None:
    env = konchinka_env(2, json_infos=True)
    env.reset(seed=6)
    for agent in env.agents:
        info = env.infos[agent]["json"]
        assert info == env.observe_json(agent)
        assert info["seat"] == int(agent.split("_")[1])


def test_max_steps_truncates_the_deal() -> None:
    env = konchinka_env(2, max_steps=5)
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            assert truncated and not terminated and steps == 5
            env.step(None)
            continue
        env.step(int(np.flatnonzero(observation["action_mask"])[0]))
        steps += 1
    assert env.agents == []


def test_ansi_render_shows_each_seats_view() -> None:
    env = konchinka_env(3, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    assert isinstance(text, str)
    assert text.count("seat ") == 3


def test_any_callable_can_play_the_other_seats() -> None:
    """A policy is any callable over (observation, legal actions); it sees only its own
    seat's observation."""
    seen: list[int] = []

    def first_legal(observation: Any, legal: Any) -> Any:
        seen.append(observation.seat)
        return legal[0]

    env = konchinka_gym_env(3, seat=0, opponents=first_legal)
    observation, _ = env.reset(seed=1)
    env.step(int(np.flatnonzero(observation["action_mask"])[0]))
    assert set(seen) == {1, 2}


def test_an_unknown_bot_spec_is_refused() -> None:
    with pytest.raises(InvalidRuleError, match="no-such-bot"):
        konchinka_gym_env(2, opponents="no-such-bot")
