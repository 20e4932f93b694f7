"""Environment steps per second, and thousands of games by random agents without error.

Run: ``.venv/bin/python benchmarks/bench_rl.py [--games N] [--kunken-games M] [--seconds
S] [--num-envs E] [--only GAME] [--vector-only] [--engine] [--split R]``. For each game
and player count it plays N (Kunken: M) deals in the PettingZoo AEC environment with
uniformly random actions drawn from the mask, then steps the Gymnasium environment (random
agent against random bots) for S seconds, and prints steps per second and the number of
games completed. Then, for 2 players, it steps the single Gymnasium environment and the
vector environment (E deals) side by side for S seconds each, a random masked agent
against random opponents, and prints agent steps per CPU second of this process (one core;
the agent's sampling from the masks is counted in), and the self-play vector env (every
seat's move an agent step, no opponents). With ``--engine`` it also plays the
same kind of deals on the engine alone (random legal actions, no environment) and prints
the share of that speed the vector env reaches: how much the environment layer costs. With
``--split R`` (Kunken) it times the engine's calls inside R steps of the vector env and
prints the engine's share of the CPU time and the environment layer's microseconds per
agent step.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np

from konkun.rl.envs import (
    adapter_for,
    konchinka_env,
    konchinka_gym_env,
    konchinka_vector_env,
    kunken_env,
    kunken_gym_env,
    kunken_vector_env,
    make_self_play_vector_env,
)

ENVS: dict[str, tuple[Callable[..., Any], Callable[..., Any], tuple[int, ...]]] = {
    "konchinka": (konchinka_env, konchinka_gym_env, (2, 3, 4)),
    "kunken": (kunken_env, kunken_gym_env, (2, 3, 4, 5)),
}


def run_aec(make: Callable[..., Any], players: int, games: int, seed: int) -> tuple[int, float]:
    """Play ``games`` deals with random agents; return (steps, seconds)."""
    env = make(players)
    rng = random.Random(seed)
    steps = 0
    started = time.perf_counter()
    for number in range(games):
        env.reset(seed=seed + number)
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            assert legal.size, f"no legal action for {agent}"
            env.step(int(legal[rng.randrange(legal.size)]))
            steps += 1
    return steps, time.perf_counter() - started


def run_gym(make: Callable[..., Any], players: int, seconds: float,
            seed: int) -> tuple[int, int, float]:
    """Step the single-agent env for ``seconds``; return (steps, episodes, seconds)."""
    env = make(players)
    rng = random.Random(seed)
    steps = episodes = 0
    observation, _ = env.reset(seed=seed)
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, done, truncated, _ = env.step(int(legal[rng.randrange(legal.size)]))
        steps += 1
        if done or truncated:
            episodes += 1
            observation, _ = env.reset(seed=seed + episodes)
    return steps, episodes, time.perf_counter() - started


VECTORS: dict[str, Callable[..., Any]] = {"konchinka": konchinka_vector_env,
                                           "kunken": kunken_vector_env}
SELF_PLAY: dict[str, Callable[..., Any]] = {
    name: partial(make_self_play_vector_env, name) for name in VECTORS}


def sample_masked(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> Any:
    """One uniformly random legal slot per row of ``masks`` (the legal slots are found
    eight at a time: the mask's nonzero 64-bit words first, then their set bytes)."""
    rows, width = masks.shape
    if width % 8:
        flat = np.flatnonzero(masks)
    else:
        words = np.flatnonzero(masks.reshape(-1).view(np.uint64))
        within = np.flatnonzero(masks.reshape(-1, 8)[words])
        flat = words[within >> 3] * 8 + (within & 7)
    counts = np.bincount(flat // width, minlength=rows)
    starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
    picks = starts + (rng.random(rows) * counts).astype(np.int64)
    return flat[picks] - np.arange(rows) * width


def single_cpu_rate(make: Callable[..., Any], seconds: float, seed: int) -> tuple[int, float]:
    """Agent steps of the single env (2 players, random agent) per CPU second."""
    env = make(2, observation="flat")
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        legal = np.flatnonzero(env.action_masks())
        _, _, done, truncated, _ = env.step(int(legal[rng.randrange(legal.size)]))
        steps += 1
        if done or truncated:
            env.reset()
    return steps, steps / (time.process_time() - started)


def vector_cpu_rate(make: Callable[..., Any], num_envs: int, seconds: float,
                    seed: int) -> tuple[int, int, float]:
    """(agent steps, deals finished, agent steps per CPU second) of the vector env."""
    env = make(num_envs, 2)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    steps = deals = 0
    started = time.process_time()
    while time.process_time() - started < seconds:
        _, _, terminated, _, _ = env.step(sample_masked(env.action_masks(), rng))
        steps += num_envs
        deals += int(terminated.sum())
    return steps, deals, steps / (time.process_time() - started)


def engine_cpu_rate(name: str, num_envs: int, steps: int, seed: int) -> float:
    """Agent steps per CPU second of the vector env's play without the environment, for
    ``steps`` agent steps: ``num_envs`` engine deals (2 players, dealt as the vector env
    deals them from ``seed``) side by side, the agent (seat 0) and its opponent each
    playing a uniformly random action of the engine's ``legal_actions``; no tensors,
    masks or slots. The vector env's ceiling with a free environment layer."""
    adapter = adapter_for(name)
    rngs = [random.Random(seed + i) for i in range(num_envs)]
    deals = [adapter.new_deal(2, rng) for rng in rngs]

    def play_others(i: int) -> None:
        deal, rng = deals[i], rngs[i]
        while True:
            while deal.to_move == 1:
                legal = deal.legal_actions()
                deal.push(legal[rng.randrange(len(legal))])
            if deal.to_move is not None:
                return
            deal = deals[i] = adapter.new_deal(2, rng)

    for i in range(num_envs):
        play_others(i)
    started = time.process_time()
    for _ in range(steps // num_envs):
        for i in range(num_envs):
            deal = deals[i]
            legal = deal.legal_actions()
            deal.push(legal[rngs[i].randrange(len(legal))])
            play_others(i)
    return steps // num_envs * num_envs / (time.process_time() - started)


def engine_split(name: str, num_envs: int, rounds: int, seed: int) -> tuple[float, float, float]:
    """(the engine's share of the CPU time, the rest's and the whole's microseconds per
    agent step) of ``rounds`` steps of the vector env (2 players, random agent and
    opponents): every engine ``legal_actions`` and ``push`` and every ``new_deal`` timed
    with the process's CPU clock, the timer's own cost (measured) taken off. The rest is
    the environment layer: tensors, masks, slots, the step loop, autoreset, sampling."""
    env = VECTORS[name](num_envs, 2)
    adapter = env.adapter
    deal_type = type(adapter.new_deal(2, random.Random(seed)))
    clock = time.process_time
    spent = [0.0, 0]
    legal, push, new_deal = deal_type.legal_actions, deal_type.push, adapter.new_deal

    def timed(function: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            started = clock()
            result = function(*args)
            spent[0] += clock() - started
            spent[1] += 1
            return result
        return call

    cost = _timer_cost(timed)
    rng = np.random.default_rng(seed)
    deal_type.legal_actions, deal_type.push = timed(legal), timed(push)
    adapter.new_deal = timed(new_deal)
    try:
        env.reset(seed=seed)
        spent[:] = [0.0, 0]
        started = clock()
        for _ in range(rounds):
            env.step(sample_masked(env.action_masks(), rng))
        total = clock() - started - cost * spent[1]
    finally:
        deal_type.legal_actions, deal_type.push = legal, push
        del adapter.new_deal
    engine = spent[0] - cost * spent[1] / 2
    steps = rounds * num_envs
    return engine / total, 1e6 * (total - engine) / steps, 1e6 * total / steps


def _timer_cost(timed: Callable[..., Any]) -> float:
    """Seconds one :func:`engine_split` timer adds to a call (measured on a no-op)."""
    def nothing(value: int) -> None:
        return None

    wrapped = timed(nothing)
    count = 100_000
    started = time.process_time()
    for value in range(count):
        wrapped(value)
    with_timer = time.process_time() - started
    started = time.process_time()
    for value in range(count):
        nothing(value)
    return max(0.0, (with_timer - (time.process_time() - started)) / count)


def compare_vector(name: str, seconds: float, num_envs: int, engine: bool = False) -> None:
    """Print the single and the vector environment's agent steps per CPU second (and with
    ``engine`` the same play on the engine alone)."""
    _, single = single_cpu_rate(ENVS[name][1], seconds, 1)
    steps, deals, vector = vector_cpu_rate(VECTORS[name], num_envs, seconds, 1)
    print(f"{name} 2 players, agent steps per CPU second: single Gym env {single:,.0f}; "
          f"vector env ({num_envs} deals) {vector:,.0f} ({steps} steps, {deals} deals) "
          f"= {vector / single:.1f}x")
    steps, deals, both = vector_cpu_rate(SELF_PLAY[name], num_envs, seconds, 1)
    print(f"{name} 2 players, self-play vector env ({num_envs} deals, every seat's move an "
          f"agent step): {both:,.0f} agent steps per CPU second ({steps} steps, {deals} deals)")
    if engine:
        alone = engine_cpu_rate(name, num_envs, steps, 1)
        print(f"{name} 2 players, the same {steps} agent steps on the engine alone (no "
              f"tensors, masks or slots): {alone:,.0f} per CPU second; the vector env "
              f"reaches {vector / alone:.0%} of it")


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000,
                        help="Konchinka deals per player count")
    parser.add_argument("--kunken-games", type=int, default=250,
                        help="Kunken deals per player count (a Kunken deal is ~5x longer)")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds of gym stepping")
    parser.add_argument("--only", choices=sorted(ENVS), default=None)
    parser.add_argument("--num-envs", type=int, default=256, help="deals in the vector env")
    parser.add_argument("--vector-only", action="store_true",
                        help="only the single-versus-vector comparison")
    parser.add_argument("--engine", action="store_true",
                        help="also play the vector env's deals on the engine alone")
    parser.add_argument("--split", type=int, default=0, metavar="ROUNDS",
                        help="Kunken only: time the engine's calls inside ROUNDS vector steps "
                             "and print its share and the environment layer's cost")
    args = parser.parse_args()
    total = 0
    for name, (aec, gym, sizes) in ENVS.items():
        if args.only and name != args.only:
            continue
        compare_vector(name, args.seconds, args.num_envs, args.engine)
        if args.split and name == "kunken":
            share, layer, whole = engine_split(name, args.num_envs, args.split, 1)
            print(f"{name} vector env, {args.split} steps of {args.num_envs} deals: the engine "
                  f"(legal_actions, push, new_deal) {share:.1%} of the CPU time; the "
                  f"environment layer {layer:.1f} us of {whole:.1f} us per agent step")
        if args.vector_only:
            continue
        games = args.kunken_games if name == "kunken" else args.games
        for players in sizes:
            steps, elapsed = run_aec(aec, players, games, 1000 * players)
            total += games
            print(f"{name} AEC {players} players: {games} random deals, {steps} steps "
                  f"in {elapsed:.1f} s = {steps / elapsed:,.0f} steps/s")
            steps, episodes, elapsed = run_gym(gym, players, args.seconds, players)
            print(f"{name} Gym {players} players (random bots): {steps} agent steps, "
                  f"{episodes} deals in {elapsed:.1f} s = {steps / elapsed:,.0f} steps/s")
    if not args.vector_only:
        print(f"random games completed without error: {total}")


if __name__ == "__main__":
    main()
