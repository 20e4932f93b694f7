"""The per-address rate limits of HTTP requests, checked before any other work.

A flood of requests costs the server each request's handling even when every one is
refused, and that time is taken from the event loop that also carries the players'
moves. So the limits are checked first, in :class:`KonkunApp` (the outermost layer of the
application, before routing, middleware and body reading), from the request's method and
path alone: the class is the one the matching route declares next to itself
(:func:`rate_limit`, found by :class:`RouteClasses` in the routes' own patterns), and a
refusal is a prebuilt answer (429 ``rate_limited``, ``Retry-After``).

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
import re
from collections.abc import Awaitable, Callable, MutableMapping, Sequence
from typing import Any, TypeVar

from fastapi import FastAPI
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute

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
    Every route of the app declares one (``tests/server/test_route_limits.py``), and the
    throttle gives each request of the route that class (:class:`RouteClasses`), so a new
    route is limited by what it declares, with no change here."""
    if kind not in (WRITE, READ, MATCH, SOCKET, None):
        raise ValueError(f"unknown rate-limit class {kind!r}")

    def declare(endpoint: Endpoint) -> Endpoint:
        setattr(endpoint, RATE_LIMIT, kind)
        return endpoint

    return declare


def declared_rate_limit(endpoint: Callable[..., Any]) -> tuple[bool, str | None]:
    """Whether ``endpoint`` declared its rate-limit class (:func:`rate_limit`), and which."""
    return hasattr(endpoint, RATE_LIMIT), getattr(endpoint, RATE_LIMIT, None)


UNROUTED = WRITE
"""The class of a request with a body (``POST``, ``PUT`` ...) that no route takes (a probe
of unknown paths, a wrong method): limited like a write, so that such a flood is refused
before routing and body reading too. An unrouted ``GET``, ``HEAD`` or ``OPTIONS`` (a
missing page, a CORS preflight) is not limited: its answer is a cheap 404 or the CORS
layer's."""

UNLIMITED_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def _route_path(scope: Scope) -> str:
    """The path the router matches: the request's path without the app's root path."""
    path: str = scope.get("path", "")
    root: str = scope.get("root_path", "")
    return path[len(root):] if root and path.startswith(root) else path


def flat_routes(routes: Sequence[BaseRoute]) -> list[BaseRoute]:
    """``routes`` in routing order, each included router's routes in its place (FastAPI
    keeps a router given to ``include_router`` as one entry of the app's routes; the
    server's routers are included without a prefix, their routes carry whole paths)."""
    flat: list[BaseRoute] = []
    for route in routes:
        included = getattr(route, "original_router", None)
        if included is not None:
            flat.extend(flat_routes(included.routes))
        else:
            flat.append(route)
    return flat


class RouteClasses:
    """The rate-limit class each route declares (:func:`rate_limit`), found for a request
    by matching it against the routes in routing order, as the router will: no URL is
    parsed here, so a new route is throttled by its own declaration."""

    def __init__(self, routes: Sequence[BaseRoute]) -> None:
        self.count = len(routes)
        """How many routes the table was built from (rebuilt when routes are added)."""
        self.http: list[tuple[re.Pattern[str], frozenset[str] | None, str | None]] = []
        self.sockets: list[tuple[re.Pattern[str], str | None]] = []
        for route in flat_routes(routes):
            if isinstance(route, Route):
                methods = frozenset(route.methods) if route.methods else None
                self.http.append((route.path_regex, methods,
                                  declared_rate_limit(route.endpoint)[1]))
            elif isinstance(route, WebSocketRoute):
                self.sockets.append((route.path_regex,
                                     declared_rate_limit(route.endpoint)[1]))
            elif isinstance(route, Mount):  # static files: never limited
                self.http.append((route.path_regex, None, None))

    def request_class(self, scope: Scope) -> str | None:
        """The class of the HTTP request ``scope``: that of the first route that takes
        its path and method; when none does, :data:`UNROUTED` (``None`` for a method in
        :data:`UNLIMITED_METHODS`)."""
        path, method = _route_path(scope), scope.get("method", "")
        for pattern, methods, kind in self.http:
            if (methods is None or method in methods) and pattern.match(path):
                return kind
        return None if method in UNLIMITED_METHODS else UNROUTED

    def socket_class(self, scope: Scope) -> str | None:
        """The class of the WebSocket open ``scope`` (:data:`SOCKET` when no route takes
        it: it is limited like any other open)."""
        path = _route_path(scope)
        for pattern, kind in self.sockets:
            if pattern.match(path):
                return kind
        return SOCKET


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

    async def refused_request(self, scope: Scope, send: Send, kind: str | None) -> bool:
        """Answer the HTTP request ``scope`` of class ``kind`` with a refusal if its
        address is over that class's rate; whether it was refused (then nothing else may
        answer it)."""
        if kind is None or not await self._over(scope, kind):
            return False
        start, body = self._answers[kind]
        await send(dict(start))
        await send(dict(body))
        return True

    async def refused_socket(self, scope: Scope, receive: Receive, send: Send,
                             kind: str | None) -> bool:
        """Close the WebSocket ``scope`` of class ``kind`` before its handshake is
        accepted if its address opens sockets over that class's rate; whether it was
        refused."""
        if kind is None or kind not in self.limiters or not await self._over(scope, kind):
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
    _classes: RouteClasses | None = None

    def route_classes(self) -> RouteClasses:
        """The declared class of every route, built again when routes were added."""
        classes = self._classes
        if classes is None or classes.count != len(self.router.routes):
            classes = self._classes = RouteClasses(self.router.routes)
        return classes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        throttle = self.throttle
        if throttle is not None:
            if scope["type"] == "http" and await throttle.refused_request(
                    scope, send, self.route_classes().request_class(scope)):
                return
            if scope["type"] == "websocket" and await throttle.refused_socket(
                    scope, receive, send, self.route_classes().socket_class(scope)):
                return
        await super().__call__(scope, receive, send)
