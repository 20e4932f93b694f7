"""Train a MaskablePPO agent against the bot ladder, save it, and evaluate it in the arena.

Needs the ``train`` extra (``sb3-contrib``, ``torch``)::

    .venv/bin/pip install -e '.[rl,train]'

The agent plays on the fast path: ``konkun.rl.sb3.vec_env``, an SB3 ``VecEnv`` over the
batch environment (``--num-envs`` deals stepped in one call), with the flat observation,
the masks given to MaskablePPO through ``env_method("action_masks")``, and the zero-sum
reward, and ``MaskedMlpPolicy`` (``MlpPolicy`` with the masked distribution computed over
the legal actions only: the same probabilities, several times faster). Training climbs
the ladder: the steps are split evenly over ``--ladder`` (by default ``random`` then
``greedy``), each stage's opponents at every other seat. The model is saved as
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
from pathlib import Path
from typing import Any

from konkun.arena import ArenaConfig, run_arena

GAME_IDS = {"konchinka": "konkun/Konchinka-v0", "kunken": "konkun/Kunken-v0"}


def make_env(game: str, players: int, opponent: str, seed: int, num_envs: int,
             reward_scale: float = 1.0) -> Any:
    """The training environment: ``num_envs`` deals on the fast path, flat observation,
    zero-sum reward (times ``reward_scale``), masked actions."""
    from konkun.rl.sb3 import vec_env

    env = vec_env(GAME_IDS[game], num_envs, num_players=players, opponents=opponent,
                  reward="zero_sum", reward_scale=reward_scale)
    env.seed(seed)
    return env


def train(game: str, players: int, ladder: list[str], steps: int, seed: int,
          num_envs: int = 64, n_steps: int = 64, batch_size: int = 1024,
          n_epochs: int = 4, reward_scale: float = 1.0) -> Any:
    """A MaskablePPO model trained ``steps`` agent steps, climbing ``ladder``."""
    import torch
    from sb3_contrib import MaskablePPO

    from konkun.rl.sb3 import MaskedMlpPolicy

    torch.set_num_threads(1)  # the machine is shared: one core
    model: Any = None
    per_stage = max(1, steps // len(ladder))
    for stage, opponent in enumerate(ladder):
        envs = make_env(game, players, opponent, seed + 1000 * stage, num_envs, reward_scale)
        if model is None:
            model = MaskablePPO(MaskedMlpPolicy, envs, n_steps=n_steps, batch_size=batch_size,
                                n_epochs=n_epochs, learning_rate=3e-4, gamma=0.99,
                                ent_coef=0.01, seed=seed, verbose=0, device="cpu")
        else:
            model.set_env(envs)
        started, cpu = time.perf_counter(), time.process_time()
        before = model.num_timesteps
        model.learn(per_stage, reset_num_timesteps=False)
        done = model.num_timesteps - before
        print(f"stage {stage + 1}/{len(ladder)}: {done} steps against {opponent} "
              f"({done / (time.perf_counter() - started):,.0f} agent steps/s, "
              f"{done / (time.process_time() - cpu):,.0f} per CPU second)", flush=True)
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
    parser.add_argument("--game", choices=sorted(GAME_IDS), default="konchinka")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--steps", type=int, default=50_000, help="agent steps to train")
    parser.add_argument("--ladder", default="random,greedy",
                        help="opponents in training order (bot specs, comma-separated)")
    parser.add_argument("--out", type=Path, default=None, help="model file (.zip)")
    parser.add_argument("--eval-opponent", default="greedy")
    parser.add_argument("--eval-games", type=int, default=400, help="arena deals")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--num-envs", type=int, default=64, help="deals stepped together")
    parser.add_argument("--n-steps", type=int, default=64, help="rollout steps per deal")
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--reward-scale", type=float, default=None,
                        help="multiplies every deal's reward (default 1; Kunken 0.01)")
    args = parser.parse_args()
    out = (args.out or Path(f"ppo-{args.game}-{args.steps}.zip")).resolve()
    scale = args.reward_scale or (0.01 if args.game == "kunken" else 1.0)
    model = train(args.game, args.players, args.ladder.split(","), args.steps, args.seed,
                  args.num_envs, args.n_steps, args.batch_size, args.epochs, scale)
    save(model, out, args.game, args.players)
    print(f"saved {out}")
    print(evaluate(out, args.game, args.players, args.eval_opponent, args.eval_games,
                   args.seed))


if __name__ == "__main__":
    main()
