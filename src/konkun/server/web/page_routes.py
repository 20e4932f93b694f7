"""The page's addresses: the lobby, a table and a replay (one ``index.html`` that routes
on the path; the account, profile and leaderboard pages are with their routes in
:mod:`.account_routes`)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from konkun.server.web.parts import Parts, page
from konkun.server.web.throttle import rate_limit


def router(parts: Parts) -> APIRouter:
    """``/``, ``/t/{table_id}`` and ``/replay/{table_id}``."""
    routes = APIRouter(include_in_schema=False)
    static = parts.static

    @routes.get("/")
    @rate_limit(None)
    async def index() -> Any:
        return page(static, "index.html")

    @routes.get("/t/{table_id}")
    @rate_limit(None)
    async def table_page(table_id: str) -> Any:
        return page(static, "table.html")

    @routes.get("/replay/{table_id}")
    @rate_limit(None)
    async def replay_page(table_id: str) -> Any:
        return page(static, "replay.html")

    return routes
