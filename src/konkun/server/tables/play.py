"""The move pipeline (:class:`MovePipeline`): an action is checked with the engine, then
**stored** (committed to the database), then applied, and only then broadcast, so an
acknowledged action survives any crash and a restart replays every unfinished table
exactly. One :class:`asyncio.Lock` per table serializes everything that changes it.

The pipeline is given, when the lobby (:mod:`konkun.server.lobby`) builds it, everything
it calls: the broadcast, the catch-up with other server processes (none for one process
alone) and the start of the table's bots."""

from __future__ import annotations

import contextlib
import logging
import time
from collections.abc import Awaitable, Callable, Hashable

from konkun.errors import KonkunError
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.core.stagetimes import current_move, timed
from konkun.server.features.ports import let_go
from konkun.server.store.commits import GroupCommit
from konkun.server.store.storage import Storage, TurnTakenError, now_text
from konkun.server.tables.table import Table
from konkun.server.tables.threads import Threads
from konkun.verify import ended_winner

log = logging.getLogger("konkun.server")

TableHook = Callable[[Table], Awaitable[None]]
"""Called with a table (its finish: the ratings)."""


class MovePipeline:
    """Check, store, apply and broadcast the actions played at a table."""

    def __init__(self, tables: dict[str, Table], storage: Storage, threads: Threads,
                 commits: GroupCommit, finish_hooks: list[TableHook], *,
                 broadcast: Callable[[Table], None],
                 catch_up: Callable[[Table], Awaitable[bool]],
                 start_bots: Callable[[Table], None]) -> None:
        """``tables``: the lobby's tables in memory (a finished one nobody watches leaves);
        ``finish_hooks``: called with each table once it finished and was stored;
        ``broadcast``: sends every connection of a table its view; ``catch_up``: reads
        back what other server processes changed at a table (lock held), whether
        anything did; ``start_bots``: starts the table's bots when one is to act."""
        self.tables = tables
        self.storage = storage
        self.threads = threads
        self.commits = commits
        self.finish_hooks = finish_hooks
        self.broadcast = broadcast
        self.catch_up = catch_up
        self.start_bots = start_bots

    async def play(self, table: Table, player_id: str | None, text: str, turn: int) -> None:
        """Play action ``text`` for the seat ``player_id`` holds, if ``turn`` is current.

        Raises :class:`ProtocolError` (and changes nothing) for an action out of turn,
        stale, malformed or illegal.
        """
        waited = time.perf_counter()
        async with table.lock:
            trace = current_move()
            if trace is not None:
                trace.stage("lock", time.perf_counter() - waited)
            seat = table.seat_of(player_id)
            if seat is None:
                raise ProtocolError("not_seated", "spectators cannot play: take a seat "
                                    "first", text)
            self._check_playing(table, text)
            if turn != table.turn:
                raise ProtocolError("stale_turn", f"turn {turn} is not the current turn "
                                    f"{table.turn}; the state has moved on", turn)
            if table.to_move != seat:
                raise ProtocolError("not_your_turn", f"seat {seat} is not to act: seat "
                                    f"{table.to_move} is", text)
            if seat in table.extras.resigned:
                raise ProtocolError("resigned", f"seat {seat} resigned: it takes no more "
                                    "turns", text)
            action = self._parse(table, text)
            table.clock.away.pop(seat, None)  # a player who moves is back
            await self.apply(table, seat, action)

    @staticmethod
    def _check_playing(table: Table, text: object) -> None:
        if table.status == TableStatus.WAITING:
            raise ProtocolError("not_started", "the game has not started: seats are free",
                                text)
        if table.status == TableStatus.FINISHED or table.match is None or table.match.is_over():
            raise ProtocolError("game_over", "the game is over", text)

    @staticmethod
    def _parse(table: Table, text: str) -> Hashable:
        """The action ``text`` names, if it is legal now. Error messages are the adapter's
        safe ones: an engine's own message may quote the whole position."""
        assert table.match is not None
        deal = table.match.deal
        try:
            action: Hashable = table.adapter.read_action(deal, text)
        except KonkunError as error:
            raise ProtocolError("invalid_action", error.reason, text) from None
        if not deal.is_legal(action):
            raise ProtocolError("illegal_move",
                                table.adapter.explain_illegal(deal, action, text), text)
        return action

    async def apply(self, table: Table, seat: int, action: Hashable,
                    stand_in: bool = False) -> None:
        """Store, then apply, then broadcast one legal action (lock held); ``stand_in``:
        the stand-in bot played it for the seat's person (the move log marks it)."""
        assert table.match is not None
        text = table.match.deal.format_action(action)
        turn = table.turn
        try:
            await self.commits.append(table.id, turn, seat, text, stand_in=stand_in,
                                      urgent=any(s.kind == SeatKind.HUMAN for s in table.seats))
        except TurnTakenError:  # another process played this turn: show what it played
            await self.catch_up(table)
            self.broadcast(table)
            raise
        except Exception as error:
            raise ProtocolError("storage", "the action could not be stored; nothing was "
                                "played, try again", text) from error
        try:
            with timed("apply"):
                table.match.play(action)
        except KonkunError as error:  # checked legal above: only a broken engine gets here
            log.error("table %s: legal action %r refused: %s", table.id, text, error)
            with contextlib.suppress(Exception):
                await self.threads.db(self.storage.delete_action, table.id, turn)
            raise ProtocolError("illegal_move", f"illegal move {text!r}", text) from None
        table.record(seat, text, stand_in)
        table.fairness.played(table.turn, seat, text)
        if table.match.is_over():
            await self.finish(table)
        self.broadcast(table)
        if table.status == TableStatus.FINISHED and not table.connections:
            let_go(self.tables, table)  # kept in the database; read back on demand
        self.start_bots(table)

    async def finish_if_over(self, table: Table) -> None:
        """Finish a table read back from the database whose game is over but whose row was
        never marked finished (storing that failed, or the server stopped in between)."""
        if table.status == TableStatus.PLAYING and table.match is not None \
                and (table.match.is_over() or table.extras.ended is not None):
            await self.finish(table)

    async def end(self, table: Table) -> None:
        """Finish a table whose match ended early (its extras say how; lock held), tell
        every connection, and let it leave memory when nobody watches."""
        await self.finish(table)
        self.broadcast(table)
        if not table.connections:
            let_go(self.tables, table)

    @staticmethod
    def winner(table: Table) -> int | None:
        """The match's winner: by its rules, or, when seats resigned, the best of the
        others (``None`` for an aborted table)."""
        assert table.match is not None
        extras = table.extras
        if extras.ended is not None and extras.ended.get("reason") == "aborted":
            return None
        if extras.resigned:
            return ended_winner(list(table.match.totals), extras.resigned)
        return table.match.winner()

    async def finish(self, table: Table) -> None:
        """Mark a table whose game is over finished, store that, and call the finish
        hooks (lock held)."""
        assert table.match is not None
        table.status = TableStatus.FINISHED
        table.finished_at = now_text()
        table.winner = self.winner(table)
        table.bots = {}
        # the actions are stored: a restart finishes the table again
        with contextlib.suppress(ProtocolError):
            await self.threads.db(self.storage.update_table, table.id, {
                "status": TableStatus.FINISHED.value, "finished_at": table.finished_at,
                "winner": table.winner, "totals": list(table.match.totals)})
        for hook in self.finish_hooks:
            await hook(table)
