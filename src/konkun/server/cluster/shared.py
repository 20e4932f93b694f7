"""Tables shared by several server processes on one PostgreSQL database
(:class:`ClusterReplication`, the :class:`~konkun.server.features.replication.Replication`
of several processes).

Every process holds every open table in memory, as one process alone does; the database
is the truth they all follow:

- a change (a new table, a seat, the deal, an action, the end, a rematch vote) is written
  first, and announced in its transaction (:mod:`.cluster`); each other process reads it
  back (:meth:`ClusterReplication.catch_up`: the new actions only, played on its copy of the match)
  and sends each of its connections its own seat's view;
- a second action at one turn is refused by the action log's key, a second taker of one
  seat or a second dealer of one table by a compare-and-set on the row
  (:meth:`~konkun.server.store.storage.Storage.compare_and_update`): the loser reads the
  winner's change back and its client is told the turn or the seat has gone;
- the bots and the move clock of a table run in the holder of its lease only; a sweep each
  :data:`SWEEP` seconds takes over the leases of a process that died.

One process on SQLite takes none of these paths
(:class:`~konkun.server.features.replication.LocalReplication`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Coroutine
from typing import Any

from konkun.server.cluster.bus import Cluster, new_origin
from konkun.server.core.announcements import Announcement
from konkun.server.core.kinds import TableStatus
from konkun.server.core.outbound import CloseReason
from konkun.server.core.protocol import ProtocolError, error_payload
from konkun.server.features.admission import Admission, held_at
from konkun.server.features.chat import ChatStore
from konkun.server.features.fair import FairStore, TableFairness
from konkun.server.features.lifecycle import (
    ExtrasStore,
    announce_rematch,
    closed_message,
    rematch_pending,
)
from konkun.server.features.ports import let_go
from konkun.server.features.replication import Making, Presence, Reactions
from konkun.server.store.clusterlimits import ClusterCounts, Statement, local_counts
from konkun.server.store.storage import Storage
from konkun.server.tables.table import Table
from konkun.server.tables.threads import Threads

log = logging.getLogger("konkun.server")

SWEEP = 1.0
"""Seconds between two sweeps (leases of dead processes taken over, their connections
forgotten)."""

COUNTS_AGAIN = 10.0
"""Seconds between two announcements of all of this process's admission counts."""

REMATCH_GRACE = 2.0
"""Seconds a rematch whose votes are all stored is left to the process that made the last
vote before another one makes it (it may have died)."""


class Stores:
    """The stores a table's state is read back from (its row, fairness, extras, chat)."""

    def __init__(self, storage: Storage, fair: FairStore, extras: ExtrasStore,
                 chat: ChatStore) -> None:
        self.storage = storage
        self.fair = fair
        self.extras = extras
        self.chat = chat


class ClusterReplication:
    """Keep this process's tables in step with the other processes' on one database."""

    def __init__(self, tables: dict[str, Table], stores: Stores, threads: Threads,
                 admission: Admission, loading: asyncio.Lock) -> None:
        """``tables``: the lobby's tables in memory; ``loading``: held while the lobby
        reads a table in (a change announced meanwhile waits for it)."""
        self.tables = tables
        self.stores = stores
        self.storage = stores.storage
        self.threads = threads
        self._loading = loading
        self.revoked_sessions: set[str] = set()
        self._reactions: Reactions[Table] | None = None
        self._presence: dict[str, Presence] = {}
        self._refreshing: set[str] = set()
        self._dirty: set[str] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.counts = ClusterCounts()
        self._counting: asyncio.Handle | None = None
        self._counts_all_at = time.monotonic()
        self._making = Making()
        self._rematch_seen: dict[str, float] = {}
        """Tables whose rematch was seen pending, and since when."""
        origin = new_origin()
        self.storage.origin = origin
        self.cluster = Cluster(self.storage.url, origin, self._received)
        admission.others = self.counts.others
        admission.held_elsewhere = self._held_elsewhere

    @property
    def reactions(self) -> Reactions[Table]:
        """What to do with a changed table (given by :meth:`start`)."""
        assert self._reactions is not None, "replication used before it started"
        return self._reactions

    async def start(self, reactions: Reactions[Table]) -> None:
        """Listen to the others before reading the tables (so no change is missed)."""
        self._reactions = reactions
        await self.cluster.start()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    async def stop(self) -> None:
        """Stop listening and give up every lease (another process takes them over)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        for task in list(self._tasks):
            task.cancel()
        await self.cluster.stop()

    def _spawn(self, work: Coroutine[Any, Any, Any]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def presence_of(self, table_id: str) -> Presence:
        """The table's connections through the other processes (one shared dict)."""
        return self._presence.setdefault(table_id, {})

    def forget(self, table_id: str) -> None:
        """The table was removed: forget who is connected to it elsewhere."""
        self._presence.pop(table_id, None)

    # -- what the others announce -------------------------------------------------------

    def _received(self, kind: Announcement, origin: str, table_id: str, rest: str) -> None:
        """One announcement of another process (on the event loop)."""
        if kind == Announcement.TABLE:
            self._want_refresh(table_id)
        elif kind == Announcement.ACTION:
            self._action_elsewhere(table_id)
        elif kind == Announcement.PRESENCE:
            self._remote_presence(origin, table_id, rest)
        elif kind == Announcement.CLOSED:
            table = self.tables.get(table_id)
            if table is not None:
                self._gone(table, "expired" if rest.strip() == "expired" else "cancelled")
        elif kind == Announcement.HELLO:
            for table in self.tables.values():
                if table.connections:
                    self.connections_changed(table)
            self.announce_counts(everything=True)
        elif kind == Announcement.COUNTS:
            self.counts.received(origin, rest)
        elif kind == Announcement.REVOKED:
            self._revoked(rest.strip())
        elif kind == Announcement.CHAT:
            self._chat_elsewhere(table_id, rest)
        elif kind == Announcement.RESYNC:
            self._spawn(self._resync())

    def _chat_elsewhere(self, table_id: str, rest: str) -> None:
        """Another process stored a chat message: send it to this process's connections
        of the table, if any."""
        table = self.tables.get(table_id)
        if table is None or not table.connections or not rest.strip().isdigit():
            return
        self._spawn(self._relay_chat(table, int(rest)))

    async def _relay_chat(self, table: Table, number: int) -> None:
        try:
            message = await self.threads.read(self.stores.chat.message, table.id, number)
        except ProtocolError:  # the database is away: the history has it later
            return
        if message is not None:
            for connection in list(table.connections):
                connection.send(message)

    def _action_elsewhere(self, table_id: str) -> None:
        """Another process stored an action: read it back now if this process serves the
        table (connections, the lease), else only when it comes to need the table."""
        table = self.tables.get(table_id)
        if table is None:
            return
        if table.connections or self.runs_bots(table):
            self._want_refresh(table_id)
        else:
            table.behind = True

    async def up_to_date(self, table: Table) -> Table:
        """``table``, with the actions other processes played read back first."""
        if table.behind:
            async with table.lock:
                if table.behind:
                    await self.catch_up(table)
        return table

    def watched(self, table: Table) -> None:
        """A connection was attached: a table that fell behind is read back at once."""
        if table.behind:
            self._want_refresh(table.id)

    def _want_refresh(self, table_id: str) -> None:
        """Read the table back soon; announcements during a read make one more read."""
        if table_id in self._refreshing:
            self._dirty.add(table_id)
            return
        self._refreshing.add(table_id)
        self._spawn(self._refresh_loop(table_id))

    async def _refresh_loop(self, table_id: str) -> None:
        try:
            while True:
                self._dirty.discard(table_id)
                try:
                    await self._refresh(table_id)
                except Exception:
                    log.exception("table %s: reading another process's change failed",
                                  table_id)
                if table_id not in self._dirty:
                    return
        finally:
            self._refreshing.discard(table_id)

    async def _refresh(self, table_id: str) -> None:
        reactions = self.reactions
        table = self.tables.get(table_id)
        if table is None:  # a load under way (a new connection) may predate the change
            async with self._loading:
                table = self.tables.get(table_id)
        if table is None:
            row = await self.threads.read(self.storage.load_since, table_id, 1 << 30)
            if row is None or row.status == TableStatus.FINISHED:
                return  # a finished game is read back when somebody asks for it
            with contextlib.suppress(ProtocolError):
                table = await reactions.load(table_id)
                reactions.start_bots(table)
            return
        async with table.lock:
            held = set(held_at([table]))
            await self.catch_up(table)
        if table.unshown:  # read back now, or before by a part that did not broadcast
            reactions.broadcast(table)
            reactions.start_bots(table)
            if table.status == TableStatus.FINISHED and not table.connections:
                let_go(self.tables, table)
            if set(held_at([table])) != held:  # a seat taken or left, the table finished
                self.counts_changed()

    async def _resync(self) -> None:
        """After the listener reconnected: read back every table, find the new ones, the
        sessions revoked meanwhile, and ask the others to tell again who is connected
        where and their admission counts (a hello)."""
        self.cluster.send(Announcement.HELLO, "-")
        for table_id in list(self.tables):
            self._want_refresh(table_id)
        for session in await self.threads.read(self.storage.revoked_sessions):
            if session not in self.revoked_sessions:
                self._revoked(session)
        for status in (TableStatus.WAITING.value, TableStatus.PLAYING.value):
            offset = 0
            while True:
                rows = await self.threads.read(self.storage.list_tables, status, 500, offset)
                for row in rows:
                    if row.id not in self.tables:
                        self._want_refresh(row.id)
                if len(rows) < 500:
                    break
                offset += 500

    async def catch_up(self, table: Table) -> bool:
        """Bring the table to what the database holds (lock held); whether it changed."""
        table.behind = False
        row = await self.threads.read(self.storage.load_since, table.id, table.turn)
        if row is None:
            self._gone(table, "cancelled")
            return False
        changed = False
        waited = table.status == TableStatus.WAITING
        if waited:
            fair = await self.threads.read(self.stores.fair.load, table.id)  # contributions
            if fair != table.fairness.fair:
                table.fairness, changed = TableFairness(fair), True
        changed = table.follow(row) or changed
        if table.status == TableStatus.PLAYING and table.match is not None \
                and table.match.is_over():
            await self.reactions.finish(table)  # its player stopped before marking it
            changed = True
        if waited or table.status != TableStatus.PLAYING:
            # the creator's options, the seats' addresses (also those stored just before
            # the deal that this read-back found), the rematch, votes
            extras = await self.threads.read(self.stores.extras.load, table.id)
            if extras.stored() != table.extras.stored():
                started = extras.rematch_to is not None and table.extras.rematch_to is None
                table.extras, changed = extras, True
                if started:  # the rematch began through another process
                    announce_rematch(table)
        table.unshown = table.unshown or changed
        return changed

    def _gone(self, table: Table, reason: CloseReason) -> None:
        """The table was removed by another process (cancelled or expired)."""
        table.status = TableStatus.CANCELLED
        self.tables.pop(table.id, None)
        self._presence.pop(table.id, None)
        self.counts_changed()  # its table and seats no longer count
        for connection in list(table.connections):
            connection.close_with(closed_message(table, reason))

    def _revoked(self, session: str) -> None:
        if not session:
            return
        self.revoked_sessions.add(session)
        for table in list(self.tables.values()):
            for connection in list(table.connections):
                if connection.guest is not None and connection.guest.session == session:
                    connection.close_with(error_payload("unauthorized", "token revoked"))

    def tell(self, kind: Announcement, table_id: str, rest: str = "") -> None:
        """Announce ``kind`` about ``table_id`` to the other processes."""
        self.cluster.send(kind, table_id, rest)

    # -- who is connected where ---------------------------------------------------------

    def connections_changed(self, table: Table) -> None:
        """A connection came, left or named its player: tell the other processes."""
        self.counts_changed()
        players = {c.player_id for c in table.connections
                   if c.player_id is not None and table.seat_of(c.player_id) is not None}
        spectators = sum(1 for c in table.connections if table.seat_of(c.player_id) is None)
        self.cluster.send_presence(table.id, {p for p in players if p}, spectators)

    def _remote_presence(self, origin: str, table_id: str, rest: str) -> None:
        try:
            players, spectators = json.loads(rest)
            seen = (frozenset(str(p) for p in players), int(spectators))
        except (ValueError, TypeError):
            return
        presence = self.presence_of(table_id)
        if seen[0] or seen[1]:
            presence[origin] = seen
        else:
            presence.pop(origin, None)
        table = self.tables.get(table_id)
        if table is not None:
            table.remote = presence
            self.reactions.broadcast(table)

    # -- the admission counts, cluster-wide ---------------------------------------------

    def _held_elsewhere(self, key: str) -> set[str]:
        """The tables or seats under ``key`` the other processes announce, and those this
        process is making (not yet in its tables)."""
        return self.counts.held(key) | self._making.held(key)

    @contextlib.asynccontextmanager
    async def admitted(self, check: Callable[[], None], keys: list[str],
                       identity: str) -> AsyncIterator[None]:
        """Run the admission ``check`` atomically across the processes: under locks on
        ``keys`` (a process checking the same address or player waits), once every
        identity announced before has arrived (:meth:`~.cluster.Cluster.sync`); what it
        admits (the table or seat ``identity``) counts under ``keys`` at once, announced
        before the locks are released, until the block that makes it ends, when the
        table shows it under the same identity. Without the database (slow or away) the
        check falls back on what this process has heard."""
        cluster = self.cluster
        held = await cluster.hold_keys(["admit " + k for k in keys])
        try:
            if held:
                await cluster.sync()
            check()
            self._making.add(keys, identity)
            self.announce_counts()
        finally:
            if held:
                await cluster.let_go_keys(["admit " + key for key in keys])
        try:
            yield
        finally:
            self._making.remove(keys, identity)
            self.counts_changed()

    def counts_changed(self) -> None:
        """This process's admission counts changed: announce them soon (once for all
        the changes of one turn of the event loop)."""
        if self._counting is None:
            self._counting = asyncio.get_running_loop().call_soon(self.announce_counts)

    def announce_counts(self, everything: bool = False) -> None:
        """Tell the other processes what changed in this process's admission counts
        (``everything``: all of them, replacing what they heard before): its connections
        counted, and by identity the tables and seats its tables show (made here or
        followed from the database) and those it is making."""
        self._counting = None
        mine = Statement(
            local_counts((c.address, c.player_id)
                         for t in self.tables.values() for c in t.connections),
            set(held_at(self.tables.values())) | self._making.entries())
        for payload in self.counts.changes(mine, everything):
            self.cluster.send(Announcement.COUNTS, "-", payload)

    # -- bots: the lease ----------------------------------------------------------------

    def runs_bots(self, table: Table) -> bool:
        """Whether this process holds the table's lease."""
        return table.id in self.cluster.owned

    def claim(self, table: Table) -> None:
        """A table seen for the first time is claimed at once, later only by the sweep."""
        if table.status != TableStatus.PLAYING or table.id in self.cluster.owned \
                or table.claim_tried != float("-inf"):
            return
        table.claim_tried = time.monotonic()
        self._spawn(self._claim([table.id]))

    async def _claim(self, table_ids: list[str]) -> None:
        reactions = self.reactions
        for table_id in await self.cluster.claim_many(table_ids):
            table = self.tables.get(table_id)
            if table is None:
                continue
            async with table.lock:
                await self.catch_up(table)
                with contextlib.suppress(ProtocolError):
                    await reactions.restore_clock(table)
            reactions.start_bots(table)
            reactions.clock_changed(table)

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(SWEEP)
            try:
                await self._sweep()
            except Exception:  # the next sweep tries again
                log.debug("cluster sweep failed", exc_info=True)

    async def _sweep(self) -> None:
        """Take over the leases nobody holds, give up those of ended tables, forget the
        connections of processes gone silent."""
        cluster = self.cluster
        for table_id in list(cluster.owned):
            table = self.tables.get(table_id)
            if table is None or table.status != TableStatus.PLAYING:
                await cluster.release(table_id)
        orphans = [t.id for t in self.tables.values()
                   if t.status == TableStatus.PLAYING and t.id not in cluster.owned]
        if orphans:
            await self._claim(orphans)
        # a table finished meanwhile frees its creator's count; now and then everything,
        # for a process that forgot this one's counts while it seemed silent
        everything = time.monotonic() - self._counts_all_at > COUNTS_AGAIN
        if everything:
            self._counts_all_at = time.monotonic()
        self.announce_counts(everything)
        for peer in cluster.gone_peers():
            self.counts.forget(peer)
            for table_id, presence in list(self._presence.items()):
                if presence.pop(peer, None) is not None and table_id in self.tables:
                    self.reactions.broadcast(self.tables[table_id])
        for table_id in [k for k, v in self._presence.items()
                         if not v and k not in self.tables]:
            del self._presence[table_id]
        self._rematch_sweep()

    # -- rematches whose maker died -------------------------------------------------------

    def _rematch_sweep(self) -> None:
        """Make the rematches pending for :data:`REMATCH_GRACE` seconds (every vote stored,
        no table made: the process that took the last vote may have died)."""
        now = time.monotonic()
        pending = {t.id for t in self.tables.values() if rematch_pending(t)}
        self._rematch_seen = {k: v for k, v in self._rematch_seen.items() if k in pending}
        for table_id in pending:
            since = self._rematch_seen.setdefault(table_id, now)
            if now - since >= REMATCH_GRACE:
                self._rematch_seen[table_id] = now  # not again before the next grace
                self.reactions.rematch_if_pending(self.tables[table_id])

    @contextlib.asynccontextmanager
    async def making_rematch(self, table: Table) -> AsyncIterator[bool]:
        """Held while this process makes the table's rematch: a lock in the database
        (released by PostgreSQL if this process dies), so that one process at a time
        makes it; whether this process may."""
        key = f"rematch {table.id}"
        if not await self.cluster.hold_keys([key], wait=0):
            yield False
            return
        try:
            yield True
        finally:
            await self.cluster.let_go_keys([key])
