"""The HTTP routes of the lobby and its tables (``docs/protocol.md``): a guest's token,
the catalogs, the lists of tables, making a table, sitting and leaving, a hint, the chat,
the move log, a deal's end and a replay."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from fastapi.responses import Response

from konkun import __version__
from konkun.errors import KonkunError
from konkun.server.core.auth import Guest
from konkun.server.core.botseats import BotSeat, offered_bots
from konkun.server.core.games import game_names, get_game
from konkun.server.core.kinds import TableStatus
from konkun.server.core.movelog import deal_end, move_log
from konkun.server.core.protocol import ProtocolError
from konkun.server.web.account_routes import rated_options, standard_rules_only
from konkun.server.web.messages import GuestBody, SitBody, TableBody, validated
from konkun.server.web.parts import RENEWED_TOKEN, Parts, client_address, json_body
from konkun.server.web.throttle import MATCH, READ, WRITE, rate_limit

if TYPE_CHECKING:
    from konkun.server.lobby import Lobby
    from konkun.server.tables.table import Table

MAX_PAGE = 100
"""The most tables one list request answers."""


def router(parts: Parts) -> APIRouter:
    """The health check, a guest's token, the catalogs and the table routes."""
    routes = APIRouter()
    lobby, guest_of = parts.lobby, parts.guest_of

    @routes.get("/healthz")
    @rate_limit(None)
    async def healthz() -> dict[str, Any]:
        return {"ok": True, "version": __version__}

    @routes.post("/api/guest")
    @rate_limit(WRITE)
    async def guest(request: Request) -> dict[str, Any]:
        body = validated(GuestBody, await json_body(request))
        await parts.services()().accounts.check_free(body.nickname)
        token, new_guest = parts.signer.issue(body.nickname)
        return {"token": token, "player_id": new_guest.player_id,
                "nickname": new_guest.nickname}

    @routes.post("/api/revoke")
    @rate_limit(WRITE)
    async def revoke(request: Request) -> dict[str, Any]:
        who = guest_of(request)
        await lobby().revoke(who.session)
        parts.signer.revoke(who)
        request.scope.get("state", {}).pop(RENEWED_TOKEN, None)
        return {"revoked": True}

    @routes.get("/api/me")
    @rate_limit(None)
    async def me(request: Request) -> dict[str, Any]:
        who = guest_of(request)
        return {"player_id": who.player_id, "nickname": who.nickname}

    @routes.get("/api/bots")
    @rate_limit(None)
    async def bots() -> dict[str, Any]:
        return {"bots": offered_bots()}

    @routes.get("/api/catalog")
    @rate_limit(None)
    async def catalog() -> dict[str, Any]:
        return {"games": [get_game(name).catalog() for name in game_names()]}

    def page(limit: int | None, offset: int) -> tuple[int, int]:
        """The ``limit`` and ``offset`` of a list request, checked."""
        size = parts.settings.lobby_page if limit is None else limit
        if not 1 <= size <= MAX_PAGE or not 0 <= offset <= 10**6:
            raise ProtocolError("bad_request", f"limit must be 1..{MAX_PAGE} and offset "
                                "0..1000000", {"limit": limit, "offset": offset})
        return size, offset

    @routes.get("/api/tables")
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

    @routes.get("/api/tables/mine")
    @rate_limit(READ)
    async def my_tables(request: Request) -> dict[str, Any]:
        who = guest_of(request)
        mine = [t for t in lobby().open_tables()
                if t.seat_of(who.player_id) is not None or t.extras.creator == who.player_id]
        return {"tables": [t.summary() for t in mine]}

    @routes.get("/api/games")
    @rate_limit(READ)
    async def finished_games(request: Request, limit: int | None = None,
                             offset: int = 0) -> dict[str, Any]:
        size, start = page(limit, offset)
        return {"games": await lobby().finished_tables(size, start), "offset": start,
                "limit": size}

    @routes.post("/api/tables", status_code=201)
    @rate_limit(WRITE)
    async def create_table(request: Request) -> dict[str, Any]:
        creator = parts.token_guest(request)  # a token, when given, must verify
        body = validated(TableBody, await json_body(request))
        once_key = (creator.player_id if creator else client_address(request),
                    body.request_id or "")
        made = lobby().create_once.get(once_key) if body.request_id else None
        if made is not None:
            return await lobby().summary(made)
        if body.rated:
            await lobby().seating.require_account(creator.player_id if creator else None)
            standard_rules_only(body.rules)
        move_seconds, hints = rated_options(body.rated, body.move_seconds, body.hints)
        table = await lobby().create_table(
            body.game, body.variant, body.seats, body.rules, body.bot_seats(),
            creator=creator.player_id if creator else None, address=client_address(request),
            move_seconds=move_seconds, hints=hints, rated=body.rated)
        if body.request_id:
            lobby().create_once.put(once_key, table.id)
        return table.summary()

    @routes.get("/api/tables/{table_id}")
    @rate_limit(READ)
    async def get_table(table_id: str, request: Request) -> dict[str, Any]:
        return await lobby().summary(table_id)

    @routes.post("/api/tables/{table_id}/sit")
    @rate_limit(WRITE)
    async def sit(table_id: str, request: Request) -> dict[str, Any]:
        who = guest_of(request)
        table = await lobby().get_table(table_id)
        body = validated(SitBody, await json_body(request))
        await lobby().sit(table, who, body.seat, client_address(request), body.contribution)
        return table.summary()

    @routes.post("/api/tables/{table_id}/leave")
    @rate_limit(WRITE)
    async def leave(table_id: str, request: Request) -> dict[str, Any]:
        who = guest_of(request, table_id)
        table = await lobby().get_table(table_id)
        await lobby().leave(table, who)
        return table.summary()

    @routes.post("/api/tables/{table_id}/cancel")
    @rate_limit(WRITE)
    async def cancel_table(table_id: str, request: Request) -> dict[str, Any]:
        who = guest_of(request, table_id)
        table = await lobby().get_table(table_id)
        await lobby().lifecycle.cancel(table, who)
        return {"type": "closed", "table": table_id, "reason": "cancelled"}

    @routes.get("/api/tables/{table_id}/hint")
    @rate_limit(WRITE)
    async def hint(table_id: str, request: Request) -> dict[str, Any]:
        who = guest_of(request, table_id)
        return await _hint(lobby(), await lobby().get_table(table_id), who)

    @routes.get("/api/tables/{table_id}/chat")
    @rate_limit(READ)
    async def chat(table_id: str) -> dict[str, Any]:
        await lobby().summary(table_id)  # unknown_table for no table
        return {"messages": await lobby().db(lobby().chat_store.history, table_id)}

    @routes.get("/api/tables/{table_id}/log")
    @rate_limit(MATCH)
    async def log_of(table_id: str) -> dict[str, Any]:
        table = await lobby().get_table(table_id)
        if table.seed is None:
            return {"entries": []}
        entries = await lobby().run(move_log, table.adapter, table.rules_value,
                                    table.num_seats, table.seed, list(table.actions),
                                    frozenset(table.stand_in_turns))
        return {"entries": entries}

    @routes.get("/api/tables/{table_id}/deals/{number}")
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

    @routes.get("/api/games/{table_id}/replay")
    @routes.get("/api/tables/{table_id}/replay")
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

    return routes


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
