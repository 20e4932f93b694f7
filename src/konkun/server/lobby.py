"""The lobby (:class:`Lobby`): every table of one server, made, found, restored and
played. Its concerns live in the parts it puts together (connections and broadcast, the
move pipeline, the bot runner, seating, replays, the stored clocks and the replication
with the other server processes); here are its life cycle (restoring the unfinished
tables at start, expiring and pruning, stopping) and finding and making tables.

- Only the server holds the state; every action is checked with the engine, then **stored**
  (committed to the database), then applied, and only then broadcast (:mod:`.play`).
- Each connection receives its own seat's view (:mod:`.connections`).
- One :class:`asyncio.Lock` per table serializes everything that changes it.
- Bots think in worker threads; the event loop only applies their answers (:mod:`.botloop`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from konkun.errors import KonkunError
from konkun.fairness import FairSeed
from konkun.server.cluster.clockstore import ClockStore, StoredClocks
from konkun.server.cluster.shared import ClusterReplication, Stores
from konkun.server.core.announcements import Announcement
from konkun.server.core.auth import Guest
from konkun.server.core.botseats import check_bot_spec
from konkun.server.core.config import Settings
from konkun.server.core.connection import Connection
from konkun.server.core.games import game_names, get_game
from konkun.server.core.kinds import SeatKind, TableStatus
from konkun.server.core.protocol import ProtocolError, error_payload
from konkun.server.core.seatinfo import SeatInfo
from konkun.server.features.abandon import Abandonment
from konkun.server.features.chat import Chat
from konkun.server.features.clock import ClockKeeper, cancel_timers
from konkun.server.features.fair import TableFairness, fair_fields_of_row
from konkun.server.features.lifecycle import Lifecycle, TableExtras
from konkun.server.features.replays import EncodedReplay
from konkun.server.features.replication import (
    LocalReplication,
    Reactions,
    Replication,
)
from konkun.server.store.storage import Storage, StoredTable, now_text
from konkun.server.tables.botloop import BotRunner
from konkun.server.tables.connections import Broadcaster
from konkun.server.tables.lobbybase import LobbyBase
from konkun.server.tables.play import MovePipeline
from konkun.server.tables.replayframes import ReplayViews
from konkun.server.tables.seats import Seating
from konkun.server.tables.table import Table, new_table_id, stored_summary
from konkun.server.tables.threads import load_row

log = logging.getLogger("konkun.server")


class Lobby(LobbyBase):
    """Every table of one server, with the storage and the bot workers they use."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        super().__init__(storage, settings)
        self.replication: Replication[Table] = LocalReplication(self.admission) \
            if not storage.shared else ClusterReplication(
                self.tables, Stores(storage, self.fair_store, self.extras_store,
                                    self.chat_store),
                self.threads, self.admission, self._loading)
        """This process's tables kept in step with other processes' (none on SQLite)."""
        self.stored_clocks = StoredClocks(ClockStore(storage.engine), self.threads,
                                          self.replication.runs_bots)
        self.broadcaster = Broadcaster(self.tables, self.admission,
                                       connections_changed=self.replication
                                       .connections_changed,
                                       broadcasted=self.stored_clocks.save)
        self.bot_runner = BotRunner(settings, self.scheduler,
                                    runs_bots=self.replication.runs_bots)
        self.moves = MovePipeline(self.tables, storage, self.threads, self.commits,
                                  self.finish_hooks, broadcast=self.broadcaster.broadcast,
                                  catch_up=self.replication.catch_up,
                                  start_bots=self._start_bots)
        self.seating = Seating(self.tables, storage, self.threads, self.fair_store,
                               self.admission, admitted=self.replication.admitted,
                               catch_up=self.replication.catch_up,
                               broadcast=self.broadcaster.broadcast,
                               start_bots=self._start_bots,
                               counts_changed=self.replication.counts_changed)
        self.replay_views = ReplayViews(settings, storage, self.threads, self.fair_store,
                                        self.chat_store, self.replays, self.replay_worker)
        self.clock: ClockKeeper[Table] = ClockKeeper(
            settings, self.threads, self.extras_store, runs_bots=self.replication.runs_bots,
            apply=partial(self.moves.apply, stand_in=True),  # it plays the stand-in's moves
            broadcast=self.broadcaster.broadcast)
        self.broadcaster.before_broadcast.append(self.clock.changed)
        self.chat = Chat(self.threads, self.chat_store, self.chat_limits, self.replication)
        self.lifecycle: Lifecycle[Table] = Lifecycle(
            self.tables, self.threads, self.extras_store, self.replication,
            broadcast=self.broadcaster.broadcast, end_match=self.moves.end,
            seat_players=self.seating.seat_players, create_table=self.create_table,
            get_table=self.get_table, new_id=new_table_id, announce=storage.announce)
        self.abandonment = Abandonment(self.tables, self.lifecycle, self.replication)

    def _start_bots(self, table: Table) -> None:
        """Start the table's bots when this process holds its lease (a table seen for the
        first time is claimed)."""
        self.bot_runner.start(table, self.moves.apply)
        self.replication.claim(table)

    @property
    def revoked_sessions(self) -> set[str]:
        """The revoked token sessions (the app's signer's set, kept up to date)."""
        return self.replication.revoked_sessions

    @revoked_sessions.setter
    def revoked_sessions(self, sessions: set[str]) -> None:
        self.replication.revoked_sessions = sessions

    def attach(self, table: Table, connection: Connection) -> None:
        """Add a connection (:meth:`Broadcaster.attach`); a table that fell behind
        meanwhile is read back at once."""
        self.broadcaster.attach(table, connection)
        self.replication.watched(table)

    async def replay(self, table_id: str, seat: str | None) -> dict[str, Any]:
        """Every frame of a finished game (:meth:`ReplayViews.replay`)."""
        return await self.replay_views.replay(table_id, seat)

    async def encoded_replay(self, table_id: str, seat: str | None) -> EncodedReplay:
        """A finished game's replay as JSON bytes (:meth:`ReplayViews.encoded_replay`)."""
        return await self.replay_views.encoded_replay(table_id, seat)

    # -- connections, play and seats (the parts' entry points) --------------------------

    @property
    def connections(self) -> int:
        """The connections attached, over every table."""
        return self.broadcaster.connections

    def broadcast(self, table: Table) -> None:
        """Send every connection of the table its own seat's state
        (:meth:`Broadcaster.broadcast`)."""
        self.broadcaster.broadcast(table)

    def identify(self, table: Table, connection: Connection, guest: Guest) -> None:
        """A spectator's ``hello`` named ``guest`` (:meth:`Broadcaster.identify`)."""
        self.broadcaster.identify(table, connection, guest)

    def detach(self, table: Table, connection: Connection) -> None:
        """Remove a connection (:meth:`Broadcaster.detach`)."""
        self.broadcaster.detach(table, connection)

    def catch_up(self, table: Table, connection: Connection) -> None:
        """Send ``connection`` the table's state now if it differs from the last one it
        got (:meth:`Broadcaster.catch_up`)."""
        self.broadcaster.catch_up(table, connection)


    async def play(self, table: Table, player_id: str | None, text: str, turn: int) -> None:
        """Play action ``text`` for the seat ``player_id`` holds, if ``turn`` is current
        (:meth:`MovePipeline.play`)."""
        await self.moves.play(table, player_id, text, turn)

    async def sit(self, table: Table, guest: Guest, seat: int, address: str = "?",
                  contribution: str | None = None) -> None:
        """Seat ``guest`` at ``seat`` (:meth:`Seating.sit`)."""
        await self.seating.sit(table, guest, seat, address, contribution)

    async def leave(self, table: Table, guest: Guest) -> None:
        """Free the seat ``guest`` holds while the table waits (:meth:`Seating.leave`)."""
        await self.seating.leave(table, guest)

    # -- life cycle ---------------------------------------------------------------------

    async def startup(self) -> None:
        """Bring every unfinished table back exactly where it was, and restart its bots."""
        await self.replication.start(Reactions(
            broadcast=self.broadcaster.broadcast, finish=self.moves.finish,
            start_bots=self._start_bots, load=self.get_table,
            restore_clock=self.stored_clocks.restore, clock_changed=self.clock.changed,
            rematch_if_pending=self.lifecycle.rematch_if_pending))
        stored = await self.threads.db(self.storage.load_unfinished)
        for row in stored:
            fair = await self.threads.db(self.fair_store.load, row.id)
            try:
                table = await self.threads.run(self._rebuild, row, fair)
            except Exception as error:  # one broken table must not stop the server
                log.error("table %s cannot be restored: %r", row.id, error)
                continue
            await self._read_extras(table)
            self.tables[table.id] = table
            await self.moves.finish_if_over(table)
            self._start_bots(table)
        await self.expire_waiting_tables()
        self._expiry = asyncio.get_running_loop().create_task(self._expire_loop())

    async def _expire_loop(self) -> None:
        interval = max(0.05, min(60.0, self.settings.waiting_table_seconds / 10,
                                 self.settings.bot_game_seconds / 10,
                                 self.settings.abandon_seconds / 10))
        while True:
            await asyncio.sleep(interval)
            try:
                await self.expire_waiting_tables()
                await self.abandonment.sweep(self.settings.abandon_seconds)
                await self.prune_bot_games()
            except Exception:  # the next round tries again
                log.debug("expiring waiting tables failed", exc_info=True)

    async def prune_bot_games(self) -> int:
        """Delete the finished games of bots only older than ``Settings.bot_game_seconds``
        (games with a human are kept); return how many."""
        cutoff = datetime.now(UTC) - timedelta(seconds=self.settings.bot_game_seconds)
        pruned = await self.threads.db(self.storage.prune_bot_games,
                                cutoff.isoformat(timespec="seconds"))
        for table_id in pruned:
            self.replays.forget(table_id)
            table = self.tables.get(table_id)
            if table is not None and not table.connections:
                self.tables.pop(table_id, None)
        return len(pruned)

    async def expire_waiting_tables(self) -> int:
        """Close the tables that have waited for players longer than
        ``Settings.waiting_table_seconds`` (every connection receives ``closed``, reason
        ``expired``); return how many."""
        return len(await self.lifecycle.expire_waiting(self.settings.waiting_table_seconds))

    async def shutdown(self) -> None:
        """Stop the bots and the worker threads; stored state is already complete."""
        await self.replication.stop()
        self.stored_clocks.stop()
        self.lifecycle.stop()
        if self._expiry is not None:
            self._expiry.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._expiry
        for table in self.tables.values():
            if table.presence_flush is not None:
                table.presence_flush.cancel()
        tasks = [t.bot_task for t in self.tables.values() if t.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await cancel_timers(self.clock.shutdown(list(self.tables.values())))
        for table in self.tables.values():
            for connection in table.connections:
                connection.close()
        self.threads.bots.shutdown(wait=False, cancel_futures=True)
        self.scheduler.shutdown()
        self.threads.reads.shutdown(wait=False, cancel_futures=True)
        self.replay_worker.shutdown()
        self.threads.storage.shutdown(wait=True)

    async def _read_extras(self, table: Table) -> None:
        """Read back what a rebuilt table keeps beside its game: its extras, who is
        connected to it elsewhere and its move clock."""
        table.extras = await self.threads.db(self.extras_store.load, table.id)
        table.remote = self.replication.presence_of(table.id)
        await self.stored_clocks.restore(table)

    @staticmethod
    def _rebuild(row: StoredTable, fair: FairSeed | None) -> Table:
        """A fresh table brought to its stored row (:meth:`Table.follow`)."""
        adapter = get_game(row.game)
        rules_value = adapter.check(row.variant, row.rules, len(row.seats))
        table = Table(row.id, adapter, row.variant, row.rules, rules_value,
                      [SeatInfo.from_stored(s) for s in row.seats], row.created_at)
        table.fairness = TableFairness(fair)
        table.follow(row)
        return table

    # -- the lobby ----------------------------------------------------------------------

    def open_tables(self) -> list[Table]:
        """Tables waiting or playing, newest first."""
        tables = [t for t in self.tables.values() if t.status != TableStatus.FINISHED]
        return sorted(tables, key=lambda t: t.created_at, reverse=True)

    async def finished_tables(self, limit: int = 200, offset: int = 0) -> list[dict[str, Any]]:
        """Summaries of finished games, newest first (from the database)."""
        rows = await self.threads.read(self.storage.list_tables, TableStatus.FINISHED.value,
                                       limit, offset)
        extras = await self.threads.read(self.extras_store.load_many,
                                         [row.id for row in rows])
        return [stored_summary(row) | {"rated": extras[row.id].rated if row.id in extras
                                       else False} for row in rows]

    async def create_table(self, game: str, variant: str | None, num_seats: int,
                           rules: dict[str, str], bots: dict[int, str], *,
                           creator: str | None = None, address: str = "?",
                           move_seconds: int = 0, hints: bool = True, rated: bool = False,
                           rematch_of: str | None = None,
                           table_id: str | None = None,
                           server_seed: str | None = None) -> Table:
        """Make and store a new table; it starts at once when every seat is a bot.
        ``creator`` (a player id) and ``address`` count against their table limits;
        ``creator`` may cancel it while it waits; ``hints``, ``move_seconds`` and ``rated``
        are its options (:mod:`.lifecycle`); ``table_id``: its id (a rematch's, reserved
        by its last vote), else a new one; ``server_seed``: the secret seed it is dealt
        from (a rematch's, whose commitment its first table published), else a new one."""
        keys = ["tables:address:" + address] + ([] if creator is None
                                                 else ["tables:player:" + creator])
        table_id = table_id or new_table_id()  # its identity in the counts from now on
        async with self.replication.admitted(lambda: self.admission.check_new_table(
                self.tables.values(), creator, address), keys, table_id):
            table = await self._new_table(game, variant, num_seats, rules, bots, address,
                                          TableExtras(creator=creator,
                                                      move_seconds=move_seconds,
                                                      hints=hints, rated=rated,
                                                      rematch_of=rematch_of), table_id,
                                          server_seed)
        # no await since the admission's count ended: the table now counts in its stead,
        # under the same identity
        self.tables[table.id] = table
        self.replication.counts_changed()
        async with table.lock:
            await self.seating.start_if_full(table)
        return table

    async def _new_table(self, game: str, variant: str | None, num_seats: int,
                         rules: dict[str, str], bots: dict[int, str], address: str,
                         extras: TableExtras, table_id: str,
                         server_seed: str | None = None) -> Table:
        """Make and store a new table (:meth:`create_table`, admitted)."""
        try:
            adapter = get_game(game)
        except KeyError:
            raise ProtocolError("unknown_game", f"unknown game {game!r}: expected "
                                + " or ".join(repr(n) for n in game_names()), game) from None
        try:
            rules_value = adapter.check(variant, rules, num_seats)
        except KonkunError as error:
            raise ProtocolError("invalid_rule", str(error), rules) from None
        seats = [SeatInfo() for _ in range(num_seats)]
        for number, spec in bots.items():
            if not 0 <= number < num_seats:
                raise ProtocolError("bad_seat", f"bot seat {number} is out of range "
                                    f"0..{num_seats - 1}", number)
            canonical = check_bot_spec(spec, game, self.settings.max_bot_seconds)
            seats[number] = SeatInfo(kind=SeatKind.BOT, name=canonical, bot=canonical)
        table = Table(table_id, adapter, adapter.variant_of(variant), rules,
                      rules_value, seats, now_text())
        table.extras = extras
        table.creator_address = address
        # the extras first: the other processes read both when the table's row announces it
        await self.threads.db(self.extras_store.save, table.id, table.extras)
        table.fairness = TableFairness(FairSeed() if server_seed is None
                                       else FairSeed(server_seed=server_seed))
        await self.threads.db(self.fair_store.save, table.id, table.fairness.fair)
        await self.threads.db(self.storage.create_table, table.stored())
        return table

    async def get_table(self, table_id: str, keep: bool = False) -> Table:
        """The table ``table_id``. A finished table is read back from the database and
        replayed; it stays in memory only with ``keep`` (a connection), until the last
        connection closes: then the table returned is the one this lobby holds, so a
        connection attached to it hears every later change."""
        while True:
            table = await self._find_table(table_id, keep)
            # a read-back that waited for the table's lock may have let a finished table
            # nobody watched leave memory meanwhile: read it back again
            if not keep or self.tables.get(table_id) is table:
                return table

    async def _find_table(self, table_id: str, keep: bool) -> Table:
        table = self.tables.get(table_id)
        if table is not None:
            return await self.replication.up_to_date(table)
        async with self._loading:
            table = self.tables.get(table_id)
            if table is not None:
                return await self.replication.up_to_date(table)
            row = await load_row(self.threads, self.storage, table_id)
            fair = await self.threads.db(self.fair_store.load, table_id)
            try:
                table = await self.threads.run(self._rebuild, row, fair)
            except Exception as error:
                log.error("table %s cannot be loaded: %r", table_id, error)
                raise ProtocolError("unknown_table", f"table {table_id!r} cannot be "
                                    "loaded", table_id) from None
            await self._read_extras(table)
            await self.moves.finish_if_over(table)
            if keep or table.status != TableStatus.FINISHED:
                self.tables[table_id] = table
            if keep:
                self.lifecycle.rematch_if_pending(table)  # its maker may have died
            return table

    async def summary(self, table_id: str) -> dict[str, Any]:
        """A table's summary; a finished table's straight from the database."""
        table = self.tables.get(table_id)
        if table is not None:
            return (await self.replication.up_to_date(table)).summary()
        row = await load_row(self.threads, self.storage, table_id, read=True)
        if row.status == TableStatus.FINISHED:
            fair = await self.threads.read(self.fair_store.load, table_id)
            return stored_summary(row) | await self.threads.read(fair_fields_of_row, row, fair)
        return (await self.get_table(table_id)).summary()

    async def revoke(self, session: str) -> None:
        """Store a revoked token session and close the connections that used it."""
        await self.threads.db(self.storage.revoke, session)
        self.replication.tell(Announcement.REVOKED, "-", session)
        for table in list(self.tables.values()):
            for connection in list(table.connections):
                if connection.guest is not None and connection.guest.session == session:
                    connection.close_with(error_payload("unauthorized", "token revoked"))

