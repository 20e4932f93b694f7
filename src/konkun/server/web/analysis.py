"""Post-game analysis of finished web games, in the background (the replay page's
"Analyse" button; ``konkun analyze``'s engine, :mod:`konkun.bots.analysis`).

``POST /api/games/{id}/analysis`` starts the analysis of a finished game, every seat's
non-forced moves, each from that seat's information only; ``GET`` reads its progress and,
once done, the result. The work never competes with play:

- it runs on the server's bot scheduler (:class:`~konkun.server.core.scheduler.BotScheduler`)
  as one client of its own, ``analysis``, at a bot-only table's priority: a human
  table's bot always goes first, all analyses together run at most one step at a time
  and take turns with the bot-only tables (and in the scheduler's worker processes when
  it has them, at their lower priority);
- the work is cut into short steps (:attr:`AnalysisSettings.step` moves, each at most
  :attr:`AnalysisSettings.seconds` seconds), so a waiting bot move never waits long;
- one analysis per game (a repeated request gets the running one, then the kept result);
  at most :attr:`AnalysisSettings.max_running` games are analysed at once, a request for
  another is refused (``analysis_busy``, 503) until one ends;
- a finished analysis is kept (the last :attr:`AnalysisSettings.keep` games): a finished
  game never changes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from konkun.bots.analysis import analyze_range, moments, replay_positions, thresholds
from konkun.errors import KonkunError
from konkun.server.core.games import get_game
from konkun.server.core.protocol import ProtocolError
from konkun.server.web.throttle import READ, WRITE, rate_limit

if TYPE_CHECKING:
    from konkun.server.web.parts import Parts

log = logging.getLogger("konkun.server.web.analysis")

ANALYSIS_CLIENT = "analysis"
"""The scheduler client every analysis step runs as (one step at a time in all)."""


@dataclass(frozen=True, slots=True)
class AnalysisSettings:
    """How much the server's background analysis may do."""

    samples: int = 32
    """Determinizations per move (``konkun analyze --samples``)."""
    seconds: float = 0.5
    """At most this long per move (``konkun analyze --time``)."""
    step: int = 4
    """Moves per scheduler job."""
    max_running: int = 2
    """Games analysed at once; a request for another is refused until one ends."""
    keep: int = 64
    """Finished analyses kept in memory (the least recently asked for forgotten)."""


class Runner(Protocol):
    """Runs one job on the bot scheduler (:meth:`BotScheduler.run` with the analysis's
    client and priority)."""

    def __call__(self, function: Callable[..., Any], *args: Any) -> Awaitable[Any]: ...


RecordSource = Callable[[str], Awaitable[dict[str, Any]]]
"""The record of a finished game by id (raises ``unknown_table`` / ``not_finished``)."""


def count_moves(record: dict[str, Any]) -> int:
    """The non-forced moves of every seat in ``record`` (a scheduler job)."""
    return sum(1 for _ in moments(record))


def analyse_step(record: dict[str, Any], start: int, stop: int, samples: int,
                 seconds: float) -> list[dict[str, Any]]:
    """Moves ``start`` to ``stop - 1`` of ``record`` analysed, as JSON with their seat and
    their ``turn`` (index in the record's actions; the replay's frame ``turn`` is the
    position before the move) (a scheduler job: plain data in and out, so it runs in a
    worker process too)."""
    return [dict(report.to_json(), seat=moment.seat, turn=moment.turn)
            for moment, report in analyze_range(record, start, stop, samples, seconds)]


@dataclass
class Analysis:
    """One game's analysis: its progress, then its moves."""

    table_id: str
    game: str = ""
    num_seats: int = 0
    status: str = "running"
    """``running``, ``done`` or ``failed``."""
    done: int = 0
    total: int | None = None
    moves: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def to_json(self) -> dict[str, Any]:
        """The analysis as the API answers it (moves and per-deal totals once done)."""
        data: dict[str, Any] = {"table_id": self.table_id, "status": self.status,
                                "game": self.game or None, "done": self.done,
                                "total": self.total}
        if self.status == "done":
            inaccuracy, mistake, blunder = thresholds(self.game)
            data["thresholds"] = {"inaccuracy": inaccuracy, "mistake": mistake,
                                  "blunder": blunder}
            data["moves"] = self.moves
            data["deals"] = deal_totals(self.moves, self.num_seats)
        if self.error is not None:
            data["error"] = self.error
        return data


def with_parts(game: str, moves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``moves`` with the parts of each move's ``played`` and ``best`` action
    (``played_parts``, ``best_parts``) when the game describes its actions
    (``GameAdapter.describe``: the page tells a Kunken move from them)."""
    try:
        adapter = get_game(game)
    except KeyError:
        return moves
    out = []
    for move in moves:
        extra = {}
        for key in ("played", "best"):
            parts = adapter.describe(str(move.get(key, "")))
            if parts is not None:
                extra[f"{key}_parts"] = parts
        out.append(move | extra)
    return out


def deal_totals(moves: list[dict[str, Any]], num_seats: int) -> list[dict[str, Any]]:
    """Per deal, per seat: the moves analysed, the expected points lost, the marks."""
    deals: dict[int, dict[str, Any]] = {}
    for move in moves:
        entry = deals.setdefault(move["deal"], {"deal": move["deal"], "seats": [
            {"seat": s, "moves": 0, "lost": 0.0, "inaccuracy": 0, "mistake": 0,
             "blunder": 0} for s in range(num_seats)]})
        seat = entry["seats"][move["seat"]]
        seat["moves"] += 1
        seat["lost"] = round(seat["lost"] + move["loss"], 3)
        if move["mark"]:
            seat[move["mark"]] += 1
    return [deals[number] for number in sorted(deals)]


class AnalysisService:
    """The background analyses of finished games (see the module documentation)."""

    def __init__(self, records: RecordSource, runner: Runner,
                 settings: AnalysisSettings | None = None) -> None:
        self.records = records
        self.runner = runner
        self.settings = settings or AnalysisSettings()
        self._analyses: OrderedDict[str, Analysis] = OrderedDict()
        self.started = 0
        """How many analyses were started (the rest of the requests were answered from
        a running or kept one)."""

    @property
    def running(self) -> int:
        """Games being analysed now."""
        return sum(1 for a in self._analyses.values() if a.status == "running")

    def get(self, table_id: str) -> dict[str, Any]:
        """The analysis of ``table_id`` as the API answers it (``status: "none"`` when
        it was never started, or was forgotten)."""
        found = self._analyses.get(table_id)
        if found is None:
            return {"table_id": table_id, "status": "none"}
        self._analyses.move_to_end(table_id)
        return found.to_json()

    async def start(self, table_id: str) -> dict[str, Any]:
        """Start the analysis of a finished game, or answer the one running or kept."""
        found = self._analyses.get(table_id)
        if found is not None and found.status != "failed":
            self._analyses.move_to_end(table_id)
            return found.to_json()
        if self.running >= self.settings.max_running:
            raise ProtocolError("analysis_busy", f"{self.running} games are being analysed "
                                "already: try again when one is done", table_id)
        record = await self.records(table_id)  # unknown_table, not_finished
        found = self._analyses.get(table_id)  # another request may have started it meanwhile
        if found is not None and found.status != "failed":
            return found.to_json()
        game, (match, _actions) = replay_positions(record)
        analysis = Analysis(table_id, game, int(match.num_seats))
        self._analyses[table_id] = analysis
        self._forget_old()
        self.started += 1
        analysis.task = asyncio.create_task(self._analyse(analysis, record),
                                            name=f"konkun-analysis-{table_id}")
        return analysis.to_json()

    async def _analyse(self, analysis: Analysis, record: dict[str, Any]) -> None:
        settings = self.settings
        try:
            total: int = await self.runner(count_moves, record)
            analysis.total = total
            for start in range(0, total, settings.step):
                stop = min(total, start + settings.step)
                moves = await self.runner(analyse_step, record, start, stop,
                                          settings.samples, settings.seconds)
                analysis.moves.extend(with_parts(analysis.game, moves))
                analysis.done = stop
            analysis.status = "done"
        except asyncio.CancelledError:
            analysis.status = "failed"
            analysis.error = "the server stopped the analysis"
            raise
        except Exception as error:  # a broken record or worker: report, never crash
            log.exception("analysis of %s failed", analysis.table_id)
            analysis.status = "failed"
            analysis.error = f"the analysis failed: {type(error).__name__}"
        finally:
            analysis.task = None
            self._forget_old()

    def _forget_old(self) -> None:
        """Forget the least recently asked finished analyses past :attr:`keep`."""
        extra = len(self._analyses) - self.settings.keep
        for table_id in list(self._analyses):
            if extra <= 0:
                break
            if self._analyses[table_id].status != "running":
                del self._analyses[table_id]
                extra -= 1

    async def shutdown(self) -> None:
        """Stop the running analyses."""
        tasks = [a.task for a in self._analyses.values() if a.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def record_of_replay(body: bytes) -> dict[str, Any]:
    """The game record inside an encoded replay (``{"record": ...}``)."""
    record: dict[str, Any] = json.loads(body)["record"]
    return record


def service_for(lobby: Any, settings: AnalysisSettings | None = None) -> AnalysisService:
    """The analysis service of a :class:`~konkun.server.lobby.Lobby`: records from its
    kept replays (which check the game is finished), steps on its bot scheduler."""

    async def records(table_id: str) -> dict[str, Any]:
        encoded = await lobby.encoded_replay(table_id, None)
        record = record_of_replay(encoded.body)
        try:
            replay_positions(record)
        except KonkunError as error:
            raise ProtocolError("unknown_game", f"table {table_id} cannot be analysed: "
                                f"{error}", table_id) from None
        return record

    def runner(function: Callable[..., Any], *args: Any) -> Awaitable[Any]:
        return lobby.scheduler.run(function, *args, client=ANALYSIS_CLIENT, human=False,  # type: ignore[no-any-return]
                                   quick=False)

    return AnalysisService(records, runner, settings)


def router(parts: Parts) -> APIRouter:
    """``POST`` and ``GET /api/games/{table_id}/analysis`` (rate-limited per address
    before routing, :mod:`.throttle`: a start as a write, a read as a lobby read)."""
    routes = APIRouter()
    service = parts.analysis

    @routes.post("/api/games/{table_id}/analysis")
    @rate_limit(WRITE)
    async def start_analysis(table_id: str, request: Request) -> JSONResponse:
        _check_id(table_id)
        answer = await service().start(table_id)
        return JSONResponse(answer, status_code=200 if answer["status"] == "done" else 202)

    @routes.get("/api/games/{table_id}/analysis")
    @rate_limit(READ)
    async def read_analysis(table_id: str) -> dict[str, Any]:
        _check_id(table_id)
        return service().get(table_id)

    return routes


def _check_id(table_id: str) -> None:
    if not 0 < len(table_id) <= 32:
        raise ProtocolError("unknown_table", f"no table {table_id!r}", table_id)


__all__ = ["ANALYSIS_CLIENT", "Analysis", "AnalysisService", "AnalysisSettings",
           "analyse_step", "count_moves", "deal_totals",
           "record_of_replay", "router", "service_for"]
