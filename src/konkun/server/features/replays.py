"""Finished games' replays, built once and kept (encoded, gzipped) in a bounded cache.

A replay with every hand open of a long Kunken match is megabytes of JSON and a good part
of a second to build; a finished game never changes, so each (table, seat) is built once,
off the event loop and off the commit path, and served from memory after. The cache
forgets the least recently used replays past its byte budget.

The building runs in a worker process of its own (:class:`ReplayWorker`), niced like the
searches: in a thread it would hold the server's interpreter lock for seconds, and the
event loop would wait for the lock at every turn meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import json
import multiprocessing
import secrets
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, TypeVar

T = TypeVar("T")

ReplayKey = tuple[str, int | str | None]
"""(table id, seat number, ``"all"`` or ``None`` for the spectator's view)."""


@dataclass(frozen=True)
class EncodedReplay:
    """One replay as the JSON bytes sent and their gzip compression."""

    body: bytes
    gzipped: bytes
    etag: str = ""
    """The HTTP entity tag of the replay (a digest of ``body``, quoted)."""

    @property
    def size(self) -> int:
        """The bytes it keeps in memory."""
        return len(self.body) + len(self.gzipped)


def _compact(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def encode_json_frames(payload: dict[str, Any]) -> str:
    """``payload`` as compact JSON, exactly ``json.dumps`` would write it, but its
    ``frames`` list encoded one frame at a time.

    The JSON encoder holds the interpreter lock for the whole of one call: a long replay's
    megabytes in one call (a few hundred milliseconds) would stall the event loop, in
    another thread, all that time. Frame by frame, the loop waits a switch interval at
    most."""
    frames = payload.get("frames")
    if not isinstance(frames, list):
        return _compact(payload)
    marker = f"\x00frames-{secrets.token_hex(16)}\x00"
    head, _, tail = _compact(payload | {"frames": marker}).partition(_compact(marker))
    return "".join((head, "[", ",".join(_compact(frame) for frame in frames), "]", tail))


def encode_replay(payload: dict[str, Any]) -> EncodedReplay:
    """A replay as compact JSON and its gzip (run in a worker thread; compressing and
    hashing let the event loop run meanwhile)."""
    body = encode_json_frames(payload).encode()
    return EncodedReplay(body, gzip.compress(body, compresslevel=6),
                         f'"{hashlib.blake2b(body, digest_size=16).hexdigest()}"')


class ReplayCache:
    """Encoded replays by key, least recently used forgotten past ``max_bytes``; one build
    at a time per key (concurrent requests for one replay wait for the same build)."""

    def __init__(self, max_bytes: int = 64 * 1024 * 1024) -> None:
        self.max_bytes = max_bytes
        self._items: OrderedDict[ReplayKey, EncodedReplay] = OrderedDict()
        self._bytes = 0
        self._building: dict[ReplayKey, asyncio.Future[EncodedReplay]] = {}
        self.builds = 0
        """How many replays were built (the rest were served from memory)."""

    async def get(self, key: ReplayKey,
                  build: Callable[[], Awaitable[EncodedReplay]]) -> EncodedReplay:
        """The replay of ``key``, built with ``build`` when it is not kept."""
        kept = self._items.get(key)
        if kept is not None:
            self._items.move_to_end(key)
            return kept
        pending = self._building.get(key)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[EncodedReplay] = asyncio.get_running_loop().create_future()
        self._building[key] = future
        try:
            replay = await build()
        except BaseException as error:
            future.set_exception(error)
            future.exception()  # retrieved: no "never retrieved" warning without waiters
            raise
        finally:
            self._building.pop(key, None)
        self.builds += 1
        future.set_result(replay)
        self._keep(key, replay)
        return replay

    def forget(self, table_id: str) -> None:
        """Drop every replay of a table (it was pruned)."""
        for key in [k for k in self._items if k[0] == table_id]:
            self._bytes -= self._items.pop(key).size

    def _keep(self, key: ReplayKey, replay: EncodedReplay) -> None:
        if replay.size > self.max_bytes:
            return
        self._items[key] = replay
        self._bytes += replay.size
        while self._bytes > self.max_bytes:
            _old, dropped = self._items.popitem(last=False)
            self._bytes -= dropped.size


class ReplayWorker:
    """One worker process that builds replays, started on first use, at nice 10 and
    ending with the server (the search workers' start, :mod:`.scheduler`)."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in the worker process (both picklable); a worker that died
        is replaced for the next call (this one raises ``BrokenProcessPool``)."""
        from konkun.server.core.scheduler import start_worker_process

        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                1, mp_context=multiprocessing.get_context("spawn"),
                initializer=start_worker_process)
        pool = self._pool
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, function, *args)
        except BaseException:
            if getattr(pool, "_broken", False) and self._pool is pool:
                self._pool = None
                pool.shutdown(wait=False, cancel_futures=True)
            raise

    @property
    def started(self) -> bool:
        """Whether the worker process has been started (and not stopped)."""
        return self._pool is not None

    def shutdown(self) -> None:
        """Stop the worker (a build under way is dropped)."""
        if self._pool is not None:
            with contextlib.suppress(Exception):
                self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
