"""The abandonment policy (``docs/server.md``): every playing table whose person stops
playing ends, or is handed over, in a bounded time, with a clock or without, connected
or not.

A human seat (that has not resigned) is **idle** when

- it is to move and has not moved for ``Settings.abandon_seconds`` (300 s) since the
  turn began (or since this server process first saw the turn: a restart counts anew);
- or the stand-in bot has played it without a break for ``abandon_seconds`` (a clocked
  table whose player never comes back);
- or its player has been disconnected for ``abandon_seconds``.

:meth:`Abandonment.sweep` (run by the lobby every ``abandon_seconds / 10`` seconds at
most) gives up every idle seat as a resignation with the reason ``abandoned``
(:meth:`~konkun.server.features.lifecycle.Lifecycle.give_up`): with two seats, or when no
person is left, the match ends and the idle seats rank last; otherwise the stand-in plays them for
nothing and the others play on. The other seated people need not wait that long: once
the person to move has been idle ``Settings.idle_claim_seconds`` (60 s), any of them may
**claim** (``{"type": "claim"}``), which gives up the idle seat at once.
"""

from __future__ import annotations

import contextlib
import time
from typing import TYPE_CHECKING, Generic, Protocol, TypeVar

from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.features.clock import SeatClock
from konkun.server.features.lifecycle import Lifecycle, LifecycleTable
from konkun.server.features.replication import Replication

if TYPE_CHECKING:
    from konkun.server.core.auth import Guest


class AbandonTable(LifecycleTable, Protocol):
    """A table as the abandonment policy reads it: besides its life cycle, its clock and
    who is connected."""

    clock: SeatClock

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None``."""

    def is_connected(self, number: int) -> bool:
        """Whether the seat's holder is here."""


TableT = TypeVar("TableT", bound=AbandonTable)


def idle_seats(table: AbandonTable, now: float, after: float) -> list[int]:
    """The human seats of a playing ``table`` idle for ``after`` seconds at ``now``."""
    if table.status != TableStatus.PLAYING:
        return []
    clock = table.clock
    if clock.turn != table.turn:  # a turn this process has not timed yet: from now
        clock.turn, clock.turn_started = table.turn, now
    idle = []
    for seat, holder in enumerate(table.seats):
        if holder.kind != SeatKind.HUMAN or seat in table.extras.resigned:
            continue
        waited = now - clock.turn_started if table.to_move == seat else 0.0
        played_for = now - clock.away_since.get(seat, now)
        gone = 0.0 if table.is_connected(seat) else now - clock.absent_since.get(seat, now)
        if max(waited, played_for, gone) >= after:
            idle.append(seat)
    return idle


class Abandonment(Generic[TableT]):
    """The abandonment policy over the lobby's tables (a part of the lobby)."""

    def __init__(self, tables: dict[str, TableT], lifecycle: Lifecycle[TableT],
                 replication: Replication[TableT]) -> None:
        """``tables``: the lobby's tables in memory; ``lifecycle``: gives the idle seats
        up; ``replication``: whether this process acts for a table, and reads back what
        the other processes changed."""
        self.tables = tables
        self.lifecycle = lifecycle
        self.replication = replication

    async def sweep(self, after: float) -> list[str]:
        """Give up every seat idle for ``after`` seconds at the tables this process acts for;
        return the ids of the tables that changed."""
        changed = []
        for table in list(self.tables.values()):
            if table.status != TableStatus.PLAYING or not self.replication.runs_bots(table) \
                    or not idle_seats(table, time.monotonic(), after):
                continue
            with contextlib.suppress(ProtocolError):  # storage away: the next sweep retries
                async with table.lock:
                    await self.replication.catch_up(table)
                    seats = idle_seats(table, time.monotonic(), after)
                    if seats:
                        await self.lifecycle.give_up(table, seats, "abandoned")
                        changed.append(table.id)
        return changed


    async def claim(self, table: TableT, guest: Guest | None, after: float) -> None:
        """``guest``, seated and playing, claims the seat to move, idle for ``after`` seconds:
        it is given up at once (``not_idle`` before that)."""
        async with table.lock:
            await self.replication.catch_up(table)
            seat = table.seat_of(guest.player_id if guest else None)
            if seat is None or seat in table.extras.resigned:
                raise ProtocolError("not_seated", "only a seated player still playing can "
                                    "claim", table.id)
            if table.status != TableStatus.PLAYING:
                raise ProtocolError("game_over", "the game is over", table.id)
            mover = table.to_move
            now = time.monotonic()
            idle = idle_seats(table, now, after)
            if mover is None or mover == seat or mover not in idle:
                waited = 0.0 if mover is None else now - table.clock.turn_started
                raise ProtocolError("not_idle", f"the player to move has been idle {waited:.0f} "
                                    f"s; a claim needs {after:.0f} s", mover)
            await self.lifecycle.give_up(table, [mover], "abandoned")
