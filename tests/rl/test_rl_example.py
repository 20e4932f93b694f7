"""The example script evaluates an RL-style agent against the bots in the arena."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from konkun.arena import ArenaConfig, run_arena
from konkun.bots import specs
from scripts import load_script

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "evaluate_agent.py"


def _example() -> ModuleType:
    return load_script("evaluate_agent", EXAMPLE)


def test_the_example_agent_plays_konchinka_against_greedy_in_the_arena(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(specs, "_REGISTRY", dict(specs._REGISTRY))  # no trace left behind
    example = _example()
    example.register_agent("rl-example-agent", "konchinka", {})
    config = ArenaConfig("konchinka", ("rl-example-agent", "greedy"), 2, 8, seed=3)
    report = run_arena(config, backend="serial")
    bots = {bot.name: bot for bot in report.bots()}
    assert bots["rl-example-agent"].games == 8
    assert bots["greedy"].games == 8


TRAIN = Path(__file__).resolve().parents[2] / "examples" / "train_ppo.py"


def test_the_ppo_example_trains_saves_and_plays_in_the_arena(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A few hundred steps only (the point is the plumbing: masks reach MaskablePPO, the
    saved model loads as a policy: spec and plays whole deals in the arena)."""
    pytest.importorskip("sb3_contrib")
    example = load_script("train_ppo", TRAIN)
    monkeypatch.setenv("KONKUN_POLICIES", "")
    model = example.train("kunken", 2, ["random"], 256, seed=1, num_envs=2,
                          n_steps=64, batch_size=64)
    out = tmp_path / "model.zip"
    example.save(model, out, "kunken", 2)
    table = example.evaluate(out, "kunken", 2, "random", 2, seed=1)
    assert f"policy:{out}" in table


def test_a_saved_model_is_refused_by_another_game_and_by_another_number_of_players(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The model's .json names its game and players: another game refuses the spec when
    the bot is made, and a seat of another number of players gets a clear error, not
    a shape error from deep inside the network."""
    pytest.importorskip("sb3_contrib")
    from konkun.bots.specs import BotSpec, InvalidBotSpecError
    from konkun.errors import InvalidRuleError
    from konkun.rl.envs import kunken_gym_env
    from konkun.rl.policy_bot import make_policy_bot

    example = load_script("train_ppo", TRAIN)
    out = tmp_path / "model.zip"
    example.save(example.train("konchinka", 2, ["random"], 64, seed=2, num_envs=2,
                               n_steps=32, batch_size=64), out,
                 "konchinka", 2)
    monkeypatch.setenv("KONKUN_POLICIES", str(out))
    with pytest.raises(InvalidBotSpecError, match="trained on konchinka, not kunken"):
        make_policy_bot("kunken", BotSpec.parse(f"policy:{out}"))
    with pytest.raises(InvalidRuleError, match="trained on konchinka, not kunken"):
        kunken_gym_env(2, opponents=f"policy:{out}")
    bot = make_policy_bot("konchinka", BotSpec.parse(f"policy:{out}"))
    config = ArenaConfig("konchinka", (f"policy:{out}", "random", "random"), 3, 1, seed=1)
    with pytest.raises(InvalidRuleError, match="trained for konchinka with 2 players, not 3"):
        run_arena(config, backend="serial")
    assert bot.policy.game == "konchinka"
