"""The page files a game package ships (``docs/web.md``, "Game pages"): a game whose
``page`` add-on is a :class:`~konkun.server.core.games.GamePage` with a directory has that
directory served under ``/static/games/{game}/``, so that the page's registry can import
its module (``GET /api/catalog`` names it) and the module can link its stylesheets and
import its own files relatively, all from this site (the Content-Security-Policy allows
scripts and styles from ``'self'`` only)."""

from __future__ import annotations

import mimetypes
from typing import Any

from fastapi import APIRouter
from fastapi.responses import FileResponse

from konkun import game as registry
from konkun.errors import InvalidRuleError
from konkun.server.core.games import GAME_PAGES, page_of
from konkun.server.core.protocol import ProtocolError
from konkun.server.web.parts import Parts
from konkun.server.web.throttle import rate_limit

MEDIA_TYPES = {".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
"""The types a module and a stylesheet must be served with (a module script of another
type is refused by the browser; the server sends ``nosniff``)."""


def router(_parts: Parts) -> APIRouter:
    """``GET /static/games/{game}/{path}``: a file of the game's shipped page directory;
    404 for an unknown game, a game that ships none, or a path not inside it."""
    routes = APIRouter(include_in_schema=False)

    @routes.get(f"/static/{GAME_PAGES}/{{game}}/{{path:path}}")
    @rate_limit(None)  # static files: never limited, like the page's own
    async def game_page_file(game: str, path: str) -> Any:
        try:
            page = page_of(registry.get_game(game))
        except InvalidRuleError:
            page = None
        found = page.file(path) if page is not None else None
        if found is None:
            raise ProtocolError("not_found", f"game {game!r} ships no page file {path!r}",
                                game)
        media = MEDIA_TYPES.get(found.suffix) or mimetypes.guess_type(found.name)[0]
        return FileResponse(found, media_type=media or "application/octet-stream")

    return routes
