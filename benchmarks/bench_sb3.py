"""MaskablePPO's agent steps per CPU second in training: SB3's ``DummyVecEnv`` of single
Gymnasium environments (the old documented route) against :func:`konkun.rl.sb3.vec_env`
(the fast batch environment), interleaved in one run.

Run: ``.venv/bin/python benchmarks/bench_sb3.py [--game konchinka] [--steps 16384]
[--rounds 3] [--num-envs 64]``. Needs the ``train`` extra. Each round trains a fresh model
``--steps`` agent steps on each route, torch on one thread, against random opponents, and
prints agent steps per CPU second of this process (rollouts and gradient steps together) and
the ratio. Two settings of PPO are timed:

- ``same``: the hyperparameters of the old example on both routes (a rollout of 1,024 steps,
  minibatches of 256, 10 epochs), so the ratio is what the environment alone changes;
- ``fast``: ``examples/train_ppo.py``'s defaults on the fast path (64 deals, a rollout of
  64 steps per deal, minibatches of 1,024, 4 epochs) against the old example's on the old
  route: what a user of the examples sees;
- ``collect``: rollouts only (the policy's masked action for every environment, then a
  step), no gradient steps: the part of training the environment changes.

The fast path's rows are timed twice: with sb3-contrib's ``MlpPolicy`` and with
:class:`konkun.rl.sb3.MaskedMlpPolicy` (the same networks and probabilities, the masked
distribution computed over the legal actions only). Every row is ``MaskablePPO`` with the
same learning rate and entropy coefficient; the ``same`` rows do the old route's gradient
work per sample (10 epochs, minibatches of 256), the ``fast`` rows 4 epochs of 1,024.
"""

from __future__ import annotations

import argparse
import statistics
import time
from functools import partial
from typing import Any

GAMES = {"konchinka": "konkun/Konchinka-v0", "kunken": "konkun/Kunken-v0"}


def old_env(game: str, seed: int, n_envs: int = 4) -> Any:
    """The old route: ``DummyVecEnv`` of ``Monitor``-wrapped single environments."""
    from stable_baselines3.common.monitor import Monitor
    from stable_baselines3.common.vec_env import DummyVecEnv

    from konkun.rl.envs import make_gym_env

    def one(k: int) -> Any:
        env = make_gym_env(game, 2, observation="flat", reward="zero_sum")
        env.reset(seed=seed + k)
        return Monitor(env)

    return DummyVecEnv([partial(one, k) for k in range(n_envs)])


def new_env(game: str, num_envs: int) -> Any:
    """The fast route: the SB3 ``VecEnv`` over the batch environment."""
    from konkun.rl.sb3 import vec_env

    return vec_env(GAMES[game], num_envs, reward="zero_sum")


def rate(env: Any, steps: int, policy: Any = "MlpPolicy", **ppo: Any) -> float:
    """Agent steps per CPU second of ``MaskablePPO.learn(steps)`` on ``env``."""
    from sb3_contrib import MaskablePPO

    model = MaskablePPO(policy, env, learning_rate=3e-4, ent_coef=0.01, seed=1,
                        device="cpu", verbose=0, **ppo)
    started = time.process_time()
    model.learn(steps)
    return model.num_timesteps / (time.process_time() - started)


def collect_rate(env: Any, steps: int, policy: Any = "MlpPolicy") -> float:
    """Agent steps per CPU second of rollouts alone: a fresh policy's masked actions,
    then a step of every environment, ``steps`` agent steps in all."""
    from sb3_contrib import MaskablePPO
    from sb3_contrib.common.maskable.utils import get_action_masks

    model = MaskablePPO(policy, env, seed=1, device="cpu", n_steps=64, batch_size=64)
    observations = env.reset()
    done = 0
    started = time.process_time()
    while done < steps:
        actions, _ = model.predict(observations, action_masks=get_action_masks(env))
        observations, _, _, _ = env.step(actions)
        done += env.num_envs
    return done / (time.process_time() - started)


def main() -> None:
    """Time both routes in interleaved rounds; print rates and ratios."""
    import torch

    from konkun.rl.sb3 import MaskedMlpPolicy

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(GAMES), default="konchinka")
    parser.add_argument("--steps", type=int, default=16_384)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--num-envs", type=int, default=64)
    args = parser.parse_args()
    torch.set_num_threads(1)
    old_ppo = {"n_steps": 256, "batch_size": 256, "n_epochs": 10}
    same_ppo = {"n_steps": max(1, 1024 // args.num_envs), "batch_size": 256, "n_epochs": 10}
    fast_ppo = {"n_steps": 64, "batch_size": 1024, "n_epochs": 4}
    figures: dict[str, list[float]] = {}
    for number in range(args.rounds):
        runs = {
            "old route, old PPO settings": lambda n=number: rate(old_env(args.game, n),
                                                        args.steps, **old_ppo),
            "fast path, same PPO settings": lambda: rate(new_env(args.game, args.num_envs),
                                                         args.steps, **same_ppo),
            "fast path, example's settings": lambda: rate(new_env(args.game, args.num_envs),
                                                          args.steps, **fast_ppo),
            "fast path + MaskedMlpPolicy, same PPO settings": lambda: rate(
                new_env(args.game, args.num_envs), args.steps, MaskedMlpPolicy, **same_ppo),
            "fast path + MaskedMlpPolicy, example's settings": lambda: rate(
                new_env(args.game, args.num_envs), args.steps, MaskedMlpPolicy, **fast_ppo),
            "old route, rollouts only": lambda n=number: collect_rate(
                old_env(args.game, n), args.steps),
            "fast path, rollouts only": lambda: collect_rate(
                new_env(args.game, args.num_envs), args.steps),
            "fast path + MaskedMlpPolicy, rollouts only": lambda: collect_rate(
                new_env(args.game, args.num_envs), args.steps, MaskedMlpPolicy),
        }
        for name, run in runs.items():
            value = run()
            figures.setdefault(name, []).append(value)
            print(f"round {number + 1}: {name}: {value:,.0f} agent steps per CPU second",
                  flush=True)
    print(f"\n{args.game}, medians of {args.rounds} rounds, {args.steps} steps each:")
    for name, values in figures.items():
        base_name = ("old route, rollouts only" if "rollouts" in name
                     else "old route, old PPO settings")
        median = statistics.median(values)
        ratio = median / statistics.median(figures[base_name])
        print(f"  {name}: {median:,.0f} agent steps per CPU second ({ratio:.1f}x)")


if __name__ == "__main__":
    main()
