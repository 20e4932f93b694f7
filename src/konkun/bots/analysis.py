"""Post-game analysis: every move of one seat against the best move found, from that
seat's information only.

For each position where the seat moved, every legal move is valued by **expected
points**: the seat's points minus the mean of the others' (for two players, its margin),
averaged over determinizations of the seat's observation (``Observation.sample_deal``:
the hidden cards dealt at random, consistently with what the seat has seen) played on by
the game's search policy (:mod:`konkun.bots.policy`: greedy-ish play-outs, then its
evaluation). Every move is played in the same sampled worlds with the same random
choices after it (common random numbers), so the differences between moves are far less
noisy than the values. Where the game's policy solves a position outright
(:meth:`~konkun.bots.policy.SearchPolicy.exact_values`, say a two-player Konchinka
endgame), its values are exact. Every registered game is analysed this way, its record
read by its :class:`~konkun.game.Game` descriptor; a game with no policy of its own gets
the generic one (random play-outs).

The analysis never reads a hidden card: it is given the seat's observation, and its
random source is seeded from the deal and move numbers only (never the record's seed),
so the same observation gets the same analysis whatever the other hands held.

A move's **loss** is the best move's value minus its own; its mark (``inaccuracy``,
``mistake``, ``blunder``) comes from the three losses of the game's policy,
:attr:`~konkun.bots.policy.SearchPolicy.loss_marks`, on the game's scale of points (the
table in ``docs/bots.md``). Forced moves are not analysed.
"""

from __future__ import annotations

import random
import time
from collections.abc import Collection, Hashable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from konkun.bots.policy import policy_for
from konkun.errors import InvalidNotationError, InvalidPositionError
from konkun.game import Observation, game_names, get_game


def thresholds(game: str) -> tuple[float, float, float]:
    """The losses from which a move of ``game`` is an inaccuracy, a mistake, a blunder:
    its search policy's :attr:`~konkun.bots.policy.SearchPolicy.loss_marks` (the generic
    ones for a game without its own)."""
    return policy_for(game).loss_marks


LOSS_PLACES = 3
"""The decimal places of the values and losses an analysis reports."""


def mark(game: str, loss: float) -> str | None:
    """The mark of a move that loses ``loss`` expected points (``None``: a good move),
    judged on the loss as reported (to :data:`LOSS_PLACES` places), so that a move shown
    losing exactly a threshold carries its mark."""
    loss = round(loss, LOSS_PLACES)
    inaccuracy, mistake, blunder = thresholds(game)
    if loss >= blunder:
        return "blunder"
    if loss >= mistake:
        return "mistake"
    if loss >= inaccuracy:
        return "inaccuracy"
    return None


@dataclass(frozen=True, slots=True)
class Position:
    """The valuation of one position: each legal move's expected points, and how."""

    values: dict[Any, float]
    samples: int
    exact: bool

    def best(self) -> Any:
        """The move of the highest value (the first of equals in the legal order)."""
        return max(self.values, key=self.values.__getitem__)


def evaluate_position(game: str, observation: Observation[Any], rng: random.Random,
                      samples: int = 64, seconds: float | None = None) -> Position:
    """Each legal move's expected points for the seat of ``observation`` (see the module
    documentation): ``samples`` determinizations, fewer if ``seconds`` run out first (at
    least 4)."""
    legal = list(observation.legal_actions())
    if not legal:
        raise InvalidPositionError(f"seat {observation.seat} has no move to analyse")
    policy = policy_for(game)
    exact = policy.exact_values(observation, rng)
    if exact is not None:
        return Position(exact, 1, True)
    seat = observation.seat
    totals = dict.fromkeys(legal, 0.0)
    start = time.perf_counter()
    done = 0
    while done < samples:
        world = observation.sample_deal(rng)
        follow = rng.getrandbits(64)
        for action in legal:
            deal = world.copy()
            deal.push(action)
            if deal.is_over():
                points = [float(p) for p in deal.points()]
            else:
                points = policy.play_out(deal, random.Random(follow))
            totals[action] += policy.rewards(points)[seat]
        done += 1
        if seconds is not None and done >= 4 and time.perf_counter() - start >= seconds:
            break
    return Position({a: total / done for a, total in totals.items()}, done, False)


@dataclass(frozen=True, slots=True)
class MoveReport:
    """One analysed move of the seat."""

    deal: int
    """The deal's number in the record (0 first)."""
    ply: int
    """The move's number in its deal (0 first, every seat's moves counted)."""
    played: str
    best: str
    played_value: float
    best_value: float
    samples: int
    exact: bool
    mark: str | None

    @property
    def loss(self) -> float:
        """Expected points lost against the best move found (never negative)."""
        return max(0.0, self.best_value - self.played_value)

    def to_json(self) -> dict[str, Any]:
        """The report as JSON data."""
        return {"deal": self.deal, "ply": self.ply, "played": self.played,
                "best": self.best, "played_value": round(self.played_value, LOSS_PLACES),
                "best_value": round(self.best_value, LOSS_PLACES),
                "loss": round(self.loss, LOSS_PLACES),
                "mark": self.mark, "samples": self.samples, "exact": self.exact}


def analyze_move(game: str, observation: Observation[Any], played: Hashable, deal: int,
                 ply: int, samples: int = 64, seconds: float | None = None) -> MoveReport:
    """The report of ``played`` in ``observation`` (its random source seeded from
    ``deal`` and ``ply`` only)."""
    rng = random.Random(f"analysis:{deal}:{ply}")
    position = evaluate_position(game, observation, rng, samples, seconds)
    best = position.best()
    played_value = position.values[played]
    best_value = max(position.values[best], played_value)
    if best_value == played_value:
        best = played
    text = _text(observation, played)
    return MoveReport(deal, ply, text, _text(observation, best), played_value, best_value,
                      position.samples, position.exact,
                      mark(game, best_value - played_value))


def _text(observation: Observation[Any], action: Any) -> str:
    text = getattr(action, "text", None)
    return str(text()) if callable(text) else str(action)


def replay_positions(data: Mapping[str, Any]) -> tuple[str, Any]:
    """The game name and a fresh match of a record's JSON (``{"game", "rules",
    "num_seats", "seed", "actions"}``, as ``Match.record().to_json()`` writes it, or an
    object holding it under ``"record"``, as ``konkun ... play`` and the server's replay
    write it)."""
    if isinstance(data, Mapping) and isinstance(data.get("record"), Mapping):
        data = data["record"]
    game = data.get("game") if isinstance(data, Mapping) else None
    if not isinstance(game, str) or game not in game_names():
        raise InvalidPositionError(f"invalid record: game {game!r} is not one the analysis "
                                   f"knows ({', '.join(game_names())})")
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise InvalidNotationError(f"invalid {game} record actions {actions!r}")
    match = get_game(game).load_record({**data, "actions": []})
    return game, (match, tuple(actions))


@dataclass(frozen=True, slots=True)
class Moment:
    """One move of a record worth analysing: a seat with more than one legal move."""

    seat: int
    deal: int
    """The deal's number in the record (0 first)."""
    ply: int
    """The move's number in its deal (0 first, every seat's moves counted)."""
    turn: int
    """The move's number in the whole record (0 first: its index in the actions)."""
    observation: Observation[Any]
    """The seat's observation before the move (never the other hands)."""
    action: Hashable
    """The move played."""


def moments(data: Mapping[str, Any], seats: Collection[int] | None = None) \
        -> Iterator[Moment]:
    """The record's non-forced moves of ``seats`` (every seat by default), in the order
    played."""
    _game, (match, actions) = replay_positions(data)
    if seats is not None:
        for seat in seats:
            if not 0 <= seat < match.num_seats:
                raise InvalidPositionError(
                    f"invalid seat {seat}: the record has seats 0 to {match.num_seats - 1}")
    deal_number = 0
    ply = 0
    current = match.deal
    for turn, text in enumerate(actions):
        deal = match.deal
        if deal is not current:
            current, deal_number, ply = deal, deal_number + 1, 0
        action = deal.parse_action(text)
        seat = deal.to_move
        if seat is not None and (seats is None or seat in seats):
            observation = deal.observe(seat)
            if len(observation.legal_actions()) > 1:
                yield Moment(seat, deal_number, ply, turn, observation, action)
        match.play(action)
        ply += 1


def analyze_record(data: Mapping[str, Any], seat: int, samples: int = 64,
                   seconds: float | None = None) -> list[MoveReport]:
    """Every non-forced move of ``seat`` in the record, analysed from that seat's
    observation at the time (see the module documentation)."""
    game, _ = replay_positions(data)
    return [analyze_move(game, m.observation, m.action, m.deal, m.ply, samples, seconds)
            for m in moments(data, (seat,))]


def analyze_range(data: Mapping[str, Any], start: int, stop: int, samples: int = 64,
                  seconds: float | None = None) -> list[tuple[Moment, MoveReport]]:
    """The record's non-forced moves of every seat numbered ``start`` to ``stop - 1`` in
    the order played (:func:`moments`), each with its analysis from its seat's
    observation: a long analysis done in short steps (the server's background
    analysis)."""
    game, _ = replay_positions(data)
    out: list[tuple[Moment, MoveReport]] = []
    for number, m in enumerate(moments(data)):
        if number >= stop:
            break
        if number >= start:
            out.append((m, analyze_move(game, m.observation, m.action, m.deal, m.ply,
                                        samples, seconds)))
    return out


def summary(reports: Sequence[MoveReport]) -> dict[str, Any]:
    """Per deal, the moves analysed, the expected points lost and the marks counted."""
    deals: dict[int, dict[str, Any]] = {}
    for report in reports:
        entry = deals.setdefault(report.deal, {"deal": report.deal, "moves": 0, "lost": 0.0,
                                               "inaccuracy": 0, "mistake": 0, "blunder": 0})
        entry["moves"] += 1
        entry["lost"] += report.loss
        if report.mark:
            entry[report.mark] += 1
    return {"deals": [dict(d, lost=round(d["lost"], LOSS_PLACES)) for d in deals.values()]}


__all__ = ["Moment", "MoveReport", "Position", "analyze_move", "analyze_range",
           "analyze_record", "evaluate_position", "mark", "moments", "replay_positions",
           "summary", "thresholds"]
