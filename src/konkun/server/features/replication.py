"""Replication (:class:`Replication`): what a server process tells the other processes
that share its database, and what it reads back from them.

The parts of the lobby that change a table publish through a :class:`Replication` they are
given (a chat message, a closed table, who is connected, the admission counts) and ask it
whether this process acts for a table (:meth:`Replication.runs_bots`) and to read back
what other processes stored (:meth:`Replication.catch_up`). One process alone uses
:class:`LocalReplication`, which tells nobody and reads nothing back (as an in-memory
pub-sub with one subscriber); several processes on one PostgreSQL database use
:class:`konkun.server.cluster.shared.ClusterReplication`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from konkun.server.core.announcements import Announcement
from konkun.server.features.admission import Admission
from konkun.server.features.ports import SeatedTable

Presence = dict[str, tuple[frozenset[str], int]]
"""Who is connected to one table through each other process: by process, the players'
ids and the number of spectators."""

TableT = TypeVar("TableT", bound=SeatedTable)


@dataclass(frozen=True)
class Reactions(Generic[TableT]):
    """What replication does with a table another process changed: the other parts'
    entry points, given when it starts listening (:meth:`Replication.start`)."""

    broadcast: Callable[[TableT], None]
    """Send every connection of the table its view."""
    finish: Callable[[TableT], Awaitable[None]]
    """Mark a table whose match is over finished (lock held)."""
    start_bots: Callable[[TableT], None]
    """Start the table's bots if one is to act."""
    load: Callable[[str], Awaitable[TableT]]
    """The table of an id, read from the database if not in memory."""
    restore_clock: Callable[[TableT], Awaitable[None]]
    """Go on with the table's stored move clock (after a takeover)."""
    clock_changed: Callable[[TableT], None]
    """Bring the table's move clock up to date."""
    rematch_if_pending: Callable[[TableT], None]
    """Make the table's rematch if every vote is stored and no table was made."""


class Making:
    """The tables and seats this process is making, by admission key and identity (from
    the admission check until the block that makes them ends; by then the table shows
    them, under the same identities)."""

    def __init__(self) -> None:
        self._entries: dict[tuple[str, str], int] = {}

    def held(self, key: str) -> set[str]:
        """The identities being made under ``key``."""
        return {identity for k, identity in self._entries if k == key}

    def entries(self) -> set[tuple[str, str]]:
        """Every ``(key, identity)`` being made."""
        return set(self._entries)

    def add(self, keys: list[str], identity: str) -> None:
        """``identity`` is being made under each of ``keys``."""
        for key in keys:
            self._entries[key, identity] = self._entries.get((key, identity), 0) + 1

    def remove(self, keys: list[str], identity: str) -> None:
        """One making of ``identity`` under each of ``keys`` ended."""
        for key in keys:
            left = self._entries.get((key, identity), 0) - 1
            if left > 0:
                self._entries[key, identity] = left
            else:
                self._entries.pop((key, identity), None)


class Replication(Protocol[TableT]):
    """What the parts of the lobby use of the other server processes."""

    revoked_sessions: set[str]
    """The revoked token sessions (the app's signer's set, kept up to date)."""

    async def start(self, reactions: Reactions[TableT]) -> None:
        """Listen to the other processes (before the tables are read, so no change is
        missed), reacting to their changes with ``reactions``."""

    async def stop(self) -> None:
        """Stop listening and give up every lease."""

    def tell(self, kind: Announcement, table_id: str, rest: str = "") -> None:
        """Announce ``kind`` about ``table_id`` to the other processes."""

    async def catch_up(self, table: TableT) -> bool:
        """Bring the table to what the database holds (lock held); whether it changed."""

    async def up_to_date(self, table: TableT) -> TableT:
        """``table``, with what other processes played read back first."""

    def watched(self, table: TableT) -> None:
        """A connection was attached to the table: read it back now if it fell behind."""

    def runs_bots(self, table: TableT) -> bool:
        """Whether this process plays the table's bots and clock (holds its lease)."""

    def claim(self, table: TableT) -> None:
        """The table's bots may start: claim its lease if it is seen for the first time."""

    def presence_of(self, table_id: str) -> Presence:
        """The table's connections through the other processes."""

    def forget(self, table_id: str) -> None:
        """The table was removed: forget who is connected to it elsewhere."""

    def connections_changed(self, table: TableT) -> None:
        """A connection came, left or named its player: tell the other processes."""

    def counts_changed(self) -> None:
        """This process's admission counts changed: tell the other processes soon."""

    def admitted(self, check: Callable[[], None], keys: list[str],
                 identity: str) -> AbstractAsyncContextManager[None]:
        """Run the admission ``check`` atomically across the processes; what it admits
        (the table or seat ``identity``) counts under ``keys`` until the block ends."""

    def making_rematch(self, table: TableT) -> AbstractAsyncContextManager[bool]:
        """Held while this process makes the table's rematch: whether it may (no other
        process is making it now)."""


class LocalReplication(Generic[TableT]):
    """Replication for one process alone: nobody to tell, nothing to read back, every
    table's bots and clock run here."""

    def __init__(self, admission: Admission) -> None:
        self.revoked_sessions: set[str] = set()
        self.making = Making()
        admission.held_elsewhere = self.making.held

    async def start(self, reactions: Reactions[TableT]) -> None:
        """Nothing to listen to."""

    async def stop(self) -> None:
        """Nothing to stop."""

    def tell(self, kind: Announcement, table_id: str, rest: str = "") -> None:
        """Nobody to tell."""

    async def catch_up(self, table: TableT) -> bool:
        """Nothing changed elsewhere."""
        return False

    async def up_to_date(self, table: TableT) -> TableT:
        """``table`` as it is: this process made every change."""
        return table

    def watched(self, table: TableT) -> None:
        """A table is never behind."""

    def runs_bots(self, table: TableT) -> bool:
        """Always: no other process could."""
        return True

    def claim(self, table: TableT) -> None:
        """No lease to claim."""

    def presence_of(self, table_id: str) -> Presence:
        """Nobody is connected elsewhere."""
        return {}

    def forget(self, table_id: str) -> None:
        """Nothing to forget."""

    def connections_changed(self, table: TableT) -> None:
        """Nobody to tell."""

    def counts_changed(self) -> None:
        """Nobody to tell."""

    @contextlib.asynccontextmanager
    async def admitted(self, check: Callable[[], None], keys: list[str],
                       identity: str) -> AsyncIterator[None]:
        """Run ``check``; what it admits (``identity``) counts under ``keys`` until the
        block ends (two requests at one instant count each other)."""
        check()
        self.making.add(keys, identity)
        try:
            yield
        finally:
            self.making.remove(keys, identity)

    @contextlib.asynccontextmanager
    async def making_rematch(self, table: TableT) -> AsyncIterator[bool]:
        """This process alone may always make it."""
        yield True
