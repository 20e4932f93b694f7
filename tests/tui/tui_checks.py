"""Helpers shared by the terminal tests (imported by the tui test modules): the plain text
of a widget, and the app running headlessly on a session."""

from __future__ import annotations

import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Static

from konkun.tui.app import PlayApp
from konkun.tui.session import PlaySession


def widget_text(app: PlayApp, selector: str) -> str:
    """The plain text a widget shows."""
    widget = app.screen.query_one(selector, Static)
    console = Console(width=120, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


@asynccontextmanager
async def running(session: PlaySession, save: Path | None = None,
                  size: tuple[int, int] = (120, 40)) -> AsyncIterator[tuple[PlayApp, Pilot[Any]]]:
    """The app on ``session`` without a bot delay, run headlessly at ``size`` and drawn
    once: ``async with running(session) as (app, pilot):``."""
    app = PlayApp(session, save, bot_delay=0)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        yield app, pilot


SMALL_SIZES = [(80, 24), (40, 12)]
"""The smallest terminals the app is made for: a classic terminal and a phone's."""


def screen_lines(app: PlayApp) -> list[str]:
    """The text of every line of the screen as drawn (the top screen: a modal shows
    itself over the game)."""
    # Textual has no public call for the drawn text (its snapshots render this way)
    return [strip.text for strip in app.screen._compositor.render_strips()]  # noqa: SLF001


def region_text(app: PlayApp, selector: str) -> str:
    """The words a widget shows within the screen (what is cut off is not there), its
    lines joined by single spaces."""
    region = app.screen.query_one(selector).region
    lines = screen_lines(app)[region.y:region.bottom]
    return " ".join(" ".join(line[region.x:region.right].split()) for line in lines).strip()
