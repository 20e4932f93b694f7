"""Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling, Powley and
Whitehouse 2012), generic over any game that implements :mod:`konkun.game`.

Each iteration samples a world consistent with everything the seat has seen
(:meth:`Observation.sample_deal`: the engine deals the unseen cards at random into the
other hands and the stock, keeping every card that was captured, melded, taken or
counted where it is), then walks one shared tree:

- selection by UCB1 among the actions *available in this world*, with availability
  counts in place of the parent's visit count (so an action that is rarely legal is
  not starved);
- expansion of one untried action;
- a play-out by the game's :class:`~konkun.bots.policy.SearchPolicy` (greedy-ish for
  Konchinka and Kunken), to the end of the deal or a depth limit and an evaluation;
- back-propagation of every seat's reward: its points minus the others' mean, so each
  node is valued from the point of view of the seat that chose it. Rewards are
  normalised by the range seen so far in the search, so the exploration constant does
  not depend on the game's scale.

The chosen move is the most visited root action. The bot is reproducible: it draws every
random choice from the random source it is given, and with an iteration budget its
choice depends on nothing else.
"""

from __future__ import annotations

import math
import random
from collections.abc import Hashable, Sequence
from typing import Any, Generic, TypeVar

from konkun.bots.base import Budget
from konkun.bots.policy import SearchPolicy, policy_for
from konkun.bots.specs import (
    BotSpec,
    check_options,
    float_param,
    int_param,
    spec_error,
)
from konkun.game import Observation

A = TypeVar("A", bound=Hashable)

DEFAULT_BUDGET = Budget(iterations=1000)
"""The budget of ``ismcts`` when its spec sets none."""


class _Node:
    """A tree node: the statistics of the action that leads to it."""

    __slots__ = ("avail", "children", "seat", "total", "visits")

    def __init__(self, seat: int) -> None:
        self.seat = seat          # the seat that chose the action leading here
        self.visits = 0
        self.avail = 1
        self.total = 0.0          # the sum of that seat's rewards
        self.children: dict[Any, _Node] = {}


class IsmctsBot(Generic[A]):
    """Single-observer information-set MCTS (see the module documentation)."""

    def __init__(self, policy: SearchPolicy[A] | None = None, exploration: float = 0.7,
                 default_budget: Budget = DEFAULT_BUDGET, bias: float = 1.0,
                 width: int | None = None, flat: bool = False, guard: float = 1.0,
                 early: bool = False) -> None:
        self.policy: SearchPolicy[A] = policy or SearchPolicy()
        self.exploration = exploration
        self.bias = bias
        self.width = width
        self.flat = flat
        self.guard = guard
        self.early = early
        self.default_budget = default_budget
        self.last_iterations = 0
        self.total_iterations = 0
        self.total_seconds = 0.0
        self.searches = 0

    def __repr__(self) -> str:
        return (f"IsmctsBot({type(self.policy).__name__}, exploration={self.exploration}, "
                f"default_budget={self.default_budget!r})")

    def choose(self, observation: Observation[A], legal: Sequence[A],
               rng: random.Random, budget: Budget) -> A:
        """Search ``budget`` (or the default budget) and return the most visited action."""
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        decided = self.policy.decide(observation, list(legal), rng)
        if decided is not None:
            self.last_iterations = 0
            return decided
        if self.flat:
            return self.flat_choice(observation, legal, rng,
                                    budget.or_default(self.default_budget))
        root = self.search(observation, legal, rng, budget.or_default(self.default_budget))
        return max(legal, key=lambda a: (root.children[a].visits, root.children[a].total)
                   if a in root.children else (-1, 0.0))

    def search(self, observation: Observation[A], legal: Sequence[A],
               rng: random.Random, budget: Budget) -> _Node:
        """Run the search and return the root (its children hold each action's counts)."""
        root = _Node(observation.seat)
        bounds = [math.inf, -math.inf]
        clock = budget.clock()
        root_legal = list(legal)
        priors = self.policy.priors(observation, root_legal, rng) if self.bias or self.width \
            else None
        if priors:
            ranking = priors
            root_legal.sort(key=lambda a: -ranking.get(a, 0.0))
            if self.width is not None:
                root_legal = root_legal[:self.width]
            if not self.bias:
                priors = None
        early = self.early and len(root_legal) > 1
        while True:
            self._iterate(root, root_legal, observation, rng, bounds, priors)
            if not clock.tick():
                break
            if early and not clock.iterations % EARLY_CHECK and decided(root, clock.remaining()):
                break
        self.last_iterations = clock.iterations
        self.total_iterations += clock.iterations
        self.total_seconds += clock.elapsed
        self.searches += 1
        return root

    def candidates(self, observation: Observation[A], legal: Sequence[A],
                   rng: random.Random) -> list[A]:
        """The root actions searched, the game's favourite first: ``legal`` ordered by
        the policy's priors and cut to :attr:`width` (all of it, in order, without
        priors)."""
        ordered = list(legal)
        priors = self.policy.priors(observation, ordered, rng)
        if priors:
            ordered.sort(key=lambda a: -priors.get(a, 0.0))
        return ordered if self.width is None else ordered[:self.width]

    def flat_rewards(self, observation: Observation[A], candidates: Sequence[A],
                     rng: random.Random, budget: Budget) -> list[list[float]]:
        """Paired play-outs: per sampled world, every candidate played in a copy of it and
        played out with the same random choices (common random numbers, so the luck of
        the world and of the play-out cancels in the difference of two candidates).
        Returns, per world, each candidate's reward for the seat."""
        seat = observation.seat
        policy = self.policy
        clock = budget.clock()
        worlds: list[list[float]] = []
        while True:
            world = observation.sample_deal(rng)
            seed = rng.getrandbits(64)
            row = []
            for action in candidates:
                deal = world.copy()
                deal.push(action)
                row.append(policy.rewards(policy.play_out(deal, random.Random(seed)))[seat])
            worlds.append(row)
            if not clock.tick():
                break
        self.last_iterations = len(worlds) * len(candidates)
        self.total_iterations += self.last_iterations
        self.total_seconds += clock.elapsed
        self.searches += 1
        return worlds

    def flat_choice(self, observation: Observation[A], legal: Sequence[A],
                    rng: random.Random, budget: Budget) -> A:
        """The flat search's move: the game's favourite (the first candidate) unless
        another's mean paired advantage over it is above :attr:`guard` standard errors;
        then the one with the largest advantage."""
        candidates = self.candidates(observation, legal, rng)
        if len(candidates) == 1:
            self.last_iterations = 0
            return candidates[0]
        worlds = self.flat_rewards(observation, candidates, rng, budget)
        return candidates[guarded_best(worlds, self.guard)]

    def _iterate(self, root: _Node, root_legal: list[A], observation: Observation[A],
                 rng: random.Random, bounds: list[float],
                 priors: dict[A, float] | None) -> None:
        policy = self.policy
        deal = observation.sample_deal(rng)
        node = root
        path = [root]
        while not deal.is_over():
            seat = deal.to_move
            assert seat is not None
            at_root = node is root
            legal = root_legal if at_root else policy.tree_actions(deal)
            children = node.children
            untried = []
            tried = []
            for action in legal:
                child = children.get(action)
                if child is None:
                    untried.append(action)
                else:
                    child.avail += 1
                    tried.append((action, child))
            if untried:
                # at the root, untried actions in prior order (root_legal is sorted)
                action = untried[0] if at_root and priors else \
                    untried[rng.randrange(len(untried))]
                node = children[action] = _Node(seat)
                deal.push(action)
                path.append(node)
                break
            action, node = self._select(tried, bounds, priors if at_root else None)
            deal.push(action)
            path.append(node)
        rewards = policy.rewards(policy.play_out(deal, rng))
        lo, hi = bounds
        for reward in rewards:
            lo = min(lo, reward)
            hi = max(hi, reward)
        bounds[0], bounds[1] = lo, hi
        for visited in path:
            visited.visits += 1
            visited.total += rewards[visited.seat]

    def _select(self, tried: list[tuple[A, _Node]], bounds: list[float],
                priors: dict[A, float] | None) -> tuple[A, _Node]:
        """The ``(action, child)`` of ``tried`` with the best UCB1 score (plus the fading
        prior bias at the root); the first of equals."""
        lo, hi = bounds
        scale = 1.0 / (hi - lo) if hi > lo else 0.0
        c = self.exploration
        bias = self.bias
        best_score = -math.inf
        best = tried[0]
        for action, child in tried:
            visits = child.visits
            score = ((child.total / visits - lo) * scale
                     + c * math.sqrt(math.log(child.avail) / visits))
            if priors is not None:
                score += bias * priors.get(action, 0.0) / (visits + 1)
            if score > best_score:
                best_score = score
                best = (action, child)
        return best


EARLY_CHECK = 32
"""With ``early``, the search checks every this many iterations whether its choice is made."""


def decided(root: _Node, remaining: float) -> bool:
    """Whether the most visited root action stays the most visited whatever the
    ``remaining`` iterations do: it leads the next one by more than that."""
    first = second = 0
    for child in root.children.values():
        visits = child.visits
        if visits > first:
            first, second = visits, first
        elif visits > second:
            second = visits
    return first - second > remaining


def guarded_best(worlds: Sequence[Sequence[float]], guard: float) -> int:
    """The index of the candidate to play given each world's rewards (a row per world, a
    column per candidate): 0 unless some candidate's mean advantage over candidate 0 is
    more than ``guard`` standard errors above 0, else the one with the largest mean
    advantage among those."""
    n = len(worlds)
    if n < 2:
        return 0
    best, best_mean = 0, 0.0
    for k in range(1, len(worlds[0])):
        diffs = [row[k] - row[0] for row in worlds]
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean > guard * math.sqrt(variance / n) and mean > best_mean:
            best, best_mean = k, mean
    return best


_OPTIONS = {
    "c": "the UCB exploration constant (default 0.7)",
    "bias": "weight of the game's move priors at the root, fading with visits (default 1)",
    "width": "search only the WIDTH best root moves by the priors (default: all)",
    "rollout": "play-outs: 'policy' (the game's, default) or 'random'",
    "root": "'tree' (ISMCTS, default) or 'flat' (paired play-outs of the root moves)",
    "early": "tree: 1 to stop once the most visited move can no longer be overtaken "
             "(the same choice, sooner; default 0)",
    "guard": "flat: leave the game's favourite move only for one this many standard "
             "errors better (default 1)",
}


def make_ismcts_bot(game: str, spec: BotSpec) -> IsmctsBot[Any]:
    """The ``ismcts`` spec's factory: ``ismcts[:iters=N][:time=S][:c=X][:rollout=random]``."""
    options = check_options(spec, _OPTIONS)
    settings: dict[str, Any] = {}  # IsmctsBot's defaults for the options not given
    if "c" in options:
        settings["exploration"] = float_param(spec, "c", options["c"], minimum=0.0)
    rollout = options.get("rollout", "policy")
    if rollout not in ("policy", "random"):
        raise spec_error(spec, f"rollout must be 'policy' or 'random', got {rollout!r}")
    if "bias" in options:
        settings["bias"] = float_param(spec, "bias", options["bias"], minimum=0.0)
    if "width" in options:
        settings["width"] = int_param(spec, "width", options["width"], minimum=1)
    root = options.get("root", "tree")
    if root not in ("tree", "flat"):
        raise spec_error(spec, f"root must be 'tree' or 'flat', got {root!r}")
    settings["flat"] = root == "flat"
    if "guard" in options:
        if root != "flat":
            raise spec_error(spec, "guard belongs to root=flat")
        settings["guard"] = float_param(spec, "guard", options["guard"], minimum=0.0)
    if "early" in options:
        early = options["early"]
        if early not in ("0", "1"):
            raise spec_error(spec, f"early must be 0 or 1, got {early!r}")
        if root == "flat":
            raise spec_error(spec, "early belongs to root=tree")
        settings["early"] = early == "1"
    policy: SearchPolicy[Any] = policy_for(game) if rollout == "policy" else SearchPolicy()
    return IsmctsBot(policy, **settings)
