"""The per-address rate limits of HTTP requests, checked before any other work.

A flood of requests costs the server each request's handling even when every one is
refused, and that time is taken from the event loop that also carries the players'
moves. So the limits are checked first, in :class:`KonkunApp` (the outermost layer of the
application, before routing, middleware and body reading), from the request's method and
path alone, and a refusal is a prebuilt answer (429 ``rate_limited``, ``Retry-After``).

A refused request is answered ``Settings.refusal_seconds`` late: a client looping on a
refused request then makes one request per that time instead of hundreds a second, while
the server holds only a timer. At most ``Settings.max_held_refusals`` refusals per address
are held; past them a refusal is answered at once (still before any other work).

The classes of request, each with its own bucket per address (``docs/server.md``):

- ``write``: every ``POST`` under ``/api/`` and ``GET /api/tables/{id}/hint`` (the
  WebSocket ``sit`` and ``leave`` spend the same bucket);
- ``read``: the lobby's lists, a table's summary and its chat, an account, a profile and
  a leaderboard;
- ``match``: whole-match reads (a replay, the move log, a deal's end), which replay a
  game from its seed when not kept;
- ``socket``: WebSocket opens (each one is a handshake, an admission check and a state
  sent; reconnect churn is refused before any of it, closed before the handshake is
  accepted, which the client sees as HTTP 403).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, TypeVar

from fastapi import FastAPI

from konkun.server.core.protocol import error_payload
from konkun.server.core.ratelimit import AddressLimiter

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

WRITE, READ, MATCH, SOCKET = "write", "read", "match", "socket"
"""The classes of rate-limited request."""

Endpoint = TypeVar("Endpoint", bound=Callable[..., Any])

RATE_LIMIT = "konkun_rate_limit"
"""The attribute of a route's endpoint that :func:`rate_limit` sets."""


def rate_limit(kind: str | None) -> Callable[[Endpoint], Endpoint]:
    """Declare the rate-limit class of a route, next to it (under the route's decorator;
    ``None``: not rate-limited, for a page, the health check and the cheap catalogs).
    Every route of the app declares one, and :func:`request_class` gives each request of
    the route that class (``tests/server/test_throttle.py``), so a new route cannot go
    unthrottled unnoticed."""
    if kind not in (WRITE, READ, MATCH, SOCKET, None):
        raise ValueError(f"unknown rate-limit class {kind!r}")

    def declare(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, RATE_LIMIT, kind)
        return endpoint

    return declare


def declared_rate_limit(endpoint: Callable[..., Any]) -> tuple[bool, str | None]:
    """Whether ``endpoint`` declared its rate-limit class (:func:`rate_limit`), and which."""
    return hasattr(endpoint, RATE_LIMIT), getattr(endpoint, RATE_LIMIT, None)


def request_class(method: str, path: str) -> str | None:
    """The rate-limit class of an HTTP request (``None``: not rate-limited)."""
    if not path.startswith("/api/"):
        return None
    if method == "POST":
        return WRITE
    if method != "GET":
        return None
    parts = path[5:].rstrip("/").split("/")
    if parts[0] in ("account", "players", "leaderboard"):
        return READ  # an account, a profile, a leaderboard
    if parts[0] not in ("tables", "games"):
        return None
    if len(parts) <= 2:
        return READ  # the lists, a table's summary
    if len(parts) == 3:
        return {"replay": MATCH, "log": MATCH, "hint": WRITE, "chat": READ,
                "analysis": READ, "me": READ}.get(parts[2])
    if len(parts) == 4 and parts[2] == "deals":
        return MATCH
    return None


def _refusal(message: str, extra_headers: tuple[tuple[bytes, bytes], ...],
             retry_after: float) -> tuple[Message, Message]:
    """The ASGI messages of one 429 answer, built once."""
    body = json.dumps(error_payload("rate_limited", message)).encode()
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()),
               (b"retry-after", str(max(1, round(retry_after))).encode()),
               *extra_headers]
    return ({"type": "http.response.start", "status": 429, "headers": headers},
            {"type": "http.response.body", "body": body, "more_body": False})


REFUSALS = {
    WRITE: "too many requests: slow down",
    READ: "too many requests: slow down",
    MATCH: "too many replays: slow down",
}
"""The message of each class's refusal."""


class Throttle:
    """The per-address buckets of each request class, and the held refusals."""

    def __init__(self, limiters: dict[str, AddressLimiter], delay: float = 1.0,
                 max_held: int = 64,
                 headers: tuple[tuple[bytes, bytes], ...] = ()) -> None:
        self.limiters = limiters
        self.delay = delay
        """Seconds a refusal is held before it is answered."""
        self.max_held = max_held
        """Refusals held at once per address (past them: answered at once)."""
        self.held: dict[str, int] = {}
        self._answers = {kind: _refusal(text, headers, 1 + delay)
                         for kind, text in REFUSALS.items()}
        self.refused = 0
        """How many requests were refused."""

    async def refused_request(self, scope: Scope, send: Send) -> bool:
        """Answer the HTTP request ``scope`` with a refusal if its address is over its
        class's rate; whether it was refused (then nothing else may answer it)."""
        kind = request_class(scope.get("method", ""), scope.get("path", ""))
        if kind is None or not await self._over(scope, kind):
            return False
        start, body = self._answers[kind]
        await send(dict(start))
        await send(dict(body))
        return True

    async def refused_socket(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """Close the WebSocket ``scope`` before its handshake is accepted if its address
        opens sockets over its rate; whether it was refused."""
        if SOCKET not in self.limiters or not await self._over(scope, SOCKET):
            return False
        await receive()  # websocket.connect
        await send({"type": "websocket.close", "code": 1013, "reason": "rate_limited"})
        return True

    async def _over(self, scope: Scope, kind: str) -> bool:
        """Whether ``scope``'s address is over the rate of ``kind``; when it is, return
        only after the refusal was held (see the module's text)."""
        client = scope.get("client")
        address = client[0] if client else "?"
        if self.limiters[kind].take(address):
            return False
        self.refused += 1
        held = self.held.get(address, 0)
        if self.delay > 0 and held < self.max_held:
            self.held[address] = held + 1
            try:
                await asyncio.sleep(self.delay)
            finally:
                left = self.held[address] - 1
                if left:
                    self.held[address] = left
                else:
                    del self.held[address]
        return True


class KonkunApp(FastAPI):
    """The FastAPI application with its :class:`Throttle` checked before anything else
    (routing, middleware, the request's body, a WebSocket's handshake)."""

    throttle: Throttle | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        throttle = self.throttle
        if throttle is not None:
            if scope["type"] == "http" and await throttle.refused_request(scope, send):
                return
            if scope["type"] == "websocket" \
                    and await throttle.refused_socket(scope, receive, send):
                return
        await super().__call__(scope, receive, send)
