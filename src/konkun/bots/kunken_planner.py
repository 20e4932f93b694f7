"""The Kunken ``greedy`` bot that plays to go out (:class:`KunkenPlanner`).

A Kunken deal ends when a player goes out, and every card still in a hand then counts
against it (RULES.md, Кункен: Going out, Score of a deal). The first greedy bot
(:class:`~konkun.bots.kunken_greedy.KunkenGreedy`, spec ``greedy:v=1``) collects the bank
and keeps eight cards in hand, so it rarely goes out and the deals run until the stock
is spent. This one plans each turn towards the end of the deal:

- **a turn plan** (:func:`turn_plan`): for a hand, the solver's most valuable
  arrangement keeping a card, then every lay-off of the rest onto the table's melds and
  the ones just planned; what stays is the hand after the turn. A take *goes out* when
  at most one card stays (it is the discard);
- **going out whenever it can**: a deal that goes on is a chance for the others to take
  the bank and lay down more, and measured against the first greedy bot going out even
  when behind paid (docs/bots.md). With :attr:`KunkenPlanner.margin` set it goes out only
  when our points then (doubled for an express) beat each other seat's laid points minus
  its hand's expected worth (its known taken cards, the mean of the unseen cards for the
  rest; doubled for an express) by more than the margin;
- **the risk of being caught**: when the stock is about to run out for good, it keeps
  no cards back and lays down what it can (each card laid scores, each kept card counts
  against it); optionally also while an opponent could go out soon (a layout and at most
  :attr:`KunkenPlanner.threat` cards; off by default: keeping cards to take the bank
  paid more than laying them down early);
- **takes that bring it closer**: besides the first bot's score (points laid, cards
  brought, the few dead cards), a take is worth the dead points it removes from the
  hand, and the one that goes out wins outright;
- the discard keeps the hand closest to a complete arrangement (the first bot's rule).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from konkun.bots.kunken_greedy import (
    SOLVER_LIMIT,
    KunkenGreedy,
    hand_value,
    laid_points,
    meld_points_estimate,
)
from konkun.kunken.melds import BARE_JOKER, VALUE, TableMeld
from konkun.kunken.solver import Meld, best_arrangement, meld_points
from konkun.kunken.state import TAKEN


class TurnPlan:
    """What a hand can lay down in one turn: the melds, the lay-offs (card, meld index;
    indices past the table's melds are the planned melds), their points and what stays."""

    __slots__ = ("layoffs", "melds", "points", "rest")

    def __init__(self, melds: list[Meld], layoffs: list[tuple[int, int]], points: int,
                 rest: list[int]) -> None:
        self.melds = melds
        self.layoffs = layoffs
        self.points = points
        self.rest = rest

    @property
    def left(self) -> int:
        """The cards in hand after the turn's melds and lay-offs (the discard among them)."""
        return sum(self.rest)

    @property
    def goes_out(self) -> bool:
        """Whether the turn can end by discarding the last card."""
        return self.left <= 1


def turn_plan(hand: Sequence[int], table: Sequence[TableMeld], seat: int) -> TurnPlan | None:
    """The most a hand can lay down this turn (see the module documentation), or
    ``None`` for a hand above :data:`~konkun.bots.kunken_greedy.SOLVER_LIMIT` cards."""
    if sum(hand) > SOLVER_LIMIT:
        return None
    melds = best_arrangement(hand, True)
    rest = list(hand)
    for meld in melds:
        for slot in meld:
            rest[min(slot, BARE_JOKER)] -= 1
    targets = [m.copy() for m in table] + [TableMeld(seat, m) for m in melds]
    points = sum(meld_points(m) for m in melds)
    layoffs: list[tuple[int, int]] = []
    placed = True
    while placed and sum(rest) > 1:
        placed = False
        for card in range(53):
            if not rest[card]:
                continue
            for index, target in enumerate(targets):
                slots = target.layoff_slots(card)
                if slots:
                    target.lay_off(slots[0], seat)
                    rest[card] -= 1
                    points += VALUE[card] if card < BARE_JOKER else 5  # a joker: at least 5
                    layoffs.append((card, index))
                    placed = True
                    break
            if sum(rest) <= 1:
                break
    return TurnPlan(melds, layoffs, points, rest)


class KunkenPlanner(KunkenGreedy):
    """The Kunken greedy bot that plays to go out (see the module documentation)."""

    def __init__(self, dead_weight: float = 0.2, size_weight: float = 5.0, keep: int = 8,
                 margin: float = -math.inf, threat: int = 0) -> None:
        super().__init__(dead_weight, size_weight, keep)
        self.margin = margin
        self.threat = threat

    def __repr__(self) -> str:
        return (f"KunkenPlanner(dead_weight={self.dead_weight}, "
                f"size_weight={self.size_weight}, keep={self.keep}, margin={self.margin},"
                f" threat={self.threat})")

    # ------------------------------------------------------------------ judgements

    def unseen_mean(self, view: Any) -> float:
        """The mean worth of a card this seat cannot place (a joker 10)."""
        unseen: list[int] = view.unseen()
        if not unseen:
            return 7.5
        return sum(VALUE[k] for k in unseen) / len(unseen)

    def goes_out_now(self, view: Any, plan: TurnPlan) -> bool:
        """Whether to end the deal with a plan that goes out: always, or with a finite
        :attr:`margin` when :meth:`out_margin` is above it."""
        if not plan.goes_out:
            return False
        return self.margin == -math.inf or self.out_margin(view, plan.points) > self.margin

    def out_margin(self, view: Any, laid_now: int) -> float:
        """Our points minus the best other seat's if we went out now laying ``laid_now``
        points (an express when we had no layout before this turn)."""
        laid = laid_points(view.melds, view.num_seats)
        express = not view.layout[view.seat] or (view.phase == TAKEN and view.opening)
        factor = 2 if express else 1
        mean = self.unseen_mean(view)
        mine = factor * (laid[view.seat] + laid_now)
        best_other = -1e9
        for seat in range(view.num_seats):
            if seat == view.seat:
                continue
            known = view.taken[seat]
            unknown = view.hand_sizes[seat] - sum(known)
            hand = hand_value(known, VALUE) + mean * unknown
            best_other = max(best_other, laid[seat] - factor * hand)
        return float(mine - best_other)

    def threatened(self, view: Any) -> bool:
        """Whether the deal may end before our next turn to lay down: the stock about to
        run out for good, or (with :attr:`threat` above 0) an opponent with a layout and
        at most :attr:`threat` cards."""
        rules = view.rules
        last_stock = view.renewals >= rules.max_stock_renewals or rules.empty_stock == "end"
        if last_stock and view.stock_size <= 2 * view.num_seats:
            return True
        return any(view.hand_sizes[s] <= self.threat and view.layout[s]
                   for s in range(view.num_seats) if s != view.seat)

    def keep_now(self, view: Any) -> int:
        """The cards to keep in hand: :attr:`keep`, none while threatened."""
        return 0 if self.threatened(view) else self.keep

    # ------------------------------------------------------------------ start

    def _start_scores(self, view: Any, legal: Sequence[Any]) -> list[float]:
        scores = super()._start_scores(view, legal)
        before = self._dead(view.hand)
        for i, action in enumerate(legal):
            if action.kind != "take":
                continue
            after = list(view.hand)
            for card in view.bank[action.target:]:
                after[card] += 1
            plan = turn_plan(after, view.melds, view.seat)
            if plan is None:
                continue
            if self.goes_out_now(view, plan):
                scores[i] = 10000.0 + plan.points
                continue
            # closer to a complete hand: the dead points the take and its lay-down remove
            dead_after = hand_value(plan.rest, VALUE) - meld_points_estimate(plan.rest, VALUE)
            scores[i] += 0.5 * (before - dead_after)
        return scores

    def _dead(self, hand: Sequence[int]) -> float:
        return hand_value(hand, VALUE) - meld_points_estimate(hand, VALUE)

    # ------------------------------------------------------------------ after a take

    def _going_out_pays(self, view: Any, planned: Sequence[Sequence[int]]) -> bool:
        """Whether the turn can go out (melds and lay-offs leave one card) and should
        (:meth:`goes_out_now`)."""
        plan = turn_plan(view.hand, view.melds, view.seat)
        return plan is not None and self.goes_out_now(view, plan)


__all__ = ["KunkenPlanner", "TurnPlan", "turn_plan"]
