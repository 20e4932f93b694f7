"""The example script evaluates an RL-style agent against the bots in the arena."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from konkun.arena import ArenaConfig, run_arena
from konkun.bots import specs

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "evaluate_agent.py"


def _example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("evaluate_agent", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


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
    spec = importlib.util.spec_from_file_location("train_ppo", TRAIN)
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    monkeypatch.setenv("KONKUN_POLICIES", "")
    model = example.train("kunken", 2, ["random"], 256, seed=1, n_envs=1)
    out = tmp_path / "model.zip"
    example.save(model, out, "kunken", 2)
    table = example.evaluate(out, "kunken", 2, "random", 2, seed=1)
    assert f"policy:{out}" in table
