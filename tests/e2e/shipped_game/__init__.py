"""A game an external package ships with its own page module: the toy game's engine
(:mod:`konkun.toy`) under the name ``shipped``, whose ``page`` add-on is a
:class:`~konkun.server.core.games.GamePage` naming this package's ``page/`` directory. The
server serves that directory under ``/static/games/shipped/``; the page's registry imports
``page.js`` from there, adds its texts and links its stylesheet (docs/web.md, "Game
pages"). Registered by the tests that use it (``register_game(GAME)``), never installed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from konkun.game import Titles
from konkun.server.core.games import GamePage
from konkun.toy import GAME as TOY

PAGE = GamePage("page.js", Path(__file__).parent / "page")
"""The package's page module and the directory of its page files."""

GAME = replace(TOY, name="shipped", title=Titles("Shipped", "Привозная"),
               addons={**TOY.addons, "page": PAGE})
"""The shipped game: the toy game's rules, its own page."""
