"""Tables shared by several server processes on one PostgreSQL database (:class:`Shared`).

Every process holds every open table in memory, as one process alone does; the database
is the truth they all follow:

- a change (a new table, a seat, the deal, an action, the end, a rematch vote) is written
  first, and announced in its transaction (:mod:`.cluster`); each other process reads it
  back (:meth:`Shared._catch_up`: the new actions only, played on its copy of the match)
  and sends each of its connections its own seat's view;
- a second action at one turn is refused by the action log's key, a second taker of one
  seat or a second dealer of one table by a compare-and-set on the row
  (:meth:`~konkun.server.store.storage.Storage.compare_and_update`): the loser reads the
  winner's change back and its client is told the turn or the seat has gone;
- the bots and the move clock of a table run in the holder of its lease only; a sweep each
  :data:`SWEEP` seconds takes over the leases of a process that died.

One process alone (SQLite, or PostgreSQL with one server) takes none of these paths.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any, cast

from konkun.server.cluster.bus import Cluster, new_origin
from konkun.server.cluster.clockstore import ClockStore, clock_key, clock_snapshot, restore_clock
from konkun.server.core.announcements import Announcement
from konkun.server.core.connection import Connection
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.protocol import ProtocolError
from konkun.server.core.seatinfo import SeatInfo
from konkun.server.features.fair import TableFairness
from konkun.server.features.lifecycle import (
    LifecycleLobby,
    TableExtras,
    announce_rematch,
    closed_message,
    make_rematch,
    rematch_pending,
)
from konkun.server.store.clusterlimits import ClusterCounts, local_counts
from konkun.server.tables.botloop import BotRunner
from konkun.server.tables.connections import Broadcaster
from konkun.server.tables.lobbybase import LobbyBase
from konkun.server.tables.play import MovePipeline
from konkun.server.tables.table import Table, new_table_id

log = logging.getLogger("konkun.server")

SWEEP = 1.0
"""Seconds between two sweeps (leases of dead processes taken over, their connections
forgotten)."""

COUNTS_AGAIN = 10.0
"""Seconds between two announcements of all of this process's admission counts."""

REMATCH_GRACE = 2.0
"""Seconds a rematch whose votes are all stored is left to the process that made the last
vote before another one makes it (it may have died)."""

Presence = dict[str, tuple[frozenset[str], int]]
"""Who is connected to one table through each other process."""


class Shared(LobbyBase):
    """Keep this process's tables in step with the other processes' on one database."""

    broadcaster: Broadcaster
    """Connections and broadcast (built by :class:`~konkun.server.lobby.Lobby`)."""
    moves: MovePipeline
    """The move pipeline (built by :class:`~konkun.server.lobby.Lobby`)."""
    bot_runner: BotRunner
    """The bots (built by :class:`~konkun.server.lobby.Lobby`)."""
    cluster: Cluster | None = None
    revoked_sessions: set[str]
    """The revoked token sessions (the app's signer's set, kept up to date)."""

    def start_sharing(self) -> None:
        """Join the other processes if the database is shared (call in ``__init__``)."""
        self.revoked_sessions = set()
        self._presence: dict[str, Presence] = {}
        self._refreshing: set[str] = set()
        self._dirty: set[str] = set()
        self._sweeper: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self.clock_store = ClockStore(self.storage.engine)
        self._clock_saved: dict[str, tuple[Any, ...]] = {}
        self.counts = ClusterCounts()
        self._counting: asyncio.Handle | None = None
        self._counts_all_at = time.monotonic()
        self._making: dict[str, int] = {}
        """The tables and seats this process is making, by admission key."""
        self._rematch_seen: dict[str, float] = {}
        """Tables whose rematch was seen pending, and since when."""
        if self.storage.shared:
            origin = new_origin()
            self.storage.origin = origin
            self.cluster = Cluster(self.storage.url, origin, self._received)
        self.admission.others = self._others_count

    async def _join(self) -> None:
        """Listen to the others before reading the tables (so no change is missed)."""
        if self.cluster is not None:
            await self.cluster.start()
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_loop())

    async def _part(self) -> None:
        """Stop listening and give up every lease (another process takes them over)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sweeper
        for task in list(self._tasks):
            task.cancel()
        if self.cluster is not None:
            await self.cluster.stop()

    def _spawn(self, work: Any) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def get_table(self, table_id: str, keep: bool = False) -> Table:
        """The table ``table_id``, read back if needed (:class:`~.lobby.Lobby`)."""
        raise NotImplementedError

    def presence_of(self, table_id: str) -> Presence:
        """The table's connections through the other processes (one shared dict)."""
        return self._presence.setdefault(table_id, {})

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
                self._gone(table, rest.strip() or "cancelled")
        elif kind == Announcement.HELLO and self.cluster is not None:
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
            message = await self.threads.read(self.chat_store.message, table.id, number)
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
                    await self._catch_up(table)
        return table

    def attach(self, table: Table, connection: Connection) -> None:
        """Add a connection (:meth:`Broadcaster.attach`); a table that fell behind
        meanwhile is read back at once."""
        self.broadcaster.attach(table, connection)
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
        table = self.tables.get(table_id)
        if table is None:  # a load under way (a new connection) may predate the change
            async with self._loading:
                table = self.tables.get(table_id)
        if table is None:
            row = await self.threads.read(self.storage.load_since, table_id, 1 << 30)
            if row is None or row.status == TableStatus.FINISHED:
                return  # a finished game is read back when somebody asks for it
            with contextlib.suppress(ProtocolError):
                table = await self.get_table(table_id)
                self._schedule_bots(table)
            return
        async with table.lock:
            changed = await self._catch_up(table)
        if changed:
            self.broadcaster.broadcast(table)
            self._schedule_bots(table)
            if table.status == TableStatus.FINISHED and not table.connections:
                self.tables.pop(table_id, None)

    async def _resync(self) -> None:
        """After the listener reconnected: read back every table, find the new ones, the
        sessions revoked meanwhile, and ask the others to tell again who is connected
        where and their admission counts (a hello)."""
        if self.cluster is not None:
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

    async def _catch_up(self, table: Table) -> bool:
        """Bring the table to what the database holds (lock held); whether it changed."""
        if self.cluster is None:
            return False
        table.behind = False
        row = await self.threads.read(self.storage.load_since, table.id, table.turn)
        if row is None:
            self._gone(table, "cancelled")
            return False
        changed = False
        seats = [SeatInfo.from_stored(s) for s in row.seats]
        if seats != table.seats:
            table.seats, changed = seats, True
        if table.status == TableStatus.WAITING:
            fair = await self.threads.read(self.fair_store.load, table.id)  # seats' contributions
            if fair != table.fairness.fair:
                table.fairness, changed = TableFairness(fair), True
        if table.status == TableStatus.WAITING and row.status != TableStatus.WAITING \
                and row.seed is not None:
            table.seed = row.seed
            table.match = table.adapter.new_match(table.rules_value, table.num_seats,
                                                  row.seed)
            table.bots, table.status, changed = table.new_bots(), TableStatus.PLAYING, True
            table.fairness.start(table.adapter.name, table.match, [], table.seats)
        if table.match is not None:
            for seat, text in row.actions:
                table.match.play(table.match.deal.parse_action(text))
                table.actions.append((seat, text))
                table.fairness.played(table.turn, seat, text)
                table.last = {"turn": table.turn, "actor": seat, "action": text}
                changed = True
        if row.status == TableStatus.FINISHED and table.status != TableStatus.FINISHED:
            table.status, table.finished_at, table.winner = TableStatus.FINISHED, row.finished_at, \
                row.winner
            table.bots, changed = {}, True
        elif table.status == TableStatus.PLAYING and table.match is not None \
                and table.match.is_over():
            await self.moves.finish(table)  # its player stopped before marking it: mark it here
            changed = True
        if table.status != TableStatus.PLAYING:  # the creator's options, the rematch and its votes
            extras = await self.threads.read(self.extras_store.load, table.id)
            if extras.stored() != table.extras.stored():
                started = extras.rematch_to is not None and table.extras.rematch_to is None
                table.extras, changed = extras, True
                if started:  # the rematch began through another process
                    announce_rematch(table)
        return changed

    def _gone(self, table: Table, reason: str) -> None:
        """The table was removed by another process (cancelled or expired)."""
        table.status = TableStatus.CANCELLED
        self.tables.pop(table.id, None)
        self._presence.pop(table.id, None)
        for connection in list(table.connections):
            connection.close_with(closed_message(table, reason))

    def _revoked(self, session: str) -> None:
        if not session:
            return
        self.revoked_sessions.add(session)
        for table in list(self.tables.values()):
            for connection in list(table.connections):
                if connection.guest is not None and connection.guest.session == session:
                    connection.close_with({"type": "error", "code": "unauthorized",
                                           "message": "token revoked"})

    def tell_others(self, kind: Announcement, table_id: str, rest: str = "") -> None:
        """Announce ``kind`` about ``table_id`` to the other processes, if any."""
        if self.cluster is not None:
            self.cluster.send(kind, table_id, rest)

    # -- who is connected where ---------------------------------------------------------

    def connections_changed(self, table: Table) -> None:
        """A connection came, left or named its player: tell the other processes."""
        if self.cluster is None:
            return
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
            self.broadcaster.broadcast(table)

    # -- the admission counts, cluster-wide ---------------------------------------------

    def _others_count(self, key: str) -> int:
        """What the other processes count under ``key``, and this process's own tables
        and seats being made (not yet in its tables)."""
        return self.counts.others(key) + self._making.get(key, 0)

    @contextlib.asynccontextmanager
    async def admitted(self, check: Callable[[], None],
                       keys: list[str]) -> AsyncIterator[None]:
        """Run the admission ``check`` atomically across the processes: under locks on
        ``keys`` (a process checking the same address or player waits), once every
        count announced before has arrived (:meth:`~.cluster.Cluster.sync`); what it
        admits counts under ``keys`` at once, announced before the locks are released,
        until the block that makes it ends. Without the database (slow or away) the
        check falls back on the counts this process has heard. One process alone: the
        check and its count (two requests at one instant in one process count too)."""
        cluster = self.cluster
        held = cluster is not None and await cluster.hold_keys(["admit " + k for k in keys])
        try:
            if held and cluster is not None:
                await cluster.sync()
            check()
            for key in keys:
                self._making[key] = self._making.get(key, 0) + 1
            self.announce_counts()
        finally:
            if held and cluster is not None:
                await cluster.let_go_keys(["admit " + key for key in keys])
        try:
            yield
        finally:
            for key in keys:
                left = self._making.get(key, 0) - 1
                if left > 0:
                    self._making[key] = left
                else:
                    self._making.pop(key, None)
            self.counts_changed()

    def counts_changed(self) -> None:
        """This process's admission counts changed: announce them soon (once for all
        the changes of one turn of the event loop)."""
        if self.cluster is not None and self._counting is None:
            self._counting = asyncio.get_running_loop().call_soon(self.announce_counts)

    def announce_counts(self, everything: bool = False) -> None:
        """Tell the other processes what changed in this process's admission counts
        (``everything``: all of them, for a process that just joined)."""
        self._counting = None
        if self.cluster is None:
            return
        open_tables = [t for t in self.tables.values() if t.status != TableStatus.FINISHED]
        mine = local_counts(
            ((c.address, c.player_id) for t in self.tables.values() for c in t.connections),
            (t.creator_address for t in open_tables),
            (address for t in open_tables for n, address in t.seat_addresses.items()
             if t.seats[n].kind == SeatKind.HUMAN))
        for key, making in self._making.items():
            mine[key] = mine.get(key, 0) + making
        for payload in self.counts.changes(mine, everything):
            self.cluster.send(Announcement.COUNTS, "-", payload)

    # -- the move clock, stored ---------------------------------------------------------

    def store_clock(self, table: Table) -> None:
        """Store the table's clock (by the lease holder) when its turn, away seats or
        votes changed; forget it when the game is over."""
        clock, saved = table.clock, self._clock_saved.get(table.id)
        if table.status != TableStatus.PLAYING:
            if saved is not None:
                del self._clock_saved[table.id]
                self._spawn(self._clock_write(self.clock_store.delete, table.id))
            return
        if not self.runs_bots(table) or (saved is None and not (
                table.extras.move_seconds or clock.away or clock.votes)):
            return
        key = clock_key(clock)
        if key != saved:
            self._clock_saved[table.id] = key
            self._spawn(self._clock_write(self.clock_store.save, table.id,
                                          clock_snapshot(clock)))

    async def _clock_write(self, function: Any, *args: Any) -> None:
        with contextlib.suppress(ProtocolError):  # the next change writes it again
            await self.threads.db(function, *args)

    async def restore_clock(self, table: Table) -> None:
        """Go on with the stored clock of the table's turn (after a restart or a
        takeover), if there is one."""
        data = await self.threads.read(self.clock_store.load, table.id)
        if restore_clock(table.clock, data, table.turn):
            self._clock_saved[table.id] = clock_key(table.clock)

    # -- bots: the lease ----------------------------------------------------------------

    def runs_bots(self, table: Table) -> bool:
        """Whether this process holds the table's lease (always, alone)."""
        return self.cluster is None or table.id in self.cluster.owned

    def _schedule_bots(self, table: Table) -> None:
        """Start the bots when this process holds the lease; a table seen for the first
        time is claimed at once, later only by the sweep."""
        self.bot_runner.start(table, self.moves.apply)
        cluster = self.cluster
        if cluster is None or table.status != TableStatus.PLAYING or table.id in cluster.owned \
                or table.claim_tried != float("-inf"):
            return
        table.claim_tried = time.monotonic()
        self._spawn(self._claim([table.id]))

    async def _claim(self, table_ids: list[str]) -> None:
        assert self.cluster is not None
        for table_id in await self.cluster.claim_many(table_ids):
            table = self.tables.get(table_id)
            if table is None:
                continue
            async with table.lock:
                await self._catch_up(table)
                with contextlib.suppress(ProtocolError):
                    await self.restore_clock(table)
            self._schedule_bots(table)
            self.clock.changed(table)

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
        assert cluster is not None
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
                    self.broadcaster.broadcast(self.tables[table_id])
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
                self.rematch_if_pending(self.tables[table_id])

    def rematch_if_pending(self, table: Table) -> None:
        """Make the table's rematch if every vote is stored and no table was made."""
        if rematch_pending(table):
            self._spawn(self._make_pending_rematch(table))

    async def _make_pending_rematch(self, table: Table) -> None:
        try:
            async with table.lock:
                if rematch_pending(table):  # self is the Lobby, which makes tables
                    await make_rematch(cast("LifecycleLobby[Table]", self), table)
        except Exception:  # the next sweep, or the next connection, tries again
            log.warning("table %s: making its rematch failed", table.id, exc_info=True)

    @contextlib.asynccontextmanager
    async def making_rematch(self, table: Table) -> AsyncIterator[bool]:
        """Held while this process makes the table's rematch: a lock in the database
        (released by PostgreSQL if this process dies), so that one process at a time
        makes it; whether this process may (alone, always)."""
        cluster = self.cluster
        if cluster is None:
            yield True
            return
        key = f"rematch {table.id}"
        if not await cluster.hold_keys([key], wait=0):
            yield False
            return
        try:
            yield True
        finally:
            await cluster.let_go_keys([key])

    async def record_rematch_vote(self, table: Table, seat: int, contribution: str | None,
                                  humans: set[int]) -> tuple[TableExtras, bool]:
        """Store ``seat``'s rematch vote atomically and tell the other processes; the
        extras now stored and whether this vote starts the rematch
        (:meth:`~.lifecycle.ExtrasStore.vote_rematch`)."""
        extras, starts = await self.threads.db(
            self.extras_store.vote_rematch, table.id, seat, contribution, humans,
            new_table_id(), lambda session: self.storage.announce(session, table.id))
        return extras, starts

    async def record_rematch(self, table: Table, rematch: str) -> None:
        """Store where ``table``'s rematch is and tell the other processes."""
        table.extras = await self.threads.db(self.extras_store.set_rematch_to, table.id, rematch)
        self.tell_others(Announcement.TABLE, table.id)
