"""An arena run: the configuration, the work it makes, and the report of what happened.

Counting: ``games`` is the number of games played in all, where a game is a deal
(``unit="deal"``, the default) or a whole match (``unit="match"``). With duplicate play
(the default) games come in *sets*: one shuffle played once per rotation of the bots
round the table (2 bots: a deal pair), so ``games`` is rounded up to a whole number of
sets. Without duplicate play every game has its own shuffle.

Statistics (:mod:`konkun.arena.stats`): win rates with Wilson intervals; points per game
with Student-t intervals over sets (a set is the independent unit); head-to-head results
per pair of bots over sets; Elo ratings fitted to those head-to-head set results.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from konkun.arena.games import game_source, load_game
from konkun.arena.runner import Job, JobResult, Unit, derive_seed, seatings
from konkun.arena.stats import MeanInterval, bradley_terry_elo, mean_interval, wilson_interval
from konkun.bots.specs import BotSpec, InvalidBotSpecError
from konkun.errors import InvalidRuleError


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What to play: a game, one bot spec per seat, how many games and how."""

    game: str
    specs: tuple[str, ...]
    num_seats: int
    games: int
    unit: Unit = "deal"
    duplicate: bool = True
    seed: int = 0
    rules: tuple[tuple[str, str], ...] = ()

    def validate(self) -> None:
        """Raise a :class:`~konkun.errors.KonkunError` naming what is off."""
        game = load_game(self.game)
        if self.unit not in ("deal", "match"):
            raise InvalidRuleError(f"invalid arena unit {self.unit!r}")
        if self.games < 1:
            raise InvalidRuleError(f"invalid number of games {self.games!r}: expected >= 1")
        if len(self.specs) != self.num_seats:
            raise InvalidBotSpecError(
                f"{len(self.specs)} bots ({','.join(self.specs)}) for {self.num_seats} "
                "players: give one bot spec per player")
        game.check(self.num_seats, dict(self.rules))
        for text in self.specs:
            BotSpec.parse(text).create(self.game)  # bad specs fail before any work

    @property
    def per_set(self) -> int:
        """Games in one set: one per rotation with duplicate play, else one."""
        return self.num_seats if self.duplicate else 1

    @property
    def sets(self) -> int:
        """How many sets (shuffles) the run plays."""
        return math.ceil(self.games / self.per_set)

    @property
    def unit_plural(self) -> str:
        """The unit counted, in the plural: ``deals`` or ``matches``."""
        return "matches" if self.unit == "match" else "deals"

    @property
    def names(self) -> list[str]:
        """A distinct display name per entry (``greedy``, ``greedy#2``, ...)."""
        names: list[str] = []
        for text in self.specs:
            name, count = text, 1
            while name in names:
                count += 1
                name = f"{text}#{count}"
            names.append(name)
        return names

    def jobs(self) -> list[Job]:
        """One job per set, as plain data."""
        source = game_source(self.game)
        return [Job(self.game, self.num_seats, self.rules, self.specs, self.unit, index,
                    derive_seed("konkun-arena", self.game, self.seed, index),
                    seatings(len(self.specs), self.num_seats, self.duplicate, index), source)
                for index in range(self.sets)]


@dataclass(frozen=True, slots=True)
class BotSummary:
    """One entry's results."""

    name: str
    spec: str
    games: int
    wins: int
    win_low: float
    win_high: float
    points: MeanInterval
    elo: float
    moves: int
    think_seconds: float
    iterations: int
    search_seconds: float
    longest_think: float = 0.0

    @property
    def win_rate(self) -> float:
        """Games won (strictly the most points, or the match) per game played."""
        return self.wins / self.games if self.games else 0.0

    @property
    def iterations_per_second(self) -> float | None:
        """Search iterations per second, for a searching bot."""
        return self.iterations / self.search_seconds if self.iterations else None

    @property
    def seconds_per_move(self) -> float | None:
        """Thinking time per move on average (``None`` before any move)."""
        return self.think_seconds / self.moves if self.moves else None

    def to_json(self) -> dict[str, Any]:
        """As JSON data."""
        return {"name": self.name, "spec": self.spec, "games": self.games, "wins": self.wins,
                "win_rate": self.win_rate, "win_ci": [self.win_low, self.win_high],
                "points_per_game": self.points.mean,
                "points_ci": [self.points.low, self.points.high], "elo": self.elo,
                "moves": self.moves, "seconds_per_move": self.seconds_per_move,
                "longest_move_seconds": self.longest_think,
                "iterations_per_second": self.iterations_per_second}


@dataclass(frozen=True, slots=True)
class PairSummary:
    """Two entries head to head over sets (in duplicate play: the same cards)."""

    first: str
    second: str
    sets: int
    first_wins: int
    second_wins: int
    ties: int
    margin: MeanInterval
    """The first entry's points (matches won, for matches) minus the second's, per set."""

    @property
    def decided(self) -> int:
        """Sets that one of the two won."""
        return self.first_wins + self.second_wins

    @property
    def first_share(self) -> float:
        """The first entry's share of the decided sets."""
        return self.first_wins / self.decided if self.decided else 0.5

    def first_share_ci(self) -> tuple[float, float]:
        """The Wilson 95% interval of :attr:`first_share`."""
        return wilson_interval(self.first_wins, self.decided)

    def to_json(self) -> dict[str, Any]:
        """As JSON data."""
        return {"first": self.first, "second": self.second, "sets": self.sets,
                "first_wins": self.first_wins, "second_wins": self.second_wins,
                "ties": self.ties,
                "first_win_rate": self.first_wins / self.sets if self.sets else None,
                "first_share_of_decided": self.first_share,
                "first_share_ci": list(self.first_share_ci()),
                "margin": self.margin.to_json()}


@dataclass(slots=True)
class ArenaReport:
    """Everything an arena run measured."""

    config: ArenaConfig
    results: list[JobResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games(self) -> int:
        """Games played."""
        return sum(len(result.games) for result in self.results)

    def bots(self) -> list[BotSummary]:
        """Each entry's summary, in the order of the spec list."""
        names = self.config.names
        elo = self.elo()
        summaries = []
        for entry, name in enumerate(names):
            games = wins = moves = iterations = 0
            think = search = longest = 0.0
            per_set: list[float] = []
            for result in self.results:
                mine = [(g, g.seating.index(entry)) for g in result.games if entry in g.seating]
                games += len(mine)
                wins += sum(1 for g, seat in mine if g.winner == seat)
                if mine:
                    per_set.append(sum(g.points[seat] for g, seat in mine) / len(mine))
                stats = result.search[entry]
                moves += stats.moves
                think += stats.think_seconds
                iterations += stats.iterations
                search += stats.seconds
                longest = max(longest, stats.longest_think)
            low, high = wilson_interval(wins, games)
            summaries.append(BotSummary(name, self.config.specs[entry], games, wins, low, high,
                                        mean_interval(per_set), elo[entry], moves, think,
                                        iterations, search, longest))
        return summaries

    def _set_scores(self, result: JobResult, entry: int) -> float:
        total = 0.0
        for game in result.games:
            if entry in game.seating:
                seat = game.seating.index(entry)
                if self.config.unit == "match":
                    total += 1.0 if game.winner == seat else 0.0
                else:
                    total += game.points[seat]
        return total

    def pair_outcomes(self) -> list[tuple[int, int, float, float]]:
        """Per set and pair of entries ``(i, j, score_i, margin_i)``: score 1 when ``i``
        did better over the set, 0.5 for equal, 0 for worse."""
        outcomes = []
        count = len(self.config.specs)
        for result in self.results:
            scores = [self._set_scores(result, entry) for entry in range(count)]
            for i in range(count):
                for j in range(i + 1, count):
                    margin = scores[i] - scores[j]
                    outcomes.append((i, j, 1.0 if margin > 0 else 0.0 if margin < 0 else 0.5,
                                     margin))
        return outcomes

    def pairs(self) -> list[PairSummary]:
        """Head-to-head summaries for every pair of entries."""
        names = self.config.names
        grouped: dict[tuple[int, int], list[tuple[float, float]]] = {}
        for i, j, score, margin in self.pair_outcomes():
            grouped.setdefault((i, j), []).append((score, margin))
        pairs = []
        for (i, j), rows in sorted(grouped.items()):
            wins = sum(1 for score, _ in rows if score == 1.0)
            losses = sum(1 for score, _ in rows if score == 0.0)
            pairs.append(PairSummary(names[i], names[j], len(rows), wins, losses,
                                     len(rows) - wins - losses,
                                     mean_interval([margin for _, margin in rows])))
        return pairs

    def elo(self) -> list[float]:
        """Elo ratings (mean 1500) fitted to the head-to-head set results."""
        outcomes = [(i, j, score) for i, j, score, _ in self.pair_outcomes()]
        return bradley_terry_elo(len(self.config.specs), outcomes)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data (``konkun arena --json``)."""
        config = self.config
        return {"game": config.game, "players": config.num_seats, "unit": config.unit,
                "duplicate": config.duplicate, "seed": config.seed,
                "rules": dict(config.rules), "sets": len(self.results), "games": self.games,
                "seconds": self.seconds, "bots": [b.to_json() for b in self.bots()],
                "pairs": [p.to_json() for p in self.pairs()]}

    def format_table(self) -> str:
        """The report as a text table (``konkun arena``)."""
        config = self.config
        bots = self.bots()
        mode = (f"duplicate: {len(self.results)} sets of {config.per_set}, the same cards "
                "with seats rotated" if config.duplicate else "independent shuffles")
        lines = [f"{config.game}, {config.num_seats} players, {self.games} {config.unit_plural} "
                 f"({mode}), seed {config.seed}, {self.seconds:.1f} s"]
        rows = [("bot", "games", "wins", "win%", "95% CI", "points/game", "95% CI", "Elo")]
        for bot in bots:
            rows.append((bot.name, str(bot.games), str(bot.wins), f"{100 * bot.win_rate:.1f}",
                         f"[{100 * bot.win_low:.1f}, {100 * bot.win_high:.1f}]",
                         f"{bot.points.mean:.3f}", _interval(bot.points),
                         f"{bot.elo:.0f}"))
        lines.extend(_columns(rows))
        pairs = self.pairs()
        if pairs:
            what = "matches won" if config.unit == "match" else "points"
            lines.append(f"head to head, per set (W-L-T; margin: {what} per set):")
            for pair in pairs:
                low, high = pair.first_share_ci()
                lines.append(
                    f"  {pair.first} vs {pair.second}: {pair.first_wins}-{pair.second_wins}"
                    f"-{pair.ties}, {100 * pair.first_share:.1f}% of decided sets "
                    f"[{100 * low:.1f}, {100 * high:.1f}], margin {pair.margin.mean:+.3f} "
                    f"{_interval(pair.margin)}")
        for bot in bots:
            speed, per_move = bot.iterations_per_second, bot.seconds_per_move
            if speed is not None and per_move is not None:
                lines.append(f"search: {bot.name}: {speed:,.0f} iterations/s, "
                             f"{per_move:.3f} s per move on average, "
                             f"longest {bot.longest_think:.3f} s")
        return "\n".join(lines)


def _interval(value: MeanInterval) -> str:
    if not math.isfinite(value.low):
        return "[-, -]"
    return f"[{value.low:.3f}, {value.high:.3f}]"


def _columns(rows: Sequence[Sequence[str]]) -> list[str]:
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) if k == 0 else cell.rjust(w)
                      for k, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
            for row in rows]


def run_arena(config: ArenaConfig, backend: str = "local", workers: int | None = None,
              ray_address: str | None = None,
              on_result: Callable[[JobResult], None] | None = None) -> ArenaReport:
    """Validate ``config``, play it on ``backend`` and return the report
    (``on_result`` is called as each set finishes, e.g. to advance a progress bar)."""
    import time

    from konkun.arena.backends import run_jobs

    config.validate()
    start = time.perf_counter()
    report = ArenaReport(config)
    results: Iterable[JobResult] = run_jobs(config.jobs(), backend, workers, ray_address)
    for result in results:
        report.results.append(result)
        if on_result is not None:
            on_result(result)
    report.results.sort(key=lambda r: r.index)
    report.seconds = time.perf_counter() - start
    return report
