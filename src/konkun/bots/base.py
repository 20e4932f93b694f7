"""The one bot interface both games share, and the referee that feeds it.

A bot is anything with :meth:`Bot.choose`: it receives **one seat's observation**, that
seat's legal actions (a tuple), a random source and a :class:`Budget`, and returns one of
the legal actions. It never receives a :class:`~konkun.game.Deal`: the only code that turns a
deal into a bot's input is :meth:`Agent.act`, which passes ``deal.observe(seat)`` and the
observation's own legal actions, so a bot cannot see another seat's hand or the stock
order by construction (``tests/bots/test_bots_base.py`` checks that the object graph a bot
receives does not reach the deal).

>>> from konkun.bots import Budget
>>> Budget(iterations=2000)
Budget(iterations=2000, seconds=None)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar, runtime_checkable

from konkun.errors import GameOverError, IllegalMoveError, InvalidRuleError
from konkun.game import Deal, Observation

A = TypeVar("A", bound=Hashable)


@dataclass(frozen=True, slots=True, repr=False)
class Budget:
    """How much thinking a bot may do for one move: search iterations, seconds, both
    (whichever runs out first) or neither (the bot's own default).

    ``cpu``: the seconds are the thinking thread's CPU time, not the wall clock. On an
    idle core the two are the same; on a shared machine a CPU-time budget still buys
    the same search (the arena's measurements use it), while a wall-clock budget buys
    less the busier the machine is. A player waits in wall-clock time, so the lobby's
    bots keep the wall clock.
    """

    iterations: int | None = None
    seconds: float | None = None
    cpu: bool = False

    def __repr__(self) -> str:
        cpu = ", cpu=True" if self.cpu else ""
        return f"Budget(iterations={self.iterations!r}, seconds={self.seconds!r}{cpu})"

    def __post_init__(self) -> None:
        if self.iterations is not None and (
                isinstance(self.iterations, bool) or self.iterations < 1):
            raise InvalidRuleError(f"invalid iteration budget {self.iterations!r}: "
                                   "expected a positive integer")
        if self.seconds is not None and not self.seconds > 0:
            raise InvalidRuleError(f"invalid time budget {self.seconds!r}: "
                                   "expected a positive number of seconds")

    @property
    def is_set(self) -> bool:
        """True when either limit is given."""
        return self.iterations is not None or self.seconds is not None

    def or_default(self, default: Budget) -> Budget:
        """This budget, or ``default`` when neither limit is set."""
        return self if self.is_set else default

    def clock(self) -> BudgetClock:
        """A clock that starts now and says when this budget is spent."""
        return BudgetClock(self)


class BudgetClock:
    """Counts iterations and time against a :class:`Budget` (see :meth:`Budget.clock`):
    wall-clock time, or the thread's CPU time for a ``cpu`` budget."""

    __slots__ = ("_deadline", "_limit", "_now", "iterations", "started")

    def __init__(self, budget: Budget) -> None:
        self._now = time.thread_time if budget.cpu else time.perf_counter
        self.started = self._now()
        self.iterations = 0
        self._limit = budget.iterations
        self._deadline = None if budget.seconds is None else self.started + budget.seconds

    def tick(self) -> bool:
        """Count one iteration; return True while the budget allows another one. With a
        time limit, another iteration is allowed only if one more of the average length
        so far still ends before the deadline, so the limit is kept, not overrun."""
        self.iterations += 1
        if self._limit is not None and self.iterations >= self._limit:
            return False
        if self._deadline is None:
            return True
        now = self._now()
        average = (now - self.started) / self.iterations
        return now + average < self._deadline

    def remaining(self) -> float:
        """About how many more iterations the budget allows: the iteration limit's rest,
        or the time left over the average iteration so far, whichever is smaller."""
        left = math.inf if self._limit is None else float(self._limit - self.iterations)
        if self._deadline is not None and self.iterations:
            now = self._now()
            average = (now - self.started) / self.iterations
            if average > 0:
                left = min(left, (self._deadline - now) / average)
        return left

    @property
    def elapsed(self) -> float:
        """Seconds since the clock started (CPU seconds for a ``cpu`` budget)."""
        return self._now() - self.started


@runtime_checkable
class Bot(Protocol[A]):
    """A computer player. It sees one seat's observation and nothing else."""

    def choose(self, observation: Observation[A], legal: Sequence[A],
               rng: random.Random, budget: Budget) -> A:
        """Return one of ``legal`` (never empty) for the seat of ``observation``."""
        ...


class Agent(Generic[A]):
    """A bot seated at a table with its budget and its own random source: the referee's
    side of the interface. :meth:`act` is the only bridge from a deal to a bot."""

    __slots__ = ("bot", "budget", "name", "rng")

    def __init__(self, bot: Bot[A], budget: Budget, rng: random.Random,
                 name: str = "bot") -> None:
        self.bot = bot
        self.budget = budget
        self.rng = rng
        self.name = name

    def act(self, deal: Deal[A]) -> A:
        """Ask the bot for the move of the seat to act in ``deal``.

        The bot receives ``deal.observe(seat)`` and that observation's legal actions,
        never ``deal``; an answer that is not a legal action raises
        :class:`~konkun.errors.IllegalMoveError`.
        """
        seat = deal.to_move
        if seat is None:
            raise GameOverError("the deal is over: no seat is to act")
        observation = deal.observe(seat)
        legal = tuple(observation.legal_actions())
        if not legal:
            raise IllegalMoveError(f"seat {seat} is to act but has no legal action")
        action = self.bot.choose(observation, legal, self.rng, self.budget)
        if action not in legal:
            raise IllegalMoveError(
                f"bot {self.name!r} at seat {seat} chose {action!r}, "
                "which is not a legal action")
        return action

    def __repr__(self) -> str:
        return f"Agent({self.name!r}, {self.budget!r})"


def play_out(deal: Deal[A], agents: Sequence[Agent[A]]) -> list[int]:
    """Play ``deal`` to its end, each seat's moves chosen by ``agents[seat]``, and return
    the deal's points."""
    if len(agents) != deal.num_seats:
        raise InvalidRuleError(
            f"{len(agents)} agents for a deal of {deal.num_seats} seats")
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        deal.push(agents[seat].act(deal))  # act() has checked the action is legal
    return deal.points()
