"""Train a MaskablePPO agent against the bot ladder, save it, and evaluate it in the arena.

Needs the ``train`` extra (``sb3-contrib``, ``torch``)::

    .venv/bin/pip install -e '.[rl,train]'

The agent plays the Gymnasium environment with the flat observation (the mask kept
apart, given to MaskablePPO through ``action_masks()``) and the zero-sum reward. Training
climbs the ladder: the steps are split evenly over ``--ladder`` (by default ``random``
then ``greedy``), each stage's opponents at every other seat. The model is saved as
``--out`` (a ``.zip``) with ``.json`` beside it (game, view, seats), so the bot spec
``policy:<out>`` plays it anywhere a bot plays (arena, lobby, the environments'
opponents), once ``KONKUN_POLICIES`` allows it. The evaluation is an arena run in duplicate
deals against ``--eval-opponent``.

Run::

    .venv/bin/python examples/train_ppo.py --game konchinka --steps 50000 --out ppo-konchinka.zip
    .venv/bin/python examples/train_ppo.py --game kunken --steps 20000 --eval-games 100
"""

from __future__ import annotations

import argparse
import json
import os
import time
from functools import partial
from pathlib import Path
from typing import Any

from konkun.arena import ArenaConfig, run_arena
from konkun.rl.envs import konchinka_gym_env, kunken_gym_env

MAKERS = {"konchinka": konchinka_gym_env, "kunken": kunken_gym_env}


def make_env(game: str, players: int, opponent: str, seed: int) -> Any:
    """The training environment: flat observation, zero-sum reward, masked actions."""
    from stable_baselines3.common.monitor import Monitor

    env = MAKERS[game](players, opponents=opponent, observation="flat", reward="zero_sum")
    env.reset(seed=seed)
    return Monitor(env)


def train(game: str, players: int, ladder: list[str], steps: int, seed: int,
          n_envs: int = 4) -> Any:
    """A MaskablePPO model trained ``steps`` agent steps, climbing ``ladder``."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    torch.set_num_threads(1)  # the machine is shared: one core
    model: Any = None
    per_stage = max(1, steps // len(ladder))
    for stage, opponent in enumerate(ladder):
        envs = DummyVecEnv([
            partial(make_env, game, players, opponent, seed + 1000 * stage + k)
            for k in range(n_envs)])
        if model is None:
            model = MaskablePPO("MlpPolicy", envs, n_steps=256, batch_size=256,
                                learning_rate=3e-4, gamma=0.99, ent_coef=0.01,
                                seed=seed, verbose=0, device="cpu")
        else:
            model.set_env(envs)
        started = time.perf_counter()
        model.learn(per_stage, reset_num_timesteps=False)
        rate = per_stage / (time.perf_counter() - started)
        print(f"stage {stage + 1}/{len(ladder)}: {per_stage} steps against {opponent} "
              f"({rate:,.0f} steps/s)", flush=True)
    return model


def save(model: Any, out: Path, game: str, players: int) -> None:
    """Save the model and its ``.json`` description beside it."""
    model.save(str(out))
    out.with_suffix(".json").write_text(json.dumps(
        {"game": game, "view": "flat", "num_players": players, "capture_slots": None}))


def evaluate(out: Path, game: str, players: int, opponent: str, games: int,
             seed: int) -> str:
    """The arena report of ``policy:<out>`` against ``opponent`` in duplicate deals."""
    os.environ["KONKUN_POLICIES"] = str(out)  # this process trusts its own model
    specs = (f"policy:{out}", *[opponent] * (players - 1))
    config = ArenaConfig(game, specs, players, games, seed=seed)
    return run_arena(config, backend="serial").format_table()


def main() -> None:
    """Train, save, evaluate, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(MAKERS), default="konchinka")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=50_000, help="agent steps to train")
    parser.add_argument("--ladder", default="random,greedy",
                        help="opponents in training order (bot specs, comma-separated)")
    parser.add_argument("--out", type=Path, default=None, help="model file (.zip)")
    parser.add_argument("--eval-opponent", default="greedy")
    parser.add_argument("--eval-games", type=int, default=400, help="arena deals")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    out = (args.out or Path(f"ppo-{args.game}-{args.steps}.zip")).resolve()
    model = train(args.game, args.players, args.ladder.split(","), args.steps, args.seed)
    save(model, out, args.game, args.players)
    print(f"saved {out}")
    print(evaluate(out, args.game, args.players, args.eval_opponent, args.eval_games,
                   args.seed))


if __name__ == "__main__":
    main()
