"""The research API around the environments: action_masks(), the flat observation, the
illegal-action modes, max_episode_steps, whole-match episodes, the zero-sum reward, the
information state, the JSON and text faces, move text to slot, render modes and
gymnasium.make."""

from __future__ import annotations

import itertools
import random
import subprocess
import sys
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from hypothesis import given, settings
from hypothesis import strategies as st
from rl_checks import random_position

from konkun.errors import IllegalMoveError, InvalidNotationError, InvalidRuleError
from konkun.konchinka.game import game_winner
from konkun.rl.envs import (
    adapter_for,
    konchinka_env,
    konchinka_gym_env,
    kunken_env,
    kunken_gym_env,
)
from konkun.rl.gym_env import KonkunGymEnv
from konkun.rl.konchinka_adapter import HISTORY_ROWS, KonchinkaAdapter
from konkun.rl.kunken_adapter import KunkenAdapter, drawn_cards, history_with_seats

GYM_ENVS = {"konchinka": konchinka_gym_env, "kunken": kunken_gym_env}


def _random_episode(env: KonkunGymEnv, seed: int, rng: random.Random,
                    masked: bool = True) -> tuple[float, dict[str, Any], int]:
    """Play one episode; return the summed reward, the last info and the steps taken."""
    _, info = env.reset(seed=seed)
    total, steps, done = 0.0, 0, False
    while not done:
        legal = np.flatnonzero(env.action_masks())
        action = int(rng.choice(legal)) if masked else int(env.action_space.sample())
        _, reward, terminated, truncated, info = env.step(action)
        total += float(reward)
        steps += 1
        done = terminated or truncated
    return total, info, steps


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_action_masks_are_the_legal_slots_of_the_agent(game: str) -> None:
    env = GYM_ENVS[game](2)
    observation, info = env.reset(seed=3)
    masks = env.action_masks()
    assert masks.dtype == np.bool_
    assert set(np.flatnonzero(masks)) == set(env.legal_slots())
    assert np.array_equal(masks, observation["action_mask"].astype(bool))
    assert np.array_equal(info["action_mask"], masks)
    assert env.deal is not None
    legal = env.deal.legal_actions()
    assert set(env.legal_slots().values()) <= set(legal)


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
@pytest.mark.parametrize("tensor", ["observation", "info_state"])
def test_the_flat_observation_is_one_vector_without_the_mask(game: str, tensor: str) -> None:
    env = GYM_ENVS[game](3, observation="flat", tensor=tensor)
    observation, info = env.reset(seed=4)
    adapter = env.adapter
    size = (int(np.prod(adapter.observation_shape(3))) if tensor == "observation"
            else adapter.info_state_size(3))
    assert observation.shape == env.observation_space.shape == (size,)
    assert observation.dtype == np.float32
    assert env.observation_space.contains(observation)
    assert "action_mask" in info
    check_env(env, skip_render_check=True)


def test_the_flat_observation_is_the_tensor_flattened() -> None:
    flat = konchinka_gym_env(2, observation="flat")
    nested = konchinka_gym_env(2)
    vector, _ = flat.reset(seed=8)
    tensors, _ = nested.reset(seed=8)
    assert np.array_equal(vector, tensors["observation"].reshape(-1))


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_by_default_an_illegal_action_plays_a_random_legal_move_with_the_penalty(
        game: str) -> None:
    env = GYM_ENVS[game](2)
    observation, _ = env.reset(seed=2)
    assert env.deal is not None
    moves_before = len(env.observe_json()["history"])
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, _, _, info = env.step(illegal)
    assert info["illegal_action"]
    assert len(env.observe_json()["history"]) > moves_before  # the deal went on
    assert float(reward) <= -1.0 + 5  # the penalty, plus at most a deal's points


def test_an_unmasked_random_agent_finishes_a_konchinka_deal_in_its_own_moves() -> None:
    """With the default illegal_action, every step plays a move. RULES.md: 4 cards to
    the table, the other 48 all pass through the two hands (4 at a time), so each seat
    plays 24 cards: the agent moves at most 24 times."""
    env = konchinka_gym_env(2)
    rng = random.Random(1)
    for seed in range(20):
        _, _, steps = _random_episode(env, seed, rng, masked=False)
        assert steps <= 24


def test_max_episode_steps_truncates_the_episode() -> None:
    env = kunken_gym_env(2, illegal_action="penalize", max_episode_steps=7)
    env.reset(seed=1)
    for step in range(1, 8):
        _, _, terminated, truncated, _ = env.step(env.action_space.n - 1)
        assert not terminated
        assert truncated == (step == 7)


def test_the_bad_options_are_refused_by_name() -> None:
    for options, name in (({"reward": "win"}, "reward"), ({"episode": "set"}, "episode"),
                          ({"observation": "image"}, "observation"),
                          ({"illegal_action": "ignore"}, "illegal_action"),
                          ({"max_episode_steps": 0}, "max_episode_steps"),
                          ({"render_mode": "banana"}, "banana")):
        with pytest.raises(InvalidRuleError, match=name):
            konchinka_gym_env(2, **options)


def test_a_match_episode_plays_a_konchinka_game_to_the_target() -> None:
    """A game ends when a seat reaches the target (15 by default) and the rewards (the
    deals' points) add up to the agent's total."""
    env = konchinka_gym_env(2, episode="match")
    rng = random.Random(5)
    for seed in range(3):
        total, info, _ = _random_episode(env, seed, rng)
        totals = info["totals"]
        assert game_winner(totals, 15) is not None
        assert len(info["deal_points"]) >= 3  # at most 5 points a deal: 3 deals or more
        assert total == totals[0]
        assert [sum(column) for column in zip(*info["deal_points"], strict=True)] == totals


def test_a_match_episode_plays_a_kunken_match() -> None:
    env = kunken_gym_env(2, {"deals": "2", "target": "0"}, episode="match")
    total, info, _ = _random_episode(env, 1, random.Random(2))
    assert len(info["deal_points"]) == 2
    assert total == info["totals"][0]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_zero_sum_reward_is_the_points_minus_the_others_mean(players: int) -> None:
    """Summed over the seats the zero-sum rewards of a deal are 0."""
    rewards = []
    for seat in range(players):
        env = konchinka_gym_env(players, seat=seat, reward="zero_sum")
        total, info, _ = _random_episode(env, 11, random.Random(seat))
        points = info["points"]
        others = [p for s, p in enumerate(points) if s != seat]
        assert total == pytest.approx(points[seat] - sum(others) / len(others))
        rewards.append(total)
    assert len(rewards) == players


def _positions_with_known_stock(players: int, count: int) -> list[Any]:
    adapter = KonchinkaAdapter()
    found = []
    seed = 0
    while len(found) < count:
        deal = random_position(adapter, players, seed, 12)
        seed += 1
        if deal.observe(0).known_in_stock:
            found.append(deal)
    return found


def test_the_konchinka_tensor_marks_the_cards_known_to_be_in_the_stock() -> None:
    adapter = KonchinkaAdapter()
    for deal in _positions_with_known_stock(2, 5):
        for seat in range(2):
            observation = deal.observe(seat)
            row = adapter.encode_deal(deal, seat)[4 + 2]
            assert set(np.flatnonzero(row)) == {c.index
                                                        for c in observation.known_in_stock}
            assert np.array_equal(adapter.encode(observation), adapter.encode_deal(deal, seat))
            stock = {c.index for c in deal.stock}
            assert set(np.flatnonzero(row)) <= stock


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_the_konchinka_information_state_holds_no_hidden_card(seed: int, players: int) -> None:
    """The info state is a function of the observation: the same from the deal and from
    the observation, and the same for a deal resampled from that observation."""
    adapter = KonchinkaAdapter()
    deal = random_position(adapter, players, seed, 40)
    for seat in range(players):
        observation = deal.observe(seat)
        state = adapter.encode_info_state_deal(deal, seat)
        assert state.shape == (adapter.info_state_size(players),)
        assert np.array_equal(state, adapter.encode_info_state(observation))
        resampled = observation.sample_deal(random.Random(seed)).observe(seat)
        assert np.array_equal(state, adapter.encode_info_state(resampled))


def test_the_konchinka_information_state_lists_the_moves_in_order() -> None:
    adapter = KonchinkaAdapter()
    deal = random_position(adapter, 3, 4, 30)
    state = adapter.encode_info_state_deal(deal, 1)
    history = state[(5 + 3) * 52:].reshape(HISTORY_ROWS, 105 + 3)
    moves = deal.history
    assert moves
    for row, (seat, move) in zip(history, moves, strict=False):
        assert np.flatnonzero(row[:52]).tolist() == [move.card.index]
        assert set(np.flatnonzero(row[52:104])) == {c.index for c in move.taken}
        assert np.flatnonzero(row[104:107]).tolist() == [(seat - 1) % 3]
    assert not history[len(moves):].any()


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 5))
def test_the_kunken_information_state_holds_no_hidden_card(seed: int, players: int) -> None:
    """Another deal with the same public history and the seat's own hand and draws, the
    hidden cards (other hands, the stock, the others' draws) dealt anew, gives the same info
    state."""
    adapter = KunkenAdapter()
    deal = random_position(adapter, players, seed, 60)
    draws = drawn_cards(deal)
    for seat in range(players):
        state = adapter.encode_info_state_deal(deal, seat)
        assert state.shape == (adapter.info_state_size(players),)
        resampled = deal.observe(seat).sample_deal(random.Random(seed))
        resampled.history = list(deal.history)
        own = {i for i, (actor, _) in enumerate(history_with_seats(deal)) if actor == seat}
        resampled.drawn = [card if i in own else (card + 1) % 52
                           for i, card in sorted(draws.items())]
        assert np.array_equal(state, adapter.encode_info_state_deal(resampled, seat))


def test_kunken_observation_from_an_observation_has_no_history_and_says_so() -> None:
    adapter = KunkenAdapter()
    deal = adapter.new_deal(2, random.Random(1))
    with pytest.raises(InvalidRuleError, match="history"):
        adapter.encode_info_state(deal.observe(0))


def test_the_kunken_json_observation_has_the_rules_and_the_public_history() -> None:
    """Play starts left of the dealer and passes left after each discard (RULES.md)."""
    env = kunken_env(3, {"jokers": "2"})
    env.reset(seed=3)
    rng = random.Random(3)
    for _ in range(40):
        env.step(rng.choice(sorted(env.legal_slots())))
    data = env.observe_json("player_0")
    assert data["rules"]["jokers"] == 2
    history = data["history"]
    assert env.deal is not None
    assert [entry["action"] for entry in history] == [a.text() for a in env.deal.history]
    assert history[0]["seat"] == (data["dealer"] + 1) % 3
    for before, after in itertools.pairwise(history):
        expected = (before["seat"] + 1) % 3 if before["action"].startswith("discard") \
            else before["seat"]
        assert after["seat"] == expected
    assert all("draw" == e["action"] or not e["action"].startswith("draw") for e in history)


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_every_legal_move_text_names_its_own_slot(game: str) -> None:
    env = konchinka_env(3) if game == "konchinka" else kunken_env(3)
    rng = random.Random(7)
    for seed in range(3):
        env.reset(seed=seed)
        for _ in range(30):
            if not env.legal_slots():
                break
            for slot in env.legal_slots():
                assert env.slot_of(env.action_text(slot)) == slot
            env.step(rng.choice(sorted(env.legal_slots())))


def test_a_kunken_meld_written_in_another_order_names_the_same_slot() -> None:
    env = kunken_env(2)
    rng = random.Random(1)
    for seed in range(200):
        env.reset(seed=seed)
        for _ in range(60):
            melds = [s for s, a in env.legal_slots().items() if a.kind == "meld"]
            if melds:
                words = env.action_text(melds[0]).split()
                reordered = " ".join([words[0], *reversed(words[1:])])
                assert env.slot_of(reordered) == melds[0]
                return
            if not env.legal_slots():
                break
            env.step(rng.choice(sorted(env.legal_slots())))
    pytest.fail("no meld in 200 deals")


def test_a_move_text_that_is_not_legal_or_not_a_move_is_refused() -> None:
    env = konchinka_gym_env(2)
    env.reset(seed=1)
    assert env.deal is not None
    held = {c.text for seat in range(2) for c in env.deal.hand(seat)}
    absent = next(c for c in ("2c", "3d", "4h", "5s", "6c", "7d") if c not in held)
    with pytest.raises(IllegalMoveError, match=absent):
        env.slot_of(absent)
    with pytest.raises(InvalidNotationError):
        env.slot_of("not a move")


def test_render_modes_are_gymnasiums(capsys: pytest.CaptureFixture[str]) -> None:
    assert KonkunGymEnv.metadata["render_modes"] == ["human", "ansi"]
    silent = konchinka_gym_env(2)
    silent.reset(seed=1)
    assert silent.render() is None
    ansi = kunken_gym_env(2, render_mode="ansi")
    ansi.reset(seed=1)
    text = ansi.render()
    assert isinstance(text, str) and "hand:" in text and "legal:" in text
    assert capsys.readouterr().out == ""
    human = konchinka_gym_env(2, render_mode="human")
    human.reset(seed=1)
    assert "hand:" in capsys.readouterr().out  # printed at reset, as Gymnasium says
    assert human.render() is None
    assert "table:" in capsys.readouterr().out


def test_the_text_observation_is_the_json_on_one_line() -> None:
    env = kunken_gym_env(2)
    env.reset(seed=2)
    text = env.observe_text()
    assert "\n" not in text
    import json
    assert json.loads(text) == env.observe_json()


def test_gymnasium_make_works_without_importing_konkun_rl_first() -> None:
    code = ("import gymnasium\n"
            "env = gymnasium.make('konkun.rl:konkun/Kunken-v0', observation='flat')\n"
            "obs, info = env.reset(seed=1)\n"
            "print(obs.shape[0], int(env.unwrapped.action_masks().sum()) > 0)\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    size = int(np.prod(adapter_for("kunken").observation_shape(2)))
    assert result.stdout.split() == [str(size), "True"]


def test_a_fresh_python_makes_the_konchinka_env_and_vector_env_by_module_prefix() -> None:
    # Gymnasium 1.4 loads no entry-point plugins; its "module:EnvId" form imports the module
    code = ("import sys, gymnasium\n"
            "assert 'konkun' not in sys.modules\n"
            "env = gymnasium.make('konkun.rl:konkun/Konchinka-v0', num_players=3,\n"
            "                     observation='flat')\n"
            "obs, _ = env.reset(seed=1)\n"
            "vec = gymnasium.make_vec('konkun.rl:konkun/Konchinka-v0', num_envs=2,\n"
            "                         vectorization_mode='vector_entry_point')\n"
            "batch, _ = vec.reset(seed=1)\n"
            "print(obs.shape[0], batch.shape[0], batch.shape[1])\n")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                            check=True)
    adapter = adapter_for("konchinka")
    assert result.stdout.split() == [str(int(np.prod(adapter.observation_shape(3)))), "2",
                                     str(int(np.prod(adapter.observation_shape(2))))]


def test_the_package_declares_the_gymnasium_entry_point() -> None:
    from importlib.metadata import entry_points

    points = {p.name: p.value for p in entry_points(group="gymnasium.envs")}
    assert points.get("konkun") == "konkun.rl.envs:register_gymnasium"


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_stable_baselines_checker_passes_the_flat_observation_without_warnings(
        game: str) -> None:
    """No "unconventional shape" advice, no mask in the observation (needs the train
    extra)."""
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sb3_checker.check_env(GYM_ENVS[game](2, observation="flat"))
    assert [str(w.message) for w in caught] == []


def test_an_adapter_option_passes_through_gymnasium_make_and_the_generic_makers() -> None:
    """``capture_slots`` reaches the adapter by name, as the named constructors take it."""
    import gymnasium

    import konkun.rl  # noqa: F401  (registers the ids)
    from konkun.rl.envs import make_env, make_self_play_vector_env

    assert gymnasium.make("konkun/Konchinka-v0", capture_slots=64).action_space.n == 52 * 64
    vec = gymnasium.make_vec("konkun/Konchinka-v0", num_envs=2, capture_slots=3,
                             vectorization_mode="vector_entry_point")
    assert vec.single_action_space.n == 52 * 3
    assert make_env("konchinka", 2, capture_slots=4).adapter.action_size == 52 * 4
    assert make_self_play_vector_env("konchinka", 2, capture_slots=5).adapter.action_size \
        == 52 * 5
