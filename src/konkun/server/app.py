"""The FastAPI application: HTTP API, WebSocket play and the browser page.

:func:`create_app` builds one app from :class:`~konkun.server.core.config.Settings`; the routes
follow ``docs/protocol.md``. Every bad input becomes ``{"type": "error", "code", "message"}``
(HTTP 4xx or a WebSocket message) and changes nothing; an unexpected exception in one
message is logged and reported, and never ends the server.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from konkun import __version__
from konkun.server.core.auth import (
    TokenSigner,
    load_secret,
    private_file_problems,
    redact_tokens,
)
from konkun.server.core.config import Settings
from konkun.server.core.protocol import MAX_BODY_BYTES, ProtocolError, error_payload
from konkun.server.core.ratelimit import AddressLimiter, quiet_repeats
from konkun.server.core.stagetimes import STAGES, watch_loop
from konkun.server.lobby import Lobby
from konkun.server.store.storage import Storage
from konkun.server.web import (
    account_routes,
    analysis,
    game_page_routes,
    page_routes,
    rules_routes,
    socket_routes,
    table_routes,
    teaching_routes,
)
from konkun.server.web.analysis import service_for
from konkun.server.web.parts import RENEWED_TOKEN, Parts, page
from konkun.server.web.throttle import MATCH, READ, SOCKET, WRITE, KonkunApp, Throttle

log = logging.getLogger("konkun.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'; "
    "object-src 'none'")


class SecurityHeaders:
    """ASGI middleware: the browser-side defences on every answer (a Content-Security-
    Policy, no framing, no type sniffing, no referrer), a renewed token when a route made
    one, and the refusal of a ``POST`` whose body is not ``application/json`` (a
    cross-site form or ``text/plain`` request cannot send that type without the browser
    asking first)."""

    HEADERS = (
        (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"no-referrer"),
    )

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope.get("method") == "POST" and not _json_or_empty(scope):
            response = JSONResponse(error_payload(
                "unsupported_media_type", "a POST body must be JSON: send Content-Type: "
                "application/json"), status_code=415)
            await self._send_with_headers(scope, receive, send, response)
            return
        await self._send_with_headers(scope, receive, send, self.app)

    async def _send_with_headers(self, scope: Scope, receive: Receive, send: Send,
                                 app: ASGIApp) -> None:
        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", [])) + list(self.HEADERS)
                renewed = (scope.get("state") or {}).get(RENEWED_TOKEN)
                if renewed:
                    headers.append((b"x-konkun-token", renewed.encode()))
                message["headers"] = headers
            await send(message)

        await app(scope, receive, with_headers)


def _json_or_empty(scope: Scope) -> bool:
    """Whether a request's body is declared JSON, or there is no body at all (nothing to
    forge: every POST route reads its input from the body or needs a bearer token)."""
    headers = dict(scope.get("headers") or [])
    kind = headers.get(b"content-type", b"").split(b";")[0].strip().lower()
    if kind == b"application/json":
        return True
    return not kind and headers.get(b"content-length", b"0") in (b"0", b"") \
        and b"transfer-encoding" not in headers


class BodyLimit:
    """ASGI middleware: an HTTP request body over ``limit`` bytes gets 413 ``too_large``
    before the application reads any of it; one not complete ``seconds`` after the request
    head gets 408 ``too_slow`` and the connection is closed."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES,
                 seconds: float = 10.0) -> None:
        self.app = app
        self.limit = limit
        self.seconds = seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            await self._refuse(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        deadline = asyncio.get_running_loop().time() + self.seconds
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                await self._too_slow(scope, receive, send)
                return
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.limit:
                await self._refuse(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        delivered = False

        async def replay() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse(error_payload(
            "too_large", f"request body over the limit of {self.limit} bytes"), status_code=413)
        await response(scope, receive, send)

    async def _too_slow(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = JSONResponse(error_payload(
            "too_slow", f"request body not complete after {self.seconds:g} s"),
            status_code=408, headers={"Connection": "close"})
        await response(scope, receive, send)


ROUTERS_BEFORE_STATIC: tuple[Callable[[Parts], APIRouter], ...] = (
    table_routes.router,
    analysis.router,
    account_routes.router,
    account_routes.seat_link_router,
    teaching_routes.router,
    game_page_routes.router,
)
"""The routers of the API, of the account pages and of the games' shipped page files (under
``/static/games/``, so before the ``/static`` mount), in routing order (each module's
``router(parts)`` declares its routes and their rate-limit classes: ``web/parts.py``)."""

ROUTERS_AFTER_STATIC: tuple[Callable[[Parts], APIRouter], ...] = (
    rules_routes.router,
    page_routes.router,
    socket_routes.router,
)
"""The routers after the ``/static`` files: the rules pages, the page's addresses and the
table socket."""


def create_app(settings: Settings | None = None) -> FastAPI:
    """The konkun web app for ``settings`` (the database opens when the app starts): its
    parts (:class:`~konkun.server.web.parts.Parts`), its layers and its routers."""
    settings = settings or Settings()
    quiet_repeats()
    redact_tokens()
    signer = TokenSigner(load_secret(settings.secret, settings.data_dir),
                         settings.token_seconds, settings.token_renew_seconds)
    limiter = AddressLimiter(settings.http_burst, settings.http_per_second)
    parts = Parts(settings, signer, limiter, settings.static_path())

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(settings.database_url(), settings.sqlite_synchronous)
        lobby = Lobby(storage, settings)
        lobby.finish_hooks.append(parts.services().finish_hook(lobby))
        lobby.revoked_sessions = signer.revoked  # kept up to date by the other processes
        signer.revoked |= storage.revoked_sessions()
        problems = private_file_problems(settings.data_dir)
        if problems:
            log.warning("other local users can read the server's data (tokens can be "
                        "forged and hidden cards read from it): %s; chmod 700 the "
                        "directory and 600 its files", "; ".join(problems))
        watcher = None
        if settings.stage_times is not None:
            STAGES.enabled = True
            watcher = asyncio.get_running_loop().create_task(watch_loop(settings.stage_times))
        try:
            await lobby.startup()
            parts.running["lobby"] = _app.state.lobby = lobby
            parts.running["analysis"] = _app.state.analysis = service_for(lobby)
            yield
        finally:
            if watcher is not None:
                watcher.cancel()
                STAGES.enabled = False
                STAGES.clear()
            if "analysis" in parts.running:
                await parts.running.pop("analysis").shutdown()
            await lobby.shutdown()
            storage.close()
            parts.running.pop("lobby", None)

    app = KonkunApp(title="konkun", version=__version__, lifespan=lifespan,
                    docs_url=None, redoc_url=None, openapi_url=None)
    _install_error_handlers(app, parts.static)
    app.add_middleware(BodyLimit, seconds=settings.body_seconds)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=4096)  # replays are large and repetitive
    app.state.limiter = limiter
    app.throttle = Throttle({
        WRITE: limiter,
        READ: AddressLimiter(settings.read_burst, settings.read_per_second),
        MATCH: AddressLimiter(settings.replay_burst, settings.replay_per_second),
        SOCKET: AddressLimiter(settings.socket_burst, settings.socket_per_second),
    }, delay=settings.refusal_seconds, max_held=settings.max_held_refusals,
        headers=SecurityHeaders.HEADERS)

    for router in ROUTERS_BEFORE_STATIC:
        app.include_router(router(parts))
    app.state.accounts = parts.services()
    app.mount("/static", StaticFiles(directory=parts.static, check_dir=False), name="static")
    for router in ROUTERS_AFTER_STATIC:
        app.include_router(router(parts))
    return app


NOT_PAGES = ("/api/", "/static/", "/ws/")
"""Paths whose unknown addresses answer JSON; any other unknown address is a page."""


def _install_error_handlers(app: FastAPI, static: Path) -> None:
    @app.exception_handler(ProtocolError)
    async def protocol_error(_request: Request, error: ProtocolError) -> JSONResponse:
        return JSONResponse(error.payload(), status_code=error.status)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, error: RequestValidationError) \
            -> JSONResponse:
        problems = "; ".join(f"{'.'.join(str(p) for p in e.get('loc', ()))}: {e.get('msg')}"
                             for e in error.errors())
        return JSONResponse(error_payload("bad_request", f"bad request: {problems}"),
                            status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, error: StarletteHTTPException) -> Response:
        code = "not_found" if error.status_code == 404 else "bad_request"
        if code == "not_found" and request.method in ("GET", "HEAD") \
                and not request.url.path.startswith(NOT_PAGES):
            # a person's mistyped or stale address: the page says so in its own words
            answer: Response = page(static, "index.html")
            answer.status_code = 404
            return answer
        return JSONResponse(error_payload(code, str(error.detail)),
                            status_code=error.status_code)

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=error)
        return JSONResponse(error_payload("internal", "internal error; nothing was changed"),
                            status_code=500)
