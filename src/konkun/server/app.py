"""The FastAPI application: HTTP API, WebSocket play and the browser page.

:func:`create_app` builds one app from :class:`~konkun.server.core.config.Settings`; the routes
follow ``docs/protocol.md``. Every bad input becomes ``{"type": "error", "code", "message"}``
(HTTP 4xx or a WebSocket message) and changes nothing; an unexpected exception in one
message is logged and reported, and never ends the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.websockets import WebSocketDisconnect

from konkun import __version__
from konkun.errors import KonkunError
from konkun.server.core.auth import (
    Guest,
    TokenSigner,
    load_secret,
    private_file_problems,
    redact_tokens,
)
from konkun.server.core.botseats import BotSeat, offered_bots
from konkun.server.core.config import Settings
from konkun.server.core.connection import Connection
from konkun.server.core.games import game_names, get_game
from konkun.server.core.kinds import TableStatus
from konkun.server.core.movelog import deal_end, move_log
from konkun.server.core.protocol import MAX_BODY_BYTES, ProtocolError, error_payload
from konkun.server.core.ratelimit import AddressLimiter, TokenBucket, quiet_repeats
from konkun.server.core.stagetimes import STAGES, tracing_move, watch_loop
from konkun.server.features.chat import send_chat
from konkun.server.features.clock import come_back, vote_bot
from konkun.server.features.lifecycle import cancel, vote_rematch
from konkun.server.lobby import Lobby
from konkun.server.store.storage import Storage
from konkun.server.tables.table import Table
from konkun.server.web.account_routes import install as install_account_routes
from konkun.server.web.account_routes import install_seat_link_routes, rated_options
from konkun.server.web.analysis import AnalysisService, add_analysis_routes, service_for
from konkun.server.web.messages import (
    ActionMessage,
    BackMessage,
    CancelMessage,
    ChatMessage,
    GuestBody,
    HelloMessage,
    LeaveMessage,
    PingMessage,
    RematchMessage,
    SitBody,
    SitMessage,
    TableBody,
    VoteBotMessage,
    load_json,
    parse_client_message,
    validated,
)
from konkun.server.web.rules_routes import install_rules_routes
from konkun.server.web.teaching_routes import install as install_teaching_routes
from konkun.server.web.throttle import MATCH, READ, SOCKET, WRITE, KonkunApp, Throttle, rate_limit

log = logging.getLogger("konkun.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

CLOSE_UNAUTHORIZED = 4401
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_TRY_LATER = 1013
CLOSE_FORBIDDEN = 4403
MAX_PAGE = 100
"""The most tables one list request answers."""


RENEWED_TOKEN = "konkun_renewed_token"
"""Where a route leaves a renewed token for :class:`SecurityHeaders` (the ASGI state)."""

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


def create_app(settings: Settings | None = None) -> FastAPI:
    """The konkun web app for ``settings`` (the database opens when the app starts)."""
    settings = settings or Settings()
    quiet_repeats()
    redact_tokens()
    signer = TokenSigner(load_secret(settings.secret, settings.data_dir),
                         settings.token_seconds, settings.token_renew_seconds)
    state: dict[str, Lobby] = {}
    analyses: dict[str, AnalysisService] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        storage = Storage(settings.database_url(), settings.sqlite_synchronous)
        lobby = Lobby(storage, settings)
        lobby.finish_hooks.append(services.finish_hook(lobby))
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
            state["lobby"] = lobby
            _app.state.lobby = lobby
            analyses["service"] = _app.state.analysis = service_for(lobby)
            yield
        finally:
            if watcher is not None:
                watcher.cancel()
                STAGES.enabled = False
                STAGES.clear()
            if "service" in analyses:
                await analyses.pop("service").shutdown()
            await lobby.shutdown()
            storage.close()
            state.pop("lobby", None)

    app = KonkunApp(title="konkun", version=__version__, lifespan=lifespan,
                    docs_url=None, redoc_url=None, openapi_url=None)
    _install_error_handlers(app, settings.static_path())
    app.add_middleware(BodyLimit, seconds=settings.body_seconds)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(GZipMiddleware, minimum_size=4096)  # replays are large and repetitive

    def lobby() -> Lobby:
        return state["lobby"]

    limiter = AddressLimiter(settings.http_burst, settings.http_per_second)
    app.state.limiter = limiter
    app.throttle = Throttle({
        WRITE: limiter,
        READ: AddressLimiter(settings.read_burst, settings.read_per_second),
        MATCH: AddressLimiter(settings.replay_burst, settings.replay_per_second),
        SOCKET: AddressLimiter(settings.socket_burst, settings.socket_per_second),
    }, delay=settings.refusal_seconds, max_held=settings.max_held_refusals,
        headers=SecurityHeaders.HEADERS)

    def token_guest(request: Request, table: str | None = None) -> Guest | None:
        """The guest of the request's token; ``None`` without an Authorization header.
        A seat link's token counts only on its own ``table``'s routes. A token due for
        renewal gets its successor in the answer's ``X-Konkun-Token``."""
        header = request.headers.get("authorization", "")
        if not header:
            return None
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise ProtocolError("unauthorized", "malformed Authorization header: expected "
                                "'Bearer <token>'")
        who = signer.verify(token.strip(), table)
        renewed = signer.renewal(who)
        if renewed is not None:
            request.scope.setdefault("state", {})[RENEWED_TOKEN] = renewed
        return who

    def guest_of(request: Request, table: str | None = None) -> Guest:
        """The guest of the request's token, which the request must carry (a seat link's
        token only on its own ``table``'s routes)."""
        who = token_guest(request, table)
        if who is None:
            raise ProtocolError("unauthorized", "this needs a guest token: "
                                "Authorization: Bearer <token> (POST /api/guest)")
        return who

    # -- HTTP API -----------------------------------------------------------------------

    @app.get("/healthz")
    @rate_limit(None)
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "version": __version__}

    @app.post("/api/guest")
    @rate_limit(WRITE)
    async def guest(request: Request) -> dict[str, Any]:
        body = validated(GuestBody, await _json_body(request))
        await services().accounts.check_free(body.nickname)
        token, new_guest = signer.issue(body.nickname)
        return {"token": token, "player_id": new_guest.player_id,
                "nickname": new_guest.nickname}

    @app.post("/api/revoke")
    @rate_limit(WRITE)
    async def revoke(request: Request) -> dict[str, Any]:
        who = guest_of(request)
        await lobby().revoke(who.session)
        signer.revoke(who)
        request.scope.get("state", {}).pop(RENEWED_TOKEN, None)
        return {"revoked": True}

    @app.get("/api/me")
    @rate_limit(None)
    async def me(request: Request) -> dict[str, Any]:
        who = guest_of(request)
        return {"player_id": who.player_id, "nickname": who.nickname}

    @app.get("/api/bots")
    @rate_limit(None)
    async def bots() -> dict[str, Any]:
        return {"bots": offered_bots()}

    @app.get("/api/catalog")
    @rate_limit(None)
    async def catalog() -> dict[str, Any]:
        return {"games": [get_game(name).catalog() for name in game_names()]}

    def page(limit: int | None, offset: int) -> tuple[int, int]:
        """The ``limit`` and ``offset`` of a list request, checked."""
        size = settings.lobby_page if limit is None else limit
        if not 1 <= size <= MAX_PAGE or not 0 <= offset <= 10**6:
            raise ProtocolError("bad_request", f"limit must be 1..{MAX_PAGE} and offset "
                                "0..1000000", {"limit": limit, "offset": offset})
        return size, offset

    @app.get("/api/tables")
    @rate_limit(READ)
    async def list_tables(request: Request, status: str | None = None,
                          limit: int | None = None, offset: int = 0) -> dict[str, Any]:
        size, start = page(limit, offset)
        if status == TableStatus.FINISHED:
            return {"tables": await lobby().finished_tables(size, start),
                    "offset": start, "limit": size}
        if status not in (None, "", "open"):
            raise ProtocolError("bad_request", f"unknown status {status!r}: expected "
                                "'open' or 'finished'", status)
        tables = lobby().open_tables()
        return {"tables": [t.summary() for t in tables[start:start + size]],
                "total": len(tables), "offset": start, "limit": size}

    @app.get("/api/games")
    @rate_limit(READ)
    async def finished_games(request: Request, limit: int | None = None,
                             offset: int = 0) -> dict[str, Any]:
        size, start = page(limit, offset)
        return {"games": await lobby().finished_tables(size, start), "offset": start,
                "limit": size}

    @app.post("/api/tables", status_code=201)
    @rate_limit(WRITE)
    async def create_table(request: Request) -> dict[str, Any]:
        creator = token_guest(request)  # a token, when given, must verify
        body = validated(TableBody, await _json_body(request))
        once_key = (creator.player_id if creator else client_address(request),
                    body.request_id or "")
        made = lobby().create_once.get(once_key) if body.request_id else None
        if made is not None:
            return await lobby().summary(made)
        move_seconds, hints = rated_options(body.rated, body.move_seconds, body.hints)
        table = await lobby().create_table(
            body.game, body.variant, body.seats, body.rules, body.bot_seats(),
            creator=creator.player_id if creator else None, address=client_address(request),
            move_seconds=move_seconds, hints=hints, rated=body.rated)
        if body.request_id:
            lobby().create_once.put(once_key, table.id)
        return table.summary()

    @app.get("/api/tables/{table_id}")
    @rate_limit(READ)
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        return await lobby().summary(table_id)

    @app.post("/api/tables/{table_id}/sit")
    @rate_limit(WRITE)
    async def sit(table_id: str, request: Request) -> dict[str, Any]:
        who = guest_of(request)
        table = await lobby().get_table(table_id)
        body = validated(SitBody, await _json_body(request))
        await lobby().sit(table, who, body.seat, client_address(request), body.contribution)
        return table.summary()

    @app.post("/api/tables/{table_id}/leave")
    @rate_limit(WRITE)
    async def leave(table_id: str, request: Request) -> dict[str, Any]:
        who = guest_of(request, table_id)
        table = await lobby().get_table(table_id)
        await lobby().leave(table, who)
        return table.summary()

    @app.post("/api/tables/{table_id}/cancel")
    @rate_limit(WRITE)
    async def cancel_table(table_id: str, request: Request) -> dict[str, Any]:
        who = guest_of(request, table_id)
        table = await lobby().get_table(table_id)
        await cancel(lobby(), table, who)
        return {"type": "closed", "table": table_id, "reason": "cancelled"}

    @app.get("/api/tables/{table_id}/hint")
    @rate_limit(WRITE)
    async def hint(table_id: str, request: Request) -> dict[str, Any]:
        who = guest_of(request, table_id)
        return await _hint(lobby(), await lobby().get_table(table_id), who)

    @app.get("/api/tables/{table_id}/chat")
    @rate_limit(READ)
    async def chat(table_id: str) -> dict[str, Any]:
        await lobby().summary(table_id)  # unknown_table for no table
        return {"messages": await lobby().db(lobby().chat_store.history, table_id)}

    @app.get("/api/tables/{table_id}/log")
    @rate_limit(MATCH)
    async def log_of(table_id: str) -> dict[str, Any]:
        table = await lobby().get_table(table_id)
        if table.seed is None:
            return {"entries": []}
        entries = await lobby().run(move_log, table.adapter, table.rules_value,
                                    table.num_seats, table.seed, list(table.actions))
        return {"entries": entries}

    @app.get("/api/tables/{table_id}/deals/{number}")
    @rate_limit(MATCH)
    async def deal_of(table_id: str, number: int) -> dict[str, Any]:
        table = await lobby().get_table(table_id)
        ended = None
        if table.seed is not None and number >= 1:
            ended = await lobby().run(deal_end, table.adapter, table.rules_value,
                                      table.num_seats, table.seed, list(table.actions), number)
        if ended is None:
            raise ProtocolError("not_finished", f"deal {number} of table {table_id} is not "
                                "over", number)
        return ended

    @app.get("/api/games/{table_id}/replay")
    @app.get("/api/tables/{table_id}/replay")
    @rate_limit(MATCH)
    async def replay(table_id: str, request: Request, seat: str | None = None) -> Response:
        encoded = await lobby().encoded_replay(table_id, seat)
        headers = {"ETag": encoded.etag, "Cache-Control": "no-cache", "Vary": "Accept-Encoding"}
        if encoded.etag in request.headers.get("if-none-match", ""):
            return Response(status_code=304, headers=headers)  # the client has it already
        if "gzip" in request.headers.get("accept-encoding", "").lower():
            return Response(encoded.gzipped, media_type="application/json",
                            headers=headers | {"Content-Encoding": "gzip"})
        return Response(encoded.body, media_type="application/json", headers=headers)

    add_analysis_routes(app, lambda: analyses["service"])

    # -- pages --------------------------------------------------------------------------

    static = settings.static_path()
    services = install_account_routes(app, signer, lobby, guest_of, client_address, static)
    install_seat_link_routes(app, signer, lobby, guest_of)
    install_teaching_routes(app, lambda name: _page(static, name))
    app.mount("/static", StaticFiles(directory=static, check_dir=False), name="static")
    install_rules_routes(app, static)

    @app.get("/", include_in_schema=False)
    @rate_limit(None)
    async def index() -> Any:
        return _page(static, "index.html")

    @app.get("/t/{table_id}", include_in_schema=False)
    @rate_limit(None)
    async def table_page(table_id: str) -> Any:
        return _page(static, "table.html")

    @app.get("/replay/{table_id}", include_in_schema=False)
    @rate_limit(None)
    async def replay_page(table_id: str) -> Any:
        return _page(static, "replay.html")

    # -- WebSocket ----------------------------------------------------------------------

    @app.websocket("/ws/tables/{table_id}")
    @rate_limit(SOCKET)
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await _serve_socket(websocket, table_id, lobby(), signer, settings, limiter)

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
            page: Response = _page(static, "index.html")
            page.status_code = 404
            return page
        return JSONResponse(error_payload(code, str(error.detail)),
                            status_code=error.status_code)

    @app.exception_handler(Exception)
    async def unexpected(_request: Request, error: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=error)
        return JSONResponse(error_payload("internal", "internal error; nothing was changed"),
                            status_code=500)


async def _json_body(request: Request) -> dict[str, Any]:
    return load_json(await request.body() or b"{}")


def _page(static: Path, name: str) -> Any:
    for candidate in (static / name, static / "index.html"):
        if candidate.is_file():
            return FileResponse(candidate, media_type="text/html")
    return HTMLResponse("<!doctype html><title>konkun</title><p>konkun is running; the "
                        "browser page is not installed.</p>")


def client_address(source: Request | WebSocket) -> str:
    """The client's address (a trusted proxy's forwarded one, see ``--forwarded-allow-ips``)."""
    return source.client.host if source.client else "?"


def _limit_address(limiter: AddressLimiter, connection: Connection) -> None:
    """A WebSocket ``sit`` or ``leave`` counts against the address like an HTTP POST."""
    if not limiter.take(connection.address):
        raise ProtocolError("rate_limited", "too many seat changes: slow down")


async def _hint(lobby: Lobby, table: Table, who: Guest) -> dict[str, Any]:
    """A greedy bot's suggestion for the caller's seat, when it is to act, with the engine
    solver's advice where the game has a solver."""
    seat = table.seat_of(who.player_id)
    if seat is None:
        raise ProtocolError("not_seated", "you hold no seat at this table")
    if not table.extras.hints:
        raise ProtocolError("hints_off", "this table plays without hints")
    async with table.lock:
        if table.match is None or table.status != TableStatus.PLAYING:
            raise ProtocolError(
                "not_started" if table.status == TableStatus.WAITING else "game_over",
                "there is no move to hint")
        if table.to_move != seat:
            raise ProtocolError("not_your_turn", f"seat {seat} is not to act")
        observation = table.match.deal.observe(seat)
        turn = table.turn
        deal = table.match.deal
    try:
        adviser = BotSeat("greedy", table.adapter.name)
    except KonkunError:
        adviser = BotSeat("random", table.adapter.name)
    loop = asyncio.get_running_loop()
    action = await loop.run_in_executor(None, adviser.choose, observation)
    answer = {"action": deal.format_action(action), "turn": turn, "bot": adviser.spec}
    if table.adapter.advice is not None:
        answer["solver"] = await loop.run_in_executor(None, table.adapter.advice, observation)
    return answer


async def _serve_socket(websocket: WebSocket, table_id: str, lobby: Lobby,
                        signer: TokenSigner, settings: Settings,
                        limiter: AddressLimiter) -> None:
    """One WebSocket client of one table, from accept to close.

    The client names itself in its first message, ``{"type": "hello", "token": ...}``;
    until then it is a spectator (when even a spectator is refused, the ``hello`` is
    awaited ``Settings.hello_seconds``, so a seat's own player still gets in). ``?token=``
    in the URL still works for one release, logged as deprecated (the token itself is
    never logged)."""
    await websocket.accept()
    if not _origin_allowed(websocket, settings):
        await _refuse(websocket, ProtocolError(
            "forbidden_origin", "this page's origin may not open the table's WebSocket"),
            CLOSE_FORBIDDEN)
        return
    token = websocket.query_params.get("token")
    if token:
        log.warning("a WebSocket sent its token in the URL (?token=): deprecated, and "
                    "proxies log URLs; send {\"type\": \"hello\", \"token\": ...} first")
    try:
        guest = signer.verify(token, table_id) if token else None
    except ProtocolError as error:
        await _refuse(websocket, error, CLOSE_UNAUTHORIZED)
        return
    try:
        table = await lobby.get_table(table_id, keep=True)
    except ProtocolError as error:
        await _refuse(websocket, error, CLOSE_UNKNOWN_TABLE)
        return
    connection = Connection(guest, TokenBucket(settings.rate_burst, settings.rate_per_second),
                            client_address(websocket))
    greeted = token is not None
    try:
        lobby.attach(table, connection)
    except ProtocolError as error:
        if greeted or not await _admit_after_hello(websocket, lobby, table, connection,
                                                   signer, settings.hello_seconds):
            await _refuse(websocket, error, CLOSE_TRY_LATER)
            return
        greeted = True
    writer = asyncio.get_running_loop().create_task(_write(websocket, connection))
    try:
        if connection.guest is not None:
            _renew(signer, connection.guest, connection)
        while not connection.closed:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            hello = None if greeted else _hello(message)
            greeted = True
            if hello is None:
                await _handle(lobby, table, connection, message, limiter)
            elif hello.token:
                try:
                    lobby.identify(table, connection, signer.verify(hello.token, table.id))
                except ProtocolError as error:
                    connection.close_with(error.payload())
                    break
                assert connection.guest is not None
                _renew(signer, connection.guest, connection)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        lobby.detach(table, connection)
        with contextlib.suppress(Exception):
            await writer


async def _admit_after_hello(websocket: WebSocket, lobby: Lobby, table: Table,
                             connection: Connection, signer: TokenSigner,
                             wait: float) -> bool:
    """Wait for a refused client's ``hello``; admit it if its player may come in."""
    try:
        message = await asyncio.wait_for(websocket.receive(), wait)
    except (TimeoutError, WebSocketDisconnect, RuntimeError):
        return False
    hello = _hello(message)
    if hello is None or not hello.token:
        return False
    try:
        connection.guest = signer.verify(hello.token, table.id)
        lobby.attach(table, connection)
    except ProtocolError:
        return False
    return True


def _hello(message: Message | None) -> HelloMessage | None:
    """The ``hello`` a first message is, if it is one."""
    if message is None or not isinstance(message.get("text"), str):
        return None
    try:
        parsed = parse_client_message(message["text"])
    except ProtocolError:
        return None
    return parsed if isinstance(parsed, HelloMessage) else None


def _renew(signer: TokenSigner, guest: Guest, connection: Connection) -> None:
    """Send the connection a renewed token when its own is due for renewal."""
    renewed = signer.renewal(guest)
    if renewed is not None:
        connection.send({"type": "token", "token": renewed})


def _origin_allowed(websocket: WebSocket, settings: Settings) -> bool:
    """A browser's WebSocket comes from a page of this server (its ``Origin`` names the
    host it connects to) or of an allowed origin; clients that send no ``Origin`` (not a
    browser) are let in."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    if origin in settings.allowed_origins:
        return True
    host = websocket.headers.get("host", "")
    _scheme, _, rest = origin.partition("://")
    return bool(host) and rest.lower() == host.lower()


async def _refuse(websocket: WebSocket, error: ProtocolError, code: int) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_json(error.payload())
        await websocket.close(code=code, reason=error.code)


async def _write(websocket: WebSocket, connection: Connection) -> None:
    """Send the connection's queued messages in order until it closes."""
    try:
        while True:
            text = await connection.queue.get()
            if text is None:
                break
            await websocket.send_text(text)
            if connection.traced is not None:
                connection.traced = connection.traced.sent(text)
    except Exception:  # the client went away; the reader notices and detaches
        connection.closed = True
    finally:
        with contextlib.suppress(Exception):
            await websocket.close()


async def _handle(lobby: Lobby, table: Table, connection: Connection,
                  message: Message, limiter: AddressLimiter) -> None:
    """Answer one client message; errors go back to the sender and change nothing."""
    if not connection.bucket.take():
        now = time.monotonic()
        if now - connection.last_limited >= 1.0:
            connection.last_limited = now
            connection.send(error_payload("rate_limited", "too many messages: slow down; "
                                          "this one was ignored"))
        return
    try:
        parsed = parse_client_message(message.get("text") if "text" in message
                                      else message.get("bytes"))
        if isinstance(parsed, PingMessage):
            lobby.catch_up(table, connection)
            connection.send({"type": "pong"})
        elif isinstance(parsed, ActionMessage):
            with tracing_move() as trace:
                if trace is not None:
                    trace.connection = connection
                await lobby.play(table, connection.player_id, parsed.action, parsed.turn)
        elif isinstance(parsed, SitMessage):
            if connection.guest is None:
                raise ProtocolError("unauthorized", "taking a seat needs a guest token")
            _limit_address(limiter, connection)
            await lobby.sit(table, connection.guest, parsed.seat, connection.address,
                            parsed.contribution)
        elif isinstance(parsed, LeaveMessage):
            if connection.guest is None:
                raise ProtocolError("not_seated", "you hold no seat at this table")
            _limit_address(limiter, connection)
            await lobby.leave(table, connection.guest)
        elif isinstance(parsed, CancelMessage):
            if connection.guest is None:
                raise ProtocolError("not_creator", "only the table's creator may cancel it")
            await cancel(lobby, table, connection.guest)
        elif isinstance(parsed, RematchMessage):
            await vote_rematch(lobby, table, connection.guest, parsed.contribution)
        elif isinstance(parsed, VoteBotMessage):
            await vote_bot(lobby, table, connection.guest, parsed.seat)
        elif isinstance(parsed, BackMessage):
            await come_back(lobby, table, connection.guest)
        elif isinstance(parsed, ChatMessage):
            await send_chat(lobby, table, connection.guest, parsed.text, lobby.chat_limits)
        else:
            raise ProtocolError("bad_request", "'hello' is only taken as the first message")
    except ProtocolError as error:
        connection.send(error.payload())
    except Exception:
        log.exception("unexpected error on table %s", table.id)
        connection.send(error_payload("internal", "internal error; nothing was changed"))
