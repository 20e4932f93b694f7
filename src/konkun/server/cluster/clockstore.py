"""The move clock of each playing table, stored (``konkun_clocks``, one JSON object per
table) so that a restart, or the server process that takes the table over, goes on with
the turn's time spent, the away seats and the votes instead of starting them afresh.

What is stored of a :class:`~konkun.server.features.clock.SeatClock`: the turn, the seconds
of it spent (measured on the monotonic clock, so the time left is the move time less them)
with the wall-clock time of the save, the away seats and why, and the votes. The clock runs
on monotonic time only: the wall-clock gap between the save and a restore is charged only
when it is plausible (0 to :data:`TRUSTED_GAP` seconds, a restart or a takeover); a gap
outside that (the wall clock stepped, or a long outage) charges nothing, so a clock step
never plays the stand-in for a player who has time left. The absences are not: they
follow the connections, which every process sees (:mod:`.cluster`).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable, Coroutine
from typing import Any

from sqlalchemy import JSON, String, delete
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from konkun.server.core.kinds import TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.features.clock import SeatClock
from konkun.server.tables.table import Table
from konkun.server.tables.threads import Threads


class _Base(DeclarativeBase):
    """The schema of the stored clocks."""


class ClockRow(_Base):
    """One table's clock as one JSON object."""

    __tablename__ = "konkun_clocks"

    table_id: Mapped[str] = mapped_column(String(32), primary_key=True)
    data: Mapped[dict[str, Any]] = mapped_column(JSON)


TRUSTED_GAP = 60.0
"""The longest wall-clock gap between a clock's save and its restore that is charged to the
turn (a restart or a takeover takes seconds; a longer or negative gap is a clock step)."""


def clock_snapshot(clock: SeatClock) -> dict[str, Any]:
    """What is stored of ``clock``: the seconds of its turn spent (monotonic) and when it
    was saved (wall clock, only to charge a plausible gap at the restore)."""
    spent = max(0.0, time.monotonic() - clock.turn_started)
    return {"turn": clock.turn, "spent": round(spent, 3), "saved": round(time.time(), 3),
            "away": {str(seat): why for seat, why in sorted(clock.away.items())},
            "votes": {str(seat): sorted(voters)
                      for seat, voters in sorted(clock.votes.items()) if voters}}


def clock_key(clock: SeatClock) -> tuple[Any, ...]:
    """What a stored clock must be rewritten for when it changes (not the time)."""
    return (clock.turn, tuple(sorted(clock.away.items())),
            tuple((seat, tuple(sorted(v))) for seat, v in sorted(clock.votes.items()) if v))


def restore_clock(clock: SeatClock, data: dict[str, Any] | None, turn: int) -> bool:
    """Put a stored clock back into ``clock`` if it is of the table's current ``turn``;
    whether it was."""
    if not data or data.get("turn") != turn:
        return False
    try:
        spent = _spent_at_restore(data)
        away = {int(seat): str(why) for seat, why in dict(data.get("away", {})).items()}
        votes = {int(seat): {int(v) for v in voters}
                 for seat, voters in dict(data.get("votes", {})).items()}
    except (KeyError, TypeError, ValueError):
        return False
    clock.turn, clock.turn_started = turn, time.monotonic() - spent
    clock.away, clock.votes = away, votes
    return True


def _spent_at_restore(data: dict[str, Any]) -> float:
    """The seconds of the stored turn spent now: those spent at the save, plus the wall
    time since the save when it is plausible (a clock written before ``spent`` was stored
    has only ``started``: its turn's start, read as a save with nothing spent)."""
    stored = float(data.get("spent", 0.0))
    saved = float(data["saved"] if "saved" in data else data["started"])
    gap = time.time() - saved
    return max(0.0, stored) + (gap if 0.0 <= gap <= TRUSTED_GAP else 0.0)


class ClockStore:
    """The stored clocks, in the database of the game record."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def save(self, table_id: str, data: dict[str, Any]) -> None:
        """Store (or replace) one table's clock."""
        with Session(self.engine) as session, session.begin():
            session.merge(ClockRow(table_id=table_id, data=data))

    def load(self, table_id: str) -> dict[str, Any] | None:
        """One table's stored clock, if any."""
        with Session(self.engine) as session:
            row = session.get(ClockRow, table_id)
            return dict(row.data) if row is not None else None

    def delete(self, table_id: str) -> None:
        """Forget a table's clock (its game is over)."""
        with Session(self.engine) as session, session.begin():
            session.execute(delete(ClockRow).where(ClockRow.table_id == table_id))


class StoredClocks:
    """Keep each playing table's clock stored (by the process that runs it) and go on with
    it after a restart or a takeover (a part of the lobby)."""

    def __init__(self, store: ClockStore, threads: Threads,
                 runs_bots: Callable[[Table], bool]) -> None:
        """``runs_bots``: whether this process runs a table's clock (holds its lease)."""
        self.store = store
        self.threads = threads
        self.runs_bots = runs_bots
        self._saved: dict[str, tuple[Any, ...]] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def save(self, table: Table) -> None:
        """Store the table's clock (by the lease holder) when its turn, away seats or
        votes changed; forget it when the game is over."""
        clock, saved = table.clock, self._saved.get(table.id)
        if table.status != TableStatus.PLAYING:
            if saved is not None:
                del self._saved[table.id]
                self._spawn(self._write(self.store.delete, table.id))
            return
        if not self.runs_bots(table) or (saved is None and not (
                table.extras.move_seconds or clock.away or clock.votes)):
            return
        key = clock_key(clock)
        if key != saved:
            self._saved[table.id] = key
            self._spawn(self._write(self.store.save, table.id, clock_snapshot(clock)))

    async def _write(self, function: Callable[..., None], *args: Any) -> None:
        with contextlib.suppress(ProtocolError):  # the next change writes it again
            await self.threads.db(function, *args)

    async def restore(self, table: Table) -> None:
        """Go on with the stored clock of the table's turn (after a restart or a
        takeover), if there is one."""
        data = await self.threads.read(self.store.load, table.id)
        if restore_clock(table.clock, data, table.turn):
            self._saved[table.id] = clock_key(table.clock)

    def stop(self) -> None:
        """Cancel the writes under way (the stored clock is as of the last one done)."""
        for task in list(self._tasks):
            task.cancel()
