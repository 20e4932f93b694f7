"""What the table features (:mod:`.chat`, :mod:`.clock`, :mod:`.lifecycle`) use of a table
and of the lobby, as Protocols.

The table holds each feature's state (its clock, its extras) and the lobby builds the
features, so a feature that named :class:`~konkun.server.tables.table.Table` or
:class:`~konkun.server.lobby.Lobby` would import its own importer. A feature names the
ports instead: :class:`SeatedTable` here for what every feature reads of a table, and, next
to its use, the few more members it needs (``ClockedTable`` and ``ClockLobby`` in
:mod:`.clock`, ``LifecycleTable`` and ``LifecycleLobby`` in :mod:`.lifecycle`, ``ChatLobby``
in :mod:`.chat`). ``Table`` and ``Lobby`` satisfy them structurally; mypy checks it where the
lobby hands itself and its tables to a feature.
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
