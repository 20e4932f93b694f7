"""The Kunken bots as the game's descriptor names them: the ``greedy`` bot's factory
(the planner that plays to go out, :mod:`konkun.bots.kunken_planner`, or with ``v=1`` the
first greedy bot of :mod:`konkun.bots.kunken_greedy`) and the search policy of ``ismcts``.

They live apart from both modules so that the planner can build on the first greedy bot
while the factory and the policy use both (no import cycle).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final

from konkun.bots.base import Budget
from konkun.bots.kunken_greedy import (
    KunkenGreedy,
    hand_value,
    laid_points,
    neighbours,
    quick_meldable,
)
from konkun.bots.kunken_planner import KunkenPlanner, turn_plan
from konkun.bots.policy import SearchPolicy, scaled_priors
from konkun.bots.specs import BotSpec, check_options, float_param, int_param, spec_error
from konkun.game import Deal, Observation
from konkun.kunken.actions import DRAW_ACTION, discard, take
from konkun.kunken.melds import BARE_JOKER, VALUE
from konkun.kunken.state import DRAWN, START, TAKEN


def make_greedy_bot(game: str, spec: BotSpec) -> KunkenGreedy:
    """The Kunken ``greedy``: the bot that plays to go out
    (:class:`~konkun.bots.kunken_planner.KunkenPlanner`), or with ``v=1`` the first
    greedy bot (:class:`KunkenGreedy`). Options ``dead``, ``size``, ``keep``: the weights
    of dead cards and of the number of cards in a take, and the cards kept in hand; the
    planner's ``margin`` and ``threat``."""
    options = check_options(spec, {"v": "version: 2 (plays to go out, default) or 1",
                                   "dead": "weight of dead cards a take brings (0.2)",
                                   "size": "weight of the cards a take brings (5)",
                                   "keep": "cards kept in hand unless going out pays (8)",
                                   "margin": "lead needed to go out (default: none, "
                                             "it always goes out; version 2)",
                                   "threat": "an opponent's hand this small is a threat "
                                             "(0: off; version 2)"})
    version = int_param(spec, "v", options.get("v", "2"), minimum=1)
    if version > 2:
        raise spec_error(spec, f"v must be 1 or 2, got {options['v']!r}")
    if version == 1 and ("margin" in options or "threat" in options):
        raise spec_error(spec, "margin and threat belong to version 2")
    bot = KunkenPlanner() if version == 2 else KunkenGreedy()
    if "dead" in options:
        bot.dead_weight = float_param(spec, "dead", options["dead"], minimum=0.0)
    if "size" in options:
        bot.size_weight = float_param(spec, "size", options["size"])
    if "keep" in options:
        bot.keep = int_param(spec, "keep", options["keep"], minimum=0)
    if isinstance(bot, KunkenPlanner):
        if "margin" in options:
            bot.margin = float_param(spec, "margin", options["margin"])
        if "threat" in options:
            bot.threat = int_param(spec, "threat", options["threat"], minimum=0)
    return bot


def melds_with(card: int, hand: Sequence[int]) -> bool:
    """Whether ``card`` makes a set or a sequence with two cards of ``hand`` (a joker
    standing for one of them): a quick test before the engine's."""
    if card == BARE_JOKER:
        return False
    suit, position = divmod(card, 13)
    jokers = hand[BARE_JOKER]
    suits = sum(1 for other in range(4) if other != suit and hand[other * 13 + position])
    if suits + min(jokers, 1) >= 2 and suits >= 1:
        return True
    near = [hand[suit * 13 + (position + step) % 13] > 0 for step in (-2, -1, 1, 2)]
    if (near[0] and near[1]) or (near[1] and near[2]) or (near[2] and near[3]):
        return True
    return bool(jokers) and any(near)


LADDER_SPECS: Final = {"beginner": "random", "casual": "greedy:v=1", "strong": "greedy",
                "expert": "ismcts:time=0.09:iters=130:width=3:root=flat"}
"""The bot each level of the strength ladder (:mod:`konkun.bots.ladder`) stands for in
Kunken (its descriptor's ``ladder`` add-on). The expert thinks at most 0.09 s a move (a
little under 0.1 s, leaving room for the referee's overhead) with the flat root search:
paired play-outs of the planner's three best discards in at most 130 sampled worlds,
leaving the planner's choice only for a clearly better one. More worlds did not play
better: the search then leaves the planner's move for differences its cheap play-outs
see and the game does not (docs/bots.md)."""


class KunkenPolicy(SearchPolicy[Any]):
    """Search knowledge for Kunken: the search chooses the discard after a draw; the
    greedy bot decides the start of a turn and what to lay after a take, without search
    (:meth:`decide`); play-outs of a few turns with cheap rules; then :meth:`evaluate`."""

    loss_marks = (5.0, 15.0, 30.0)
    """A Kunken card is worth 5 or 10 points: the analysis marks losses on that scale."""
    turns = 2
    """Turns a play-out covers (per seat) before it evaluates."""
    potential = 0.5
    """The share of the worth of the melds still in hand an evaluation counts."""
    dead = 0.7
    """The share of the worth of the other cards in hand an evaluation subtracts."""
    search_phases: tuple[str, ...] = (DRAWN,)
    """The phases of a turn whose decisions are searched: the discard after a draw (the
    most frequent decision, and the one the opponent's next take answers); whether to
    take the bank and what to lay down are left to the greedy rules, which did better
    than short searches in our trials."""
    rollout_takes = True
    """Whether play-outs take the bank's top card when it melds with two held cards and
    the seat has a layout (the planner's first reason to take; the engine then checks
    the take). Without it a discard that hands the next seat the bank looked as safe as
    any other, and the flat search's lead over the planner was about half as large
    (docs/bots.md)."""

    def __init__(self) -> None:
        self.values = VALUE
        self.greedy: KunkenGreedy = KunkenPlanner()

    def decide(self, observation: Observation[Any], legal: list[Any],
               rng: random.Random) -> Any | None:
        """After a take, the greedy laying of melds and lay-offs (no search)."""
        view: Any = observation
        if view.phase == TAKEN and any(a.kind != "discard" for a in legal):
            return self.greedy.choose(observation, legal, rng, Budget())
        if view.phase not in self.search_phases:
            return self.greedy.choose(observation, legal, rng, Budget())
        return None

    def priors(self, observation: Observation[Any], legal: list[Any],
               rng: random.Random) -> dict[Any, float] | None:
        """The greedy bot's scores, scaled to [0, 1]."""
        return scaled_priors(legal, self.greedy.scores(observation, legal))

    def tree_actions(self, deal: Deal[Any]) -> list[Any]:
        """Below the root: at the start of a turn, drawing or taking the bank from its top
        card (the card just discarded); after a draw, every discard; after a take, the
        cheap rule's step. (The engine's full list checks every take, which is slow; the
        take is checked only when :func:`melds_with` finds the top card a meld with two
        held cards, which halves the cost of an iteration.)"""
        state: Any = deal
        if state.phase == START:
            actions = [DRAW_ACTION]
            if state.bank and melds_with(state.bank[-1], state.hands[state.to_move]):
                top = take(len(state.bank) - 1)
                if state.is_legal(top):
                    actions.append(top)
            return actions
        if state.phase == DRAWN:
            hand = state.hands[state.to_move]
            return [discard(k) for k in range(53) if hand[k]]
        return [self.cheap_action(state, random.Random(0))]

    def play_out(self, deal: Deal[Any], rng: random.Random) -> list[float]:
        """A few turns of cheap play, then :meth:`evaluate` (the points, once over). A
        seat that can go out by taking the bank's top card does, and the deal is scored
        as it would end (:meth:`out_points`)."""
        state: Any = deal
        turns_left = self.turns * state.num_seats
        while not deal.is_over() and turns_left > 0:
            if state.phase == START and self.out_limit:
                out = self.out_points(state)
                if out is not None:
                    return out
            action = self.cheap_action(state, rng)
            if action.kind == "discard":
                turns_left -= 1
            deal.push(action)
        if deal.is_over():
            return [float(p) for p in deal.points()]
        return self.evaluate(deal)

    out_limit = 12
    """Play-outs look for a going-out take only in hands of at most this many cards
    (0: never); larger hands rarely go out and the solver's plan costs more."""

    out_dead = 30
    """Play-outs run the solver's turn plan only for hands whose cards outside the quick
    estimate's melds are worth at most this much (lay-offs may place them)."""

    def out_points(self, state: Any) -> list[float] | None:
        """The deal's points if the seat to move took the bank's top card, laid its turn
        plan and went out (``None`` when that plan does not go out or the take is not
        legal): its laid points, the others' laid points minus their hands, an express
        doubling both."""
        seat = state.to_move
        hand = state.hands[seat]
        if not state.bank or state.hand_sizes[seat] > self.out_limit \
                or not melds_with(state.bank[-1], hand):
            return None  # a take needs a meld of the top card with two held cards
        after = list(hand)
        after[state.bank[-1]] += 1
        if hand_value(after, self.values) - quick_meldable(after, self.values) > self.out_dead:
            return None  # too many loose cards to lay off: skip the solver
        plan = turn_plan(after, state.melds, seat)
        if plan is None or not plan.goes_out or not state.is_legal(take(len(state.bank) - 1)):
            return None
        factor = 1 if state.layout[seat] else 2
        laid = laid_points(state.melds, state.num_seats)
        points = []
        for other in range(state.num_seats):
            if other == seat:
                points.append(float(factor * (laid[seat] + plan.points)))
            else:
                dead = hand_value(state.hands[other], self.values)
                points.append(float(laid[other] - factor * dead))
        return points

    def cheap_action(self, state: Any, rng: random.Random) -> Any:
        """A play-out's step: at the start of a turn, take the bank's top card as
        :attr:`rollout_takes` says or draw; after a take, the most valuable meld, else a
        lay-off; else discard the least connected high card (a joker last)."""
        seat = state.to_move
        hand = state.hands[seat]
        if state.phase == START:
            if self.rollout_takes and state.bank and state.layout[seat] \
                    and melds_with(state.bank[-1], hand):
                top = take(len(state.bank) - 1)
                if state.is_legal(top):
                    return top
            return DRAW_ACTION
        if state.phase == TAKEN:
            legal = state.legal_actions()
            best = None
            best_points = -1
            for action in legal:
                if action.kind == "meld":
                    points = sum(self.values[min(s, BARE_JOKER)] for s in action.slots)
                    if points > best_points:
                        best, best_points = action, points
            if best is not None:
                return best
            for action in legal:
                if action.kind == "layoff":
                    return action
            discards = [a for a in legal if a.kind == "discard"]
            if not discards:
                return legal[rng.randrange(len(legal))]
        # discard: the least connected, highest card; never a joker if avoidable
        best_card = -1
        best_score = -1e9
        for card in range(53):
            if not hand[card]:
                continue
            if card == BARE_JOKER:
                score = -1000.0
            else:
                hand[card] -= 1
                score = 0.4 * self.values[card] - 3.0 * neighbours(card, hand) \
                    + rng.random()
                hand[card] += 1
            if score > best_score:
                best_card, best_score = card, score
        return discard(best_card)

    def evaluate(self, deal: Deal[Any]) -> list[float]:
        """Each seat: the points it has laid, plus :attr:`potential` of the melds in its
        hand, minus :attr:`dead` of its other cards (the deal goes on: cards in hand count
        against a seat only at its end, and a full hand takes the bank again)."""
        state: Any = deal
        values = self.values
        laid = laid_points(state.melds, state.num_seats)
        scores = []
        for seat in range(state.num_seats):
            hand = state.hands[seat]
            melded = quick_meldable(hand, values)
            dead = hand_value(hand, values) - melded
            scores.append(laid[seat] + self.potential * melded - self.dead * dead)
        return scores
