"""What every part of the lobby shares (:class:`LobbyBase`): its tables, storage, settings
and limits, and the worker threads it runs the database, the reads and the bots in.

The lobby's concerns are mixins over this base, each in the module its name says:
:mod:`.connections` (who watches a table, and the broadcast), :mod:`.play` (checking,
storing and applying an action), :mod:`.botloop` (the bots' moves), :mod:`.seats`,
:mod:`.replayframes`, and :mod:`.lobby` (life cycle and finding tables) which puts them
together as :class:`~konkun.server.lobby.Lobby`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, TypeVar

from konkun.server.core.config import Settings
from konkun.server.core.protocol import ProtocolError
from konkun.server.core.scheduler import BotScheduler
from konkun.server.core.stagetimes import STAGES, current_move
from konkun.server.core.storagethread import StorageThread
from konkun.server.features.admission import Admission
from konkun.server.features.chat import ChatLimits, ChatStore
from konkun.server.features.clock import ClockKeeper
from konkun.server.features.fair import FairStore, TableFairness
from konkun.server.features.lifecycle import CreateOnce, ExtrasStore
from konkun.server.features.replays import ReplayCache, ReplayWorker
from konkun.server.store.commits import GroupCommit
from konkun.server.store.storage import OutageLog, Storage, StoredTable
from konkun.server.tables.table import Table

log = logging.getLogger("konkun.server")

T = TypeVar("T")


async def _timed_in_thread(threads: Executor, what: str,
                           function: Callable[..., T], *args: Any) -> T:
    """``function(*args)`` in ``threads``, its stages recorded (:mod:`.stagetimes`): for
    every job ``<what>.<function>`` (time in the thread); for a traced move's,
    ``move.<what>_queue`` (waiting for the thread), ``move.<what>_run`` (in it),
    ``move.<what>_cpu`` (the thread's CPU meanwhile) and ``move.<what>_resume`` (from
    its end until the event loop resumes the move)."""
    trace = current_move()
    marks: dict[str, float] = {"submitted": time.perf_counter()}

    def run() -> T:
        marks["started"] = time.perf_counter()
        cpu = time.thread_time()
        try:
            return function(*args)
        finally:
            marks["cpu"] = time.thread_time() - cpu
            marks["ended"] = time.perf_counter()

    try:
        return await asyncio.get_running_loop().run_in_executor(threads, run)
    finally:
        if "ended" in marks:
            name = getattr(function, "__name__", "call")
            STAGES.add(f"{what}.{name}", marks["ended"] - marks["started"])
            if trace is not None:
                trace.stage(f"{what}_queue", marks["started"] - marks["submitted"])
                trace.stage(f"{what}_run", marks["ended"] - marks["started"])
                trace.stage(f"{what}_cpu", marks["cpu"])
                trace.stage(f"{what}_resume", time.perf_counter() - marks["ended"])


class LobbyBase:
    """Every table of one server, with the storage and the bot workers they use."""

    clock: ClockKeeper[Table]
    """The move clocks (set by :class:`~konkun.server.lobby.Lobby`, which it is given)."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.connections = 0
        storage_thread = StorageThread("konkun-db")
        self._storage_thread = storage_thread.normal
        self._action_storage = storage_thread.urgent
        """The storage thread's lane for players' actions, which go first."""
        self._bot_threads = ThreadPoolExecutor(
            max(1, settings.bot_threads), thread_name_prefix="konkun-bot")
        self._loading = asyncio.Lock()
        self.outage = OutageLog(log)
        self.admission = Admission(settings)
        self.scheduler = BotScheduler(settings.bot_threads,
                                      processes=settings.bot_processes)
        self._read_threads = ThreadPoolExecutor(
            max(1, settings.read_threads), thread_name_prefix="konkun-read")
        self.replays = ReplayCache(settings.replay_cache_bytes)
        self.replay_worker = ReplayWorker()
        self._expiry: asyncio.Task[None] | None = None
        self.extras_store = ExtrasStore(storage.engine)
        self.create_once = CreateOnce()
        self.chat_store = ChatStore(storage.engine)
        self.fair_store = FairStore(storage.engine)
        self.chat_limits = ChatLimits()
        self.commits = GroupCommit(storage, self._db)
        """The actions' writer: one commit for the actions played at one instant."""
        self.finish_hooks: list[Callable[[Table], Awaitable[None]]] = []
        """Called with each table once it finished and was stored (ratings)."""

    async def _load_fairness(self, table: Table) -> None:
        """Read back a table's fairness data and its digests so far."""
        table.fairness = TableFairness(await self._db(self.fair_store.load, table.id))
        if table.match is not None:
            table.fairness.start(table.adapter.name, table.match, table.actions)

    async def _db(self, function: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """``function(*args)`` in the storage thread; a refusal is ``storage`` (the
        outage, not each refused query, is logged). ``urgent`` (a player's action): before
        every other job still waiting (:mod:`.storagethread`)."""
        lane = self._action_storage if urgent else self._storage_thread
        return await self._in_thread(lane, "query", function, *args)

    async def _read(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the read threads: lobby lists, summaries and replays never
        wait for, nor hold up, the storage thread that commits actions."""
        return await self._in_thread(self._read_threads, "read", function, *args)

    async def _in_thread(self, threads: Executor, what: str,
                         function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in ``threads``; its :class:`ProtocolError` passes through,
        any other failure is ``storage`` and counts towards the outage log."""
        loop = asyncio.get_running_loop()
        try:
            if STAGES.enabled:
                result = await _timed_in_thread(threads, what, function, *args)
            else:
                result = await loop.run_in_executor(threads, function, *args)
        except ProtocolError:
            raise
        except Exception as error:
            self.outage.failed(getattr(function, "__name__", what), error)
            raise ProtocolError("storage", "the database is unavailable; try again") \
                from error
        self.outage.succeeded()
        return result

    async def db(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in the storage thread."""
        return await self._db(function, *args)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in a bot thread."""
        return await self._run(function, *args)

    async def _run(self, function: Callable[..., T], *args: Any) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._bot_threads, function, *args)

    async def _load_row(self, table_id: str, read: bool = False) -> StoredTable:
        """The stored row of table ``table_id``; ``unknown_table`` when there is none.
        ``read``: through the read threads, off the commit path."""
        if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
            raise ProtocolError("unknown_table", f"no table {table_id!r}", table_id)
        row = await (self._read if read else self._db)(self.storage.load, table_id)
        if row is None:
            raise ProtocolError("unknown_table", f"no table {table_id!r}", table_id)
        return row

