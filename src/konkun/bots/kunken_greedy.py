"""Kunken knowledge for the bots: the ``greedy`` bot and the search policy of ``ismcts``.

Cards are the engine's integers (``suit * 13 + position``, position 0 = 2 .. 12 = Ace;
52 = the joker) and hands its count vectors (:mod:`konkun.kunken.solver`).

The greedy bot, by phase of the turn (RULES.md, Кункен):
- **start** — take the bank whenever the engine allows it (it only allows takes the turn
  can complete: the taken card melded with two held cards, 50 points for an opening):
  melds are laid down only on a take and laid cards are what scores; among takes, the one
  that lays the most points, fewer dead cards breaking ties;
- **after a take** — lay the most valuable arrangement of the hand into melds (the solver's
  best arrangement, keeping a card to discard), lay off every card that fits a meld on
  the table (each scores for us and leaves the hand), and swap jokers back into hand;
- **discard** — keep the melds and near-melds (pairs, two of a sequence), throw high dead
  cards, never a joker, and discard safely: not a card that fits what the next player took
  from the bank (they hold it) or that extends a meld on the table.

The search policy plays a few turns ahead with a cheaper version of the same rules, then
scores every seat as points laid minus cards in hand plus part of the worth of the melds
still in hand.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from konkun.bots.base import Budget
from konkun.bots.policy import pick_best
from konkun.game import Observation
from konkun.kunken.melds import BARE_JOKER, VALUE, slot_value
from konkun.kunken.solver import best_arrangement, max_meld_points, meld_points
from konkun.kunken.state import START, TAKEN


def neighbours(card: int, counts: Sequence[int]) -> float:
    """How many cards of ``counts`` could share a meld with ``card``: the same rank in
    another suit, or the same suit one or two steps away (circularly), jokers too."""
    if card == BARE_JOKER:
        return 0.0
    suit, position = divmod(card, 13)
    found = float(counts[BARE_JOKER])
    for other_suit in range(4):
        if other_suit != suit and counts[other_suit * 13 + position]:
            found += 1
    for step in (-2, -1, 1, 2):
        if counts[suit * 13 + (position + step) % 13]:
            found += 1.0 if abs(step) == 1 else 0.5
    return found


def quick_meldable(counts: Sequence[int], values: Sequence[int]) -> int:
    """A fast under-estimate of the points a hand holds in melds: sets of three or four
    suits and runs of three or more in a suit (each card once), jokers joining a pair."""
    used = [False] * 52
    for position in range(13):
        suits = [s for s in range(4) if counts[s * 13 + position]]
        if len(suits) >= 3:
            for s in suits:
                used[s * 13 + position] = True
    for suit in range(4):
        base = suit * 13
        present = [counts[base + p] > 0 for p in range(13)]
        if all(present):
            for p in range(13):
                used[base + p] = True
            continue
        start = next(p for p in range(13) if not present[p])
        run: list[int] = []
        for step in range(1, 14):
            p = (start + step) % 13
            if present[p]:
                run.append(p)
            else:
                if len(run) >= 3:
                    for q in run:
                        used[base + q] = True
                run = []
    total = sum(values[k] for k in range(52) if used[k])
    jokers = counts[BARE_JOKER]
    if jokers:
        pairs = sum(1 for k in range(52) if counts[k] and not used[k]
                    and neighbours(k, counts) >= 1)
        total += min(jokers, pairs) * 25
    return total


def hand_value(counts: Sequence[int], values: Sequence[int]) -> int:
    """The points of a hand's cards (a joker 10)."""
    return sum(values[k] * n for k, n in enumerate(counts) if n)


SOLVER_LIMIT: Final = 18
"""Hands larger than this are judged by :func:`quick_meldable`: the exact solver's search
grows too fast with the hand (a take of a long bank can bring dozens of cards)."""


def meld_points_estimate(counts: Sequence[int], values: Sequence[int]) -> int:
    """The most points the hand can lay keeping a card (the exact solver), or the quick
    estimate for a hand above :data:`SOLVER_LIMIT` cards."""
    if sum(counts) > SOLVER_LIMIT:
        return quick_meldable(counts, values)
    return max(max_meld_points(counts, True), 0)


def _table_fits(card: int, melds: Sequence[Any]) -> bool:
    return any(meld.layoff_slots(card) for meld in melds)


def laid_points(melds: Sequence[Any], num_seats: int) -> list[int]:
    """Per seat, the points of the table cards it laid (melds and lay-offs)."""
    laid = [0] * num_seats
    for meld in melds:
        for slot, seat in zip(meld.slots, meld.laid_by, strict=True):
            laid[seat] += slot_value(slot)
    return laid


class KunkenGreedy:
    """The greedy Kunken bot (see the module documentation)."""

    def __init__(self, dead_weight: float = 0.2, size_weight: float = 5.0,
                 keep: int = 8) -> None:
        self.values = VALUE
        self.dead_weight = dead_weight
        self.size_weight = size_weight
        self.keep = keep

    def __repr__(self) -> str:
        return (f"KunkenGreedy(dead_weight={self.dead_weight}, size_weight={self.size_weight},"
                f" keep={self.keep})")

    def choose(self, observation: Observation[Any], legal: Sequence[Any],
               rng: random.Random, budget: Budget) -> Any:
        """The greedy action for the phase of the turn."""
        if len(legal) == 1:
            return legal[0]  # without drawing from rng, unlike pick_best
        return pick_best(legal, self.scores(observation, legal), rng)

    def scores(self, observation: Observation[Any], legal: Sequence[Any]) -> list[float]:
        """A score per legal action (higher is better)."""
        view: Any = observation
        if view.phase == START:
            return self._start_scores(view, legal)
        if view.phase == TAKEN:
            return self._taken_scores(view, legal)
        return self._discard_scores(view, legal)

    def keep_now(self, view: Any) -> int:
        """The cards to keep in hand after laying down, now (here always :attr:`keep`)."""
        return self.keep

    # ------------------------------------------------------------------ start

    def _start_scores(self, view: Any, legal: Sequence[Any]) -> list[float]:
        hand = view.hand
        values = self.values
        scores = []
        for action in legal:
            if action.kind != "take":
                scores.append(0.0)
                continue
            after = list(hand)
            for card in view.bank[action.target:]:
                after[card] += 1
            laid = meld_points_estimate(after, values)
            dead = hand_value(after, values) - laid
            brought = len(view.bank) - action.target
            # laying down is what scores: take when the turn can be completed, the take
            # that lays the most and brings the most cards; but not a take that leaves
            # too few cards to take the bank again (the taken card's meld uses two held
            # cards and the turn ends with a discard), unless the hand goes out
            left = sum(hand) + brought - 3 - (0 if view.layout[view.seat] else 3) - 1
            if 0 < left < self.keep_now(view):
                scores.append(-50.0 + laid)
                continue
            scores.append(100.0 + laid - self.dead_weight * dead + self.size_weight * brought)
        return scores

    # ------------------------------------------------------------------ after a take

    def _taken_scores(self, view: Any, legal: Sequence[Any]) -> list[float]:
        hand = view.hand
        size = sum(hand)
        met = not view.pending and view.need <= 0
        planned = best_arrangement(hand, True) if size <= SOLVER_LIMIT else []
        planned_keys = {tuple(sorted(m)) for m in planned}
        going_out = met and self._going_out_pays(view, planned)
        keep = self.keep_now(view)
        discards = [a for a in legal if a.kind == "discard"]
        discard_scores = dict(zip(discards, self._discard_scores(view, discards),
                                  strict=True)) if discards else {}
        scores = []
        for action in legal:
            kind = action.kind
            if kind == "discard":
                scores.append(discard_scores[action] - 1000.0)
                continue
            used = len(action.slots) if kind in ("meld", "layoff") else 0
            # keep three cards (pairs to take the bank with) unless going out pays
            keeps_hand = size - used >= keep or going_out or not met
            if kind == "meld":
                bonus = 1000.0 if tuple(sorted(action.slots)) in planned_keys else 500.0
                score = bonus + meld_points(action.slots)
            elif kind == "layoff":
                score = 300.0 + self.values[min(action.slots[0], BARE_JOKER)]
            else:  # swap: a joker back in hand builds the next meld
                score = 200.0
            scores.append(score if keeps_hand else -3000.0 + score)
        return scores

    def _going_out_pays(self, view: Any, planned: Sequence[Sequence[int]]) -> bool:
        """Whether laying everything and going out now leaves us ahead: our laid points
        (and what we lay now) against each other seat's laid points minus its hand."""
        rest = list(view.hand)
        for meld in planned:
            for slot in meld:
                rest[min(slot, BARE_JOKER)] -= 1
        if sum(rest) > 2:  # lay-offs might still empty it; do not count on it
            return False
        laid = laid_points(view.melds, view.num_seats)
        mine: int = laid[view.seat] + sum(meld_points(m) for m in planned)
        others: list[int] = [laid[s] - 7 * view.hand_sizes[s]
                             for s in range(view.num_seats) if s != view.seat]
        return mine > max(others) + 10

    # ------------------------------------------------------------------ discard

    def _discard_scores(self, view: Any, legal: Sequence[Any]) -> list[float]:
        hand = view.hand
        values = self.values
        following = (view.seat + 1) % view.num_seats
        their_taken = view.taken[following]
        cheap = []
        for action in legal:
            if action.kind != "discard":
                cheap.append(-5000.0)
                continue
            card = action.slots[0]
            if card == BARE_JOKER:
                cheap.append(-1000.0)
                continue
            rest = list(hand)
            rest[card] -= 1
            score = 0.4 * values[card] - 3.0 * neighbours(card, rest)
            if rest[card]:
                score -= 2.0  # a pair of the same card: one may find its meld
            danger = neighbours(card, their_taken) if any(their_taken) else 0
            score -= 6.0 * danger
            if _table_fits(card, view.melds):
                score -= 2.0
            cheap.append(score)
        ranked = sorted(range(len(legal)), key=lambda i: -cheap[i])[:5]
        scores = [c - 100.0 for c in cheap]
        for i in ranked:
            action = legal[i]
            if action.kind != "discard" or action.slots[0] == BARE_JOKER:
                continue
            rest = list(hand)
            rest[action.slots[0]] -= 1
            scores[i] = cheap[i] + meld_points_estimate(rest, values)
        return scores
