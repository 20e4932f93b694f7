"""The HTTP routes of accounts, profiles and leaderboards (``docs/protocol.md``,
"Accounts", "Profiles and leaderboards"), and the pages that show them.

:func:`router` declares them (:mod:`.parts` says how), :func:`seat_link_router` the seat
links'; the
services (:class:`~konkun.server.accounts.accounts.AccountService`,
:class:`~konkun.server.accounts.ratings_service.RatingStore`) run on the lobby's database, their
queries in its storage thread.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Request
from pydantic import Field

from konkun.server.accounts.accounts import (
    AccountService,
    AccountStore,
    Passwords,
)
from konkun.server.accounts.ratings_service import RatingStore, bot_names, pool_named, rating_pools
from konkun.server.core.auth import Guest
from konkun.server.core.loginlimit import LoginLimiter
from konkun.server.core.outbound import RatedMessage
from konkun.server.core.protocol import MAX_MESSAGE_BYTES, ProtocolError
from konkun.server.store.clusterlimits import LoginLog
from konkun.server.store.storage import now_text
from konkun.server.web.messages import RequestBody, validated
from konkun.server.web.parts import Parts, client_address, json_body, page
from konkun.server.web.throttle import READ, WRITE, rate_limit

if TYPE_CHECKING:
    from konkun.server.lobby import Lobby
    from konkun.server.tables.table import Table

log = logging.getLogger("konkun.server")

RATED_MOVE_SECONDS = 60
"""The move clock of a rated table that asks for none."""

LEADERBOARD_LIMIT = 100

# only the message size bounds them here: the services check each against its rule, so a
# 300-character password is a weak_password and a 300-character nickname nickname_too_long
Password = Annotated[str, Field(strict=True, max_length=MAX_MESSAGE_BYTES)]
Nickname = Annotated[str, Field(strict=True, max_length=MAX_MESSAGE_BYTES)]


class ClaimBody(RequestBody):
    """``POST /api/account/claim``: ``{"password", "nickname"?}``."""

    password: Password
    nickname: Nickname | None = None


class LoginBody(RequestBody):
    """``POST /api/account/login``: ``{"nickname", "password"}``."""

    nickname: Nickname
    password: Password


class PasswordBody(RequestBody):
    """``POST /api/account/password``: ``{"password", "new_password"}``."""

    password: Password
    new_password: Password


@dataclass
class Services:
    """The account service and rating store of one lobby (made at its first use)."""

    lobby: Lobby
    accounts: AccountService
    ratings: RatingStore


class ServiceHolder:
    """Makes the services for the running lobby, once per lobby (a test app restarts)."""

    def __init__(self, lobby: Callable[[], Lobby], passwords: Passwords | None,
                 limiter: LoginLimiter | None) -> None:
        self._lobby = lobby
        self.passwords = passwords or Passwords()
        """The password hasher (a test may swap in a cheaper one before the first use)."""
        self.limiter = limiter or LoginLimiter()
        """The login limiter, shared by the services of every lobby of this app."""
        self._made: Services | None = None

    def __call__(self) -> Services:
        return self.for_lobby(self._lobby())

    def for_lobby(self, lobby: Lobby) -> Services:
        """The services on ``lobby``'s database."""
        if self._made is None or self._made.lobby is not lobby:
            engine = lobby.storage.engine
            self.limiter.shared = LoginLog(engine, rules=self.limiter.rules) \
                if lobby.storage.shared else None
            self._made = Services(lobby, AccountService(AccountStore(engine), lobby.db,
                                                        self.passwords, self.limiter),
                                  RatingStore(engine))
        return self._made

    def finish_hook(self, lobby: Lobby) -> Callable[[Table], Awaitable[None]]:
        """What ``lobby`` calls when one of its tables finishes: :func:`record_finished`."""

        async def finished(table: Table) -> None:
            await record_finished(self.for_lobby(lobby), table)

        return finished


async def record_finished(services: Services, table: Table) -> None:
    """Index a finished table's seats and rate it when it counts (never raises: a game is
    over whatever happens to its rating)."""
    try:
        row = table.stored()
        humans = [s.get("player_id") for s in row.seats if s.get("kind") == "human"]
        accounts = set(await services.lobby.db(services.accounts.store.nicknames,
                                                [str(p) for p in humans if p]))
        row.winner = table.winner
        row.finished_at = table.finished_at
        if table.match is not None:
            row.totals = list(table.match.totals)
        ended = table.extras.ended or {}
        rated = table.extras.rated and ended.get("reason") != "aborted"
        last = set(table.extras.resigned) | forfeits(table)
        changes = await services.lobby.db(services.ratings.record_finished, row,
                                          rated, accounts, sorted(last))
        if changes:
            message: RatedMessage = {"type": "rated", "table": table.id, "ratings": [
                {"seat": c.seat, "player_id": c.player, "before": round(c.before.rating, 1),
                 "rating": round(c.after.rating, 1), "rd": round(c.after.rd, 1),
                 "change": round(c.after.rating - c.before.rating, 1)} for c in changes]}
            for connection in list(table.connections):
                connection.send(message)
            log.info("table %s rated: %s", table.id, ", ".join(
                f"{c.player} {c.before.rating:.0f}->{c.after.rating:.0f}" for c in changes))
    except Exception:
        log.exception("table %s: recording its result for ratings failed", table.id)


def router(parts: Parts) -> APIRouter:
    """The account, profile and leaderboard routes and pages; their services' holder
    (through which the app finishes tables) becomes ``parts.accounts``."""
    routes = APIRouter()
    signer, lobby, guest_of, static = parts.signer, parts.lobby, parts.guest_of, parts.static
    address_of = client_address
    services = parts.accounts = ServiceHolder(lobby, None, None)

    body_of = json_body

    async def account_of(who: Guest) -> Any:
        account = await services().accounts.account_of(who.player_id)
        if account is None:
            raise ProtocolError("not_an_account", "this needs an account: claim your "
                                "nickname first (POST /api/account/claim)")
        return account

    def answer(token: str, who: Guest) -> dict[str, Any]:
        return {"token": token, "player_id": who.player_id, "nickname": who.nickname,
                "account": True}

    @routes.post("/api/account/claim")
    @rate_limit(WRITE)
    async def claim(request: Request) -> dict[str, Any]:
        who = guest_of(request)
        body = validated(ClaimBody, await body_of(request))
        session = signer.session_for(who.player_id, who.nickname)[1].session
        account = await services().accounts.claim(
            who.player_id, session, body.nickname or who.nickname, body.password,
            address_of(request), now_text())
        await end([who.session], who)  # the guest's token (and any copy of it) ends here
        guest = Guest(who.player_id, account.nickname, session)
        return answer(signer.token_for(guest), guest)

    @routes.post("/api/account/login")
    @rate_limit(WRITE)
    async def login(request: Request) -> dict[str, Any]:
        body = validated(LoginBody, await body_of(request))
        service = services().accounts
        account = await service.login(body.nickname, body.password, address_of(request))
        token, guest = signer.session_for(account.player_id, account.nickname)
        await service.db(service.store.add_session, account.player_id, guest.session,
                         now_text())
        return answer(token, guest)

    async def end(sessions: list[str], who: Guest) -> None:
        for session in sessions:
            await lobby().revoke(session)
            signer.revoke(Guest(who.player_id, who.nickname, session))

    @routes.post("/api/account/logout")
    @rate_limit(WRITE)
    async def logout(request: Request) -> dict[str, Any]:
        who = guest_of(request)
        service = services().accounts
        await end([who.session], who)
        await service.db(service.store.end_sessions_named, who.player_id, [who.session])
        return {"revoked": 1}

    @routes.post("/api/account/logout-all")
    @rate_limit(WRITE)
    async def logout_all(request: Request) -> dict[str, Any]:
        who = guest_of(request)
        await account_of(who)
        service = services().accounts
        ended = await service.db(service.store.end_sessions, who.player_id, None)
        await end(sorted({*ended, who.session}), who)
        return {"revoked": len({*ended, who.session})}

    @routes.post("/api/account/password")
    @rate_limit(WRITE)
    async def change_password(request: Request) -> dict[str, Any]:
        who = guest_of(request)
        account = await account_of(who)
        body = validated(PasswordBody, await body_of(request))
        service = services().accounts
        await service.change_password(account, body.password, body.new_password,
                                      address_of(request), now_text())
        ended = await service.db(service.store.end_sessions, who.player_id, None)
        token, guest = signer.session_for(account.player_id, account.nickname)
        await service.db(service.store.add_session, account.player_id, guest.session,
                         now_text())
        await end(sorted({*ended, who.session}), who)
        return answer(token, guest) | {"changed": True,
                                       "revoked": len({*ended, who.session}) - 1}

    @routes.get("/api/account")
    @rate_limit(READ)
    async def account_info(request: Request) -> dict[str, Any]:
        who = guest_of(request)
        service = services().accounts
        account = await service.account_of(who.player_id)
        sessions = None
        if account is not None:
            sessions = len(await service.db(service.store.sessions, who.player_id))
        return {"player_id": who.player_id,
                "nickname": account.nickname if account else who.nickname,
                "account": account is not None, "sessions": sessions}

    @routes.get("/api/players/{player_id}")
    @rate_limit(READ)
    async def player(player_id: str, request: Request) -> dict[str, Any]:
        return await profile_of(services(), player_id)

    @routes.get("/api/leaderboard")
    @rate_limit(READ)
    async def pools() -> dict[str, Any]:
        return {"pools": [pool.name for pool in rating_pools()]}

    @routes.get("/api/leaderboard/{pool}")
    @rate_limit(READ)
    async def leaderboard(pool: str, request: Request,
                          limit: int = LEADERBOARD_LIMIT) -> dict[str, Any]:
        if pool_named(pool) is None:
            raise ProtocolError("not_found", f"no rating pool {pool!r}: expected "
                                + ", ".join(p.name for p in rating_pools()), pool)
        if not 1 <= limit <= LEADERBOARD_LIMIT:
            raise ProtocolError("bad_request", f"limit must be 1..{LEADERBOARD_LIMIT}", limit)
        return await leaderboard_of(services(), pool, limit)

    @routes.get("/profile/{player_id}", include_in_schema=False)
    @rate_limit(None)
    async def profile_page(player_id: str) -> Any:
        return page(static)

    @routes.get("/account", include_in_schema=False)
    @routes.get("/leaderboard", include_in_schema=False)
    @routes.get("/leaderboard/{pool}", include_in_schema=False)
    @rate_limit(None)
    async def leaderboard_page(pool: str | None = None) -> Any:
        return page(static)

    return routes


def seat_link_router(parts: Parts) -> APIRouter:
    """The seat link's routes (``docs/protocol.md``, "Seat links"): a seated player asks
    for the link of their seat, whose token opens that table's seat and nothing else; the
    table page asks whom such a token names before it uses one."""
    routes = APIRouter()
    signer, lobby, guest_of = parts.signer, parts.lobby, parts.guest_of

    @routes.post("/api/tables/{table_id}/seat-link")
    @rate_limit(WRITE)
    async def seat_link(table_id: str, request: Request) -> dict[str, Any]:
        who = guest_of(request, table_id)
        table = await lobby().get_table(table_id)
        seat = table.seat_of(who.player_id)
        if seat is None:
            raise ProtocolError("not_seated", "you hold no seat at this table", table_id)
        token = signer.seat_token(who, table.id)
        return {"table": table.id, "seat": seat, "token": token,
                "link": f"/t/{table.id}#seat={token}"}

    @routes.get("/api/tables/{table_id}/me")
    @rate_limit(READ)
    async def seat_holder(table_id: str, request: Request) -> dict[str, Any]:
        who = guest_of(request, table_id)
        table = await lobby().get_table(table_id)
        return {"table": table.id, "player_id": who.player_id, "nickname": who.nickname,
                "seat": table.seat_of(who.player_id), "seat_link": who.table is not None}

    return routes


async def profile_of(services: Services, player_id: str) -> dict[str, Any]:
    """``GET /api/players/{id}``: a player's name, games, ratings and recent games."""
    if not player_id or len(player_id) > 40:
        raise ProtocolError("unknown_player", "no such player", player_id)
    store = services.accounts.store
    account = await services.lobby.db(store.by_player, player_id)
    data = await services.lobby.db(services.ratings.profile, player_id)
    names = bot_names(player_id)
    if account is None and names is None and not data["played"] and not data["ratings"]:
        raise ProtocolError("unknown_player", f"no player {player_id!r}", player_id)
    nickname = account.nickname if account else (names or {}).get("en") or data["last_name"]
    return {"player_id": player_id, "nickname": nickname, "account": account is not None,
            "bot": names is not None, "names": names,
            "since": account.created_at if account else None,
            "played": data["played"], "ratings": data["ratings"], "recent": data["recent"]}


async def leaderboard_of(services: Services, pool: str, limit: int) -> dict[str, Any]:
    """``GET /api/leaderboard/{pool}``: the pool's players, best first, with names."""
    entries = await services.lobby.db(services.ratings.leaderboard, pool, limit)
    names = await services.lobby.db(services.accounts.store.nicknames,
                                    [e["player_id"] for e in entries if not e["bot"]])
    shown = []
    for rank, entry in enumerate(entries, start=1):
        bot = bot_names(entry["player_id"])
        nickname = names.get(entry["player_id"]) if bot is None else bot.get("en")
        if nickname is None:
            continue
        shown.append(entry | {"rank": rank, "nickname": nickname, "names": bot,
                              "link": f"/profile/{entry['player_id']}"})
    for rank, entry in enumerate(shown, start=1):
        entry["rank"] = rank
    return {"pool": pool, "players": shown}


STAND_IN_SHARE = 0.25
"""A person whose moves the stand-in bot played for more than this share of her seat's
moves forfeits: she is rated as last (docs/ratings.md)."""


def forfeits(table: Table) -> set[int]:
    """The seats of a finished table rated as last because the stand-in played more than
    ``STAND_IN_SHARE`` of their moves."""
    played: dict[int, int] = {}
    for seat, _ in table.actions:
        played[seat] = played.get(seat, 0) + 1
    return {seat for seat, moves in table.extras.stand_in_moves.items()
            if moves > STAND_IN_SHARE * played.get(seat, 0)}


def standard_rules_only(rules: dict[str, str]) -> None:
    """Refuse house rules at a rated table (``invalid_rule``): it plays each game's
    standard rules (Konchinka to 15, Kunken's full match; docs/ratings.md)."""
    if rules:
        raise ProtocolError("invalid_rule", "a rated table plays the standard rules: "
                            f"remove the rule options {', '.join(sorted(rules))}", rules)


def rated_options(rated: bool, move_seconds: int, hints: bool) -> tuple[int, bool]:
    """A new table's move clock and hints: a rated table has hints off and a clock."""
    if not rated:
        return move_seconds, hints
    return move_seconds or RATED_MOVE_SECONDS, False
