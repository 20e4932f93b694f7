"""Evaluate an agent that acts through the RL action space against the bots in the arena.

An RL policy sees the observation tensor and the action mask of ``konkun.rl`` and answers
a slot of the fixed action space. :class:`SlotPolicyBot` turns such a policy into a
konkun bot (``choose(observation, legal, rng, budget)``), registered under a bot name, so
the arena plays it against ``random``, ``greedy`` or ``ismcts`` with duplicate deals and
reports win rates, points per deal with confidence intervals and Elo.

The policy here is a stand-in for a trained network: it takes the capture that takes the
most cards (slot ``j = 1`` of a card's block in Konchinka), else trails its lowest card;
in Kunken it melds (the most valuable meld first), lays off, swaps, takes as much of the
bank as it may, else draws, and discards its highest card. Replace
:func:`example_policy` with your own (``tensor, mask -> slot``).

Run::

    .venv/bin/python examples/evaluate_agent.py --game konchinka --opponent greedy --games 200
    .venv/bin/python examples/evaluate_agent.py --game kunken --players 3 --games 30
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from konkun.arena import ArenaConfig, run_arena
from konkun.bots.base import Budget
from konkun.bots.specs import BotSpec, register_bot
from konkun.game import Observation
from konkun.rl.adapter import mask_of
from konkun.rl.envs import adapter_for

SlotPolicy = Callable[[npt.NDArray[np.float32], npt.NDArray[np.int8], random.Random], int]


def example_policy(game: str, adapter: Any) -> SlotPolicy:
    """A hand-written policy over the action space (stands in for a trained one)."""

    def konchinka(tensor: npt.NDArray[np.float32], mask: npt.NDArray[np.int8],
                  rng: random.Random) -> int:
        legal = np.flatnonzero(mask)
        k = adapter.capture_slots
        best_captures = [int(a) for a in legal if a % k == 1]
        if best_captures:  # j = 1: the capture of that card taking the most cards
            return min(best_captures, key=lambda a: (a // k) % 13)  # with the lowest rank
        return int(min(legal, key=lambda a: (a // k) % 13))  # trail the lowest rank

    def kunken(tensor: npt.NDArray[np.float32], mask: npt.NDArray[np.int8],
               rng: random.Random) -> int:
        legal = [int(a) for a in np.flatnonzero(mask)]
        by_block: dict[str, list[int]] = {}
        for a in legal:
            by_block.setdefault(adapter.block_of(a), []).append(a)
        for block in ("meld", "layoff", "joker-layoff", "swap"):
            if block in by_block:  # the first meld slot is the one worth most
                return by_block[block][0]
        if "take" in by_block:  # the deepest take: the most cards from the bank
            return by_block["take"][-1]
        if "draw" in by_block:
            return by_block["draw"][0]
        discards = [a - adapter.discard_base for a in by_block["discard"]]
        keep_jokers = [c for c in discards if c != 52] or discards
        return adapter.discard_base + max(keep_jokers, key=lambda c: c % 13)  # highest rank

    return konchinka if game == "konchinka" else kunken


class SlotPolicyBot:
    """A konkun bot that decides through the RL observation tensor and action mask."""

    def __init__(self, adapter: Any, policy: SlotPolicy) -> None:
        self.adapter = adapter
        self.policy = policy

    def choose(self, observation: Observation[Any], legal: Sequence[Any],
               rng: random.Random, budget: Budget) -> Any:
        """Encode the observation, ask the policy for a slot, return its action."""
        slots = self.adapter.slots(observation, legal)
        mask = mask_of(slots, self.adapter.action_size)
        slot = self.policy(self.adapter.encode(observation), mask, rng)
        return slots[slot]


def register_agent(name: str, game: str, rules: dict[str, str]) -> None:
    """Register the agent as a bot kind, so arena specs can name it."""
    adapter = adapter_for(game, rules)

    def factory(game_name: str, spec: BotSpec) -> SlotPolicyBot:
        return SlotPolicyBot(adapter, example_policy(game_name, adapter))

    register_bot(name, factory, "an RL-style policy over the konkun.rl action space")


def main() -> None:
    """Play the arena and print its report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=("konchinka", "kunken"), default="konchinka")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="greedy", help="bot spec for the other seats")
    parser.add_argument("--games", type=int, default=100, help="deals to play")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    register_agent("agent", args.game, {})
    specs = ("agent", *[args.opponent] * (args.players - 1))
    config = ArenaConfig(args.game, specs, args.players, args.games, seed=args.seed)
    report = run_arena(config, backend="serial")  # a registered callable: same process
    print(report.format_table())


if __name__ == "__main__":
    main()
