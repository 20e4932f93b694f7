"""The parts every route module shares, built once by
:func:`konkun.server.app.create_app`, and the one way a route is declared.

**Declaring a route.** Each area of the server (tables, accounts, analysis, pages, the
table socket ...) is one module under ``konkun.server.web`` with a function
``router(parts: Parts) -> APIRouter``: its routes are declared on that router, each with
its rate-limit class right under the route's decorator::

    def router(parts: Parts) -> APIRouter:
        routes = APIRouter()

        @routes.get("/api/tables/{table_id}/thing")
        @rate_limit(READ)
        async def thing(table_id: str) -> dict[str, Any]:
            return await parts.lobby().summary(table_id)

        return routes

and ``create_app`` includes the router (one name in its list of routers). The throttle
takes each request's class from the route's own declaration
(:class:`~konkun.server.web.throttle.RouteClasses`); a route without one fails
``tests/server/test_route_limits.py``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import Request, WebSocket
from fastapi.responses import FileResponse, HTMLResponse

from konkun.server.core.auth import Guest, TokenSigner
from konkun.server.core.config import Settings
from konkun.server.core.protocol import ProtocolError
from konkun.server.core.ratelimit import AddressLimiter
from konkun.server.web.messages import load_json

if TYPE_CHECKING:
    from konkun.server.lobby import Lobby
    from konkun.server.web.account_routes import ServiceHolder
    from konkun.server.web.analysis import AnalysisService

RENEWED_TOKEN = "konkun_renewed_token"
"""Where a route leaves a renewed token for the app's ``SecurityHeaders`` (the ASGI
state)."""


@dataclass
class Parts:
    """What the routes of one app share: its settings, token signer and write limiter,
    the page's folder, and, while the app runs, its lobby and services."""

    settings: Settings
    signer: TokenSigner
    limiter: AddressLimiter
    """The per-address write bucket (a WebSocket ``sit`` or ``leave`` spends it too)."""
    static: Path
    running: dict[str, Any] = field(default_factory=dict)
    """The running lobby (``"lobby"``) and analysis service (``"analysis"``), set by the
    app's lifespan."""
    accounts: ServiceHolder | None = None
    """The account services' holder (set by ``create_app`` from the account routes)."""

    def lobby(self) -> Lobby:
        """The running lobby."""
        lobby: Lobby = self.running["lobby"]
        return lobby

    def analysis(self) -> AnalysisService:
        """The running analysis service."""
        service: AnalysisService = self.running["analysis"]
        return service

    def services(self) -> ServiceHolder:
        """The account services' holder."""
        assert self.accounts is not None, "create_app sets the account services"
        return self.accounts

    def token_guest(self, request: Request, table: str | None = None) -> Guest | None:
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
        who = self.signer.verify(token.strip(), table)
        renewed = self.signer.renewal(who)
        if renewed is not None:
            request.scope.setdefault("state", {})[RENEWED_TOKEN] = renewed
        return who

    def guest_of(self, request: Request, table: str | None = None) -> Guest:
        """The guest of the request's token, which the request must carry (a seat link's
        token only on its own ``table``'s routes)."""
        who = self.token_guest(request, table)
        if who is None:
            raise ProtocolError("unauthorized", "this needs a guest token: "
                                "Authorization: Bearer <token> (POST /api/guest)")
        return who


def client_address(source: Request | WebSocket) -> str:
    """The client's address (a trusted proxy's forwarded one, see ``--forwarded-allow-ips``)."""
    return source.client.host if source.client else "?"


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object body (``{}`` when empty)."""
    return load_json(await request.body() or b"{}")


def page(static: Path, name: str = "index.html") -> Any:
    """The page file ``name`` (else ``index.html``, which routes on the path), or a short
    note when the page is not installed."""
    for candidate in (static / name, static / "index.html"):
        if candidate.is_file():
            return FileResponse(candidate, media_type="text/html")
    return HTMLResponse("<!doctype html><title>konkun</title><p>konkun is running; the "
                        "browser page is not installed.</p>")
