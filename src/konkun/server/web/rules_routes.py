"""The rules pages, ``/rules/konchinka`` and ``/rules/kunken`` (``docs/web.md``,
"Teaching"): each is the one ``index.html``, which draws the rules of the game its path
names in the page's language; any other game is a 404. The house rules' explanations the
pages show come with ``GET /api/catalog`` (each game's ``explanations`` add-on)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from konkun.server.core.protocol import ProtocolError
from konkun.server.web.parts import Parts, page
from konkun.server.web.throttle import rate_limit

RULES_GAMES = ("konchinka", "kunken")
"""The games with a rules page."""


def router(parts: Parts) -> APIRouter:
    """``GET /rules/{game}``, serving the page from ``parts.static``."""
    routes = APIRouter(include_in_schema=False)

    @routes.get("/rules/{game}")
    @rate_limit(None)
    async def rules_page(game: str) -> Any:
        if game not in RULES_GAMES:
            raise ProtocolError("not_found", f"no rules page for game {game!r}: expected "
                                + " or ".join(RULES_GAMES), game)
        return page(parts.static)

    return routes
