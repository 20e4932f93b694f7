"""Connection lifetimes: the HTTP protocol that closes sockets which send nothing useful.

uvicorn closes a keep-alive connection idle between requests (``timeout_keep_alive``), but
not one that never sends a request, nor one that sends half of its headers. The protocol
made by :func:`guarded_protocol` adds:

- a **header timeout**: a connection that has not sent a whole request head
  ``header_seconds`` after it opened (or after its last response) is closed;
- **room near the open-file limit**: when the process's connections approach the soft
  ``RLIMIT_NOFILE``, the oldest connection still waiting for its request head is closed
  to make room, and when none is, the new connection is closed at once (a clean refusal,
  instead of ``accept`` failing for everyone with "Too many open files").

A promised body that never arrives is cut by :class:`konkun.server.app.BodyLimit`
(``body_seconds``, answered 408). WebSockets, once upgraded, leave this protocol: their
lifetime is the ping/pong of uvicorn's WebSocket protocol and the admission limits.
"""

from __future__ import annotations

import asyncio
import os
import resource
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

RESERVED_FILES = 64
"""File descriptors kept free for the database, logs and the event loop."""


def open_files() -> int:
    """How many file descriptors this process holds (0 where it cannot be read)."""
    try:
        return len(os.listdir("/proc/self/fd"))
    except OSError:
        return 0


def connection_budget(reserved: int = RESERVED_FILES) -> int:
    """How many client connections fit under the soft open-file limit, given the files
    open now (the database, the listening socket, the interpreter's own)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1 << 20
    return max(8, soft - open_files() - reserved)


class GuardedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with a header timeout and room kept near the file limit."""

    header_seconds: float = 10.0
    budget: int = 1 << 20
    """Most client connections at once (see :func:`connection_budget`)."""

    _timer: asyncio.TimerHandle | None = None
    _armed_cycle: Any = None
    opened_at: float = 0.0
    """When the connection was made (the event loop's clock): the oldest idle one goes
    first."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.opened_at = self.loop.time()
        if len(self.connections) > self.budget and not self._evict_one_idle():
            self.connections.discard(self)
            transport.abort()  # no room: refused at once, nothing else disturbed
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.transport.get_protocol() is not self or self.cycle is not self._armed_cycle:
            self._disarm()  # a request head arrived (or the socket became a WebSocket)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm()

    @property
    def waiting_for_head(self) -> bool:
        """Whether the connection is between requests, still without a request head."""
        return self._timer is not None

    def evict(self) -> None:
        """Close this connection at once to make room for another (it is idle: no
        request head yet)."""
        self._disarm()
        self.transport.abort()
        self.connections.discard(self)

    def _arm(self) -> None:
        self._disarm()
        self._armed_cycle = self.cycle
        self._timer = self.loop.call_later(self.header_seconds, self._header_timeout)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _header_timeout(self) -> None:
        self._timer = None
        if not self.transport.is_closing():
            self.transport.abort()

    def _evict_one_idle(self) -> bool:
        """Close the oldest other connection still waiting for a request head."""
        idle = [c for c in self.connections if isinstance(c, GuardedH11Protocol)
                and c is not self and c.waiting_for_head and not c.transport.is_closing()]
        if not idle:
            return False
        min(idle, key=lambda c: c.opened_at).evict()
        return True


def guarded_protocol(header_seconds: float, budget: int | None = None) \
        -> type[GuardedH11Protocol]:
    """The protocol class for uvicorn's ``http=`` with these limits."""
    return type("KonkunH11Protocol", (GuardedH11Protocol,), {
        "header_seconds": header_seconds,
        "budget": connection_budget() if budget is None else budget})
