"""What the table features (:mod:`.chat`, :mod:`.clock`, :mod:`.lifecycle`,
:mod:`.abandon`) read of a table, and the worker threads they run in, as Protocols.

The table holds each feature's state (its clock, its extras) and the lobby builds the
features as its parts, each given its collaborators (the threads, a store, the
:class:`~konkun.server.features.replication.Replication`, and the few entry points of the
other parts it calls), so a feature names neither :class:`~konkun.server.tables.table.Table`
(which would import its own importer) nor the lobby. It names :class:`SeatedTable` here for
what every feature reads of a table, and, next to its use, the few more members it needs
(``ClockedTable`` in :mod:`.clock`, ``LifecycleTable`` in :mod:`.lifecycle`,
``AbandonTable`` in :mod:`.abandon`). ``Table`` satisfies them structurally; mypy checks it
where the lobby builds the parts.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from konkun.server.core.connection import Connection
from konkun.server.core.kinds import TableStatus
from konkun.server.core.seatinfo import SeatInfo

T = TypeVar("T")


class SeatedTable(Protocol):
    """A table as every feature reads it: its seats, who is here, its status and turn, its
    lock and its connections."""

    id: str
    seats: list[SeatInfo]
    status: TableStatus
    lock: asyncio.Lock
    connections: set[Connection]

    @property
    def num_seats(self) -> int:
        """How many seats the table has."""

    @property
    def turn(self) -> int:
        """The number of actions played in the match."""

    @property
    def to_move(self) -> int | None:
        """The seat to act, or ``None`` when nobody is."""

    def seat_of(self, player_id: str | None) -> int | None:
        """The seat ``player_id`` holds at this table, if any."""

    def is_connected(self, number: int) -> bool:
        """Whether the seat's holder is here (bots always are)."""


class RunsInThreads(Protocol):
    """The lobby's worker threads: the database's and the bots'."""

    async def db(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in the storage thread."""

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in a bot thread."""


TableU = TypeVar("TableU", bound=SeatedTable)


def let_go(tables: dict[str, TableU], table: TableU) -> None:
    """Take ``table`` out of memory if it is still the one held under its id: one read
    back again meanwhile (a connection came) is another object, and stays."""
    if tables.get(table.id) is table:
        del tables[table.id]
