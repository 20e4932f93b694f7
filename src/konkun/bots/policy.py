"""Game knowledge for search: how to play out a sampled world fast, which actions are
worth searching, and how to score a position.

:class:`SearchPolicy` is the generic default (random play-outs to the end of the deal);
each game gives a subclass (``konchinka_greedy``, ``kunken_greedy``) with greedy-ish
play-outs. A policy works on **sampled** deals (determinizations drawn from a seat's
observation), never on the real one.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from typing import Any, Generic, TypeVar

from konkun.errors import InvalidRuleError
from konkun.game import Deal, Observation, get_game

A = TypeVar("A", bound=Hashable)


class SearchPolicy(Generic[A]):
    """Random play-outs, every legal action searched, rewards from the deal's points."""

    max_rollout_moves: int | None = None
    """Stop a play-out after this many moves and :meth:`evaluate` (``None``: play to the
    end of the deal)."""

    loss_marks: tuple[float, float, float] = (0.3, 0.7, 1.5)
    """The expected points a move loses against the best from which the post-game
    analysis (:mod:`konkun.bots.analysis`) marks it an inaccuracy, a mistake, a blunder:
    the game's scale of points."""

    def rollout_action(self, deal: Deal[A], legal: Sequence[A], rng: random.Random) -> A:
        """The move to play in a play-out (default: uniformly random)."""
        return uniform_choice(legal, rng)

    def decide(self, observation: Observation[A], legal: list[A],
               rng: random.Random) -> A | None:
        """An action to play without search (a routine step the game's heuristics settle),
        or ``None`` to search (the default)."""
        return None

    def priors(self, observation: Observation[A], legal: list[A],
               rng: random.Random) -> dict[A, float] | None:
        """How promising each root action looks before any search, in [0, 1] (default:
        no opinion). The search tries them in this order and adds a bias that fades as
        the action is visited."""
        return None

    def exact_values(self, observation: Observation[A],
                     rng: random.Random) -> dict[A, float] | None:
        """Every legal action's exact expected points, when the game solves the position
        outright (the analysis then samples nothing); default: ``None``, it never does."""
        return None

    def tree_actions(self, deal: Deal[A]) -> list[A]:
        """The actions the tree considers below the root in a sampled deal (default: every
        legal action). A game may return a cheaper, smaller set of legal actions."""
        return deal.legal_actions()

    def play_out(self, deal: Deal[A], rng: random.Random) -> list[float]:
        """Play the sampled ``deal`` on (it may be changed) and return each seat's points:
        :meth:`rollout_action` moves up to :attr:`max_rollout_moves`, then
        :meth:`evaluate`. Games override this with a faster loop. Uniformly random moves
        to the end are played by the deal itself when it has a ``play_randomly(rng)``
        (Kunken's, one compiled loop: the same moves)."""
        limit = self.max_rollout_moves
        play_randomly = getattr(deal, "play_randomly", None)
        if limit is None and play_randomly is not None and \
                type(self).rollout_action is SearchPolicy.rollout_action:
            play_randomly(rng)
            return [float(p) for p in deal.points()]
        moves = 0
        while not deal.is_over():
            if limit is not None and moves >= limit:
                return self.evaluate(deal)
            deal.push(self.rollout_action(deal, deal.legal_actions(), rng))
            moves += 1
        return [float(p) for p in deal.points()]

    def evaluate(self, deal: Deal[A]) -> list[float]:
        """Each seat's expected points where a play-out stops (default: the points now)."""
        return [float(p) for p in deal.points()]

    def rewards(self, points: Sequence[float]) -> list[float]:
        """Each seat's reward: its points minus the mean of the others' points, so the
        search is zero-sum for two players and fair among more."""
        n = len(points)
        if n == 1:
            return [float(points[0])]
        total = float(sum(points))
        return [p - (total - p) / (n - 1) for p in points]


def uniform_choice(legal: Sequence[A], rng: random.Random) -> A:
    """One of ``legal`` (not empty) uniformly at random. ``int(random() * n)`` is below ``n``
    for every float ``random()`` below 1, and costs one C call where ``randrange`` runs
    Python code: play-outs draw one per move."""
    return legal[int(rng.random() * len(legal))]


def pick_best(legal: Sequence[A], scores: Sequence[float], rng: random.Random) -> A:
    """The legal action with the best score, ties (within 1e-9) broken by ``rng``."""
    top = max(scores)
    best = [action for action, score in zip(legal, scores, strict=True) if score >= top - 1e-9]
    return best[rng.randrange(len(best))]


def scaled_priors(legal: Sequence[A], scores: Sequence[float]) -> dict[A, float] | None:
    """Each legal action's score scaled to [0, 1] (``None`` when all score the same): a
    greedy bot's scores as search priors."""
    low, high = min(scores), max(scores)
    if high - low < 1e-9:
        return None
    return {action: (score - low) / (high - low)
            for action, score in zip(legal, scores, strict=True)}


def policy_for(game: str) -> SearchPolicy[Any]:
    """A new search policy for ``game``: its descriptor's ``policy`` add-on (a
    :class:`SearchPolicy` class), or the generic one for a game without its own."""
    try:
        descriptor = get_game(game)
    except InvalidRuleError:
        return SearchPolicy()
    try:
        policy_class = descriptor.addon("policy")
    except ModuleNotFoundError as error:
        target = str(descriptor.addons.get("policy", ""))
        if error.name is not None and target.partition(":")[0].startswith(error.name):
            return SearchPolicy()  # that game's knowledge is not installed
        raise
    if policy_class is None:
        return SearchPolicy()
    policy: SearchPolicy[Any] = policy_class()
    return policy
