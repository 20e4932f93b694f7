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
