"""Group commit of the actions (:class:`GroupCommit`): one transaction, so one ``fsync`` on
SQLite, for every action that arrived while the previous group was being committed.

An action is acknowledged (applied, broadcast) only once the transaction holding it has
committed, exactly as when each action had a transaction of its own; what changes is that
the actions of many tables played at one instant share the disk's flush. No action waits
for a group to fill: when the storage thread is free, an action is committed at once,
alone; the group is what queued up meanwhile (so a group grows with the load, and stays
one action when the server is quiet).

A group that fails as a whole (one of its actions takes a turn another writer stored
first) is written again one action at a time, so each action gets its own answer
(:meth:`konkun.server.store.storage.Storage.append_actions`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from konkun.server.core.protocol import ProtocolError
from konkun.server.store.storage import PendingAction, Storage, TurnTakenError

Runner = Callable[..., Awaitable[Any]]
"""Runs a storage function in the storage thread (keyword ``urgent``):
:meth:`konkun.server.tables.threads.Threads.db`."""


class GroupCommit:
    """The queue of actions waiting to be stored, committed in groups by one writer."""

    def __init__(self, storage: Storage, run: Runner) -> None:
        self.storage = storage
        self._run = run
        self._queue: list[tuple[PendingAction, bool, asyncio.Future[None]]] = []
        self._writing = False
        self._writer: asyncio.Task[None] | None = None
        self.groups = 0
        """Transactions committed so far (the benchmark and tests read it)."""
        self.actions = 0
        """Actions stored so far."""

    async def append(self, table_id: str, turn: int, seat: int, action: str,
                     urgent: bool = False, stand_in: bool = False) -> None:
        """Store one action (``stand_in``: the stand-in bot played it); return once it
        is committed. Raises what storing it alone
        would (:class:`~konkun.server.store.storage.TurnTakenError`, or ``storage``). A group
        holding an ``urgent`` action (a person's table) takes the storage thread's urgent
        lane."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append((PendingAction(table_id, turn, seat, action, stand_in), urgent, future))
        if not self._writing:
            self._writing = True
            self._writer = asyncio.get_running_loop().create_task(self._write())
        await future

    async def _write(self) -> None:
        """Commit what is queued, group after group, until the queue is empty."""
        try:
            while self._queue:
                group, self._queue = self._queue, []
                try:
                    failures = await self._store([pending for pending, _, _ in group],
                                                 any(urgent for _, urgent, _ in group))
                except BaseException as error:  # the whole group: every action is told
                    for _, _, future in group:
                        if not future.done():
                            future.set_exception(error)
                    if not isinstance(error, Exception):
                        raise
                    continue
                self.groups += 1
                for (_, _, future), failure in zip(group, failures, strict=True):
                    if future.done():  # its caller was cancelled
                        continue
                    if failure is None:
                        self.actions += 1
                        future.set_result(None)
                    else:
                        future.set_exception(failure)
        finally:
            self._writing = False

    async def _store(self, group: list[PendingAction],
                     urgent: bool) -> list[ProtocolError | None]:
        """Store a group: one action alone as it always was, several in one transaction."""
        if len(group) > 1:
            answers: list[ProtocolError | None] = await self._run(
                self.storage.append_actions, group, urgent=urgent)
            return answers
        action = group[0]
        try:
            await self._run(self.storage.append_action, action.table_id, action.turn,
                            action.seat, action.action, action.stand_in, urgent=urgent)
        except TurnTakenError as taken:
            return [taken]
        return [None]
