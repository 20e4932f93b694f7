"""The table's WebSocket (``docs/protocol.md``, "WebSocket"): a client of one table from
accept to close, and each message it sends."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import MutableMapping
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from konkun.server.core.auth import Guest, TokenSigner
from konkun.server.core.config import Settings
from konkun.server.core.connection import Connection
from konkun.server.core.outbound import PongMessage, TokenMessage
from konkun.server.core.protocol import ProtocolError, error_payload
from konkun.server.core.ratelimit import AddressLimiter, TokenBucket
from konkun.server.core.stagetimes import tracing_move
from konkun.server.lobby import Lobby
from konkun.server.tables.table import Table
from konkun.server.web.messages import (
    AbortMessage,
    ActionMessage,
    BackMessage,
    CancelMessage,
    ChatMessage,
    ClaimMessage,
    HelloMessage,
    LeaveMessage,
    PingMessage,
    RematchMessage,
    ResignMessage,
    SitMessage,
    VoteBotMessage,
    parse_client_message,
)
from konkun.server.web.parts import Parts, client_address
from konkun.server.web.throttle import SOCKET, rate_limit

log = logging.getLogger("konkun.server")

Message = MutableMapping[str, Any]

CLOSE_UNAUTHORIZED = 4401
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_TRY_LATER = 1013
CLOSE_FORBIDDEN = 4403


def router(parts: Parts) -> APIRouter:
    """The table's WebSocket route."""
    routes = APIRouter()

    @routes.websocket("/ws/tables/{table_id}")
    @rate_limit(SOCKET)
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await _serve_socket(websocket, table_id, parts.lobby(), parts.signer,
                            parts.settings, parts.limiter)

    return routes


def _limit_address(limiter: AddressLimiter, connection: Connection) -> None:
    """A WebSocket ``sit`` or ``leave`` counts against the address like an HTTP POST."""
    if not limiter.take(connection.address):
        raise ProtocolError("rate_limited", "too many seat changes: slow down")


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
        connection.send(TokenMessage(type="token", token=renewed))


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


def _answer_refused(connection: Connection, message: Message) -> None:
    """Answer a message the connection's rate refused: a refused action (any message but a
    ping) is always answered by an error naming its type, so no move is lost silently;
    refused pings and unreadable messages get at most one error a second."""
    kind = _message_kind(message)
    if kind is not None and kind != "ping":
        connection.send(error_payload(
            "rate_limited", f"too many messages: this {kind!r} was not taken; send it "
            "again in a moment", kind))
        return
    now = time.monotonic()
    if now - connection.last_limited >= 1.0:
        connection.last_limited = now
        connection.send(error_payload("rate_limited", "too many messages: slow down; "
                                      "this one was ignored"))


def _message_kind(message: Message) -> str | None:
    """The ``type`` of a well-formed client message, or None for one that is not."""
    try:
        parsed = parse_client_message(message.get("text"))
    except ProtocolError:
        return None
    return parsed.type


async def _handle(lobby: Lobby, table: Table, connection: Connection,
                  message: Message, limiter: AddressLimiter) -> None:
    """Answer one client message; errors go back to the sender and change nothing."""
    if not connection.bucket.take():
        _answer_refused(connection, message)
        return
    try:
        parsed = parse_client_message(message.get("text") if "text" in message
                                      else message.get("bytes"))
        if isinstance(parsed, PingMessage):
            lobby.catch_up(table, connection)
            connection.send(PongMessage(type="pong"))
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
            await lobby.lifecycle.cancel(table, connection.guest)
        elif isinstance(parsed, RematchMessage):
            await lobby.lifecycle.vote_rematch(table, connection.guest, parsed.contribution)
        elif isinstance(parsed, ResignMessage):
            await lobby.lifecycle.resign(table, connection.guest)
        elif isinstance(parsed, AbortMessage):
            await lobby.lifecycle.abort(table, connection.guest)
        elif isinstance(parsed, ClaimMessage):
            await lobby.abandonment.claim(table, connection.guest,
                                          lobby.settings.idle_claim_seconds)
        elif isinstance(parsed, VoteBotMessage):
            await lobby.clock.vote_bot(table, connection.guest, parsed.seat)
        elif isinstance(parsed, BackMessage):
            await lobby.clock.come_back(table, connection.guest)
        elif isinstance(parsed, ChatMessage):
            await lobby.chat.send(table, connection.guest, parsed.text)
        else:
            raise ProtocolError("bad_request", "'hello' is only taken as the first message")
    except ProtocolError as error:
        connection.send(error.payload())
    except Exception:
        log.exception("unexpected error on table %s", table.id)
        connection.send(error_payload("internal", "internal error; nothing was changed"))
