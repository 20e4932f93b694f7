"""The Kunken environments: PettingZoo's and Gymnasium's checkers, action masks that are
exactly the legal actions (up to the documented caps), observations without hidden cards,
seeded replay and random deals played to the end."""

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
    random_deals,
    random_position,
)

from konkun.errors import IllegalMoveError, InvalidRuleError
from konkun.rl.envs import kunken_env, kunken_gym_env
from konkun.rl.kunken_adapter import KunkenAdapter

pytestmark = PETTINGZOO_ADVICE


def _past_cap(table: int = 32, melds: int = 512,
              joker_layoffs: int = 64) -> Callable[[list[Any]], int]:
    """How many legal actions the documented caps put out of reach."""
    def count(legal: list[Any]) -> int:
        kinds = Counter(a.kind for a in legal)
        jokers = sum(1 for a in legal if a.kind == "layoff" and a.slots[0] >= 52)
        far = sum(1 for a in legal if a.kind in ("layoff", "swap") and a.number >= table
                  and not (a.kind == "layoff" and a.slots[0] >= 52))
        return max(0, kinds["meld"] - melds) + max(0, jokers - joker_layoffs) + far
    return count


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_pettingzoo_api_test_passes_for_2_to_5_players(players: int) -> None:
    api_test(kunken_env(players), num_cycles=60)


def test_pettingzoo_seed_test_passes() -> None:
    seed_test(lambda: kunken_env(3, {"jokers": "2"}), num_cycles=60)


def test_gymnasium_check_env_passes() -> None:
    check_env(kunken_gym_env(2), skip_render_check=True)


def test_gymnasium_check_env_passes_with_greedy_bots() -> None:
    check_env(kunken_gym_env(3, seat=1, opponents="greedy"), skip_render_check=True)


def test_mask_is_exactly_the_legal_actions() -> None:
    env = kunken_env(3)
    steps = check_masks_match_legal_moves(env, 200, 4, random.Random(3), _past_cap())
    assert steps > 0


def test_small_caps_hide_only_the_actions_past_them() -> None:
    adapter = KunkenAdapter(meld_table_slots=1, meld_slots=2, joker_layoff_slots=1)
    from konkun.rl.aec import KonkunAECEnv

    env = KonkunAECEnv(adapter, 2)
    check_masks_match_legal_moves(env, 30, 3, random.Random(4), _past_cap(1, 2, 1))


def test_take_slots_count_from_the_top_of_the_bank() -> None:
    adapter = KunkenAdapter()
    rng = random.Random(5)
    seen = 0
    for _ in range(10):
        deal: Any = adapter.new_deal(2, rng)
        while not deal.is_over() and seen < 50:
            legal = deal.legal_actions()
            for slot, action in adapter.slots(deal, legal).items():
                if action.kind == "take":
                    taken = len(deal.bank) - action.number
                    assert slot - adapter.take_base == taken - 1
                    seen += 1
                elif action.kind == "discard":
                    assert slot - adapter.discard_base == action.slots[0]
                elif action.kind == "draw":
                    assert slot == 0
            deal.push(rng.choice(legal))
    assert seen > 0


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_the_tensor_holds_no_hidden_card(seed: int, players: int) -> None:
    """The tensor is a function of the seat's observation alone: a deal resampled from the
    observation (other hands and the stock dealt anew) gives the same tensor, equal to the
    fast path's, and the hand row is the seat's own hand."""
    adapter = KunkenAdapter()
    deal = random_position(adapter, players, seed, 80)
    for seat in range(players):
        tensor = assert_resample_invariant(adapter, deal.observe(seat), seed + 1)
        assert np.array_equal(tensor, adapter.encode_deal(deal, seat))
        assert np.array_equal(tensor[0] > 0, np.asarray(deal.hands[seat]) > 0)


def test_the_same_seed_gives_the_same_deal() -> None:
    assert play_random_deals(kunken_env(2), 3, 3) == play_random_deals(kunken_env(2), 3, 3)


def test_random_agents_complete_deals_and_the_winner_scores_its_table_cards() -> None:
    """The player who goes out holds no card, so its points are its table cards (doubled
    for an express), never negative; every agent's reward is its points for the deal."""
    rng = random.Random(12)
    for players in (2, 3, 4, 5):
        env = kunken_env(players)
        seeds = range(players * 10, players * 10 + 4)
        for rewards in random_deals(env, rng, seeds):
            deal: Any = env.deal
            assert deal.is_over()
            points = deal.points()
            assert rewards == points
            if deal.winner is not None:
                assert sum(deal.hands[deal.winner]) == 0
                assert points[deal.winner] >= 0


def test_the_json_observation_is_the_engines_and_hides_other_hands() -> None:
    env = kunken_env(3)
    env.reset(seed=11)
    agent = env.agent_selection
    data = env.observe_json(agent)
    assert data["game"] == "kunken"
    assert set(data["legal"]) == {env.action_text(slot) for slot in env.legal_slots()}
    others = [a for a in env.agents if a != agent]
    for other in others:
        view = env.observe_json(other)
        assert view["legal"] == []
        assert len(view["hand"]) == 13


def test_an_action_outside_the_mask_is_an_illegal_move() -> None:
    env = kunken_env(2)
    env.reset(seed=1)
    mask = env.observe(env.agent_selection)["action_mask"]
    with pytest.raises(IllegalMoveError):
        env.step(int(np.flatnonzero(mask == 0)[-1]))


def test_player_counts_outside_2_to_5_are_refused() -> None:
    with pytest.raises(InvalidRuleError, match="6"):
        kunken_env(6)


def test_rule_options_reach_the_engine() -> None:
    env = kunken_env(2, {"jokers": "2"})
    env.reset(seed=1)
    assert env.adapter.rules.jokers == 2  # type: ignore[attr-defined]
    assert env.action_space("player_0").n == 1 + 106 + 53 + 512 + 2 * 32 * 52 + 64


@pytest.mark.parametrize(("name", "players"), [("konkun/Konchinka-v0", 4),
                                               ("konkun/Kunken-v0", 3)])
def test_gymnasium_make_builds_the_registered_environments(name: str, players: int) -> None:
    import gymnasium

    import konkun.rl  # noqa: F401  (registers the environments)

    env = gymnasium.make(name, num_players=players, opponents="greedy", render_mode="ansi")
    observation, _ = env.reset(seed=5)
    assert observation["observation"].shape == env.observation_space["observation"].shape
    legal = np.flatnonzero(observation["action_mask"])
    _, _, _, _, info = env.step(int(legal[0]))
    assert "illegal_action" not in info
    assert isinstance(env.render(), str)
