"""Tensor policies over (tensor, mask): as the environments' opponents, as bots named by
the ``policy:`` spec in the arena and the lobby, and refused unless the process allows
them."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from konkun.arena import ArenaConfig, run_arena
from konkun.bots.specs import BotSpec, InvalidBotSpecError, parse_spec_list
from konkun.errors import IllegalMoveError, InvalidRuleError
from konkun.rl.envs import konchinka_gym_env, kunken_gym_env
from konkun.rl.policies import TensorPolicy

TARGET = "rl_checks:first_legal_slot"


@pytest.fixture
def allow(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONKUN_POLICIES", f"other:thing, {TARGET}")


def test_a_policy_spec_keeps_its_target_whole() -> None:
    spec = BotSpec.parse(f" Policy : {TARGET} ")
    assert spec.kind == "policy"
    assert str(spec) == f"policy:{TARGET}"
    assert BotSpec.parse(str(spec)) == spec
    assert [str(s) for s in parse_spec_list(f"greedy,policy:{TARGET}")] == [
        "greedy", f"policy:{TARGET}"]


def test_a_policy_is_refused_unless_the_process_allows_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("KONKUN_POLICIES", raising=False)
    with pytest.raises(InvalidBotSpecError, match="KONKUN_POLICIES"):
        BotSpec.parse(f"policy:{TARGET}").create("konchinka")
    monkeypatch.setenv("KONKUN_POLICIES", "*")
    BotSpec.parse(f"policy:{TARGET}").create("konchinka")


def test_a_bad_policy_target_is_named_in_the_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KONKUN_POLICIES", "*")
    for target, message in (("no_such_module_x:f", "no_such_module_x"),
                            ("rl_checks:no_such_name", "no_such_name"),
                            ("missing/model.zip", "no such file"),
                            ("plainword", "module:callable")):
        with pytest.raises(InvalidBotSpecError, match=message):
            BotSpec.parse(f"policy:{target}").create("kunken")


@pytest.mark.usefixtures("allow")
@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_the_arena_plays_a_tensor_policy_named_by_its_spec(game: str) -> None:
    config = ArenaConfig(game, (f"policy:{TARGET}", "greedy"), 2, 4, seed=2)
    report = run_arena(config, backend="serial")
    games = {bot.name: bot.games for bot in report.bots()}
    assert games == {f"policy:{TARGET}": 4, "greedy": 4}


@pytest.mark.usefixtures("allow")
def test_the_lobby_accepts_an_allowed_policy_and_refuses_others(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from konkun.server.core.botseats import check_bot_spec
    from konkun.server.core.protocol import ProtocolError

    assert check_bot_spec(f"policy:{TARGET}", "kunken", 1.0) == f"policy:{TARGET}"
    with pytest.raises(ProtocolError, match="not allowed"):
        check_bot_spec("policy:os:getcwd", "kunken", 1.0)


@pytest.mark.parametrize("game", ["konchinka", "kunken"])
def test_a_tensor_policy_opponent_sees_its_own_tensor_and_mask(game: str) -> None:
    seen: list[tuple[tuple[int, ...], int]] = []

    def lowest(tensor: Any, mask: Any) -> int:
        seen.append((tensor.shape, int(mask.sum())))
        return int(np.flatnonzero(mask)[0])

    make = konchinka_gym_env if game == "konchinka" else kunken_gym_env
    env = make(3, opponents=TensorPolicy(lowest))
    shape = env.adapter.observation_shape(3)
    env.reset(seed=1)
    for _ in range(5):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert seen
    assert all(s == shape and legal >= 1 for s, legal in seen)


@pytest.mark.usefixtures("allow")
def test_a_policy_spec_can_play_the_other_seats() -> None:
    env = kunken_gym_env(2, opponents=f"policy:{TARGET}")
    env.reset(seed=3)
    _, _, _, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert "illegal_action" not in info


def test_a_tensor_policy_answering_outside_the_mask_is_an_illegal_move() -> None:
    env = konchinka_gym_env(2, seat=1, opponents=TensorPolicy(lambda t, m: -5, name="bad"))

    def play_a_round() -> None:  # the bad policy acts in reset or in the first step
        env.reset(seed=1)
        env.step(int(np.flatnonzero(env.action_masks())[0]))

    with pytest.raises(IllegalMoveError, match="bad"):
        play_a_round()


def test_an_info_state_policy_sees_the_information_state() -> None:
    sizes: set[int] = set()

    def lowest(tensor: Any, mask: Any) -> int:
        sizes.add(tensor.size)
        return int(np.flatnonzero(mask)[0])

    env = konchinka_gym_env(2, opponents=TensorPolicy(lowest, view="info_state"))
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert sizes == {env.adapter.info_state_size(2)}


def test_a_tensor_policy_with_an_unknown_view_is_refused() -> None:
    with pytest.raises(InvalidRuleError, match="view"):
        TensorPolicy(lambda t, m: 0, view="pixels")
