"""The worker threads of one server process (:class:`Threads`): the storage thread that
commits (its urgent lane first for players' actions), the read threads for lists,
summaries and replays, and the bot threads. A part of the lobby (:mod:`konkun.server.lobby`),
given to every part that waits for the database or a bot."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from concurrent.futures import Executor, ThreadPoolExecutor
from typing import Any, TypeVar

from konkun.server.core.config import Settings
from konkun.server.core.protocol import ProtocolError
from konkun.server.core.stagetimes import STAGES, current_move
from konkun.server.core.storagethread import StorageThread
from konkun.server.store.storage import OutageLog, Storage, StoredTable

log = logging.getLogger("konkun.server")

T = TypeVar("T")


async def timed_in_thread(threads: Executor, what: str,
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


class Threads:
    """The storage, read and bot threads of one server process, and the outage log of the
    database they reach."""

    def __init__(self, settings: Settings) -> None:
        storage_thread = StorageThread("konkun-db")
        self.storage = storage_thread.normal
        """The storage thread (every write, in order)."""
        self.actions = storage_thread.urgent
        """The storage thread's lane for players' actions, which go first."""
        self.bots = ThreadPoolExecutor(max(1, settings.bot_threads),
                                       thread_name_prefix="konkun-bot")
        self.reads = ThreadPoolExecutor(max(1, settings.read_threads),
                                        thread_name_prefix="konkun-read")
        self.outage = OutageLog(log)

    async def db(self, function: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        """``function(*args)`` in the storage thread; a refusal is ``storage`` (the
        outage, not each refused query, is logged). ``urgent`` (a player's action): before
        every other job still waiting (:mod:`konkun.server.core.storagethread`)."""
        lane = self.actions if urgent else self.storage
        return await self.in_thread(lane, "query", function, *args)

    async def read(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the read threads: lobby lists, summaries and replays never
        wait for, nor hold up, the storage thread that commits actions."""
        return await self.in_thread(self.reads, "read", function, *args)

    async def in_thread(self, threads: Executor, what: str,
                        function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in ``threads``; its :class:`ProtocolError` passes through,
        any other failure is ``storage`` and counts towards the outage log."""
        loop = asyncio.get_running_loop()
        try:
            if STAGES.enabled:
                result = await timed_in_thread(threads, what, function, *args)
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

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a bot thread (its failure passes through)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.bots, function, *args)


async def load_row(threads: Threads, storage: Storage, table_id: str,
                   read: bool = False) -> StoredTable:
    """The stored row of table ``table_id``; ``unknown_table`` when there is none.
    ``read``: through the read threads, off the commit path."""
    if not isinstance(table_id, str) or not 0 < len(table_id) <= 32:
        raise ProtocolError("unknown_table", f"no table {table_id!r}", table_id)
    row = await (threads.read if read else threads.db)(storage.load, table_id)
    if row is None:
        raise ProtocolError("unknown_table", f"no table {table_id!r}", table_id)
    return row
