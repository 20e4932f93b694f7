"""Several server processes on one PostgreSQL database (:class:`Cluster`).

PostgreSQL is the only thing the processes share; this module is their transport over it:

- every change to a table is announced with ``NOTIFY konkun, '<kind> <origin> <table>'``
  (in the transaction that makes it, see :meth:`konkun.server.store.storage.Storage.announce`);
  one connection per process ``LISTEN``\\ s and hands each announcement of another process
  to the lobby, which reads the change back from the database;
- the bots (and stand-ins) of a table run in the one process that holds the table's
  **lease**: a session-level advisory lock (``pg_try_advisory_lock``) on a connection of
  its own, so a process that dies, even by ``kill -9``, loses its leases the moment
  PostgreSQL sees its connection close, and another process takes them over at its next
  sweep;
- who is connected where is gossiped (``p`` announcements), with a heartbeat (``h``) so
  that the connections of a dead process stop counting within :data:`PEER_TIMEOUT`.

Nothing here is needed for correctness of the game record: the ``(table_id, turn)`` key of
the action log refuses a second action at one turn whatever process sends it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from sqlalchemy.engine import make_url

from konkun.server.core.announcements import Announcement
from konkun.server.store.storage import CHANNEL

log = logging.getLogger("konkun.server")

HEARTBEAT = 1.0
"""Seconds between two heartbeats of a process."""
PEER_TIMEOUT = 4.0
"""Seconds without a heartbeat after which another process counts as gone."""
RECONNECT = 1.0
"""Seconds between two attempts to listen again while the database is away."""
HOLD_WAIT = 2.0
"""Seconds :meth:`Cluster.hold_keys` waits for another process to release a key."""
SYNC_WAIT = 2.0
"""Seconds :meth:`Cluster.sync` waits for its own announcement to come back."""

Handler = Callable[[Announcement, str, str, str], None]
"""Called on the event loop with (kind, origin, table id or ``-``, the rest of the text)."""


def libpq_url(url: str) -> str:
    """A SQLAlchemy PostgreSQL URL as psycopg takes it (``postgresql://...``)."""
    parsed = make_url(url).set(drivername="postgresql")
    return parsed.render_as_string(hide_password=False)


def new_origin() -> str:
    """A name for this process, unique in the cluster (host, pid and a random part)."""
    return f"{socket.gethostname()}.{os.getpid()}.{secrets.token_hex(3)}"


class Cluster:
    """One process's link to the others: announcements in, announcements and leases out."""

    def __init__(self, url: str, origin: str, handler: Handler) -> None:
        self.conninfo = libpq_url(url)
        self.origin = origin
        self.handler = handler
        self.owned: set[str] = set()
        """The tables whose lease this process holds."""
        self.peers: dict[str, float] = {}
        """The other processes heard from, with the monotonic time of their last word."""
        self._lease_thread = ThreadPoolExecutor(1, thread_name_prefix="konkun-lease")
        self._lease_conn: Any = None
        self._stopping = threading.Event()
        self._listener: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._heartbeat: asyncio.Task[None] | None = None
        self.listening = threading.Event()
        self._syncs: dict[str, asyncio.Future[None]] = {}

    # -- life cycle ---------------------------------------------------------------------

    async def start(self) -> None:
        """Listen (before the lobby reads its tables, so no change is missed) and beat."""
        self._loop = asyncio.get_running_loop()
        self._listener = threading.Thread(target=self._listen, name="konkun-listen",
                                          daemon=True)
        self._listener.start()
        await asyncio.get_running_loop().run_in_executor(None, self.listening.wait, 10.0)
        self._heartbeat = self._loop.create_task(self._beat())
        self.send(Announcement.HELLO, "-")  # the others tell who is connected at their tables

    async def stop(self) -> None:
        """Stop listening and release every lease (closing the lease connection)."""
        self._stopping.set()
        if self._heartbeat is not None:
            self._heartbeat.cancel()
        await asyncio.get_running_loop().run_in_executor(self._lease_thread, self._close)
        self._lease_thread.shutdown(wait=True)
        if self._listener is not None:
            self._listener.join(timeout=2.0)

    def _close(self) -> None:
        if self._lease_conn is not None:
            try:
                self._lease_conn.close()
            except Exception:
                log.debug("closing the lease connection failed", exc_info=True)
        self._lease_conn = None
        self.owned.clear()

    # -- announcements ------------------------------------------------------------------

    def _listen(self) -> None:
        """The listening thread: ``LISTEN`` on its own connection, reconnecting each
        :data:`RECONNECT` seconds while the database is away; after a reconnect every
        table is read back (what was announced meanwhile is lost). The outage is logged
        once when it starts and once when it ends."""
        import psycopg

        lost_at: float | None = None
        while not self._stopping.is_set():
            try:
                with psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5,
                                     application_name=self.listener_name) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if self.listening.is_set():  # a reconnect: read back what was missed
                        self._deliver(Announcement.RESYNC, "-", "-", "")
                    if lost_at is not None:
                        log.warning("cluster: listening again after %.1f s; every table "
                                    "is read back", time.monotonic() - lost_at)
                        lost_at = None
                    self.listening.set()
                    while not self._stopping.is_set():
                        for note in conn.notifies(timeout=0.5):
                            parts = [*note.payload.split(" ", 3), "", "", ""]
                            word, origin, table_id, rest = parts[:4]
                            kind = Announcement.parse(word)
                            if kind is None:  # a newer process's: not for this one
                                continue
                            if origin != self.origin:
                                self._deliver(kind, origin, table_id, rest)
                            elif kind == Announcement.SYNC:  # own sync came back
                                self._synced(rest)
            except Exception as error:
                if self._stopping.is_set():
                    return
                if lost_at is None:
                    lost_at = time.monotonic()
                    log.warning("cluster: listening to the other processes failed (%s); "
                                "trying again every %g s", " ".join(str(error).split())[:200],
                                RECONNECT)
                time.sleep(RECONNECT)

    @property
    def listener_name(self) -> str:
        """The ``application_name`` of the listening connection (``pg_stat_activity``)."""
        return f"konkun-listen {self.origin}"[:63]

    def _deliver(self, kind: Announcement, origin: str, table_id: str, rest: str) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        if origin not in {"-", self.origin}:
            loop.call_soon_threadsafe(self.peers.__setitem__, origin, time.monotonic())
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(self.handler, kind, origin, table_id, rest)

    def _synced(self, token: str) -> None:
        loop = self._loop
        if loop is None or loop.is_closed():
            return
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(self._sync_done, token.strip())

    def _sync_done(self, token: str) -> None:
        future = self._syncs.pop(token, None)
        if future is not None and not future.done():
            future.set_result(None)

    async def sync(self) -> bool:
        """Wait until every announcement committed before now has been handed to the
        lobby (PostgreSQL delivers them in commit order, so once this process's own
        announcement sent now comes back, the earlier ones have); whether it came back
        within :data:`SYNC_WAIT`."""
        token = secrets.token_hex(6)
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._syncs[token] = future
        self.send(Announcement.SYNC, "-", token)
        try:
            async with asyncio.timeout(SYNC_WAIT):
                await future
        except TimeoutError:
            return False
        finally:
            self._syncs.pop(token, None)
        return True

    async def hold_keys(self, keys: list[str], wait: float = HOLD_WAIT) -> bool:
        """Take the locks ``keys`` (session locks like the leases, apart from them),
        waiting up to ``wait`` seconds for a process that holds one (0: take them only if
        they are free); whether they are held now (release them with
        :meth:`let_go_keys`)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait

        def take() -> bool:
            row = self._execute(
                "SELECT bool_and(pg_try_advisory_lock(hashtextextended(k, 0))) "
                "FROM unnest(%s::text[]) AS k", (sorted(keys),))
            if row and row[0]:
                return True
            self._execute("SELECT count(pg_advisory_unlock(hashtextextended(k, 0))) FROM "
                          "unnest(%s::text[]) AS k", (sorted(keys),))  # the ones it took
            return False

        while True:
            try:
                if await loop.run_in_executor(self._lease_thread, take):
                    return True
            except Exception:
                log.debug("cluster: taking the locks %s failed", keys, exc_info=True)
                return False
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.005)

    async def let_go_keys(self, keys: list[str]) -> None:
        """Release the locks taken by :meth:`hold_keys` (after every announcement sent
        before: the lease thread runs them in order)."""
        with contextlib.suppress(Exception):  # a lost connection released them already
            await asyncio.get_running_loop().run_in_executor(
                self._lease_thread, self._execute,
                "SELECT count(pg_advisory_unlock(hashtextextended(k, 0))) FROM "
                "unnest(%s::text[]) AS k", (sorted(keys),))

    def send(self, kind: Announcement, table_id: str, rest: str = "") -> None:
        """Announce ``kind`` about ``table_id`` to the other processes (fire and forget)."""
        payload = f"{kind} {self.origin} {table_id} {rest}"
        if len(payload.encode()) >= 7900:  # NOTIFY's payload limit is 8000 bytes
            log.warning("cluster: announcement %s of table %s too long", kind, table_id)
            return
        if self._stopping.is_set():
            return
        future = self._lease_thread.submit(self._execute, "SELECT pg_notify(%s, %s)",
                                           (CHANNEL, payload))
        future.add_done_callback(_log_failure)

    def send_presence(self, table_id: str, players: set[str], spectators: int) -> None:
        """Tell the others who is connected to ``table_id`` here."""
        self.send(Announcement.PRESENCE, table_id, json.dumps([sorted(players), spectators]))

    async def _beat(self) -> None:
        while True:
            self.send(Announcement.HEARTBEAT, "-")
            await asyncio.sleep(HEARTBEAT)

    def gone_peers(self) -> list[str]:
        """The processes not heard from for :data:`PEER_TIMEOUT` (forgotten now)."""
        now = time.monotonic()
        gone = [name for name, seen in self.peers.items() if now - seen > PEER_TIMEOUT]
        for name in gone:
            del self.peers[name]
        return gone

    # -- leases -------------------------------------------------------------------------

    def _execute(self, query: str, params: tuple[Any, ...]) -> Any:
        """Run one query on the lease connection (the lease thread only)."""
        import psycopg

        if self._lease_conn is None or self._lease_conn.closed:
            self.owned.clear()  # a new session holds no lock
            self._lease_conn = psycopg.connect(self.conninfo, autocommit=True, connect_timeout=5)
        try:
            return self._lease_conn.execute(query, params).fetchone()
        except psycopg.OperationalError:
            self._lease_conn = None
            self.owned.clear()
            raise

    async def claim_many(self, table_ids: list[str]) -> list[str]:
        """Take the leases of ``table_ids`` that no live process holds (one query);
        return those taken now or already held."""
        wanted = [t for t in table_ids if t not in self.owned]
        held = [t for t in table_ids if t in self.owned]
        if not wanted:
            return held

        def take() -> list[str]:
            row = self._execute(
                "SELECT coalesce(array_agg(id), '{}') FROM unnest(%s::text[]) AS id "
                "WHERE pg_try_advisory_lock(hashtextextended(id, 0))", (wanted,))
            taken = [str(t) for t in (row[0] if row else [])]
            self.owned.update(taken)
            return taken

        try:
            taken = await asyncio.get_running_loop().run_in_executor(self._lease_thread, take)
        except Exception:
            log.debug("cluster: claiming %d tables failed", len(wanted), exc_info=True)
            return held
        return held + taken

    async def release(self, table_id: str) -> None:
        """Give up the lease of ``table_id`` (its game is over, or it left memory)."""
        if table_id not in self.owned:
            return

        def give_up() -> None:
            self.owned.discard(table_id)
            self._execute("SELECT pg_advisory_unlock(hashtextextended(%s, 0))", (table_id,))

        try:
            await asyncio.get_running_loop().run_in_executor(self._lease_thread, give_up)
        except Exception:
            log.debug("cluster: releasing table %s failed", table_id, exc_info=True)


def _log_failure(future: Any) -> None:
    error = future.exception()
    if error is not None:
        log.debug("cluster: an announcement failed: %s", error)
