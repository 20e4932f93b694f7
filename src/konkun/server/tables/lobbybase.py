"""What every part of the lobby shares (:class:`LobbyBase`): its tables, storage, settings
and limits, and the worker threads it runs the database, the reads and the bots in.

The lobby's concerns are parts built by :class:`~konkun.server.lobby.Lobby` over this
base, each in the module its name says: :mod:`.connections` (who watches a table, and
the broadcast), :mod:`.play` (checking, storing and applying an action), :mod:`.botloop`
(the bots' moves), :mod:`.seats`, :mod:`.replayframes`, and the features (chat, the
clock, the life cycle, abandonment) and the replication with other server processes.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from konkun.server.core.config import Settings
from konkun.server.core.scheduler import BotScheduler
from konkun.server.features.admission import Admission
from konkun.server.features.chat import ChatLimits, ChatStore
from konkun.server.features.fair import FairStore
from konkun.server.features.lifecycle import CreateOnce, ExtrasStore
from konkun.server.features.replays import ReplayCache, ReplayWorker
from konkun.server.store.commits import GroupCommit
from konkun.server.store.storage import Storage
from konkun.server.tables.table import Table
from konkun.server.tables.threads import Threads

log = logging.getLogger("konkun.server")

T = TypeVar("T")


class LobbyBase:
    """Every table of one server, with the storage and the bot workers they use."""

    def __init__(self, storage: Storage, settings: Settings) -> None:
        self.storage = storage
        self.settings = settings
        self.tables: dict[str, Table] = {}
        self.threads = Threads(settings)
        """The storage, read and bot threads every part waits in."""
        self._loading = asyncio.Lock()
        self.admission = Admission(settings)
        self.scheduler = BotScheduler(settings.bot_threads,
                                      processes=settings.bot_processes)
        self.replays = ReplayCache(settings.replay_cache_bytes)
        self.replay_worker = ReplayWorker()
        self._expiry: asyncio.Task[None] | None = None
        self.extras_store = ExtrasStore(storage.engine)
        self.create_once = CreateOnce()
        self.chat_store = ChatStore(storage.engine)
        self.fair_store = FairStore(storage.engine)
        self.chat_limits = ChatLimits()
        self.commits = GroupCommit(storage, self.threads.db)
        """The actions' writer: one commit for the actions played at one instant."""
        self.finish_hooks: list[Callable[[Table], Awaitable[None]]] = []
        """Called with each table once it finished and was stored (ratings)."""

    async def db(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in the storage thread (:meth:`Threads.db`)."""
        return await self.threads.db(function, *args)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Run ``function(*args)`` in a bot thread (:meth:`Threads.run`)."""
        return await self.threads.run(function, *args)
