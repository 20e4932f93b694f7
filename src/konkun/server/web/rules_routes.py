"""The rules pages, ``/rules/konchinka`` and ``/rules/kunken`` (``docs/web.md``,
"Teaching"): each is the one ``index.html``, which draws the rules of the game its path
names in the page's language; any other game is a 404. The house rules' explanations the
pages show come with ``GET /api/catalog`` (each game's ``explanations`` add-on)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.responses import FileResponse, HTMLResponse

from konkun.server.core.protocol import ProtocolError
from konkun.server.web.throttle import rate_limit

RULES_GAMES = ("konchinka", "kunken")
"""The games with a rules page."""


def install_rules_routes(app: FastAPI, static: Path) -> None:
    """Add ``GET /rules/{game}`` to ``app``, serving the page from ``static``."""

    @app.get("/rules/{game}", include_in_schema=False)
    @rate_limit(None)
    async def rules_page(game: str) -> Any:
        if game not in RULES_GAMES:
            raise ProtocolError("not_found", f"no rules page for game {game!r}: expected "
                                + " or ".join(RULES_GAMES), game)
        page = static / "index.html"
        if page.is_file():
            return FileResponse(page, media_type="text/html")
        return HTMLResponse("<!doctype html><title>konkun</title><p>the page is not installed.")
