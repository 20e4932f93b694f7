"""Playing the arena's work: one *set* at a time.

A set is one shuffle (a deal, or a whole match's seed) played once for each seating in
it: with duplicate play, once per rotation of the bots round the table, so that every
bot holds every seat's cards and the luck of the deal cancels. A :class:`Job` describes a
set as plain data (game name, rules, spec texts, seed), never as objects, so it can be
sent to a spawned process or a Ray worker; :func:`run_job` plays it there.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from konkun.arena.games import ArenaGame, load_game
from konkun.bots.base import Agent
from konkun.bots.specs import BotSpec

Unit = Literal["deal", "match"]


def derive_seed(*parts: object) -> int:
    """A 63-bit seed derived from ``parts`` (stable across processes and machines)."""
    text = ":".join(str(part) for part in parts)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


def seatings(entries: int, seats: int, duplicate: bool, index: int) -> tuple[tuple[int, ...], ...]:
    """The seatings of set ``index``: each maps seat -> entry (the bot list's position).

    With ``duplicate``, every rotation of the entries round the table; otherwise one
    seating, rotated by the set's index so that each bot has each seat equally often.
    """
    rotations = [tuple((seat + shift) % entries for seat in range(seats))
                 for shift in range(entries)]
    if duplicate:
        return tuple(rotations)
    return (rotations[index % entries],)


@dataclass(frozen=True, slots=True)
class Job:
    """One set of games, as plain data."""

    game: str
    num_seats: int
    rules: tuple[tuple[str, str], ...]
    specs: tuple[str, ...]
    unit: Unit
    index: int
    seed: int
    seatings: tuple[tuple[int, ...], ...]
    source: str | None = None
    """Where a worker imports the game from, when the registry does not find it there."""


@dataclass(frozen=True, slots=True)
class GameResult:
    """One deal or match of a set."""

    seating: tuple[int, ...]
    points: tuple[int, ...]
    """Per seat: the deal's points, or the match's final totals."""
    winner: int | None
    """The winning seat: the match winner, or the seat with strictly the most points."""
    moves: int
    deals: int


@dataclass(frozen=True, slots=True)
class SearchStats:
    """Search effort of one entry over a set (bots without search report zeros)."""

    iterations: int = 0
    seconds: float = 0.0
    searches: int = 0
    moves: int = 0
    think_seconds: float = 0.0
    longest_think: float = 0.0


@dataclass(frozen=True, slots=True)
class JobResult:
    """A played set."""

    index: int
    seed: int
    games: tuple[GameResult, ...]
    search: tuple[SearchStats, ...]
    seconds: float


class _Tally:
    """Per-entry effort while a set is played."""

    def __init__(self, entries: int) -> None:
        self.iterations = [0] * entries
        self.seconds = [0.0] * entries
        self.searches = [0] * entries
        self.moves = [0] * entries
        self.think = [0.0] * entries
        self.longest = [0.0] * entries

    def add_bots(self, seating: tuple[int, ...], agents: Sequence[Agent[Any]]) -> None:
        """Add the search effort of a finished game's bots to their entries."""
        for entry, agent in zip(seating, agents, strict=True):
            bot = agent.bot
            self.iterations[entry] += int(getattr(bot, "total_iterations", 0))
            self.seconds[entry] += float(getattr(bot, "total_seconds", 0.0))
            self.searches[entry] += int(getattr(bot, "searches", 0))

    def stats(self) -> tuple[SearchStats, ...]:
        return tuple(SearchStats(*values) for values in zip(
            self.iterations, self.seconds, self.searches, self.moves, self.think,
            self.longest, strict=True))


def _strict_winner(points: Sequence[int]) -> int | None:
    best = max(points)
    return points.index(best) if list(points).count(best) == 1 else None


def _agents(job: Job, seating: tuple[int, ...], game_number: int) -> list[Agent[Any]]:
    specs = [BotSpec.parse(text) for text in job.specs]
    return [specs[entry].agent(job.game, random.Random(derive_seed(job.seed, game_number,
                                                                   seat)))
            for seat, entry in enumerate(seating)]


def _act(agent: Agent[Any], deal: Any, entry: int, tally: _Tally) -> Any:
    start = time.perf_counter()
    action = agent.act(deal)
    spent = time.perf_counter() - start
    tally.think[entry] += spent
    tally.longest[entry] = max(tally.longest[entry], spent)
    tally.moves[entry] += 1
    return action


def _play_deal(game: ArenaGame, job: Job, seating: tuple[int, ...], number: int,
               tally: _Tally) -> GameResult:
    rules = dict(job.rules)
    deal = game.new_deal(job.num_seats, rules, job.seed, job.index % job.num_seats)
    agents = _agents(job, seating, number)
    moves = 0
    while not deal.is_over():
        seat = deal.to_move
        assert seat is not None
        deal.push(_act(agents[seat], deal, seating[seat], tally))  # act() checked legality
        moves += 1
    tally.add_bots(seating, agents)
    points = tuple(deal.points())
    return GameResult(seating, points, _strict_winner(points), moves, 1)


def _play_match(game: ArenaGame, job: Job, seating: tuple[int, ...], number: int,
                tally: _Tally) -> GameResult:
    match = game.new_match(job.num_seats, dict(job.rules), job.seed)
    agents = _agents(job, seating, number)
    moves = 0
    while not match.is_over():
        deal = match.deal
        seat = deal.to_move
        assert seat is not None
        match.play(_act(agents[seat], deal, seating[seat], tally))
        moves += 1
    tally.add_bots(seating, agents)
    totals = tuple(match.totals)
    return GameResult(seating, totals, match.winner(), moves, len(match.deal_points))


def run_job(job: Job) -> JobResult:
    """Play one set (in whatever process this runs) and return its results."""
    start = time.perf_counter()
    tally = _Tally(len(job.specs))
    game = load_game(job.game, job.source)
    play = _play_deal if job.unit == "deal" else _play_match
    games = tuple(play(game, job, seating, number, tally)
                  for number, seating in enumerate(job.seatings))
    return JobResult(job.index, job.seed, games, tally.stats(), time.perf_counter() - start)
